"""The relay's options."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cnmahjong.envs.core import config
from cnmahjong.envs.core.config import RuleOptions, check, check_bools


@dataclass(frozen=True)
class RuleConfig(RuleOptions):
    pairs_to_win: int = 5
    """Pairs among the 14 tiles that make a win."""
    refund: bool = True
    """At the end each winner refunds 1 to every seat still in play (a payment after it left)."""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    PRESETS = ("relay", "relay-norefund")

    @classmethod
    def preset_options(cls, name: str) -> dict[str, Any]:
        return {"refund": False} if name == "relay-norefund" else {}

    def __post_init__(self) -> None:
        self.check_no_extra()
        check(self.pairs_to_win in range(1, 8), "pairs_to_win", self.pairs_to_win, "1..7")
        check_bools(self, "refund")


def as_config(rules: Any) -> RuleConfig:
    return config.as_config(RuleConfig, rules)

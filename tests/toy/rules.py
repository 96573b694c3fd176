"""The toy's one rule option (a real ``RuleOptions`` dataclass, as a ruleset's config must be)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cnmahjong.envs.core import config
from cnmahjong.envs.core.config import RuleOptions, check


@dataclass(frozen=True)
class RuleConfig(RuleOptions):
    pairs_to_win: int = 5
    """Pairs among the 14 tiles that make a win."""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    PRESETS = ("fivepairs", "sixpairs")

    @classmethod
    def preset_options(cls, name: str) -> dict[str, Any]:
        return {"pairs_to_win": 6} if name == "sixpairs" else {}

    def __post_init__(self) -> None:
        self.check_no_extra()
        check(self.pairs_to_win in range(1, 8), "pairs_to_win", self.pairs_to_win, "1..7")


def as_config(rules: Any) -> RuleConfig:
    return config.as_config(RuleConfig, rules)

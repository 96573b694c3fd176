"""Rule options of Hangzhou mahjong (杭州麻将): ``RuleConfig`` and its preset ``"hangzhou"``.

Each option is named in ``shared/rules/hangzhou.md``; everything else there is
fixed rule. Validated on construction like Changsha's config: an unknown name
or a bad value raises ``ValueError`` saying what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cnmahjong.envs.core import config
from cnmahjong.envs.core.config import RuleOptions, check_bools

PRESETS = ("hangzhou",)


@dataclass(frozen=True)
class RuleConfig(RuleOptions):
    """Options of the Hangzhou rule text. Defaults are the preset ``"hangzhou"``."""

    claim_limits: bool = True
    """§2: with the dealer on 二连庄 or more, at most 3 claims per hand each way between the
    dealer and a non-dealer and 2 between two non-dealers."""
    liability: bool = True
    """§6: 承包, 反承包 and 挑扁担."""
    piao_claim_liability: bool = True
    """§6: 后半场承包, doublings after a claim made while 飘 are borne by the discarder."""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    PRESETS = PRESETS

    def __post_init__(self) -> None:
        self.check_no_extra()
        check_bools(self, "claim_limits", "liability", "piao_claim_liability")


def as_config(rules: str | RuleConfig | Mapping[str, Any]) -> RuleConfig:
    """What the Hangzhou envs take as ``rules``: ``"hangzhou"``, a ``RuleConfig`` or a dict."""
    return config.as_config(RuleConfig, rules)

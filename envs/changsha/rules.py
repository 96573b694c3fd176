"""Rule options of Changsha mahjong (rules §10): ``RuleConfig`` and its two presets.

Every regional variant is an option, never a hard-coded branch. A config is a
frozen dataclass, validated on construction: an unknown option name or a bad
value raises ``ValueError`` saying what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cnmahjong.envs.core import config
from cnmahjong.envs.core.config import RuleOptions, check, check_bools, is_int

OPENING_PATTERNS = ("SIXI", "BANBAN", "QUEYISE", "LIULIUSHUN", "SANTONG", "YIZHIHUA")
"""The opening-hand wins (起手胡) of §3.2, in action-table order."""

SCORING_CHOICES = ("zi", "points")
OVERFLOW_CHOICES = ("tail", "head")
PRESETS = ("mainstream", "classic")


@dataclass(frozen=True)
class RuleConfig(RuleOptions):
    """Options of §10. Defaults are the mainstream preset (双杠双鸟六七片)."""

    kong_draw_count: int = 2
    """Tiles taken by a 开杠 dice draw: 2 (双杠) or 1 (单杠)."""
    bird_count: int = 2
    """Birds (扎鸟) after a win: 0, 1 or 2 (§8.1)."""
    scoring: str = "zi"
    """``"zi"`` (片, §8.2) or ``"points"`` (§8.4)."""
    big_win_stacking: bool = False
    """False: any big patterns are 1 合 (只算一合); True: 合 add up (垛合子, §8.3)."""
    cap_he: int | None = None
    """封顶: cap on 合 × bird factor per pair (None: no cap)."""
    opening_wins: tuple[str, ...] = OPENING_PATTERNS
    """Which opening-hand wins (起手胡, §3.2) exist."""
    opening_win_stacking: bool = False
    """May a player declare several different opening patterns (§3.2)."""
    zimo_plus_one: bool = True
    """自摸加1: each payer of a self-drawn win adds 1 (§8.2)."""
    kong_dice_choice: bool = True
    """With 6–11 stacks left the kong player chooses one or two dice (§6.3)."""
    kong_on_haidi: bool = True
    """Allow 补张/开杠 when only the 海底 tile is left (§6.5)."""
    quanqiuren: bool = True
    """The 全求人 pattern exists (§4)."""
    quanqiuren_self_draw: bool = True
    """全求人 also counts when the last tile is self-drawn."""
    kong_dice_overflow: str = "tail"
    """A dice total above the stacks left takes the tail stack (``"tail"``) or the head one (§1)."""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.check_no_extra()
        check(is_int(self.kong_draw_count) and self.kong_draw_count in (1, 2), "kong_draw_count",
              self.kong_draw_count, "the integer 1 or 2")
        check(is_int(self.bird_count) and self.bird_count in (0, 1, 2), "bird_count", self.bird_count,
              "the integer 0, 1 or 2")
        check(self.scoring in SCORING_CHOICES, "scoring", self.scoring, SCORING_CHOICES)
        check(self.kong_dice_overflow in OVERFLOW_CHOICES, "kong_dice_overflow",
              self.kong_dice_overflow, OVERFLOW_CHOICES)
        check_bools(self, "big_win_stacking", "opening_win_stacking", "zimo_plus_one",
                    "kong_dice_choice", "kong_on_haidi", "quanqiuren", "quanqiuren_self_draw")
        cap = self.cap_he
        check(cap is None or (is_int(cap) and cap >= 1),
              "cap_he", cap, "None or a positive integer")
        wins = self.opening_wins
        if not isinstance(wins, (list, tuple)) or not all(isinstance(w, str) and w in OPENING_PATTERNS for w in wins):
            raise ValueError(f"opening_wins={wins!r}: allowed a tuple of names from {OPENING_PATTERNS}")
        if len(set(wins)) != len(wins):
            raise ValueError(f"opening_wins={wins!r} names a pattern twice")
        # Keep the canonical order so equal configs compare equal.
        object.__setattr__(self, "opening_wins", tuple(p for p in OPENING_PATTERNS if p in wins))

    PRESETS = PRESETS

    @classmethod
    def preset_options(cls, name: str) -> dict[str, Any]:
        """What the classic preset changes (mainstream is the defaults)."""
        if name == "classic":
            return dict(
                kong_draw_count=1, bird_count=1, scoring="points", big_win_stacking=True,
                opening_wins=("SIXI", "BANBAN", "QUEYISE", "LIULIUSHUN"),
                opening_win_stacking=True, zimo_plus_one=False, quanqiuren=False,
            )
        return {}

    @classmethod
    def convert(cls, name: str, value: Any) -> Any:
        """``opening_wins`` may come as a YAML list."""
        return tuple(value) if name == "opening_wins" and isinstance(value, list) else value

    # ---------------------------------------------------------- derived views
    @property
    def quad_he(self) -> bool:
        """Do LONGQIDUI / HAOHUA_JIANGJIANG exist (垛合子 in 片 scoring only, §8.3)."""
        return self.big_win_stacking and self.scoring == "zi"


def as_config(rules: str | RuleConfig | Mapping[str, Any]) -> RuleConfig:
    """What the envs take as ``rules``: a preset name, a ``RuleConfig`` or a dict of options."""
    return config.as_config(RuleConfig, rules)


def option_names() -> list[str]:
    """Names of every rule option."""
    return RuleConfig.option_names()

"""Rule options of Changsha mahjong (rules §10): ``RuleConfig`` and its two presets.

Every regional variant is an option, never a hard-coded branch. A config is a
frozen dataclass, validated on construction: an unknown option name or a bad
value raises ``ValueError`` saying what is allowed.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

OPENING_PATTERNS = ("SIXI", "BANBAN", "QUEYISE", "LIULIUSHUN", "SANTONG", "YIZHIHUA")
"""The opening-hand wins (起手胡) of §3.2, in action-table order."""

SCORING_CHOICES = ("zi", "points")
OVERFLOW_CHOICES = ("tail", "head")
PRESETS = ("mainstream", "classic")


@dataclass(frozen=True)
class RuleConfig:
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
        if self.extra:
            raise ValueError(f"unknown rule options {sorted(self.extra)}: allowed {option_names()}")
        _check(_is_int(self.kong_draw_count) and self.kong_draw_count in (1, 2), "kong_draw_count",
               self.kong_draw_count, "the integer 1 or 2")
        _check(_is_int(self.bird_count) and self.bird_count in (0, 1, 2), "bird_count", self.bird_count,
               "the integer 0, 1 or 2")
        _check(self.scoring in SCORING_CHOICES, "scoring", self.scoring, SCORING_CHOICES)
        _check(self.kong_dice_overflow in OVERFLOW_CHOICES, "kong_dice_overflow",
               self.kong_dice_overflow, OVERFLOW_CHOICES)
        for name in ("big_win_stacking", "opening_win_stacking", "zimo_plus_one",
                     "kong_dice_choice", "kong_on_haidi", "quanqiuren", "quanqiuren_self_draw"):
            _check(isinstance(getattr(self, name), bool), name, getattr(self, name), "True or False")
        cap = self.cap_he
        _check(cap is None or (_is_int(cap) and cap >= 1),
               "cap_he", cap, "None or a positive integer")
        wins = self.opening_wins
        if not isinstance(wins, (list, tuple)) or not all(isinstance(w, str) and w in OPENING_PATTERNS for w in wins):
            raise ValueError(f"opening_wins={wins!r}: allowed a tuple of names from {OPENING_PATTERNS}")
        if len(set(wins)) != len(wins):
            raise ValueError(f"opening_wins={wins!r} names a pattern twice")
        # Keep the canonical order so equal configs compare equal.
        object.__setattr__(self, "opening_wins", tuple(p for p in OPENING_PATTERNS if p in wins))

    # ------------------------------------------------------------ constructors
    @classmethod
    def preset(cls, name: str = "mainstream", **overrides: Any) -> RuleConfig:
        """A named preset (§10), optionally with some options changed."""
        if "preset" in overrides:
            raise ValueError(f"RuleConfig.preset({name!r}) got a second preset "
                             f"{overrides['preset']!r}: name one preset")
        if name == "mainstream":
            base: dict[str, Any] = {}
        elif name == "classic":
            base = dict(
                kong_draw_count=1, bird_count=1, scoring="points", big_win_stacking=True,
                opening_wins=("SIXI", "BANBAN", "QUEYISE", "LIULIUSHUN"),
                opening_win_stacking=True, zimo_plus_one=False, quanqiuren=False,
            )
        else:
            raise ValueError(f"unknown rule preset {name!r}: allowed {PRESETS}")
        base.update(overrides)
        return cls.from_dict(base)

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> RuleConfig:
        """Build from a mapping (e.g. YAML); a ``preset`` key selects the base preset."""
        if not isinstance(options, Mapping):
            raise TypeError(f"rule options must be a mapping of option names to values, "
                            f"got {type(options).__name__}: allowed keys {option_names()} and 'preset'")
        options = dict(options)
        if "preset" in options:
            return cls.preset(options.pop("preset"), **options)
        known = set(option_names())
        unknown = {k: v for k, v in options.items() if k not in known}
        kwargs = {k: v for k, v in options.items() if k in known}
        if "opening_wins" in kwargs and isinstance(kwargs["opening_wins"], list):
            kwargs["opening_wins"] = tuple(kwargs["opening_wins"])
        return cls(**kwargs, extra=unknown)

    def replace(self, **changes: Any) -> RuleConfig:
        """A copy with some options changed (validated like the constructor)."""
        return RuleConfig.from_dict({**self.to_dict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the options (JSON-serialisable; used by event logs). A fresh dict each
        call, copied from one built once (every deal logs its config)."""
        return {**self._plain, "opening_wins": list(self.opening_wins)}

    @functools.cached_property
    def _plain(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "extra"}

    # ---------------------------------------------------------- derived views
    @property
    def quad_he(self) -> bool:
        """Do LONGQIDUI / HAOHUA_JIANGJIANG exist (垛合子 in 片 scoring only, §8.3)."""
        return self.big_win_stacking and self.scoring == "zi"


def as_config(rules: str | RuleConfig | Mapping[str, Any]) -> RuleConfig:
    """What the envs take as ``rules``: a preset name, a ``RuleConfig`` or a dict of options."""
    if isinstance(rules, RuleConfig):
        return rules
    if isinstance(rules, str):
        return RuleConfig.preset(rules)
    if isinstance(rules, Mapping):
        return RuleConfig.from_dict(rules)
    raise TypeError(f"rules must be a preset name {PRESETS}, a RuleConfig or a dict, got {type(rules).__name__}")


def option_names() -> list[str]:
    """Names of every rule option."""
    return [f.name for f in dataclasses.fields(RuleConfig) if f.name != "extra"]


def _is_int(x: Any) -> bool:
    """A real integer: bools and integral floats (``2.0``) are not option integers."""
    return isinstance(x, int) and not isinstance(x, bool)


def _check(ok: bool, name: str, value: Any, allowed: Any) -> None:
    if not ok:
        raise ValueError(f"bad value {value!r} for rule option {name!r}: allowed {allowed}")

"""The Changsha action table, ``Discrete(99)`` (design doc ``env.md``).

| ids    | action |
|--------|--------|
| 0–26   | DISCARD tile t |
| 27–29  | CHI, the claimed tile is the low / middle / high tile of the run |
| 30     | PENG |
| 31     | BUZHANG on the claimed discard (明杠 by 补张, §6.1) |
| 32     | KAIGANG on the claimed discard (明杠 by 开杠, §6.3) |
| 33–59  | BUZHANG own kong of tile t − 33 (暗杠 or 加杠) |
| 60–86  | KAIGANG own kong of tile t − 60 (暗杠 or 加杠) |
| 87     | HU |
| 88     | PASS |
| 89, 90 | HAIDI_TAKE, HAIDI_DECLINE (§7) |
| 91–96  | DECLARE opening win SIXI, BANBAN, QUEYISE, LIULIUSHUN, SANTONG, YIZHIHUA |
| 97, 98 | DICE_ONE, DICE_TWO (开杠 with 6–11 stacks left) |
"""

from __future__ import annotations

from cnmahjong.envs.changsha.rules import OPENING_PATTERNS
from cnmahjong.envs.core.tiles import name as tile_name

NUM_ACTIONS = 99

DISCARD = 0
CHI_LOW, CHI_MID, CHI_HIGH = 27, 28, 29
PENG = 30
BUZHANG_CLAIM = 31
KAIGANG_CLAIM = 32
BUZHANG_SELF = 33
KAIGANG_SELF = 60
HU = 87
PASS = 88
HAIDI_TAKE = 89
HAIDI_DECLINE = 90
DECLARE = 91
DICE_ONE = 97
DICE_TWO = 98

CHI_ACTIONS = (CHI_LOW, CHI_MID, CHI_HIGH)
"""Consecutive ids: the compiled game and player test a CHI as ``CHI_LOW <= a <= CHI_HIGH``."""


def discard(t: int) -> int:
    return DISCARD + t


def buzhang(t: int) -> int:
    """Own 补张 kong (暗杠 or 加杠) of kind ``t``."""
    return BUZHANG_SELF + t


def kaigang(t: int) -> int:
    """Own 开杠 kong (暗杠 or 加杠) of kind ``t``."""
    return KAIGANG_SELF + t


def declare(pattern: str) -> int:
    """DECLARE action of an opening pattern (§3.2)."""
    return DECLARE + OPENING_PATTERNS.index(pattern)


def chi_run(action: int, t: int) -> tuple[int, int, int]:
    """The run formed by a CHI action on claimed tile ``t`` (low / middle / high position)."""
    low = t - (action - CHI_LOW)
    return (low, low + 1, low + 2)


def describe(action: int) -> str:
    """Human-readable name of an action id, e.g. ``"DISCARD 5p"``, ``"KAIGANG 2m"``."""
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action!r} out of range: allowed 0..{NUM_ACTIONS - 1}")
    if action < 27:
        return f"DISCARD {tile_name(action)}"
    if action in CHI_ACTIONS:
        return f"CHI {('low', 'middle', 'high')[action - CHI_LOW]}"
    if action < BUZHANG_SELF:
        return {PENG: "PENG", BUZHANG_CLAIM: "BUZHANG discard", KAIGANG_CLAIM: "KAIGANG discard"}[action]
    if action < KAIGANG_SELF:
        return f"BUZHANG {tile_name(action - BUZHANG_SELF)}"
    if action < HU:
        return f"KAIGANG {tile_name(action - KAIGANG_SELF)}"
    if action < DECLARE:
        return {HU: "HU", PASS: "PASS", HAIDI_TAKE: "HAIDI_TAKE", HAIDI_DECLINE: "HAIDI_DECLINE"}[action]
    if action < DICE_ONE:
        return f"DECLARE {OPENING_PATTERNS[action - DECLARE]}"
    return "DICE_ONE" if action == DICE_ONE else "DICE_TWO"

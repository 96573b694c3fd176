"""The Hangzhou action table, ``Discrete(75)`` (design doc ``env.md``).

| ids    | action |
|--------|--------|
| 0–33   | DISCARD tile t (a 财神 discarded from the 爆头-ready state is a 飘, §3) |
| 34–36  | CHI, the claimed tile is the low / middle / high tile of the run |
| 37     | PENG |
| 38     | GANG on the claimed discard (明杠) |
| 39–72  | GANG own kong of tile t − 39 (暗杠 or 加杠) |
| 73     | HU |
| 74     | PASS |
"""

from __future__ import annotations

from cnmahjong.envs.core.tiles import name as tile_name

NUM_ACTIONS = 75

DISCARD = 0
"""DISCARD tile t is action ``t`` (0–33)."""
CHI_LOW, CHI_MID, CHI_HIGH, PENG, GANG_CLAIM = range(34, 39)
GANG_SELF = 39
"""GANG own kong of tile t is ``GANG_SELF + t``."""
HU, PASS = 73, 74
CHI_ACTIONS = (CHI_LOW, CHI_MID, CHI_HIGH)
"""Consecutive ids: the compiled game and player test a CHI as ``CHI_LOW <= a <= CHI_HIGH``."""


def gang(t: int) -> int:
    """Own kong (暗杠 or 加杠) of physical kind ``t``."""
    return GANG_SELF + t


def chi_offsets(action: int) -> tuple[int, int]:
    """Offsets (natural kinds, relative to the claimed tile) of the two hand tiles of a CHI."""
    return ((1, 2), (-1, 1), (-2, -1))[action - CHI_LOW]


def describe(action: int) -> str:
    """Human-readable name of an action id, e.g. ``"DISCARD 5z"``, ``"GANG 7z"``."""
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action!r} out of range: allowed 0..{NUM_ACTIONS - 1}")
    if action < CHI_LOW:
        return f"DISCARD {tile_name(action)}"
    if action in CHI_ACTIONS:
        return f"CHI {('low', 'middle', 'high')[action - CHI_LOW]}"
    if action == PENG:
        return "PENG"
    if action == GANG_CLAIM:
        return "GANG discard"
    if action < HU:
        return f"GANG {tile_name(action - GANG_SELF)}"
    return "HU" if action == HU else "PASS"

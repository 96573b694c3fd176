"""The Sichuan action table, ``Discrete(88)`` (design doc ``env.md``, section Sichuan).

| ids    | action |
|--------|--------|
| 0–26   | DISCARD tile t (while a seat holds a tile of its void, only those are legal: D1) |
| 27     | PENG |
| 28     | GANG on the claimed discard (直杠 / 明杠) |
| 29–55  | GANG own kong of tile t − 29 (暗杠, or 补杠 onto one's PENG) |
| 56     | HU (self-draw, on a discard, or robbing a 补杠) |
| 57     | PASS |
| 58–84  | SWAP: pick tile t − 58 for 换三张 |
| 85–87  | VOID 万 (m), 条 (s), 筒 (p): 定缺 |
"""

from __future__ import annotations

from cnmahjong.envs.core.tiles import SUIT_NAMES, SUITS
from cnmahjong.envs.core.tiles import name as tile_name

NUM_ACTIONS = 88

DISCARD = 0
"""DISCARD tile t is action ``t`` (0–26)."""
PENG = 27
GANG_CLAIM = 28
GANG_SELF = 29
"""GANG own kong of tile t is ``GANG_SELF + t``."""
HU = 56
PASS = 57
SWAP = 58
"""SWAP (换三张 pick) of tile t is ``SWAP + t``."""
VOID = 85
"""VOID (定缺) of suit s (0 万, 1 条, 2 筒) is ``VOID + s``."""


def discard(t: int) -> int:
    """DISCARD of kind ``t``."""
    return DISCARD + t


def gang(t: int) -> int:
    """Own kong (暗杠 or 补杠) of kind ``t``."""
    return GANG_SELF + t


def swap(t: int) -> int:
    """换三张 pick of kind ``t``."""
    return SWAP + t


def void(s: int) -> int:
    """定缺 of suit ``s`` (0 m, 1 s, 2 p)."""
    return VOID + s


_NAMED = {PENG: "PENG", GANG_CLAIM: "GANG discard", HU: "HU", PASS: "PASS"}
_PER_TILE = ((DISCARD, "DISCARD"), (GANG_SELF, "GANG"), (SWAP, "SWAP"))
"""(first id, name) of the ranges with one id per tile kind."""


def describe(action: int) -> str:
    """Human-readable name of an action id, e.g. ``"DISCARD 5p"``, ``"SWAP 3m"``, ``"VOID 条 (s)"``."""
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action!r} out of range: allowed 0..{NUM_ACTIONS - 1}")
    if action in _NAMED:
        return _NAMED[action]
    if action >= VOID:
        return f"VOID {SUIT_NAMES[action - VOID]} ({SUITS[action - VOID]})"
    first, label = max(r for r in _PER_TILE if r[0] <= action)
    return f"{label} {tile_name(action - first)}"

"""What of the Changsha settlement's inputs a seat may know, and how each encoder shows it.

A win settles (``ChangshaGame._finish``: ``classify``, ``settle``) on the winner's hand, melds
and kongs and the winning tile; how that tile came (self-drawn, a discard, a robbed kong, the
开杠 tiles face up, the 海底 tile: the phase, the seat offering it, the tiles in the air, the
wall left); the dealer; and the birds. The birds are the wall's next tiles when the hand is won,
which no seat may know before; the wall left says whether they are the 海底 tile. Opening wins
(起手胡) are settled and paid when they are declared, so no later settlement reads their dice.
``INPUTS`` gives each input as the observing seat may know it (seats relative to it; others'
shown opening tiles are part of what a seat knows of their hands). ``SHOWN[encoder]`` decodes
each from that encoder's planes; ``GAPS[encoder]`` names what it does not carry (none).
``tests/test_observation_settlement.py`` plays random positions and compares the two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cnmahjong.envs.changsha import observation as v0
from cnmahjong.envs.changsha.game import ChangshaGame
from cnmahjong.envs.core.channels import repeat_kinds
from cnmahjong.envs.core.planes import SEAT_ORDER


def _kinds(tiles: list[int]) -> list[int]:
    row = [0] * v0.NUM_KINDS
    for t in tiles:
        row[t] += 1
    return row


def _actor(game: ChangshaGame) -> int:
    return game.turn if game._window is None else game._window.payer


INPUTS: dict[str, Callable[[ChangshaGame, int], Any]] = {
    "hand": lambda g, seat: list(g.hands[seat]),
    "drawn": lambda g, seat: g.drawn if g.turn == seat and g.phase == "discard" else None,
    "offered": lambda g, seat: sorted(g.claim_tiles),
    "actor": lambda g, seat: (_actor(g) - seat) % 4,
    "dealer": lambda g, seat: (g.dealer - seat) % 4,
    "melds": lambda g, seat: [list(g.melded[s]) for s in SEAT_ORDER[seat]],
    "kongs": lambda g, seat: [sorted(m.tiles[0] for m in g.melds[s] if len(m.tiles) == 4) for s in SEAT_ORDER[seat]],
    "shown": lambda g, seat: [list(g.shown[s]) for s in SEAT_ORDER[seat]],
    "in_the_air": lambda g, seat: _kinds(g.revealed),
    "wall": lambda g, seat: g.wall.remaining,
    "phase": lambda g, seat: g.phase,
}
"""Each settlement input, as the observing seat may know it (relative seats: 0 self)."""

_T = v0.CHANNELS
SHOWN: dict[str, dict[str, Callable[[Any], Any]]] = {
    v0.ENCODER: {
        "hand": lambda p: _T.decode(p, "HAND"),
        "drawn": lambda p: _T.decode(p, "DRAWN"),
        "offered": lambda p: repeat_kinds(_T.decode(p, "CLAIM")),
        "actor": lambda p: _T.decode(p, "ACTOR"),
        "dealer": lambda p: _T.decode(p, "DEALER"),
        "melds": lambda p: _T.decode(p, "MELDS"),
        "kongs": lambda p: _T.decode(p, "KONGS"),
        "shown": lambda p: _T.decode(p, "SHOWN"),
        "in_the_air": lambda p: _T.decode(p, "REVEALED"),
        "wall": lambda p: _T.decode(p, "WALL"),
        "phase": lambda p: _T.decode(p, "PHASE"),
    },
}
"""Per encoder: each input it carries, decoded from its planes (float32 or uint8)."""

GAPS: dict[str, dict[str, str]] = {v0.ENCODER: {}}
"""Per encoder: the inputs it does not carry, and why."""

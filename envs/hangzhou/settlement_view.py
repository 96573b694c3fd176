"""What of the Hangzhou settlement's inputs a seat may know, and how each encoder shows it.

The settlement (``HangzhouGame._win``: ``best_reading_counts``, ``settle``, ``liable_seats``,
``piao_claim_split``) reads the winner's hand, melds and winning tile, the indicator, the dealer
and streak, each seat's 飘 count and doubling chain (its kongs, and the bearers 后半场承包 gives
them), the claims between seats and the rule options; which wins are possible reads the pending
飘, the 爆头-ready state before this turn (whether a 财神 discard is a 飘) and the wall.
``INPUTS`` gives each as the observing seat may know it (seats relative to it; another seat's
concealed hand and the wall's order stay out). ``SHOWN[encoder]`` decodes each from that
encoder's planes; ``GAPS[encoder]`` names the inputs it does not carry, and why.
``tests/test_observation_settlement.py`` plays random positions and compares the two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cnmahjong.envs.core.channels import ChannelTable
from cnmahjong.envs.core.planes import SEAT_ORDER
from cnmahjong.envs.core.tiles import NUM_KINDS
from cnmahjong.envs.hangzhou import observation as v0
from cnmahjong.envs.hangzhou import observation_v1 as v1
from cnmahjong.envs.hangzhou.game import HangzhouGame


def _rel(game: HangzhouGame, seat: int, absolute: int | None) -> int | None:
    return None if absolute is None else (absolute - seat) % 4


def _meld_tiles(game: HangzhouGame, seat: int, s: int) -> list[int]:
    """Seat ``s``'s melded tiles per kind as ``seat`` sees them (another seat's 暗杠 face down)."""
    if s == seat:
        return list(game.melded[s])
    row = [0] * NUM_KINDS
    for m in game.melds[s]:
        if not m.hidden:
            for t in m.tiles:
                row[t] += 1
    return row


def _chain(game: HangzhouGame, seat: int, s: int) -> list[tuple[str, int | None]]:
    return [(kind, _rel(game, seat, bearer)) for kind, bearer in game.doublings[s]]


def _own_turn(game: HangzhouGame, seat: int) -> bool:
    return game.turn == seat and game.phase == "discard"


INPUTS: dict[str, Callable[[HangzhouGame, int], Any]] = {
    "hand": lambda g, seat: list(g.hands[seat]),
    "drawn": lambda g, seat: g.drawn if _own_turn(g, seat) else None,
    "offered": lambda g, seat: None if g._window is None else g._window.tiles[0],
    "actor": lambda g, seat: _rel(g, seat, g.turn if g._window is None else g._window.payer),
    "indicator": lambda g, seat: g.indicator,
    "dealer": lambda g, seat: _rel(g, seat, g.dealer),
    "streak": lambda g, seat: g.streak,
    "melds": lambda g, seat: [_meld_tiles(g, seat, s) for s in SEAT_ORDER[seat]],
    "meld_count": lambda g, seat: [len(g.melds[s]) for s in SEAT_ORDER[seat]],
    "hidden_kongs": lambda g, seat: [0 if s == seat else sum(m.hidden for m in g.melds[s]) for s in SEAT_ORDER[seat]],
    "piao": lambda g, seat: [g.piao[s] for s in SEAT_ORDER[seat]],
    "chain": lambda g, seat: [_chain(g, seat, s) for s in SEAT_ORDER[seat]],
    "claims": lambda g, seat: {(a, b): g.claims[(seat + a) % 4][(seat + b) % 4]
                               for a in range(4) for b in range(4) if a != b},
    "piao_pending": lambda g, seat: [s in g.piao_pending for s in SEAT_ORDER[seat]],
    "ready": lambda g, seat: _own_turn(g, seat) and g.ready_before(),
    "wall": lambda g, seat: g.wall.remaining,
    "phase": lambda g, seat: g.phase,
    "rules": lambda g, seat: [getattr(g.config, o) for o in v1.RULE_OPTIONS],
}
"""Each settlement input, as the observing seat may know it (relative seats: 0 self)."""


def _meld_count(table: ChannelTable, planes: Any, rel: int) -> int:
    """Melds of a relative seat: its visible kongs, hidden kongs and the 3-tile melds the rest makes."""
    tiles, kongs = sum(table.decode(planes, "MELDS", rel)), len(table.decode(planes, "KONGS", rel))
    return table.decode(planes, "HIDDEN_KONGS", rel) + kongs + (tiles - 4 * kongs) // 3


def _shared(table: ChannelTable) -> dict[str, Callable[[Any], Any]]:
    """Decoders of the groups ``hz-v0`` and ``hz-v1`` both hold, over either's table."""
    return {
        "hand": lambda p: table.decode(p, "HAND"),
        "drawn": lambda p: table.decode(p, "DRAWN"),
        "offered": lambda p: table.decode(p, "CLAIM"),
        "actor": lambda p: table.decode(p, "ACTOR"),
        "indicator": lambda p: table.decode(p, "INDICATOR"),
        "dealer": lambda p: table.decode(p, "DEALER"),
        "streak": lambda p: table.decode(p, "STREAK"),
        "melds": lambda p: table.decode(p, "MELDS"),
        "piao_pending": lambda p: table.decode(p, "PIAO_PENDING"),
        "ready": lambda p: table.decode(p, "READY"),
        "wall": lambda p: table.decode(p, "WALL"),
        "phase": lambda p: table.decode(p, "PHASE"),
    }


SHOWN: dict[str, dict[str, Callable[[Any], Any]]] = {
    v0.ENCODER: _shared(v0.CHANNELS),
    v1.ENCODER: {
        **_shared(v1.CHANNELS),
        "meld_count": lambda p: [_meld_count(v1.CHANNELS, p, r) for r in range(4)],
        "hidden_kongs": lambda p: v1.CHANNELS.decode(p, "HIDDEN_KONGS"),
        "piao": lambda p: v1.CHANNELS.decode(p, "PIAO"),
        "chain": lambda p: [v1.decode_chain(p, r) for r in range(4)],
        "claims": v1.decode_claims,
        "rules": lambda p: v1.CHANNELS.decode(p, "RULES"),
    },
}
"""Per encoder: each input it carries, decoded from its planes (float32 or uint8)."""

GAPS: dict[str, dict[str, str]] = {
    v0.ENCODER: {
        "hidden_kongs": "another seat's hidden kongs are capped at 2",
        "meld_count": "another seat's melds miss its hidden kongs beyond 2",
        "piao": "飘 counts are capped at 2 (three 财神 make up to 3)",
        "chain": "the kongs and bearers of each seat's doubling chain are not carried",
        "claims": "claims are capped at 3 (a seat makes up to 4; 承包 compares with 3, the claim limits with 2 and 3)",
        "rules": "the rule options are not carried (the env's constant)",
    },
    v1.ENCODER: {},
}
"""Per encoder: the inputs it does not carry, and why (``hz-v1`` carries all)."""

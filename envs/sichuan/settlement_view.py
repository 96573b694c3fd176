"""What of the Sichuan settlement's inputs a seat may know, and how ``sc-v0`` shows it.

A win settles (``SichuanGame._settle_group`` / ``_self_draw_win``: ``reading``, ``win_payments``,
``call_transfer``) on the winner's hand, melds and winning tile, how the tile came (the phase,
the seat offering it, the wall left for 海底), the seats still in (each remaining seat pays), the
kong ledger (呼叫转移 moves the kong money the discarder holds) and, for the winner's own
choice, its 过胡 threshold. The §7 exhaustion settlement reads every remaining seat's hand and
void (花猪, 查大叫: hidden from the others until the end, as the hands are) and the ledger (退税).
Kong money reads the kong's kind and the remaining seats. ``INPUTS`` gives each as the observing
seat may know it (seats relative to it); ``SHOWN["sc-v0"]`` decodes each from its planes;
``GAPS`` is empty: ``sc-v0`` carries every input. The 过胡 threshold is carried clipped at 6 fan:
whether a win is allowed is the action mask's to say, and the clip only merges thresholds above
every pattern total the default cap lets pay more (3). ``tests/test_observation_settlement.py``
plays random positions and compares the two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cnmahjong.envs.core.engine import ClaimWindow
from cnmahjong.envs.core.meld import ANGANG
from cnmahjong.envs.core.planes import SEAT_ORDER
from cnmahjong.envs.sichuan import observation as v0
from cnmahjong.envs.sichuan.game import SichuanGame

_T = v0.CHANNELS
THRESHOLD_CLIP = 6


def _offer(game: SichuanGame) -> ClaimWindow | None:
    window = game._window
    return window if isinstance(window, ClaimWindow) else None


def _melds(game: SichuanGame, seat: int, s: int) -> list[int]:
    """Seat ``s``'s melded tiles per kind as ``seat`` sees them (another's 暗杠 face down unless
    ``reveal_angang_tile``)."""
    row = [0] * v0.KINDS
    for m in game.melds[s]:
        if s == seat or m.kind != ANGANG or game.config.reveal_angang_tile:
            for t in m.tiles:
                row[t] += 1
    return row


def _win(game: SichuanGame, s: int) -> dict[str, Any] | None:
    return next((w for w in game._wins if w["seat"] == s), None)


def _units(amount: int, game: SichuanGame) -> int:
    return min(amount // game.config.base, v0.MONEY_CLAMP)


def _held(game: SichuanGame, s: int) -> int:
    return _units(sum(e.amount for e in game.ledger if e.owner == s), game)


INPUTS: dict[str, Callable[[SichuanGame, int], Any]] = {
    "hand": lambda g, seat: list(g.hands[seat]),
    "offered": lambda g, seat: None if (w := _offer(g)) is None else w.tiles[0],
    "actor": lambda g, seat: ((g.turn if (w := _offer(g)) is None else w.payer) - seat) % 4,
    "dealer": lambda g, seat: (g.dealer - seat) % 4,
    "voids": lambda g, seat: [v0.UNKNOWN if g.voids is None else v0.SUIT_LABELS[1 + g.voids[s]]
                              for s in SEAT_ORDER[seat]],
    "melds": lambda g, seat: [_melds(g, seat, s) for s in SEAT_ORDER[seat]],
    "out": lambda g, seat: [(w or {"kind": "in"})["kind"] for s in SEAT_ORDER[seat] for w in [_win(g, s)]],
    "won_tile": lambda g, seat: [None if (w := _win(g, s)) is None else w["tile"] for s in SEAT_ORDER[seat]],
    "gains": lambda g, seat: [_units(max(g.payments[s], 0), g) for s in SEAT_ORDER[seat]],
    "losses": lambda g, seat: [_units(max(-g.payments[s], 0), g) for s in SEAT_ORDER[seat]],
    "kong_money": lambda g, seat: [_held(g, s) for s in SEAT_ORDER[seat]],
    "passed_hu": lambda g, seat: g.threshold[seat] is not None,
    "passed_fan": lambda g, seat: min(g.threshold[seat] or 0, THRESHOLD_CLIP),
    "wall": lambda g, seat: g.wall.remaining,
    "phase": lambda g, seat: g.phase,
}
"""Each settlement input, as the observing seat may know it (relative seats: 0 self)."""

SHOWN: dict[str, dict[str, Callable[[Any], Any]]] = {
    v0.ENCODER: {
        "hand": lambda p: _T.decode(p, "HAND"),
        "offered": lambda p: _T.decode(p, "OFFERED"),
        "actor": lambda p: _T.decode(p, "ACTOR"),
        "dealer": lambda p: _T.decode(p, "DEALER"),
        "voids": lambda p: _T.decode(p, "VOID"),
        "melds": lambda p: _T.decode(p, "MELDS"),
        "out": lambda p: _T.decode(p, "OUT"),
        "won_tile": lambda p: _T.decode(p, "WON_TILE"),
        "gains": lambda p: _T.decode(p, "GAINS"),
        "losses": lambda p: _T.decode(p, "LOSSES"),
        "kong_money": lambda p: _T.decode(p, "KONG_MONEY"),
        "passed_hu": lambda p: _T.decode(p, "PASSED_HU"),
        "passed_fan": lambda p: _T.decode(p, "PASSED_FAN"),
        "wall": lambda p: _T.decode(p, "WALL"),
        "phase": lambda p: _T.decode(p, "PHASE"),
    },
}
"""``sc-v0``: each input decoded from its planes (float32 or uint8)."""

GAPS: dict[str, dict[str, str]] = {v0.ENCODER: {}}
"""``sc-v0`` carries every input."""

"""Observation encoder ``sc-v0``: planes over the 27 tile kinds, seen from one seat.

Seats are relative (0 self, 1 next 下家, 2 opposite 对家, 3 previous 上家). The planes hold the
seat's own concealed hand and every public fact of the hand (design ``env.md``, Sichuan): the
tiles it passed and received in 换三张 and the direction once drawn, each seat's void once the
定缺 window has closed, melds (another seat's 暗杠 kind only with ``reveal_angang_tile``),
rivers and recent discards, who has won and left (how, and on which tile), every seat's running
payments and the kong money it holds on the ledger (§6, §7), its own 过胡 threshold and PENG
locks, the tile offered, the phase, its own 换三张 picks, wall count and dealer.

Never: another seat's concealed tiles or its picks in an open window, a winner's hand before the
end, or a declined HU (another seat's 过胡 threshold). The channels are declared once, as data,
in ``CHANNELS`` (``cnmahjong.envs.core.channels``); the offsets and the README table follow.

Money planes count in units of the 底分 ``base``, clamped at 255 (``MONEY_SCALE`` divides them
in the float observation): a capped 3-fan self-draw is 3 × 9 = 27 units.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from typing import Any

import numpy as np

from cnmahjong.envs.core.channels import RELATIVE_SEATS, ChannelTable, EncoderSpec, Group, Value
from cnmahjong.envs.core.engine import ClaimWindow
from cnmahjong.envs.core.meld import ANGANG
from cnmahjong.envs.core.planes import SEAT_ORDER, Rows, seat_arg, therm, therm4, therm_of_kinds, write_rows
from cnmahjong.envs.core.tiles import NUM_SUITED_KINDS
from cnmahjong.envs.hotpath import accelerated
from cnmahjong.envs.sichuan import actions as A
from cnmahjong.envs.sichuan.game import PHASES, SWAP, SichuanGame
from cnmahjong.envs.sichuan.rules import DIRECTIONS

ENCODER = "sc-v0"
KINDS = NUM_SUITED_KINDS
RECENT = 6
WALL_SCALE = 55.0
"""The WALL plane is ``tiles left / WALL_SCALE`` (55 undealt tiles, §1)."""
MONEY_SCALE = 64.0
"""GAINS, LOSSES and KONG_MONEY planes: amount in units of ``base`` (clamped at 255) / MONEY_SCALE."""
MONEY_CLAMP = 255
UNKNOWN = "unknown"
SUIT_LABELS = (UNKNOWN, "m", "s", "p")
DIRECTION_LABELS = (UNKNOWN, *DIRECTIONS)
OUT_LABELS = ("in", "zimo", "dianpao", "qianggang")
"""How a relative seat left (``result.extras["win_kind"]``), or ``in`` while it plays on."""

_SEAT = "relative seat"
CHANNELS = ChannelTable((
    Group("HAND", 4, "own concealed hand (手牌)", Value.THERMOMETER),
    Group("DRAWN", 1, "own tile drawn this turn", Value.ONE_HOT),
    Group("PASSED", 3, "own 换三张 tiles: its picks so far, then the three it passed", Value.THERMOMETER),
    Group("RECEIVED", 3, "the three 换三张 tiles it received", Value.THERMOMETER),
    Group("DIRECTION", 4, "换三张 direction once drawn", Value.CHOICE, labels=DIRECTION_LABELS),
    Group("PICKS", 3, "own picks made in the 换三张 window (the next is pick k = this + 1)", Value.LEVEL),
    Group("VOID", 4, "void suit (定缺) per relative seat, `unknown` until all are revealed", Value.CHOICE, 4,
          _SEAT, labels=SUIT_LABELS),
    Group("MELDS", 4, "melded tiles (副露) per relative seat; another seat's 暗杠 only with reveal_angang_tile",
          Value.THERMOMETER, 4, _SEAT),
    Group("KONGS", 1, "kong (杠) kinds visible per relative seat (own 暗杠 included)", Value.KINDS, 4, _SEAT),
    Group("HIDDEN_KONGS", 2, "face-down 暗杠 whose kind is hidden, per relative seat", Value.LEVEL, 4, _SEAT),
    Group("RIVER", 4, "discards lying in front of each relative seat (牌河)", Value.THERMOMETER, 4, _SEAT),
    Group("RECENT_DISCARDS", RECENT, f"discards: the {RECENT} most recent per relative seat, newest first",
          Value.ONE_HOT, 4, _SEAT),
    Group("OUT", 4, "how the relative seat won and left (血战: it plays no more), or `in`", Value.CHOICE, 4,
          _SEAT, labels=OUT_LABELS),
    Group("WON_TILE", 1, "the relative seat's winning tile (empty for 天胡 or while in)", Value.ONE_HOT, 4,
          _SEAT),
    Group("GAINS", 1, "running net payments of the relative seat when positive (units of base)",
          Value.FRACTION, 4, _SEAT, scale=MONEY_SCALE),
    Group("LOSSES", 1, "running net payments of the relative seat when negative, as a positive amount",
          Value.FRACTION, 4, _SEAT, scale=MONEY_SCALE),
    Group("KONG_MONEY", 1, "kong money (刮风下雨) the relative seat holds on the open ledger (§6.1, §7)",
          Value.FRACTION, 4, _SEAT, scale=MONEY_SCALE),
    Group("PASSED_HU", 1, "own 过胡: a passed win bars discard wins until its next draw or claim", Value.FLAG),
    Group("PASSED_FAN", 6, "own 过胡 threshold F (clipped at 6): only a higher F may win", Value.LEVEL),
    Group("PENG_LOCK", 1, "own passed-PENG kinds (pass_peng_lock)", Value.KINDS),
    Group("OFFERED", 1, "the tile offered: a discard to claim or a 补杠 to rob", Value.ONE_HOT),
    Group("ACTOR", 4, "seat whose tile is offered, or whose turn it is, relative", Value.CHOICE,
          labels=RELATIVE_SEATS),
    Group("DEALER", 4, "dealer (庄家), relative seat", Value.CHOICE, labels=RELATIVE_SEATS),
    Group("WALL", 1, "tiles left in the wall (牌墙)", Value.FRACTION, scale=WALL_SCALE),
    Group("PHASE", len(PHASES), "phase of the hand (`game.PHASES`)", Value.CHOICE, labels=PHASES),
))
"""The ``sc-v0`` channels in plane order: the layout's one declaration."""

(HAND, DRAWN, PASSED, RECEIVED, DIRECTION, PICKS, VOID, MELDS, KONGS, HIDDEN_KONGS, RIVER, RECENT_DISCARDS,
    OUT, WON_TILE, GAINS, LOSSES, KONG_MONEY, PASSED_HU, PASSED_FAN, PENG_LOCK, OFFERED, ACTOR, DEALER, WALL,
    PHASE) = CHANNELS.starts()
NUM_CHANNELS = CHANNELS.size
SHAPE = (NUM_CHANNELS, KINDS)
ROW_BYTES = NUM_CHANNELS * KINDS
"""Bytes of one observation's uint8 planes."""

_R = Rows(KINDS, max_count=MONEY_CLAMP)


def _choices(labels: tuple[Any, ...]) -> dict[Any, bytes]:
    """Per label, the whole planes of a one-of-``labels`` group with that label set."""
    return {value: b"".join(_R.ones if label == value else _R.zero for label in labels) for value in labels}


_DIRECTION_ROWS, _SUIT_ROWS, _OUT_ROWS, _PHASE_ROWS = (
    _choices(labels) for labels in (DIRECTION_LABELS, SUIT_LABELS, OUT_LABELS, PHASES))
"""Each one-of group's rows by label (named, not keyed by their label tuples: a tuple key is hashed
on every lookup)."""
_LEVELS = {planes: [b"".join(_R.ones if n > i else _R.zero for i in range(planes)) for n in range(planes + 1)]
           for planes in (2, 3, 6)}


def _level(planes: int, n: int) -> bytes:
    """``planes`` whole planes, the first ``min(n, planes)`` set."""
    return _LEVELS[planes][min(n, planes)]


def _kinds(kinds: Any) -> bytes:
    row = bytearray(KINDS)
    for t in kinds:
        row[t] = 1
    return bytes(row)


_ONEHOT, _ZERO, _ONES, _PAD, _SEATS, _COUNT = _R.onehot, _R.zero, _R.ones, _R.pad, _R.seat, _R.count
"""``_R``'s rows as module names (an attribute of ``_R`` is a lookup a read)."""


@cython.cfunc  # a C call from planes (twelve a call); the amounts stay Python ints (a config's base
@cython.locals(n=cython.longlong)  # is any positive int), their quotient, a count of bases, a C int
def _money(amount: int, base: int) -> bytes:
    n = amount // base
    return _COUNT[n if n < 255 else 255]  # MONEY_CLAMP (a literal for C)


_PARTS = 58
"""Rows ``planes`` joins: 6 of the seat's own, 11 groups of the four relative seats (VOID, MELDS,
KONGS, HIDDEN_KONGS, RIVER, RECENT_DISCARDS, OUT, WON, GAINS, LOSSES, MONEY: group ``g``'s row
of relative seat ``r`` at ``6 + 4 g + r``), 8 more."""


class Encoder:
    """The ``sc-v0`` encoder. It keeps, per absolute seat, the rows of its melds and of its river
    from the last call (a discard changes one river, a meld one seat's melds), keyed by what
    determines them: a river only grows at its end or loses its last tile (a claim), so its length
    and last tile name its content; melds only grow or turn a PENG into a kong, so their number and
    tile count name them. The cache belongs to one game and its event log and is dropped for another
(a game without a log, ``events`` None, is told apart by the game itself)."""

    __slots__ = ("_game", "_events", "_rivers", "_melds")

    def __init__(self) -> None:
        self._game: SichuanGame | None = None
        self._events: list | None = None
        self._rivers: list[tuple[Any, bytes, bytes]] = []
        self._melds: list[tuple[Any, bytes, bytes, bytes]] = []

    def __getstate__(self) -> dict:
        return {}  # caches only

    def __setstate__(self, state: dict) -> None:
        self.__init__()

    def __call__(self, game: SichuanGame, seat: int) -> np.ndarray:
        """The float32 observation: the uint8 planes converted, money and wall planes divided."""
        raw = np.frombuffer(self.planes(game, seat), dtype=np.uint8).reshape(SHAPE)
        return planes_to_float(raw)

    def _river(self, game: SichuanGame, s: int) -> tuple[bytes, bytes]:
        """Seat ``s``'s RIVER and RECENT_DISCARDS rows."""
        river = game.rivers[s]
        key = len(river) * 64 + (river[-1] + 1 if river else 0)  # (length, last tile) as one int
        cached = self._rivers[s]
        if cached[0] != key:
            recent = b"".join([_ONEHOT[t] for t in river[:-RECENT - 1:-1]]) + _PAD[RECENT - min(RECENT, len(river))]
            cached = self._rivers[s] = (key, therm_of_kinds(river, KINDS, 4), recent)
        return cached[1], cached[2]

    def _meld_rows(self, game: SichuanGame, s: int, seat: int) -> tuple[bytes, bytes, bytes]:
        """Seat ``s``'s MELDS, KONGS and HIDDEN_KONGS rows as ``seat`` sees them."""
        hide = s != seat and not game.config.reveal_angang_tile
        melds = game.melds[s]
        melded = game.melded[s]
        if cython.compiled:  # sum(melded) in C
            p = melded
            total = 0
            for k in range(27):  # KINDS (a literal for C)
                total += p[k]
        else:
            total = sum(melded)
        key = (len(melds) * 256 + total) * 2 + hide  # (melds, tiles in them, hidden) as one int
        cached = self._melds[s]
        if cached[0] != key:
            row = bytearray(KINDS)
            quads = bytearray(KINDS)
            face_down = 0
            for m in melds:
                if hide and m.kind == ANGANG:
                    face_down += 1
                    continue
                for t in m.tiles:
                    row[t] += 1
                if len(m.tiles) == 4:
                    quads[m.tiles[0]] = 1
            cached = self._melds[s] = (key, therm(row, 4), bytes(quads), _LEVELS[2][min(face_down, 2)])
        return cached[1], cached[2], cached[3]

    def planes(self, game: SichuanGame, seat: int) -> bytes:
        """The observation as ``NUM_CHANNELS * 27`` uint8 bytes; fraction planes hold their counts.
        The compiled twin writes them where it is built."""
        if _compiled_planes is not None:
            return _compiled_planes(game, seat)
        return b"".join(self._rows(game, seat))

    def planes_into(self, game: SichuanGame, seat: int, buf: bytearray, offset: int) -> None:
        """``planes`` written into ``buf`` from ``offset`` (``VectorEnv``'s batch row), not made first."""
        if _compiled_planes_into is not None:
            _compiled_planes_into(game, seat, buf, offset)
            return
        write_rows(self._rows(game, seat), buf, offset, ROW_BYTES)

    def _rows(self, game: SichuanGame, seat: int) -> list[bytes]:
        """The rows of the planes, in order (``_PARTS``)."""
        seat = seat_arg(seat)
        if self._game is not game or self._events is not game._events:  # another hand: nothing cached holds
            self._game, self._events = game, game._events  # the log's own list: game.events would decode its tail
            self._rivers = [(-1, b"", b"")] * 4
            self._melds = [(-1, b"", b"", b"")] * 4
        order = SEAT_ORDER[seat]
        window = game._window
        own_picks = [a - A.SWAP for a in window.picks.get(seat, [])] if window is not None \
            and window.kind == SWAP else []
        drawn = game.turn_draws[-1] if (game.phase == "discard" and game.turn == seat and game.turn_draws) else None
        if isinstance(window, ClaimWindow):
            offered, actor = _ONEHOT[window.tiles[0]], window.payer
        else:
            offered, actor = _ZERO, game.turn
        voids = game.voids
        wins = {w["seat"]: w for w in game._wins} if game._wins else {}
        base = game.config.base
        held = [0] * 4
        for e in game.ledger:
            held[e.owner] += e.amount
        suit_void = _SUIT_ROWS
        out_kind = _OUT_ROWS
        threshold = game.threshold[seat]
        lock = game.peng_lock[seat]
        parts = [_ZERO] * _PARTS  # the rows in plane order (``_PARTS``), filled in place
        parts[0] = therm4(bytes(game.hands[seat]))
        parts[1] = _ONEHOT[drawn] if drawn is not None else _ZERO
        parts[2] = therm_of_kinds(own_picks or game.passed[seat], KINDS, 3)
        parts[3] = therm_of_kinds(game.received[seat], KINDS, 3)
        parts[4] = _DIRECTION_ROWS[game.swap_direction or UNKNOWN]
        parts[5] = _level(3, len(own_picks))
        for r in range(4):  # one pass over the seats, in relative order: each seat's row of every group
            s = order[r]
            parts[6 + r] = suit_void[UNKNOWN if voids is None else SUIT_LABELS[1 + voids[s]]]
            parts[10 + r], parts[14 + r], parts[18 + r] = self._meld_rows(game, s, seat)
            parts[22 + r], parts[26 + r] = self._river(game, s)
            w = wins.get(s)
            parts[30 + r] = out_kind[w["kind"] if w is not None else "in"]
            if w is not None and w["tile"] is not None:
                parts[34 + r] = _ONEHOT[w["tile"]]
            paid = game.payments[s]
            parts[38 + r] = _money(paid if paid > 0 else 0, base)
            parts[42 + r] = _money(-paid if paid < 0 else 0, base)
            parts[46 + r] = _money(held[s], base)
        if threshold is not None:
            parts[50] = _ONES
        parts[51] = _level(6, threshold or 0)
        if lock:
            parts[52] = _kinds([t for t in range(KINDS) if lock >> t & 1])
        parts[53] = offered
        parts[54] = _SEATS[(actor - seat) % 4]
        parts[55] = _SEATS[(game.dealer - seat) % 4]
        parts[56] = _COUNT[game.wall.remaining]
        parts[57] = _PHASE_ROWS[game.phase]
        return parts


def planes_to_float(planes: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """uint8 planes (fraction planes holding counts) as the float32 observation the AEC env gives,
    bit for bit (``ChannelTable.to_float``); ``out`` (float32, same shape) is written when given."""
    return CHANNELS.to_float(planes, out)


def encode(game: SichuanGame, seat: int) -> np.ndarray:
    """The ``sc-v0`` observation of ``seat`` (channels: ``CHANNELS``)."""
    return Encoder()(game, seat)


# The compiled twin of ``Encoder.planes`` (``_planes.pyx``: C loops over the game's rows and melds,
# the same bytes), used where it is built; None runs the cached rows above.
_twin = accelerated("cnmahjong.envs.sichuan._planes")
_compiled_planes = getattr(_twin, "planes", None)
_compiled_planes_into = getattr(_twin, "planes_into", None)

ENCODING = EncoderSpec(name=ENCODER, channels=CHANNELS, shape=SHAPE, encoder=Encoder, to_float=planes_to_float,
                       planes_into=_compiled_planes_into)
"""``sc-v0`` as one self-contained spec (the ``Ruleset`` holds it)."""

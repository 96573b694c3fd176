"""Observation encoder ``hz-v0``: planes over the 34 tile kinds, seen from one seat.

``encode(game, seat)`` returns a ``float32`` array of shape ``(NUM_CHANNELS, 34)``
with values in [0, 1]. Seats are relative: 0 self, 1 next (下家), 2 opposite
(对家), 3 previous (上家). It holds every piece of public information and the
seat's own concealed hand, and nothing that seat cannot know: another seat's
concealed kong is counted but its tile stays hidden until it is revealed (§1),
and no pending claim choice of another seat is shown.

The channels are declared once, as data, in ``CHANNELS`` below (``cnmahjong.envs.core.channels``):
the offset constants (``HAND``, ``MELDS``...), ``NUM_CHANNELS``, the README's channel table
(``CHANNELS.markdown()``) and the ``decode_*`` helpers all follow from it.
"""

from __future__ import annotations

import numpy as np

from cnmahjong.envs.core.channels import RELATIVE_SEATS, ChannelTable, EncoderSpec, Group, Value
from cnmahjong.envs.core.planes import SEAT_ORDER, Rows, seat_arg, split_public_log, therm4, write_rows
from cnmahjong.envs.core.tiles import COPIES, NUM_KINDS
from cnmahjong.envs.hangzhou.game import PHASES, HangzhouGame
from cnmahjong.envs.hangzhou.patterns import WHITE
from cnmahjong.envs.hotpath import accelerated

ENCODER = "hz-v0"
RECENT = 6

WALL_SCALE = 82.0
"""The WALL plane is ``tiles left / WALL_SCALE`` (82 drawable after the deal and the indicator)."""

_SEAT = "relative seat"
CHANNELS = ChannelTable((
    Group("HAND", 4, "own concealed hand (手牌)", Value.THERMOMETER),
    Group("MELDS", 4, "melded tiles (副露) per relative seat; others' hidden kongs (暗杠) left out",
          Value.THERMOMETER, 4, _SEAT),
    Group("RIVER", 4, "discards lying in front of each relative seat (牌河)", Value.THERMOMETER, 4, _SEAT),
    Group("UNSEEN", 4, "kinds unseen from this seat (copies it cannot see)", Value.THERMOMETER),
    Group("KONGS", 1, "visible kong (杠) kinds per relative seat (own hidden kongs included)", Value.KINDS, 4, _SEAT),
    Group("HIDDEN_KONGS", 2, "hidden concealed kongs (暗杠) per relative seat", Value.LEVEL, 4, _SEAT),
    Group("RECENT_DISCARDS", RECENT, f"discards: the {RECENT} most recent per relative seat, newest first",
          Value.ONE_HOT, 4, _SEAT),
    Group("DRAWN", 1, "own drawn tile this turn", Value.ONE_HOT),
    Group("INDICATOR", 1, "the indicator kind (the tile turned up), whose other copies are the 财神 (wildcards)",
          Value.ONE_HOT),
    Group("WHITE_PLAYS", 1, "the kind the 白板 play (the indicator kind; empty when 白板 is the indicator)",
          Value.ONE_HOT),
    Group("SHIPENG", 1, "own 失碰 (passed PENG) kinds: no PENG on them until the own next turn", Value.KINDS),
    Group("CLAIM", 1, "the tile offered to claim now", Value.ONE_HOT),
    Group("DEALER", 4, "dealer (庄家), relative seat", Value.CHOICE, labels=RELATIVE_SEATS),
    Group("ACTOR", 4, "seat whose tile is offered, or whose turn it is, relative", Value.CHOICE,
          labels=RELATIVE_SEATS),
    Group("PIAO", 2, "飘 (财神 discard) count per relative seat", Value.LEVEL, 4, _SEAT),
    Group("PIAO_PENDING", 1, "seats whose 飘 is pending (the others may not claim or win on a discard)",
          Value.FLAG, 4, _SEAT),
    Group("STREAK", 3, "dealer streak (连庄): 1 平庄, 2 二连庄, 3 三连庄 or more", Value.CHOICE, labels=(1, 2, 3)),
    Group("CLAIMS", 3, "claims between seats (承包): a's claims on b, for each relative seat a and each "
          "other seat b in turn order", Value.LEVEL, 12, "pair (a, b)"),
    Group("WALL", 1, "tiles left in the wall (牌墙)", Value.FRACTION, scale=WALL_SCALE),
    Group("PHASE", len(PHASES), "phase of the hand (`game.PHASES`)", Value.CHOICE, labels=PHASES),
    Group("READY", 1, "own 爆头-ready before this turn's draw, or its CHI or PENG: a 财神 discard now is a 飘",
          Value.FLAG),
))
"""The ``hz-v0`` channels in plane order: the layout's one declaration."""

# First channel of each group (computed from ``CHANNELS``, plain ints for the encoder).
(HAND, MELDS, RIVER, UNSEEN, KONGS, HIDDEN_KONGS, RECENT_DISCARDS, DRAWN, INDICATOR, WHITE_PLAYS,
    SHIPENG, CLAIM, DEALER, ACTOR, PIAO, PIAO_PENDING, STREAK, CLAIMS, WALL, PHASE, READY) = CHANNELS.starts()
NUM_CHANNELS = CHANNELS.size
SHAPE = (NUM_CHANNELS, NUM_KINDS)
ROW_BYTES = NUM_CHANNELS * NUM_KINDS
"""Bytes of one observation's uint8 planes."""

_R = Rows(NUM_KINDS)
_ORDER = SEAT_ORDER
_PHASE_BLOCK = {p: b"".join(_R.ones if q == p else _R.zero for q in PHASES) for p in PHASES}
_STREAK_BLOCK = {lv: b"".join(_R.ones if q == lv else _R.zero for q in (1, 2, 3)) for lv in (1, 2, 3)}
_LEVELS = [b"".join(_R.ones if n > i else _R.zero for i in range(k)) for k in (2, 3) for n in range(8)]
_TWO = _LEVELS[:8]  # _TWO[n]: whole planes n ≥ 1, n ≥ 2
_THREE = _LEVELS[8:]  # _THREE[n]: n ≥ 1, ≥ 2, ≥ 3
_FOURS = int.from_bytes(bytes([COPIES]) * NUM_KINDS, "little")
_BYTE_ONE = [1 << 8 * k for k in range(NUM_KINDS)]
"""``_BYTE_ONE[k]``: one copy of kind ``k`` in a count row packed 8 bits a kind (a Python int: the
game's ``indicator`` is a C int, a shift of it would be one too)."""


_ONEHOT, _ZERO, _ONES, _PAD, _SEATS, _FLAGS, _COUNT = _R.onehot, _R.zero, _R.ones, _R.pad, _R.seat, _R.flags, _R.count
"""``_R``'s rows as module names (an attribute of ``_R`` is a lookup a read)."""
_RECENT_KEEP = (RECENT - 1) * NUM_KINDS
"""Bytes of the recent-discard planes a new discard keeps (it drops the oldest plane)."""
_CLAIMS_BLOCKS: dict[tuple[int, ...], list[bytes]] = {}
"""Per claims table (``game.claims`` flattened), each seat's CLAIMS block: most hands share a few
tables (none made, one claim), and the blocks are only read; cleared past 4,096 tables."""
_FROM_BYTES = int.from_bytes  # looked up once (a method lookup a call otherwise)


def _bits_row(bits: int) -> bytes:
    """The row of a kind bitmask (``planes`` passes a non-zero one; an empty mask is ``_ZERO`` there)."""
    return bytes((bits >> k) & 1 for k in range(NUM_KINDS))



class Encoder:
    """The ``hz-v0`` encoder (the env keeps one). Public blocks are kept per game and absolute
    seat, rebuilt only for the seats the game's ``public_log`` names since the last call (meld
    rows as the owner sees them and as the others do, hidden kongs left out; river and recent
    discard planes); each call picks them in the observer's seat order by index.
    The claims block is cached per number of claims made. The output equals a fresh encoder's
    at every step (tested)."""

    def __init__(self) -> None:
        self._game: HangzhouGame | None = None
        self._read = 0

    def __getstate__(self) -> dict:
        return {}  # caches only

    def __setstate__(self, state: dict) -> None:
        self.__init__()

    def __call__(self, game: HangzhouGame, seat: int) -> np.ndarray:
        """The float32 observation: the uint8 planes converted, the WALL plane (one value) divided."""
        raw = self.planes(game, seat)
        out = np.frombuffer(raw, dtype=np.uint8).astype(np.float32).reshape(SHAPE)
        out[WALL] = raw[WALL * NUM_KINDS] / WALL_SCALE  # float64 division, one rounding, as planes_to_float
        return out

    # ------------------------------------------------------------- public blocks
    def _reset(self, game: HangzhouGame) -> None:
        self._game, self._read = game, len(game.public_log)  # built from the game's state as it is
        self.own_melds, self.melds = [_PAD[4]] * 4, [_PAD[4]] * 4
        self.own_kongs, self.kongs = [_ZERO] * 4, [_ZERO] * 4
        self.own_packed, self.packed, self.river_packed = [0] * 4, [0] * 4, [0] * 4
        self.seen_total = 0  # sum(self.packed) + sum(self.river_packed), kept as they change
        self.hidden = [_TWO[0]] * 4
        self.river: list[bytearray] = [bytearray(_PAD[4]) for _ in range(4)]
        self.river_rows = [bytearray(NUM_KINDS) for _ in range(4)]
        self.recent = [_PAD[RECENT]] * 4
        self.claims_seen = -1
        self.claims_blocks: list[bytes] = [b""] * 4
        for s in range(4):
            self._melds_changed(s, game.melds[s])
            self._river_changed(s, game.river_counts[s], game.rivers[s])

    def _melds_changed(self, s: int, melds: list) -> None:
        own, seen = bytearray(NUM_KINDS), bytearray(NUM_KINDS)
        own_k, seen_k = bytearray(NUM_KINDS), bytearray(NUM_KINDS)
        hidden = 0
        for m in melds:
            quad = len(m.tiles) == 4
            for t in m.tiles:
                own[t] += 1
            if quad:
                own_k[m.tiles[0]] = 1
            if m.hidden:
                hidden += 1
                continue
            for t in m.tiles:
                seen[t] += 1
            if quad:
                seen_k[m.tiles[0]] = 1
        self.own_melds[s], self.melds[s] = therm4(bytes(own)), therm4(bytes(seen))
        self.own_kongs[s], self.kongs[s] = bytes(own_k), bytes(seen_k)
        packed = _FROM_BYTES(seen, "little")
        self.seen_total += packed - self.packed[s]
        self.own_packed[s], self.packed[s] = _FROM_BYTES(own, "little"), packed
        self.hidden[s] = _TWO[min(hidden, 2)]

    def _river_changed(self, s: int, counts: bytearray, river: list[int]) -> None:
        """Re-encode seat ``s``'s river from the game (after a claim took its last tile)."""
        row = bytes(counts)
        self.river_rows[s] = bytearray(row)
        self.river[s] = bytearray(therm4(row))  # kept patchable by ``_discarded``
        packed = _FROM_BYTES(row, "little")
        self.seen_total += packed - self.river_packed[s]
        self.river_packed[s] = packed
        recent = river[: -RECENT - 1: -1]
        self.recent[s] = b"".join(map(_ONEHOT.__getitem__, recent)) + _PAD[RECENT - len(recent)]

    def _discarded(self, s: int, t: int) -> None:
        """Tile ``t`` joined seat ``s``'s river: one byte of its planes, the recent discards shift
        (typed in observation.pxd: the bytes are set in C)."""
        row = self.river_rows[s]
        level = row[t]
        row[t] = level + 1
        plane = self.river[s]
        plane[level * 34 + t] = 1  # thermometer plane "count > level" (NUM_KINDS: a literal for C)
        one = _BYTE_ONE[t]
        self.river_packed[s] += one
        self.seen_total += one
        self.recent[s] = _ONEHOT[t] + self.recent[s][:_RECENT_KEEP]

    def _update(self, game: HangzhouGame) -> None:
        if game is not self._game:
            self._reset(game)
        log = game.public_log
        if self._read < len(log):
            batch = log[self._read:]
            self._read = len(log)
            discards, full = split_public_log(batch)
            for s, t in discards:
                self._discarded(s, t)
            for code in full:
                if code < 4:
                    self._melds_changed(code, game.melds[code])
                else:
                    s = code - 4
                    self._river_changed(s, game.river_counts[s], game.rivers[s])
        if self.claims_seen != game.claims_made:
            self.claims_seen = game.claims_made
            claims = game.claims
            key = tuple([c for row in claims for c in row])
            blocks = _CLAIMS_BLOCKS.get(key)
            if blocks is None:  # list comprehensions: C loops
                rows = [[_THREE[min(c, 3)] for c in row] for row in claims]
                blocks = [b"".join([rows[a][b] for a in order for b in order if b != a]) for order in _ORDER]
                if len(_CLAIMS_BLOCKS) >= 4096:
                    _CLAIMS_BLOCKS.clear()
                _CLAIMS_BLOCKS[key] = blocks
            self.claims_blocks = blocks


    def planes(self, game: HangzhouGame, seat: int) -> bytes:
        """The observation as ``NUM_CHANNELS * 34`` uint8 bytes; the WALL plane holds the count
        itself (``planes_to_float`` divides it). The compiled twin writes them where it is built."""
        if _compiled_planes is not None:
            return _compiled_planes(game, seat)
        return b"".join(self._rows(game, seat))

    def planes_into(self, game: HangzhouGame, seat: int, buf: bytearray, offset: int) -> None:
        """``planes`` written into ``buf`` from ``offset`` (``VectorEnv``'s batch row), not made first."""
        if _compiled_planes_into is not None:
            _compiled_planes_into(game, seat, buf, offset)
            return
        write_rows(self._rows(game, seat), buf, offset, ROW_BYTES)

    def _rows(self, game: HangzhouGame, seat: int) -> tuple[bytes, ...]:
        """The rows of the planes, in order. The other seats' blocks are picked by index in
        ``seat``'s relative order (``SEAT_ORDER``: next, opposite, previous; list comprehensions,
        not generators: a compiled ``cpdef`` method has no closures)."""
        seat = seat_arg(seat)
        self._update(game)
        hand = bytes(game.hands[seat])  # changed since the seat's last call, nearly always: not cached
        seen = (_FROM_BYTES(hand, "little") + _BYTE_ONE[game.indicator] + self.seen_total
                + self.own_packed[seat] - self.packed[seat])
        window = game._window
        if window is None:
            claim, actor = _ZERO, game.turn
        else:
            claim, actor = _ONEHOT[window.tiles[0]], window.payer
        drawn = game.drawn
        own_turn = game.turn == seat and game.phase == "discard"
        k = game.indicator
        piao, pending = game.piao, game.piao_pending
        shipeng = game.shipeng[seat]
        s1, s2, s3 = (seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4
        melds, river, kongs, hidden, recent = self.melds, self.river, self.kongs, self.hidden, self.recent
        return (
            therm4(hand), self.own_melds[seat], melds[s1], melds[s2], melds[s3],
            river[seat], river[s1], river[s2], river[s3],
            therm4((_FOURS - seen).to_bytes(NUM_KINDS, "little")),
            self.own_kongs[seat], kongs[s1], kongs[s2], kongs[s3],
            _TWO[0], hidden[s1], hidden[s2], hidden[s3],
            recent[seat], recent[s1], recent[s2], recent[s3],
            _ONEHOT[drawn] if own_turn and drawn is not None else _ZERO,
            _ONEHOT[k], _ONEHOT[k] if k != WHITE else _ZERO,
            _bits_row(shipeng) if shipeng else _ZERO, claim,
            _SEATS[(game.dealer - seat) % 4], _SEATS[(actor - seat) % 4],
            b"".join([_TWO[min(piao[s], 2)] for s in _ORDER[seat]]) if any(piao) else _PAD[8],
            _FLAGS[tuple([int(s in pending) for s in _ORDER[seat]])] if pending else _PAD[4],
            _STREAK_BLOCK[game.streak],
            self.claims_blocks[seat],
            _COUNT[game.wall.remaining],
            _PHASE_BLOCK[game.phase],
            _ONES if own_turn and game.ready_before() else _ZERO,
        )


def planes_to_float(planes: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """uint8 planes (fraction planes holding counts) as the float32 observation the AEC env gives,
    bit for bit (``ChannelTable.to_float``); ``out`` (float32, same shape) is written when given."""
    return CHANNELS.to_float(planes, out)


def encode(game: HangzhouGame, seat: int) -> np.ndarray:
    """The ``hz-v0`` observation of ``seat`` (see the module docstring for the channels)."""
    return Encoder()(game, seat)


def decode_hand(obs: np.ndarray) -> list[int]:
    """The seat's own concealed counts (34 ints) from an observation."""
    return CHANNELS.decode(obs, "HAND")


def decode_unseen(obs: np.ndarray) -> list[int]:
    """Copies of each kind the seat cannot see."""
    return CHANNELS.decode(obs, "UNSEEN")


def decode_indicator(obs: np.ndarray) -> int:
    """The indicator kind (the 财神's); 0 on an empty plane, as an argmax gives."""
    return CHANNELS.decode(obs, "INDICATOR") or 0


def decode_melded(obs: np.ndarray, rel: int = 0) -> list[int]:
    """Visible melded counts of the relative seat ``rel`` (0 = self)."""
    return CHANNELS.decode(obs, "MELDS", rel)


def decode_phase(obs: np.ndarray) -> str:
    """The phase name (one of ``game.PHASES``)."""
    return CHANNELS.decode(obs, "PHASE")


def decode_claim(obs: np.ndarray) -> int | None:
    """The tile offered to claim now, or None."""
    return CHANNELS.decode(obs, "CLAIM")


# The compiled twin of ``Encoder.planes`` (``_planes.pyx``: C loops over the game's count rows and
# melds, the same bytes), used where it is built; None runs the incremental encoder above.
_twin = accelerated("cnmahjong.envs.hangzhou._planes")
_compiled_planes = getattr(_twin, "planes", None)
_compiled_planes_into = getattr(_twin, "planes_into", None)

ENCODING = EncoderSpec(name=ENCODER, channels=CHANNELS, shape=SHAPE, encoder=Encoder, to_float=planes_to_float,
                       planes_into=_compiled_planes_into)
"""``hz-v0`` as one self-contained spec (a ``Ruleset`` holds its encoders as ``{spec.name: spec}``)."""

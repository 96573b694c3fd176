"""Observation encoder ``cs-v0``: planes over the 27 tile kinds, seen from one seat.

``encode(game, seat)`` returns a ``float32`` array of shape ``(NUM_CHANNELS, 27)``
with values in [0, 1]. Seats are relative: 0 self, 1 next (下家), 2 opposite
(对家), 3 previous (上家). It holds every piece of public information and the
seat's own concealed hand, and nothing that seat cannot know (no other
concealed hand, no wall order, no pending claim choice of another seat).

The channels are declared once, as data, in ``CHANNELS`` below (``cnmahjong.envs.core.channels``):
the offset constants (``HAND``, ``MELDS``...), ``NUM_CHANNELS``, the README's channel table
(``CHANNELS.markdown()``) and the ``decode_*`` helpers all follow from it.

``decode_*`` helpers read a seat's own hand and the visible tiles back from an
observation, so rule-based agents can play from exactly what a learner sees.
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np

from cnmahjong.envs.changsha.game import PHASES, ChangshaGame
from cnmahjong.envs.core.channels import RELATIVE_SEATS, ChannelTable, EncoderSpec, Group, Value, repeat_kinds
from cnmahjong.envs.core.planes import ROTATE, SEAT_ORDER, HandRows, Rows, seat_arg, split_public_log, therm2, therm4
from cnmahjong.envs.hotpath import accelerated

ENCODER = "cs-v0"
NUM_KINDS = 27
RECENT = 6
WALL_SCALE = 55.0
"""The WALL plane is ``tiles left / WALL_SCALE``; uint8 planes hold the count itself."""
STACKS_SCALE = 28.0
"""The STACKS plane is ``stacks left / STACKS_SCALE``; uint8 planes hold the count itself."""

_SEAT = "relative seat"
CHANNELS = ChannelTable((
    Group("HAND", 4, "own concealed hand (手牌)", Value.THERMOMETER),
    Group("MELDS", 4, "melded tiles (副露) per relative seat; kongs are public", Value.THERMOMETER, 4, _SEAT),
    Group("RIVER", 4, "discards lying in front of each relative seat (牌河)", Value.THERMOMETER, 4, _SEAT),
    Group("SHOWN", 4, "tiles shown by opening wins (起手胡) and still in that hand, per relative seat",
          Value.THERMOMETER, 4, _SEAT),
    Group("UNSEEN", 4, "kinds unseen from this seat (4 − every copy it can see)", Value.THERMOMETER),
    Group("KONGS", 1, "kong (杠) kinds per relative seat", Value.KINDS, 4, _SEAT),
    Group("RECENT_DISCARDS", RECENT, f"discards: the {RECENT} most recent per relative seat, newest first",
          Value.ONE_HOT, 4, _SEAT),
    Group("DRAWN", 1, "own drawn tile this turn", Value.ONE_HOT),
    Group("LOUHU", 1, "own 漏胡 (passed win) kinds: no discard win on them until the next own draw", Value.KINDS),
    Group("REVEALED", 2, "tiles face up in the air (开杠 draw, 海底 tile)", Value.THERMOMETER),
    Group("CLAIM", 2, "tiles offered to claim now (discard, kong tile, dropped 开杠 tiles, 海底)",
          Value.THERMOMETER),
    Group("DEALER", 4, "dealer (庄家), relative seat", Value.CHOICE, labels=RELATIVE_SEATS),
    Group("LOCKED", 1, "locked seats after an unused 开杠 draw", Value.FLAG, 4, _SEAT),
    Group("ACTOR", 4, "seat whose tile is offered, or whose turn it is, relative", Value.CHOICE,
          labels=RELATIVE_SEATS),
    Group("WALL", 1, "tiles left in the wall (牌墙)", Value.FRACTION, scale=WALL_SCALE),
    Group("STACKS", 1, "stacks (墩) left in the wall", Value.FRACTION, scale=STACKS_SCALE),
    Group("PHASE", len(PHASES), "phase of the hand (`game.PHASES`)", Value.CHOICE, labels=PHASES),
    Group("DECLARED", 1, "seats that declared an opening win (起手胡)", Value.FLAG, 4, _SEAT),
))
"""The ``cs-v0`` channels in plane order: the layout's one declaration."""

# First channel of each group (computed from ``CHANNELS``, plain ints for the hot loops).
(HAND, MELDS, RIVER, SHOWN, UNSEEN, KONGS, RECENT_DISCARDS, DRAWN, LOUHU, REVEALED, CLAIM, DEALER,
    LOCKED, ACTOR, WALL, STACKS, PHASE, DECLARED) = CHANNELS.starts()
NUM_CHANNELS = CHANNELS.size
SHAPE = (NUM_CHANNELS, NUM_KINDS)

# Planes are made as uint8 bytes with byte tables (``cnmahjong.envs.core.planes``), joined into one
# buffer with a single ``bytes.join`` and converted to float32 by one numpy call.
_R = Rows(NUM_KINDS, 108)
_ZERO, _ONES, _ONEHOT, _PAD = _R.zero, _R.ones, _R.onehot, _R.pad
_SEAT_BLOCK, _FLAG_BLOCK, _COUNT = _R.seat, _R.flags, _R.count
_PHASE_BLOCK = {p: b"".join(_ONES if q == p else _ZERO for q in PHASES) for p in PHASES}
_FOURS = int.from_bytes(bytes([4]) * NUM_KINDS, "little")  # 4 copies of every kind, packed 8 bits a kind

# Per observing seat: absolute seats in its relative order (self, next, opposite, previous),
# and itemgetters that pick the public slots (see ``_Public``) in that order, in C.
_ORDER, _ROTATE = SEAT_ORDER, ROTATE
_PUB_THERM = [itemgetter(*(base + o for base in (0, 4, 8) for o in order)) for order in _ORDER]
_PUB_KONG_RECENT = [itemgetter(*(base + o for base in (12, 16) for o in order)) for order in _ORDER]


_counts_bytes = _R.counts


def _kong_row(melds: list) -> bytes:
    row = bytearray(NUM_KINDS)
    for m in melds:
        if len(m.tiles) == 4:
            row[m.tiles[0]] = 1
    return bytes(row)


def _recent_planes(river: list[int]) -> bytes:
    recent = river[: -RECENT - 1: -1]
    return b"".join(map(_ONEHOT.__getitem__, recent)) + _PAD[RECENT - len(recent)]


_LOUHU_ROWS: dict[int, bytes] = {0: _ZERO}


def _louhu_row(bits: int) -> bytes:
    """The 漏胡 plane of a kind bitmask; few distinct sets occur, so each is made once."""
    row = _LOUHU_ROWS.get(bits)
    if row is None:
        row = _LOUHU_ROWS[bits] = bytes((bits >> k) & 1 for k in range(NUM_KINDS))
    return row


class _Public:
    """Public planes of one game in absolute seat order, shared by every observer.

    ``slots`` holds 20 byte blocks: 0–3 meld thermometers of seats 0–3, 4–7 river
    thermometers, 8–11 shown-tile thermometers (the slot numbers of
    ``ChangshaGame.public_log``), 12–15 kong rows, 16–19 recent-discard planes.
    ``rows`` are the count rows behind slots 0–11, ``packed`` their sum with 8 bits
    per kind in one int, ``shown`` each seat's shown row packed the same way.
    """

    __slots__ = ("rows", "slots", "packed", "shown", "read")

    def __init__(self) -> None:
        rivers = [bytearray(NUM_KINDS) for _ in range(4)]  # patched in place by discards
        self.rows: list[bytes | bytearray] = [_ZERO] * 4 + rivers + [_ZERO] * 4
        self.slots: list[bytes | bytearray] = ([_PAD[4]] * 4 + [bytearray(_PAD[4]) for _ in range(4)]
                                               + [_PAD[4]] * 4 + [_ZERO] * 4 + [_PAD[RECENT]] * 4)
        self.packed = 0
        self.shown = [0] * 4
        self.read = 0  # entries of the game's public_log already applied

    def update(self, game: ChangshaGame) -> None:
        """Apply the game's ``public_log`` entries since the last update. A discard patches
        one byte of its river's thermometer and shifts the recent-discard planes; other
        entries re-encode their slot from the game (and cover any discard of the same
        slot in this batch, since they read the current state)."""
        batch = game.public_log[self.read:]
        self.read += len(batch)
        if len(batch) == 1 and batch[0] >= 16:  # the common case: one discard
            code = batch[0]
            self.discard(code & 3, (code >> 4) - 1)
            return
        discards, full = split_public_log(batch)
        for s, t in discards:
            self.discard(s, t)
        for slot in full:
            self.refresh(game, slot)

    def discard(self, s: int, t: int) -> None:
        """Tile ``t`` joined the river of seat ``s``."""
        row = self.rows[4 + s]
        level = row[t]
        row[t] = level + 1
        self.slots[4 + s][level * NUM_KINDS + t] = 1  # thermometer plane "count > level"
        self.packed += 1 << (8 * t)
        self.slots[16 + s] = _ONEHOT[t] + self.slots[16 + s][:(RECENT - 1) * NUM_KINDS]

    def refresh(self, game: ChangshaGame, slot: int) -> None:
        """Re-encode one public slot from the game's current count row."""
        s = slot & 3
        kind = slot >> 2
        new = bytes((game.melded, game.river_counts, game.shown)[kind][s])
        old = self.rows[slot]
        if kind == 1:  # a river changed: its newest tiles too
            self.slots[16 + s] = _recent_planes(game.rivers[s])
        if new == old:
            return
        if kind == 1:  # rivers stay patchable
            self.rows[slot] = bytearray(new)
            self.slots[slot] = bytearray(therm4(new))
        else:
            self.rows[slot] = new
            self.slots[slot] = therm4(new)
        packed = int.from_bytes(new, "little")
        self.packed += packed - int.from_bytes(old, "little")
        if kind == 0:  # melds changed: kong kinds may have too
            self.slots[12 + s] = _kong_row(game.melds[s])
        elif kind == 2:
            self.shown[s] = packed


class Encoder:
    """Incremental ``cs-v0`` encoder (the env keeps one).

    Public planes are kept per game in absolute seat order and re-encoded only
    for the rows named by the game's ``public_log`` since the last call (a
    discard changes one river, a claim one meld and one river). A call joins the
    observer's blocks in its relative seat order with one ``bytes.join``
    (itemgetters pick the public blocks in C) and converts the uint8 planes to
    float32 in one numpy call. Seen-tile counts are packed into Python integers
    (8 bits per kind), so the unseen planes are integer arithmetic. The output
    equals ``encode(game, seat)`` and the plain reference encoder of the tests
    at every step.
    """

    def __init__(self) -> None:
        self._game: ChangshaGame | None = None
        self._pub = _Public()
        self._hands = HandRows()

    def __getstate__(self) -> dict:
        return {}  # caches only

    def __setstate__(self, state: dict) -> None:
        self.__init__()

    def __call__(self, game: ChangshaGame, seat: int) -> np.ndarray:
        return planes_to_float(np.frombuffer(self.planes(game, seat), dtype=np.uint8).reshape(SHAPE))

    def planes(self, game: ChangshaGame, seat: int) -> bytes:
        """The observation as ``NUM_CHANNELS * 27`` uint8 bytes; the WALL and STACKS planes hold
        the counts themselves (the float observation divides them by ``WALL_SCALE`` and
        ``STACKS_SCALE``: ``__call__`` for one row, ``planes_to_float`` for a batch)."""
        if _compiled_planes is not None:
            return _compiled_planes(game, seat)
        seat = seat_arg(seat)
        pub = self._pub
        if game is not self._game:
            self._game = game
            pub = self._pub = _Public()
            self._hands = HandRows()
        if pub.read < len(game.public_log):
            pub.update(game)
        cached = self._hands.get(seat, game.hands[seat])
        # unseen = 4 - own hand - every meld - every river - others' shown tiles - tiles in the air
        unseen = _FOURS - pub.packed + pub.shown[seat] - cached[2]
        revealed = game.revealed
        if revealed:
            revealed = _counts_bytes(revealed)
            unseen -= int.from_bytes(revealed, "little")
            revealed = therm2(revealed)
        else:
            revealed = _PAD[2]
        window = game._window  # the tiles offered now and who offers them (or pays for them)
        if window is None:
            claim = _PAD[2]
            actor = game.turn
        else:
            claim = therm2(_counts_bytes(window.tiles))
            actor = window.payer
        drawn = game.drawn
        own_drawn = drawn is not None and game.turn == seat and game.phase == "discard"
        locked, declared = game.locked, game.declared
        louhu = game.louhu[seat]
        slots = pub.slots
        wall = game.wall
        return b"".join((
            cached[1],
            *_PUB_THERM[seat](slots),
            therm4(unseen.to_bytes(NUM_KINDS, "little")),
            *_PUB_KONG_RECENT[seat](slots),
            _ONEHOT[drawn] if own_drawn else _ZERO,
            _louhu_row(louhu) if louhu else _ZERO,
            revealed, claim,
            _SEAT_BLOCK[(game.dealer - seat) % 4],
            _FLAG_BLOCK[tuple(map(bool, _ROTATE[seat](locked)))] if any(locked) else _PAD[4],
            _SEAT_BLOCK[(actor - seat) % 4],
            _COUNT[wall.remaining], _COUNT[wall.stacks_left()],
            _PHASE_BLOCK[game.phase],
            _FLAG_BLOCK[tuple(map(bool, _ROTATE[seat](declared)))] if any(declared) else _PAD[4],
        ))


def planes_to_float(planes: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """uint8 planes (fraction planes holding counts) as the float32 observation the AEC env gives,
    bit for bit (``ChannelTable.to_float``); ``out`` (float32, same shape) is written when given."""
    return CHANNELS.to_float(planes, out)


def encode(game: ChangshaGame, seat: int) -> np.ndarray:
    """The ``cs-v0`` observation of ``seat`` (see the module docstring for the channels).

    Count vectors are turned into thermometer planes with byte tables
    (``bytes.translate``, in C); the planes are joined into one buffer and
    converted to float32 in a single numpy call. The env uses the incremental
    ``Encoder`` instead, which gives the same arrays.
    """
    return Encoder()(game, seat)


# ------------------------------------------------------------------ decoding
def decode_hand(obs: np.ndarray) -> list[int]:
    """The seat's own concealed counts (27 ints) from an observation."""
    return CHANNELS.decode(obs, "HAND")


def decode_unseen(obs: np.ndarray) -> list[int]:
    """Copies of each kind the seat cannot see (still in the wall or other hands)."""
    return CHANNELS.decode(obs, "UNSEEN")


def decode_melded(obs: np.ndarray, rel: int = 0) -> list[int]:
    """Counts of melded tiles of the relative seat ``rel`` (0 = self)."""
    return CHANNELS.decode(obs, "MELDS", rel)


def decode_claim(obs: np.ndarray) -> list[int]:
    """Kinds offered to claim now (with repeats), or [] when none."""
    return repeat_kinds(CHANNELS.decode(obs, "CLAIM"))


def decode_phase(obs: np.ndarray) -> str:
    """The phase name (one of ``game.PHASES``)."""
    return CHANNELS.decode(obs, "PHASE")


def decode_drawn(obs: np.ndarray) -> int | None:
    """The tile the seat just drew, or None."""
    return CHANNELS.decode(obs, "DRAWN")


def decode_wall(obs: np.ndarray) -> int:
    """Tiles left in the wall."""
    return CHANNELS.decode(obs, "WALL")


# The compiled twin of ``Encoder.planes`` (``_planes.pyx``: C loops over the game's count rows,
# the same bytes), used where it is built; None runs the pure-Python encoder.
_twin = accelerated("cnmahjong.envs.changsha._planes")
_compiled_planes = getattr(_twin, "planes", None)
_compiled_planes_into = getattr(_twin, "planes_into", None)
if _compiled_planes_into is not None:  # the twin writes a batch's row in place (``VectorEnv``)
    Encoder.planes_into = staticmethod(_compiled_planes_into)  # (game, seat, buf, offset)

ENCODING = EncoderSpec(name=ENCODER, channels=CHANNELS, shape=SHAPE, encoder=Encoder, to_float=planes_to_float,
                       planes_into=_compiled_planes_into)
"""``cs-v0`` as one self-contained spec (a ``Ruleset`` holds its encoders as ``{spec.name: spec}``)."""

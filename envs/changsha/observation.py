"""Observation encoder ``cs-v0``: planes over the 27 tile kinds, seen from one seat.

``encode(game, seat)`` returns a ``float32`` array of shape ``(NUM_CHANNELS, 27)``
with values in [0, 1]. Seats are relative: 0 self, 1 next (下家), 2 opposite
(对家), 3 previous (上家). It holds every piece of public information and the
seat's own concealed hand, and nothing that seat cannot know (no other
concealed hand, no wall order, no pending claim choice of another seat).

| channels | content |
|---|---|
| 0–3 | own concealed hand, thermometer: count ≥ 1, ≥ 2, ≥ 3, 4 |
| 4–19 | melded tiles per relative seat, thermometer (4 planes each); kongs are public |
| 20–35 | discards lying in front of each relative seat, thermometer (4 each) |
| 36–51 | tiles shown by opening wins and still in that hand, per relative seat (4 each) |
| 52–55 | kinds unseen from this seat (4 − every copy it can see), thermometer (4) |
| 56–59 | kong kinds per relative seat |
| 60–83 | discards: the 6 most recent per relative seat, newest first, one-hot (6 each) |
| 84 | own drawn tile this turn (one-hot) |
| 85 | own 漏胡 kinds: no discard win on them until the next own draw |
| 86–87 | tiles face up in the air (开杠 draw, 海底 tile), thermometer (2) |
| 88–89 | tiles offered to claim now (discard, kong tile, dropped 开杠 tiles, 海底), thermometer (2) |
| 90–93 | dealer, relative seat (whole plane) |
| 94–97 | locked seats after an unused 开杠 draw (whole planes) |
| 98–101 | seat whose tile is offered, or whose turn it is (whole plane) |
| 102 | tiles left in the wall / 55 (whole plane) |
| 103 | stacks left in the wall / 28 (whole plane) |
| 104–114 | phase, one-hot over ``game.PHASES`` (whole plane) |
| 115–118 | seats that declared an opening win (whole planes) |

``decode_*`` helpers read a seat's own hand and the visible tiles back from an
observation, so rule-based agents can play from exactly what a learner sees.
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np

from envs.changsha.game import PHASES, ChangshaGame

ENCODER = "cs-v0"
NUM_KINDS = 27
RECENT = 6

HAND = 0
MELDS = 4
RIVER = 20
SHOWN = 36
UNSEEN = 52
KONGS = 56
RECENT_DISCARDS = 60
DRAWN = RECENT_DISCARDS + 4 * RECENT  # 84
LOUHU = DRAWN + 1  # 85
REVEALED = LOUHU + 1  # 86
CLAIM = REVEALED + 2  # 88
DEALER = CLAIM + 2  # 90
LOCKED = DEALER + 4  # 94
ACTOR = LOCKED + 4  # 98
WALL = ACTOR + 4  # 102
STACKS = WALL + 1  # 103
PHASE = STACKS + 1  # 104
DECLARED = PHASE + len(PHASES)  # 115
NUM_CHANNELS = DECLARED + 4  # 119
SHAPE = (NUM_CHANNELS, NUM_KINDS)

# The observation is assembled as float32 bytes (4 per value) with one ``bytearray.join``
# and wrapped as an array without another copy. Thermometer planes are made as uint8
# bytes with byte tables (``counts.translate(_THERM[l])`` is the plane "count > l", in C)
# and turned into float32 bytes by one numpy conversion: public blocks once when they
# change, the seat's own rows (hand, unseen, the per-decision rows) once per call.
_THERM = [bytes(1 if c > level else 0 for c in range(256)) for level in range(4)]
_ZERO8 = bytes(NUM_KINDS)
_ONES8 = bytes([1]) * NUM_KINDS
_ONEHOT8 = [bytes(1 if k == t else 0 for k in range(NUM_KINDS)) for t in range(NUM_KINDS)]
_SEAT_BLOCK8 = [b"".join(_ONES8 if r == i else _ZERO8 for r in range(4)) for i in range(4)]
_PHASE_BLOCK8 = {p: b"".join(_ONES8 if q == p else _ZERO8 for q in PHASES) for p in PHASES}
_FLAG_BLOCK8 = {bits: b"".join(_ONES8 if b else _ZERO8 for b in bits)
                for bits in ((a, b, c, d) for a in (0, 1) for b in (0, 1) for c in (0, 1) for d in (0, 1))}
_NO_FLAGS8 = _ZERO8 * 4
_FOURS = int.from_bytes(bytes([4]) * NUM_KINDS, "little")  # 4 copies of every kind, packed 8 bits a kind

_ROW = 4 * NUM_KINDS  # bytes of one float32 plane
_ZERO = bytes(_ROW)
_ONEHOT = [np.frombuffer(row, np.uint8).astype(np.float32).tobytes() for row in _ONEHOT8]
_PAD = [_ZERO * n for n in range(RECENT + 1)]
_WALL_ROWS = [np.full(NUM_KINDS, n / 55.0, np.float32).tobytes() for n in range(56)]
_STACK_ROWS = [np.full(NUM_KINDS, n / 28.0, np.float32).tobytes() for n in range(29)]

# Per observing seat: absolute seats in its relative order (self, next, opposite, previous),
# and itemgetters that pick the public slots (see ``_Public``) in that order, in C.
_ORDER = [tuple((seat + r) % 4 for r in range(4)) for seat in range(4)]
_ROTATE = [itemgetter(*order) for order in _ORDER]
_PUB_THERM = [itemgetter(*(base + o for base in (0, 4, 8) for o in order)) for order in _ORDER]
_PUB_KONG_RECENT = [itemgetter(*(base + o for base in (12, 16) for o in order)) for order in _ORDER]
# Byte offsets, in the float32 bytes of the per-call uint8 rows, of: hand (rows 0-3),
# unseen (52-55), rows 84-101 (drawn .. actor) and rows 104-118 (phase, declared).
_OWN = [0, 4 * _ROW, 8 * _ROW, (8 + WALL - DRAWN) * _ROW, (8 + WALL - DRAWN + NUM_CHANNELS - PHASE) * _ROW]


def _float_bytes(planes: bytes) -> bytes:
    """uint8 planes as float32 bytes."""
    return np.frombuffer(planes, np.uint8).astype(np.float32).tobytes()


def _therm4(row: bytes) -> bytes:
    return b"".join((row.translate(_THERM[0]), row.translate(_THERM[1]),
                     row.translate(_THERM[2]), row.translate(_THERM[3])))


def _counts_bytes(tiles: list[int]) -> bytes:
    c = bytearray(NUM_KINDS)
    for t in tiles:
        c[t] += 1
    return bytes(c)


def _kong_row(melds: list) -> bytes:
    row = bytearray(NUM_KINDS)
    for m in melds:
        if len(m.tiles) == 4:
            row[m.tiles[0]] = 1
    return _float_bytes(row)


def _recent_planes(river: list[int]) -> bytes:
    recent = river[: -RECENT - 1: -1]
    return b"".join(map(_ONEHOT.__getitem__, recent)) + _PAD[RECENT - len(recent)]


_LOUHU_ROWS: dict[int, bytes] = {0: _ZERO8}


def _louhu_row(bits: int) -> bytes:
    row = _LOUHU_ROWS.get(bits)
    if row is None:  # few distinct 漏胡 sets occur: keep them
        row = _LOUHU_ROWS[bits] = bytes((bits >> k) & 1 for k in range(NUM_KINDS))
    return row


class _Public:
    """Public planes of one game in absolute seat order, shared by every observer.

    ``slots`` holds 20 float32 blocks: 0–3 meld thermometers of seats 0–3, 4–7 river
    thermometers, 8–11 shown-tile thermometers (the slot numbers of
    ``ChangshaGame.public_log``), 12–15 kong rows, 16–19 recent-discard planes.
    ``rows`` are the count rows behind slots 0–11, ``packed`` their sum with 8 bits
    per kind in one int, ``shown`` each seat's shown row packed the same way.
    """

    __slots__ = ("rows", "slots", "packed", "shown", "read")

    def __init__(self) -> None:
        self.rows = [_ZERO8] * 12
        self.slots = [_ZERO * 4] * 12 + [_ZERO] * 4 + [_PAD[RECENT]] * 4
        self.packed = 0
        self.shown = [0] * 4
        self.read = 0  # entries of the game's public_log already applied

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
        self.rows[slot] = new
        self.slots[slot] = _float_bytes(_therm4(new))
        packed = int.from_bytes(new, "little")
        self.packed += packed - int.from_bytes(old, "little")
        if kind == 0:  # melds changed: kong kinds may have too
            self.slots[12 + s] = _kong_row(game.melds[s])
        elif kind == 2:
            self.shown[s] = packed


class Encoder:
    """Incremental ``cs-v0`` encoder (the env keeps one).

    Public planes are kept per game in absolute seat order, as float32 bytes, and
    re-encoded only for the rows named by the game's ``public_log`` since the last
    call (a discard changes one river, a claim one meld and one river). A call
    builds the observer's own rows (hand, unseen, the per-decision rows) as uint8
    planes, converts them in one numpy call, and joins everything in its
    relative seat order with one ``bytearray.join`` (itemgetters pick the public
    blocks in C); the array wraps that bytearray without another copy. Seen-tile
    counts are packed into Python integers (8 bits per kind), so the unseen
    planes are integer arithmetic. The output equals ``encode(game, seat)`` and
    the plain reference encoder of the tests at every step.
    """

    def __init__(self) -> None:
        self._game: ChangshaGame | None = None
        self._pub = _Public()
        self._hands: list[tuple[bytes, bytes, int] | None] = [None] * 4

    def __getstate__(self) -> dict:
        return {}  # caches only

    def __setstate__(self, state: dict) -> None:
        self.__init__()

    def __call__(self, game: ChangshaGame, seat: int) -> np.ndarray:
        pub = self._pub
        if game is not self._game:
            self._game = game
            pub = self._pub = _Public()
            self._hands = [None] * 4
        log = game.public_log
        if pub.read < len(log):
            for slot in set(log[pub.read:]):
                pub.refresh(game, slot)
            pub.read = len(log)
        hand = game.hands[seat]
        cached = self._hands[seat]
        if cached is None or cached[0] != hand:
            h = bytes(hand)
            cached = self._hands[seat] = (h, _therm4(h), int.from_bytes(h, "little"))
        # unseen = 4 - own hand - every meld - every river - others' shown tiles - tiles in the air
        revealed = _counts_bytes(game.revealed) if game.revealed else _ZERO8
        unseen = (_FOURS - pub.packed + pub.shown[seat] - cached[2]
                  - int.from_bytes(revealed, "little")).to_bytes(NUM_KINDS, "little")
        claim = game.claim_tiles
        claim = _counts_bytes(claim) if claim else _ZERO8
        actor = game.claim_from
        if actor is None:
            actor = game.turn
        drawn = game.drawn
        own_drawn = drawn is not None and game.turn == seat and game.phase == "discard"
        locked, declared = game.locked, game.declared
        own = _float_bytes(b"".join((
            cached[1],  # rows 0-3
            _therm4(unseen),  # rows 52-55
            _ONEHOT8[drawn] if own_drawn else _ZERO8,  # rows 84 ..
            _louhu_row(game.louhu[seat]),
            revealed.translate(_THERM[0]), revealed.translate(_THERM[1]),
            claim.translate(_THERM[0]), claim.translate(_THERM[1]),
            _SEAT_BLOCK8[(game.dealer - seat) % 4],
            _FLAG_BLOCK8[tuple(map(bool, _ROTATE[seat](locked)))] if any(locked) else _NO_FLAGS8,
            _SEAT_BLOCK8[(actor - seat) % 4],  # .. row 101
            _PHASE_BLOCK8[game.phase],  # rows 104 ..
            _FLAG_BLOCK8[tuple(map(bool, _ROTATE[seat](declared)))] if any(declared) else _NO_FLAGS8,
        )))
        slots = pub.slots
        wall = game.wall
        a, b, c, d, e = _OWN
        buf = _JOIN((
            own[a:b],
            *_PUB_THERM[seat](slots),
            own[b:c],
            *_PUB_KONG_RECENT[seat](slots),
            own[c:d],
            _WALL_ROWS[wall.remaining], _STACK_ROWS[wall.stacks_left()],
            own[d:e],
        ))
        return np.frombuffer(buf, dtype=np.float32).reshape(SHAPE)


_JOIN = bytearray().join  # a fresh bytearray each call: the array owns writable memory


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
    return obs[HAND:HAND + 4].sum(axis=0).astype(int).tolist()


def decode_unseen(obs: np.ndarray) -> list[int]:
    """Copies of each kind the seat cannot see (still in the wall or other hands)."""
    return obs[UNSEEN:UNSEEN + 4].sum(axis=0).astype(int).tolist()


def decode_melded(obs: np.ndarray, rel: int = 0) -> list[int]:
    """Counts of melded tiles of the relative seat ``rel`` (0 = self)."""
    return obs[MELDS + 4 * rel:MELDS + 4 * rel + 4].sum(axis=0).astype(int).tolist()


def decode_claim(obs: np.ndarray) -> list[int]:
    """Kinds offered to claim now (with repeats), or [] when none."""
    counts = obs[CLAIM:CLAIM + 2].sum(axis=0).astype(int)
    return [k for k in range(NUM_KINDS) for _ in range(counts[k])]


def decode_phase(obs: np.ndarray) -> str:
    """The phase name (one of ``game.PHASES``)."""
    return PHASES[int(obs[PHASE:PHASE + len(PHASES), 0].argmax())]


def decode_drawn(obs: np.ndarray) -> int | None:
    """The tile the seat just drew, or None."""
    row = obs[DRAWN]
    return int(row.argmax()) if row.any() else None


def decode_wall(obs: np.ndarray) -> int:
    """Tiles left in the wall."""
    return round(float(obs[WALL, 0]) * 55)

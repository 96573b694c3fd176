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

# Byte tables: ``counts.translate(_THERM[l])`` is the thermometer plane "count > l" of a
# bytearray count vector, computed in C without a Python loop.
_THERM = [bytes(1 if c > level else 0 for c in range(256)) for level in range(4)]
_ZERO = bytes(NUM_KINDS)
_ONES = bytes([1]) * NUM_KINDS
_ONEHOT = [bytes(1 if k == t else 0 for k in range(NUM_KINDS)) for t in range(NUM_KINDS)]
_ZEROS = [[_ZERO] * n for n in range(RECENT + 1)]
_SEAT_ROWS = [[_ONES if r == i else _ZERO for r in range(4)] for i in range(4)]
_PHASE_ROWS = {p: [_ONES if q == p else _ZERO for q in PHASES] for p in PHASES}


def _therm(counts: bytes | bytearray, levels: int = 4) -> list[bytes]:
    return [counts.translate(_THERM[level]) for level in range(levels)]


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
    return bytes(row)




class _Public:
    """Encoded public planes in absolute seat order, shared by every observer of one game.

    Rows 0–3 melds, 4–7 rivers, 8–11 shown tiles of seats 0–3: their count bytes,
    thermometer planes (4 × 27 bytes), plus each seat's kong row and recent-discard
    planes. ``packed`` is the sum of all 12 count rows, 8 bits per kind in one int.
    """

    __slots__ = ("rows", "therm", "kongs", "recent", "river_state", "packed")

    def __init__(self) -> None:
        self.rows = [_ZERO] * 12
        self.therm = [_ZERO * 4] * 12
        self.kongs = [_ZERO] * 4
        self.recent = [_ZERO * RECENT] * 4
        self.river_state: list[tuple[int, int]] = [(0, -1)] * 4
        self.packed = 0


_W = NUM_KINDS
_FOURS = int.from_bytes(bytes([4]) * NUM_KINDS, "little")  # 4 copies of every kind, packed


def _therm4(row: bytes) -> bytes:
    return b"".join((row.translate(_THERM[0]), row.translate(_THERM[1]),
                     row.translate(_THERM[2]), row.translate(_THERM[3])))


class Encoder:
    """Incremental ``cs-v0`` encoder (the env keeps one).

    Public planes are kept per game in absolute seat order and re-encoded only
    when their count row changed (a discard changes one river, a claim one
    meld and one river), so each step costs a few byte-table translations;
    every observer then assembles its planes in its own relative seat order.
    Seen-tile counts are packed into one Python integer (8 bits per kind), so
    updating them is integer arithmetic. The output equals
    ``encode(game, seat)`` (a property test checks this at every step).
    """

    def __init__(self) -> None:
        self._game: ChangshaGame | None = None
        self._pub = _Public()
        self._hands: dict[int, tuple[bytes, bytes]] = {}

    def _update_public(self, game: ChangshaGame) -> _Public:
        pub = self._pub
        rows, therm = pub.rows, pub.therm
        current = (*game.melded, *game.river_counts, *game.shown)
        for i in range(12):
            new = current[i]
            old = rows[i]
            if new == old:
                continue
            new = bytes(new)
            therm[i] = _therm4(new)
            pub.packed += int.from_bytes(new, "little") - int.from_bytes(old, "little")
            if i < 4:  # a seat's melds changed: its kong kinds may have too
                pub.kongs[i] = _kong_row(game.melds[i])
            rows[i] = new
        for s in range(4):
            river = game.rivers[s]
            state = (len(river), river[-1] if river else -1)
            if state != pub.river_state[s]:  # a river only grows, or loses its newest tile to a claim
                pub.river_state[s] = state
                recent = river[: -RECENT - 1: -1]
                pub.recent[s] = b"".join([_ONEHOT[t] for t in recent] + _ZEROS[RECENT - len(recent)])
        return pub

    def __call__(self, game: ChangshaGame, seat: int) -> np.ndarray:
        if game is not self._game:
            self._game = game
            self._pub = _Public()
            self._hands = {}
        pub = self._update_public(game)
        hand = game.hands[seat]
        cached = self._hands.get(seat)
        if cached is None or cached[0] != hand:
            cached = self._hands[seat] = (bytes(hand), _therm4(bytes(hand)))
        order = (seat, (seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)
        o0, o1, o2, o3 = order
        therm = pub.therm
        # unseen = 4 - own hand - every meld - every river - others' shown tiles - tiles in the air
        revealed = _counts_bytes(game.revealed) if game.revealed else _ZERO
        seen = (pub.packed - int.from_bytes(pub.rows[8 + seat], "little") + int.from_bytes(cached[0], "little")
                + int.from_bytes(revealed, "little"))
        unseen = (_FOURS - seen).to_bytes(_W, "little")
        own_turn = game.turn == seat and game.drawn is not None and game.phase == "discard"
        louhu = game.louhu[seat]
        claim = game.claim_tiles
        actor = game.claim_from
        if actor is None:
            actor = game.turn
        locked, declared = game.locked, game.declared
        buf = b"".join((
            cached[1], therm[o0], therm[o1], therm[o2], therm[o3],
            therm[4 + o0], therm[4 + o1], therm[4 + o2], therm[4 + o3],
            therm[8 + o0], therm[8 + o1], therm[8 + o2], therm[8 + o3], _therm4(unseen),
            pub.kongs[o0], pub.kongs[o1], pub.kongs[o2], pub.kongs[o3],
            pub.recent[o0], pub.recent[o1], pub.recent[o2], pub.recent[o3],
            _ONEHOT[game.drawn] if own_turn else _ZERO,
            bytes((louhu >> k) & 1 for k in range(NUM_KINDS)) if louhu else _ZERO,
            revealed.translate(_THERM[0]), revealed.translate(_THERM[1]),
            *(_therm(_counts_bytes(claim), 2) if claim else _ZEROS[2]),
            *_SEAT_ROWS[(game.dealer - seat) % 4],
            _ONES if locked[o0] else _ZERO, _ONES if locked[o1] else _ZERO,
            _ONES if locked[o2] else _ZERO, _ONES if locked[o3] else _ZERO,
            *_SEAT_ROWS[(actor - seat) % 4],
            _ZERO, _ZERO,  # wall and stacks, set below
            *_PHASE_ROWS[game.phase],
            _ONES if declared[o0] else _ZERO, _ONES if declared[o1] else _ZERO,
            _ONES if declared[o2] else _ZERO, _ONES if declared[o3] else _ZERO,
        ))
        obs = np.frombuffer(buf, dtype=np.uint8).reshape(SHAPE).astype(np.float32)
        obs[WALL] = game.wall.remaining / 55.0
        obs[STACKS] = game.wall.stacks_left() / 28.0
        return obs


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

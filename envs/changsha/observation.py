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
_UNSEEN = bytes(max(4 - c, 0) for c in range(256))  # seen copies -> unseen copies
_SEAT_ROWS = [[_ONES if r == i else _ZERO for r in range(4)] for i in range(4)]
_PHASE_ROWS = {p: [_ONES if q == p else _ZERO for q in PHASES] for p in PHASES}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}


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


_THERM_ROWS = 13  # own hand; melds, rivers, shown tiles of the four relative seats
# Rows counted as seen: all but row 9, the own shown tiles (already in the own hand).
_SEEN_WEIGHTS = np.array([1] * 9 + [0] + [1] * 3, dtype=np.int16)


class _SeatCache:
    """What the encoder remembers of one seat's last observation."""

    __slots__ = ("rows", "therm", "kongs")

    def __init__(self) -> None:
        self.rows = [_ZERO] * _THERM_ROWS
        self.therm = bytearray(_THERM_ROWS * 4 * NUM_KINDS)
        self.kongs = [_ZERO] * 4


class Encoder:
    """Incremental ``cs-v0`` encoder (the env keeps one).

    For each seat it remembers the 13 count rows of its last observation and
    re-encodes only the rows that changed since (usually the own hand and one
    river), updating the thermometer planes and the seen-tile counts in place.
    Its output equals ``encode(game, seat)`` (a property test checks this).
    """

    def __init__(self) -> None:
        self._game: ChangshaGame | None = None
        self._seats: dict[int, _SeatCache] = {}

    def __call__(self, game: ChangshaGame, seat: int) -> np.ndarray:
        if game is not self._game:
            self._game = game
            self._seats = {}
        cache = self._seats.get(seat)
        if cache is None:
            cache = self._seats[seat] = _SeatCache()
        order = (seat, (seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)
        melded, rivers, shown = game.melded, game.river_counts, game.shown
        current = (game.hands[seat], melded[order[0]], melded[order[1]], melded[order[2]],
                   melded[order[3]], rivers[order[0]], rivers[order[1]], rivers[order[2]],
                   rivers[order[3]], shown[order[0]], shown[order[1]], shown[order[2]], shown[order[3]])
        rows, therm, kongs = cache.rows, cache.therm, cache.kongs
        width = 4 * NUM_KINDS
        for i in range(_THERM_ROWS):
            new = current[i]
            old = rows[i]
            if new == old:
                continue
            new = bytes(new)
            therm[i * width:(i + 1) * width] = b"".join(
                (new.translate(_THERM[0]), new.translate(_THERM[1]),
                 new.translate(_THERM[2]), new.translate(_THERM[3])))
            if 1 <= i <= 4:  # a seat's melds changed: its kong kinds may have too
                kongs[i - 1] = _kong_row(game.melds[order[i - 1]])
            rows[i] = new
        # unseen = 4 - own hand - every meld - every river - others' shown tiles - tiles in the air
        counts = np.frombuffer(b"".join(current), dtype=np.uint8).reshape(_THERM_ROWS, NUM_KINDS)
        seen = _SEEN_WEIGHTS @ counts
        revealed = _counts_bytes(game.revealed) if game.revealed else _ZERO
        if game.revealed:
            seen += np.frombuffer(revealed, dtype=np.uint8)
        unseen = seen.astype(np.uint8).tobytes().translate(_UNSEEN)
        parts: list[bytes | bytearray] = [
            therm, unseen.translate(_THERM[0]), unseen.translate(_THERM[1]),
            unseen.translate(_THERM[2]), unseen.translate(_THERM[3]), *kongs]
        for r in range(4):
            recent = game.rivers[order[r]][: -RECENT - 1: -1]
            parts += [_ONEHOT[t] for t in recent]
            parts += _ZEROS[RECENT - len(recent)]
        own_turn = game.turn == seat and game.drawn is not None and game.phase == "discard"
        parts.append(_ONEHOT[game.drawn] if own_turn else _ZERO)
        louhu = game.louhu[seat]
        parts.append(bytes((louhu >> k) & 1 for k in range(NUM_KINDS)) if louhu else _ZERO)
        parts += _therm(revealed, 2)
        claim = game.claim_tiles
        parts += _therm(_counts_bytes(claim), 2) if claim else _ZEROS[2]
        parts += _SEAT_ROWS[(game.dealer - seat) % 4]
        parts += [_ONES if game.locked[s] else _ZERO for s in order]
        actor = game.claim_from
        if actor is None:
            actor = game.turn
        parts += _SEAT_ROWS[(actor - seat) % 4]
        parts += _ZEROS[2]  # wall and stacks, set below
        parts += _PHASE_ROWS[game.phase]
        parts += [_ONES if game.declared[s] else _ZERO for s in order]
        obs = np.frombuffer(b"".join(parts), dtype=np.uint8).reshape(SHAPE).astype(np.float32)
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

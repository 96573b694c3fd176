"""The wall (牌墙) of rules §1: 54 stacks (墩) of two tiles, head and tail draws.

Positions run 0..107 from the head; the tile at position ``k`` lies in stack
``k // 2``, on top when ``k`` is even. Ordinary draws take from the head in
increasing position, 补张 replacements from the tail (top of the highest
stack still holding a tile, then its bottom), and 开杠 dice draws take the
d-th non-empty stack counted from the tail. A scenario wall shorter than 108
tiles sits at the end of the layout, so its stacks are the ones it would have
had in a real hand.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from functools import cache

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.core.tiles import COPIES, NUM_KINDS, NUM_SUITED_KINDS, check_kind, format

WALL_SIZE = 108
"""Changsha's wall: 27 kinds × 4."""
HONOURS_WALL_SIZE = NUM_KINDS * COPIES
"""A wall with the honours (Hangzhou): 34 kinds × 4 = 136 tiles."""
NUM_STACKS = WALL_SIZE // 2
EMPTY = -1

OVERFLOW_CHOICES = ("tail", "head")


class WallEmptyError(RuntimeError):
    """Raised when a draw is asked of an empty wall (an engine bug, never a user error)."""


class Wall:
    """Remaining tiles of the wall with their stack positions.

    ``Wall(tiles)`` places ``tiles`` (head to tail) at the end of the
    108-position layout. Draw methods return kinds and remove them.
    """

    __slots__ = ("_pos", "_head", "_tail_stack", "remaining", "_stacks", "size")
    remaining: int
    """Tiles still in the wall (read it, never set it: the draw methods keep it)."""

    def __init__(self, tiles: Sequence[int], size: int = WALL_SIZE) -> None:
        if len(tiles) > size:
            raise ValueError(f"a wall holds at most {size} tiles, got {len(tiles)}")
        start = size - len(tiles)
        tiles = list(tiles)
        if not _all_kinds(tiles):
            tiles = [check_kind(t, 34) for t in tiles]  # raises, naming the bad tile
        self._lay_out([EMPTY] * start + tiles, start)

    @classmethod
    def after_deal(cls, layout: list[int], dealt: int) -> Wall:
        """The wall of a whole shuffled layout (``layout``: every position's kind, head to tail, as
        a shuffle made it) after ``dealt`` head draws: ``Wall(layout[dealt:], size=len(layout))``
        without its copies and checks, the list taken over (its first ``dealt`` places emptied).
        Only for a shuffle's own list, whose kinds are known good; anything else goes through
        ``Wall(tiles)``, which checks them."""
        layout[:dealt] = [EMPTY] * dealt
        wall = cls.__new__(cls)
        wall._lay_out(layout, dealt)
        return wall

    def _lay_out(self, layout: list[int], head: int) -> None:
        """The wall whose positions are ``layout`` (head to tail, the whole wall's size), every one
        before ``head`` empty and every one from it on a tile: what both constructors make."""
        size = len(layout)
        self._pos = layout
        self._head = head
        self._tail_stack = size // 2 - 1
        self.remaining = size - head
        self._stacks = (size - head + head % 2) // 2  # a scenario may start with a half stack
        self.size = size

    # ----------------------------------------------------------------- queries
    def __len__(self) -> int:
        return self.remaining

    @property
    def is_haidi(self) -> bool:
        """True when exactly one tile is left: the 海底 tile (§1, §7)."""
        return self.remaining == 1

    def stacks_left(self) -> int:
        """Number of stacks still holding at least one tile (decides the 开杠 dice, §6.3)."""
        return self._stacks

    def tiles(self) -> list[int]:
        """Remaining kinds from head to tail (from ``_head`` on: every position before it is taken)."""
        pos = self._pos
        if self.remaining == len(pos) - self._head:  # none taken past the head (a new deal's wall)
            return pos[self._head:]
        if cython.compiled:  # a C loop over C ints (the filter below calls a method per position)
            out = []
            for k in range(self._head, len(pos)):
                t = pos[k]
                if t != -1:  # EMPTY (a literal for the C comparison)
                    out.append(t)
            return out
        return list(filter(EMPTY.__ne__, self._pos[self._head:]))

    def refill(self, tiles: Sequence[int]) -> None:
        """Lay ``tiles`` (head to tail) on the remaining positions, which keep their places: a
        world drawn for search (``cnmahjong.envs.core.worlds``) has the same wall with other tiles."""
        if len(tiles) != self.remaining:
            raise ValueError(f"refill needs {self.remaining} tiles, got {len(tiles)}")
        it = iter(tiles)
        self._pos = [t if t == EMPTY else next(it) for t in self._pos]

    def positions(self) -> list[int]:
        """Positions (0..107) of the remaining tiles, head to tail."""
        return [k for k, t in enumerate(self._pos) if t != EMPTY]

    def layout(self) -> list[int]:
        """Every position 0..size-1 from the head: the kind lying there, or ``EMPTY`` once taken
        (the global state's wall block: dice draws pick stacks by position)."""
        return list(self._pos)

    def peek_head(self, n: int) -> list[int]:
        """The next ``n`` tiles at the head without taking them (birds, §8.1)."""
        out: list[int] = []
        k = self._head
        pos = self._pos
        while len(out) < n and k < self.size:
            if pos[k] != EMPTY:
                out.append(pos[k])
            k += 1
        return out

    # ------------------------------------------------------------------- draws
    def _take(self, k: int) -> int:
        pos = self._pos
        t = pos[k]
        pos[k] = EMPTY
        self.remaining -= 1
        if pos[k ^ 1] == EMPTY:  # k ^ 1: the other tile of the same stack
            self._stacks -= 1
        return t

    def draw_head(self) -> int:
        """Ordinary draw: the lowest remaining position."""
        if self.remaining == 0:
            raise WallEmptyError("draw from the head of an empty wall")
        pos = self._pos
        k = self._head
        while pos[k] == EMPTY:
            k += 1
        self._head = k + 1
        return self._take(k)

    def draw_tail(self) -> int:
        """补张 replacement: top of the highest stack still holding a tile, then its bottom."""
        if self.remaining == 0:
            raise WallEmptyError("draw from the tail of an empty wall")
        pos = self._pos
        s = self._tail_stack
        while pos[2 * s] == EMPTY and pos[2 * s + 1] == EMPTY:
            s -= 1
        self._tail_stack = s
        return self._take(2 * s if pos[2 * s] != EMPTY else 2 * s + 1)

    def dice_stack(self, total: int, overflow: str = "tail") -> int:
        """Stack index selected by a dice ``total`` (§1): the total-th non-empty stack from the tail.

        When the total exceeds the stacks left, ``overflow="tail"`` takes the
        tail stack (the source's 最后一墩) and ``"head"`` the one nearest the head.
        """
        if total < 1:
            raise ValueError(f"dice total must be at least 1, got {total}")
        if overflow not in OVERFLOW_CHOICES:
            raise ValueError(f"unknown kong_dice_overflow {overflow!r}: allowed {OVERFLOW_CHOICES}")
        if self.remaining == 0:
            raise WallEmptyError("dice draw from an empty wall")
        pos = self._pos
        nonempty = [s for s in range(self.size // 2 - 1, -1, -1)
                    if pos[2 * s] != EMPTY or pos[2 * s + 1] != EMPTY]
        if total > len(nonempty):
            return nonempty[0] if overflow == "tail" else nonempty[-1]
        return nonempty[total - 1]

    def draw_dice(self, total: int, count: int = 2, overflow: str = "tail") -> list[int]:
        """开杠 draw (§6.3): every tile of the selected stack (``count=2``), or its
        top tile, or the bottom if the top is gone (``count=1``). Returns kinds top first."""
        if count not in (1, 2):
            raise ValueError(f"kong draw count must be 1 or 2, got {count}")
        s = self.dice_stack(total, overflow)
        present = [k for k in (2 * s, 2 * s + 1) if self._pos[k] != EMPTY]
        return [self._take(k) for k in present[:count]]

    def __repr__(self) -> str:
        return f"Wall({self.remaining} tiles: {format(self.tiles(), sort=False)})"


def _all_kinds(tiles: list[int]) -> bool:
    """Every entry an ``int`` (not a bool) kind 0..33: the wall's check of its tiles."""
    if cython.compiled:  # one C loop (as Python, the three passes below run in C)
        for t in tiles:  # noqa: SIM110 - a C loop (a generator would not be typed)
            if type(t) is not int or t < 0 or t > 33:
                return False
        return True
    return not tiles or (set(map(type, tiles)) == {int} and min(tiles) >= 0 and max(tiles) < 34)


@cache
def _shuffle_tables(num_kinds: int) -> tuple[tuple[int, ...], struct.Struct]:
    return tuple(k for k in range(num_kinds) for _ in range(COPIES)), struct.Struct(f"<{num_kinds * COPIES}Q")


def shuffled(rng: random.Random, num_kinds: int = NUM_SUITED_KINDS) -> list[int]:
    """Four copies of kinds ``0..num_kinds-1`` (108 or 136 tiles) in a uniformly random order
    drawn from ``rng``: the tiles stably sorted by 64-bit random keys (``random.shuffle`` would
    make one Python-level call per tile). Compiled, the keys are C integers sorted in C
    (``_key_order``); as Python, ``sorted`` with the keys unpacked by ``struct``: the same order."""
    kinds, keys_struct = _shuffle_tables(num_kinds)
    n = len(kinds)
    raw = rng.getrandbits(64 * n).to_bytes(8 * n, "little")
    if cython.compiled:
        return _key_order(raw, kinds)
    keys = keys_struct.unpack(raw)
    return list(map(kinds.__getitem__, sorted(range(n), key=keys.__getitem__)))


def seeded_shuffle(seed: int, num_kinds: int = NUM_SUITED_KINDS) -> list[int]:
    """``shuffled(random.Random(seed), num_kinds)``, the same tiles in the same order, where the
    generator itself is not wanted afterwards. Compiled (and ``seed`` below 2**64), the generator's
    words come from ``_mt_order``'s C loops: about a quarter of the instructions of seeding a
    ``random.Random`` and converting its bits, a third of what a seeded deal cost. The generator a
    game rolls its dice with later is ``generator_after_shuffle``."""
    if cython.compiled and 0 <= seed < 1 << 64:
        return _mt_order(seed, _shuffle_tables(num_kinds)[0], 0)[0]
    return shuffled(random.Random(seed), num_kinds)


def seeded_shuffle_and_draw(seed: int, num_kinds: int, below: int) -> tuple[list[int], int]:
    """``seeded_shuffle``'s tiles and the seed's generator's next ``randrange(below)`` after the
    shuffle (``below`` in 1..2**31): what a hand that draws once from that generator (Sichuan's
    random 换三张 direction) needs of it, without making it. Compiled, from ``_mt_order``'s next
    words; as Python (or where those run out), from ``random.Random(seed)`` itself."""
    if not 0 < below <= 1 << 31:
        raise ValueError(f"below={below!r}: allowed 1..2**31")
    if cython.compiled and 0 <= seed < 1 << 64:
        tiles, draw = _mt_order(seed, _shuffle_tables(num_kinds)[0], below)
        if draw >= 0:
            return tiles, draw
    rng = random.Random(seed)
    tiles = shuffled(rng, num_kinds)
    return tiles, rng.randrange(below)


def generator_after_shuffle(seed: int, num_kinds: int = NUM_SUITED_KINDS) -> random.Random:
    """``random.Random(seed)`` in the state ``shuffled`` leaves it (its one ``getrandbits`` done):
    the seeded generator a hand dealt by ``seeded_shuffle`` rolls its dice with, made when first
    asked."""
    rng = random.Random(seed)
    rng.getrandbits(64 * COPIES * num_kinds)
    return rng


_MT_N = 624
"""The Mersenne Twister's state words (CPython's ``Modules/_randommodule.c``; its M is 397)."""
_MASK32, _UPPER, _MATRIX_A, _TEMPER_B, _TEMPER_C = 0xFFFFFFFF, 0x80000000, 0x9908B0DF, 0x9D2C5680, 0xEFC60000
"""Its constants; compiled, C unsigned ints (wall.pxd), so that the arithmetic stays in C."""
if not cython.compiled:  # wall.pxd's C array, as a list
    _MT_START = [0] * _MT_N


def _fill_mt_start() -> None:
    """``_MT_START``: the state ``init_genrand(19650218)`` makes, the same for every seed (the
    first step of ``init_by_array``), made once."""
    _MT_START[0] = 19650218
    for i in range(1, _MT_N):
        y = _MT_START[i - 1]
        _MT_START[i] = (1812433253 * (y ^ (y >> 30)) + i) & _MASK32


_fill_mt_start()


def _mt_order(seed: int, kinds: tuple, below: int) -> tuple:
    """(``shuffled(random.Random(seed), ...)``'s order, the generator's ``randrange(below)`` next, or
    -1 for ``below`` 0 or where this regeneration's words run out), computed without the Python
    generator (``randrange``: ``getrandbits`` of ``below``'s bit length, the word's top bits, again
    until below ``below``; 1..2**31). CPython's
    MT19937 on C integers (``random_seed``: ``init_by_array`` of ``seed``'s 32-bit words, low word
    first, one word for 0; ``getrandbits(64 n)``: the next ``2 n`` words, low first, so that key ``i``
    is word ``2 i`` plus word ``2 i + 1`` times 2**32), then ``_key_order``'s sort (``_ordered``).
    Only the first ``2 n`` words of the state's first regeneration are made: each depends on words
    made before it or not yet regenerated. ``seed`` in ``0..2**64-1``; as Python the same loops, on
    ints masked to 32 bits (``tests/test_wall.py`` checks both against ``random.Random``)."""
    n = len(kinds)
    if n > 136:
        raise ValueError(f"{n} tiles: at most {MAX_TILES}")
    if not cython.compiled:  # wall.pxd's C arrays, as lists
        mt, keys, key = [0] * _MT_N, [0] * n, [0, 0]
    key[0], key[1] = seed & _MASK32, seed >> 32
    step = 1 if key[1] else 0  # the key's words: two, or one (key[1] never read)
    for i in range(_MT_N):  # init_genrand(19650218), made once
        mt[i] = _MT_START[i]
    # init_by_array's first N rounds: i from 1 to N - 1, then (past the wrap, mt[0] = mt[N - 1]) i = 1
    j = 0
    for i in range(1, _MT_N):
        y = mt[i - 1]
        mt[i] = ((mt[i] ^ ((y ^ (y >> 30)) * 1664525)) + key[j] + j) & _MASK32
        j = (j + 1) & step
    mt[0] = mt[_MT_N - 1]
    y = mt[0]
    mt[1] = ((mt[1] ^ ((y ^ (y >> 30)) * 1664525)) + key[j] + j) & _MASK32
    # its last N - 1 rounds: i from 2 to N - 1, then (wrapped) i = 1
    for i in range(2, _MT_N):
        y = mt[i - 1]
        mt[i] = ((mt[i] ^ ((y ^ (y >> 30)) * 1566083941)) - i) & _MASK32
    mt[0] = mt[_MT_N - 1]
    y = mt[0]
    mt[1] = ((mt[1] ^ ((y ^ (y >> 30)) * 1566083941)) - 1) & _MASK32
    mt[0] = _UPPER
    for i in range(2 * n):  # the regenerated words (genrand_uint32's loop), tempered
        w = _mt_word(mt, i)  # compiled: 64 bits wide before the shift
        if i & 1:
            keys[i >> 1] |= w << 32
        else:
            keys[i >> 1] = w
    draw = -1
    if below > 0:
        bits = 0
        while below >> bits:
            bits += 1
        i = 2 * n
        while draw < 0 and i < _MT_N:  # the next words (one, or a few)
            y = _mt_word(mt, i)
            if y >> (32 - bits) < below:
                draw = y >> (32 - bits)
            i += 1
    return _ordered(keys, n, kinds), draw


def _mt_word(mt: list, i: int) -> int:
    """Word ``i`` of the state's regeneration (words before it regenerated already), stored, and
    returned tempered: ``genrand_uint32``'s steps (compiled, ``mt`` a C array)."""
    y = (mt[i] & _UPPER) | (mt[i + 1 if i < _MT_N - 1 else 0] & 0x7FFFFFFF)  # the last word's next: the new first
    y = mt[i + 397 if i < 227 else i - 227] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    mt[i] = y
    y ^= y >> 11
    y ^= (y << 7) & _TEMPER_B
    y ^= (y << 15) & _TEMPER_C
    return y ^ (y >> 18)


MAX_TILES = HONOURS_WALL_SIZE
"""The most tiles a wall shuffles (the C arrays of ``_key_order``; a literal there)."""


def _key_order(raw: bytes, kinds: tuple) -> list:
    """``kinds`` in the order of their 64-bit little-endian keys in ``raw``, ties in index order:
    ``shuffled``'s ``sorted`` in C (136 tiles at most: ``MAX_TILES``; its C types, arrays among
    them, are in ``wall.pxd``). A counting sort on the keys' top 7 bits (stable: a bucket keeps
    index order) leaves the keys out of order only within a bucket, about one tile each; an
    insertion sort moving a key past strictly greater ones only then finishes: ~6k instructions
    for 108 tiles where a merge sort took ~24k."""
    n = len(kinds)
    if n > 136 or len(raw) != 8 * n:
        raise ValueError(f"{n} tiles with {len(raw)} key bytes: at most {MAX_TILES} tiles, 8 bytes each")
    p = raw
    if not cython.compiled:  # wall.pxd's C array, as a list
        keys = [0] * n
    for i in range(n):
        key = 0
        for b in range(7, -1, -1):
            key = key << 8 | p[8 * i + b]
        keys[i] = key
    return _ordered(keys, n, kinds)


def _ordered(keys: list, n: int, kinds: tuple) -> list:
    """``kinds[:n]`` in the order of ``keys[:n]``, ties in index order (the sort of ``_key_order``,
    whose docstring says how; compiled, ``keys`` is a C array)."""
    if not cython.compiled:
        order, start = [0] * n, [0] * 129
    else:
        for b in range(129):
            start[b] = 0
    for i in range(n):
        start[(keys[i] >> 57) + 1] += 1
    for b in range(128):  # bucket b's first place
        start[b + 1] += start[b]
    for i in range(n):
        b = keys[i] >> 57
        order[start[b]] = i
        start[b] += 1
    for i in range(1, n):
        o = order[i]
        key = keys[o]
        j = i
        while j > 0 and keys[order[j - 1]] > key:  # strictly greater: a tie stays behind
            order[j] = order[j - 1]
            j -= 1
        order[j] = o
    out = []
    for o in range(n):
        out.append(kinds[order[o]])
    return out

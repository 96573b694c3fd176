"""Table-driven shape analysis on count vectors (rules §2).

Hands are count vectors over the 27 suited kinds (a ``list`` of ints, index =
kind). The three suits are independent, so every question about a standard
shape (four sets and one pair) reduces to per-suit lookups: a suit's nine
counts, as ``bytes``, are looked up in a table built once at import from
every combination of up to four sets (runs and triplets) with or without one
pair. Suits are therefore checked in three dict lookups instead of a search.

Results that are sets of kinds are returned as bitmasks (bit ``k`` = kind
``k``) on the fast paths; ``mask_kinds`` turns one into a list.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

SUIT_LEN = 9
NUM_SUITS = 3
NUM_KINDS = SUIT_LEN * NUM_SUITS
MAX_SETS = 4

SETS_ONLY = 1 << SUIT_LEN
"""Table value of a suit that splits into sets only (no pair)."""
JIANG_RANK_MASK = (1 << 1) | (1 << 4) | (1 << 7)
"""Ranks 2, 5, 8 as bits 1, 4, 7 of a per-suit rank mask (将, §1)."""
JIANG_KIND_MASK = sum(JIANG_RANK_MASK << (SUIT_LEN * s) for s in range(NUM_SUITS))
"""All 将 kinds (rank 2, 5, 8 of every suit) as a kind bitmask."""


def _suit_sets() -> list[tuple[int, ...]]:
    """The 16 sets within one suit: 7 runs and 9 triplets, as count tuples."""
    sets = []
    for r in range(SUIT_LEN - 2):
        v = [0] * SUIT_LEN
        v[r] = v[r + 1] = v[r + 2] = 1
        sets.append(tuple(v))
    for r in range(SUIT_LEN):
        v = [0] * SUIT_LEN
        v[r] = 3
        sets.append(tuple(v))
    return sets


def _build_suit_table() -> dict[bytes, int]:
    """Map every decomposable suit vector to its table value.

    Value ``SETS_ONLY`` for a suit that is all sets; for a suit that is sets
    plus exactly one pair, the bitmask of the ranks (bits 0–8) that can be the
    pair in some decomposition. A vector's size mod 3 tells which kind it is,
    so one dict serves both.
    """
    sets = _suit_sets()
    zero = (0,) * SUIT_LEN
    sets_only = {zero}
    level = {zero}
    for _ in range(MAX_SETS):
        nxt = set()
        for v in level:
            for s in sets:
                w = tuple(a + b for a, b in zip(v, s, strict=True))
                if max(w) <= 4:
                    nxt.add(w)
        sets_only |= nxt
        level = nxt
    table: dict[bytes, int] = {bytes(v): SETS_ONLY for v in sets_only}
    for v in sets_only:
        for r in range(SUIT_LEN):
            if v[r] <= 2:
                w = list(v)
                w[r] += 2
                key = bytes(w)
                table[key] = table.get(key, 0) | (1 << r)
    return table


SUIT_TABLE: dict[bytes, int] = _build_suit_table()


def is_standard(c: Sequence[int]) -> bool:
    """True when the concealed counts are ``n`` sets plus one pair (any pair rank).

    Exposed melds are already sets, so only the concealed part is passed.
    """
    b = bytes(c)
    t = SUIT_TABLE
    return b[0:9] in t and b[9:18] in t and b[18:27] in t and sum(c) % 3 == 2


def standard_pair_mask(c: Sequence[int]) -> int:
    """Kinds (bitmask) that can be the pair of a standard decomposition; 0 if none exists."""
    if sum(c) % 3 != 2:
        return 0
    t = SUIT_TABLE
    b = bytes(c)
    vals = (t.get(b[0:9]), t.get(b[9:18]), t.get(b[18:27]))
    if None in vals:
        return 0
    mask = 0
    for s, v in enumerate(vals):
        if v != SETS_ONLY:
            mask |= v << (SUIT_LEN * s)
    return mask


def is_seven_pairs(c: Sequence[int]) -> bool:
    """Seven pairs (七小对): 14 concealed tiles, every count even (a quad is two pairs)."""
    return sum(c) == 14 and all(x % 2 == 0 for x in c)


def is_all_triplets(c: Sequence[int]) -> bool:
    """Standard shape whose concealed sets are all triplets (碰碰胡 without its melds)."""
    pairs = 0
    for x in c:
        if x == 2:
            pairs += 1
        elif x not in (0, 3):
            return False
    return pairs == 1


@lru_cache(maxsize=1 << 18)
def _suit_waits(key: bytes) -> int:
    """Ranks (bitmask) whose addition makes this suit decomposable."""
    t = SUIT_TABLE
    out = 0
    v = bytearray(key)
    for r in range(SUIT_LEN):
        if v[r] < 4:
            v[r] += 1
            if bytes(v) in t:
                out |= 1 << r
            v[r] -= 1
    return out


def standard_wait_mask(c: Sequence[int], total: int | None = None) -> int:
    """Kinds (bitmask) that complete a standard shape of the 3n+1 concealed counts ``c``.

    Kinds whose count is already 4 in ``c`` are never included; kongs and
    other melds that hold the 4th copy are the caller's business. ``total`` is ``sum(c)``
    when the caller knows it.
    """
    if (sum(c) if total is None else total) % 3 != 1:
        return 0
    t = SUIT_TABLE
    b = bytes(c)
    keys = (b[0:9], b[9:18], b[18:27])
    ok0, ok1, ok2 = keys[0] in t, keys[1] in t, keys[2] in t
    # Adding to a suit helps only if the two other suits already decompose.
    mask = 0
    if ok1 and ok2:
        mask = _suit_waits(keys[0])
    if ok0 and ok2:
        mask |= _suit_waits(keys[1]) << SUIT_LEN
    if ok0 and ok1:
        mask |= _suit_waits(keys[2]) << (2 * SUIT_LEN)
    return mask


_ODD = bytes(x % 2 for x in range(256))


def seven_pairs_wait_mask(c: Sequence[int], total: int | None = None) -> int:
    """The kind (bitmask) that completes seven pairs from 13 concealed tiles, or 0
    (``total`` is ``sum(c)`` when the caller knows it)."""
    if (sum(c) if total is None else total) != 13:
        return 0
    odd = bytes(c).translate(_ODD)  # 1 where the count is odd
    return 1 << odd.index(1) if odd.count(1) == 1 else 0


def mask_kinds(mask: int) -> list[int]:
    """Kinds set in a bitmask, ascending."""
    out = []
    k = 0
    while mask:
        if mask & 1:
            out.append(k)
        mask >>= 1
        k += 1
    return out


def kinds_mask(kinds: Sequence[int]) -> int:
    """Bitmask of a collection of kinds."""
    m = 0
    for k in kinds:
        m |= 1 << k
    return m


# ------------------------------------------------------------------ shanten
Blocks = tuple[tuple[int, int, int], ...]
"""A Pareto set of ways to cut tiles into blocks: (sets, partial sets, head 0/1) triples."""

_BLOCK_SETS: list[Blocks] = []
"""Every Pareto set met so far, by id: the caches below are keyed by these small ints, not by the
sets themselves (hashing and comparing nested tuples was most of a cached lookup's cost)."""
_BLOCK_IDS: dict[Blocks, int] = {}


def _intern(blocks: Blocks) -> int:
    """The id of a Pareto set (the same set, the same id; a bounded number of them exists)."""
    i = _BLOCK_IDS.get(blocks)
    if i is None:
        i = _BLOCK_IDS[blocks] = len(_BLOCK_SETS)
        _BLOCK_SETS.append(blocks)
    return i


def _pareto(found: set[tuple[int, int, int]]) -> Blocks:
    """The triples of ``found`` that no other one beats in both sets and partials (same head)."""
    return tuple(sorted(x for x in found
                        if not any(y != x and y[2] == x[2] and y[0] >= x[0] and y[1] >= x[1] for y in found)))


@lru_cache(maxsize=1 << 18)
def _suit_blocks(key: bytes) -> Blocks:
    """Pareto-best ways to cut one suit into blocks: (sets, partial sets, pair as head 0/1).

    A partial set (搭子) is a pair or two tiles one or two ranks apart. The lowest
    tile is either part of a set, a pair, a partial set, or left alone; the rest
    is solved recursively (memoised on the remaining counts). Only combinations
    that no other one beats in both sets and partials (for the same head) are
    kept, so combining suits stays cheap.
    """
    i = next((k for k in range(SUIT_LEN) if key[k]), None)
    if i is None:
        return ((0, 0, 0),)
    found: set[tuple[int, int, int]] = set()

    def take(dm: int, dt: int, dp: int, *ranks: int) -> None:
        c = bytearray(key)
        for r in ranks:
            c[r] -= 1
        for m, t, p in _suit_blocks(bytes(c)):
            if p + dp <= 1:
                found.add((m + dm, t + dt, p + dp))

    if key[i] >= 3:
        take(1, 0, 0, i, i, i)
    if i <= 6 and key[i + 1] and key[i + 2]:
        take(1, 0, 0, i, i + 1, i + 2)
    if key[i] >= 2:
        take(0, 0, 1, i, i)
        take(0, 1, 0, i, i)
    for j in (i + 1, i + 2):
        if j < SUIT_LEN and key[j]:
            take(0, 1, 0, i, j)
    take(0, 0, 0, i)  # tile i stays isolated
    return _pareto(found)


@lru_cache(maxsize=1 << 18)
def _suit_id(key: bytes) -> int:
    """The interned id of ``_suit_blocks(key)``."""
    return _intern(_suit_blocks(key))


def standard_shanten(c: Sequence[int], melds: int = 0) -> int:
    """Shanten (向听数) of the standard form: tiles to exchange to be ready; -1 = complete.

    ``c`` holds the concealed counts (13 or 14 tiles counting 3 per meld), ``melds``
    the number of exposed sets. Any pair may be the head (false 将 included).
    """
    b = bytes(c)
    return _combine(_suit_id(b[0:9]), _pareto_pairs(_suit_id(b[9:18]), _suit_id(b[18:27])), melds)


def standard_shanten_after_draw(c: Sequence[int], melds: int = 0) -> list[int]:
    """``standard_shanten`` of ``c`` plus one tile of each kind (27 values; 9 where all four
    copies are already in ``c``): what each draw would make of the hand (进张)."""
    return _one_tile_changed(c, melds, +1)


def standard_shanten_after_discard(c: Sequence[int], melds: int = 0) -> list[int]:
    """``standard_shanten`` of ``c`` less one tile of each kind (27 values; 9 for kinds not held):
    what each discard would leave."""
    return _one_tile_changed(c, melds, -1)


def _one_tile_changed(c: Sequence[int], melds: int, delta: int) -> list[int]:
    """Standard shanten with one tile of each kind added (``delta`` +1) or removed (-1).

    One tile changes one suit only, so the other two suits' blocks are combined once per
    suit instead of once per kind; a single tile with no other tile within two ranks forms no
    block, so adding or removing it leaves the shanten as it is."""
    b = bytes(c)
    k0, k1, k2 = b[0:9], b[9:18], b[18:27]
    i0, i1, i2 = _suit_id(k0), _suit_id(k1), _suit_id(k2)
    rest0 = _pareto_pairs(i1, i2)
    base = _combine(i0, rest0, melds)
    return [*_suit_changed(k0, rest0, base, melds, delta),
            *_suit_changed(k1, _pareto_pairs(i0, i2), base, melds, delta),
            *_suit_changed(k2, _pareto_pairs(i0, i1), base, melds, delta)]


@lru_cache(maxsize=1 << 16)
def _suit_changed(suit: bytes, rest: int, base: int, melds: int, delta: int) -> tuple[int, ...]:
    """``_one_tile_changed`` for the nine kinds of one suit, given the other suits' blocks
    (``rest``, an id; cached: a player's candidate hands share most suits)."""
    key = bytearray(suit)
    held = sum(1 << r for r in range(SUIT_LEN) if key[r])
    out = [9] * SUIT_LEN
    for r in range(SUIT_LEN):
        if not 0 <= key[r] + delta <= 4:
            continue
        alone = not held & _NEAR[r] if delta > 0 else key[r] == 1 and not held & _NEAR[r] & ~(1 << r)
        if alone:
            out[r] = base
            continue
        key[r] += delta
        out[r] = _combine(_suit_id(bytes(key)), rest, melds)
        key[r] -= delta
    return tuple(out)


_NEAR = [sum(1 << x for x in range(max(0, r - 2), min(SUIT_LEN, r + 3))) for r in range(SUIT_LEN)]
"""Ranks within two of rank r (r included): a drawn tile with none of them held forms no block."""


@lru_cache(maxsize=1 << 16)
def _pareto_pairs(one: int, two: int) -> int:
    """The id of the Pareto-best (sets, partial sets, head) of two block sets (ids) together."""
    found = {(m1 + m2, t1 + t2, p1 + p2) for m1, t1, p1 in _BLOCK_SETS[one] for m2, t2, p2 in _BLOCK_SETS[two]
             if p1 + p2 <= 1}
    return _intern(_pareto(found))


@lru_cache(maxsize=1 << 16)
def _combine(one: int, rest: int, melds: int) -> int:
    """The standard shanten of one suit's blocks with the Pareto blocks of the other two (ids)."""
    best = 8
    for m0, t0, p0 in _BLOCK_SETS[one]:
        for m1, t1, p1 in _BLOCK_SETS[rest]:
            p = p0 + p1
            if p > 1:
                continue
            m = m0 + m1 + melds
            if m > 4:
                m = 4
            t = t0 + t1
            if t > 4 - m:
                t = 4 - m
            s = 8 - 2 * m - t - p
            if s < best:
                best = s
    return best


def seven_pairs_shanten(c: Sequence[int]) -> int:
    """Shanten of seven pairs (quads count as two pairs, rules §2); concealed hands only."""
    return 6 - min(7, sum(x // 2 for x in c))


# ------------------------------------------------------ honours (Hangzhou)
_HONOUR_KIND_BLOCKS = {
    0: ((0, 0, 0),), 1: ((0, 0, 0),), 2: ((0, 1, 0), (0, 0, 1)),
    3: ((1, 0, 0), (0, 0, 1)), 4: ((1, 0, 0), (0, 2, 0), (0, 1, 1)),
}
"""Blocks one honour kind held ``c`` times can give: no runs, so a triplet, a pair (as head or
partial set) or nothing."""
_HONOUR_KIND_IDS = {c: _intern(blocks) for c, blocks in _HONOUR_KIND_BLOCKS.items()}
_NO_BLOCKS = _HONOUR_KIND_IDS[0]
"""The id of ``((0, 0, 0),)``: no tiles, no blocks."""


@lru_cache(maxsize=1 << 12)
def honour_blocks(key: bytes) -> int:
    """``_suit_id`` for the seven honours (counts as bytes): the id of the Pareto-best (sets,
    partial sets, head) when honours form triplets and pairs only."""
    acc = _NO_BLOCKS
    for c in key:
        if c >= 2:
            acc = _pareto_pairs(acc, _HONOUR_KIND_IDS[c])
    return acc


def standard_shanten_honours(c: Sequence[int], melds: int = 0) -> int:
    """``standard_shanten`` of counts over 34 kinds (the honours 27–33 form no runs)."""
    b = bytes(c)
    rest = _pareto_pairs(_pareto_pairs(_suit_id(b[9:18]), _suit_id(b[18:27])), honour_blocks(b[27:34]))
    return _combine(_suit_id(b[0:9]), rest, melds)


def standard_shanten_honours_after_draw(c: Sequence[int], melds: int = 0) -> list[int]:
    """``standard_shanten_honours`` of counts over 34 kinds plus one tile of each kind (34 values;
    9 where the kind is held four times): a player's 进张 in one pass. As ``_one_tile_changed``,
    each group's change is combined with the other three groups' blocks, and a tile with no
    neighbour to form a block with (an honour not held) leaves the shanten as it is."""
    b = bytes(c)
    keys = (b[0:9], b[9:18], b[18:27])
    i0, i1, i2 = (_suit_id(k) for k in keys)
    honours = b[27:34]
    hon = honour_blocks(honours)
    suits_12 = _pareto_pairs(i1, i2)
    rest0 = _pareto_pairs(suits_12, hon)
    base = _combine(i0, rest0, melds)
    out = [*_suit_changed(keys[0], rest0, base, melds, +1),
           *_suit_changed(keys[1], _pareto_pairs(_pareto_pairs(i0, i2), hon), base, melds, +1),
           *_suit_changed(keys[2], _pareto_pairs(_pareto_pairs(i0, i1), hon), base, melds, +1)]
    suits = _pareto_pairs(i0, suits_12)
    key = bytearray(honours)
    for h in range(7):
        if key[h] == 0:
            out.append(base)
        elif key[h] >= 4:
            out.append(9)
        else:
            key[h] += 1
            out.append(_combine(honour_blocks(bytes(key)), suits, melds))
            key[h] -= 1
    return out

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

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

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
    b = count_bytes(c)
    if cython.compiled and _in_tables(b, NUM_KINDS, 0):
        return _table_is_standard(b)
    b = bytes(b)  # its slices are the table's keys: bytes, never a bytearray
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


@cython.locals(k=cython.int, total=cython.int, p=cython.p_uchar)
def is_seven_pairs(c: Sequence[int]) -> bool:
    """Seven pairs (七小对): 14 concealed tiles, every count even (a quad is two pairs)."""
    if cython.compiled and (type(c) is bytearray or type(c) is bytes):  # a C loop over the counts
        p = c
        total = 0
        for k in range(len(c)):
            if p[k] & 1:
                return False
            total += p[k]
        return total == 14
    n = 0
    for x in c:  # a loop, not all(genexp): a cpdef function (shapes.pxd) has no closure
        if x % 2:
            return False
        n += x
    return n == 14


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


def count_bytes(c: Sequence[int]) -> bytes | bytearray:
    """The counts ``c`` as the shape functions read them: ``c`` itself when it is ``bytes`` or a
    ``bytearray`` (a game's count vector: read through a C pointer without a copy), else
    ``bytes(c)``."""
    return c if type(c) is bytearray or type(c) is bytes else bytes(c)


def counts_for(c: Sequence[int], n: int, what: str = "counts") -> bytes | bytearray:
    """``count_bytes(c)``, refused (naming ``what``) unless it holds at least ``n`` kinds: what a
    loop reads through a C pointer (the greedy players' unseen and suit counts)."""
    b = count_bytes(c)
    if len(b) < n:
        raise ValueError(f"{len(b)} {what} for {n} kinds")
    return b


def standard_wait_mask(c: Sequence[int], total: int | None = None) -> int:
    """Kinds (bitmask) that complete a standard shape of the 3n+1 concealed counts ``c``.

    Kinds whose count is already 4 in ``c`` are never included; kongs and
    other melds that hold the 4th copy are the caller's business. ``total`` is ``sum(c)``
    when the caller knows it.
    """
    if (sum(c) if total is None else total) % 3 != 1:
        return 0
    return _standard_waits(count_bytes(c))


@cython.ccall
@cython.returns(cython.longlong)
def _standard_waits(b: bytes) -> int:
    """``standard_wait_mask`` of the counts ``b`` (3n+1 tiles): the tables when compiled and they
    cover ``b``, else the dict."""
    if cython.compiled and _in_tables(b, NUM_KINDS, 1):
        return _table_wait_mask(b)
    return _dict_wait_mask(bytes(b))  # its slices are the table's keys: bytes, never a bytearray


def _dict_wait_mask(b: bytes) -> int:
    """``standard_wait_mask`` from ``SUIT_TABLE`` (the reference; the pure package's path)."""
    t = SUIT_TABLE
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


# The compiled path of ``standard_wait_mask``: one 2-byte entry per suit content (its nine counts
# read as a base-5 number, as the shanten tables below index them), made in two steps the first
# time each is asked: bit 15 says bit 9 is known (the suit decomposes as it is: in ``SUIT_TABLE``),
# bit 14 says bits 0-8 are known (the ranks whose addition makes it decomposable: ``_suit_waits``),
# asked only of a suit whose two others decompose, as the dict path does. The typed code writes
# these bits as literals (a module constant would be a Python int there).
# ``tests/test_shapes.py`` checks it against the dict path on random hands, compiled and as Python.
_WAITS: list[bytearray] = []
"""[one suit's entries]: 5^9 entries of 2 bytes (about 4 MB), made at first use."""


@cython.ccall  # a C call from the compiled table lookups
def _wait_table() -> bytearray:
    """The suit wait entries, made at first use."""
    if not _WAITS:
        _WAITS.append(bytearray(2 * 5 ** SUIT_LEN))
    return _WAITS[0]


@cython.ccall
@cython.locals(index=cython.int, waits=cython.int, value=cython.int, t=cython.p_uchar, r=cython.int,
               power=cython.int, bits=cython.int)
@cython.returns(cython.int)
def _suit_wait_entry(table: bytearray, index: int, waits: int) -> int:
    """The entry of the suit whose base-5 content is ``index``: its whole bit (0x200) known, and
    its waits (bits 0-8) too when ``waits``; made as needed (0x8000, 0x4000: made). The waits are
    ``_suit_waits``'s: the ranks held fewer than four times whose one more copy makes the suit
    whole, read from those suits' own whole bits (each made once, then shared)."""
    t = table
    value = t[2 * index] | t[2 * index + 1] << 8
    if value & 0x4000 or value & 0x8000 and not waits:  # made already: nothing to write back
        return value
    if not value & 0x8000:
        value |= 0x8000 | (0x200 if _suit_whole(index) else 0)
    if waits and not value & 0x4000:
        bits = 0
        power = 1  # 5 ** r: one more copy of rank r is the content 5 ** r further on
        for r in range(9):  # SUIT_LEN (a literal for the C loop)
            if index // power % 5 < 4 and _suit_wait_entry(table, index + power, 0) & 0x200:
                bits |= 1 << r
            power *= 5
        value |= 0x4000 | bits
    t[2 * index] = value & 0xFF
    t[2 * index + 1] = value >> 8
    return value


def _suit_whole(index: int) -> int:
    """1 when the suit whose base-5 content is ``index`` is in ``SUIT_TABLE`` (at most 14 tiles
    that split into sets, or sets and one pair), else 0; decided in C loops, not by a dict lookup
    of its made content (each new wait entry asks it of itself and its nine neighbours). The lowest
    rank held starts ``count % 3`` runs (three equal runs are three triplets), the rest of its
    copies are triplets; the pair, when the size asks for one, is tried at every rank. Its C
    types, the counts' arrays among them, are in shapes.pxd."""
    if not cython.compiled:  # shapes.pxd's C arrays, as lists
        c, d = [0] * 11, [0] * 11
    total = 0
    rest = index
    for r in range(9):  # SUIT_LEN (a literal for the C loop); ranks 9, 10: none, so no run starts at 7 or 8
        c[r] = rest % 5
        rest //= 5
        total += c[r]
    c[9] = c[10] = 0
    if total > 3 * 4 + 2 or total % 3 == 1:  # MAX_SETS sets and a pair at most
        return 0
    for pair in range(-1, 9):  # -1: no pair (a size of 3n); else the pair's rank (3n + 2)
        if (pair < 0) != (total % 3 == 0) or pair >= 0 and c[pair] < 2:
            continue
        for r in range(11):
            d[r] = c[r]
        if pair >= 0:
            d[pair] -= 2
        whole = 1
        for r in range(9):
            x = d[r] % 3
            if x:
                if d[r + 1] < x or d[r + 2] < x:
                    whole = 0
                    break
                d[r + 1] -= x
                d[r + 2] -= x
        if whole:
            return 1
    return 0


@cython.ccall
@cython.returns(cython.longlong)
def _table_wait_mask(b: bytes) -> int:
    """``standard_wait_mask`` of 27 counts of 0..4 (``_in_tables``) from the suit wait entries."""
    return _suits_wait_mask(_group_index(b, 0, 9), _group_index(b, 9, 9), _group_index(b, 18, 9))


@cython.cfunc
@cython.locals(i0=cython.int, i1=cython.int, i2=cython.int, w0=cython.int, w1=cython.int, w2=cython.int,
               mask=cython.longlong)
@cython.returns(cython.longlong)
def _suits_wait_mask(i0: int, i1: int, i2: int) -> int:
    """``_table_wait_mask`` of the three suits whose base-5 contents are ``i0``, ``i1``, ``i2``."""
    table = _wait_table()
    w0 = _suit_wait_entry(table, i0, 0)
    w1 = _suit_wait_entry(table, i1, 0)
    w2 = _suit_wait_entry(table, i2, 0)
    mask = 0  # adding to a suit helps only if the two other suits already decompose
    if w1 & w2 & 0x200:
        mask = _suit_wait_entry(table, i0, 1) & 0x1FF
    if w0 & w2 & 0x200:
        mask |= cython.cast(cython.longlong, _suit_wait_entry(table, i1, 1) & 0x1FF) << 9
    if w0 & w1 & 0x200:
        mask |= cython.cast(cython.longlong, _suit_wait_entry(table, i2, 1) & 0x1FF) << 18
    return mask


@cython.ccall
@cython.locals(k=cython.int, total=cython.int, whole=cython.int, p=cython.p_uchar)
def _table_is_standard(b: bytes) -> bool:
    """``is_standard`` of 27 counts of 0..4 (``_in_tables``): every suit in ``SUIT_TABLE`` (bit
    0x200 of its wait entry) and 3n+2 tiles."""
    table = _wait_table()
    whole = (_suit_wait_entry(table, _group_index(b, 0, 9), 0) & _suit_wait_entry(table, _group_index(b, 9, 9), 0)
             & _suit_wait_entry(table, _group_index(b, 18, 9), 0))
    if not whole & 0x200:
        return False
    p = b
    total = 0
    for k in range(27):  # NUM_KINDS (a literal for the C loop)
        total += p[k]
    return total % 3 == 2


@cython.locals(total=cython.int, k=cython.int, r=cython.int, x=cython.int, y=cython.int, z=cython.int,
               mask=cython.longlong, m=cython.longlong, p=cython.p_uchar, q=cython.p_uchar, over=cython.int,
               odd=cython.int, single=cython.int, i0=cython.int, i1=cython.int, i2=cython.int)  # arguments: shapes.pxd
def hand_wait_mask(c: bytes, melded: bytes, num_melds: int, add: int = 0, remove: int = 0) -> int:
    """Waits of the 3n+1 concealed counts ``c`` beside ``num_melds`` melds whose tiles ``melded``
    counts (both 27 counts, ``bytes`` or ``bytearray``: ``count_bytes``): the standard shape, seven
    pairs (no melds), then ``add``
    (a ruleset's own shapes) and less ``remove`` (kinds it bars), less every kind held four times
    in ``c`` and ``melded`` together (never a wait). One call for a ruleset's wait mask: the
    compiled build reads ``c`` once, in C (its total, its odd counts for seven pairs, and each
    suit's base-5 content for the wait entries: ``_standard_waits`` and ``_seven_pairs_waits``
    in one pass); the pure package calls them."""
    if len(c) != 27 or len(melded) != 27:  # NUM_KINDS (literals: the checks in C)
        raise ValueError(f"waits need 27 counts of the hand and of its melds, got {len(c)} and {len(melded)}")
    if add >> 27:
        raise ValueError(f"added kinds {add:#x} reach past the 27 kinds")
    p = c
    q = melded
    if cython.compiled:  # one C pass over the hand
        total = over = odd = single = 0
        i0 = i1 = i2 = 0
        for r in range(8, -1, -1):  # SUIT_LEN - 1 down (a literal for the C loop): rank r of each suit
            x = p[r]
            y = p[9 + r]
            z = p[18 + r]
            total += x + y + z
            over |= (x + 3) | (y + 3) | (z + 3)  # 8 or more (a bit past 7) for a count past 4 only
            if (x | y | z) & 1:
                odd += (x & 1) + (y & 1) + (z & 1)
                single = r if x & 1 else 9 + r if y & 1 else 18 + r
            i0 = i0 * 5 + x  # the base-5 contents, as _group_index reads them
            i1 = i1 * 5 + y
            i2 = i2 * 5 + z
        mask = 0
        if total % 3 == 1:  # the wait entries where _in_tables covers the hand (_MAX_TILES 14)
            mask = _suits_wait_mask(i0, i1, i2) if over < 8 and total < 14 else _standard_waits(c)
        if num_melds == 0 and total == 13 and odd == 1:  # seven pairs: the one kind held oddly
            mask |= cython.cast(cython.longlong, 1) << single
    else:  # as Python, the builtins' C loops: the same mask
        total = sum(c)
        mask = _standard_waits(c) if total % 3 == 1 else 0
        if num_melds == 0 and total == 13:
            mask |= _seven_pairs_waits(c)
    mask = (mask | add) & ~remove
    m = mask
    k = 0
    while m:  # each kind of the mask, lowest first
        if m & 1 and p[k] + q[k] >= 4:  # COPIES
            mask ^= cython.cast(cython.longlong, 1) << k
        m >>= 1
        k += 1
    return mask


def seven_pairs_wait_mask(c: Sequence[int], total: int | None = None) -> int:
    """The kind (bitmask) that completes seven pairs from 13 concealed tiles, or 0
    (``total`` is ``sum(c)`` when the caller knows it)."""
    if (sum(c) if total is None else total) != 13:
        return 0
    return _seven_pairs_waits(bytes(c))


@cython.ccall
@cython.locals(n=cython.int, k=cython.int, odd=cython.int, kind=cython.int, p=cython.p_uchar)
@cython.returns(cython.longlong)
def _seven_pairs_waits(b: bytes) -> int:
    """``seven_pairs_wait_mask`` of 13 counts ``b``: the one kind held an odd number of times (a
    quad is two pairs), if there is exactly one."""
    n = len(b)
    p = b
    odd = 0
    kind = 0
    for k in range(n):
        if p[k] & 1:
            odd += 1
            kind = k
    return cython.cast(cython.longlong, 1) << kind if odd == 1 else 0


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


def _cuts(key: bytes, i: int) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """The blocks the lowest tile (rank ``i``) of a suit's counts ``key`` can belong to, as (sets,
    partial sets, head, ranks taken): a triplet or run starting at it, a pair (as head or partial
    set), a partial set with a tile one or two ranks up, or none (left alone). A partial set (搭子) is
    a pair or two tiles one or two ranks apart. The one statement of how a suit is cut: the Pareto
    sets and the compiled tables both recurse over it."""
    out = []
    if key[i] >= 3:
        out.append((1, 0, 0, (i, i, i)))
    if i <= 6 and key[i + 1] and key[i + 2]:
        out.append((1, 0, 0, (i, i + 1, i + 2)))
    if key[i] >= 2:
        out.append((0, 0, 1, (i, i)))
        out.append((0, 1, 0, (i, i)))
    for j in (i + 1, i + 2):
        if j < SUIT_LEN and key[j]:
            out.append((0, 1, 0, (i, j)))
    out.append((0, 0, 0, (i,)))  # tile i stays isolated
    return out


@lru_cache(maxsize=1 << 18)
def _suit_blocks(key: bytes) -> Blocks:
    """Pareto-best ways to cut one suit into blocks: (sets, partial sets, pair as head 0/1).

    The lowest tile belongs to one of ``_cuts``; the rest is solved recursively (memoised on the
    remaining counts). Only combinations that no other one beats in both sets and partials (for
    the same head) are kept, so combining suits stays cheap.
    """
    i = next((k for k in range(SUIT_LEN) if key[k]), None)
    if i is None:
        return ((0, 0, 0),)
    found: set[tuple[int, int, int]] = set()
    for dm, dt, dp, ranks in _cuts(key, i):
        c = bytearray(key)
        for r in ranks:
            c[r] -= 1
        for m, t, p in _suit_blocks(bytes(c)):
            if p + dp <= 1:
                found.add((m + dm, t + dt, p + dp))
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
    b = count_bytes(c)  # a bytearray as it is (the tables read it through a pointer)
    if cython.compiled and _in_tables(b, NUM_KINDS, 0):
        return _table_shanten(b, melds)
    return _pareto_shanten(bytes(b), melds)  # its slices are dict keys: bytes


def _pareto_shanten(b: bytes, melds: int) -> int:
    """``standard_shanten`` from the Pareto sets themselves (the definition; the tables' source)."""
    return _combine(_suit_id(b[0:9]), _pareto_pairs(_suit_id(b[9:18]), _suit_id(b[18:27])), melds)


def standard_shanten_after_draw(c: Sequence[int], melds: int = 0) -> list[int]:
    """``standard_shanten`` of ``c`` plus one tile of each kind (27 values; 9 where all four
    copies are already in ``c``): what each draw would make of the hand (进张)."""
    return _one_tile_changed(c, melds, +1)


def standard_shanten_after_discard(c: Sequence[int], melds: int = 0) -> list[int]:
    """``standard_shanten`` of ``c`` less one tile of each kind (27 values; 9 for kinds not held):
    what each discard would leave."""
    return _one_tile_changed(c, melds, -1)


@cython.ccall
def _one_tile_changed(c: Sequence[int], melds: int, delta: int) -> list[int]:
    """Standard shanten with one tile of each kind added (``delta`` +1) or removed (-1).

    One tile changes one suit only, so the other two suits' blocks are combined once per
    suit instead of once per kind; a single tile with no other tile within two ranks forms no
    block, so adding or removing it leaves the shanten as it is."""
    row = new_row(27)  # NUM_KINDS
    standard_shanten_changed_row(c, melds, delta, row)
    return row_values(row, 27)


def standard_shanten_changed_row(c: Sequence[int], melds: int, delta: int, row: bytearray) -> None:  # C: shapes.pxd
    """``standard_shanten_after_draw`` (``delta`` +1) or ``standard_shanten_after_discard`` (-1) as
    a row written into ``row`` (``row_values``: each value plus one): a greedy player's 进张 count
    reads it without a list between."""
    b = count_bytes(c)  # a bytearray as it is: the tables read it through a pointer (bytes() costs a call)
    _check_row(row, NUM_KINDS)
    if cython.compiled and _in_tables(b, NUM_KINDS, delta):
        _table_changed_row(b, melds, delta, row)
    else:
        _pareto_one_changed_row(bytes(b), melds, delta, row)  # its slices are dict keys: bytes


@cython.cfunc
@cython.locals(n=cython.int)
@cython.returns(cython.int)
def _check_row(row: bytearray, n: int) -> int:
    """A row too short for ``n`` kinds is an error naming both, before a byte is written (the
    compiled rows are written through C pointers, the Pareto path kind by kind)."""
    if len(row) < n:
        raise ValueError(f"a row of {len(row)} bytes for {n} kinds")
    return 0


def new_row(n: int) -> bytearray:
    """A row of ``n`` zero bytes (compiled, made by the C API: ``bytearray(n)`` is a Python call)."""
    if not cython.compiled:
        return bytearray(n)
    if not 0 <= n <= 34:  # _ZERO_ROW's bytes
        raise ValueError(f"a row of {n} kinds: at most 34")
    return PyByteArray_FromStringAndSize(_ZERO_ROW, n)  # noqa: F821 - C only (shapes.pxd)


_ROW_VALUES = tuple(range(-1, 11))
"""A row byte's value: ``_ROW_VALUES[x]`` is ``x - 1`` (the ints made once)."""


@cython.locals(k=cython.int, p=cython.p_uchar, x=cython.int, values=tuple)  # the arguments: shapes.pxd
def row_values(row: bytearray, n: int) -> list[int]:
    """The shanten values of a row: the shanten after each change as one byte a kind, the value
    plus one (a complete hand's -1 is 0; 10 is the 9 of a change that cannot be). A greedy
    player's questions (one row per candidate discard) pass rows from the tables to its count
    without a Python int or list between; this is their list, where one is asked for."""
    _check_row(row, n)
    if not cython.compiled:
        return [x - 1 for x in row[:n]]
    p = row
    values = _ROW_VALUES
    out = PyList_New(n)  # noqa: F821 - C only (shapes.pxd): filled in place, each item its own reference
    for k in range(n):
        x = p[k]
        if x > 10:
            raise ValueError(f"row byte {x} at kind {k}: a row holds 0..10")
        item = values[x]
        Py_INCREF(item)  # noqa: F821
        PyList_SET_ITEM(out, k, item)  # noqa: F821
    return out


def _pareto_one_changed(b: bytes, melds: int, delta: int) -> list[int]:
    """``_one_tile_changed`` from the Pareto sets themselves."""
    row = new_row(NUM_KINDS)
    _pareto_one_changed_row(b, melds, delta, row)
    return row_values(row, NUM_KINDS)


def _pareto_one_changed_row(b: bytes, melds: int, delta: int, row: bytearray) -> None:
    """``_pareto_one_changed`` as a row (``row_values``) written into ``row``: each suit's nine
    bytes copied in from ``_suit_changed`` (the pure package's rows: no Python loop a kind)."""
    k0, k1, k2 = b[0:9], b[9:18], b[18:27]
    i0, i1, i2 = _suit_id(k0), _suit_id(k1), _suit_id(k2)
    rest0 = _pareto_pairs(i1, i2)
    base = _combine(i0, rest0, melds)
    row[0:9] = _suit_changed(k0, rest0, base, melds, delta)
    row[9:18] = _suit_changed(k1, _pareto_pairs(i0, i2), base, melds, delta)
    row[18:27] = _suit_changed(k2, _pareto_pairs(i0, i1), base, melds, delta)


@lru_cache(maxsize=1 << 16)
def _suit_changed(suit: bytes, rest: int, base: int, melds: int, delta: int) -> bytes:
    """``_one_tile_changed`` for the nine kinds of one suit, given the other suits' blocks
    (``rest``, an id; cached: a player's candidate hands share most suits), as nine row bytes
    (``row_values``: each value plus one)."""
    key = bytearray(suit)
    held = sum(1 << r for r in range(SUIT_LEN) if key[r])
    out = bytearray([10]) * SUIT_LEN  # 9, the change that cannot be
    for r in range(SUIT_LEN):
        if not 0 <= key[r] + delta <= 4:
            continue
        alone = not held & _NEAR[r] if delta > 0 else key[r] == 1 and not held & _NEAR[r] & ~(1 << r)
        if alone:
            out[r] = base + 1
            continue
        key[r] += delta
        out[r] = _combine(_suit_id(bytes(key)), rest, melds) + 1
        key[r] -= delta
    return bytes(out)


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
            s = _cut_shanten(m0 + m1 + melds, t0 + t1, p)
            if s < best:
                best = s
    return best


@cython.cfunc
@cython.inline
@cython.locals(sets=cython.int, partials=cython.int, head=cython.int)
@cython.returns(cython.int)
def _cut_shanten(sets: int, partials: int, head: int) -> int:
    """The standard form's shanten of one cut of the hand: 8 - 2 sets - partial sets - head, with
    at most four sets (melds included) and at most 4 - sets partial sets counted."""
    if sets > 4:  # MAX_SETS
        sets = 4
    if partials > 4 - sets:
        partials = 4 - sets
    return 8 - 2 * sets - partials - head


def shanten_one_changed(c: Sequence[int], melds: int, delta: int) -> list[int]:
    """``standard_shanten`` of 27 counts, or the lower seven pairs' (``seven_pairs_shanten``) when
    ``melds`` is 0, with one tile of each kind added (``delta`` +1) or removed (-1): 27 values, 9
    where the change is impossible. The rulesets whose shapes include seven pairs start from it."""
    row = new_row(27)  # NUM_KINDS
    shanten_one_changed_row(c, melds, delta, row)
    return row_values(row, 27)


@cython.locals(k=cython.int, x=cython.int, pairs=cython.int, pp=cython.int, v=cython.int, o=cython.int,
               n=cython.int, p=cython.p_uchar, out=cython.p_uchar)  # the arguments: shapes.pxd
def shanten_one_changed_row(c: Sequence[int], melds: int, delta: int, row: bytearray) -> None:
    """``shanten_one_changed`` as a row (``row_values``: each value plus one) written into ``row``."""
    b = count_bytes(c)
    n = len(b)
    if n != NUM_KINDS or len(row) < NUM_KINDS:  # read through C pointers below
        raise ValueError(f"counts must hold {NUM_KINDS} kinds, got {n}, and the row at least as many, got {len(row)}")
    standard_shanten_changed_row(b, melds, delta, row)
    out = row
    if melds == 0:  # seven pairs: a pair more when an odd count grows, one less when an even one shrinks
        p = b
        pairs = 0
        for k in range(27):  # NUM_KINDS (a literal for the C loop)
            pairs += p[k] >> 1
        for k in range(27):
            x = p[k] + delta
            if 0 <= x <= 4:
                pp = pairs + (p[k] & 1 if delta > 0 else (p[k] & 1) - 1)
                v = 7 - (pp if pp < 7 else 7)  # the shanten plus one
                o = out[k]  # a C int: the comparison in C
                if v < o:
                    out[k] = v


@cython.locals(k=cython.int, n=cython.int, s=cython.int, x=cython.int, p=cython.p_uchar)  # the arguments: shapes.pxd
def lowest_held(values: list[int], counts: Sequence[int]) -> int:
    """The lowest of ``values`` over the kinds ``counts`` holds, 9 when it holds none: a player's
    best discard from its shanten after each discard (a C loop over the counts' bytes: a generator
    would not be typed, and a game's bytearray indexed as an object is a call a kind)."""
    b = count_bytes(counts)
    p = b
    s = 9
    n = len(b)
    if len(values) < n:  # read without a check below
        raise ValueError(f"{len(values)} values for {n} kinds")
    for k in range(n):
        if p[k]:
            x = values[k]
            if x < s:
                s = x
    return s


@cython.locals(k=cython.int, s=cython.int, x=cython.int)  # the arguments: shapes.pxd
def lowest_of(values: list[int], kinds: list[int]) -> int:
    """The lowest of ``values`` at ``kinds``, 9 when there are none: the shanten a player's best
    legal discard leaves (``kinds``: its discards), a C loop compiled."""
    s = 9
    for k in kinds:
        x = values[k]
        if x < s:
            s = x
    return s


@cython.locals(k=cython.Py_ssize_t, pairs=cython.int, p=cython.p_uchar)
def seven_pairs_shanten(c: Sequence[int]) -> int:
    """Shanten of seven pairs (quads count as two pairs, rules §2); concealed hands only."""
    if cython.compiled and (type(c) is bytearray or type(c) is bytes):  # a C loop over the counts
        p = c  # (a generator's sum was 12% of a greedy Sichuan hand)
        pairs = 0
        for k in range(len(c)):
            pairs += p[k] >> 1
        return 6 - (pairs if pairs < 7 else 7)
    pairs = 0
    for x in c:  # a loop (a generator would be a closure, which a cpdef function may not hold)
        pairs += x // 2
    return 6 - (pairs if pairs < 7 else 7)


# ------------------------------------------------------ honours (Hangzhou)
HONOURS = 7
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
    b = count_bytes(c)  # a bytearray as it is (the tables read it through a pointer)
    if cython.compiled and _in_tables(b, NUM_KINDS + HONOURS, 0):
        return _table_shanten(b, melds)
    return _pareto_shanten_honours(bytes(b), melds)  # its slices are dict keys: bytes


def _pareto_shanten_honours(b: bytes, melds: int) -> int:
    """``standard_shanten_honours`` from the Pareto sets themselves."""
    rest = _pareto_pairs(_pareto_pairs(_suit_id(b[9:18]), _suit_id(b[18:27])), honour_blocks(b[27:34]))
    return _combine(_suit_id(b[0:9]), rest, melds)


def standard_shanten_honours_after_draw(c: Sequence[int], melds: int = 0) -> list[int]:
    """``standard_shanten_honours`` of counts over 34 kinds plus one tile of each kind (34 values;
    9 where the kind is held four times): a player's 进张 in one pass. As ``_one_tile_changed``,
    each group's change is combined with the other three groups' blocks, and a tile with no
    neighbour to form a block with (an honour not held) leaves the shanten as it is."""
    return _honours_one_changed(c, melds, +1)


def standard_shanten_honours_after_discard(c: Sequence[int], melds: int = 0) -> list[int]:
    """``standard_shanten_honours`` of counts over 34 kinds less one tile of each kind (34 values;
    9 for kinds not held): what each discard would leave, in one pass."""
    return _honours_one_changed(c, melds, -1)


def _honours_one_changed(c: Sequence[int], melds: int, delta: int) -> list[int]:
    """``standard_shanten_honours`` with one tile of each of the 34 kinds added (``delta`` +1) or
    removed (-1)."""
    row = new_row(34)  # NUM_KINDS + HONOURS
    standard_shanten_honours_changed_row(c, melds, delta, row)
    return row_values(row, 34)


def standard_shanten_honours_changed_row(c: Sequence[int], melds: int, delta: int, row: bytearray) -> None:
    """``standard_shanten_honours_after_draw`` (``delta`` +1) or ``_after_discard`` (-1) as a row
    written into ``row`` (``row_values``: each value plus one; C types: shapes.pxd): the wildcard
    rulesets' greedy rows (``wild``) read it without a list between."""
    b = count_bytes(c)  # a bytearray as it is (the tables read it through a pointer)
    _check_row(row, NUM_KINDS + HONOURS)
    if cython.compiled and _in_tables(b, NUM_KINDS + HONOURS, delta):
        _table_changed_row(b, melds, delta, row)
    else:  # the Pareto sets' slices are dict keys: bytes
        _pareto_honours_one_changed_row(bytes(b), melds, delta, row)


def _pareto_honours_one_changed(b: bytes, melds: int, delta: int) -> list[int]:
    """``_honours_one_changed`` from the Pareto sets themselves."""
    row = new_row(NUM_KINDS + HONOURS)
    _pareto_honours_one_changed_row(b, melds, delta, row)
    return row_values(row, NUM_KINDS + HONOURS)


def _pareto_honours_one_changed_row(b: bytes, melds: int, delta: int, row: bytearray) -> None:
    """``_pareto_honours_one_changed`` as a row (``row_values``) written into ``row``."""
    keys = (b[0:9], b[9:18], b[18:27])
    i0, i1, i2 = (_suit_id(k) for k in keys)
    honours = b[27:34]
    hon = honour_blocks(honours)
    suits_12 = _pareto_pairs(i1, i2)
    rest0 = _pareto_pairs(suits_12, hon)
    base = _combine(i0, rest0, melds)
    row[0:9] = _suit_changed(keys[0], rest0, base, melds, delta)
    row[9:18] = _suit_changed(keys[1], _pareto_pairs(_pareto_pairs(i0, i2), hon), base, melds, delta)
    row[18:27] = _suit_changed(keys[2], _pareto_pairs(_pareto_pairs(i0, i1), hon), base, melds, delta)
    suits = _pareto_pairs(i0, suits_12)
    key = bytearray(honours)
    for h in range(7):
        x = key[h] + delta
        if x < 0 or x > 4:
            row[27 + h] = 10  # 9, plus one
        elif x == (1 if delta > 0 else 0):  # a lone honour forms no block: added or removed, no change
            row[27 + h] = base + 1
        else:
            key[h] = x
            row[27 + h] = _combine(honour_blocks(bytes(key)), suits, melds) + 1
            key[h] -= delta


# ------------------------------------------------ shanten tables (the compiled path)
# The compiled build answers the shanten questions above from flat tables instead of the Pareto
# sets: one entry per group content (a suit's nine counts, or the seven honours', read as a
# base-5 number), ``_VEC`` bytes each. Byte ``5 * head + sets`` (head 0/1, sets 0..4) holds one
# more than the most partial sets of any triple of the group's Pareto set with that head and at
# least that many sets; 0: none. Counting a triple under fewer sets than it has never lowers a
# shanten (one set more lowers ``8 - 2m - min(t, 4 - m) - p`` by at least one), so the best over
# these entries is the best over the Pareto sets: the same function, in C loops over bytes.
# Entries are filled from ``_suit_blocks`` / ``honour_blocks`` the first time a content is met.
# Hands of more than 14 tiles (more than four sets in a group) take the Pareto path.
# ``tests/test_shapes.py`` checks the two against each other, compiled and as Python.

_VEC = 10
"""Bytes per table entry: (head 0/1) x (sets 0..4)."""
# Sets prefix: an entry's bytes with one head are nonzero for sets 0 up to the most it can make,
# then zero (a triple with m sets also counts under every fewer), and so are a ``_convolve``'s (a
# split of m sets takes one fewer from a part that has one): the C loops over sets stop at the first
# zero. ``tests/test_shapes.py`` checks it of every entry and of convolutions.
_MAX_TILES = 14
_POW5 = tuple(5 ** r for r in range(SUIT_LEN))
_REST_CLASSES = 1024
"""Rest classes ``_CMEMO`` has room for (shapes.pxd sizes it)."""
_TABLES: list[bytearray] = []
"""[suits, honours], made at first use (about 20 MB: 5^9 entries; untouched pages cost nothing)."""
if not cython.compiled:  # shapes.pxd's static C arrays (zeroed: every memo byte unknown, valid for any rest)
    _MEMO = bytearray(200)
    _MEMO_REST = bytearray(40)
    _MEMO_MELDS = [0] * 4
    _CMEMO = bytearray(_REST_CLASSES * 5 * 256)
    _REST_AT = [0] * 4
    _WORK = bytearray(60)
    _WORK_AT = [0] * 4
_WORK_GROUPS = 0
"""``_table_changed_row``'s memo of ``_shanten_against`` (50 bytes a group), the rest (10 bytes a
group) and the number of melds each group's block was made for; ``_CMEMO``: the same answers by
(rest class, melds 0..4, entry class), kept for good (each the row byte plus one, 0 unknown);
``_REST_AT``: each group's block there for its rest (0: none; class 0's block is never used), made
with the rest's memo block. ``_WORK``: the last call's convolutions (group g's rest at ``10 g``; for
four groups the pairs 0+1 and 2+3 at 40, 50) of the entries at ``_WORK_AT``, for ``_WORK_GROUPS``
groups (0: none yet)."""
_CLASSES: list[bytearray] = []
"""[suits, honours]: each entry's class, 1..255 (0: none), set when the entry is made. Entries whose
bytes read alike as ``_shanten_against`` reads them (1 + partial sets, 5 at most) share one: they
make the same shanten against any rest. The 450k entries of at most 14 tiles fall in fewer than 200
classes, so a greedy player's changed rows meet the same classes again and again (``_CMEMO``)."""
_CLASS_IDS: dict[bytes, int] = {}
"""An entry's bytes as ``_shanten_against`` reads them -> its class."""
_REST_IDS: dict[int, int] = {}
"""A rest's class (1.. ``_REST_CLASSES - 1``; 0: none) by its bytes read as ``_shanten_against``
reads them (each at most 5: a rest's partial sets past 4 count as 4 too), as a base-6 number. A
shanten against a rest hangs on the rest's class, the entry's class and the melds only, so
``_CMEMO`` answers it for good: the rests of real hands fall in a few hundred classes."""


@cython.cfunc
@cython.locals(key=cython.longlong, c=cython.int, h=cython.int)
@cython.returns(cython.int)
def _rest_class(key: int) -> int:
    """The class of a rest whose bytes read as base-6 ``key`` (``_REST_IDS``), a new one if new;
    0 once every class ``_CMEMO`` has room for is taken (0's block is never read). Compiled, the
    classes are kept in a C hash table instead (``_REST_KEYS``: key + 1, 0 empty; four slots a
    class, probed in turn), as a dict lookup would cost a Python int and a call a changed rest."""
    global _REST_COUNT
    if cython.compiled:
        h = (key * 1540483477 >> 15) & 4095  # a multiplier below 2^31: a C literal
        while _REST_KEYS[h]:  # noqa: F821 - C arrays (shapes.pxd), here and below
            if _REST_KEYS[h] == key + 1:  # noqa: F821
                return _REST_VALUES[h]  # noqa: F821
            h = (h + 1) & 4095
        if _REST_COUNT + 1 >= _REST_CLASSES:
            return 0
        _REST_COUNT += 1
        _REST_KEYS[h] = key + 1  # noqa: F821
        _REST_VALUES[h] = _REST_COUNT  # noqa: F821
        return _REST_COUNT
    found = _REST_IDS.get(key)
    if found is not None:
        return found
    c = len(_REST_IDS) + 1
    if c >= _REST_CLASSES:
        return 0
    _REST_IDS[key] = c
    return c


def _tables() -> list[bytearray]:
    if not _TABLES:
        _TABLES.extend((bytearray(5 ** SUIT_LEN * _VEC), bytearray(5 ** HONOURS * _VEC)))
        _CLASSES.extend((bytearray(5 ** SUIT_LEN), bytearray(5 ** HONOURS)))
    return _TABLES


@cython.cfunc
@cython.locals(at=cython.int, i=cython.int, x=cython.int, c=cython.int)
@cython.returns(cython.int)
def _class_of(entry: bytearray, at: int) -> int:
    """The class of the entry at ``entry[at:]`` (``_CLASSES``), a new one if its bytes are new; 0
    once 255 classes are taken (an entry without one is read byte by byte)."""
    key = bytearray(_VEC)
    for i in range(10):  # _VEC
        x = entry[at + i]
        key[i] = x if x < 5 else 5
    found = _CLASS_IDS.get(bytes(key))
    if found is not None:
        return found
    c = len(_CLASS_IDS) + 1
    if c > 255:
        return 0
    _CLASS_IDS[bytes(key)] = c
    return c


def _fill(table: bytearray, index: int, width: int) -> None:
    """Write the entry of the group whose base-5 content is ``index`` (``width`` kinds: 9 a suit,
    7 the honours)."""
    if width == SUIT_LEN:
        _fill_suit(table, index)
        return
    blocks = _BLOCK_SETS[honour_blocks(bytes(_content(index, width)))]
    at = index * _VEC
    for head in (0, 1):
        for sets in range(MAX_SETS + 1):
            table[at + 5 * head + sets] = max((t + 1 for m, t, p in blocks if p == head and m >= sets), default=0)
    _tables()  # the class arrays made
    _CLASSES[1][index] = _class_of(table, at)


@cython.ccall  # a C call from the table fills
@cython.locals(index=cython.int, width=cython.int, rest=cython.int, r=cython.int)
def _content(index: int, width: int) -> bytearray:
    """The counts of a group from its base-5 ``index`` (rank r is digit r)."""
    key = bytearray(width)
    rest = index
    for r in range(width):
        key[r] = rest % 5
        rest //= 5
    return key


@cython.locals(index=cython.int, sub=cython.int, i=cython.int, r=cython.int, dm=cython.int,
               dt=cython.int, dp=cython.int, head=cython.int, sets=cython.int, v=cython.int, t=cython.p_uchar)
def _fill_suit(table: bytearray, index: int) -> None:
    """A suit's entry from its cuts (``_cuts``) and the entries of what each leaves (made first):
    the lowest tile's block adds its sets, partial sets and head to the rest's. With the entry
    counting cuts of at least so many sets, a cut that adds a set to a rest of ``sets - 1`` or more
    (``max(sets - 1, 0)``: at least zero) makes one of at least ``sets``."""
    key = _content(index, SUIT_LEN)
    acc = bytearray(_VEC)
    i = 0
    while i < SUIT_LEN and not key[i]:
        i += 1
    if i == SUIT_LEN:
        acc[0] = 1  # no tiles: no blocks, no partial sets
    else:
        for dm, dt, dp, ranks in _cuts(key, i):
            sub = index
            for r in ranks:
                sub -= _POW5[r]
            if not table[sub * _VEC]:
                _fill_suit(table, sub)
            t = table
            for head in range(dp, 2):
                for sets in range(MAX_SETS + 1):
                    v = t[sub * _VEC + 5 * (head - dp) + (sets - dm if sets > dm else 0)]
                    if v and v + dt > acc[5 * head + sets]:
                        acc[5 * head + sets] = v + dt
    table[index * _VEC: index * _VEC + _VEC] = acc
    _tables()  # the class arrays made
    _CLASSES[0][index] = _class_of(acc, 0)


def warm_tables() -> int:
    """Make every table entry of at most ``_MAX_TILES`` tiles now (suits and honours, and the suit
    wait entries of ``standard_wait_mask``; each is
    otherwise made the first time a hand meets it, about 15% of a greedy hand's instructions in the
    first thousands of hands): a long run (a search, an evaluation) meets most of them anyway, so a
    benchmark of its steady rate warms them first. About 2 s once per process, compiled; the pure
    package answers from the Pareto sets and has no tables to warm (0 made). Returns the entries made."""
    if not cython.compiled:
        return 0
    tables = _tables()
    return _warm(tables[0], SUIT_LEN, _wait_table()) + _warm(tables[1], HONOURS, None)


@cython.locals(width=cython.int, index=cython.int, end=cython.int, total=cython.int, r=cython.int,
               digits=cython.p_uchar, t=cython.p_uchar, made=cython.int)
def _warm(table: bytearray, width: int, waits: bytearray | None) -> int:
    """``warm_tables`` for one table of groups of ``width`` kinds: in increasing index order, so that
    every entry an entry is made from (fewer tiles: a lower index) is there already; with ``waits``
    (the suits) also each suit wait entry of fewer tiles, its waits included (a 3n+1 hand's suit)."""
    t = table
    counts = bytearray(width)
    digits = counts
    total = made = 0
    end = _POW5[width - 1] * 5  # 5 ** width (a C power would be a double)
    for index in range(end):
        if index:  # the next base-5 content: an odometer over the counts, their total kept
            r = 0
            while digits[r] == 4:
                digits[r] = 0
                total -= 4
                r += 1
            digits[r] += 1
            total += 1
        if total <= _MAX_TILES and not t[index * _VEC]:
            _fill(table, index, width)
            made += 1
        if waits is not None and total < _MAX_TILES:
            _suit_wait_entry(waits, index, 1)
    return made


_BYTE_ONES = 0x0101010101010101
"""One in each byte of a 64-bit word (C constants compiled, ``shapes.pxd``): ``_in_tables``."""
_PAST_4 = 0x7B7B7B7B7B7B7B7B
"""Added to a byte of 0..132, 0x7b sets its top bit exactly where the byte is past 4."""


@cython.locals(k=cython.int, x=cython.int, total=cython.int, limit=cython.int,
               p=cython.p_uchar, word=cython.ulonglong, i=cython.int)  # the arguments: shapes.pxd
def _in_tables(b: bytes, n: int, delta: int) -> bool:
    """Whether ``b`` is ``n`` counts of 0..4 whose total, ``delta`` added, stays within 14 tiles
    (what the tables cover; read through a C pointer only after the length check). Compiled,
    eight counts a step: a count past 4 sets its top bit in ``word + _PAST_4`` (a count of 128 or
    more has it already), and while none is past 4 the eight add up in the top byte of
    ``word * _BYTE_ONES`` (32 at most: no carry out of it)."""
    if len(b) != n:
        return False
    p = b
    total = 0
    k = 0
    word = 0
    if cython.compiled:
        while k + 8 <= n:
            memcpy(cython.address(word), p + k, 8)  # noqa: F821 - C only (shapes.pxd): an unaligned load
            if ((word + _PAST_4) | word) >> 7 & _BYTE_ONES:
                return False
            total += (word * _BYTE_ONES) >> 56
            k += 8
    for i in range(k, n):
        x = p[i]
        if x > 4:
            return False
        total += x
    limit = _MAX_TILES  # a C int: the comparison in C
    return total + (delta if delta > 0 else 0) <= limit


@cython.locals(k=cython.int, index=cython.int)  # the arguments: shapes.pxd (``b`` a C pointer compiled)
def _group_index(b: bytes, lo: int, width: int) -> int:
    """The base-5 content of the group of ``width`` kinds from ``lo`` in ``b`` (rank r is digit r:
    ``_content``'s inverse), the index of its entries in the tables."""
    index = 0
    for k in range(width - 1, -1, -1):
        index = index * 5 + b[lo + k]
    return index


@cython.locals(index=cython.int, t=cython.p_uchar)  # the arguments: shapes.pxd (``b`` a C pointer compiled)
def _entry(b: bytes, lo: int, width: int, table: bytearray) -> int:
    """The table offset of the group of ``width`` kinds from ``lo`` in ``b``, filled if new."""
    index = _group_index(b, lo, width)
    t = table
    if not t[index * 10]:  # byte 0 (no head, no sets) is at least 1 once filled
        _fill(table, index, width)
    return index * 10  # _VEC


@cython.cfunc
@cython.locals(a=cython.p_uchar, ai=cython.int, b=cython.p_uchar, bi=cython.int, out=cython.p_uchar, oi=cython.int,
               pa=cython.int, ma=cython.int, pb=cython.int, mb=cython.int, x=cython.int, y=cython.int,
               i=cython.int)
@cython.returns(cython.int)
def _convolve(a: bytes, ai: int, b: bytes, bi: int, out: bytearray, oi: int) -> int:
    """``out[oi:]`` = the entry of two groups together (entries at ``a[ai:]``, ``b[bi:]``): for
    each head and sets, the most partial sets of the two split any way (one head at most)."""
    for i in range(10):  # _VEC (C loops take literal bounds)
        out[oi + i] = 0
    for pa in range(2):
        for ma in range(5):
            x = a[ai + 5 * pa + ma]
            if not x:  # none with these sets: none with more (sets prefix)
                break
            for pb in range(2 - pa):
                for mb in range(5 - ma):
                    y = b[bi + 5 * pb + mb]
                    if not y:
                        break
                    if x + y - 1 > out[oi + 5 * (pa + pb) + ma + mb]:
                        out[oi + 5 * (pa + pb) + ma + mb] = x + y - 1
    return 0


@cython.cfunc
@cython.locals(e=cython.p_uchar, ei=cython.int, melds=cython.int, best=cython.int, p=cython.int, m=cython.int,
               x=cython.int, s=cython.int)
@cython.returns(cython.int)
def _shanten_of(e: bytearray, ei: int, melds: int) -> int:
    """The standard shanten of the whole hand's entry ``e[ei:]`` beside ``melds`` melds: the best
    ``_cut_shanten`` of its (head, sets, partial sets), as ``_combine`` over Pareto triples."""
    best = 8
    for p in range(2):
        for m in range(5):
            x = e[ei + 5 * p + m]
            if not x:  # none with these sets: none with more (sets prefix)
                break
            s = _cut_shanten(m + melds, x - 1, p)
            if s < best:
                best = s
    return best


@cython.cfunc
@cython.inline
@cython.locals(e=cython.p_uchar, ei=cython.int, rest=cython.p_uchar, ri=cython.int, melds=cython.int,
               memo=cython.p_uchar, mi=cython.int, best=cython.int, pa=cython.int, ma=cython.int, pb=cython.int,
               mb=cython.int, x=cython.int, y=cython.int, k=cython.int, v=cython.int, s=cython.int)
@cython.returns(cython.int)
def _shanten_against(e: bytes, ei: int, rest: bytes, ri: int, melds: int, memo: bytearray, mi: int) -> int:
    """``_shanten_of`` the ``_convolve`` of one group's entry ``e[ei:]`` with the other groups'
    together ``rest[ri:]``, without making it: for each (head, sets, partial sets) the entry holds,
    the best shanten it makes with ``rest``, kept in ``memo[mi:]`` (50 bytes, zeroed for a new
    ``rest``: 0 unknown, else 1 + the shanten). The changed groups of ``_table_changed_row`` all
    meet one ``rest`` and share most of their (head, sets, partial sets). Partial sets past 4 are
    never counted (``_cut_shanten``): an entry's 1 + partials is read as 5 at most."""
    best = 8
    for pa in range(2):
        for ma in range(5):
            x = e[ei + 5 * pa + ma]
            if not x:  # none with these sets: none with more (sets prefix)
                break
            if x > 5:
                x = 5
            k = mi + 25 * pa + 5 * ma + x - 1
            v = memo[k]
            if not v:
                v = 9  # no split with rest: nothing better than the hand's 8
                for pb in range(2 - pa):
                    for mb in range(5 - ma):
                        y = rest[ri + 5 * pb + mb]
                        if not y:
                            break
                        s = _cut_shanten(ma + mb + melds, x + y - 2, pa + pb)
                        if s + 1 < v:
                            v = s + 1
                memo[k] = v
            if v - 1 < best:
                best = v - 1
    return best


@cython.ccall
@cython.locals(melds=cython.int, a0=cython.int, a1=cython.int, a2=cython.int)
def _table_shanten(b: bytes, melds: int) -> int:
    """``standard_shanten`` (27 kinds) or ``standard_shanten_honours`` (34) from the tables."""
    tables = _TABLES or _tables()
    suits = tables[0]
    a0 = _entry(b, 0, 9, suits)
    a1 = _entry(b, 9, 9, suits)
    a2 = _entry(b, 18, 9, suits)
    work = bytearray(20)
    _convolve(suits, a1, suits, a2, work, 0)
    if len(b) > NUM_KINDS:
        _convolve(work, 0, tables[1], _entry(b, 27, 7, tables[1]), work, 10)
        _convolve(suits, a0, work, 10, work, 0)
    else:
        _convolve(suits, a0, work, 0, work, 10)
    return _shanten_of(work, 0 if len(b) > NUM_KINDS else 10, melds)


def _table_one_changed(b: bytes, melds: int, delta: int) -> list[int]:
    """``_table_changed_row``'s values as a list."""
    row = new_row(len(b))
    _table_changed_row(b, melds, delta, row)
    return row_values(row, len(b))


def _table_changed_row(b: bytes, melds: int, delta: int, row: bytearray) -> None:
    """``_one_tile_changed`` (27 kinds) or ``_honours_one_changed`` (34, ``delta``
    +1) from the tables: each group's changed entries against the other groups' entry together
    (``work``: the rest of group g at ``10 g``; for four groups the pairs 0+1 and 2+3 at 40, 50;
    ``memo``: group g's ``_shanten_against`` at ``50 g``, group 0's also giving the whole hand's).
    A group's memo block is kept from call to call while its rest and ``melds`` stay the ones it
    was made for (``_MEMO_REST``, ``_MEMO_MELDS``): a greedy player's tied discards of one suit,
    and its after-discard row before them, meet that suit's rest again and again. A changed entry
    whose class (``_CLASSES``) has met the rest's class (``_REST_IDS``) with these melds before is
    answered from ``_CMEMO`` without reading its bytes (most are, once a few hands are played).
    ``work`` is ``_WORK``, kept too: a convolution none of whose entries changed since the last
    call is not made again (the tied discards of one group leave the other groups' pair as it was).
    The values go into ``row`` as a row (``row_values``: each plus one). Its C types are in
    shapes.pxd (the memo's too)."""
    tables = _TABLES or _tables()
    suits, honours = tables[0], tables[1]
    n = len(b)
    groups = 4 if n > 27 else 3  # NUM_KINDS (a literal: a C comparison)
    p = b  # the counts read through a C pointer (the callers check their length: _in_tables)
    a0 = _entry(p, 0, 9, suits)
    a1 = _entry(p, 9, 9, suits)
    a2 = _entry(p, 18, 9, suits)
    global _WORK_GROUPS
    work = _WORK  # the last call's convolutions: only those of a changed entry are made again
    memo = _MEMO  # 0 is unknown (_shanten_against), one 50-byte block a group
    cmemo = _CMEMO  # by rest class, melds and entry class: 0 unknown, kept for good
    a3 = 0 if groups == 3 else _entry(p, 27, 7, honours)
    sp = suits  # read through C pointers from here (the entries are filled in place, never moved)
    hp = honours
    # changed: bit g set when group g's entry is not the last call's (all, the first time or for
    # another number of groups); redo: bit g when group g's rest is made again
    changed = 15
    if groups == _WORK_GROUPS:
        changed = ((a0 != _WORK_AT[0]) | (a1 != _WORK_AT[1]) << 1 | (a2 != _WORK_AT[2]) << 2
                   | (a3 != _WORK_AT[3]) << 3)
    redo = 0
    if groups == 3:
        if changed & 6:
            _convolve(sp, a1, sp, a2, work, 0)
            redo |= 1
        if changed & 5:
            _convolve(sp, a0, sp, a2, work, 10)
            redo |= 2
        if changed & 3:
            _convolve(sp, a0, sp, a1, work, 20)
            redo |= 4
    else:
        if changed & 3:
            _convolve(sp, a0, sp, a1, work, 40)
        if changed & 12:
            _convolve(sp, a2, hp, a3, work, 50)
        if changed & 14:
            _convolve(sp, a1, work, 50, work, 0)
            redo |= 1
        if changed & 13:
            _convolve(sp, a0, work, 50, work, 10)
            redo |= 2
        if changed & 11:
            _convolve(work, 40, hp, a3, work, 20)
            redo |= 4
        if changed & 7:
            _convolve(work, 40, sp, a2, work, 30)
            redo |= 8
    _WORK_GROUPS = groups
    _WORK_AT[0], _WORK_AT[1], _WORK_AT[2], _WORK_AT[3] = a0, a1, a2, a3
    for g in range(groups):  # a block made for another rest or number of melds is forgotten
        same = _MEMO_MELDS[g] == melds
        if same and not redo >> g & 1:  # the rest is the last call's, for which its block was kept
            continue
        if same:  # made again: the same bytes keep the block (compared first, the key made only if not)
            for x in range(10 * g, 10 * g + 10):
                if _MEMO_REST[x] != work[x]:
                    same = False
                    break
            if same:
                continue
        key = 0
        for x in range(10 * g, 10 * g + 10):
            _MEMO_REST[x] = work[x]
            key = key * 6 + (work[x] if work[x] < 5 else 5)
        _MEMO_MELDS[g] = melds
        for x in range(50 * g, 50 * g + 50):
            memo[x] = 0
        c = _rest_class(key) if 0 <= melds <= 4 else 0
        _REST_AT[g] = (c * 5 + melds) * 256 if c else 0  # the rest's block of _CMEMO (0: none, entries read)
    base = _shanten_against(sp, a0, work, 0, melds, memo, 0)  # the whole hand: group 0 against the rest
    _check_row(row, n)  # written through a C pointer below
    out = row
    for x in range(n):
        out[x] = 10  # 9, the change that cannot be
    lone = 1 if delta > 0 else 0 if delta < 0 else -1  # the count a lone tile's change leaves: 1 added, 0 removed
    scls = _CLASSES[0]  # C pointers too (made at their full size with the tables: never moved)
    hcls = _CLASSES[1]
    for g in range(groups):
        lo = 9 * g
        width = 9 if g < 3 else 7
        table = sp if g < 3 else hp
        classes = scls if g < 3 else hcls
        at_g = a0 if g == 0 else a1 if g == 1 else a2 if g == 2 else a3
        near = 2 if g < 3 else 0  # ranks a tile forms a block with: none for honours
        held = 0
        for r in range(width):
            if p[lo + r]:
                held |= 1 << r
        # the ranks with a held tile within ``near`` ranks, their own aside
        around = (held << 1 | held << 2 | held >> 1 | held >> 2) if near else 0
        step = delta  # one more (or fewer) of rank r moves the entry's index by 5^r (its bytes by _VEC times that)
        at_i = at_g // 10
        rest_at = _REST_AT[g]
        for r in range(width):
            x = p[lo + r] + delta
            if x >= 0 and x <= 4:
                # a tile with no other tile within ``near`` ranks forms no block: adding or removing
                # it leaves the shanten as it is (and the entry need not be made)
                if x == lone and not around >> r & 1:
                    out[lo + r] = base + 1
                else:
                    at_r = (at_i + step) * 10
                    if not table[at_r]:
                        _fill(suits if g < 3 else honours, at_i + step, width)
                    c = classes[at_i + step]
                    if c and rest_at:  # the entry's class met this rest's class before, or now, once
                        v = cmemo[rest_at + c]
                        if not v:
                            v = _shanten_against(table, at_r, work, 10 * g, melds, memo, 50 * g) + 2
                            cmemo[rest_at + c] = v
                        out[lo + r] = v - 1
                    else:
                        out[lo + r] = _shanten_against(table, at_r, work, 10 * g, melds, memo, 50 * g) + 1
            step *= 5

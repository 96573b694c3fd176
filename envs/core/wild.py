"""Shape analysis with wildcards (百搭 / 财神), table-driven, over 34 kinds with honours.

A hand is described by its *natural* counts (``bytes`` of 34 counts: every
tile that is not a wildcard, under the identity it plays) and a number ``w`` of
wildcards, each of which may stand for any kind, a fifth copy included. How a
ruleset turns physical tiles into that description (Hangzhou's indicator and
白板 stand-in) is the ruleset's business; this module only counts.

The four groups (three suits of nine ranks, the seven honours, which form no
runs) are independent, so each question reduces to one value per group: the
fewest wildcards that turn the group into sets only (``s``), and how many more
it needs to hold the pair as well (``d = pair cost - s``). A standard hand is
complete iff ``sum(s) + min(d) <= w``: the leftover wildcards then number a
multiple of three and form sets of their own. Seven pairs need one wildcard
per odd count. The per-group values are computed once per group content by a
small exact recursion and kept in dicts (the tables), so a call is four slices,
four dict lookups and a few additions: no search over wildcard identities.
"""

from __future__ import annotations

from functools import cache, lru_cache

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.core.shapes import (
    _group_index,
    _in_tables,
    new_row,
    row_values,
    standard_shanten_honours,
    standard_shanten_honours_changed_row,
)

SUIT_LEN = 9
HONOURS = 7
NUM_KINDS = 3 * SUIT_LEN + HONOURS
_GROUPS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))
"""(start, stop, runs allowed) of each group of kinds."""
_ODD = bytes(x & 1 for x in range(256))
"""``bytes.translate`` table: 1 where a count is odd."""


@cache
def _cost(key: bytes, runs: bool, pair: bool) -> int:
    """Fewest wildcards that complete ``key`` (one group's counts) into sets, plus one pair
    when ``pair``. Exact: the lowest tile present belongs to a triplet, a run starting at it
    (a run through lower ranks consumes the same tiles, see below) or the pair, with wildcards
    for the missing tiles; the rest is solved recursively."""
    i = next((k for k, c in enumerate(key) if c), None)
    if i is None:
        return 2 if pair else 0  # the pair from two wildcards
    n = len(key)
    rest = bytearray(key)
    best = 99

    def sub(ranks: tuple[int, ...], wild: int, still_pair: bool) -> int:
        for r in ranks:
            rest[r] -= 1
        v = wild + _cost(bytes(rest), runs, still_pair)
        for r in ranks:
            rest[r] += 1
        return v

    for j in range(1, min(3, key[i]) + 1):  # triplet with j natural copies of rank i
        best = min(best, sub((i,) * j, 3 - j, pair))
    if runs:
        # A run holding tile i and maybe i+1 and i+2; when i+2 is past the suit's end the
        # wildcard plays the rank below i (e.g. 8 9 + wildcard as 7): the same tiles consumed.
        for a in (0, 1):
            for b in (0, 1):
                if not a and not b:
                    continue  # tile i with two wildcards: the triplet case above
                if (a and (i + 1 >= n or not key[i + 1])) or (b and (i + 2 >= n or not key[i + 2])):
                    continue
                ranks = (i,) + ((i + 1,) if a else ()) + ((i + 2,) if b else ())
                best = min(best, sub(ranks, 2 - a - b, pair))
    if pair:
        for j in range(1, min(2, key[i]) + 1):
            best = min(best, sub((i,) * j, 2 - j, False))
    return best


_TABLES: tuple[dict[bytes, tuple[int, int]], dict[bytes, tuple[int, int]]] = ({}, {})
"""Honours table, suit table: group content -> (s, d), filled as contents are met."""


def _fill(key: bytes, runs: bool) -> tuple[int, int]:
    s = _cost(key, runs, False)
    v = (s, _cost(key, runs, True) - s)
    _TABLES[runs][key] = v
    return v


# The compiled path of ``complete`` and ``sets_need`` (the engine's win and 爆头 tests). A suit's
# ``(s, d)`` is one byte, ``1 + 4 s + (d + 1)``, at its content's base-5 index
# (``shapes._group_index``, as the shape tables index them), every content made at first use in
# one pass (``_suit_entries``: ``_cost``'s recursion as a recurrence over the indices, each option's
# rest at a lower index; 5^9 bytes, about 0.05 s). The honours form no runs, so each kind is its own
# group: ``_honours_entry`` sums the kinds in C. Natural counts of 34 kinds of 0..4 within 14
# tiles (``shapes._in_tables``) take this path; anything else the dicts. ``tests/test_typed.py``
# checks it against the dicts on random hands, ``tests/test_hangzhou_patterns.py`` every suit and
# honours content against ``_cost``.
_SUIT_ENTRIES: list[bytearray] = []
"""[every suit content's entry], made at first use."""


@cython.locals(index=cython.int, i=cython.int, j=cython.int, a=cython.int, b=cython.int,
               rest=cython.int, best=cython.int, pair=cython.int, v=cython.int, s=cython.int, p=cython.int,
               digit=cython.int, c0=cython.int, c1=cython.int, c2=cython.int, t=cython.p_uchar)
def _suit_entries() -> bytearray:
    """Every suit content's entry (see above), in increasing index order: the lowest rank held
    goes into a triplet, a run (with wildcards for missing ranks) or the pair, as in ``_cost``."""
    if _SUIT_ENTRIES:
        return _SUIT_ENTRIES[0]
    size = 5 ** SUIT_LEN
    table = bytearray(size)
    t = table
    t[0] = 1 + 4 * 0 + 3  # no tiles: no sets, the pair from two wildcards (d = 2)
    for index in range(1, size):
        i = 0
        digit = 1
        while (index // digit) % 5 == 0:
            i += 1
            digit *= 5
        c0 = (index // digit) % 5
        c1 = (index // (digit * 5)) % 5 if i + 1 < SUIT_LEN else 0
        c2 = (index // (digit * 25)) % 5 if i + 2 < SUIT_LEN else 0
        best = 99  # sets only
        pair = 99  # sets and the pair
        for j in range(1, (c0 if c0 < 3 else 3) + 1):  # a triplet of j natural copies
            v = t[index - j * digit] - 1
            s = v >> 2
            p = s + (v & 3) - 1
            best = min(best, 3 - j + s)
            pair = min(pair, 3 - j + p)
        for a in range(2):
            for b in range(2):
                if (not a and not b) or (a and not c1) or (b and not c2):
                    continue
                rest = index - digit - a * digit * 5 - b * digit * 25
                v = t[rest] - 1
                s = v >> 2
                p = s + (v & 3) - 1
                best = min(best, 2 - a - b + s)
                pair = min(pair, 2 - a - b + p)
        for j in range(1, (c0 if c0 < 2 else 2) + 1):  # the pair of j natural copies
            v = t[index - j * digit] - 1
            pair = min(pair, 2 - j + (v >> 2))
        t[index] = 1 + 4 * best + (pair - best + 1)
    _SUIT_ENTRIES.append(table)
    return table


@cython.ccall
@cython.locals(k=cython.int, c=cython.int, s=cython.int, odd=cython.int, p=cython.p_uchar)
@cython.returns(cython.int)
def _honours_entry(b: bytes) -> int:
    """``4 s + d + 1`` of the honours of ``b`` (kinds 27-33, counts 0..4): a kind of ``c`` copies
    needs ``(3 - c % 3) % 3`` wildcards to be triplets, and one whose count is not a multiple of
    three takes the pair for one wildcard less (d = -1); without one, two wildcards (d = 2)."""
    p = b
    s = 0
    odd = 0
    for k in range(27, 34):  # the honours (literal bounds: a C loop)
        c = p[k] % 3
        if c:
            s += 3 - c
            odd = 1
    return 4 * s + (0 if odd else 3)


@cython.ccall
@cython.locals(e0=cython.int, e1=cython.int, e2=cython.int, e3=cython.int, table=bytearray, t=cython.p_uchar)
@cython.returns(cython.int)
def _table_standard_need(b: bytes) -> int:
    """``standard_need`` from the entries: every group's sets, plus the smallest pair delta (the
    win test of a Hangzhou reading asks it of every hand that wins)."""
    table = _suit_entries()
    t = table
    e0 = t[_group_index(b, 0, 9)] - 1
    e1 = t[_group_index(b, 9, 9)] - 1
    e2 = t[_group_index(b, 18, 9)] - 1
    e3 = _honours_entry(b)
    return (e0 >> 2) + (e1 >> 2) + (e2 >> 2) + (e3 >> 2) + min(e0 & 3, e1 & 3, e2 & 3, e3 & 3) - 1


@cython.ccall
@cython.locals(w=cython.int, e0=cython.int, e1=cython.int, e2=cython.int, e3=cython.int, s=cython.int,
               d=cython.int, table=bytearray, t=cython.p_uchar)
def _table_complete(b: bytes, w: int) -> bool:
    """``complete``'s standard test from the entries, group by group as the dict path."""
    table = _suit_entries()
    t = table
    e0 = t[_group_index(b, 0, 9)] - 1
    if (e0 >> 2) - 1 > w:
        return False
    e1 = t[_group_index(b, 9, 9)] - 1
    if (e0 >> 2) + (e1 >> 2) - 1 > w:
        return False
    e2 = t[_group_index(b, 18, 9)] - 1
    if (e0 >> 2) + (e1 >> 2) + (e2 >> 2) - 1 > w:
        return False
    e3 = _honours_entry(b)
    s = (e0 >> 2) + (e1 >> 2) + (e2 >> 2) + (e3 >> 2)
    d = min(e0 & 3, e1 & 3, e2 & 3, e3 & 3) - 1
    return s + d <= w


@cython.ccall
@cython.locals(table=bytearray, t=cython.p_uchar)
@cython.returns(cython.int)
def _table_sets_need(b: bytes) -> int:
    """``sets_need`` from the entries."""
    table = _suit_entries()
    t = table
    return ((t[_group_index(b, 0, 9)] - 1 >> 2) + (t[_group_index(b, 9, 9)] - 1 >> 2)
            + (t[_group_index(b, 18, 9)] - 1 >> 2) + (_honours_entry(b) >> 2))


def group_costs(b: bytes) -> tuple[tuple[int, int], ...]:
    """``(s, d)`` of each of the four groups of the natural counts ``b`` (34 bytes)."""
    suits, honours = _TABLES[True], _TABLES[False]
    out = []
    for lo, hi, runs in _GROUPS:
        k = b[lo:hi]
        v = (suits if runs else honours).get(k)
        out.append(v if v is not None else _fill(k, runs))
    return tuple(out)


def standard_need(b: bytes) -> int:
    """Fewest wildcards that make the natural counts ``b`` into sets plus one pair (from the
    entries when compiled and they cover ``b``, else from the dicts)."""
    if cython.compiled and _in_tables(b, NUM_KINDS, 0):
        return _table_standard_need(b)
    suits = _TABLES[True]
    k0, k1, k2, k3 = b[0:9], b[9:18], b[18:27], b[27:34]
    s0, d0 = suits.get(k0) or _fill(k0, True)
    s1, d1 = suits.get(k1) or _fill(k1, True)
    s2, d2 = suits.get(k2) or _fill(k2, True)
    s3, d3 = _TABLES[False].get(k3) or _fill(k3, False)
    return s0 + s1 + s2 + s3 + min(d0, d1, d2, d3)


def complete(b: bytes | bytearray, w: int, seven_pairs: bool) -> bool:
    """``is_standard(b, w)`` or, when ``seven_pairs``, ``is_seven_pairs`` of a 14-tile hand:
    the engine's win test (the standard test from the entries when compiled and they cover ``b``,
    else from the dicts)."""
    if cython.compiled and _in_tables(b, NUM_KINDS, 0):
        standard = _table_complete(b, w)
    else:  # the dicts are keyed by bytes (a bytearray's slices are not hashable)
        standard = _dict_complete(b if type(b) is bytes else bytes(b), w)
    return standard or (seven_pairs and pairs_need(b) <= w)


def _dict_complete(b: bytes, w: int) -> bool:
    """``complete``'s standard test from the dicts, stopping at the first group that makes the
    need exceed ``w`` (a group's pair delta is never below -1, so ``sum(s) - 1`` is a lower bound)."""
    suits = _TABLES[True]
    k = b[0:9]
    s0, d0 = suits.get(k) or _fill(k, True)
    if s0 - 1 <= w:
        k = b[9:18]
        s1, d1 = suits.get(k) or _fill(k, True)
        if s0 + s1 - 1 <= w:
            k = b[18:27]
            s2, d2 = suits.get(k) or _fill(k, True)
            if s0 + s1 + s2 - 1 <= w:
                k = b[27:34]
                s3, d3 = _TABLES[False].get(k) or _fill(k, False)
                return s0 + s1 + s2 + s3 + min(d0, d1, d2, d3) <= w
    return False


def sets_need(b: bytes) -> int:
    """Fewest wildcards that make the natural counts ``b`` into sets only (no pair)."""
    if cython.compiled and _in_tables(b, NUM_KINDS, 0):
        return _table_sets_need(b)
    costs = group_costs(b)
    return costs[0][0] + costs[1][0] + costs[2][0] + costs[3][0]


@cython.locals(k=cython.int, n=cython.int, odd=cython.int, p=cython.p_uchar)
def pairs_need(b: bytes) -> int:
    """Wildcards seven pairs need: one per kind held an odd number of times (a natural quad
    is two pairs)."""
    if cython.compiled:  # one C loop (as Python, translate and count run in C)
        n = len(b)
        p = b
        odd = 0
        for k in range(n):
            odd += p[k] & 1
        return odd
    return b.translate(_ODD).count(1)


def is_standard(b: bytes, w: int) -> bool:
    """Natural counts ``b`` with ``w`` wildcards (3n+2 tiles) complete a standard shape."""
    return standard_need(b) <= w


def is_seven_pairs(b: bytes, w: int) -> bool:
    """Natural counts ``b`` with ``w`` wildcards are seven pairs (14 concealed tiles)."""
    return sum(b) + w == 14 and pairs_need(b) <= w


@lru_cache(maxsize=1 << 16)
def _group_added(key: bytes, runs: bool) -> tuple[tuple[int, int] | None, ...]:
    """``(s, d)`` of the group with one more tile of each rank (None where 4 are held)."""
    out: list[tuple[int, int] | None] = []
    v = bytearray(key)
    table = _TABLES[runs]
    for r in range(len(key)):
        if v[r] >= 4:
            out.append(None)
            continue
        v[r] += 1
        k = bytes(v)
        out.append(table.get(k) or _fill(k, runs))
        v[r] -= 1
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _group_completions(key: bytes, runs: bool, budget: int, other_d: int) -> int:
    """Ranks (bitmask) of one group whose addition leaves a standard need within ``budget``
    wildcards, given the smallest pair delta ``other_d`` of the other groups."""
    bits = 0
    for r, v in enumerate(_group_added(key, runs)):
        if v is not None and v[0] + min(other_d, v[1]) <= budget:
            bits |= 1 << r
    return bits


def standard_completions(b: bytes, w: int) -> int:
    """Kinds (bitmask over 34 natural kinds) whose addition to ``b`` (3n+1 tiles with the
    ``w`` wildcards) completes a standard shape; kinds held four times are left out.

    One natural tile lowers the need by one at most, so a hand needing more than ``w + 1``
    wildcards has no completion (most hands: one table pass and out)."""
    costs = group_costs(b)
    total_s = costs[0][0] + costs[1][0] + costs[2][0] + costs[3][0]
    ds = [d for _, d in costs]
    if total_s + min(ds) > w + 1:
        return 0
    mask = 0
    for g, (lo, hi, runs) in enumerate(_GROUPS):
        other_d = min(ds[h] for h in range(4) if h != g)
        mask |= _group_completions(b[lo:hi], runs, w - total_s + costs[g][0], other_d) << lo
    return mask


@cython.locals(k=cython.int, x=cython.int, total=cython.int, pairs=cython.int, singles=cython.int,
               p=cython.p_uchar, word=cython.ulonglong, start=cython.int)
def _tally(b: bytes) -> tuple[int, int, int]:
    """(tiles, pairs, odd counts) of natural counts ``b``, after checking that it holds 34 counts:
    the compiled loops read it through a C pointer, which must never run past its end. Compiled, a
    C function returning a C tuple (wild.pxd: a C call from the shanten rows, which a greedy
    player's 进张 asks once a tied discard) and kinds 0-31 read eight at a time."""
    if len(b) != NUM_KINDS:
        raise ValueError(f"natural counts must be {NUM_KINDS} bytes, got {len(b)}")
    p = b
    total = pairs = singles = 0
    start = 0
    if cython.compiled:  # a count's pairs are half what its odd bit leaves: summed at the end
        word = 0
        for k in range(4):
            memcpy(cython.address(word), p + 8 * k, 8)  # noqa: F821 - C only (wild.pxd): an unaligned load
            total += _byte_sum(word)  # noqa: F821 - C only (shapes.pxd, cimported by wild.pxd)
            singles += _byte_sum(word & _BYTE_ONES)  # noqa: F821 - shapes' C constant
        pairs = (total - singles) >> 1
        start = 32
    for k in range(start, NUM_KINDS):
        x = p[k]
        total += x
        pairs += x >> 1
        singles += x & 1
    return total, pairs, singles


@cython.cfunc
@cython.inline
@cython.locals(pairs=cython.int, singles=cython.int, w=cython.int, used=cython.int, n=cython.int)
@cython.returns(cython.int)
def _pairs_shanten(pairs: int, singles: int, w: int) -> int:
    """Seven pairs' shanten with ``w`` wildcards: each pairs an odd count first, then each other."""
    used = w if w < singles else singles
    n = pairs + used + (w - used) // 2
    return 6 - (n if n < 7 else 7)


@cython.locals(w=cython.int, k=cython.int, n_odd=cython.int, total=cython.int, x=cython.int,
               mask=cython.longlong, p=cython.p_uchar)
def seven_pairs_completions(b: bytes, w: int) -> int:
    """Kinds (bitmask) whose addition makes seven pairs of 13 concealed tiles ``b`` + ``w``."""
    total, _, n_odd = _tally(b)
    if total + w != 13 or n_odd - 1 > w:  # even pairing one odd kind leaves too many for the wildcards
        return 0
    p = b
    mask = 0
    for k in range(NUM_KINDS):
        x = p[k]
        if x < 4 and n_odd + (-1 if x & 1 else 1) <= w:
            mask |= cython.cast(cython.longlong, 1) << k
    return mask


@cython.cfunc
@cython.inline
@cython.locals(s=cython.int, w=cython.int, melds=cython.int, tiles=cython.int, pairs=cython.int,
               singles=cython.int, v=cython.int, floor=cython.int)
@cython.returns(cython.int)
def _from_standard(s: int, w: int, melds: int, tiles: int, pairs: int, singles: int) -> int:
    """``shanten`` of a hand of ``tiles`` natural tiles (``pairs`` pairs, ``singles`` odd counts)
    whose standard shanten is ``s``, with ``w`` wildcards beside ``melds`` melds."""
    v = s - w
    if not melds:
        v = min(v, _pairs_shanten(pairs, singles, w))
    # a 3n+1 hand is at best ready (0); only a 3n+2 hand can be complete (-1)
    floor = -1 if (tiles + w) % 3 == 2 else 0
    return v if v > floor else floor


@cython.locals(pairs=cython.int, singles=cython.int, total=cython.int)  # the arguments' C types: wild.pxd
def shanten(b: bytes, w: int, melds: int = 0) -> int:
    """Shanten (向听数) of natural counts ``b`` (34 kinds) with ``w`` wildcards and ``melds``
    melds, over the standard form and (without melds) seven pairs: -1 complete, 0 ready.

    A heuristic for players, not a rule: each wildcard is taken to save one exchange (it completes
    a partial set, a pair or a single), which holds unless the hand has more wildcards than
    partial sets to use them on."""
    total, pairs, singles = _tally(b)
    return _from_standard(standard_shanten_honours(b, melds), w, melds, total, pairs, singles)


def shanten_after_discard(b: bytes, w: int, melds: int = 0) -> list[int]:
    """``shanten`` of ``b`` less one natural tile of each kind (34 values; 9 for kinds not held):
    what each discard of a natural tile leaves, in one pass (the greedy players' discard scores)."""
    row = new_row(34)  # NUM_KINDS
    shanten_after_discard_row(b, w, melds, row)
    return row_values(row, 34)


@cython.locals(pairs=cython.int, singles=cython.int, total=cython.int)  # the arguments' C types: wild.pxd
def shanten_after_discard_row(b: bytes, w: int, melds: int, row: bytearray) -> None:
    """``shanten_after_discard(b, w, melds)`` written into ``row`` as a row (``shapes.row_values``:
    each value plus one, 34 bytes), which the greedy player reads through a C pointer."""
    total, pairs, singles = _tally(b)
    standard_shanten_honours_changed_row(b, melds, -1, row)
    _from_standards(b, row, w, melds, -1, total, pairs, singles)


def shanten_after_draw(b: bytes, w: int, melds: int = 0) -> list[int]:
    """``shanten`` of ``b`` plus one natural tile of each kind (34 values; 9 where the kind is held
    four times), for a 3n+1 hand's 进张: one pass instead of 34 calls (the greedy players' tie-break)."""
    return shanten_after_draw_and_wild(b, w, melds)[0]


def shanten_after_draw_and_wild(b: bytes, w: int, melds: int = 0) -> tuple[list[int], int]:
    """(``shanten_after_draw(b, w, melds)``, ``shanten(b, w + 1, melds)``): what each natural draw
    and a drawn wildcard make of a 3n+1 hand, from one table pass."""
    row = new_row(34)  # NUM_KINDS
    with_wild = shanten_after_draw_row(b, w, melds, row)
    return row_values(row, 34), with_wild


@cython.locals(pairs=cython.int, singles=cython.int, total=cython.int, k=cython.int, base=cython.int,
               p=cython.p_uchar, sp=cython.p_uchar)  # the arguments' C types: wild.pxd
def shanten_after_draw_row(b: bytes, w: int, melds: int, row: bytearray) -> int:
    """``shanten_after_draw(b, w, melds)`` written into ``row`` as a row (``shapes.row_values``: each
    value plus one, 34 bytes), which the greedy player's 进张 loop reads through a C pointer; returns
    ``shanten(b, w + 1, melds)``, a drawn wildcard's (the hand's own standard shanten is the
    after-draw value of an honour it does not hold: a lone honour forms no block)."""
    total, pairs, singles = _tally(b)
    standard_shanten_honours_changed_row(b, melds, 1, row)
    p = b
    sp = row  # the standard shanten rows, read before _from_standards rewrites them
    base = -99
    for k in range(27, 34):  # the honours (literal bounds: a C loop)
        if not p[k]:
            base = sp[k] - 1  # a row holds each value plus one
            break
    if base == -99:  # every honour held
        base = standard_shanten_honours(b, melds)
    _from_standards(b, row, w, melds, 1, total, pairs, singles)
    return _from_standard(base, w + 1, melds, total, pairs, singles)


@cython.cfunc
@cython.locals(w=cython.int, melds=cython.int, delta=cython.int, pairs=cython.int, singles=cython.int,
               total=cython.int, k=cython.int, s=cython.int, p=cython.p_uchar, sp=cython.p_uchar,
               odd="int[11]", even="int[11]", floor=cython.int, po=cython.int, pe=cython.int, v=cython.int)
@cython.returns(cython.int)
def _from_standards(b: bytes, row: bytearray, w: int, melds: int, delta: int, total: int, pairs: int,
                    singles: int) -> int:
    """``row`` (each kind's standard shanten with one natural tile of it added, ``delta`` +1, or
    removed, -1, as a row: ``shapes.row_values``, each plus one, 34 bytes) rewritten in place to
    the ``_from_standard`` of each: 9 (the change impossible) stays 9. ``total``, ``pairs``,
    ``singles``: ``_tally(b)``, which the caller has made. A kind's value hangs only on its
    standard shanten (-1..8, or 9) and its count's parity: both tables are made once (``odd`` and
    ``even``, at 1 + the standard shanten) and each kind takes its value from one."""
    if len(row) < 34 or len(b) < 34:  # read through C pointers below
        raise ValueError(f"34 kinds to read: counts of {len(b)}, a row of {len(row)}")
    if not cython.compiled:  # C arrays when compiled
        odd, even = [0] * 11, [0] * 11
    odd[10] = even[10] = 10  # 9, the change impossible, stays 9
    # _from_standard of each s, its parts that do not hang on s made once: the floor (-1 only for a
    # 3n+2 hand) and, without melds, the seven pairs' shanten, of an odd count's change (one more
    # pairs its single, one less leaves its pairs) and of an even one's (a new single, or a pair
    # broken into one)
    floor = -1 if (total + delta + w) % 3 == 2 else 0
    po = _pairs_shanten(pairs + (delta > 0), singles - 1, w) if not melds else 99
    pe = _pairs_shanten(pairs - (delta < 0), singles + 1, w) if not melds else 99
    for s in range(-1, 9):
        v = s - w if s - w < po else po
        odd[s + 1] = 1 + (v if v > floor else floor)
        v = s - w if s - w < pe else pe
        even[s + 1] = 1 + (v if v > floor else floor)
    p = b
    sp = row
    for k in range(34):  # NUM_KINDS (literal bounds: a C loop)
        s = sp[k]  # 1 + the standard shanten: 0..10
        if s > 10:
            raise ValueError(f"row byte {s} at kind {k}: a row holds 0..10")
        sp[k] = odd[s] if p[k] & 1 else even[s]
    return 0

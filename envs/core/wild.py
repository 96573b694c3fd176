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

from cnmahjong.envs.core.shapes import standard_shanten_honours, standard_shanten_honours_after_draw

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
    """Fewest wildcards that make the natural counts ``b`` into sets plus one pair."""
    suits = _TABLES[True]
    k0, k1, k2, k3 = b[0:9], b[9:18], b[18:27], b[27:34]
    s0, d0 = suits.get(k0) or _fill(k0, True)
    s1, d1 = suits.get(k1) or _fill(k1, True)
    s2, d2 = suits.get(k2) or _fill(k2, True)
    s3, d3 = _TABLES[False].get(k3) or _fill(k3, False)
    return s0 + s1 + s2 + s3 + min(d0, d1, d2, d3)


def complete(b: bytes, w: int, seven_pairs: bool) -> bool:
    """``is_standard(b, w)`` or, when ``seven_pairs``, ``is_seven_pairs`` of a 14-tile hand:
    the engine's win test, stopping at the first group that makes the need exceed ``w``
    (a group's pair delta is never below -1, so ``sum(s) - 1`` is a lower bound)."""
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
                if s0 + s1 + s2 + s3 + min(d0, d1, d2, d3) <= w:
                    return True
    return seven_pairs and b.translate(_ODD).count(1) <= w


def sets_need(b: bytes) -> int:
    """Fewest wildcards that make the natural counts ``b`` into sets only (no pair)."""
    return sum(s for s, _ in group_costs(b))


def pairs_need(b: bytes) -> int:
    """Wildcards seven pairs need: one per kind held an odd number of times (a natural quad
    is two pairs)."""
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
               p=cython.p_uchar)
def _tally(b: bytes) -> tuple[int, int, int]:
    """(tiles, pairs, odd counts) of natural counts ``b``, after checking that it holds 34 counts:
    the compiled loops read it through a C pointer, which must never run past its end."""
    if len(b) != NUM_KINDS:
        raise ValueError(f"natural counts must be {NUM_KINDS} bytes, got {len(b)}")
    p = b
    total = pairs = singles = 0
    for k in range(NUM_KINDS):
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


@cython.locals(w=cython.int, melds=cython.int, best=cython.int, pairs=cython.int, singles=cython.int,
               total=cython.int, floor=cython.int)
def shanten(b: bytes, w: int, melds: int = 0) -> int:
    """Shanten (向听数) of natural counts ``b`` (34 kinds) with ``w`` wildcards and ``melds``
    melds, over the standard form and (without melds) seven pairs: -1 complete, 0 ready.

    A heuristic for players, not a rule: each wildcard is taken to save one exchange (it completes
    a partial set, a pair or a single), which holds unless the hand has more wildcards than
    partial sets to use them on."""
    total, pairs, singles = _tally(b)
    best = standard_shanten_honours(b, melds) - w
    if not melds:
        best = min(best, _pairs_shanten(pairs, singles, w))
    # a 3n+1 hand is at best ready (0); only a 3n+2 hand can be complete (-1)
    floor = -1 if (total + w) % 3 == 2 else 0
    return best if best > floor else floor


@cython.locals(w=cython.int, melds=cython.int, floor=cython.int, pairs=cython.int, singles=cython.int,
               total=cython.int, k=cython.int, s=cython.int, v=cython.int, p=cython.p_uchar)
def shanten_after_draw(b: bytes, w: int, melds: int = 0) -> list[int]:
    """``shanten`` of ``b`` plus one natural tile of each kind (34 values; 9 where the kind is held
    four times), for a 3n+1 hand's 进张: one pass instead of 34 calls (the greedy players' tie-break)."""
    total, pairs, singles = _tally(b)
    p = b
    standard = standard_shanten_honours_after_draw(b, melds)
    floor = -1 if (total + 1 + w) % 3 == 2 else 0
    out = []
    for k in range(NUM_KINDS):
        s = standard[k]
        if s == 9:
            out.append(9)
            continue
        v = s - w
        if not melds:  # the drawn tile pairs an odd count, or makes an even one odd
            v = min(v, _pairs_shanten(pairs + 1, singles - 1, w) if p[k] & 1 else _pairs_shanten(pairs, singles + 1, w))
        out.append(v if v > floor else floor)
    return out

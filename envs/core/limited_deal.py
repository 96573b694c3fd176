"""Dealing the unseen tiles when the public record bounds what a seat holds: exact and uniform.

Some rules let play reveal counts of hidden tiles. Sichuan's D1: a seat that discards outside its
void suit holds none of it then, so now it holds at most as many as it has drawn since; D3: a
winner holds none; 换三张: the three tiles a seat passed are in its receiver's hand unless he has
shown them since. A ruleset states such facts as **limits**: on seat ``s``'s dealt tiles (the
concealed tiles the world deals it plus its face-down kongs), the number of tiles whose kinds lie
in a set is within ``[lo, hi]``.

A world must be uniform among the physical arrangements of the unseen tiles that keep every limit.
Rejection almost never succeeds (13 tiles missing a suit: (2/3)^13 for one seat alone), so the
limited seats are dealt one after another from exact completion counts:

- at each stage the kinds are cut into **atoms**, the cells no limit of the seats still to deal
  splits; inside an atom tiles are interchangeable for every limit left;
- a seat's deal is a count per atom, weighted by the ways to pick those physical tiles,
  Π C(pool_a, x_a), times the ways to deal the seats after it (memoized per pool);
- inside an atom the seat's tiles are a uniform draw without replacement.

Face-down kongs are typed first, each kind weighted by the completions it leaves. Seats without
limits and the wall take what is left, shuffled by the caller: given the limited seats, they are
exchangeable with the wall. Each step reads only the pool, the sizes and the limits, so the deal
is a function of what the dealing seat knows and of ``rng``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import comb, prod
from typing import Any

Limit = tuple[frozenset[int], int, int]
"""(kinds, lo, hi): the seat's dealt tiles of these kinds number at least lo and at most hi."""

MEMO_CAP = 20_000
"""Completion counts kept between deals (search deals many worlds from one position); the memo
is emptied when it grows past this."""


@dataclass(frozen=True)
class Holder:
    """One seat's hidden holdings to deal: ``size`` concealed tiles, face-down kongs of the given
    sizes (kinds among ``kong_kinds``, None: any kind), under ``limits``."""

    seat: int
    size: int
    kongs: tuple[int, ...] = ()
    kong_kinds: frozenset[int] | None = None
    limits: tuple[Limit, ...] = ()


class _Stages:
    """The stage structure for limited seats dealt in order: per stage the atoms, each limit as
    the atoms it covers, and where each atom goes in the next stage's coarser cut."""

    def __init__(self, sizes: tuple[int, ...], limits: tuple[tuple[Limit, ...], ...], kinds: int) -> None:
        self.sizes = sizes
        self.limits = limits
        self.atoms: list[tuple[tuple[int, ...], ...]] = []
        for h in range(len(sizes) + 1):
            sets = [k for lim in limits[h:] for k, _, _ in lim]
            cells: dict[tuple[bool, ...], list[int]] = {}
            for t in range(kinds):
                cells.setdefault(tuple(t in s for s in sets), []).append(t)
            self.atoms.append(tuple(tuple(c) for c in cells.values()))
        self.covers = [[(frozenset(i for i, a in enumerate(self.atoms[h]) if a[0] in k), lo, hi)
                        for k, lo, hi in limits[h]] for h in range(len(sizes))]
        self.coarsen = []
        for h in range(len(sizes)):
            where = {t: j for j, a in enumerate(self.atoms[h + 1]) for t in a}
            self.coarsen.append(tuple(where[a[0]] for a in self.atoms[h]))
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int], int]] = {}

    def pool_at(self, h: int, pool: list[int]) -> tuple[int, ...]:
        return tuple(sum(pool[t] for t in a) for a in self.atoms[h])

    def _splits(self, h: int, pool: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every count per atom for seat ``h`` that fits the pool and keeps its limits."""
        n, covers = self.sizes[h], self.covers[h]
        last = len(pool) - 1
        x = [0] * len(pool)

        def rec(i: int, left: int) -> Iterator[tuple[int, ...]]:
            if i == last:
                if left > pool[i]:
                    return
                x[i] = left
                if all(lo <= sum(x[j] for j in c) <= hi for c, lo, hi in covers):
                    yield tuple(x)
                return
            for v in range(min(pool[i], left) + 1):
                x[i] = v
                yield from rec(i + 1, left - v)

        yield from rec(0, n)

    def table(self, h: int, pool: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int], int]:
        """Seat ``h``'s deals from ``pool`` (atom counts), their cumulative weights, the total."""
        key = (h, pool)
        got = self.memo.get(key)
        if got is not None:
            return got
        deals, cum, total = [], [], 0
        if h == len(self.sizes):
            got = ([()], [1], 1)
        else:
            to = self.coarsen[h]
            width = len(self.atoms[h + 1])
            for x in self._splits(h, pool):
                nxt = [0] * width
                for j, (p, v) in enumerate(zip(pool, x, strict=True)):
                    nxt[to[j]] += p - v
                w = prod(comb(p, v) for p, v in zip(pool, x, strict=True)) * self.table(h + 1, tuple(nxt))[2]
                if w:
                    total += w
                    deals.append(x)
                    cum.append(total)
            got = (deals, cum, total)
        if len(self.memo) > MEMO_CAP:
            self.memo.clear()
        self.memo[key] = got
        return got

    def completions(self, pool: list[int]) -> int:
        return self.table(0, self.pool_at(0, pool))[2]


_STAGES: dict[tuple[Any, ...], _Stages] = {}


def _stages(sizes: tuple[int, ...], limits: tuple[tuple[Limit, ...], ...], kinds: int) -> _Stages:
    key = (sizes, limits, kinds)
    got = _STAGES.get(key)
    if got is None:
        if len(_STAGES) > 256:
            _STAGES.clear()
        got = _STAGES[key] = _Stages(sizes, limits, kinds)
    return got


def _pick(cum: list[int], total: int, rng: Any) -> int:
    """An index drawn with the weights whose running sums are ``cum`` (exact integers, often far
    past 2**64: 64 spare random bits make the modulo's bias negligible)."""
    r = int.from_bytes(rng.bytes((total.bit_length() + 71) // 8), "big") % total
    return bisect_right(cum, r)


def _active(h: Holder) -> tuple[Limit, ...]:
    """The limits that can bind: a limit every deal keeps is dropped (fewer atoms)."""
    top = h.size + sum(h.kongs)
    return tuple(lim for lim in h.limits if lim[1] > 0 or lim[2] < top)


def _after_kong(limits: tuple[Limit, ...], kind: int, n: int) -> tuple[Limit, ...]:
    """The seat's limits once ``n`` tiles of ``kind`` lie in its face-down kong."""
    return tuple((k, lo - n, hi - n) if kind in k else (k, lo, hi) for k, lo, hi in limits)


def deal(pool: list[int], holders: Iterable[Holder], rng: Any) -> tuple[dict[int, list[int]], dict[int, list[int]],
                                                                       list[int]]:
    """Deal the limited seats' concealed tiles and every holder's face-down kongs from ``pool``
    (counts per kind, changed in place to what is left): returns the limited seats' tiles (counts
    per kind), each holder's kong kinds in order, and the pool left for the rest. Raises
    ValueError when no deal keeps the limits (the ruleset's limits contradict the record)."""
    holders = list(holders)
    kinds = len(pool)
    limits = {h.seat: _active(h) for h in holders}
    order = sorted((h for h in holders if limits[h.seat]), key=lambda h: (-len(limits[h.seat]), h.seat))

    def stages() -> _Stages:
        return _stages(tuple(h.size for h in order), tuple(limits[h.seat] for h in order), kinds)

    kongs: dict[int, list[int]] = {}
    for h in holders:
        for n in h.kongs:
            cands, cum, total = [], [], 0
            for t in range(kinds):
                if pool[t] < n or (h.kong_kinds is not None and t not in h.kong_kinds):
                    continue
                mine = limits[h.seat]
                pool[t] -= n
                limits[h.seat] = _after_kong(mine, t, n)
                w = comb(pool[t] + n, n) * (stages().completions(pool) if order else 1)
                limits[h.seat] = mine
                pool[t] += n
                if w:
                    total += w
                    cands.append(t)
                    cum.append(total)
            if not total:
                raise ValueError(f"no kind for seat {h.seat}'s face-down kong keeps the limits {limits}")
            # without limits every kind is as likely (the rest deals the same number of ways)
            t = cands[_pick(cum, total, rng) if order else int(rng.integers(len(cands)))]
            pool[t] -= n
            limits[h.seat] = _after_kong(limits[h.seat], t, n)
            kongs.setdefault(h.seat, []).append(t)
    hands: dict[int, list[int]] = {}
    if not order:
        return hands, kongs, pool
    st = stages()
    for i, h in enumerate(order):
        deals, cum, total = st.table(i, st.pool_at(i, pool))
        if not total:
            raise ValueError(f"no deal keeps the limits {[limits[x.seat] for x in order]} on pool {pool}")
        x = deals[_pick(cum, total, rng)]
        hand = [0] * kinds
        for atom, v in zip(st.atoms[i], x, strict=True):
            if not v:
                continue
            tiles = [t for t in atom for _ in range(pool[t])]
            for j in rng.permutation(len(tiles))[:v].tolist():
                hand[tiles[j]] += 1
        for t, v in enumerate(hand):
            pool[t] -= v
        hands[h.seat] = hand
    return hands, kongs, pool

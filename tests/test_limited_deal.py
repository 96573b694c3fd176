"""``cnmahjong.envs.core.limited_deal``: dealing unseen tiles under count limits is exact and uniform.

The reference here is brute force, written apart from the module: every split of a small pool
into the limited hands, weighted by the physical ways to pick it (Π C(pool, x)), the splits that
break a limit left out. The sampler's frequencies must follow it (chi-square)."""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb, prod

import numpy as np
import pytest
from scipy.stats import chisquare

from cnmahjong.envs.core.limited_deal import Holder, deal


def _hands(pool: list[int], size: int):
    """Every count vector of ``size`` tiles drawn from ``pool``, with its physical ways."""
    for x in itertools.product(*(range(p + 1) for p in pool)):
        if sum(x) == size:
            yield x, prod(comb(p, v) for p, v in zip(pool, x, strict=True))


def _keeps(x: tuple[int, ...], limits) -> bool:
    return all(lo <= sum(x[t] for t in kinds) <= hi for kinds, lo, hi in limits)


def _exact(pool: list[int], holders: list[Holder]) -> dict[tuple, float]:
    """The law of the limited seats' hands (and kong kinds), by enumeration."""
    law: Counter = Counter()

    def rec(i: int, left: list[int], key: tuple, w: int) -> None:
        if i == len(holders):
            law[key] += w
            return
        h = holders[i]
        kong_opts = [(None, left, 1)]
        if h.kongs:
            (n,) = h.kongs
            kong_opts = []
            for t in range(len(left)):
                if left[t] >= n and (h.kong_kinds is None or t in h.kong_kinds):
                    rest = list(left)
                    rest[t] -= n
                    kong_opts.append((t, rest, comb(left[t], n)))
        for kong, rest, wk in kong_opts:
            for x, wx in _hands(rest, h.size):
                held = list(x)
                if kong is not None:
                    held[kong] += h.kongs[0]
                if _keeps(tuple(held), h.limits):
                    rec(i + 1, [p - v for p, v in zip(rest, x, strict=True)], key + ((kong, x),), w * wk * wx)

    rec(0, list(pool), (), 1)
    total = sum(law.values())
    return {k: v / total for k, v in law.items()}


def _sampled(pool: list[int], holders: list[Holder], n: int, seed: int = 0) -> Counter:
    rng = np.random.default_rng(seed)
    out: Counter = Counter()
    for _ in range(n):
        hands, kongs, left = deal(list(pool), holders, rng)
        key = []
        for h in holders:
            x = hands.get(h.seat)
            if x is None:  # an unlimited seat takes its share of what is left, as worlds do
                x = _take(left, h.size, rng)
            key.append(((kongs.get(h.seat) or [None])[0], tuple(x)))
        out[tuple(key)] += 1
    return out


def _take(left: list[int], size: int, rng) -> list[int]:
    tiles = [t for t, n in enumerate(left) for _ in range(n)]
    x = [0] * len(left)
    for j in rng.permutation(len(tiles))[:size].tolist():
        x[tiles[j]] += 1
    for t, v in enumerate(x):
        left[t] -= v
    return x


def _check(pool: list[int], holders: list[Holder], n: int = 6000) -> None:
    law = _exact(pool, holders)
    got = _sampled(pool, holders, n)
    assert set(got) <= set(law), f"a deal outside the limits: {set(got) - set(law)}"
    keys = sorted(law, key=lambda k: -law[k])
    keep = [k for k in keys if n * law[k] >= 5]
    obs = [got[k] for k in keep] + [n - sum(got[k] for k in keep)]
    exp = [n * law[k] for k in keep] + [n - sum(n * law[k] for k in keep)]
    if exp[-1] < 1e-9:
        obs, exp = obs[:-1], exp[:-1]
    assert len(keep) >= 5, "the case is too small to test anything"
    assert chisquare(obs, exp).pvalue > 1e-3


SUIT_A, SUIT_B = frozenset({0, 1, 2}), frozenset({3, 4, 5})


def test_a_cap_on_a_suit_is_uniform_among_the_deals_that_keep_it():
    """D1-like: one seat holds at most one tile of a suit, another none of the other."""
    _check([2, 2, 1, 2, 1, 2], [Holder(1, 3, limits=((SUIT_A, 0, 1),)), Holder(2, 2, limits=((SUIT_B, 0, 0),))])


def test_a_floor_on_kinds_and_a_cap_on_their_suit_together():
    """换三张-like floors (at least one 0, at least one 1) on a seat whose suit is also capped, and
    a seat without limits beside it (it takes its share of what is left)."""
    _check([2, 2, 2, 1, 2, 1], [Holder(3, 4, limits=((frozenset({0}), 1, 4), (frozenset({1}), 1, 4),
                                                     (SUIT_A, 0, 3))),
                                Holder(1, 2), Holder(2, 3, limits=((SUIT_A, 0, 1),))])


def test_face_down_kongs_are_weighted_by_the_deals_they_leave():
    """A limited seat's face-down kong (kinds outside its capped suit, as D2) and its hand; a
    second seat's kong and hand constrain nothing but are typed with the same weights."""
    pool = [4, 1, 2, 4, 2, 4]
    _check(pool, [Holder(1, 2, kongs=(4,), kong_kinds=frozenset(SUIT_B), limits=((SUIT_A, 0, 1),)),
                  Holder(2, 2, kongs=(4,))])


def test_same_rng_state_same_deal_and_the_pool_is_conserved():
    pool = [3, 4, 2, 4, 1, 3, 2, 4, 4]
    holders = [Holder(0, 5, limits=((frozenset({0, 1, 2}), 0, 1),)), Holder(2, 4, kongs=(4,),
                                                                         limits=((frozenset({4}), 1, 1),))]
    a = deal(list(pool), holders, np.random.default_rng(7))
    b = deal(list(pool), holders, np.random.default_rng(7))
    assert a == b
    hands, kongs, left = a
    dealt = [sum(h[t] for h in hands.values()) + 4 * sum(k == t for ks in kongs.values() for k in ks)
             for t in range(len(pool))]
    assert [d + x for d, x in zip(dealt, left, strict=True)] == pool


def test_limits_nobody_can_keep_are_refused():
    with pytest.raises(ValueError, match="no deal keeps the limits"):
        deal([2, 2], [Holder(1, 3, limits=((frozenset({0}), 0, 0),))], np.random.default_rng(0))

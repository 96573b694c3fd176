"""Hangzhou's rules-core micro-benchmarks for ``make bench`` (``Ruleset.core_bench``).

Targets: ``is_win`` ≥ 300,000 and ``waits`` ≥ 30,000 hands/s on random 14/13-tile hands with
0–3 财神 (the count-vector forms the engine uses), one core.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cnmahjong.envs.core.tiles import NUM_KINDS, to_counts
from cnmahjong.envs.hangzhou.patterns import wait_mask_counts, win_counts


def random_hangzhou_counts(rng: random.Random, n: int, count: int) -> list[tuple[list[int], int]]:
    """``count`` random ``n``-tile hands as (physical counts over 34 kinds, indicator): hand ``i``
    holds ``i % 4`` 财神; half draw their other tiles from one or two suits and the honours, so
    that near-complete hands are common too."""
    out = []
    for i in range(count):
        indicator = rng.randrange(NUM_KINDS)
        pool = [t for t in range(NUM_KINDS) if t != indicator for _ in range(4)]
        if i % 2:
            suits = rng.sample(range(3), rng.randint(1, 2))
            pool = [t for t in pool if t >= 27 or t // 9 in suits]
        tiles = [indicator] * (i % 4) + rng.sample(pool, n - i % 4)
        out.append((to_counts(tiles, NUM_KINDS), indicator))
    return out


RIICHIENV_RATIO = 1.5
"""``Ruleset.riichienv_ratio``: the native-speed issue's target for Hangzhou (0.65× when the issue was filed)."""


def core_bench(rng: random.Random, hands: int) -> list[tuple[str, Callable[[], int], int]]:
    """(label, one pass over ``hands`` prepared hands returning the calls it made, target per second)."""
    h14 = random_hangzhou_counts(rng, 14, hands)
    h13 = random_hangzhou_counts(rng, 13, hands)

    def wins() -> int:
        for c, indicator in h14:
            win_counts(c, indicator)
        return len(h14)

    def waits() -> int:
        for c, indicator in h13:
            wait_mask_counts(c, c, indicator)
        return len(h13)

    return [("is_win (14 tiles, 0-3 财神)", wins, 300_000), ("waits (13 tiles, 0-3 财神)", waits, 30_000)]

"""Changsha's rules-core micro-benchmarks for ``make bench`` (``Ruleset.core_bench``).

Targets: the complete-shape check ≥ 500,000 hands/s and ``waits`` ≥ 50,000 hands/s on random
14/13-tile hands of the 108 suited tiles, one core.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cnmahjong.envs.changsha.patterns import wait_mask
from cnmahjong.envs.core.shapes import is_standard
from cnmahjong.envs.core.tiles import NUM_SUITED_KINDS, to_counts

WALL = [k for k in range(NUM_SUITED_KINDS) for _ in range(4)]


def random_counts(rng: random.Random, n: int, count: int) -> list[list[int]]:
    """``count`` random ``n``-tile hands (as count vectors), half from one or two suits so that
    the fast paths and the decomposable paths are both exercised."""
    out = []
    for i in range(count):
        pool = WALL if i % 2 else [t for t in WALL if t // 9 in rng.sample(range(3), rng.randint(1, 2))]
        out.append(to_counts(rng.sample(pool, n)))
    return out


def core_bench(rng: random.Random, hands: int) -> list[tuple[str, Callable[[], int], int]]:
    """(label, one pass over ``hands`` prepared hands returning the calls it made, target per second)."""
    h14 = random_counts(rng, 14, hands)
    h13 = random_counts(rng, 13, hands)
    no_melds = [0] * NUM_SUITED_KINDS

    def shapes() -> int:
        for c in h14:
            is_standard(c)
        return len(h14)

    def waits() -> int:
        for c in h13:
            wait_mask(c, no_melds, 0)
        return len(h13)

    return [("complete-shape check (14 tiles)", shapes, 500_000), ("waits (13 tiles)", waits, 50_000)]

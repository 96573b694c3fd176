"""Random hands of the 108 suited tiles as count vectors, for the rules cores' micro-benchmarks
(``Ruleset.core_bench``): half drawn from one or two suits, so that near-complete hands (the
decomposable paths, not only the fast rejections) are common too."""

from __future__ import annotations

import random

from cnmahjong.envs.core.tiles import NUM_SUITED_KINDS, to_counts

SUITED_WALL = [k for k in range(NUM_SUITED_KINDS) for _ in range(4)]


def random_counts(rng: random.Random, n: int, count: int) -> list[list[int]]:
    """``count`` random ``n``-tile hands (as count vectors), half from one or two suits."""
    out = []
    for i in range(count):
        pool = SUITED_WALL if i % 2 else \
            [t for t in SUITED_WALL if t // 9 in rng.sample(range(3), rng.randint(1, 2))]
        out.append(to_counts(rng.sample(pool, n)))
    return out

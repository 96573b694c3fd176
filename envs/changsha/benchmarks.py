"""Changsha's rules-core micro-benchmarks for ``make bench`` (``Ruleset.core_bench``).

Targets: the complete-shape check ≥ 500,000 hands/s and ``waits`` ≥ 50,000 hands/s on random
14/13-tile hands of the 108 suited tiles, one core.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cnmahjong.envs.changsha.patterns import wait_mask
from cnmahjong.envs.core.sample_hands import random_counts
from cnmahjong.envs.core.shapes import is_standard
from cnmahjong.envs.core.tiles import NUM_SUITED_KINDS

RIICHIENV_RATIO = 2.0
"""``Ruleset.riichienv_ratio``: the native-speed issue's target for the default ruleset, about
twice RiichiEnv's Rust core with its encoder (1.05× when the issue was filed)."""


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

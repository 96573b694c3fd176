"""Sichuan's rules-core micro-benchmarks for ``make bench`` (``Ruleset.core_bench``).

Targets: the §4 shape check (D3 void included) ≥ 500,000 hands/s and ``wait_mask`` ≥ 50,000
hands/s on random 14/13-tile hands of the 108 tiles (``envs.core.sample_hands``), one core. Hand ``i``
has void ``i % 3``: a third of the hands hold no tile of it and take the full check.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cnmahjong.envs.core.sample_hands import random_counts
from cnmahjong.envs.core.tiles import NUM_SUITED_KINDS
from cnmahjong.envs.sichuan.patterns import wait_mask, win_shape

RIICHIENV_RATIO = 0.0
"""``Ruleset.riichienv_ratio``: no target of its own: the ratio is printed alone."""


def core_bench(rng: random.Random, hands: int) -> list[tuple[str, Callable[[], int], int]]:
    """(label, one pass over ``hands`` prepared hands returning the calls it made, target per second)."""
    h14 = random_counts(rng, 14, hands)
    h13 = random_counts(rng, 13, hands)
    no_melds = [0] * NUM_SUITED_KINDS

    def shapes() -> int:
        for i, c in enumerate(h14):
            win_shape(c, 0, i % 3)
        return len(h14)

    def waits() -> int:
        for i, c in enumerate(h13):
            wait_mask(c, no_melds, 0, i % 3)
        return len(h13)

    return [("complete-shape check (14 tiles, void)", shapes, 500_000), ("waits (13 tiles, void)", waits, 50_000)]

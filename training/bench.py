"""Speed figures (``make bench``): rules core, one core, random hands.

Targets (issue 2): waits() ≥ 50,000 hands/s, complete-shape check ≥ 500,000 hands/s.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from envs.changsha.patterns import wait_mask
from envs.core.shapes import is_standard
from envs.core.tiles import to_counts

WALL = [k for k in range(27) for _ in range(4)]


def random_counts(rng: random.Random, n: int, count: int) -> list[list[int]]:
    """``count`` random ``n``-tile hands (as count vectors), half from one or two suits so that
    the fast paths and the decomposable paths are both exercised."""
    out = []
    for i in range(count):
        pool = WALL if i % 2 else [t for t in WALL if t // 9 in rng.sample(range(3), rng.randint(1, 2))]
        out.append(to_counts(rng.sample(pool, n)))
    return out


def rate(fn: Callable[[list[int]], object], hands: list[list[int]], min_time: float = 1.0) -> float:
    """Calls per second of ``fn`` over ``hands``, repeated for at least ``min_time`` seconds."""
    calls = 0
    start = time.perf_counter()
    while True:
        for h in hands:
            fn(h)
        calls += len(hands)
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return calls / elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20000, help="distinct random hands")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args(argv)
    rng = random.Random(0)
    h14 = random_counts(rng, 14, args.hands)
    h13 = random_counts(rng, 13, args.hands)
    no_melds = [0] * 27
    rows = [
        ("complete-shape check (14 tiles)", rate(is_standard, h14, args.seconds), 500_000),
        ("waits (13 tiles)", rate(lambda c: wait_mask(c, no_melds, 0), h13, args.seconds), 50_000),
    ]
    print(f"{'measure':<36}{'per second':>14}{'target':>12}")
    for name, value, target in rows:
        flag = "ok" if value >= target else "BELOW TARGET"
        print(f"{name:<36}{value:>14,.0f}{target:>12,}  {flag}")


if __name__ == "__main__":
    main()

"""``training.workers.ordered_map``: results in order, a worker's error raised in the parent, a
worker that dies an error (not a hang), and every worker ended when the parent stops early."""

import math
import os
import time

import pytest

from cnmahjong.training.workers import ordered_map


def test_results_come_in_the_order_of_the_items():
    items = [5, 0, 3, 7, 1, 2]
    assert list(ordered_map(math.factorial, items, 3, time.sleep, (0,))) == [math.factorial(i) for i in items]


def test_an_error_in_a_worker_is_raised_in_the_parent():
    with pytest.raises(ValueError, match="math domain error"):
        list(ordered_map(math.sqrt, [4, -1, 9], 2, time.sleep, (0,)))


def test_a_worker_that_dies_is_an_error_naming_it():
    with pytest.raises(RuntimeError, match=r"worker process \d+ died \(exit status 3\)"):
        list(ordered_map(os._exit, [3, 3], 2, time.sleep, (0,)))


def test_stopping_early_ends_every_worker_even_mid_way_through_large_results():
    """The arena's hang: workers sending results far above a pipe's buffer when the parent stops."""
    results = ordered_map(bytes, [8 << 20] * 40, 2, time.sleep, (0,))
    assert next(results) == bytes(8 << 20)
    import multiprocessing as mp

    children = mp.active_children()
    results.close()  # what a KeyboardInterrupt in the consumer's loop does
    assert children and all(p.exitcode is not None for p in children)

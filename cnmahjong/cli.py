"""The console scripts (``pyproject.toml``'s ``[project.scripts]``), each a ``python -m`` tool:
``cnmahjong-train`` is ``python -m cnmahjong.training.train``, ``cnmahjong-arena``
``python -m cnmahjong.training.arena``, ``cnmahjong-replay`` ``python -m cnmahjong.training.viewer``,
``cnmahjong-play`` ``python -m cnmahjong.training.server``, ``cnmahjong-bench``
``python -m cnmahjong.training.bench`` and ``cnmahjong-league`` ``python -m cnmahjong.training.league``."""

from __future__ import annotations

import importlib
import sys


def _run(module: str) -> int:
    """Run ``module``'s ``main()`` on ``sys.argv``; its return value is a result, not an exit code."""
    importlib.import_module(module).main(sys.argv[1:])
    return 0


def train() -> int:
    """``cnmahjong-train --config selfplay_ppo [--set KEY=VALUE]``"""
    return _run("cnmahjong.training.train")


def arena() -> int:
    """``cnmahjong-arena --policies pretrained greedy greedy greedy --deals 500``"""
    return _run("cnmahjong.training.arena.cli")


def replay() -> int:
    """``cnmahjong-replay EVENTS.json -o hand.html``"""
    return _run("cnmahjong.training.viewer.replay")


def play() -> int:
    """``cnmahjong-play --opponents greedy greedy pretrained``"""
    return _run("cnmahjong.training.server.cli")


def bench() -> int:
    """``cnmahjong-bench``"""
    return _run("cnmahjong.training.bench.cli")


def league() -> int:
    """``cnmahjong-league --policies random greedy expert pretrained --deals 500 --json league.json``"""
    return _run("cnmahjong.training.league.cli")

"""The policy protocol the envs take as opponents, and its simplest member.

A policy is a callable ``policy(observation, action_mask) -> action`` with an optional
``reset(seed=None)``; ``cnmahjong.agents`` builds the others (greedy, checkpoints). The envs'
own default opponents are ``RandomAgent``s, so it lives here, beside ``reset_policy``.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np


class RandomAgent:
    """A policy ``policy(observation, action_mask) -> action`` choosing uniformly among legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new hand; with ``seed`` the choices restart from that seed (reproducible envs)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomAgent got an empty action mask: this seat is not to act")
        return int(legal[self.rng.integers(legal.size)])


def reset_policy(policy: Any, seed: int) -> None:
    """Call a policy's optional ``reset()``, passing ``seed`` when it takes one (reproducibility)."""
    reset = getattr(policy, "reset", None)
    if reset is None:
        return
    if "seed" in inspect.signature(reset).parameters:
        reset(seed=seed)
    else:
        reset()

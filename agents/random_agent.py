"""``RandomAgent``: uniform over the legal actions of the mask."""

from __future__ import annotations

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

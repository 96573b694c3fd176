"""Action spaces that know the current legal actions.

An illegal action is an error in these environments, so a space sampled
without a mask (gymnasium's ``check_env``, RLlib's env checker, random
rollouts) must still give a legal action: ``LegalDiscrete`` asks the env for
the current mask of its agent.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from gymnasium import spaces


class LegalDiscrete(spaces.Discrete):
    """``Discrete(99)`` whose ``sample()`` without a mask draws a legal action of the current state.

    Generic tools (gymnasium's ``check_env``, random rollouts) sample actions
    without knowing the mask; an illegal action is an error in this env, so the
    space samples from the mask the env holds now.
    """

    def __init__(self, n: int, mask_source: Callable[[], np.ndarray], seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._mask_source = mask_source

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None) -> np.int64:
        if mask is None and probability is None:
            current = self._mask_source()
            if current.any():
                mask = current.astype(np.int8)
        return super().sample(mask=mask, probability=probability)

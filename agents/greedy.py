"""``GreedyAgent``: the rule-based player of any ruleset, reading only its observation.

Its play is the ruleset's own ``heuristic`` (``Ruleset.heuristic``: Changsha's in
``cnmahjong.envs.changsha.heuristic``, Hangzhou's shanten with 财神 in
``cnmahjong.envs.hangzhou.heuristic``). Given no ruleset, it finds the one whose encoder's
planes have the observation's shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cnmahjong.envs.core.ruleset import Ruleset, encoding_of_shape, get_ruleset, ruleset_of_encoder


class GreedyAgent:
    """Rule-based policy ``policy(observation, action_mask) -> action`` (see the module docstring)."""

    def __init__(self, ruleset: str | Ruleset | None = None) -> None:
        self.ruleset = None if ruleset is None else get_ruleset(ruleset)
        self._by_shape: dict[tuple[int, ...], Any] = {}

    def reset(self, seed: int | None = None) -> None:
        """Stateless: nothing to reset (deterministic play)."""

    def _heuristic(self, shape: tuple[int, ...]) -> Any:
        if self.ruleset is not None:
            return self.ruleset.heuristic
        play = self._by_shape.get(shape)
        if play is None:
            play = self._by_shape[shape] = ruleset_of_encoder(encoding_of_shape(shape).name).heuristic
        return play

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if not legal:
            raise ValueError("GreedyAgent got an empty action mask: this seat is not to act")
        if len(legal) == 1:
            return legal[0]
        return self._heuristic(np.shape(observation))(observation, legal)

"""The rule-based players of any ruleset, reading only their observation.

- ``GreedyAgent`` plays the ruleset's ``heuristic`` (Changsha's in
  ``cnmahjong.envs.changsha.heuristic``, Hangzhou's shanten with 财神 in
  ``cnmahjong.envs.hangzhou.heuristic``): the simple, fast baseline.
- ``ExpertAgent`` plays the ruleset's ``expert`` (``cnmahjong.envs.<ruleset>.expert``): defence,
  value and the ruleset's own bets on top of the greedy shape play.

Given no ruleset, each finds the one whose encoder's planes have the observation's shape.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from cnmahjong.envs.core.ruleset import Ruleset, encoding_of_shape, get_ruleset, ruleset_of_encoder, rulesets


class RuleAgent:
    """A policy ``policy(observation, action_mask) -> action`` playing the ``Ruleset`` field ``PLAY``."""

    PLAY: ClassVar[str] = "heuristic"

    def __init__(self, ruleset: str | Ruleset | None = None) -> None:
        self.ruleset = None if ruleset is None else get_ruleset(ruleset)
        if self.ruleset is not None:
            self._play_of(self.ruleset)  # refuse now a ruleset without this player
        self._by_shape: dict[tuple[int, ...], Any] = {}

    def reset(self, seed: int | None = None) -> None:
        """Stateless: nothing to reset (deterministic play)."""

    def _play_of(self, ruleset: Ruleset) -> Any:
        play = getattr(ruleset, self.PLAY)
        if play is None:
            have = [rs.name for rs in rulesets() if getattr(rs, self.PLAY) is not None]
            raise ValueError(f"the {ruleset.name} ruleset has no {self.PLAY} player "
                             f"({type(self).__name__}): rulesets with one: {have}")
        return play

    def _play(self, shape: tuple[int, ...]) -> Any:
        if self.ruleset is not None:
            return getattr(self.ruleset, self.PLAY)
        play = self._by_shape.get(shape)
        if play is None:
            play = self._by_shape[shape] = self._play_of(ruleset_of_encoder(encoding_of_shape(shape).name))
        return play

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if not legal:
            raise ValueError(f"{type(self).__name__} got an empty action mask: this seat is not to act")
        if len(legal) == 1:
            return legal[0]
        return self._play(np.shape(observation))(observation, legal)


class GreedyAgent(RuleAgent):
    """The ruleset's greedy player (``Ruleset.heuristic``): shape first, never folds, never bets."""

    PLAY = "heuristic"


class ExpertAgent(RuleAgent):
    """The ruleset's expert player (``Ruleset.expert``): reads danger and value, makes the ruleset's bets."""

    PLAY = "expert"

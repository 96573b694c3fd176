"""The toy's ``Ruleset``: its one registration is ``CNMAHJONG_RULESETS=tests.toy.ruleset:FIVEPAIRS``
(or ``register(FIVEPAIRS)``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cnmahjong.envs.core.ruleset import Players, Ruleset, TableView
from tests.toy import actions as A
from tests.toy.game import ToyGame, ToyMatch, new_hand
from tests.toy.observation import ENCODINGS
from tests.toy.rules import as_config


def heuristic(obs: np.ndarray, legal: list[int]) -> int:
    """Win when it can; otherwise discard a single (keep the pairs)."""
    if A.HU in legal:
        return A.HU
    counts = obs[0] + obs[1] + obs[2] + obs[3]  # own hand counts from the ≥1..4 planes
    singles = [a for a in legal if a < 27 and counts[a] == 1]
    return max(singles) if singles else legal[0]


def render(game: ToyGame, viewer: int | None = None, last_action: Any = None) -> str:
    lines = [f"five pairs  phase: {game.phase}  wall: {game.wall.remaining}  to act: {game.to_act}"]
    for s in range(4):
        shown = game.done or s == viewer
        lines.append(f"seat {s}: {bytes(game.hands[s]).hex() if shown else '(hidden)'}  river {game.rivers[s]}")
    return "\n".join(lines)


FIVEPAIRS = Ruleset(
    title="Five pairs", game=ToyGame, match=ToyMatch, as_config=as_config, new_hand=new_hand,
    encodings=ENCODINGS, players=Players(heuristic=heuristic), view=TableView(render=render),
)

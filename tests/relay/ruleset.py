"""The relay's ``Ruleset``: its one registration is ``CNMAHJONG_RULESETS=tests.relay.ruleset:RELAY``."""

from __future__ import annotations

from typing import Any

import numpy as np

from cnmahjong.envs.core.ruleset import Players, Ruleset, TableView
from tests.relay import actions as A
from tests.relay.game import RelayGame, RelayMatch, new_hand
from tests.relay.observation import ENCODINGS
from tests.relay.rules import as_config


def heuristic(obs: np.ndarray, legal: list[int]) -> int:
    """Win when it can; pass on and discard singles (keep the pairs)."""
    if A.HU in legal:
        return A.HU
    counts = obs[0] + obs[1] + obs[2] + obs[3]  # own hand counts from the ≥1..4 planes
    singles = [a for a in legal if (a < 27 and counts[a] == 1) or (a >= A.PICK and counts[a - A.PICK] == 1)]
    return max(singles) if singles else legal[0]


def seat_tags(game: RelayGame, seat: int) -> list[str]:
    return (["dealer"] if seat == game.dealer else []) + (["out"] if seat in game.out else [])


def table_extras(game: RelayGame) -> dict[str, Any]:
    return {"out": list(game.out)}


def click_tile(game: RelayGame, action: int) -> int | None:
    """A click on a hand tile discards it, or in the opening window picks it to pass on."""
    return action - A.PICK if action >= A.PICK else action if action < A.NUM_KINDS else None


RELAY = Ruleset(
    title="Pairs relay", game=RelayGame, match=RelayMatch, as_config=as_config, new_hand=new_hand,
    encodings=ENCODINGS, players=Players(heuristic=heuristic),
    view=TableView(seat_tags=seat_tags, table_extras=table_extras, click_tile=click_tile),
)

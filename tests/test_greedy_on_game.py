"""The greedy players read their facts from the game in rollouts (``heuristic_on_game``) and from
the observation planes everywhere else (``heuristic``): the same facts and the same choice at
every decision of randomly played hands, every seat, every ruleset."""

from __future__ import annotations

import importlib

import pytest

from cnmahjong.envs.core.ruleset import get_ruleset
from tests.test_worlds import positions

FACTS = {"changsha": ("phase", "hand", "melded", "claim", "unseen"),
         "hangzhou": ("phase", "hand", "indicator", "claim", "unseen"),
         "sichuan": ("phase", "hand", "void", "offered")}


@pytest.mark.parametrize("name", sorted(FACTS))
def test_facts_and_choices_on_the_game_equal_those_on_the_observation(name):
    rs = get_ruleset(name)
    module = importlib.import_module(f"cnmahjong.envs.{name}.heuristic")
    encoder = rs.encoder()
    asked = 0
    for game, seat in positions(name, 40, seed=11):
        obs = encoder(game, seat)
        observed, on_game = module._Observed(obs), module._OnGame(game, seat)
        for fact in FACTS[name]:  # the same values (the game's counts come as a bytearray copy)
            assert _values(getattr(on_game, fact)()) == _values(getattr(observed, fact)()), \
                (name, fact, seat, game.phase)
        legal = game.legal_actions(seat)
        if len(legal) > 1:
            asked += 1
            assert rs.players.heuristic_on_game(game, seat, legal) == rs.heuristic(obs, legal)
    assert asked > 500  # every decision kind of 40 hands, choices included


def _values(fact):
    return list(fact) if isinstance(fact, bytearray) else fact

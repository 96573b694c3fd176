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
        observed, on_game = module._Facts(obs), module._Facts(None, game, seat)  # the two sources
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


@pytest.mark.parametrize("name", sorted(FACTS))
def test_a_greedy_choice_is_the_same_whatever_sequence_holds_the_legal_actions(name):
    """The players ask whether an action is offered with C loops over a list (``engine.offered``)
    and walk ``legal`` as C ints: a tuple or a numpy array of the same actions gets the same choice."""
    import numpy as np

    rs = get_ruleset(name)
    encoder = rs.encoder()
    asked = 0
    for game, seat in positions(name, 10, seed=5):
        legal = game.legal_actions(seat)
        if len(legal) > 1:
            asked += 1
            obs = encoder(game, seat)
            choice = rs.heuristic(obs, legal)
            assert choice in legal
            assert rs.heuristic(obs, tuple(legal)) == choice
            assert rs.heuristic(obs, np.array(legal, dtype=np.int64)) == choice
            assert rs.players.heuristic_on_game(game, seat, tuple(legal)) == choice
    assert asked > 100


def test_offered_compares_a_list_in_c_and_asks_any_other_sequence_with_in():
    from cnmahjong.envs.core.engine import offered

    assert offered([0, 5, 31], 31) and not offered([0, 5, 31], 30)
    assert offered((0, 5, 31), 5) and not offered(range(3), 3)
    assert not offered([], 0)
    assert not offered([0, 5], 1 << 70) and not offered([0, 5], -(1 << 70))  # past the C range: offered nowhere

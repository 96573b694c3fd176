"""The event log's packed tail (``cnmahjong.envs.core.eventlog``): every frequent event decodes to
the dict the rulesets wrote before, in order, and ``game.events`` is always a list of dicts."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from cnmahjong.envs.core import rollouts
from cnmahjong.envs.core.eventlog import ACT, FIELD_MAX, FORM_BITS, event_form, event_of, forms_of, pack
from cnmahjong.envs.core.ruleset import get_ruleset

RULESETS = ("changsha", "hangzhou", "sichuan")


def _game(name: str, seed: int = 3):
    rs = get_ruleset(name)
    return rs.game(rs.as_config(rs.default_rules), seed=seed)


def test_a_packed_event_decodes_to_its_dict_in_key_order():
    form = event_form("draw", "seat", "tile", ("source", ("head", "tail")), late=True)
    forms = (form, form)
    for seat, tile, src in [(0, 0, 0), (3, 33, 1), (2, FIELD_MAX, 1)]:
        event = event_of(forms, pack(1, seat, tile, src))
        assert event == {"type": "draw", "seat": seat, "tile": tile, "source": ("head", "tail")[src], "late": True}
        assert list(event) == ["type", "seat", "tile", "source", "late"]
    assert event_of(forms, {"type": "x"}) == {"type": "x"}  # a dict in the tail is kept as it is


def test_a_form_packs_three_fields_at_most():
    with pytest.raises(ValueError, match="at most 3 fields"):
        event_form("x", "a", "b", "c", "d")


@pytest.mark.parametrize("name", RULESETS)
def test_each_rulesets_forms_fit_the_packing(name):
    cls = get_ruleset(name).game
    forms = forms_of(cls)
    assert forms[ACT].type == "act" and len(forms) <= 1 << FORM_BITS
    assert cls.ACTIONS.NUM_ACTIONS - 1 <= FIELD_MAX and cls.WALL_SIZE <= FIELD_MAX  # actions and tiles fit
    for f in forms:  # every choice field indexes within the field's bits
        assert all(choices is None or len(choices) <= FIELD_MAX + 1 for _, choices in f.fields)
    act = event_of(forms, pack(ACT, 2, cls.ACTIONS.NUM_ACTIONS - 1, len(cls.PHASES) - 1))
    assert act == {"type": "act", "seat": 2, "action": cls.ACTIONS.NUM_ACTIONS - 1, "phase": cls.PHASES[-1]}


@pytest.mark.parametrize("name", RULESETS)
def test_the_log_read_mid_hand_and_at_its_end_is_dicts_and_replays(name):
    game = _game(name)
    rng = random.Random(5)
    seen: list[dict] = []
    while not game.done:
        seat = game.to_act[0]
        game.step(seat, rng.choice(game.legal_actions(seat)))
        if rng.random() < 0.2 and not game.done:  # read now and then: what was read stays, later events follow it
            log = game.events
            assert log[:len(seen)] == seen and all(type(e) is dict for e in log)
            seen = list(log)
    assert game._log_tail[-1] is game.result  # the end event kept as the result until read
    log = game.events
    assert all(type(e) is dict for e in log) and log[-1] == {"type": "end", "result": game.result.to_dict()}
    assert json.loads(json.dumps(log)) == log
    assert type(game).replay(log).events == log
    assert sum(e["type"] == "act" for e in log) > 0 and game._log_tail == []


@pytest.mark.parametrize("name", RULESETS)
def test_a_pickle_and_a_clone_hold_the_same_log(name):
    game, game2 = _game(name, seed=11), _game(name, seed=11)
    for g in (game, game2):
        for _ in range(20):  # part of a hand: the tail holds packed events now
            seat = g.to_act[0]
            g.step(seat, g.legal_actions(seat)[0])
    rollouts.rollouts([game], policy="first")
    assert any(type(r) is int for r in game2._log_tail)
    twin = game2.clone()
    again = pickle.loads(pickle.dumps(game2))
    assert again._log_tail == [] and again.events == game2.events == twin.events
    rollouts.rollouts([game2, twin], policy="first")
    assert game2.events == twin.events == game.events


def test_the_log_setter_takes_a_list_or_none():
    game = _game("changsha")
    with pytest.raises(TypeError, match="list of event dicts or None"):
        game.events = (1, 2)
    game.events = None
    assert game._log_tail is None
    rollouts.rollouts([game], policy="first", log=False)
    assert game.done and game.events is None

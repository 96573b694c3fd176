"""Replay verifies itself: every kind of recorded event, mutated, dropped or inserted, is caught.

``ChangshaGame.replay`` rebuilds the deal from its seed (or its scenario and dice)
and compares every event the rules make with the recorded one; the first
difference raises ``ReplayMismatchError`` with its index.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from cnmahjong.envs.changsha.game import ChangshaGame, ReplayMismatchError
from cnmahjong.envs.changsha.rules import RuleConfig
from tests.test_game_fuzz import choose

WANTED = {"deal", "act", "draw", "discard", "meld", "dice", "kong_draw", "lock", "haidi", "declare", "win", "end"}


def _play(seed: int, config: RuleConfig) -> ChangshaGame:
    rng = random.Random(seed)
    g = ChangshaGame(config, seed=seed, dealer=seed % 4)
    while not g.done:
        seat = g.to_act[0]
        g.step(seat, choose(rng, g.legal_actions(seat), g, seat))
    return g


def _logs() -> list[list[dict]]:
    """A few random hands that together hold every kind of event."""
    seen: set[str] = set()
    logs = []
    configs = [RuleConfig.preset("mainstream"), RuleConfig.preset("classic")]
    for seed in range(400):
        g = _play(seed, configs[seed % 2])
        kinds = {e["type"] for e in g.events}
        if kinds - seen:
            seen |= kinds
            logs.append(json.loads(json.dumps(g.events)))
        if seen >= WANTED:
            break
    assert seen >= WANTED, f"no random hand made {WANTED - seen}"
    return logs


LOGS = _logs()


def _mutations(value):
    """Changed copies of one recorded value (each differs from it)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if isinstance(value, str):
        return [value + "x"]
    if value is None:
        return [0]
    if isinstance(value, list):
        out = [value + [value[0] if value else 0]]
        if value:
            out.append(value[:-1])
            for i, v in enumerate(value):
                for m in _mutations(v)[:1]:
                    out.append(value[:i] + [m] + value[i + 1:])
        return out
    if isinstance(value, dict):
        out = [{**value, "extra": 1}]
        for k, v in value.items():
            for m in _mutations(v)[:1]:
                out.append({**value, k: m})
        return out
    raise AssertionError(f"unexpected value {value!r}")


def _mutated_logs(events):
    """(description, tampered log) for every field of every event, and dropped/duplicated events.

    Not included: an act's action changed to another legal one, and a deal's rule options,
    since either gives a different but valid log (a different game, not a tampered one)."""
    for i, e in enumerate(events):
        for key, value in e.items():
            if key == "type" or (e["type"] == "deal" and key == "config"):
                continue
            if e["type"] == "act" and key == "action":
                candidates = [999]
            elif e["type"] == "act" and key == "seat":
                candidates = [e["seat"] + 4]
            else:
                candidates = _mutations(value)
            for m in candidates:
                log = copy.deepcopy(events)
                log[i][key] = m
                yield f"event {i} ({e['type']}).{key} = {m!r}", log
        if i:
            yield f"event {i} ({e['type']}) dropped", events[:i] + events[i + 1:]
            yield f"event {i} ({e['type']}) duplicated", events[:i + 1] + events[i:]
        if e["type"] not in ("deal", "act"):
            yield f"event {i} ({e['type']}) with an extra key", [
                *events[:i], {**e, "note": 1}, *events[i + 1:]]


@pytest.mark.parametrize("log_index", range(len(LOGS)))
def test_every_tampered_event_is_caught(log_index):
    events = LOGS[log_index]
    assert ChangshaGame.replay(events).events == events  # the untouched log replays
    kinds = set()
    for what, log in _mutated_logs(events):
        kind = what.split("(")[1].split(")")[0]
        # a deal whose fields no longer describe a deal is a clear error of its own (bad origin,
        # dealer 4, a hand of 12 tiles); one that still does must rebuild the recorded game
        expected = (ReplayMismatchError, ValueError, TypeError) if kind == "deal" else ReplayMismatchError
        with pytest.raises(expected) as err:
            ChangshaGame.replay(log)
        if isinstance(err.value, ReplayMismatchError):
            assert 0 <= err.value.index <= len(log), what
        kinds.add(kind)
    assert kinds == {e["type"] for e in events}


def test_mismatch_names_index_expected_and_found():
    events = copy.deepcopy(LOGS[0])
    i = next(i for i, e in enumerate(events) if e["type"] == "draw")
    events[i]["tile"] = (events[i]["tile"] + 1) % 27
    with pytest.raises(ReplayMismatchError, match=f"event {i} does not match") as err:
        ChangshaGame.replay(events)
    assert err.value.index == i and err.value.found == events[i]
    assert err.value.expected == {**events[i], "tile": LOGS[0][i]["tile"]}


def test_a_truncated_log_replays_to_its_last_event():
    events = LOGS[0]
    cut = [i for i, e in enumerate(events) if e["type"] == "act"][-1]
    partial = ChangshaGame.replay(events[:cut], verify=True)  # a game in progress is a valid log
    assert partial.events == events[:cut] and not partial.done
    with pytest.raises(ReplayMismatchError):  # but not a log cut between an act and its effects
        ChangshaGame.replay(events[:cut + 1] + [{"type": "draw", "seat": 9}])


def test_verify_false_only_replays_the_actions():
    events = copy.deepcopy(LOGS[0])
    end = events[-1]
    end["result"]["payments"] = [0, 0, 0, 0]
    assert ChangshaGame.replay(events, verify=False).events == LOGS[0]
    with pytest.raises(ReplayMismatchError, match=f"event {len(events) - 1}"):
        ChangshaGame.replay(events)


def test_scenario_dice_are_recorded_and_verified():
    from tests.scenario import build

    g = build({}, "", filler_wall=20, dice=[3, 4])
    assert g.events[0]["origin"] == "scenario" and g.events[0]["dice"] == [3, 4]
    rng = random.Random(0)
    while not g.done:
        s = g.to_act[0]
        g.step(s, choose(rng, g.legal_actions(s), g, s))
    assert ChangshaGame.replay(json.loads(json.dumps(g.events))).events == g.events
    tampered = copy.deepcopy(g.events)
    tampered[0]["dice"] = [4, 3]
    if any(e["type"] == "dice" for e in g.events):
        with pytest.raises(ReplayMismatchError):
            ChangshaGame.replay(tampered)

"""What RL libraries rely on: legal unmasked sampling, one infos layout, rewards no library drops."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.env import raw_env
from cnmahjong.envs.changsha.rules import RuleConfig
from tests.scenario import build
from tests.test_game_opening import SIXI_ONLY


def test_unmasked_sample_is_always_legal():
    env = raw_env()
    for seed in range(20):
        env.reset(seed=seed)
        env.action_space("player_0").seed(seed)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            action = env.action_space(agent).sample()  # no mask given, as RLlib's checker does
            assert env.observe(agent)["action_mask"][action] == 1
            env.step(int(action))


@pytest.mark.slow
@pytest.mark.parametrize(("infos", "result_in_infos"), [("numeric", False), ("text", False), ("text", True)])
def test_infos_keep_one_layout_across_500_hands(infos, result_in_infos):
    """Numeric infos hold one int (the phase's index in ``phase_names``); text infos its name."""
    env = raw_env(infos=infos, result_in_infos=result_in_infos, hands_per_episode=1)
    keys = {"phase", "result"} if result_in_infos else {"phase"}
    for seed in range(500):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, term, trunc, info = env.last()
            assert set(info) == keys and all(set(i) == keys for i in env.infos.values())
            phase = env.game.phase
            if infos == "numeric":
                assert type(info["phase"]) is int and env.phase_names[info["phase"]] == phase
            else:
                assert info["phase"] == phase
            if result_in_infos:
                assert isinstance(info["result"], str)
                if term:
                    assert json.loads(info["result"])["payments"] == list(env.game.result.payments)
            env.step(None if term or trunc else int(env.action_space(agent).sample()))


def test_result_in_infos_needs_text_infos():
    with pytest.raises(ValueError, match="infos='text'"):
        raw_env(result_in_infos=True)
    with pytest.raises(ValueError, match=r"infos='json': allowed \('numeric', 'text'\)"):
        raw_env(infos="json")


def _opening_scenario():
    g = build({1: SIXI_ONLY}, "", dice=[2, 3], config=RuleConfig.preset("mainstream"))
    deal = g.events[0]
    return {"hands": deal["hands"], "wall": deal["wall"], "dealer": 0, "dice": [2, 3]}


@pytest.mark.parametrize("defer", [True, False])
def test_early_payments_are_the_reward_of_each_seats_first_decision(defer):
    """Seat 1 declares 四喜 before anybody else decides: seats 0, 2, 3 pay. RLlib keeps a reward
    that reaches an agent before its first action as a "hanging" reward and never trains on it.
    Deferred, each payment appears in ``env.rewards`` (and so in ``last()``) only after its seat's
    first decision; either way the per-seat totals equal the settlement."""
    env = raw_env(rules="mainstream", defer_early_payments=defer)
    env.reset(options={"scenario": _opening_scenario()})
    totals = dict.fromkeys(env.possible_agents, 0.0)
    acted = set()
    early = []  # rewards given to an agent before its first decision
    while env.agents:
        agent = env.agent_selection
        if all(env.terminations.values()):
            break
        for a, r in env.rewards.items():
            totals[a] += r
            if r and a not in acted and not env.terminations[a]:  # the end pays everybody
                early.append((a, r))
        _, cumulative, _, _, _ = env.last()
        if cumulative and agent not in acted:  # what RLlib would park as a hanging reward
            early.append((agent, cumulative))
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(A.declare("SIXI") if mask[A.declare("SIXI")] else int(np.flatnonzero(mask)[0]))
        acted.add(agent)
    for a, r in env.rewards.items():  # the terminal step: every agent's last() carries it
        totals[a] += r
    payments = env.unwrapped.game.result.payments
    assert [totals[a] for a in env.possible_agents] == list(payments) and sum(totals.values()) == 0
    if defer:
        assert early == []
    else:
        assert ("player_2", -4.0) in early and ("player_0", -5.0) in early  # before their first decision

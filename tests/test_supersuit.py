"""SuperSuit's observation wrappers on the plain-Box view (``box=True``: the planes alone, the
mask in the infos): PettingZoo's ``api_test`` passes on top of each, on both rulesets."""

from __future__ import annotations

import numpy as np
import pytest
import supersuit as ss
from pettingzoo.test import api_test, seed_test

from cnmahjong.agents import make_policy
from cnmahjong.envs.changsha.env import env as changsha_env
from cnmahjong.envs.hangzhou.env import env as hangzhou_env

WRAPPERS = {
    "flatten_v0": ss.flatten_v0,
    "dtype_v0": lambda e: ss.dtype_v0(e, np.float16),
    "normalize_obs_v0": lambda e: ss.normalize_obs_v0(e, env_min=-1.0, env_max=1.0),
    "frame_stack_v1": lambda e: ss.frame_stack_v1(e, 3),
    "agent_indicator_v0": ss.agent_indicator_v0,
    "pad_observations_v0": ss.pad_observations_v0,
}


@pytest.mark.parametrize("make_env", [changsha_env, hangzhou_env], ids=["changsha", "hangzhou"])
@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
def test_supersuit_wrapper_passes_the_api_test(wrapper, make_env):
    api_test(WRAPPERS[wrapper](make_env(box=True)), num_cycles=150)


@pytest.mark.parametrize("make_env", [changsha_env, hangzhou_env], ids=["changsha", "hangzhou"])
def test_wrapped_observations_keep_the_planes_and_the_mask(make_env):
    """flatten_v0 over normalize_obs_v0 gives the planes mapped to [-1, 1], flat; the mask in the
    infos is the seat's legal actions; every seat's rewards add up to its settlement."""
    env = ss.flatten_v0(ss.normalize_obs_v0(make_env(box=True), env_min=-1.0, env_max=1.0))
    raw = env.unwrapped
    greedy = make_policy("greedy", seed=0, ruleset=raw.RULESET.name)  # hands that pay
    paid = 0
    for seed in range(6):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            for a in env.agents:
                totals[a] += raw.rewards[a]
            planes = raw.observe(agent)
            assert obs.shape == (planes.size,) and np.allclose(obs, planes.reshape(-1) * 2 - 1)
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(info["action_mask"])
            assert legal.tolist() == raw.game.legal_actions(raw.agent_name_mapping[agent])
            env.step(greedy(planes, info["action_mask"]))
        assert [totals[a] for a in env.possible_agents] == list(raw.game.result.payments)
        paid += any(raw.game.result.payments)
    assert paid >= 2


@pytest.mark.parametrize("make_env", [changsha_env, hangzhou_env], ids=["changsha", "hangzhou"])
def test_box_env_passes_the_seed_test(make_env):
    seed_test(lambda: make_env(box=True), num_cycles=200)

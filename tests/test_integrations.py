"""Observation options for RL libraries: flat vectors, uint8 planes, RLlib's key names."""

import numpy as np
import pytest
from pettingzoo.test import api_test

from cnmahjong.envs.changsha import env
from cnmahjong.envs.changsha.observation import SHAPE, planes_to_float
from cnmahjong.envs.integrations.observations import ObservationOptions


@pytest.mark.parametrize("flat, dtype, key", [(True, "float32", "observations"), (False, "uint8", "observation"),
                                              (True, "uint8", "obs")])
def test_options_keep_the_information_and_pass_the_api_test(flat, dtype, key):
    wrapped = ObservationOptions(env(), flat=flat, dtype=dtype, obs_key=key)
    api_test(wrapped, num_cycles=200)
    plain = env()
    wrapped.reset(seed=4)
    plain.reset(seed=4)
    for agent in wrapped.agent_iter(max_iter=300):
        obs, _, term, trunc, _ = wrapped.last()
        ref = plain.observe(agent)
        assert wrapped.observation_space(agent).contains(obs)
        planes = obs[key].reshape(SHAPE)
        got = planes_to_float(planes) if dtype == "uint8" else planes
        assert got.tobytes() == ref["observation"].tobytes()
        assert np.array_equal(obs["action_mask"], ref["action_mask"])
        action = None if term or trunc else int(wrapped.action_space(agent).sample())
        wrapped.step(action)
        plain.step(action)


def test_bad_options():
    with pytest.raises(ValueError, match="dtype 'float16'"):
        ObservationOptions(env(), dtype="float16")
    with pytest.raises(ValueError, match="obs_key"):
        ObservationOptions(env(), obs_key="action_mask")
    with pytest.raises(TypeError, match="flat"):
        ObservationOptions(env(), flat=1)

"""SingleAgentEnv: a Gymnasium env for one learning seat against fixed policies."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cnmahjong.agents import RandomAgent
from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.game import IllegalActionError
from cnmahjong.envs.changsha.observation import SHAPE
from cnmahjong.envs.wrappers import SingleAgentEnv


def test_passes_gymnasium_check_env():
    check_env(SingleAgentEnv(seat=2, illegal_action="penalize"), skip_render_check=True)


def test_illegal_action_raises_by_default_and_penalize_keeps_state():
    e = SingleAgentEnv(seat=0)
    obs, _ = e.reset(seed=0)
    bad = int(np.flatnonzero(~e.action_masks())[0])
    with pytest.raises(IllegalActionError, match="cannot play"):
        e.step(bad)
    p = SingleAgentEnv(seat=0, illegal_action="penalize", illegal_penalty=3.0)
    obs, _ = p.reset(seed=0)
    obs2, reward, done, trunc, info = p.step(bad)
    assert reward == -3.0 and not done and info["illegal_action"]
    np.testing.assert_array_equal(obs, obs2)


def test_spaces_and_masks():
    e = SingleAgentEnv()
    obs, info = e.reset(seed=1)
    assert obs.shape == SHAPE and obs.dtype == np.float32 and e.observation_space.contains(obs)
    m = e.action_masks()
    assert m.dtype == bool and m.shape == (A.NUM_ACTIONS,) and m.sum() >= 1
    assert info["seat"] in range(4)


def test_learner_gets_full_settlement_even_when_the_hand_ends_elsewhere():
    """Over many hands the learner's episode return equals its settlement in the engine."""
    for seed in range(60):
        e = SingleAgentEnv(seat=seed % 4, opponents=[RandomAgent(seed=i) for i in range(3)])
        e.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(e.action_masks())
            a = A.HU if A.HU in legal else int(legal[0])
            _, r, done, _, info = e.step(a)
            total += r
        assert total == pytest.approx(e.aec.game.result.payments[e.seat])
        assert info["result"]["payments"][e.seat] == e.aec.game.result.payments[e.seat]


def test_opponent_validation():
    with pytest.raises(ValueError, match="three callables"):
        SingleAgentEnv(opponents=[RandomAgent()])
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv(seat=5)
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv(illegal_action="ignore")


def test_seeded_reset_is_reproducible():
    a, b = SingleAgentEnv(), SingleAgentEnv()
    oa, ia = a.reset(seed=7)
    ob, ib = b.reset(seed=7)
    np.testing.assert_array_equal(oa, ob)
    assert ia["seat"] == ib["seat"]

"""Baseline agents: legal actions only, the greedy rules, and checkpoints as policies."""

import numpy as np
import pytest
import torch

from cnmahjong.agents import GreedyAgent, RandomAgent, make_policy
from cnmahjong.agents.play import play_episode
from cnmahjong.agents.torch_policy import ActorCritic, TorchPolicy
from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.env import raw_env
from cnmahjong.envs.changsha.observation import ENCODER, encode
from tests.scenario import READY_55P, build, pass_claims, t, to_seat1_discard


def play(policies, seed, rules="mainstream"):
    """One hand through the env; asserts every chosen action is in the mask."""
    env = raw_env(rules=rules)

    def check(seat, obs, action):
        assert obs["action_mask"][action] == 1, (seat, action)

    play_episode(env, policies, seed=seed, on_decision=check)
    return env.game.result


@pytest.fixture(scope="module")
def pt_checkpoint(tmp_path_factory):
    path = tmp_path_factory.mktemp("ckpt") / "net.pt"
    net = ActorCritic([32])
    torch.save({"state_dict": net.state_dict(), "net_arch": [32], "encoder": ENCODER}, path)
    return path


def test_agents_only_choose_masked_actions(pt_checkpoint):
    torch_policy = TorchPolicy(pt_checkpoint, deterministic=False)
    for seed in range(12):
        play([GreedyAgent(), RandomAgent(seed), torch_policy, GreedyAgent()], seed,
             rules="classic" if seed % 2 else "mainstream")


def test_greedy_wins_and_declares_when_it_can():
    g = to_seat1_discard({3: READY_55P})
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[g.legal_actions(3)] = 1
    assert GreedyAgent()(encode(g, 3), mask) == A.HU


def test_greedy_discards_the_isolated_tile():
    # four sets 123m 456m 789s 555p plus two lone tiles 9p and 1s: throw one of those
    g = build({0: "123m456m789s555p9p1s"}, "", filler_wall=20)
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[g.legal_actions(0)] = 1
    assert GreedyAgent()(encode(g, 0), mask) in (t("9p"), t("1s"))


def test_greedy_declines_haidi_when_not_ready_and_takes_when_ready():
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[[A.HAIDI_TAKE, A.HAIDI_DECLINE]] = 1
    g = build({0: "5m9m147s147p9s9p28s36p", 1: READY_55P}, "3s9p")
    g.step(0, t("9m"))
    pass_claims(g)
    g.step(1, t("3s"))
    pass_claims(g)
    assert g.phase == "haidi" and g.to_act == [2]
    assert GreedyAgent()(encode(g, 2), mask) == A.HAIDI_DECLINE  # a filler hand is far from ready
    g.step(2, A.HAIDI_DECLINE)
    g.step(3, A.HAIDI_DECLINE)
    g.step(0, A.HAIDI_DECLINE)
    assert GreedyAgent()(encode(g, 1), mask) == A.HAIDI_TAKE  # seat 1 is ready


def test_make_policy_names():
    assert isinstance(make_policy("random"), RandomAgent)
    assert isinstance(make_policy("greedy"), GreedyAgent)
    with pytest.raises(ValueError, match="unknown policy"):
        make_policy("smart")
    with pytest.raises(ValueError, match="does not exist"):
        make_policy("ckpt:/nonexistent/model.zip")


def test_torch_checkpoint_checks_encoder(tmp_path):
    path = tmp_path / "old.pt"
    torch.save({"state_dict": ActorCritic([8]).state_dict(), "net_arch": [8], "encoder": "cs-v9"}, path)
    with pytest.raises(ValueError, match="encoder"):
        TorchPolicy(path)


def test_greedy_beats_random_in_the_arena():
    from cnmahjong.training.arena import evaluate

    report = evaluate(["greedy", "random", "random", "random"], deals=60, workers=1, progress=False)
    greedy = report["reports"][0]
    assert greedy["ci95"][0] > 0 and greedy["win_rate"] > 0.2


def test_shipped_pretrained_agent_loads_and_plays_legal_moves():
    from cnmahjong.agents import PRETRAINED

    assert PRETRAINED.exists() and PRETRAINED.stat().st_size <= 10 * 2**20
    policy = make_policy("pretrained")
    for seed in range(4):
        play([policy, GreedyAgent(), policy, RandomAgent(seed)], seed)
    # the batched path plays the same moves as one call per decision
    env = raw_env()
    env.reset(seed=3)
    obs = [env.observe(env.agent_selection)]
    batch = policy.act_batch(np.stack([o["observation"] for o in obs]), np.stack([o["action_mask"] for o in obs]))
    assert batch.tolist() == [policy(obs[0]["observation"], obs[0]["action_mask"])]

"""Hangzhou through the learning stack: greedy agent, arena, single-agent wrapper, self-play
trainer and checkpoints (seconds each)."""

from __future__ import annotations

import numpy as np
import pytest

from cnmahjong.agents import GreedyAgent, make_policy
from cnmahjong.agents.play import play_episode
from cnmahjong.envs.core.ruleset import ruleset_of_rules
from cnmahjong.envs.hangzhou.env import raw_env
from cnmahjong.envs.hangzhou.rules import RuleConfig
from cnmahjong.training.arena import evaluate


def test_ruleset_of_rules_names_the_game():
    assert ruleset_of_rules("hangzhou").name == "hangzhou"
    assert ruleset_of_rules("classic").name == "changsha"
    assert ruleset_of_rules(RuleConfig()).name == "hangzhou"
    assert ruleset_of_rules({"liability": False}).name == "hangzhou"
    assert ruleset_of_rules({"bird_count": 1}).name == "changsha"
    with pytest.raises(ValueError, match="guangdong"):
        ruleset_of_rules("guangdong")


def test_greedy_plays_legal_hangzhou_actions_and_beats_random():
    env = raw_env()

    def check(seat, obs, action):
        assert obs["action_mask"][action] == 1

    for seed in range(5):
        play_episode(env, [GreedyAgent()] * 4, seed=seed, on_decision=check)
    report = evaluate(["greedy", "random", "random", "random"], 40, "hangzhou", workers=1, progress=False)
    greedy = report["reports"][0]
    assert report["rules"] == RuleConfig().to_dict() and report["unit"] == "points"
    assert greedy["ci95"][0] > 0 and greedy["win_rate"] > 0.3


def test_single_agent_wrapper_takes_hangzhou():
    from gymnasium.utils.env_checker import check_env

    from cnmahjong.envs.wrappers import SingleAgentEnv

    e = SingleAgentEnv(rules="hangzhou", opponents=[GreedyAgent()] * 3, illegal_action="penalize")
    check_env(e, skip_render_check=True)
    obs, _ = e.reset(seed=2)
    assert obs.shape == (145, 34) and e.action_masks().shape == (75,)


def test_selfplay_trainer_runs_hangzhou_and_its_checkpoint_plays(tmp_path):
    from cnmahjong.training.train import main

    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(f"""
algo: selfplay_ppo
rules: hangzhou
run_dir: {tmp_path / 'hz'}
total_timesteps: 600
num_workers: 1
tables_per_worker: 8
steps_per_rollout: 16
greedy_weight: 1
bc_decisions: 200
bc_epochs: 1
arch: conv
net_arch: [32]
batch_size: 128
n_epochs: 1
""")
    final = main(["--config", str(cfg)])
    policy = make_policy(f"ckpt:{final}")
    assert policy._net.encoder == "hz-v0"
    e = raw_env()
    e.reset(seed=1)
    obs, *_ = e.last()
    assert obs["action_mask"][policy(obs["observation"], obs["action_mask"])] == 1
    batch = policy.act_batch(np.stack([obs["observation"]] * 3), np.stack([obs["action_mask"]] * 3))
    assert all(obs["action_mask"][a] == 1 for a in batch)
    report = evaluate([f"ckpt:{final}", "greedy", "random", "random"], 4, "hangzhou", progress=False)
    assert len(report["reports"]) == 4


def test_a_changsha_checkpoint_refuses_hangzhou_observations():
    policy = make_policy("pretrained")
    e = raw_env()
    e.reset(seed=0)
    obs, *_ = e.last()
    with pytest.raises(ValueError, match="cs-v0"):
        policy(obs["observation"], obs["action_mask"])


def test_tianshou_shared_seat_env_plays_hangzhou_whole_settlements():
    from cnmahjong.envs.integrations.tianshou import QNet, SharedSeatEnv

    qnet = QNet([32], encoder="hz-v0")
    env = SharedSeatEnv(qnet, "hangzhou", reward_scale=1.0)
    assert env.observation_space["obs"].shape == (145 * 34,) and env.action_space.n == 75
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(obs["mask"])
            obs, reward, done, _, info = env.step(int(legal[0]))
            total += reward
        seat = env.inner.seat
        assert total == env.inner.aec.game.result.payments[seat]
    with pytest.raises(ValueError, match="hz-v0"):
        SharedSeatEnv(QNet([32]), "hangzhou")


def test_rllib_env_and_module_take_hangzhou():
    pytest.importorskip("ray")
    import torch

    from cnmahjong.envs.integrations.rllib import MaskedActorCriticModule, make_env, ppo_config

    env = make_env({"rules": "hangzhou"})
    space = env.observation_space["player_0"]
    assert space["observations"].shape == (145 * 34,) and env.action_space["player_0"].n == 75
    config = ppo_config(num_env_runners=0, env_config={"rules": "hangzhou"})
    spec = config._rl_module_spec.rl_module_specs["shared"]
    assert spec.model_config["encoder"] == "hz-v0"
    module = MaskedActorCriticModule(observation_space=space, action_space=env.action_space["player_0"],
                                     model_config=spec.model_config)
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    batch = {"obs": {"observations": torch.as_tensor(o["observations"][None]),
                     "action_mask": torch.as_tensor(o["action_mask"][None])}}
    logits = module._forward(batch)["action_dist_inputs"]
    assert logits.shape == (1, 75) and int(logits.argmax()) in np.flatnonzero(o["action_mask"])


def test_tianshou_dqn_trains_on_hangzhou_and_its_checkpoint_plays(tmp_path):
    import json

    from cnmahjong.training.train import main

    cfg = tmp_path / "ts.yaml"
    cfg.write_text(f"""
algo: tianshou_dqn
rules: hangzhou
run_dir: {tmp_path / 'run'}
total_timesteps: 800
epoch_steps: 400
collect_steps: 200
batch_size: 64
buffer_size: 2000
n_envs: 2
net_arch: [32]
reward_scale: 1.0
""")
    final = main(["--config", str(cfg)])
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert max(r["settlement_mismatch"] for r in log) == 0.0
    policy = make_policy(f"ckpt:{final}")
    assert policy._net.encoder == "hz-v0"
    env = raw_env()

    def check(seat, obs, action):
        assert obs["action_mask"][action] == 1

    play_episode(env, [policy] * 4, seed=3, on_decision=check)

"""Tianshou DQN with one network shared by the four seats (``envs/integrations/tianshou.py``).

    python -m cnmahjong.training.train --config configs/tianshou_dqn.yaml

Each of ``n_envs`` envs is one learning seat per hand (drawn at random) whose
three other seats the same network plays; rewards are the seat's whole
settlement (``SingleAgentEnv``). Writes ``run_dir/model.pt``, an arena
checkpoint (``ckpt:PATH``), and ``log.jsonl`` (one line per epoch).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any


class _Deadline(Exception):
    """Raised from the trainer's per-collection hook once ``max_minutes`` have passed."""


def train(cfg: dict[str, Any]) -> Path:
    """DQN epochs until ``total_timesteps`` env steps or ``max_minutes`` (checked before every
    collection, so a run ends within one collection of its deadline; the clock starts after the
    set-up); returns ``model.pt``."""
    import torch
    from tianshou.algorithm import DQN
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams

    from cnmahjong.envs.core.ruleset import ruleset_of_preset
    from cnmahjong.envs.integrations.tianshou import QNet, SharedSeatEnv, save_qnet

    torch.manual_seed(cfg["seed"])
    run_dir = Path(cfg["run_dir"])
    run_dir.mkdir(parents=True, exist_ok=True)
    qnet = QNet(cfg["net_arch"], cfg["arch"], encoder=ruleset_of_preset(cfg["rules"]).encoder_name)
    envs = DummyVectorEnv([lambda: SharedSeatEnv(qnet, cfg["rules"], cfg["reward_scale"])
                           for _ in range(cfg["n_envs"])])
    envs.seed(cfg["seed"])
    probe = SharedSeatEnv(qnet, cfg["rules"], cfg["reward_scale"])
    policy = DiscreteQLearningPolicy(model=qnet, action_space=probe.action_space,
                                     observation_space=probe.observation_space, eps_training=cfg["eps_training"])
    algo = DQN(policy=policy, optim=AdamOptimizerFactory(lr=cfg["learning_rate"]), gamma=cfg["gamma"],
               n_step_return_horizon=cfg["n_step"], target_update_freq=cfg["target_update_freq"])
    buffer = VectorReplayBuffer(cfg["buffer_size"], cfg["n_envs"])
    collector = Collector(algo, envs, buffer, exploration_noise=True)
    collector.reset()
    collector.collect(n_step=cfg["batch_size"] * cfg["n_envs"])
    start = time.time()
    deadline = None if cfg["max_minutes"] is None else start + 60 * cfg["max_minutes"]
    collected = [0]  # env steps of the epoch in progress (the hook sees the trainer's count)

    def before_collect(epoch: int, env_step: int) -> None:
        collected[0] = env_step
        if deadline is not None and time.time() >= deadline:
            raise _Deadline

    params = OffPolicyTrainerParams(
        training_fn=before_collect,
        training_collector=collector, max_epochs=1, epoch_num_steps=cfg["epoch_steps"],
        collection_step_num_env_steps=cfg["collect_steps"], batch_size=cfg["batch_size"],
        update_step_num_gradient_steps_per_sample=cfg["updates_per_step"], test_collector=None,
        show_progress=False,
    )
    steps = epoch = 0
    try:
        with (run_dir / "log.jsonl").open("w", encoding="utf-8") as log:
            while steps < cfg["total_timesteps"] and (deadline is None or time.time() < deadline):
                try:
                    algo.run_training(params)  # one epoch
                    steps += cfg["epoch_steps"]
                except _Deadline:  # stopped inside the epoch: count what it collected
                    steps += collected[0]
                    deadline = time.time()
                epoch += 1
                done = [pair for w in envs.workers for pair in w.env.finished]
                log.write(json.dumps({
                    "epoch": epoch, "env_steps": steps, "minutes": (time.time() - start) / 60, "hands": len(done),
                    "mean_return": float(sum(r for r, _ in done) / len(done)) if done else 0.0,
                    "settlement_mismatch": max((abs(r - p) for r, p in done), default=0.0),
                }) + "\n")
                log.flush()
                print(f"\repoch {epoch}  env steps {steps:,}/{cfg['total_timesteps']:,}  hands {len(done):,}   ",
                      end="", flush=True)
        print()
    finally:
        envs.close()
    return save_qnet(qnet, run_dir / "model.pt")

"""Tianshou DQN with one network shared by the four seats (``envs/integrations/tianshou.py``).

    python -m cnmahjong.training.train --config configs/tianshou_dqn.yaml

Each of ``n_envs`` envs is one learning seat per hand (drawn at random) whose
three other seats the same network plays; rewards are the seat's whole
settlement (``SingleAgentEnv``). Writes ``run_dir/model.pt``, an arena
checkpoint (``ckpt:PATH``), and ``log.jsonl`` (one line per epoch). Every hyper-parameter is a
field of ``Args`` below; a YAML config overrides some of them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cnmahjong.training.config import (
    AT_LEAST_1,
    NON_NEGATIVE,
    POSITIVE,
    UNIT,
    Range,
    default_rules,
    hp,
    layer_widths,
    parse,
    rule_presets,
)


@dataclass(frozen=True)
class Args:
    """The hyper-parameters (a config's keys), their defaults and what is allowed."""

    algo: str = hp("tianshou_dqn", choices=("tianshou_dqn",))
    run_dir: str = hp("runs/train")
    rules: str = hp(factory=default_rules, choices=rule_presets)  # a preset of any registered ruleset
    seed: int = hp(0, within=NON_NEGATIVE)
    total_timesteps: int = hp(200_000, within=AT_LEAST_1)  # learner-seat steps
    max_minutes: float | None = hp(None, within=POSITIVE)  # stop early (None: run to total_timesteps)
    # -- the network
    arch: str = hp("mlp", choices=("mlp", "conv"))
    net_arch: list[int] = hp(factory=lambda: [256, 256], check=layer_widths)
    # -- collection
    n_envs: int = hp(4, within=AT_LEAST_1)  # envs, each one learning seat per hand (the others: the same network)
    reward_scale: float = hp(10.0, within=POSITIVE)  # settlements are divided by this
    buffer_size: int = hp(100_000, within=AT_LEAST_1)
    epoch_steps: int = hp(10_000, within=AT_LEAST_1)
    collect_steps: int = hp(256, within=AT_LEAST_1)  # env steps per collection
    eps_training: float = hp(0.1, within=UNIT)  # ε-greedy exploration
    # -- DQN
    updates_per_step: float = hp(0.1, within=POSITIVE)  # gradient steps per collected step
    batch_size: int = hp(256, within=AT_LEAST_1)
    learning_rate: float = hp(3e-4, within=POSITIVE)
    gamma: float = hp(0.99, within=Range(0, 1, low_open=True))
    n_step: int = hp(3, within=AT_LEAST_1)  # n-step returns
    target_update_freq: int = hp(500, within=NON_NEGATIVE)


class _Deadline(Exception):
    """Raised from the trainer's per-collection hook once ``max_minutes`` have passed."""


def train(cfg: Mapping[str, Any] | Args) -> Path:
    """DQN epochs until ``total_timesteps`` env steps or ``max_minutes`` (checked before every
    collection, so a run ends within one collection of its deadline; the clock starts after the
    set-up); returns ``model.pt``. ``cfg``: a config mapping (validated here) or ``Args``."""
    args = parse(cfg, Args)
    import torch
    from tianshou.algorithm import DQN
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams

    from cnmahjong.envs.core.ruleset import ruleset_of_preset
    from cnmahjong.envs.integrations.tianshou import QNet, SharedSeatEnv, save_qnet

    torch.manual_seed(args.seed)
    run_dir = Path(args.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    qnet = QNet(args.net_arch, args.arch, encoder=ruleset_of_preset(args.rules).encoder_name)
    envs = DummyVectorEnv([lambda: SharedSeatEnv(qnet, args.rules, args.reward_scale)
                           for _ in range(args.n_envs)])
    envs.seed(args.seed)
    probe = SharedSeatEnv(qnet, args.rules, args.reward_scale)
    policy = DiscreteQLearningPolicy(model=qnet, action_space=probe.action_space,
                                     observation_space=probe.observation_space, eps_training=args.eps_training)
    algo = DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.learning_rate), gamma=args.gamma,
               n_step_return_horizon=args.n_step, target_update_freq=args.target_update_freq)
    buffer = VectorReplayBuffer(args.buffer_size, args.n_envs)
    collector = Collector(algo, envs, buffer, exploration_noise=True)
    collector.reset()
    collector.collect(n_step=args.batch_size * args.n_envs)
    start = time.time()
    deadline = None if args.max_minutes is None else start + 60 * args.max_minutes
    collected = [0]  # env steps of the epoch in progress (the hook sees the trainer's count)

    def before_collect(epoch: int, env_step: int) -> None:
        collected[0] = env_step
        if deadline is not None and time.time() >= deadline:
            raise _Deadline

    params = OffPolicyTrainerParams(
        training_fn=before_collect,
        training_collector=collector, max_epochs=1, epoch_num_steps=args.epoch_steps,
        collection_step_num_env_steps=args.collect_steps, batch_size=args.batch_size,
        update_step_num_gradient_steps_per_sample=args.updates_per_step, test_collector=None,
        show_progress=False,
    )
    steps = epoch = 0
    try:
        with (run_dir / "log.jsonl").open("w", encoding="utf-8") as log:
            while steps < args.total_timesteps and (deadline is None or time.time() < deadline):
                try:
                    algo.run_training(params)  # one epoch
                    steps += args.epoch_steps
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
                print(f"\repoch {epoch}  env steps {steps:,}/{args.total_timesteps:,}  hands {len(done):,}   ",
                      end="", flush=True)
        print()
    finally:
        envs.close()
    return save_qnet(qnet, run_dir / "model.pt")

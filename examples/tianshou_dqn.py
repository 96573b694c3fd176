"""DQN on Chinese mahjong with Tianshou 2.x, one network shared by the four seats.

A single-file, CleanRL-style example: every hyper-parameter is a flag below, and the loop
(warm-up, epochs of collect + update, a greedy test per epoch) is written out here. Run it
from the repository root:

    python examples/tianshou_dqn.py --steps 3000                      # Changsha (mainstream rules)
    python examples/tianshou_dqn.py --steps 3000 --rules hangzhou     # Hangzhou (hz-v0 planes)
    python examples/tianshou_dqn.py --steps 100000 --save runs/dqn.pt # then: ckpt:runs/dqn.pt in the arena

How the rewards reach every seat: each env is ONE learning seat per hand (drawn at random),
and the network plays the three other seats itself (``SharedSeatEnv``). A step's reward is
everything the learning seat was paid since its previous decision, so the settlement of a
hand that another seat ends (a discard won on, a self-drawn win) still lands in the learning
seat's last transition. The script checks it at the end: for every finished hand,
|return - settlement| must be 0 up to a float's rounding (``ROUNDING``), else it exits with status 1.

The envs run in-process (``DummyVectorEnv``): the other seats must read the live network. On a
small machine keep ``--torch-threads 1`` (the default): the network is small and one thread per
process avoids oversubscribing the cores that also play the game.
"""

# ruff: noqa: E402  (NUMBA_DISABLE_JIT is set before Tianshou imports Numba)
from __future__ import annotations

import os

# Tianshou compiles a few replay-buffer and n-step-return kernels with Numba on first use: about
# 15 s on a 2-core machine, more than the kernels save in a run of this size (they loop over
# envs and n steps, not over the batch). NUMBA_DISABLE_JIT=0 in the environment turns it back on.
os.environ.setdefault("NUMBA_DISABLE_JIT", "1")

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.torch_utils import policy_within_training_step

from cnmahjong.envs.core.ruleset import PRESETS, ruleset_of_preset
from cnmahjong.envs.integrations.tianshou import QNet, SharedSeatEnv, save_qnet


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    # the run
    p.add_argument("--steps", type=int, default=20_000,
                   help="training env steps of the learning seats (after the --learning-starts warm-up)")
    p.add_argument("--rules", default="mainstream", choices=sorted(PRESETS), help="rule preset")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--torch-threads", type=int, default=1, help="torch.set_num_threads (1 on a 2-core machine)")
    p.add_argument("--save", default=None, metavar="PATH", help="save the network here (an arena ckpt:PATH)")
    # envs
    p.add_argument("--train-envs", type=int, default=4, help="training envs, each one learning seat per hand")
    p.add_argument("--test-envs", type=int, default=2)
    p.add_argument("--test-hands", type=int, default=10, help="greedy test hands after each epoch (0: no test)")
    p.add_argument("--reward-scale", type=float, default=10.0, help="settlements are divided by this")
    # network
    p.add_argument("--net-arch", type=int, nargs="+", default=[256, 256], help="hidden layer sizes")
    p.add_argument("--arch", default="mlp", choices=["mlp", "conv"], help="ActorCritic body")
    # DQN
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--n-step", type=int, default=3, help="n-step return horizon")
    p.add_argument("--target-update-freq", type=int, default=500, help="gradient steps between target syncs")
    p.add_argument("--buffer-size", type=int, default=20_000,
                   help="transitions kept (each holds obs and next obs: 20,000 Changsha ones are ~0.5 GB)")
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--learning-starts", type=int, default=512, help="random-play env steps before learning")
    p.add_argument("--epoch-steps", type=int, default=1000, help="env steps per epoch (one stats line each)")
    p.add_argument("--collect-steps", type=int, default=100, help="env steps per collection")
    p.add_argument("--updates-per-step", type=float, default=0.1, help="gradient steps per collected env step")
    # epsilon-greedy: linear from --eps-start to --eps-end over --exploration-fraction of the steps
    p.add_argument("--eps-start", type=float, default=1.0)
    p.add_argument("--eps-end", type=float, default=0.05)
    p.add_argument("--exploration-fraction", type=float, default=0.5)
    p.add_argument("--eps-test", type=float, default=0.0, help="epsilon of the test hands")
    return p.parse_args(argv)


def linear_schedule(start: float, end: float, duration: float, t: int) -> float:
    return max(end, start + (end - start) * t / max(duration, 1.0))


ROUNDING = 1e-9
"""The most a finished hand's return may differ from its settlement / scale (float sums)."""


def finished_hands(envs: DummyVectorEnv) -> list[tuple[float, float]]:
    """(return, settlement / reward_scale) of every hand the learning seats finished so far."""
    return [pair for worker in envs.workers for pair in worker.env.finished]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's epsilon-greedy draws from numpy's global generator

    # --- the shared network and the envs (every env holds the same qnet: it plays the other seats)
    qnet = QNet(args.net_arch, args.arch, encoder=ruleset_of_preset(args.rules).encoder_name)

    def make_env() -> SharedSeatEnv:
        return SharedSeatEnv(qnet, rules=args.rules, reward_scale=args.reward_scale)

    train_envs = DummyVectorEnv([make_env for _ in range(args.train_envs)])
    test_envs = DummyVectorEnv([make_env for _ in range(args.test_envs)])
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 10_000)
    probe = make_env()
    print(f"rules {args.rules}: obs {probe.observation_space['obs'].shape}, "
          f"actions {probe.action_space.n}, {args.train_envs} train envs, {args.test_envs} test envs")

    # --- policy (argmax of the masked Q-values) and algorithm
    policy = DiscreteQLearningPolicy(model=qnet, action_space=probe.action_space,
                                     observation_space=probe.observation_space,
                                     eps_training=args.eps_start, eps_inference=args.eps_test)
    algo = DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=args.gamma,
               n_step_return_horizon=args.n_step, target_update_freq=args.target_update_freq)

    # --- replay buffer and collectors
    buffer = VectorReplayBuffer(args.buffer_size, args.train_envs)
    train_collector = Collector(algo, train_envs, buffer, exploration_noise=True)
    test_collector = Collector(algo, test_envs, exploration_noise=True)  # noise = eps_inference (--eps-test)
    train_collector.reset()

    start = time.time()
    # --- warm-up: random legal moves (eps = eps_start) fill the buffer before the first update
    with policy_within_training_step(policy):
        train_collector.collect(n_step=args.learning_starts)
    warmup = train_collector.collect_step

    def set_eps(epoch: int, env_step: int) -> None:  # called before every collection (env_step: training steps)
        policy.set_eps_training(linear_schedule(args.eps_start, args.eps_end,
                                                args.exploration_fraction * args.steps, env_step))

    epoch_steps = min(args.epoch_steps, args.steps)
    epochs = max(1, math.ceil(args.steps / epoch_steps))
    params = OffPolicyTrainerParams(
        training_collector=train_collector,
        test_collector=test_collector if args.test_hands > 0 else None,
        test_step_num_episodes=max(args.test_hands, 1),
        max_epochs=epochs,
        epoch_num_steps=epoch_steps,
        collection_step_num_env_steps=args.collect_steps,
        update_step_num_gradient_steps_per_sample=args.updates_per_step,
        batch_size=args.batch_size,
        training_fn=set_eps,
        verbose=False,
        show_progress=False,
    )
    trainer = algo.create_trainer(params)
    trainer.reset(reset_collectors=False)  # keep the warm-up's buffer and the hands in progress

    # --- the loop: one line per epoch
    seen = len(finished_hands(train_envs))
    for _ in range(epochs):
        epoch_start, steps_before = time.time(), train_collector.collect_step
        stats = trainer.execute_epoch()
        done = finished_hands(train_envs)
        new, seen = done[seen:], len(done)
        mean_return = sum(r for r, _ in new) / len(new) if new else float("nan")
        loss = stats.training_stat.smoothed_loss.get("loss", float("nan")) if stats.training_stat else float("nan")
        test = stats.test_collect_stat
        test_text = (f"test return {test.returns_stat.mean:+7.3f} ± {test.returns_stat.std:.3f}"
                     if test is not None else "no test")
        steps = train_collector.collect_step - warmup
        print(f"epoch {stats.epoch:3d}/{epochs}  steps {steps:7,d}  hands {len(new):4d}  "
              f"return {mean_return:+7.3f}  {test_text}  loss {loss:8.4f}  eps {policy.eps_training:.3f}  "
              f"{(train_collector.collect_step - steps_before) / (time.time() - epoch_start):6.1f} steps/s",
              flush=True)

    elapsed = time.time() - start
    steps = train_collector.collect_step
    print(f"{steps:,} env steps ({warmup:,} warm-up) in {elapsed:.1f} s: {steps / elapsed:.1f} steps/s"
          + (" (the time includes the test hands)" if args.test_hands > 0 else ""))
    if args.save:
        Path(args.save).parent.mkdir(parents=True, exist_ok=True)
        print(f"saved {save_qnet(qnet, args.save)} (arena: ckpt:{args.save})")

    # --- settlement check: each finished hand's return is the seat's settlement / scale, to a
    # float's rounding (a hand paid in parts, an opening win's or a kong's before the end, sums
    # the scaled parts: one ulp off the scaled whole)
    hands = finished_hands(train_envs) + finished_hands(test_envs)
    mismatched = [(r, p) for r, p in hands if abs(r - p) > ROUNDING]
    worst = max((abs(r - p) for r, p in hands), default=0.0)
    print(f"settlement check: {len(hands)} finished hands, {len(mismatched)} mismatched "
          f"(max |return - settlement| = {worst:g})")
    train_envs.close()
    test_envs.close()
    if not hands or mismatched:
        print("settlement check FAILED" + ("" if hands else ": no hand finished (raise --steps)"), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

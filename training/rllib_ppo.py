"""RLlib PPO (new API stack) on the rules' AEC env: one module shared by the four seats, in one file.

    python -m cnmahjong.training.train --config configs/rllib_ppo.yaml
    python -m cnmahjong.training.train --config configs/rllib_ppo.yaml --set address=HEAD_IP:6379 \
        --set node_ip_address=HEAD_IP                                                     # a running Ray cluster

The module is ``cnmahjong.envs.integrations.rllib.MaskedActorCriticModule`` (the project's
``ActorCritic`` with masked logits); ``num_env_runners`` processes sample hands.
Without ``address`` the run starts a Ray of its own with every process on ``node_ip_address``
(127.0.0.1 unless set). On a cluster the runners spread over its nodes; every node is started
with its own address, and the driver, on the head, joins it under the head's::

    ray start --head --node-ip-address=HEAD_IP --port=6379 --num-cpus=2        # the head
    ray start --address=HEAD_IP:6379 --node-ip-address=NODE_IP --num-cpus=2    # each other machine
    cnmahjong-train --config rllib_ppo --set address=HEAD_IP:6379 --set node_ip_address=HEAD_IP \
        --set num_env_runners=4                                                 # on the head

(``tests/test_rllib_cluster.py`` runs the same layout on one machine: two nodes and the driver,
all on 127.0.0.1.)
The run writes RLlib checkpoints (``run_dir/checkpoint``) and ``run_dir/model.pt``,
the module's network as a self-play checkpoint: ``ckpt:run_dir/model.pt`` plays in
the arena. ``log.jsonl`` has one line per iteration, with the per-hand check that
every seat's return (as RLlib trains on it) equals its settlement and the addresses of the
cluster's nodes. Every hyper-parameter is a field of ``Args`` below; a YAML config overrides
some of them.
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

    algo: str = hp("rllib_ppo", choices=("rllib_ppo",))
    run_dir: str = hp("runs/train")
    rules: str = hp(factory=default_rules, choices=rule_presets)  # a preset of any registered ruleset
    seed: int = hp(0, within=NON_NEGATIVE)
    total_timesteps: int = hp(200_000, within=AT_LEAST_1)  # env steps (decisions)
    max_minutes: float | None = hp(None, within=POSITIVE)  # stop early (None: run to total_timesteps)
    # -- Ray
    address: str | None = hp(None)  # a Ray cluster ("auto" or HEAD_IP:6379); None starts a local Ray
    node_ip_address: str = hp("127.0.0.1")  # this machine's node (loopback for a local Ray)
    num_cpus: int = hp(2, within=AT_LEAST_1)  # for a local Ray
    num_env_runners: int = hp(2, within=NON_NEGATIVE)
    sample_timeout_s: float = hp(600.0, within=POSITIVE)
    # -- the module
    arch: str = hp("mlp", choices=("mlp", "conv"))
    net_arch: list[int] = hp(factory=lambda: [256, 256], check=layer_widths)
    # -- PPO
    reward_scale: float = hp(10.0, within=POSITIVE)  # settlements are divided by this
    train_batch_size: int = hp(4000, within=AT_LEAST_1)  # env steps per iteration
    batch_size: int = hp(256, within=AT_LEAST_1)  # PPO minibatch
    n_epochs: int = hp(4, within=AT_LEAST_1)
    learning_rate: float = hp(3e-4, within=POSITIVE)
    gamma: float = hp(0.99, within=Range(0, 1, low_open=True))
    gae_lambda: float = hp(0.95, within=UNIT)
    clip_range: float = hp(0.2, within=POSITIVE)
    ent_coef: float = hp(0.01, within=NON_NEGATIVE)
    vf_coef: float = hp(0.5, within=NON_NEGATIVE)
    max_grad_norm: float = hp(0.5, within=POSITIVE)
    checkpoint_every_iterations: int = hp(10, within=AT_LEAST_1)


def train(cfg: Mapping[str, Any] | Args) -> Path:
    """PPO iterations until ``total_timesteps`` env steps or ``max_minutes`` (counted once the
    algorithm is built, and checked before every iteration: a run ends within one iteration, one
    collection and its learning, of its deadline); returns ``model.pt``. ``cfg``: a config mapping
    (validated here) or ``Args``."""
    args = parse(cfg, Args)
    import ray

    from cnmahjong.envs.integrations.rllib import LOOPBACK, loopback_ray, ppo_config, register_env, save_policy

    run_dir = Path(args.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    node_ip = args.node_ip_address
    if node_ip in (LOOPBACK, "localhost"):
        loopback_ray()  # Ray would otherwise replace 127.0.0.1 by the host's interface address
    if args.address:
        # the driver joins the cluster's node on this machine, the one registered as node_ip_address
        ray.init(address=args.address, _node_ip_address=node_ip)
    else:
        # a Ray of its own on this machine: every process on node_ip_address (loopback by default)
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, _node_ip_address=node_ip)
    register_env()
    config = ppo_config(
        num_env_runners=args.num_env_runners,
        env_config={"rules": args.rules, "reward_scale": args.reward_scale},
        net_arch=args.net_arch, arch=args.arch,
        lr=args.learning_rate, gamma=args.gamma, lambda_=args.gae_lambda, clip_param=args.clip_range,
        entropy_coeff=args.ent_coef, vf_loss_coeff=args.vf_coef, grad_clip=args.max_grad_norm,
        num_epochs=args.n_epochs, minibatch_size=args.batch_size,
        train_batch_size_per_learner=args.train_batch_size,
    ).debugging(seed=args.seed).env_runners(sample_timeout_s=args.sample_timeout_s)
    algo = config.build_algo()
    start = time.time()
    deadline = None if args.max_minutes is None else start + 60 * args.max_minutes
    steps = iteration = 0
    try:
        with (run_dir / "log.jsonl").open("w", encoding="utf-8") as log:
            while steps < args.total_timesteps and (deadline is None or time.time() < deadline):
                result = algo.train()
                iteration += 1
                steps = int(result.get("num_env_steps_sampled_lifetime", steps))
                runners = result.get("env_runners", {})
                record = {"iteration": iteration, "env_steps": steps, "minutes": (time.time() - start) / 60,
                          **{k: _plain(runners.get(k)) for k in ("episode_return_mean", "num_episodes",
                                                                   "settlement_mismatch", "zero_sum_error",
                                                                   "hands_with_payments")},
                          "node_addresses": sorted(n["NodeManagerAddress"] for n in ray.nodes() if n["Alive"])}
                log.write(json.dumps(record) + "\n")
                log.flush()
                left = "" if deadline is None else f"  {max(0.0, deadline - time.time()) / 60:.1f} min left"
                print(f"\riteration {iteration}  env steps {steps:,}/{args.total_timesteps:,}{left}   ",
                      end="", flush=True)
                if iteration % args.checkpoint_every_iterations == 0:
                    algo.save(str((run_dir / "checkpoint").resolve()))
        print()
        algo.save(str((run_dir / "checkpoint").resolve()))
        return save_policy(algo, run_dir / "model.pt")
    finally:
        algo.stop()
        ray.shutdown()


def _plain(value: Any) -> Any:
    """Numpy scalars as plain numbers for the JSON log."""
    return value.item() if hasattr(value, "item") else value

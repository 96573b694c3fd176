"""RLlib PPO (new API stack) on ``changsha_mahjong_v0``: one module shared by the four seats.

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
cluster's nodes.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any


def train(cfg: dict[str, Any]) -> Path:
    """PPO iterations until ``total_timesteps`` env steps or ``max_minutes`` (counted once the
    algorithm is built, and checked before every iteration: a run ends within one iteration, one
    collection and its learning, of its deadline); returns ``model.pt``."""
    import ray

    from cnmahjong.envs.integrations.rllib import LOOPBACK, loopback_ray, ppo_config, register_env, save_policy

    run_dir = Path(cfg["run_dir"])
    run_dir.mkdir(parents=True, exist_ok=True)
    node_ip = cfg["node_ip_address"]
    if node_ip in (LOOPBACK, "localhost"):
        loopback_ray()  # Ray would otherwise replace 127.0.0.1 by the host's interface address
    if cfg["address"]:
        # the driver joins the cluster's node on this machine, the one registered as node_ip_address
        ray.init(address=cfg["address"], _node_ip_address=node_ip)
    else:
        # a Ray of its own on this machine: every process on node_ip_address (loopback by default)
        ray.init(num_cpus=cfg["num_cpus"], include_dashboard=False, _node_ip_address=node_ip)
    register_env()
    config = ppo_config(
        num_env_runners=cfg["num_env_runners"],
        env_config={"rules": cfg["rules"], "reward_scale": cfg["reward_scale"]},
        net_arch=cfg["net_arch"], arch=cfg["arch"],
        lr=cfg["learning_rate"], gamma=cfg["gamma"], lambda_=cfg["gae_lambda"], clip_param=cfg["clip_range"],
        entropy_coeff=cfg["ent_coef"], vf_loss_coeff=cfg["vf_coef"], grad_clip=cfg["max_grad_norm"],
        num_epochs=cfg["n_epochs"], minibatch_size=cfg["batch_size"],
        train_batch_size_per_learner=cfg["train_batch_size"],
    ).debugging(seed=cfg["seed"]).env_runners(sample_timeout_s=cfg["sample_timeout_s"])
    algo = config.build_algo()
    start = time.time()
    deadline = None if cfg["max_minutes"] is None else start + 60 * cfg["max_minutes"]
    steps = iteration = 0
    try:
        with (run_dir / "log.jsonl").open("w", encoding="utf-8") as log:
            while steps < cfg["total_timesteps"] and (deadline is None or time.time() < deadline):
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
                print(f"\riteration {iteration}  env steps {steps:,}/{cfg['total_timesteps']:,}{left}   ",
                      end="", flush=True)
                if iteration % cfg["checkpoint_every_iterations"] == 0:
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

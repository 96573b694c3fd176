"""RLlib (new API stack): the env for RLlib's multi-agent runners and an action-masking RLModule.

One PPO iteration on one machine, every Ray process on 127.0.0.1 (the README's snippet, run as
written by ``tests/test_rllib_cluster.py``):

```python
import ray
from cnmahjong.envs.integrations.rllib import loopback_ray, ppo_config, register_env, save_policy
loopback_ray()                                   # Ray keeps 127.0.0.1 (else it swaps in the interface address)
ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1")  # one machine, loopback only
register_env()                                   # "cnmahjong_v0" for RLlib's runners
algo = ppo_config(num_env_runners=2, env_config={"reward_scale": 10.0}, net_arch=[64],
                  train_batch_size_per_learner=2000, minibatch_size=500, num_epochs=1).build_algo()
result = algo.train()                            # 2,000 env steps (~10 s on 2 cores)
print(result["env_runners"]["settlement_mismatch"])  # 0.0: every seat's return is its settlement
save_policy(algo, "rllib_model.pt")              # plays in the arena as ckpt:rllib_model.pt
```

- ``make_env(env_config)``: ``changsha_mahjong_v0`` (``hangzhou_mahjong_v0`` when
  ``env_config["rules"]`` is ``"hangzhou"``; the module then reads ``hz-v0``) through
  ``ObservationOptions(flat=True, obs_key="observations")`` (a flat Box and the
  key RLlib's masking modules expect) and RLlib's ``PettingZooEnv``. Early
  payments are deferred to each seat's first decision (the env's default), so
  RLlib's "hanging" rewards never hold a payment.
- ``MaskedActorCriticModule``: the project's ``ActorCritic`` (MLP or per-suit
  conv) as a ``TorchRLModule`` with the value-function API; illegal actions
  get logits of -1e9, so PPO never samples them. Its weights are the
  ``ActorCritic``'s, so ``save_policy`` writes a checkpoint the arena loads
  (``ckpt:PATH``).
- ``ppo_config``: PPO with one module shared by the four seats.
- ``loopback_ray``: makes ``_node_ip_address="127.0.0.1"`` (and a cluster node's
  ``node_ip_address="127.0.0.1"``) stand; see its docstring.

Ray is imported here only: the envs never depend on it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env as _register

from cnmahjong.envs.aec import aec_env
from cnmahjong.envs.core.ruleset import ruleset_of_rules
from cnmahjong.envs.integrations.networks import ActorCritic, save_actor_critic
from cnmahjong.envs.integrations.observations import ObservationOptions

LOOPBACK = "127.0.0.1"
ENV_NAME = "cnmahjong_v0"
"""The name RLlib's runners know the env by; ``env_config["rules"]`` picks the ruleset."""
POLICY = "shared"
"""One module plays every seat (parameter sharing)."""


def make_env(env_config: dict[str, Any] | None = None) -> PettingZooEnv:
    """The env as RLlib's runners take it; ``env_config`` holds ``raw_env``'s keyword arguments
    (``rules="hangzhou"`` gives ``hangzhou_mahjong_v0``)."""
    env_config = dict(env_config or {})
    env = aec_env(ruleset_of_rules(env_config.get("rules")).name)(**env_config)
    return PettingZooEnv(ObservationOptions(env, flat=True, obs_key="observations"))


def loopback_ray() -> None:
    """Let a node IP of 127.0.0.1 stand, in this process and in the Ray processes it starts.

    On Linux Ray (2.60) replaces a loopback ``ray.init(_node_ip_address=...)`` by this machine's
    interface address (``services.resolve_ip_for_localhost``: the address a socket gets towards
    the outside), so the node, its raylet and its workers register and connect on that address.
    It keeps 127.0.0.1 when its multi-node switch ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` is 0; Ray
    reads the variable once, when it is imported, so this sets it for the processes to come and
    Ray's own copy for this one (in a fresh script, ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` in the
    environment does the same). Call it before ``ray.init``; it stays set for the process.
    Several nodes on this machine (``ray.cluster_utils.Cluster``, each with
    ``node_ip_address="127.0.0.1"``) still work; only ``ray start`` of a non-head node refuses to
    run with the switch at 0. A real cluster needs none of this: give every node its own address.
    """
    from ray._private import ray_constants

    os.environ[ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False


def register_env() -> None:
    """Register ``make_env`` under ``ENV_NAME`` (in the driver; runners get it from Ray).

    Call it once per ``ray.init``. Tune files registrations under the job id it saw first in
    this process and keeps it; after a second ``ray.init`` on the same cluster (a new job id)
    the runners would look under their own id and find no env, so the id is dropped here and
    read again."""
    from ray.tune import registry

    if getattr(registry._global_registry, "_prefix", None) is not None:
        registry._global_registry._prefix = None
    _register(ENV_NAME, make_env)


class MaskedActorCriticModule(TorchRLModule, ValueFunctionAPI):
    """``ActorCritic`` over the flat planes (``model_config["encoder"]``: ``cs-v0`` or ``hz-v0``)
    with masked logits (see the module docstring)."""

    def setup(self) -> None:
        cfg = self.model_config or {}
        self.net = ActorCritic(cfg.get("net_arch", [256, 256]), cfg.get("arch", "mlp"),
                               encoder=cfg.get("encoder", "cs-v0"))

    def _net(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS]
        planes = obs["observations"].float().reshape(-1, *self.net.shape)
        return self.net(planes, obs["action_mask"])

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, _ = self._net(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self._net(batch)[1]


class SettlementCheck(RLlibCallback):
    """Per finished hand: how far each seat's return as RLlib trains on it (hanging rewards left
    out) is from its settlement. Logged as ``settlement_mismatch`` (max over hands, 0 when nothing
    is lost), ``zero_sum_error`` (max |sum of returns|) and ``hands_with_payments``."""

    def on_episode_end(self, *, episode: Any, prev_episode_chunks: Any = None, env: Any = None,
                       env_index: int = 0, metrics_logger: Any = None, **kwargs: Any) -> None:
        sub = env.envs[env_index] if hasattr(env, "envs") else env  # the runner's vector of envs
        aec = sub.unwrapped.env.unwrapped  # PettingZooEnv -> ObservationOptions -> raw_env
        game, scale = aec.game, aec.reward_scale
        chunks = [*(prev_episode_chunks or []), episode]
        returns = []
        for seat in range(4):
            aid = f"player_{seat}"
            returns.append(sum(c.agent_episodes[aid].get_return() for c in chunks if aid in c.agent_episodes))
        payments = game.result.payments
        mismatch = max(abs(r - p / scale) for r, p in zip(returns, payments, strict=True))
        metrics_logger.log_value("settlement_mismatch", mismatch, reduce="max")
        metrics_logger.log_value("zero_sum_error", abs(sum(returns)), reduce="max")
        metrics_logger.log_value("hands_with_payments", int(any(payments)), reduce="sum")


def ppo_config(num_env_runners: int = 2, env_config: dict[str, Any] | None = None,
               net_arch: list[int] | None = None, arch: str = "mlp", **training: Any) -> PPOConfig:
    """PPO on ``ENV_NAME`` with ``MaskedActorCriticModule`` shared by the four seats."""
    encoder = ruleset_of_rules((env_config or {}).get("rules")).encoder_name
    spec = RLModuleSpec(module_class=MaskedActorCriticModule,
                        model_config={"net_arch": list(net_arch or [256, 256]), "arch": arch, "encoder": encoder})
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=dict(env_config or {}))
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, *args, **kwargs: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: spec}))
        .env_runners(num_env_runners=num_env_runners)
        .callbacks(SettlementCheck)
        .training(**training)
    )


def save_policy(algo: Any, path: str | Path) -> Path:
    """The shared module's ``ActorCritic`` as a self-play checkpoint (``ckpt:PATH`` in the arena)."""
    return save_actor_critic(algo.get_module(POLICY).net, path)

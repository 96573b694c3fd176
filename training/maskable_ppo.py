"""sb3-contrib MaskablePPO on ``SingleAgentEnv`` against an opponent pool.

The pool starts with the configured policies (``random``, ``greedy``) and, every
``snapshot_every`` steps, gains a frozen snapshot of the learner. Each hand
seats three opponents drawn from the pool and the learner on a random seat.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from cnmahjong.agents import make_policy, reset_policy
from cnmahjong.envs.wrappers import SingleAgentEnv


class OpponentPool:
    """A policy that plays as a member of its pool drawn anew at every ``reset``."""

    def __init__(self, names: list[str], seed: int = 0, trust_zip: bool = False) -> None:
        self.names = list(names)
        self.members = [make_policy(n, seed=seed + i, trust_pickles=trust_zip) for i, n in enumerate(self.names)]
        self.rng = np.random.default_rng(seed)
        self.current = self.members[0]

    def add(self, name: str) -> None:
        """Add a snapshot this run wrote itself (so its ``.zip`` is trusted)."""
        self.names.append(name)
        self.members.append(make_policy(name, trust_pickles=True))

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.current = self.members[int(self.rng.integers(len(self.members)))]
        reset_policy(self.current, int(self.rng.integers(2**31)))

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.current(observation, action_mask)


class PoolEnv(SingleAgentEnv):
    """``SingleAgentEnv`` whose three opponents share one growing ``OpponentPool``."""

    def __init__(self, rules: str, opponents: list[str], reward_scale: float, seed: int,
                 trust_zip: bool = False) -> None:
        self.pools = [OpponentPool(opponents, seed=seed * 10 + i, trust_zip=trust_zip) for i in range(3)]
        super().__init__(rules=rules, opponents=self.pools, seat="random", reward_scale=reward_scale)

    def add_opponent(self, name: str) -> None:
        for pool in self.pools:
            pool.add(name)


def _make_env(cfg: dict[str, Any], rank: int):
    def thunk():
        from stable_baselines3.common.monitor import Monitor

        env = PoolEnv(cfg["rules"], cfg["opponents"], cfg["reward_scale"], seed=cfg["seed"] + rank,
                      trust_zip=cfg["trust_zip"])
        env.reset(seed=cfg["seed"] + rank)
        return Monitor(env)

    return thunk


def train(cfg: dict[str, Any]) -> Path:
    """Train, save checkpoints and the final model; return the final model's path."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    run_dir = Path(cfg["run_dir"])
    run_dir.mkdir(parents=True, exist_ok=True)
    makers = [_make_env(cfg, i) for i in range(cfg["n_envs"])]
    venv = SubprocVecEnv(makers, start_method="spawn") if cfg["n_envs"] > 1 else DummyVecEnv(makers)
    model = MaskablePPO(
        "MlpPolicy", venv, learning_rate=cfg["learning_rate"], n_steps=cfg["n_steps"],
        batch_size=cfg["batch_size"], n_epochs=cfg["n_epochs"], gamma=cfg["gamma"],
        gae_lambda=cfg["gae_lambda"], clip_range=cfg["clip_range"], ent_coef=cfg["ent_coef"],
        vf_coef=cfg["vf_coef"], max_grad_norm=cfg["max_grad_norm"], seed=cfg["seed"],
        policy_kwargs={"net_arch": list(cfg["net_arch"])}, device="cpu", verbose=0,
        tensorboard_log=str(run_dir / "tb") if cfg["tensorboard"] and _has_tensorboard() else None,
    )

    class TimeLimit(BaseCallback):
        """Stop after ``max_minutes``."""

        def __init__(self, minutes: float | None) -> None:
            super().__init__()
            self.deadline = None if minutes is None else time.time() + 60 * minutes

        def _on_step(self) -> bool:
            return self.deadline is None or time.time() < self.deadline

    class Snapshots(BaseCallback):
        """Every ``every`` steps, freeze the learner and add it to the opponent pools."""

        def __init__(self, every: int) -> None:
            super().__init__()
            self.every = every
            self.next = every

        def _on_step(self) -> bool:
            if self.every and self.num_timesteps >= self.next:
                self.next += self.every
                path = run_dir / "snapshots" / f"snapshot_{self.num_timesteps}.zip"
                path.parent.mkdir(exist_ok=True)
                self.model.save(path)
                self.training_env.env_method("add_opponent", f"ckpt:{path}")
            return True

    class DeadlineBar(BaseCallback):
        """Progress towards ``max_minutes`` (a time-bounded run ends at its deadline, so a bar
        over ``total_timesteps`` would promise hours that never come)."""

        def __init__(self, minutes: float) -> None:
            super().__init__()
            self.seconds = 60 * minutes
            self.start = time.time()
            self.bar: Any = None

        def _on_training_start(self) -> None:
            from tqdm import tqdm

            self.bar = tqdm(total=round(self.seconds), unit="s", desc="time to deadline",
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} s "
                                       "[{remaining} left{postfix}]")

        def _on_step(self) -> bool:
            if self.n_calls % 256 == 0:
                self.bar.n = min(round(time.time() - self.start), self.bar.total)
                self.bar.set_postfix_str(f"{self.num_timesteps:,} steps", refresh=True)
            return True

        def _on_training_end(self) -> None:
            self.bar.n = min(round(time.time() - self.start), self.bar.total)
            self.bar.close()

    show_bar = cfg["progress_bar"] and _has_progress_bar()
    timed = cfg["max_minutes"] is not None
    callbacks = [TimeLimit(cfg["max_minutes"]), Snapshots(cfg["snapshot_every"])]
    if show_bar and timed:
        callbacks.append(DeadlineBar(cfg["max_minutes"]))
    if cfg["checkpoint_every"]:
        every = max(1, cfg["checkpoint_every"] // cfg["n_envs"])
        callbacks.append(CheckpointCallback(every, str(run_dir / "checkpoints"), name_prefix="model"))
    model.learn(total_timesteps=cfg["total_timesteps"], callback=CallbackList(callbacks),
                progress_bar=show_bar and not timed)
    final = run_dir / "model.zip"
    model.save(final)
    venv.close()
    return final


def _has_tensorboard() -> bool:
    try:
        import tensorboard  # noqa: F401
    except ImportError:
        return False
    return True


def _has_progress_bar() -> bool:
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True

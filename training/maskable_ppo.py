"""sb3-contrib MaskablePPO on ``SingleAgentEnv`` against an opponent pool, in one file.

    cnmahjong-train --config ppo_maskable [--set KEY=VALUE]

The pool starts with the configured policies (``random``, ``greedy``) and, every
``snapshot_every`` steps, gains a frozen snapshot of the learner. Each hand
seats three opponents drawn from the pool and the learner on a random seat.
Every hyper-parameter is a field of ``Args`` below; a YAML config overrides some of them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cnmahjong.agents import make_policy, reset_policy
from cnmahjong.envs.core.ruleset import ruleset_of_preset
from cnmahjong.envs.wrappers import SingleAgentEnv
from cnmahjong.training.config import (
    AT_LEAST_1,
    NON_NEGATIVE,
    POSITIVE,
    UNIT,
    ConfigError,
    Range,
    default_rules,
    hp,
    layer_widths,
    parse,
    policy_names,
    rule_presets,
)


@dataclass(frozen=True)
class Args:
    """The hyper-parameters (a config's keys), their defaults and what is allowed."""

    algo: str = hp("maskable_ppo", choices=("maskable_ppo",))
    run_dir: str = hp("runs/train")
    rules: str = hp(factory=default_rules, choices=rule_presets)  # a preset of any registered ruleset
    seed: int = hp(0, within=NON_NEGATIVE)
    total_timesteps: int = hp(200_000, within=AT_LEAST_1)  # learner steps
    max_minutes: float | None = hp(None, within=POSITIVE)  # stop early (None: run to total_timesteps)
    reward_scale: float = hp(10.0, within=POSITIVE)  # settlements are divided by this
    net_arch: list[int] = hp(factory=lambda: [256, 256], check=layer_widths)
    learning_rate: float = hp(3e-4, within=POSITIVE)
    gamma: float = hp(0.99, within=Range(0, 1, low_open=True))
    gae_lambda: float = hp(0.95, within=UNIT)
    clip_range: float = hp(0.2, within=POSITIVE)
    ent_coef: float = hp(0.01, within=NON_NEGATIVE)
    vf_coef: float = hp(0.5, within=NON_NEGATIVE)
    max_grad_norm: float = hp(0.5, within=POSITIVE)
    n_epochs: int = hp(4, within=AT_LEAST_1)
    batch_size: int = hp(256, within=AT_LEAST_1)
    n_envs: int = hp(2, within=AT_LEAST_1)  # environment processes, one per core
    n_steps: int = hp(1024, within=AT_LEAST_1)  # rollout length per environment
    opponents: list[str] = hp(factory=lambda: ["random", "greedy"], check=policy_names)  # the pool's first members
    trust_zip: bool = hp(False)  # allow SB3 .zip opponents (unpickling them can run code)
    snapshot_every: int = hp(0, within=NON_NEGATIVE)  # add a snapshot of the learner every N steps (0: never)
    checkpoint_every: int = hp(50_000, within=NON_NEGATIVE)  # steps between checkpoints (0: none)
    progress_bar: bool = hp(True)
    tensorboard: bool = hp(True)

    def check(self) -> None:
        """Every opponent must load and play these rules."""
        for name in self.opponents:
            try:
                make_policy(name, ruleset=ruleset_of_preset(self.rules), trust_pickles=self.trust_zip)
            except (ValueError, OSError) as e:
                raise ConfigError(f"bad opponent {name!r} for 'opponents': {e}") from None


class OpponentPool:
    """A policy that plays as a member of its pool drawn anew at every ``reset``."""

    def __init__(self, names: list[str], seed: int = 0, trust_zip: bool = False, ruleset: Any = None) -> None:
        self.names = list(names)
        self.ruleset = ruleset
        self.members = [make_policy(n, seed=seed + i, ruleset=ruleset, trust_pickles=trust_zip)
                        for i, n in enumerate(self.names)]
        self.rng = np.random.default_rng(seed)
        self.current = self.members[0]

    def add(self, name: str) -> None:
        """Add a snapshot this run wrote itself (so its ``.zip`` is trusted)."""
        self.names.append(name)
        self.members.append(make_policy(name, ruleset=self.ruleset, trust_pickles=True))

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
        ruleset = ruleset_of_preset(rules).name
        self.pools = [OpponentPool(opponents, seed=seed * 10 + i, trust_zip=trust_zip, ruleset=ruleset)
                      for i in range(3)]
        super().__init__(rules=rules, opponents=self.pools, seat="random", reward_scale=reward_scale)

    def add_opponent(self, name: str) -> None:
        for pool in self.pools:
            pool.add(name)


def _make_env(args: Args, rank: int):
    def thunk():
        from stable_baselines3.common.monitor import Monitor

        env = PoolEnv(args.rules, args.opponents, args.reward_scale, seed=args.seed + rank,
                      trust_zip=args.trust_zip)
        env.reset(seed=args.seed + rank)
        return Monitor(env)

    return thunk


def train(cfg: Mapping[str, Any] | Args) -> Path:
    """Train, save checkpoints and the final model; return the final model's path. ``cfg``: a
    config mapping (validated here) or ``Args``."""
    args = parse(cfg, Args)
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    run_dir = Path(args.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    makers = [_make_env(args, i) for i in range(args.n_envs)]
    venv = SubprocVecEnv(makers, start_method="spawn") if args.n_envs > 1 else DummyVecEnv(makers)
    model = MaskablePPO(
        "MlpPolicy", venv, learning_rate=args.learning_rate, n_steps=args.n_steps,
        batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
        gae_lambda=args.gae_lambda, clip_range=args.clip_range, ent_coef=args.ent_coef,
        vf_coef=args.vf_coef, max_grad_norm=args.max_grad_norm, seed=args.seed,
        policy_kwargs={"net_arch": list(args.net_arch)}, device="cpu", verbose=0,
        tensorboard_log=str(run_dir / "tb") if args.tensorboard and _has_tensorboard() else None,
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

    show_bar = args.progress_bar and _has_progress_bar()
    timed = args.max_minutes is not None
    callbacks = [TimeLimit(args.max_minutes), Snapshots(args.snapshot_every)]
    if show_bar and timed:
        callbacks.append(DeadlineBar(args.max_minutes))
    if args.checkpoint_every:
        every = max(1, args.checkpoint_every // args.n_envs)
        callbacks.append(CheckpointCallback(every, str(run_dir / "checkpoints"), name_prefix="model"))
    model.learn(total_timesteps=args.total_timesteps, callback=CallbackList(callbacks),
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

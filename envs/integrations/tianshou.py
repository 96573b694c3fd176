"""Tianshou (2.x): the game as one seat's env, every seat played by the shared network.

Tianshou's own ``PettingZooEnv`` stores each step's rewards with the acting seat's
transition and learns each seat only from its own transitions, so a settlement
paid on another seat's move (most of them) never reaches the seats that did not
act. Here each env is one learning seat (``SingleAgentEnv``: a step's reward is
everything that seat was paid since its previous decision, the hand's end
included) and the three other seats play with the same network (parameter
sharing); the learning seat is drawn at random every hand, so the network learns
every seat's view.

- Observations: ``{"obs": float32 (3213,), "mask": bool (99,)}`` for Changsha
  (``(4930,)`` and ``(75,)`` for ``rules="hangzhou"``, with ``QNet(encoder="hz-v0")``),
  the keys Tianshou's discrete policies read the action mask from.
- Infos: ``{"seat": int}`` at every step (Tianshou's buffer fixes its layout
  from the first infos).
- ``QNet``: the project's ``ActorCritic`` body with its policy head as Q-values,
  so a trained model is an arena checkpoint (``save_qnet`` -> ``ckpt:PATH``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from gymnasium import spaces
from torch import nn

from cnmahjong.envs.integrations.networks import ActorCritic, save_actor_critic
from cnmahjong.envs.wrappers import SingleAgentEnv


class QNet(nn.Module):
    """``model(obs, state=None, info=None) -> (q_values, state)`` as Tianshou calls it."""

    def __init__(self, net_arch: list[int], arch: str = "mlp", encoder: str = "cs-v0") -> None:
        super().__init__()
        self.net = ActorCritic(net_arch, arch, encoder=encoder)
        self.shape = self.net.shape

    def forward(self, obs: Any, state: Any = None, info: Any = None) -> tuple[torch.Tensor, Any]:
        x = torch.as_tensor(obs, dtype=torch.float32, device=next(self.parameters()).device)
        h = self.net.body(x.reshape(-1, *self.shape))
        return self.net.policy(h), state

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Greedy masked action for one decision (how the shared network plays the other seats)."""
        with torch.no_grad():
            q, _ = self(observation[None])
        q = q[0].numpy()
        return int(np.flatnonzero(action_mask)[q[action_mask == 1].argmax()])


class SharedSeatEnv(gym.Env):
    """One learning seat of a hand whose other seats the shared ``QNet`` plays (module docstring)."""

    def __init__(self, qnet: QNet, rules: Any = None, reward_scale: float = 10.0) -> None:
        self.inner = SingleAgentEnv(rules=rules, opponents=[qnet.act] * 3, seat="random", reward_scale=reward_scale)
        rs, enc = self.inner.aec.RULESET, self.inner.aec.encoding
        if enc.shape != qnet.shape:
            raise ValueError(f"the QNet reads {qnet.net.encoder!r} planes {qnet.shape}; rules {rules!r} "
                             f"give {enc.name!r} planes {enc.shape}")
        self.observation_space = spaces.Dict({
            "obs": spaces.Box(0.0, 1.0, (enc.shape[0] * enc.shape[1],), dtype=np.float32),
            "mask": spaces.MultiBinary(rs.num_actions),
        })
        self.action_space = spaces.Discrete(rs.num_actions)
        self.finished: list[tuple[float, float]] = []  # per hand: (the seat's return, its settlement / scale)
        self._return = 0.0

    def _obs(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        return {"obs": obs.reshape(-1), "mask": self.inner.action_masks()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.inner.reset(seed=seed, options=options)
        self._return = 0.0
        return self._obs(obs), {"seat": info["seat"]}

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.inner.step(int(action))
        self._return += reward
        if terminated:
            # its account is closed: the hand's payments so far are its settlement (it may have left early)
            paid = self.inner.aec.game.payments[self.inner.seat] / self.inner.aec.reward_scale
            self.finished.append((self._return, paid))
        return self._obs(obs), reward, terminated, truncated, {"seat": info["seat"]}


def save_qnet(qnet: QNet, path: str | Path) -> Path:
    """The network as a self-play checkpoint: the arena plays it with ``ckpt:PATH`` (argmax of Q)."""
    return save_actor_critic(qnet.net, path)

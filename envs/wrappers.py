"""Single-agent Gymnasium wrapper: one learning seat against fixed policies.

``SingleAgentEnv(rules=..., opponents=[p, p, p], seat=0 | "random")`` is a
``gymnasium.Env`` for SB3 and friends (``rules="hangzhou"`` plays Hangzhou). A policy is a callable
``policy(observation, action_mask) -> action`` (optionally with ``reset()``,
which gets a ``seed`` from the env's generator when it accepts one, so that
``reset(seed=...)`` makes whole episodes reproducible).
The observation is the ruleset's planes (``cs-v0`` float32 (119, 27), ``hz-v0`` (145, 34));
``action_masks()`` returns the learner's mask as sb3-contrib's MaskablePPO
expects. The reward of a step is everything the learning seat was paid since
its previous decision, so a hand that ends on another seat's move (a deal-in
included) still reaches it in full.

An illegal action raises ``IllegalActionError`` (``illegal_action="raise"``,
the default). Generic checkers that step actions sampled without a mask
(gymnasium's ``check_env`` samples one before a reset) need
``illegal_action="penalize"``: the state stays as it was, the reward is
``-illegal_penalty`` and ``info["illegal_action"]`` is True.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cnmahjong.envs.aec import aec_env
from cnmahjong.envs.core.checks import int_arg
from cnmahjong.envs.core.engine import IllegalActionError
from cnmahjong.envs.core.ruleset import ruleset_of_rules
from cnmahjong.envs.policy import RandomAgent, reset_policy
from cnmahjong.envs.spaces import LegalDiscrete

Policy = Callable[[np.ndarray, np.ndarray], int]


class SingleAgentEnv(gym.Env):
    """One seat of ``changsha_mahjong_v0`` (or ``hangzhou_mahjong_v0``) as a Gymnasium env (see the
    module docstring)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, rules: Any = None,
                 opponents: Sequence[Policy] | None = None, seat: int | str = "random",
                 reward_scale: float = 1.0, render_mode: str | None = None,
                 hands_per_episode: int = 1, illegal_action: str = "raise",
                 illegal_penalty: float = 1.0, ruleset: str | None = None, encoder: str | None = None) -> None:
        if illegal_action not in ("raise", "penalize"):
            raise ValueError(f"illegal_action={illegal_action!r}: allowed 'raise' or 'penalize'")
        self.illegal_action = illegal_action
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)) \
                or not np.isfinite(illegal_penalty):
            raise ValueError(f"illegal_penalty must be a finite number, got {illegal_penalty!r}")
        self.illegal_penalty = float(illegal_penalty)
        if opponents is None:
            opponents = [RandomAgent(seed=i) for i in range(3)]
        if isinstance(opponents, (str, dict)) or not hasattr(opponents, "__len__") or len(opponents) != 3 \
                or not all(callable(p) for p in opponents):
            raise ValueError("opponents must be three callables policy(observation, action_mask) -> action")
        if seat != "random":
            try:
                seat = int_arg(seat, "seat", 0, 3)
            except (TypeError, ValueError):
                raise ValueError(f"seat must be 0..3 or 'random', got {seat!r}") from None
        if ruleset is None:
            ruleset = ruleset_of_rules(rules).name
        self.aec = aec_env(ruleset)(rules=rules, reward_scale=reward_scale, render_mode=render_mode,
                                    hands_per_episode=hands_per_episode, encoder=encoder)
        rs = self.aec.RULESET
        self._describe = rs.game.ACTIONS.describe
        self.opponents = list(opponents)
        self.seat_choice = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, self.aec.encoding.shape, dtype=np.float32)
        self.action_space = LegalDiscrete(rs.num_actions, self._current_mask)
        self._mask = np.zeros(rs.num_actions, dtype=np.int8)
        self._policy_of: dict[int, Policy] = {}
        self._carried = 0.0

    # ------------------------------------------------------------------ api
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(4))
        others = [s for s in range(4) if s != self.seat]
        self._policy_of = dict(zip(others, self.opponents, strict=True))
        for p in self.opponents:
            reset_policy(p, int(self.np_random.integers(2**31)))
        while True:
            self.aec.reset(seed=int(self.np_random.integers(2**31)), options=options)
            carried, done = self._run_opponents()
            if not done:
                break
            # The hand ended before the learner had any decision (e.g. another dealer's 天胡):
            # nothing to learn from it, deal again.
        self._carried = carried  # opening-win payments before the first decision
        return self._observe(), {"seat": self.seat, "phase": self._phase()}

    def step(self, action: int):
        me = self.aec.possible_agents[self.seat]
        if self.aec.game is None:
            raise IllegalActionError("step() before reset(): call reset() first")
        if self.aec.agent_selection != me or self.aec.terminations[me]:
            raise IllegalActionError("step() after the episode ended: call reset()")
        action = int_arg(action, "action")  # 2.7 is an error, never truncated to 2
        if not 0 <= action < len(self._mask) or not self._mask[action]:
            legal = np.flatnonzero(self._mask).tolist()
            if self.illegal_action == "penalize":
                obs = self._observe()
                info = {"seat": self.seat, "phase": self._phase(), "illegal_action": True}
                return obs, -self.illegal_penalty, False, False, info
            raise IllegalActionError(
                f"seat {self.seat} cannot play {action}: legal are {legal} "
                f"({', '.join(self._describe(x) for x in legal)})")
        self.aec.step(action)
        reward, done = self._run_opponents()
        reward += self._carried
        self._carried = 0.0
        obs = self._observe()
        info = {"seat": self.seat, "phase": self._phase()}
        if done:
            info["phase"] = "done"
            if self.aec.game.result is not None:  # None when the learner left a hand that goes on
                info["result"] = self.aec.game.result.to_dict()
        return obs, reward, done, False, info

    def _current_mask(self) -> np.ndarray:
        return self._mask

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (sb3-contrib MaskablePPO)."""
        return self._mask.astype(bool)

    def render(self):
        return self.aec.render()

    # -------------------------------------------------------------- helpers
    def _phase(self) -> str:
        return self.aec.game.phase if self.aec.game is not None else "none"

    def _run_opponents(self) -> tuple[float, bool]:
        """Let the other seats play until the learner must decide or the episode ends; return
        the learner's reward over the step just taken and theirs (the AEC env's public
        ``rewards``, from its ledger: early payments arrive with the learner's first decision)."""
        aec = self.aec
        me = aec.possible_agents[self.seat]
        reward = aec.rewards[me]
        while True:
            agent = aec.agent_selection
            if aec.terminations[agent]:
                if agent == me:  # the hand ended, or the learner left it with its account closed
                    return reward, True
                aec.step(None)  # an opponent that left mid-hand: its dead step, and play goes on
                continue
            if agent == me:
                return reward, False
            seat = aec.agent_name_mapping[agent]
            o = aec.observe(agent)
            choice = self._policy_of[seat](o["observation"], o["action_mask"])
            try:
                choice = int_arg(choice, f"the action of the opponent at seat {seat}")
            except TypeError as e:
                raise TypeError(f"{e}: a policy returns one legal action id") from None
            aec.step(choice)
            reward += aec.rewards[me]

    def _observe(self) -> np.ndarray:
        o = self.aec.observe(self.aec.possible_agents[self.seat])
        self._mask = o["action_mask"]
        return o["observation"]

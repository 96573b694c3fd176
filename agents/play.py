"""Playing whole episodes of the AEC env with one policy per seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

Decision = Callable[[int, dict[str, np.ndarray], int], None]


def play_episode(env, policies: Sequence, seed: int | None = None, on_decision: Decision | None = None) -> None:
    """Reset ``env`` (a raw or wrapped ``changsha_mahjong_v0``) and play it to the end.

    ``policies[seat]`` chooses for each seat; ``on_decision(seat, observation,
    action)`` is called before every action (logging, checks).
    """
    env.reset(seed=seed)
    mapping = env.unwrapped.agent_name_mapping
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = mapping[agent]
        action = int(policies[seat](obs["observation"], obs["action_mask"]))
        if on_decision is not None:
            on_decision(seat, obs, action)
        env.step(action)

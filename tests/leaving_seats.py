"""Library recipes on a ruleset whose winners leave mid-hand: every seat's rewards, as each library
collects them, sum to its settlement. Shared by the relay toy (``tests/relay``) and Sichuan 血战."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

Policy = Callable[[np.ndarray, np.ndarray], int]


def heuristic_of(rs) -> Policy:
    """The ruleset's greedy player over (planes, int8 mask)."""
    return lambda obs, mask: rs.heuristic(obs, np.flatnonzero(mask).tolist())


def single_agent_hands(rules: str, policy: Policy, hands: int) -> int:
    """``SingleAgentEnv`` (gymnasium ``check_env`` first), a greedy table, the learner's seat drawn
    at random: its summed rewards are its payments every hand. Returns the hands that went on
    after the learner left (its episode ended at its win)."""
    from gymnasium.utils.env_checker import check_env

    from cnmahjong.agents import GreedyAgent
    from cnmahjong.envs.wrappers import SingleAgentEnv

    env = SingleAgentEnv(rules=rules, opponents=[GreedyAgent()] * 3, seat="random", illegal_action="penalize")
    check_env(env, skip_render_check=True)
    left_early = 0
    for seed in range(hands):
        obs, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            obs, r, done, _, info = env.step(policy(obs, env.action_masks().astype(np.int8)))
            total += r
        game = env.aec.game
        assert total == game.payments[env.seat]
        if not game.done:
            assert env.seat in game.seats_out
            left_early += 1
    return left_early


def tianshou_hands(rules: str, encoder: str, hands: int) -> None:
    """Tianshou's shared-seat env: each finished seat's return is its settlement."""
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    from cnmahjong.envs.integrations.tianshou import QNet, SharedSeatEnv

    qnet = QNet([16], encoder=encoder)
    env = SharedSeatEnv(qnet, rules=rules, reward_scale=1.0)
    for seed in range(hands):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["mask"])[-1]))
    assert all(ret == paid for ret, paid in env.finished) and len(env.finished) == hands


def rllib_hands(rules: str, policy: Policy, shape: tuple[int, ...], hands: int) -> int:
    """RLlib's ``PettingZooEnv`` (the recipe's wrapper): each agent's rewards sum to its settlement.
    Returns the steps at which a seat terminated before the hand ended."""
    pytest.importorskip("ray.rllib")
    from cnmahjong.envs.integrations.rllib import make_env

    env = make_env({"rules": rules})
    mid_hand = 0
    for seed in range(hands):
        obs, _ = env.reset(seed=seed)
        got = dict.fromkeys(env.env.unwrapped.possible_agents, 0.0)
        done = False
        while not done:
            agent = env.env.agent_selection  # obs also holds the agents that just left
            o = obs[agent]
            obs, rew, term, trunc, _ = env.step({agent: policy(o["observations"].reshape(shape), o["action_mask"])})
            for a, r in rew.items():
                got[a] += r
            mid_hand += any(v for a, v in term.items() if a != "__all__") and not term["__all__"]
            done = term["__all__"] or trunc["__all__"]
        game = env.env.unwrapped.game
        assert got == {f"player_{s}": float(game.result.payments[s]) for s in range(4)}
    return mid_hand


def _highest_legal(td):
    """Every seat's highest legal action id (0 for a seat not to act: the wrapper ignores it)."""
    import torch

    for i in range(4):
        mask = td[f"player_{i}", "action_mask"]
        ids = torch.arange(mask.shape[-1]).expand_as(mask)
        td[f"player_{i}", "action"] = torch.where(mask, ids, 0).amax(-1)
    return td


def torchrl_hands(ruleset: str, rules: str, hands: int) -> None:
    """TorchRL's ``PettingZooWrapper`` (``departed="stay"``): each seat's summed rewards are its settlement."""
    torch = pytest.importorskip("torch")
    torchrl = pytest.importorskip("torchrl.envs.libs.pettingzoo")
    from cnmahjong.envs.aec import make_env

    for seed in range(hands):
        pz = make_env(ruleset, rules=rules, departed="stay")
        env = torchrl.PettingZooWrapper(env=pz, use_mask=True, seed=seed)
        td = env.rollout(2000, policy=_highest_legal, break_when_any_done=True)
        reward = torch.cat([td["next", f"player_{i}", "reward"] for i in range(4)], dim=1).squeeze(-1)
        settlement = torch.tensor(pz.unwrapped.game.result.payments, dtype=reward.dtype)
        assert torch.equal(reward.sum(0), settlement), (reward.sum(0), settlement)

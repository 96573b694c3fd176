"""Policies: callables ``policy(observation, action_mask) -> action`` with an optional ``reset()``."""

from agents.random_agent import RandomAgent

__all__ = ["RandomAgent"]

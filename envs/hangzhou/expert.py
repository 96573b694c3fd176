"""Placeholder: the expert player is being written (it plays greedy until then)."""

from cnmahjong.envs.hangzhou.heuristic import heuristic as expert

__all__ = ["expert"]

"""Placeholder: the expert player is being written (it plays greedy until then)."""

from cnmahjong.envs.changsha.heuristic import heuristic as expert

__all__ = ["expert"]

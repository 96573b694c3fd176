# C calls from heuristic.py (pure-Python mode, as ``patterns.pxd``): the greedy player's shanten
# questions, one per candidate discard, reach the shape tables without a Python call between.
from cnmahjong.envs.changsha.patterns cimport shanten_after_discard, shanten_after_draw

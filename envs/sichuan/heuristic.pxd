# C calls from heuristic.py (pure-Python mode, as ``envs/changsha/heuristic.pxd``): the 进张 count
# of each candidate discard reaches the shape tables without a Python call between.
from cnmahjong.envs.core.shapes cimport standard_shanten_after_draw

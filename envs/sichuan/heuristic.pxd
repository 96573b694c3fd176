# C calls from heuristic.py (pure-Python mode, as ``envs/changsha/heuristic.pxd``): the discard
# scores and the 进张 count of each candidate discard reach the shape tables without a Python call
# between.
from cnmahjong.envs.core.shapes cimport (
    counts_for, lowest_held, lowest_of, new_row, shanten_one_changed, standard_shanten_changed_row,
)
from cnmahjong.envs.sichuan.patterns cimport holds_void

# heuristic.py's action constants (C ints: compared in C)
cdef int _HU, _PASS, _PENG, _VOID, _SWAP, _GANG_SELF, _GANG_CLAIM

# C calls from heuristic.py (pure-Python mode, as ``envs/changsha/heuristic.pxd``): the discard
# scores and the 进张 count of each candidate discard reach the shape tables without a Python call
# between.
from cnmahjong.envs.core.engine cimport offered
from cnmahjong.envs.core.seat_facts cimport SeatFacts
from cnmahjong.envs.core.shapes cimport (
    counts_for, lowest_held, lowest_of, new_row, shanten_one_changed, standard_shanten_changed_row,
)
from cnmahjong.envs.core.tiles cimport counts_copy, melds_of
from cnmahjong.envs.sichuan.patterns cimport holds_void

# heuristic.py's action constants (C ints: compared in C)
cdef int _HU, _PASS, _PENG, _VOID, _SWAP, _GANG_SELF, _GANG_CLAIM

# the facts the player reads (an extension type: each asked with a C call)
cdef class _Facts(SeatFacts):
    cpdef object void(self)
    cpdef offered(self)

# the player's own steps: C calls between them (``legal`` and the counts stay Python objects: a
# caller's list, a game's bytearray); those that take the facts are C functions only (their
# callers here always pass a reader, never None)
cpdef object _without(hand, object void, int t=*, int k=*)
cpdef int shanten(hand, int melds) except? -99
cdef int _decide(_Facts facts, legal) except? -1
cpdef int _void_pick(legal, hand) except? -1
cpdef int _swap_pick(legal, counts) except? -1
cpdef int _void_first(hand, discards) except? -1
cpdef int improving(rest, int n, int best, object void) except? -1
cdef int _claim(_Facts facts, legal, hand, object void, int n) except? -1

# C calls from heuristic.py (pure-Python mode, as ``patterns.pxd``): the greedy player's shanten
# questions, one per candidate discard, reach the shape tables without a Python call between.
from cnmahjong.envs.core.engine cimport offered
from cnmahjong.envs.core.seat_facts cimport SeatFacts
from cnmahjong.envs.changsha.patterns cimport shanten, shanten_after_discard, shanten_changed_row
from cnmahjong.envs.core.shapes cimport counts_for, lowest_held, new_row
from cnmahjong.envs.core.tiles cimport counts_copy, melds_of

# heuristic.py's action constants (C ints: compared in C)
cdef int _HU, _PASS, _PENG, _DECLARE, _DICE_ONE, _DICE_TWO, _BUZHANG_CLAIM, _KAIGANG_CLAIM, _BUZHANG_SELF
cdef int _KAIGANG_SELF, _HAIDI_TAKE, _HAIDI_DECLINE, _CHI_LOW, _CHI_HIGH
cdef int NUM_KINDS

# the facts the player reads (an extension type: each asked with a C call)
cdef class _Facts(SeatFacts):
    cpdef melded(self)
    cpdef claim(self)

# the player's own steps: C calls between them (``legal`` and the counts stay Python objects: a
# caller's list, a game's bytearray); those that take the facts are C functions only (their
# callers here always pass a reader, never None)
cdef int _decide(_Facts facts, legal) except? -1
cdef int _claim(_Facts facts, legal, hand, melded) except? -1
cdef int _discard(_Facts facts, legal, hand, melded) except? -1
cpdef int improving(hand, melded, int n, int current, unseen) except? -1

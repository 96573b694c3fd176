# C calls from heuristic.py (pure-Python mode, as ``patterns.pxd``): the greedy player's shanten
# questions, one per candidate discard, reach the shape tables without a Python call between.
from cnmahjong.envs.core.engine cimport offered
from cnmahjong.envs.changsha.patterns cimport shanten_after_discard, shanten_changed_row
from cnmahjong.envs.core.shapes cimport counts_for, lowest_held, lowest_of, new_row

# heuristic.py's action constants (C ints: compared in C)
cdef int _HU, _PASS, _PENG, _DECLARE, _DICE_ONE, _DICE_TWO, _BUZHANG_CLAIM, _KAIGANG_CLAIM, _BUZHANG_SELF
cdef int _KAIGANG_SELF, _HAIDI_TAKE, _HAIDI_DECLINE, _CHI_LOW, _CHI_HIGH

# the player's own steps: C calls between them (``legal`` and the counts stay Python objects: a
# caller's list, a game's bytearray)
cpdef int _decide(facts, legal) except? -1
cpdef int _claim(facts, legal, hand, melded) except? -1
cpdef int _discard(facts, legal, hand, melded) except? -1
cpdef int improving(hand, melded, int n, int current, unseen) except? -1

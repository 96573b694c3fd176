# C signatures the greedy player calls (pure-Python mode, as ``envs/core/shapes.pxd``): its shanten
# questions, asked a few hundred times a hand, are C calls into the wildcard tables and the
# natural counts; the ``.py`` keeps the plain imports, which the pure package runs.
from cnmahjong.envs.core.engine cimport offered
from cnmahjong.envs.core.seat_facts cimport SeatFacts
from cnmahjong.envs.core.shapes cimport count_bytes, counts_for, lowest_held, new_row
from cnmahjong.envs.core.tiles cimport melds_of
from cnmahjong.envs.core.wild cimport shanten, shanten_after_discard_row, shanten_after_draw_row
from cnmahjong.envs.hangzhou.patterns cimport natural, natural_kind

# the action ids compared (C ints) and the discard scores' start
cdef int _HU, _PASS, _PENG, _GANG_CLAIM, _GANG_SELF, _CHI_LOW, _CHI_HIGH
cdef list _NINES

# the facts the player reads (an extension type: each asked with a C call)
cdef class _Facts(SeatFacts):
    cpdef indicator(self)
    cpdef claim(self)

# the player's own steps: C calls between them (``legal`` and the counts stay Python objects: a
# caller's list, a game's bytearray); those that take the facts are C functions only (their
# callers here always pass a reader, never None)
cpdef int wild_shanten(hand, int indicator, int melds) except? -99
cpdef list _discard_scores(hand, int indicator, int melds)
cdef list _natural_discard_scores(hand, b, int w, int indicator, int melds)
cpdef int _best_discard(hand, int indicator, int melds) except? -99
cdef int _decide(_Facts facts, legal) except? -1
cpdef int improving(rest, int k, int n, int best, unseen) except? -1
cdef int _improving_natural(b, int w, int k, int n, int best, unseen) except? -1
cdef int _claim(_Facts facts, legal, hand, int k, int n) except? -1

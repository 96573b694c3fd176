# C signatures the greedy player calls (pure-Python mode, as ``envs/core/shapes.pxd``): its shanten
# questions, asked a few hundred times a hand, are C calls into the wildcard tables and the
# natural counts; the ``.py`` keeps the plain imports, which the pure package runs.
from cnmahjong.envs.core.engine cimport offered
from cnmahjong.envs.core.shapes cimport count_bytes, counts_for, lowest_held, lowest_of, new_row
from cnmahjong.envs.core.wild cimport shanten, shanten_after_discard, shanten_after_draw_row
from cnmahjong.envs.hangzhou.patterns cimport natural

# the player's own steps: C calls between them (``legal`` and the counts stay Python objects: a
# caller's list, a game's bytearray)
cpdef int wild_shanten(hand, int indicator, int melds) except? -99
cpdef list _discard_scores(hand, int indicator, int melds)
cpdef int _best_discard(hand, int indicator, int melds) except? -99
cpdef int _decide(facts, legal) except? -1
cpdef int improving(rest, int k, int n, int best, unseen) except? -1
cpdef int _claim(facts, legal, hand, int k, int n) except? -1

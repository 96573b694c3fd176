# C signatures for patterns.py (pure-Python mode, as ``envs/core/shapes.pxd``): the wait mask the
# game asks on every claim check is a C call from the compiled game (``game.pxd`` cimports it), and
# it calls the shape functions in C.
from cnmahjong.envs.core.shapes cimport (
    _byte_sum, count_bytes, hand_wait_mask, new_row, row_values, seven_pairs_shanten, shanten_one_changed_row,
    standard_shanten,
)
from libc.string cimport memcpy

cdef unsigned long long _NOT_JIANG_0, _NOT_JIANG_1, _NOT_JIANG_2  # kinds outside 将, a byte each (patterns.py)

cpdef long long wait_mask(c, melded, int num_melds) except? -1
cpdef int shanten(c, melded, int num_melds) except? -99
cpdef list shanten_after_draw(c, melded, int num_melds)
cpdef list shanten_after_discard(c, melded, int num_melds)
cpdef int shanten_changed_row(c, melded, int num_melds, int delta, bytearray row) except -1

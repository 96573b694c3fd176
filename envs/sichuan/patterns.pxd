# C signatures for patterns.py (pure-Python mode, as ``envs/core/shapes.pxd``): the void check, the
# shape check and the wait mask the game asks on every discard are C calls from the compiled game
# (``game.pxd`` cimports them), and they call the shape functions in C.
from cnmahjong.envs.core.shapes cimport count_bytes, hand_wait_mask, is_seven_pairs, is_standard

cpdef bint holds_void(c, object void) except -1
cpdef long long suit_mask(object void) except? -1
cpdef bint win_shape(c, int num_melds, object void=*) except -1
cpdef long long wait_mask(c, melded, int num_melds, object void=*) except? -1

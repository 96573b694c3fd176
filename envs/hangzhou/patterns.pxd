# C signatures of the pattern functions the game calls on every turn and claim (pure-Python mode,
# as ``envs/core/shapes.pxd``): the game calls them, and they call the wildcard tables, in C.
cimport cython
from libc.string cimport memcpy
from cnmahjong.envs.core.wild cimport complete, sets_need

cpdef int natural_kind(int t, int indicator)
@cython.locals(b=bytearray, w=int, k=int, p="const unsigned char *", buf="unsigned char[34]")
cpdef tuple natural(counts, int indicator)
@cython.locals(w=int)
cpdef bint win_counts(c, int indicator, int melds=*) except -1
@cython.locals(w=int)
cpdef tuple baotou_counts(c, int indicator, int melds=*)

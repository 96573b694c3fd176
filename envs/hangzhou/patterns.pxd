# C signatures of the pattern functions the game calls on every turn and claim (pure-Python mode,
# as ``envs/core/shapes.pxd``): the game calls them, and they call the wildcard tables, in C.
cimport cython
from libc.string cimport memcpy
from cnmahjong.envs.core.wild cimport complete, sets_need

cdef bytearray _NATURAL  # win_counts' natural counts (a C global: no module dict look-up)
cdef void _natural_into(unsigned char *q, const unsigned char *p, int indicator) noexcept

cpdef int natural_kind(int t, int indicator)
@cython.locals(b=bytearray, w=int, k=int, p="const unsigned char *", buf="unsigned char[34]")
cpdef tuple natural(counts, int indicator)
@cython.locals(w=int, p="const unsigned char *", q="unsigned char *")
cpdef bint win_counts(c, int indicator, int melds=*) except -1
@cython.locals(w=int)
cpdef tuple baotou_counts(c, int indicator, int melds=*)

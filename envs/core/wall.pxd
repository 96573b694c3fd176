# C types for wall.py (Cython's pure-Python mode: this file augments the .py when the build
# compiles it; Python ignores it). The attributes stay readable and writable from Python
# (``public``), so clones, pickles and the tests see the same object either way.
cimport cython

cdef class Wall:
    cdef public list _pos
    cdef public int _head
    cdef public int _tail_stack
    cdef public int remaining
    cdef public int _stacks
    cdef public int size

    @cython.locals(pos=list, t=int)
    cpdef int _take(self, int k)
    @cython.locals(pos=list, k=int)
    cpdef int draw_head(self)
    @cython.locals(pos=list, s=int)
    cpdef int draw_tail(self)
    @cython.locals(out=list, pos=list, k=int, t=int)
    cpdef list tiles(self)


# shuffled's compiled sort: the keys, the order and the buckets' starts as C arrays (MAX_TILES = 136)
@cython.locals(n=int, i=int, j=int, b=int, o=int, key="unsigned long long",
               p="unsigned char *", keys="unsigned long long[136]", order="int[136]", start="int[129]", out=list)
cpdef list _key_order(bytes raw, tuple kinds)

@cython.locals(t=object)
cpdef bint _all_kinds(list tiles) except -1

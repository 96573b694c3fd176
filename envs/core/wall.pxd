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

    @cython.locals(size=int)
    cpdef _lay_out(self, list layout, int head)
    @cython.locals(pos=list, t=int)
    cpdef int _take(self, int k)
    @cython.locals(pos=list, k=int)
    cpdef int draw_head(self)
    @cython.locals(pos=list, s=int)
    cpdef int draw_tail(self)
    @cython.locals(out=list, pos=list, k=int, t=int)
    cpdef list tiles(self)


# shuffled's compiled sort: the keys, the order and the buckets' starts as C arrays (MAX_TILES = 136)
@cython.locals(n=int, i=int, b=int, key="unsigned long long", p="unsigned char *", keys="unsigned long long[136]")
cpdef list _key_order(bytes raw, tuple kinds)
@cython.locals(i=int, j=int, b=int, o=int, key="unsigned long long", order="int[136]", start="int[129]", out=list)
cdef list _ordered(unsigned long long* keys, int n, tuple kinds)

# seeded_shuffle's generator words: CPython's MT19937 state and the keys as C arrays
cdef int _MT_N
cdef unsigned int _MASK32, _UPPER, _MATRIX_A, _TEMPER_B, _TEMPER_C
cdef unsigned int _MT_START[624]
@cython.locals(i=int, y="unsigned int")
cdef void _fill_mt_start()
@cython.locals(n=int, i=int, j=int, step=int, y="unsigned int", w="unsigned long long", key="unsigned int[2]",
               mt="unsigned int[624]", keys="unsigned long long[136]", bits=int, draw="long long")
cpdef tuple _mt_order(unsigned long long seed, tuple kinds, long long below)
@cython.locals(y="unsigned int")
cdef inline unsigned int _mt_word(unsigned int* mt, int i) noexcept

@cython.locals(t=object)
cpdef bint _all_kinds(list tiles) except -1

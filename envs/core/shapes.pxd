# C signatures of the shape functions other compiled modules call (pure-Python mode: this file
# augments shapes.py when the build compiles it; Python ignores it). A module that ``cimport``s a
# name from here (in its own ``.pxd``) calls it in C, not through a Python call; its ``.py`` keeps
# the plain ``import``, which the pure package runs. The other functions' C types stay in the
# ``.py`` (``@cython.locals``), but for ``_table_changed_row``'s, whose C array only a ``.pxd`` can
# declare; an argument typed here is typed here only.
cimport cython
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.bytearray cimport PyByteArray_FromStringAndSize
from libc.string cimport memcpy

cpdef object count_bytes(object c)
cpdef object counts_for(object c, Py_ssize_t n, str what=*)
cpdef bint is_standard(c) except -1
cpdef bint is_seven_pairs(c) except -1
cpdef long long hand_wait_mask(c, melded, int num_melds, long long add=*, long long remove=*) except? -1
cdef unsigned long long _BYTE_ONES, _PAST_4  # _in_tables' word steps


cdef inline int _byte_sum(unsigned long long w) noexcept nogil:
    """The sum of the eight bytes of ``w`` (any values), for the compiled build's eight-counts-a-step
    reads (C only, beside a pure loop that is the reference; inlined wherever it is cimported): the
    even and odd bytes as four 16-bit lanes added, the lanes summed into the top 16 bits by one
    multiply (2,040 at most: no carry out)."""
    w = (w & 0x00FF00FF00FF00FFULL) + (w >> 8 & 0x00FF00FF00FF00FFULL)
    return <int>((w * 0x0001000100010001ULL) >> 48)

cpdef bint _in_tables(b, int n, int delta) except -1
cpdef int _group_index(const unsigned char *b, int lo, int width) except -1
cpdef int _entry(const unsigned char *b, int lo, int width, bytearray table) except? -1
cpdef list standard_shanten_after_draw(c, int melds=*)
cpdef list standard_shanten_after_discard(c, int melds=*)
cpdef list shanten_one_changed(c, int melds, int delta)
cpdef int shanten_one_changed_row(c, int melds, int delta, bytearray row) except -1
cpdef int standard_shanten_changed_row(c, int melds, int delta, bytearray row) except -1
cpdef int standard_shanten_honours_changed_row(c, int melds, int delta, bytearray row) except -1
@cython.locals(item=object)
cpdef list row_values(bytearray row, int n)
cpdef bytearray new_row(int n)
cdef char _ZERO_ROW[34]  # new_row's bytes (a static C array: zero)
cpdef int lowest_held(list values, counts) except? -99
cpdef int lowest_of(list values, list kinds) except? -99
cpdef int standard_shanten_honours(c, int melds=*) except? -99
cpdef int standard_shanten(c, int melds=*) except? -99
cpdef int seven_pairs_shanten(c) except? -99
cpdef list standard_shanten_honours_after_draw(c, int melds=*)
cpdef list standard_shanten_honours_after_discard(c, int melds=*)
@cython.locals(groups=cython.int, g=cython.int, r=cython.int, lo=cython.int, width=cython.int, x=cython.int,
               step=cython.int, base=cython.int, at_r=cython.int, at_g=cython.int, near=cython.int, held=cython.int,
               around=cython.int,
               a0=cython.int, a1=cython.int, a2=cython.int, a3=cython.int, p="const unsigned char *",
               table="unsigned char *", sp="unsigned char *", hp="unsigned char *",
               work="unsigned char *", memo="unsigned char *", out="unsigned char *", n=cython.int,
               same=cython.bint, changed=cython.int, redo=cython.int, c=cython.int, v=cython.int, classes="unsigned char *", cmemo="unsigned char *",
               scls="unsigned char *", hcls="unsigned char *", key=cython.longlong, at_i=cython.int,
               rest_at=cython.int, lone=cython.int)
cpdef int _table_changed_row(b, int melds, int delta, bytearray row) except -1
# _table_changed_row's memo, kept from call to call (shapes.py: _MEMO)
cdef unsigned char _MEMO[200]
cdef unsigned char _MEMO_REST[40]
cdef int _MEMO_MELDS[4]
cdef unsigned char _CMEMO[1310720]  # _REST_CLASSES * 5 * 256 (shapes.py)
cdef int _REST_AT[4]
cdef unsigned char _WORK[60]  # the last call's convolutions, of the entries at _WORK_AT (shapes.py)
cdef int _WORK_AT[4]
cdef int _WORK_GROUPS
cdef long long _REST_KEYS[4096]  # _rest_class's C hash table (shapes.py)
cdef short _REST_VALUES[4096]
cdef int _REST_COUNT
cdef dict _CLASS_IDS  # typed: its .get is a C dict lookup (_REST_IDS is the pure path's only)
@cython.locals(total=cython.int, rest=cython.int, r=cython.int, pair=cython.int, whole=cython.int, x=cython.int,
               c="int[11]", d="int[11]")
cpdef int _suit_whole(int index) except -1

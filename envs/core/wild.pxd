# C types for wild.py (pure-Python mode, as ``shapes.pxd``): the table path of its win and 爆头
# tests reads the group contents with the shape tables' own C helpers (``shapes.pxd``).
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.string cimport memcpy
from cnmahjong.envs.core.shapes cimport (
    _BYTE_ONES, _byte_sum, _group_index, _in_tables, new_row, row_values, standard_shanten_honours, standard_shanten_honours_changed_row,
)

cpdef bint complete(b, int w, bint seven_pairs) except -1
cpdef int sets_need(b) except? -1
cpdef int pairs_need(b) except? -1
# the greedy players' shanten questions: C calls from their compiled modules (their .pxd cimports)
cpdef int shanten(b, int w, int melds=*) except? -99
cpdef list shanten_after_discard(b, int w, int melds=*)
cpdef int shanten_after_discard_row(b, int w, int melds, bytearray row) except -1
cpdef list shanten_after_draw(b, int w, int melds=*)
cpdef tuple shanten_after_draw_and_wild(b, int w, int melds=*)
cpdef int shanten_after_draw_row(b, int w, int melds, bytearray row) except? -99

cdef (int, int, int) _tally(b) except *  # (tiles, pairs, odd counts): a C tuple, no Python ints

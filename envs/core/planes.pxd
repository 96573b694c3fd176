# C signatures of planes.py's row builders (pure-Python mode, as ``shapes.pxd``): an encoder that
# cimports them calls them in C, not through a Python call.
cimport cython
from libc.string cimport memcpy

@cython.locals(n=Py_ssize_t, k=Py_ssize_t, lv=int, c=int, p="const unsigned char *", buf="unsigned char[136]")
cdef bytes _therm(row, int levels)
cpdef bytes therm4(row)
cpdef bytes therm(row, int levels)
@cython.locals(c=bytearray, t=Py_ssize_t)
cpdef bytearray count_row(tiles, Py_ssize_t num_kinds)
cpdef bytes therm_of_kinds(tiles, int num_kinds, int levels)
@cython.locals(total=Py_ssize_t, n=Py_ssize_t, out="unsigned char *", p="const unsigned char *", r=object, b=bytes,
               a=bytearray)
cpdef write_rows(rows, bytearray buf, Py_ssize_t offset, Py_ssize_t size)
@cython.locals(code=Py_ssize_t)
cpdef tuple split_public_log(list batch)

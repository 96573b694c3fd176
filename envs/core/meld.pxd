# C types for meld.py (pure-Python mode, as ``engine.pxd``): ``Meld`` is an extension type whose
# four fields are C slots, read-only from Python (a meld never changes once made); its
# constructor and checks run as C, where a dataclass's generated ``__init__`` stays bytecode.
cimport cython
from libc.string cimport memchr
from cnmahjong.envs.core.tiles cimport check_kind

@cython.auto_pickle(False)  # meld.py's __reduce__: the same pickle compiled and pure
cdef class Meld:
    cdef readonly object kind, tiles, from_seat, hidden

# a meld's shape: a C function (its one caller, Meld's constructor, calls it in C)
@cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t, a=int, k=int, lo=int, hi=int, suited=int)
cdef bint _shape_ok(object kind, object t) except -1

@cython.locals(n=cython.Py_ssize_t, t=cython.Py_ssize_t, p="const unsigned char *", q="const unsigned char *",
               r="const void *")
cpdef bint kong_possible(bytearray hand, bytearray melded) except -1

# C types for engine.py (Cython's pure-Python mode: this file augments the .py when the build
# compiles it; Python ignores it). ``TableGame`` becomes an extension type: its attributes are C
# slots (``public``: Python reads and writes them as before) and its protocol methods are
# ``cpdef`` (a C call through the type's method table from compiled code, still overridable by a
# ruleset's Python or compiled subclass). Arguments stay Python objects: the checks of ``step``
# see exactly what the caller passed, as in the pure package.
cimport cython
from cpython.bytearray cimport PyByteArray_FromStringAndSize
from cpython.dict cimport PyDict_Next
from cpython.list cimport PyList_New
from cpython.ref cimport PyObject, Py_REFCNT, Py_XDECREF, Py_XINCREF

cdef extern from "Python.h":
    # a borrowed pointer's reference count and type, read without taking a reference (a cast to
    # object would count one more)
    Py_ssize_t borrowed_refcount "Py_REFCNT"(PyObject *o)
    bint borrowed_is_list "PyList_CheckExact"(PyObject *o)
    # a list's length set (within its room: _held_kinds)
    void list_set_size "Py_SET_SIZE"(object a, Py_ssize_t size)
cdef extern from *:
    """
    #define cnm_list_capacity(o) (((PyListObject *)(o))->allocated)
    #define cnm_is_borrowed(p, o) ((PyObject *)(p) == (PyObject *)(o))
    #define cnm_list_items(o) (((PyListObject *)(o))->ob_item)
    """
    # the items a list has room for (its allocation), read to refill it within it
    Py_ssize_t list_capacity "cnm_list_capacity"(list a)
    # a borrowed pointer is the object (``is``, without a reference taken)
    bint is_borrowed "cnm_is_borrowed"(PyObject *p, object o)
    # a list's item pointers (its room: list_capacity), written by _held_kinds's refill
    PyObject **list_items "cnm_list_items"(list a)
cdef extern from "Python.h":
    PyObject *tuple_item "PyTuple_GET_ITEM"(tuple a, Py_ssize_t i)  # borrowed
from cnmahjong.envs.core.eventlog cimport pack

cpdef bint offered(legal, action) except -1  # a C call from step and the greedy players
cpdef Py_ssize_t label_index(object value, tuple labels) except -1  # the log's phase, the twins' one-of planes
cdef dict _FACTS  # each game class's facts (engine.py), made once
cdef tuple _LAST  # (the class asked last, its facts): a pointer compare at every step
cdef tuple _SMALL_INTS  # _held_kinds's items
cdef char _ZEROS[64]  # zeroed's buffer (static: zeros)
cpdef bytearray zeroed(Py_ssize_t n)
cpdef list zero_counts(Py_ssize_t num_kinds)
@cython.locals(out=list, hand=list, at=bytes, p="const unsigned char *", k=Py_ssize_t)
cpdef list deal_hands(object dealt, int dealer)
@cython.locals(out=list, counts=bytearray, t=Py_ssize_t)
cpdef list count_hands(object hands, Py_ssize_t num_kinds)
@cython.locals(last=tuple)
cpdef tuple _facts_of(object cls)  # cpdef: the tests ask it too

@cython.auto_pickle(False)  # engine.py's __getstate__/__setstate__ pickle every slot, subclasses' too
cdef class Window:
    cdef public object kind
    cdef public dict options, choices, picks


@cython.auto_pickle(False)
cdef class ClaimWindow(Window):
    cdef public object tiles, payer


@cython.auto_pickle(False)
cdef class TableGame:
    cdef public object phase, _window, _events, hands, result
    cdef public dict pending
    cdef public list _log_tail, payments
    cdef list _asked  # _ask_seat's one-seat dicts, per seat: C only, no state of the hand

    @cython.locals(t=Py_ssize_t, n=Py_ssize_t, size=Py_ssize_t, held=list, p="const unsigned char *",
                   kinds="int[64]", items="PyObject **", small="PyObject *")
    cpdef list _held_kinds(self, bytearray h, int seat=*, Py_ssize_t lo=*, Py_ssize_t hi=*)
    @cython.locals(spare=dict, at=Py_ssize_t, key="PyObject *", acts="PyObject *")
    cdef list _spare_list(self, int seat)
    @cython.locals(asked=list, spare=dict)
    cdef dict _spare_dict(self, int seat)
    cpdef legal_mask(self, seat)
    @cython.locals(size=Py_ssize_t, i=Py_ssize_t, a=Py_ssize_t, acts=list, p="unsigned char *")
    cpdef legal_mask_into(self, seat, bytearray buf, Py_ssize_t offset)
    cpdef _discards_all_held(self, seat)
    cpdef step(self, seat, action)
    @cython.locals(window=Window, facts=tuple)
    cpdef _take(self, seat, action)
    cpdef _apply(self, seat, action, phase)
    cpdef _resolve_window(self, window)
    cpdef _more_picks(self, window, seat)
    @cython.locals(pending=dict, acts=list)
    cpdef play_forced(self)
    cpdef _ask(self, phase, pending)
    @cython.locals(spare=dict, at=Py_ssize_t, key="PyObject *", value="PyObject *")
    cpdef _ask_seat(self, phase, int seat, list acts)
    cpdef _open_window(self, Window window)
    cpdef _end_hand(self, result)

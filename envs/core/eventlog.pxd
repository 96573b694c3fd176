# C signature for eventlog.py (pure-Python mode, as ``tiles.pxd``): ``pack`` is asked for every
# frequent event a game writes, a C call from the compiled games that ``cimport`` it.
cpdef long long pack(long long form, long long a=*, long long b=*, long long c=*)
cdef int _A, _B, _C

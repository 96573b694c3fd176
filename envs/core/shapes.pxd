# C signatures of the shape functions other compiled modules call (pure-Python mode: this file
# augments shapes.py when the build compiles it; Python ignores it). A module that ``cimport``s a
# name from here (in its own ``.pxd``) calls it in C, not through a Python call; its ``.py`` keeps
# the plain ``import``, which the pure package runs. The other functions' C types stay in the
# ``.py`` (``@cython.locals``); an argument typed here is typed here only.

cpdef object count_bytes(object c)
cpdef long long hand_wait_mask(c, melded, int num_melds, long long add=*, long long remove=*) except? -1
cpdef bint _in_tables(b, int n, int delta) except -1
cpdef int _group_index(b, int lo, int width) except -1
cpdef list standard_shanten_after_draw(c, int melds=*)
cpdef list standard_shanten_after_discard(c, int melds=*)

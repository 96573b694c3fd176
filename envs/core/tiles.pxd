# C signatures for tiles.py (pure-Python mode, as ``shapes.pxd``): the count-vector helpers the
# greedy players call at every decision (the melds a hand stands beside, a copy of a game's row) are
# C calls from the compiled modules that ``cimport`` them; the ``.py`` keeps the plain imports.
cpdef int melds_of(hand) except? -1
cpdef object counts_copy(object counts)
cpdef object check_kind(object t, Py_ssize_t num_kinds=*)  # every meld's tiles (meld.pxd cimports it)

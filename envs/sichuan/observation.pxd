# C types for observation.py (pure-Python mode, as ``game.pxd``): the encoder is an extension type,
# its caches C slots and its steps ``cpdef`` methods called through the type's method table (eight
# a call: each seat's melds and river); it reads the game's public C slots as struct fields, not
# by attribute lookup, and a meld's fields as C slots.
cimport cython
from cnmahjong.envs.core.meld cimport Meld
from cnmahjong.envs.core.planes cimport therm, therm4, therm_of_kinds, write_rows
from cnmahjong.envs.sichuan.game cimport SichuanGame


@cython.auto_pickle(False)  # observation.py's __getstate__/__setstate__: caches only
cdef class Encoder:
    cdef public object _game, _events
    cdef public list _rivers, _melds

    @cython.locals(game=SichuanGame, river=list, cached=tuple, key=int)
    cpdef tuple _river(self, game, int s)
    @cython.locals(game=SichuanGame, melds=list, cached=tuple, row=bytearray, quads=bytearray, face_down=int,
                   hide=bint, m=Meld, p="const unsigned char *", total=int, k=int, key=int)
    cpdef tuple _meld_rows(self, game, int s, int seat)
    @cython.locals(game=SichuanGame, s=int, r=int, held=list, parts=list, order=tuple)
    cpdef list _rows(self, game, seat)
    cpdef bytes planes(self, game, seat)
    cpdef planes_into(self, game, seat, bytearray buf, Py_ssize_t offset)

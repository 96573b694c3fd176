# C types for observation.py (pure-Python mode, as ``game.pxd``): the encoder is an extension type,
# its cached blocks C slots read without a dict lookup, its steps ``cpdef`` methods called through
# the type's method table, and it reads the game's public C slots as struct fields, not by
# attribute lookup.
cimport cython
from cnmahjong.envs.core.meld cimport Meld
from cnmahjong.envs.core.planes cimport split_public_log, therm4, write_rows
from cnmahjong.envs.hangzhou.game cimport HangzhouGame


@cython.auto_pickle(False)
cdef class Encoder:
    cdef public object _game, _read, claims_seen, seen_total
    cdef public list own_melds, melds, own_kongs, kongs, own_packed, packed, river_packed, hidden
    cdef public list river, river_rows, recent, claims_blocks

    @cython.locals(game=HangzhouGame, s=int)
    cpdef _reset(self, game)
    @cython.locals(own=bytearray, seen=bytearray, own_k=bytearray, seen_k=bytearray, hidden=int, m=Meld, quad=bint,
                   t=int)
    cpdef _melds_changed(self, int s, list melds)
    @cython.locals(row=bytes, recent=list)
    cpdef _river_changed(self, int s, counts, list river)
    @cython.locals(row=bytearray, plane=bytearray, level=int)
    cpdef _discarded(self, int s, int t)
    @cython.locals(game=HangzhouGame)
    cpdef _update(self, game)
    @cython.locals(game=HangzhouGame, s1=int, s2=int, s3=int, k=int, own_turn=bint, melds=list, river=list,
                   kongs=list, hidden=list, recent=list)
    cpdef tuple _rows(self, game, seat)
    cpdef bytes planes(self, game, seat)
    cpdef planes_into(self, game, seat, bytearray buf, Py_ssize_t offset)

# C types for observation.py (pure-Python mode, as ``game.pxd``): the encoder is an extension type,
# its cached blocks C slots read without a dict lookup, and it reads the game's public C slots as
# struct fields (``@cython.locals(game=HangzhouGame)``), not by attribute lookup.
cimport cython
from cnmahjong.envs.core.planes cimport therm4
from cnmahjong.envs.hangzhou.game cimport HangzhouGame


@cython.auto_pickle(False)
cdef class Encoder:
    cdef public object _game, _read, hands, claims_seen
    cdef public list own_melds, melds, own_kongs, kongs, own_packed, packed, river_packed, hidden
    cdef public list river, river_rows, recent, claims_blocks

# C types for game.py (pure-Python mode, as ``envs/changsha/game.pxd``): ``HangzhouGame`` is an
# extension type over ``TableGame``, its state in public C slots and its steps ``cpdef`` methods;
# seats and tiles between the steps are C ints and a hand's count vector a typed ``bytearray``.
cimport cython
from cnmahjong.envs.core.engine cimport ClaimWindow, TableGame
from cnmahjong.envs.core.eventlog cimport pack
from cnmahjong.envs.core.meld cimport Meld, kong_possible
from cnmahjong.envs.core.wall cimport Wall
from cnmahjong.envs.hangzhou.patterns cimport baotou_counts, win_counts

# game.py's action constants (C ints: compared and offered in C)
cdef int _HU, _PASS, _PENG_CLAIM, _GANG_CLAIM, _GANG_SELF, _CHI_LOW, _CHI_HIGH
cdef list _CHI_PAIRS  # _chi_bits's tables, one per indicator
cdef int _DISCARD_EVENT, _PIAO_DISCARD_EVENT, _DRAW_EVENT  # EVENT_FORMS indices (eventlog)


cdef class HangzhouGame(TableGame):
    cdef public object config, seed, dealer, streak, turn, drawn, last_tile, claims_made, _ready_before
    cdef public int indicator
    cdef public list melds, melded, rivers, river_counts, public_log, claims, shipeng, piao
    cdef public list doublings, bearer, piao_pending
    cdef public Wall wall

    cpdef _discards_all_held(self, seat)
    cpdef _apply(self, seat, action, phase)
    cpdef _restricted(self, int s)
    @cython.locals(h=bytearray)
    cpdef _baotou_ready(self, int s)
    @cython.locals(h=bytearray)
    cpdef bint ready_before(self) except -1
    cpdef _kong_ok(self)
    @cython.locals(m=Meld, shown=list)
    cpdef _begin_turn(self, int s)
    @cython.locals(h=bytearray, t=int, held=Py_ssize_t, win=bint, acts=list, m=Meld)
    cpdef _start_turn(self, int s)
    @cython.locals(h=bytearray, t=int)
    cpdef _draw(self, int s, tail=*)
    @cython.locals(h=bytearray, counts=bytearray)
    cpdef _discard(self, int s, int t)
    @cython.locals(melded=bytearray)
    cpdef _add_meld(self, int s, meld)
    cpdef _claim_limit_ok(self, int s, int d)
    @cython.locals(pairs=bytes, bits=int, i=int, k=int, x=int)
    cpdef int _chi_bits(self, bytearray h, int t) except -1
    @cython.locals(out=list, bits=int, k=int)
    cpdef _chis(self, bytearray h, int t)
    @cython.locals(nxt=int, s2=int, s3=int, h1=bytearray, h2=bytearray, h3=bytearray, asked=int, s=int)
    cpdef _open_claims(self, int d, int t)
    @cython.locals(h=bytearray)
    cpdef _claim_offer(self, int s, int d, int t)
    @cython.locals(win=ClaimWindow, choices=dict, a=int)
    cpdef _resolve_window(self, w)

# C types for game.py (pure-Python mode, as ``envs/core/engine.pxd``): ``ChangshaGame`` is an
# extension type over ``TableGame``; its state lives in C slots (``public``: readable and writable
# from Python as before) and the state machine's steps are ``cpdef`` methods, called through the
# type's method table. Seats and tiles passed between the steps are C ints and a hand's count
# vector a typed ``bytearray`` (its bytes read and written in C, still range-checked); whatever
# comes from outside (``step``'s seat and action) stays a Python object until ``step`` checked it.
cimport cython
from cnmahjong.envs.core.engine cimport ClaimWindow, TableGame
from cnmahjong.envs.core.meld cimport Meld, kong_possible
from cnmahjong.envs.core.eventlog cimport pack
from cnmahjong.envs.core.wall cimport Wall
from cnmahjong.envs.changsha.patterns cimport wait_mask

@cython.auto_pickle(False)  # engine.Window's __getstate__/__setstate__
cdef class _Window(ClaimWindow):
    cdef public object wins, louhu


# game.py's action constants (C ints: compared and offered in C)
cdef int _HU, _PASS, _PENG_CLAIM, _BUZHANG_CLAIM, _KAIGANG_CLAIM, _BUZHANG_SELF, _KAIGANG_SELF
cdef int _CHI_LOW, _CHI_MID, _CHI_HIGH, _HAIDI_TAKE, _HAIDI_DECLINE
cdef int _DISCARD_EVENT, _FORCED_DISCARD_EVENT, _DRAW_EVENT  # EVENT_FORMS indices (eventlog)


cdef class ChangshaGame(TableGame):
    cdef public object config, seed, dealer, turn, drawn, last_tile
    cdef public list melds, melded, rivers, river_counts, shown, declared, public_log, locked, louhu
    cdef public list revealed, _waits, _opening_queue, _opening
    cdef public object _rng, _dice, _kong, _turn_win, _dihu
    cdef public object _haidi_first, _haidi_offers, _haidi_taker, _haidi_kong_seat, _ahead
    cdef public Wall wall

    cpdef _discards_all_held(self, seat)
    cpdef _apply(self, seat, action, phase)
    cpdef long long _wait(self, int s) except? -1
    @cython.locals(h=bytearray)
    cpdef _win_with(self, int s, int t, ctx)
    cpdef _kong_wall_ok(self)
    @cython.locals(h=bytearray, melded=bytearray)
    cpdef _ready_after_kong(self, int s, int t, int from_hand, new_meld)
    @cython.locals(counts=bytearray)
    cpdef _to_river(self, int s, int t, forced=*)
    @cython.locals(shown=bytearray)
    cpdef _unshow(self, int s, int t)
    @cython.locals(melded=bytearray, t=int)
    cpdef _add_meld(self, int s, kind, tiles, from_seat, how, used)
    @cython.locals(h=bytearray, t=int, acts=list, kongs=list)
    cpdef _start_turn(self, int s, drawn, win)
    @cython.locals(h=bytearray, m=Meld, out=list)
    cpdef _self_kongs(self, int s)
    cpdef _step_discard_turn(self, int s, int action)
    @cython.locals(h=bytearray, t=Py_ssize_t)
    cpdef int _last_kind(self, int s) except -1
    @cython.locals(h=bytearray)
    cpdef _discard(self, int s, int t)
    cpdef _draw(self, int s)
    @cython.locals(h=bytearray)
    cpdef _take_drawn(self, int s, int t)
    cpdef _buzhang_draw(self, int s)
    @cython.locals(nxt=int, s2=int, s3=int, h1=bytearray, h2=bytearray, h3=bytearray, w1="long long",
                   w2="long long", w3="long long", waits=list, asked=int, s=int)
    cpdef _open_claims(self, int d, int t)
    @cython.locals(h=bytearray, n=int, acts=list)
    cpdef _claim_offer(self, int s, int d, int t, dihu, hu_only, kong_ok)
    cpdef _open_claims_window(self, kind, tiles, payer, options, wins, louhu)
    @cython.locals(win=_Window)
    cpdef _resolve_window(self, w)
    @cython.locals(a=int, h=bytearray, x=int)
    cpdef _apply_claim(self, _Window w)
    cpdef _step_haidi(self, int s, int action)


@cython.locals(r=int)
@cython.locals(r=int, bits=int)
cdef int _chi_bits(bytearray h, int t) except -1
@cython.locals(bits=int)
cpdef list _chis(bytearray h, int t)

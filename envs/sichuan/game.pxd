# C types for game.py (pure-Python mode, as ``envs/changsha/game.pxd``): ``SichuanGame`` is an
# extension type over ``TableGame``, its state in public C slots and its steps ``cpdef`` methods;
# seats and tiles between the steps are C ints and a hand's count vector a typed ``bytearray``.
cimport cython
from cnmahjong.envs.core.engine cimport ClaimWindow, TableGame, Window
from cnmahjong.envs.core.eventlog cimport pack
from cnmahjong.envs.core.meld cimport Meld, kong_possible
from cnmahjong.envs.core.wall cimport Wall
from cnmahjong.envs.sichuan.patterns cimport holds_void, wait_mask, win_shape

# game.py's action constants (C ints: compared and offered in C)
cdef int _HU, _PASS, _PENG_CLAIM, _GANG_CLAIM, _GANG_SELF, _SWAP
cdef int _DISCARD_EVENT, _DRAW_EVENT  # EVENT_FORMS indices (eventlog)
cdef tuple _ON_DISCARD  # a win on a discard's contexts, indexed in C
cdef object _ROBBED


cdef class SichuanGame(TableGame):
    cdef public object config, seed, dealer, _rng, _fixed_direction, _direction_draw, turn, voids, swap_direction, kongs
    cdef public object replacement, kong_this_turn, last_kong_from, dealer_opening, quiet, discards
    cdef public object _first_group, _haidi_discard, _gangpao_discard
    cdef public list melds, melded, rivers, passed, received, out, ledger, last_kong, threshold
    cdef public list peng_lock, turn_draws, ordinary_draws, won_tiles, _transfers, _wins
    cdef public dict _offer_fan
    cdef public list _waits
    cdef public Wall wall

    @cython.locals(w=Window)
    cpdef _more_picks(self, window, seat)
    @cython.locals(w=Window)
    cpdef _resolve_window(self, window)
    cpdef _discards_all_held(self, seat)
    cpdef _apply(self, seat, action, phase)
    cpdef int _next_remaining(self, int s) except? -1
    cpdef _void(self, int s)
    @cython.locals(h=bytearray, left="int[27]", p="const unsigned char *", t=int, need=int, low=int, unpicked=int,
                   same_suit=int, suit=int, out=list)
    cpdef list _swap_options(self, int seat, picks)
    @cython.locals(i=int)
    cpdef _discard_context(self, int d)
    @cython.locals(h=bytearray, t=int, found=int, m=Meld)
    cpdef _start_turn(self, int s, after_peng=*, int wins=*)
    @cython.locals(h=bytearray, t=int)
    cpdef _draw(self, int s, tail=*)
    @cython.locals(h=bytearray, o=int, waits=list, bits="long long", hands=list, out=list, held=bytearray)
    cpdef _discard(self, int s, int t)
    @cython.locals(h=bytearray, n=int, peng=bint, gang=bint, acts=list)
    cpdef _claim_options(self, int o, int t, ctx)
    @cython.locals(h=bytearray, waits="long long")
    cpdef _offered_win(self, int o, int t, ctx)
    cpdef long long _wait(self, int o) except? -1
    # the steps after a window or a win (C calls between them; arguments as Python objects)
    cpdef list remaining(self)
    @cython.locals(h=bytearray, s=int, t=int, to=int, off=int, given=list)
    cpdef _resolve_swap(self, Window window)
    cpdef _open_void_window(self)
    cpdef list _rob_options(self, o, t)
    cpdef _pass_thresholds(self, ClaimWindow window)
    cpdef _resolve_claims(self, ClaimWindow window)
    @cython.locals(row=bytearray, t=int)
    cpdef _add_meld(self, s, meld, entries)
    cpdef _kong_made(self, s, meld, entries)
    cpdef _own_kong(self, s, t)
    cpdef _resolve_rob(self, ClaimWindow window)
    cpdef _self_draw_win(self, s, opening)
    cpdef _settle_group(self, winners, payer, t, ctx, kind)
    cpdef _record_win(self, s, payer, tile, r, kind, transfers)
    cpdef _after_wins(self, last)
    cpdef _exhaust(self)
    cpdef _pay(self, transfers)
    cpdef _finish(self, classes, fans)

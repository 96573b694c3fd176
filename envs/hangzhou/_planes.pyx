# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""``hz-v0`` planes written by C loops: the compiled twin of ``observation.Encoder.planes``.

Built by the build backend (``setup.py``) where a C compiler exists; ``observation.Encoder`` uses
it then and its own incremental encoder otherwise (``CNMAHJONG_PURE=1``, or no build). It reads
every count row and meld from the game at each call (no state to keep): the offsets come from
``observation.CHANNELS`` (the layout's declaration, where each channel's meaning is), import
refuses (ImportError, so the pure encoder serves) when that declaration no longer lays out the
groups of ``WRITTEN_FOR``, and ``tests/test_compiled.py`` checks both give the same bytes at every
step of 20,000 hands.
"""

cimport cython
from libc.stdint cimport uint64_t
from libc.string cimport memset

from cnmahjong.envs.core.engine cimport ClaimWindow, label_index
from cnmahjong.envs.core.planes cimport (count_bytes, kind_of, kinds_into, level_into, level_of,
                                         melds_into, plane_into, recent_into, seen_add, therm_into, twin_of,
                                         unseen_into, wall_into)
from cnmahjong.envs.core.wall cimport Wall
from cnmahjong.envs.hangzhou import observation as _obs
from cnmahjong.envs.hangzhou.game cimport HangzhouGame  # its slots read as C fields (game.pxd)
from cnmahjong.envs.hangzhou.game import DISCARD, PHASES
from cnmahjong.envs.hangzhou.patterns import WHITE as _WHITE

WRITTEN_FOR = (
    ("HAND", 4, 1, "THERMOMETER"), ("MELDS", 4, 4, "THERMOMETER"), ("RIVER", 4, 4, "THERMOMETER"),
    ("UNSEEN", 4, 1, "THERMOMETER"), ("KONGS", 1, 4, "KINDS"), ("HIDDEN_KONGS", 2, 4, "LEVEL"),
    ("RECENT_DISCARDS", 6, 4, "ONE_HOT"), ("DRAWN", 1, 1, "ONE_HOT"), ("INDICATOR", 1, 1, "ONE_HOT"),
    ("WHITE_PLAYS", 1, 1, "ONE_HOT"), ("SHIPENG", 1, 1, "KINDS"), ("CLAIM", 1, 1, "ONE_HOT"),
    ("DEALER", 4, 1, "CHOICE"), ("ACTOR", 4, 1, "CHOICE"), ("PIAO", 2, 4, "LEVEL"), ("PIAO_PENDING", 1, 4, "FLAG"),
    ("STREAK", 3, 1, "CHOICE"), ("CLAIMS", 3, 12, "LEVEL"), ("WALL", 1, 1, "FRACTION"), ("PHASE", 3, 1, "CHOICE"),
    ("READY", 1, 1, "FLAG"),
)
"""The ``hz-v0`` groups these loops write (name, planes per block, blocks, value kind), in plane
order: the twin serves only while ``observation.CHANNELS`` lays out the same, offsets computed
from both by the same ``layout_of``."""

# planes(game, seat) and planes_into(game, seat, buf, offset): the Twin's (envs/core/planes), its checks
# there; refused at import unless observation.CHANNELS lays out WRITTEN_FOR (before an offset is read)
_twin = twin_of(_write, HangzhouGame, _obs.CHANNELS, _obs.NUM_KINDS, WRITTEN_FOR, 34, "hz-v0", __name__)
planes, planes_into = _twin.planes, _twin.planes_into

cdef enum:
    N = 34  # kinds a plane (checked against observation.NUM_KINDS above)
cdef int HAND = _obs.HAND, MELDS = _obs.MELDS, RIVER = _obs.RIVER, UNSEEN = _obs.UNSEEN, KONGS = _obs.KONGS
cdef int HIDDEN_KONGS = _obs.HIDDEN_KONGS, RECENT_DISCARDS = _obs.RECENT_DISCARDS, RECENT = _obs.RECENT
cdef int DRAWN = _obs.DRAWN, INDICATOR = _obs.INDICATOR, WHITE_PLAYS = _obs.WHITE_PLAYS, SHIPENG = _obs.SHIPENG
cdef int CLAIM = _obs.CLAIM, DEALER = _obs.DEALER, ACTOR = _obs.ACTOR, PIAO = _obs.PIAO
cdef int PIAO_PENDING = _obs.PIAO_PENDING, STREAK = _obs.STREAK, CLAIMS = _obs.CLAIMS, WALL = _obs.WALL
cdef int PHASE = _obs.PHASE, READY = _obs.READY, WHITE = _WHITE
cdef tuple PHASE_LABELS = tuple(PHASES)  # a phase's plane: its index here (engine.label_index)
cdef object DISCARD_PHASE = DISCARD


@cython.boundscheck(True)  # the game's lists indexed as lists (typed below), checked: a game's
@cython.nonecheck(True)  # slots are the caller's to set, a short list or None an error, not a crash
cdef int _write(object of, int seat, unsigned char* out) except -1:
    """``seat``'s planes into the row's zero bytes at ``out`` (``of`` checked by the Twin)."""
    cdef HangzhouGame game = <HangzhouGame> of
    cdef list melds, river_counts, rivers, piao, claims
    cdef ClaimWindow window
    cdef Wall wall
    cdef uint64_t seen[5]
    cdef unsigned char melded[N]
    cdef int r, s, a, b, j, k, i, n, actor, streak
    cdef const unsigned char* row
    cdef bint own_turn
    row = count_bytes(game.hands[seat], N)
    therm_into(out, HAND, 4, row, N)
    memset(seen, 0, sizeof(seen))
    seen_add(seen, row, N)
    k = kind_of(game.indicator, N)
    (<unsigned char*> seen)[k] += 1
    out[INDICATOR * N + k] = 1
    if k != WHITE:
        out[WHITE_PLAYS * N + k] = 1
    melds, river_counts, rivers = game.melds, game.river_counts, game.rivers
    for r in range(4):
        s = (seat + r) % 4
        # melds as this seat sees them: its own hidden kongs (暗杠) in, another's left out (§1)
        melds_into(out, MELDS + 4 * r, KONGS + r, HIDDEN_KONGS + 2 * r, melds[s], r != 0, melded, N)
        row = count_bytes(river_counts[s], N)
        therm_into(out, RIVER + 4 * r, 4, row, N)
        seen_add(seen, melded, N)
        seen_add(seen, row, N)
        recent_into(out, RECENT_DISCARDS + RECENT * r, RECENT, rivers[s], N)
    unseen_into(out, UNSEEN, seen, N, seat)
    phase = game.phase
    own_turn = game.turn == seat and phase == DISCARD_PHASE
    drawn = game.drawn
    if own_turn and drawn is not None:
        out[DRAWN * N + kind_of(drawn, N)] = 1
    shipeng = game.shipeng[seat]
    if shipeng:
        kinds_into(out, SHIPENG, shipeng, N)
    window = game._window
    if window is None:
        actor = game.turn
    else:
        out[CLAIM * N + kind_of(window.tiles[0], N)] = 1
        actor = window.payer
    plane_into(out, DEALER + (<int> game.dealer - seat) % 4, 1, N)
    plane_into(out, ACTOR + (actor - seat) % 4, 1, N)
    piao, pending, claims = game.piao, game.piao_pending, game.claims
    j = 0
    for r in range(4):
        a = (seat + r) % 4
        level_into(out, PIAO + 2 * r, 2, level_of(piao[a], 2), N)
        if a in pending:
            plane_into(out, PIAO_PENDING + r, 1, N)
        claims_a = claims[a]
        for i in range(4):  # a's claims on each other seat b (承包), b in the observer's relative order
            b = (seat + i) % 4
            if b == a:
                continue
            level_into(out, CLAIMS + j, 3, level_of(claims_a[b], 3), N)
            j += 3
    streak = game.streak
    if not 1 <= streak <= 3:
        raise ValueError(f"streak {streak}: the STREAK planes hold 1..3")
    plane_into(out, STREAK + streak - 1, 1, N)
    wall = game.wall
    wall_into(out, WALL, wall.remaining, 136, N)
    plane_into(out, PHASE + label_index(phase, PHASE_LABELS), 1, N)
    if own_turn and game.ready_before():
        plane_into(out, READY, 1, N)
    return 0

# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""``cs-v0`` planes written by C loops: the compiled twin of ``observation.Encoder.planes``.

Built by the build backend (``setup.py``) where a C compiler exists; ``observation.Encoder`` uses
it then and its own incremental pure-Python encoder otherwise (``CNMAHJONG_PURE=1``, or no
build). It reads every count row from the game at each call (no state to keep): the offsets
come from ``observation.CHANNELS`` (the layout's declaration, where each channel's meaning is),
import refuses (ImportError, so the pure encoder serves) when that declaration no longer lays
out the groups of ``WRITTEN_FOR``, and ``tests/test_compiled.py`` checks both give the same
bytes at every step of 20,000 hands.
"""

cimport cython
from libc.stdint cimport uint64_t
from libc.string cimport memset

from cnmahjong.envs.changsha import observation as _obs
from cnmahjong.envs.changsha.game import PHASES
from cnmahjong.envs.changsha.game cimport ChangshaGame  # its slots read as C fields (game.pxd)
from cnmahjong.envs.core.engine cimport ClaimWindow, label_index
from cnmahjong.envs.core.meld cimport Meld
from cnmahjong.envs.core.planes cimport (count_bytes, kind_of, kinds_into, plane_into,
                                         recent_into, seen_add, therm_into, twin_of, unseen_into)
from cnmahjong.envs.core.wall cimport Wall

WRITTEN_FOR = (
    ("HAND", 4, 1, "THERMOMETER"), ("MELDS", 4, 4, "THERMOMETER"), ("RIVER", 4, 4, "THERMOMETER"),
    ("SHOWN", 4, 4, "THERMOMETER"), ("UNSEEN", 4, 1, "THERMOMETER"), ("KONGS", 1, 4, "KINDS"),
    ("RECENT_DISCARDS", 6, 4, "ONE_HOT"), ("DRAWN", 1, 1, "ONE_HOT"), ("LOUHU", 1, 1, "KINDS"),
    ("REVEALED", 2, 1, "THERMOMETER"), ("CLAIM", 2, 1, "THERMOMETER"), ("DEALER", 4, 1, "CHOICE"),
    ("LOCKED", 1, 4, "FLAG"), ("ACTOR", 4, 1, "CHOICE"), ("WALL", 1, 1, "FRACTION"),
    ("STACKS", 1, 1, "FRACTION"), ("PHASE", 11, 1, "CHOICE"), ("DECLARED", 1, 4, "FLAG"),
)
"""The ``cs-v0`` groups these loops write (name, planes per block, blocks, value kind), in plane
order: the twin serves only while ``observation.CHANNELS`` lays out the same, offsets computed
from both by the same ``layout_of``."""


# planes(game, seat) and planes_into(game, seat, buf, offset): the Twin's (envs/core/planes), its checks
# there; refused at import unless observation.CHANNELS lays out WRITTEN_FOR (before an offset is read)
_twin = twin_of(_write, ChangshaGame, _obs.CHANNELS, _obs.NUM_KINDS, WRITTEN_FOR, 27, "cs-v0", __name__)
planes, planes_into = _twin.planes, _twin.planes_into

cdef int HAND = _obs.CHANNELS.start("HAND"), MELDS = _obs.CHANNELS.start("MELDS")
cdef int RIVER = _obs.CHANNELS.start("RIVER"), SHOWN = _obs.CHANNELS.start("SHOWN")
cdef int UNSEEN = _obs.CHANNELS.start("UNSEEN"), KONGS = _obs.CHANNELS.start("KONGS")
cdef int RECENT_DISCARDS = _obs.CHANNELS.start("RECENT_DISCARDS"), RECENT = _obs.CHANNELS["RECENT_DISCARDS"].planes
cdef int DRAWN = _obs.CHANNELS.start("DRAWN"), LOUHU = _obs.CHANNELS.start("LOUHU")
cdef int REVEALED = _obs.CHANNELS.start("REVEALED"), CLAIM = _obs.CHANNELS.start("CLAIM")
cdef int DEALER = _obs.CHANNELS.start("DEALER"), LOCKED = _obs.CHANNELS.start("LOCKED")
cdef int ACTOR = _obs.CHANNELS.start("ACTOR"), WALL = _obs.CHANNELS.start("WALL")
cdef int STACKS = _obs.CHANNELS.start("STACKS"), PHASE = _obs.CHANNELS.start("PHASE")
cdef int DECLARED = _obs.CHANNELS.start("DECLARED")
cdef tuple PHASE_LABELS = tuple(PHASES)  # a phase's plane: its index here (engine.label_index)


@cython.boundscheck(True)  # the game's lists indexed as lists (typed below), checked: a game's
@cython.nonecheck(True)  # slots are the caller's to set, a short list or None an error, not a crash
cdef int _write(object of, int seat, unsigned char* out) except -1:
    """``seat``'s planes into the row's zero bytes at ``out`` (``of`` checked by the Twin)."""
    cdef ChangshaGame game = <ChangshaGame> of
    cdef list melded, river_counts, shown, melds, rivers, locked, declared
    cdef Meld m
    cdef ClaimWindow window
    cdef Wall wall
    cdef uint64_t seen[5]
    cdef unsigned char small[27]
    cdef int r, s, k, i, n, t, dealer, actor
    cdef const unsigned char* row
    memset(seen, 0, sizeof(seen))
    row = count_bytes(game.hands[seat], 27)
    therm_into(out, HAND, 4, row, 27)
    seen_add(seen, row, 27)
    melded, river_counts, shown, melds, rivers = game.melded, game.river_counts, game.shown, game.melds, game.rivers
    for r in range(4):
        s = (seat + r) % 4
        row = count_bytes(melded[s], 27)
        therm_into(out, MELDS + 4 * r, 4, row, 27)
        seen_add(seen, row, 27)
        row = count_bytes(river_counts[s], 27)
        therm_into(out, RIVER + 4 * r, 4, row, 27)
        seen_add(seen, row, 27)
        row = count_bytes(shown[s], 27)
        therm_into(out, SHOWN + 4 * r, 4, row, 27)
        if r:
            seen_add(seen, row, 27)
        for m in melds[s]:
            if len(m.tiles) == 4:
                out[(KONGS + r) * 27 + kind_of(m.tiles[0], 27)] = 1
        recent_into(out, RECENT_DISCARDS + RECENT * r, RECENT, rivers[s], 27)
    revealed = game.revealed
    if revealed:
        memset(small, 0, 27)
        for x in revealed:
            small[kind_of(x, 27)] += 1
        therm_into(out, REVEALED, 2, small, 27)
        seen_add(seen, small, 27)
    unseen_into(out, UNSEEN, seen, 27, seat)
    window = game._window
    if window is None:
        actor = game.turn
    else:
        memset(small, 0, 27)
        for x in window.tiles:
            small[kind_of(x, 27)] += 1
        therm_into(out, CLAIM, 2, small, 27)
        actor = window.payer
    phase = game.phase
    drawn = game.drawn
    if drawn is not None and game.turn == seat and phase == "discard":
        out[DRAWN * 27 + kind_of(drawn, 27)] = 1
    louhu = game.louhu[seat]
    if louhu:
        kinds_into(out, LOUHU, louhu, 27)
    dealer = game.dealer
    plane_into(out, DEALER + (dealer - seat) % 4, 1, 27)
    locked, declared = game.locked, game.declared
    for r in range(4):
        s = (seat + r) % 4
        if locked[s]:
            plane_into(out, LOCKED + r, 1, 27)
        if declared[s]:
            plane_into(out, DECLARED + r, 1, 27)
    plane_into(out, ACTOR + (actor - seat) % 4, 1, 27)
    wall = game.wall
    n, t = wall.remaining, wall.stacks_left()
    if not (0 <= n <= 108 and 0 <= t <= 108):
        raise ValueError(f"wall of {n} tiles in {t} stacks: outside 0..108")
    plane_into(out, WALL, <unsigned char> n, 27)
    plane_into(out, STACKS, <unsigned char> t, 27)
    plane_into(out, PHASE + label_index(phase, PHASE_LABELS), 1, 27)
    return 0

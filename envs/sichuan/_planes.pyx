# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""``sc-v0`` planes written by C loops: the compiled twin of ``observation.Encoder.planes``.

Built by the build backend (``setup.py``) where a C compiler exists; ``observation.Encoder`` uses
it then and its own cached rows otherwise (``CNMAHJONG_PURE=1``, or no build). It reads the game
at each call (no state to keep): the offsets come from ``observation.CHANNELS`` (the layout's
declaration, where each channel's meaning is), the labels of its one-of groups from
``observation`` too, import refuses (ImportError, so the pure encoder serves) when that
declaration no longer lays out the groups of ``WRITTEN_FOR``, and ``tests/test_compiled.py``
checks both give the same bytes at every step of 20,000 hands.
"""

cimport cython
from libc.string cimport memset

from cnmahjong.envs.core.engine cimport ClaimWindow, Window, label_index
from cnmahjong.envs.core.planes cimport (count_bytes, kind_of, kinds_into, level_into, level_of,
                                         melds_into, plane_into, recent_into, therm_add, therm_into,
                                         twin_of, wall_into)
from cnmahjong.envs.core.wall cimport Wall
from cnmahjong.envs.sichuan import observation as _obs
from cnmahjong.envs.sichuan.game cimport SichuanGame  # its slots read as C fields (game.pxd)
from cnmahjong.envs.sichuan.actions import SWAP as _SWAP_ACTION
from cnmahjong.envs.sichuan.game import DISCARD, PHASES, SWAP

WRITTEN_FOR = (
    ("HAND", 4, 1, "THERMOMETER"), ("DRAWN", 1, 1, "ONE_HOT"), ("PASSED", 3, 1, "THERMOMETER"),
    ("RECEIVED", 3, 1, "THERMOMETER"), ("DIRECTION", 4, 1, "CHOICE"), ("PICKS", 3, 1, "LEVEL"),
    ("VOID", 4, 4, "CHOICE"), ("MELDS", 4, 4, "THERMOMETER"), ("KONGS", 1, 4, "KINDS"),
    ("HIDDEN_KONGS", 2, 4, "LEVEL"), ("RIVER", 4, 4, "THERMOMETER"), ("RECENT_DISCARDS", 6, 4, "ONE_HOT"),
    ("OUT", 4, 4, "CHOICE"), ("WON_TILE", 1, 4, "ONE_HOT"), ("GAINS", 1, 4, "FRACTION"),
    ("LOSSES", 1, 4, "FRACTION"), ("KONG_MONEY", 1, 4, "FRACTION"), ("PASSED_HU", 1, 1, "FLAG"),
    ("PASSED_FAN", 6, 1, "LEVEL"), ("PENG_LOCK", 1, 1, "KINDS"), ("OFFERED", 1, 1, "ONE_HOT"),
    ("ACTOR", 4, 1, "CHOICE"), ("DEALER", 4, 1, "CHOICE"), ("WALL", 1, 1, "FRACTION"), ("PHASE", 6, 1, "CHOICE"),
)
"""The ``sc-v0`` groups these loops write (name, planes per block, blocks, value kind), in plane
order: the twin serves only while ``observation.CHANNELS`` lays out the same, offsets computed
from both by the same ``layout_of``."""

# planes(game, seat) and planes_into(game, seat, buf, offset): the Twin's (envs/core/planes), its checks
# there; refused at import unless observation.CHANNELS lays out WRITTEN_FOR (before an offset is read)
_twin = twin_of(_write, SichuanGame, _obs.CHANNELS, _obs.KINDS, WRITTEN_FOR, 27, "sc-v0", __name__)
planes, planes_into = _twin.planes, _twin.planes_into

cdef enum:
    N = 27  # kinds a plane (checked against observation.KINDS above)
cdef int HAND = _obs.HAND, DRAWN = _obs.DRAWN, PASSED = _obs.PASSED, RECEIVED = _obs.RECEIVED
cdef int DIRECTION = _obs.DIRECTION, PICKS = _obs.PICKS, VOID = _obs.VOID, MELDS = _obs.MELDS, KONGS = _obs.KONGS
cdef int HIDDEN_KONGS = _obs.HIDDEN_KONGS, RIVER = _obs.RIVER, RECENT_DISCARDS = _obs.RECENT_DISCARDS
cdef int RECENT = _obs.RECENT, OUT = _obs.OUT, WON_TILE = _obs.WON_TILE, GAINS = _obs.GAINS, LOSSES = _obs.LOSSES
cdef int KONG_MONEY = _obs.KONG_MONEY, PASSED_HU = _obs.PASSED_HU, PASSED_FAN = _obs.PASSED_FAN
cdef int PENG_LOCK = _obs.PENG_LOCK, OFFERED = _obs.OFFERED, ACTOR = _obs.ACTOR, DEALER = _obs.DEALER
cdef int WALL = _obs.WALL, PHASE = _obs.PHASE, MONEY_CLAMP = _obs.MONEY_CLAMP, SWAP_ACTION = _SWAP_ACTION
cdef tuple PHASE_LABELS = tuple(PHASES)  # a phase's plane: its index here (engine.label_index)
cdef tuple DIRECTION_LABELS = tuple(_obs.DIRECTION_LABELS)
cdef dict OUT_INDEX = {k: i for i, k in enumerate(_obs.OUT_LABELS)}
cdef int OUT_IN = OUT_INDEX["in"]  # a seat still playing: its index read once here
cdef object UNKNOWN = _obs.UNKNOWN, DISCARD_PHASE = DISCARD, SWAP_KIND = SWAP


cdef int _therm_of(list tiles, int minus, unsigned char* out, int channel, int levels) except -1:
    """The thermometer planes ("count > l", l < ``levels``) of a list of kinds (each less ``minus``:
    a 换三张 pick is an action) from plane ``channel``, written as they are counted: a kind's
    (c + 1)th copy sets its plane c (the row is zero already). A game's list: anything else, None
    included, a TypeError."""
    cdef unsigned char row[N]
    memset(row, 0, N)
    for x in tiles:
        therm_add(out, channel, levels, kind_of(x - minus if minus else x, N), row, N)
    return 0


cdef unsigned char _money(object amount, object base) except? 0:
    """An amount in whole units of the 底分 ``base``, clamped at ``MONEY_CLAMP`` (Python ints: a
    config's base is any positive int)."""
    n = amount // base
    if n < 0:
        raise ValueError(f"a money plane holds no negative amount ({amount} at base {base})")
    return <unsigned char> (MONEY_CLAMP if n > MONEY_CLAMP else n)


@cython.boundscheck(True)  # the game's lists indexed as lists (typed below), checked: a game's
@cython.nonecheck(True)  # slots are the caller's to set, a short list or None an error, not a crash
cdef int _write(object of, int seat, unsigned char* out) except -1:
    """``seat``'s planes into the row's zero bytes at ``out`` (``of`` checked by the Twin)."""
    cdef SichuanGame game = <SichuanGame> of
    cdef list melds, rivers, payments, river, received, wins, ledger, voids
    cdef Window window
    cdef Wall wall
    cdef unsigned char row[N]
    cdef int r, s, n, actor, picks
    cdef const unsigned char* hand
    hand = count_bytes(game.hands[seat], N)
    therm_into(out, HAND, 4, hand, N)
    phase = game.phase
    turn_draws = game.turn_draws
    if phase == DISCARD_PHASE and game.turn == seat and turn_draws:
        out[DRAWN * N + kind_of(turn_draws[len(turn_draws) - 1], N)] = 1  # no negative index: no wraparound
    window = game._window
    picks = 0
    if window is not None and window.kind == SWAP_KIND:
        own = window.picks.get(seat)
        if own:
            picks = len(own)
            _therm_of(own, SWAP_ACTION, out, PASSED, 3)
    if not picks:
        _therm_of(game.passed[seat], 0, out, PASSED, 3)
    level_into(out, PICKS, 3, picks, N)
    received = game.received[seat]
    if received:  # none before the swap: no planes
        _therm_of(received, 0, out, RECEIVED, 3)
    direction = game.swap_direction
    plane_into(out, DIRECTION + label_index(UNKNOWN if direction is None else direction, DIRECTION_LABELS), 1, N)
    voids, melds, rivers, payments = game.voids, game.melds, game.rivers, game.payments
    base = None  # the config's 底分, read where a money plane needs it
    wins = game._wins
    ledger = game.ledger
    for r in range(4):  # one pass over the seats, in relative order
        s = (seat + r) % 4
        plane_into(out, VOID + 4 * r + (0 if voids is None else 1 + <int> voids[s]), 1, N)
        # melds as this seat sees them: another seat's 暗杠 face down (Meld.hidden: the game made
        # it so exactly when reveal_angang_tile is off, the pure encoder's test)
        melds_into(out, MELDS + 4 * r, KONGS + r, HIDDEN_KONGS + 2 * r, melds[s], r != 0, row, N)
        river = rivers[s]
        if river:
            _therm_of(river, 0, out, RIVER + 4 * r, 4)
            recent_into(out, RECENT_DISCARDS + RECENT * r, RECENT, river, N)
        won = None
        for w in wins:  # the seat's win (血战: at most one; the last, as a dict keyed by seat keeps)
            if w["seat"] == s:
                won = w
        if won is None:
            plane_into(out, OUT + 4 * r + OUT_IN, 1, N)
        else:
            plane_into(out, OUT + 4 * r + <int> OUT_INDEX[won["kind"]], 1, N)
            if won["tile"] is not None:
                out[(WON_TILE + r) * N + kind_of(won["tile"], N)] = 1
        paid = payments[s]
        if paid:
            if base is None:
                base = game.config.base
            if paid > 0:
                plane_into(out, GAINS + r, _money(paid, base), N)
            else:
                plane_into(out, LOSSES + r, _money(-paid, base), N)
        held = 0
        for e in ledger:
            if e.owner == s:
                held += e.amount
        if held:
            if base is None:
                base = game.config.base
            plane_into(out, KONG_MONEY + r, _money(held, base), N)
    threshold = game.threshold[seat]
    if threshold is not None:
        plane_into(out, PASSED_HU, 1, N)
        level_into(out, PASSED_FAN, 6, level_of(threshold, 6), N)
    lock = game.peng_lock[seat]
    if lock:
        kinds_into(out, PENG_LOCK, lock, N)
    if isinstance(window, ClaimWindow):
        out[OFFERED * N + kind_of((<ClaimWindow> window).tiles[0], N)] = 1
        actor = (<ClaimWindow> window).payer
    else:
        actor = game.turn
    plane_into(out, ACTOR + (actor - seat) % 4, 1, N)
    plane_into(out, DEALER + (<int> game.dealer - seat) % 4, 1, N)
    wall = game.wall
    wall_into(out, WALL, wall.remaining, 255, N)
    plane_into(out, PHASE + label_index(phase, PHASE_LABELS), 1, N)
    return 0

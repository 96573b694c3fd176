"""What every ruleset's engine shares: the decision protocol, blind simultaneous windows,
the deal, scenario checks, the event log with verified replay, and the match loop.

A ruleset's game class inherits ``TableGame`` and keeps only its own rules: the
state machine behind ``_apply`` (a decision outside a window) and
``_resolve_window`` (every eligible seat has answered a simultaneous decision).

- ``to_act`` lists the seats that must decide now: one seat on its turn, or
  every eligible seat at once for a simultaneous decision (claims on a
  discard). A seat's legal actions never depend on what another seat has
  already chosen: choices stay hidden until everybody has answered, and only
  then does the ruleset resolve them by priority.
- ``step(seat, action)`` checks the seat and action (ints or numpy ints, never
  bools or floats) and their legality before anything changes.
- Every state change is appended to ``events`` as a JSON-serialisable dict;
  ``replay(events)`` rebuilds the game from its deal and checks every recorded
  event against the rebuilt one. The frequent ones wait packed in the log's tail
  until ``events`` is read (``cnmahjong.envs.core.eventlog``).
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

import copy
import random
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import compress
from operator import itemgetter
from typing import Any, ClassVar

from cnmahjong.envs.core.checks import bool_arg, int_arg, seed_arg, sequence_arg
from cnmahjong.envs.core.eventlog import ACT, flush, pack
from cnmahjong.envs.core.result import HandResult
from cnmahjong.envs.core.seats import NEXT, NUM_SEATS, OTHERS  # noqa: F401  (re-exported: rulesets import them here)
from cnmahjong.envs.core.tiles import COPIES, format, tiles_arg
from cnmahjong.envs.core.wall import Wall, seeded_shuffle, shuffled

DEALT_TILES = 53
"""Tiles dealt: 13 to each seat and one more to the dealer (§1 of both rule texts)."""
DONE = "done"
"""The phase of a finished hand."""

_HELD = bytes(1 if c else 0 for c in range(256))
_SMALL_INTS = tuple(range(64))
"""The kinds 0..63 as ints: compiled, ``_held_kinds`` takes its items here (engine.pxd: a C tuple)."""
_UNSET = object()
_FACTS: dict[type, tuple[int, bytes, bool, bytes, tuple[str, ...]]] = {}
"""Game class -> (its mask's size, a mask of zeros, whether it overrides ``_more_picks``, the zeros
after the kinds, its ``PHASES``: an act's packed phase is an index there), made on first use: a
compiled class cannot have them set as class attributes."""


_LAST: tuple[Any, Any] = (None, None)
"""(the class asked last, its facts): a table asks ``_facts_of`` for its one class at every step.
One tuple, read once: another thread may replace it, never half of it."""


def _facts_of(cls: type) -> tuple[int, bytes, bool, bytes, tuple[str, ...]]:
    """``_FACTS[cls]``, made on first use: the last class asked answered without a lookup (``_LAST``)."""
    global _LAST
    last = _LAST
    if last[0] is cls:
        return last[1]
    facts = _FACTS.get(cls)
    if facts is None:
        n = cls.ACTIONS.NUM_ACTIONS
        below = cls.__mro__[:cls.__mro__.index(TableGame)]  # read from the classes' own dicts: compiled,
        more_picks = any(["_more_picks" in vars(k) for k in below])  # a cpdef method is no one object
        facts = _FACTS[cls] = (n, bytes(n), more_picks, bytes(n - cls.NUM_KINDS), tuple(cls.PHASES))
    _LAST = (cls, facts)
    return facts


@cython.locals(i=cython.Py_ssize_t)
def label_index(value: Any, labels: tuple[Any, ...]) -> int:
    """The index of ``value`` among ``labels`` (a class's phases for the log, a one-of group's labels
    for the compiled planes): compiled, the same object found by pointer first (a game holds its
    modules' own strings), then an equal one; none of them a ValueError naming it."""
    for i in range(len(labels)):
        if labels[i] is value:
            return i
    for i in range(len(labels)):
        if labels[i] == value:
            return i
    raise ValueError(f"{value!r} is none of the labels {labels}")


@cython.locals(i=cython.Py_ssize_t, a=cython.longlong, items=list)
def offered(legal: list[int], action: int) -> bool:
    """Whether the int ``action`` is among the legal actions ``legal`` (a seat's pending list of
    small Python ints): compiled, each compared as a C integer (``in`` would make a rich comparison
    of objects per item: ``step`` asks at every step, the greedy players whether HU is offered at
    every decision; as Python, ``step`` asks ``in`` itself: no call). An action past the C range is
    offered nowhere; a ``legal`` that is not a list is asked with ``in``."""
    if type(legal) is not list:
        return action in legal
    if not -(1 << 62) < action < 1 << 62:
        return False
    items = legal
    a = action
    for i in range(len(items)):  # noqa: SIM110 - a C loop; any(genexpr) would be a generator object
        if cython.cast(cython.longlong, items[i]) == a:
            return True
    return False


def slot_names(cls: type) -> tuple[str, ...]:
    """Every ``__slots__`` name of ``cls`` and its bases (``__dict__`` and ``__weakref__`` aside)."""
    names = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return tuple(n for n in names if n not in ("__dict__", "__weakref__"))


class IllegalActionError(ValueError):
    """An action that is not legal for that seat now; the message names seat, action and phase."""


class ReplayMismatchError(ValueError):
    """A recorded event differs from the one the rules produce when the log is replayed.

    ``index`` is the position in the log of the first difference, ``expected`` the
    event the rebuilt game made there (None past its end) and ``found`` the recorded one."""

    def __init__(self, index: int, expected: Any, found: Any, why: str = "") -> None:
        self.index, self.expected, self.found = index, expected, found
        super().__init__(f"event {index} does not match the replayed game{': ' + why if why else ''}: "
                         f"recorded {found!r}, the rules give {expected!r}")


class Window:
    """A blind decision of several seats at once (claims on a discard, a swap, a void choice):
    every seat in ``options`` answers without seeing the others' answers, then the ruleset
    resolves ``choices`` by priority (``TableGame._resolve_window``).

    A seat may make several picks in one window (a ruleset's ``_more_picks`` offers the next
    one, masked by its earlier picks): ``picks[seat]`` holds them in order and ``choices[seat]``
    the last (``picks`` is kept only by a ruleset that overrides ``_more_picks``; with one pick
    per window, ``choices`` says it all). Nothing of a seat's picks is shown to the others before
    the window closes.
    Compiled, an extension type (``engine.pxd``): a window opens at most discards."""

    __slots__ = ("kind", "options", "choices", "picks")

    def __init__(self, kind: str, options: dict[int, list[int]]) -> None:
        self.kind = kind
        self.options = options
        """Seat -> its legal actions when the window opened (its first pick)."""
        self.choices: dict[int, int] = {}
        """Seat -> its last pick."""
        self.picks: dict[int, list[int]] = {}
        """Seat -> every pick so far, in order (only where the ruleset has ``_more_picks``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.kind!r}, options={self.options}, picks={self.picks})"

    def __getstate__(self) -> dict[str, Any]:
        return slot_state(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        set_slot_state(self, state)


class ClaimWindow(Window):
    """A window on offered ``tiles`` (a discard to claim, a kong to rob, tiles dropped by a kong):
    ``payer`` is the seat whose tiles are offered, who pays a win on them. Only claim windows have
    a tile and a payer: renderers, viewers, bot messages and encoders read them from these."""

    __slots__ = ("tiles", "payer")

    def __init__(self, kind: str, tiles: list[int], payer: int, options: dict[int, list[int]]) -> None:
        self.kind, self.options, self.choices, self.picks = kind, options, {}, {}  # Window's, set here: a claim
        self.tiles, self.payer = tiles, payer  # window opens at most discards, and a super() call costs


def slot_state(obj: Any) -> dict[str, Any]:
    """Every attribute of ``obj`` by name (the slots of each class, then any ``__dict__``): the same
    state whether its classes are compiled to C slots or not, which the default pickling of a
    compiled base class would not give (it drops a Python subclass's own slots)."""
    state = {}
    for name in slot_names(type(obj)):
        value = getattr(obj, name, _UNSET)
        if value is not _UNSET:  # a slot never set stays unset
            state[name] = value
    d = getattr(obj, "__dict__", None)
    if d:
        state.update(d)
    return state


def set_slot_state(obj: Any, state: dict[str, Any]) -> None:
    """``slot_state``'s inverse: every attribute set by name."""
    for name, value in state.items():
        setattr(obj, name, value)


class TableGame:
    """The decision protocol of one hand; see the module docstring."""

    __slots__ = ("phase", "pending", "_window", "_events", "_log_tail", "hands", "result", "payments")
    """What every game has (a ruleset's class adds its own in its ``__slots__``); the compiled build
    gives them C slots (``engine.pxd``)."""
    RULESET: ClassVar[str]
    """The ruleset's name (``Ruleset.name``): its deal events and results carry it."""
    ACTIONS: ClassVar[Any]
    """The ruleset's action module: ``NUM_ACTIONS``, ``describe(a)``."""
    NUM_KINDS: ClassVar[int]
    """Tile kinds of the ruleset; discard actions are ids ``0..NUM_KINDS-1``."""
    CONFIG: ClassVar[Any]
    """The ruleset's ``RuleConfig`` class."""
    WALL_SIZE: ClassVar[int]
    """Tiles in a full wall (108 or 136)."""
    NO_HONOURS: ClassVar[str] = ""
    """The error for an honour tile in a scenario of a ruleset without honours."""
    PHASES: ClassVar[tuple[str, ...]]
    """Every phase name, ``done`` included: the envs' numeric infos give a phase as its index."""
    SECRET_PHASES: ClassVar[tuple[str, ...]] = ()
    """Phases of blind windows whose picks the other seats never see as such (a swap's tiles):
    viewers, the play page and bot messages tell another seat's decision there as a hidden choice."""
    DECLINE_PHASES: ClassVar[tuple[str, ...]] = ()
    """Phases whose options are offered blind and may be declined (claims on a discard, robbing a
    kong, declaring): another seat's PASS there is never shown, so a declined claim or HU leaves no
    trace (it would tell that the seat was offered one)."""
    @classmethod
    def kongs_face_down(cls, config: dict[str, Any]) -> bool:
        """Whether another seat's concealed kong lies face down when made (rules ``config`` as the
        deal event gives it): then its tile and the act that made it stay out of the others' view
        of the log (``envs.core.seen``); a ruleset that shows it says False."""
        return True

    PLAYS_WITHOUT_LOG: ClassVar[bool] = False
    """Whether the game plays on with ``events`` None (its every write to the log guarded): then
    ``rollouts(log=False)`` and ``VectorEnv(log=False)`` play it without one, and its constructor
    takes ``log=False`` (``log_arg``: ``deal_and_play``'s hands, no deal event made); a class that
    does not say so is refused there before any play (a plugin's game may write to its log unguarded)."""
    DICE_AHEAD: ClassVar[int] = 0
    """Dice a hand can still roll at most (the global state shows that many ahead); 0: no dice."""

    # attributes every game has (``__slots__`` above)
    phase: str
    pending: dict[int, list[int]]
    _window: Window | None
    _events: list[dict[str, Any]] | None
    """The log's events as dicts, up to its last read (``events``)."""
    _log_tail: list[Any] | None
    """Events written since (``eventlog``): a frequent one packed, any other its dict; every write
    to the log goes here, None exactly when ``_events`` is."""
    EVENT_FORMS: ClassVar[tuple[Any, ...]] = ()
    """The ruleset's frequent events packed in the tail (``eventlog.EventForm``), indices from 1."""
    hands: list[bytearray]
    result: HandResult | None
    payments: list[int]
    """What each seat has been paid so far in the hand, net (the ruleset's own list, changed in
    place): the envs compare it with what they credited at every step (a C slot, compiled)."""

    # ------------------------------------------------------------ protocol
    @property
    def events(self) -> list[dict[str, Any]] | None:
        """The event log (``replay`` rebuilds the game from it), a list of JSON-serialisable dicts
        brought up to date when read (a list kept from an earlier read misses later events); None
        for a game played on without one (``clone(log=False)``, ``rollouts(..., log=False)``): its
        play and settlement are the same, and nothing that reads the log (replay, views, sampled
        worlds) takes it."""
        tail = self._log_tail
        if tail:
            flush(type(self), tail, self._events)
        return self._events

    @events.setter
    def events(self, log: list[dict[str, Any]] | None) -> None:
        """A new log (None: the game plays on without one); later events are appended to it."""
        if log is not None and type(log) is not list:
            raise TypeError(f"a game's event log is a list of event dicts or None, got {type(log).__name__}")
        self._events = log
        self._log_tail = None if log is None else []

    @property
    def done(self) -> bool:
        return self.phase == DONE

    @property
    def to_act(self) -> list[int]:
        """Seats that must decide now, in asking order (empty when the hand is over)."""
        return list(self.pending)

    @property
    def claim_window(self) -> ClaimWindow | None:
        """The open window if it offers tiles to claim (not a swap or void choice), else None."""
        window = self._window
        return window if isinstance(window, ClaimWindow) else None

    @property
    def claim_tiles(self) -> list[int]:
        """Tiles offered to the other seats right now; empty outside a claim window."""
        window = self.claim_window
        return list(window.tiles) if window is not None else []

    @property
    def claim_from(self) -> int | None:
        """The seat whose tile is offered (and who pays a win on it), or None."""
        window = self.claim_window
        return window.payer if window is not None else None

    seats_out: tuple[int, ...] = ()
    """Seats that have left the hand's play (a 血战 winner), in settlement order: never asked
    again this hand. Rulesets where everybody plays to the end keep the empty default."""

    @property
    def seats_settled(self) -> tuple[int, ...]:
        """Seats whose account for the hand is closed: no later payment of this hand concerns
        them. The envs end such a seat's episode at once (PettingZoo: terminated), the others play
        on. By default a seat is settled when it leaves; a ruleset where a later payment (a refund,
        an end-of-hand check) may still reach a seat that left overrides this, and that seat is
        settled when the hand ends."""
        return self.seats_out

    MAX_TO_ACT: ClassVar[int] = 3
    """The most seats that decide at once (``len(to_act)``): the others on one discard. A ruleset
    with a blind window of all four seats declares 4; ``VectorEnv`` sizes its rows by it."""

    def legal_actions(self, seat: int) -> list[int]:
        """Sorted legal action ids of ``seat`` now (empty if it is not to act)."""
        return list(self.pending.get(seat, ()))

    def peek_dice(self, n: int) -> list[int]:
        """The next ``n`` dice this hand would roll, without rolling them (rulesets with dice)."""
        return []

    # worlds for search: one implementation for every ruleset (``cnmahjong.envs.core.worlds``)
    def clone(self, log: bool = True) -> Any:
        """An independent copy, far cheaper than ``copy.deepcopy`` or replaying the events; with
        ``log=False`` one that keeps no event log (a play-out's copy: see ``events``)."""
        from cnmahjong.envs.core.worlds import clone

        return clone(self, log)

    def sample_world(self, seat: int, rng: Any) -> Any:
        """A game ``seat`` cannot tell from this one, everything it cannot see drawn from ``rng``
        (a ``numpy.random.Generator``): see ``cnmahjong.envs.core.worlds``."""
        from cnmahjong.envs.core.worlds import sample_world

        return sample_world(self, seat, rng)

    def __copy__(self) -> Any:
        """A game is copied whole: a shallow copy would share the hands, wall and event log with
        the original, so stepping one would change the other."""
        return copy.deepcopy(self)

    def __getstate__(self) -> dict[str, Any]:
        """Every attribute by name (``slot_state``), compiled or not; the log read first (its
        tail made dicts: ``events``), so a pickle holds no packed event."""
        self.events  # noqa: B018  (the property brings the log up to date)
        return slot_state(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        set_slot_state(self, state)

    def legal_mask(self, seat: int) -> bytearray:
        """``legal_actions(seat)`` as ``NUM_ACTIONS`` flag bytes (1 = legal): the env's action mask.
        As Python, when every held kind may be discarded, one byte-table pass gives the discards."""
        size, zeros, _, tail, _ = _facts_of(type(self))
        if cython.compiled:  # legal_mask_into's C loops
            mask = bytearray(size)
            self.legal_mask_into(seat, mask, 0)
            return mask
        acts = self.pending.get(seat)
        if not acts:
            return bytearray(zeros)
        if acts[0] < 0 or acts[-1] >= size:  # sorted (``legal_actions``): the ends bound the rest
            raise ValueError(f"legal actions {acts} of seat {seat} outside 0..{size - 1}")
        if self._discards_all_held(seat):
            row = bytearray(self.hands[seat].translate(_HELD))
            row += tail
            for a in acts[bisect_left(acts, self.NUM_KINDS):]:  # the other actions of the turn
                row[a] = 1
            return row
        row = bytearray(zeros)
        for a in acts:
            row[a] = 1
        return row

    def legal_mask_into(self, seat: int, buf: bytearray, offset: int) -> None:
        """``legal_mask(seat)`` written over ``buf[offset:offset + NUM_ACTIONS]`` (a batch's mask
        row in place: ``VectorEnv``). Every action is checked to lie in the row before a byte is
        written."""
        size = _facts_of(type(self))[0]
        if not isinstance(buf, bytearray):
            raise TypeError(f"a mask row is written into a bytearray, got {type(buf).__name__}")
        if not 0 <= offset <= len(buf) - size:
            raise ValueError(f"a mask row needs {size} bytes from offset {offset}: the bytearray has {len(buf)}")
        if not cython.compiled:  # as Python, the row made whole and written at once
            buf[offset:offset + size] = self.legal_mask(seat)
            return
        acts = self.pending.get(seat)
        for i in range(len(acts) if acts else 0):  # C loops over the row
            a = acts[i]
            if not 0 <= a < size:
                raise ValueError(f"legal action {a} of seat {seat} outside 0..{size - 1}")
        p = buf
        p += offset
        for i in range(size):
            p[i] = 0
        for i in range(len(acts) if acts else 0):
            p[acts[i]] = 1

    def _held_kinds(self, h: bytearray, seat: int = -1, lo: int = 0, hi: int = 1 << 30) -> list[int]:
        """The kinds count vector ``h`` holds, in order (a turn's discards), from ``lo`` to before
        ``hi`` (by default all of them; a range clipped to ``h``). ``seat``: the seat the list is
        for, asked next by ``_ask_seat``; compiled, the list that seat was asked with last is filled
        again where nothing but its one-seat dict holds either (reference counts, as ``_ask_seat``
        reads them), where a new list costs its allocation and the old one's release."""
        n = len(h)
        if not cython.compiled and lo <= 0 and hi >= n:  # as Python, the whole vector: no slice made
            return list(compress(range(n), h))
        if hi < n:
            n = hi
        if lo < 0:
            lo = 0
        if cython.compiled and n <= 64:  # one C pass over the count vector through a pointer
            p = h  # (a comprehension's variable would be a Python object: its own scope, untyped),
            size = 0  # the kinds held noted in a C array; the list made at its size and filled in
            for t in range(lo, n):  # place from it (engine.pxd's C calls: no item to replace, no check)
                if p[t]:
                    kinds[size] = t  # noqa: F821 - C only (engine.pxd)
                    size += 1
            held = self._spare_list(seat)
            if held is None:  # a new list made at its size, its items written below (NULL until then)
                held = PyList_New(size)  # noqa: F821
                n = 0
            else:
                n = len(held)
                if size > list_capacity(held):  # noqa: F821 - C only (engine.pxd): more than it has room for
                    for t in range(n):
                        held[t] = _SMALL_INTS[kinds[t]]  # noqa: F821
                    for t in range(n, size):
                        held.append(_SMALL_INTS[kinds[t]])  # noqa: F821 - grown by the list itself
                    return held
            items = list_items(held)  # noqa: F821 - within its room: its item pointers written in C
            for t in range(size):
                small = tuple_item(_SMALL_INTS, kinds[t])  # noqa: F821 - borrowed: the tuple keeps them
                if t < n:
                    if items[t] == small:  # the same kind there already (most of a seat's last turn)
                        continue
                    Py_XDECREF(items[t])  # noqa: F821 - the old item's reference released
                Py_XINCREF(small)  # noqa: F821 - the list's own reference
                items[t] = small
            for t in range(size, n):
                Py_XDECREF(items[t])  # noqa: F821
            list_set_size(held, size)  # noqa: F821 - its room kept: a longer refill needs no realloc
            return held
        return list(compress(range(lo, n), h[lo:n]))  # the range's slice, in C as Python

    def _spare_list(self, seat: int) -> list[int] | None:
        """Compiled: the list of ``seat``'s last one-seat ask (``_spare_dict``) where only that
        dict holds it, else None (a caller that kept either sees it unchanged). As Python: None."""
        if cython.compiled and 0 <= seat < 4:  # NUM_SEATS
            spare = self._spare_dict(seat)
            if spare is not None:
                at = 0  # its one entry read in C, not looked up
                PyDict_Next(spare, cython.address(at), cython.address(key), cython.address(acts))  # noqa: F821
                if borrowed_refcount(acts) == 1 and borrowed_is_list(acts):  # noqa: F821 - the dict's only
                    return cython.cast(list, acts)  # noqa: F821 - a reference of its own, returned
        return None

    def _spare_dict(self, seat: int) -> dict[int, list[int]] | None:
        """Compiled: the one-seat dict this game last asked ``seat`` in (``_asked``, a C slot: no
        state of the hand, never copied or pickled) where nothing else holds it, as its reference
        count says (that list and the caller's name), and it still holds one entry; else None."""
        asked = self._asked
        if asked is not None:
            spare = asked[seat]
            if spare is not None and Py_REFCNT(spare) == 2 and len(spare) == 1:  # noqa: F821 - C only
                return spare
        return None

    def _discards_all_held(self, seat: int) -> bool:
        """True when ``seat``'s legal discards are exactly the kinds it holds (its turn)."""
        return False

    def step(self, seat: int, action: int) -> None:
        """Apply one decision of ``seat``. Raises ``IllegalActionError`` if it is not legal, and
        ``TypeError`` for a seat or action that is not an integer; either leaves the game as it was."""
        if type(seat) is not int:
            seat = int_arg(seat, "seat")
        if type(action) is not int:
            action = int_arg(action, "action")
        legal = self.pending.get(seat)
        if legal is None or (not offered(legal, action) if cython.compiled else action not in legal):
            raise IllegalActionError(self._illegal_message(seat, action, legal))
        self._take(seat, action)

    def _take(self, seat: int, action: int) -> None:
        """``step`` past its checks: ``action`` is one of ``seat``'s pending actions, read from
        ``pending`` itself (``play_forced`` and the rollouts' play loop take them there, so they
        skip the look-up and the scan of the legal list that ``step`` makes of a caller's pair)."""
        phase = self.phase
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            facts = _facts_of(type(self))
            self._log_tail.append(pack(ACT, seat, action, label_index(phase, facts[4])))
        window = self._window
        if window is not None:
            window.choices[seat] = action
            del self.pending[seat]
            facts = _facts_of(type(self))
            more = None
            if facts[2]:  # a ruleset with more picks: they are kept, and the next one asked
                picks = window.picks.get(seat)
                if picks is None:
                    window.picks[seat] = [action]
                else:
                    picks.append(action)
                more = self._more_picks(window, seat)
            if more:  # asked again after the others: a window is answered round by round
                self.pending[seat] = more
            elif not self.pending:
                self._window = None
                self.pending = {}
                self._resolve_window(window)
            return
        self.pending = {}
        self._apply(seat, action, phase)

    def _apply(self, seat: int, action: int, phase: str) -> None:
        """A single seat's decision (no window open): the ruleset's state machine."""
        raise NotImplementedError

    def _resolve_window(self, window: Window) -> None:
        """Every seat of ``window`` has answered: resolve the choices by priority."""
        raise NotImplementedError

    @classmethod
    def seat_view(cls, e: dict[str, Any], viewer: int) -> dict[str, Any] | None:
        """An event as seat ``viewer`` may see it while the hand is on (a copy without what it may
        not see), or None when nothing of it may be seen. The default: another seat's PASS in a
        ``DECLINE_PHASES`` window is not shown; the ruleset's own events are public. A ruleset whose
        event carries every seat's secret (a swap's tiles) extends this; the common events (draws,
        concealed kongs, the deal) are ``envs.core.seen``'s."""
        if (e["type"] == "act" and e["seat"] != viewer and e.get("phase") in cls.DECLINE_PHASES
                and e.get("action") == cls.ACTIONS.PASS):
            return None
        return e

    def _more_picks(self, window: Window, seat: int) -> list[int]:
        """The legal actions of ``seat``'s next pick in ``window`` after ``window.picks[seat]``,
        or [] when it has made all its picks (the default: one pick per window)."""
        return []

    def play_forced(self) -> tuple[int, int] | None:
        """Play every decision that has one legal action (the envs' ``auto_single_actions``): a
        seat on its turn with one choice, or a seat of a blind window with one choice while the
        others still decide (a forced pick leaks nothing), until every seat to act has a real
        choice; return the last (seat, action) played, or None."""
        last = None
        pending = self.pending
        while pending:
            seat = None
            for s, acts in pending.items():  # a loop, not next(genexp): compiled, no closure (PyDict_Next)
                if len(acts) == 1:
                    seat = s
                    break
            if seat is None:
                break
            self._take(seat, acts[0])
            last = (seat, acts[0])
            pending = self.pending
        return last

    def _illegal_message(self, seat: Any, action: Any, legal: list[int] | None) -> str:
        describe = self.ACTIONS.describe
        try:
            name = describe(action)
        except ValueError:
            name = f"an id outside 0..{self.ACTIONS.NUM_ACTIONS - 1}"
        if self.phase == DONE:
            return f"seat {seat} cannot play {action} ({name}): the hand is over"
        if legal is None:
            return (f"seat {seat} is not to act in phase {self.phase!r} "
                    f"(seats to act: {self.to_act}); it tried {action} ({name})")
        names = ", ".join(f"{a} {describe(a)}" for a in legal)
        return f"seat {seat} cannot play {action} ({name}) in phase {self.phase!r}: legal are {names}"

    def _ask(self, phase: str, pending: dict[int, list[int]]) -> None:
        self.phase = phase
        self.pending = pending

    def _ask_seat(self, phase: str, seat: int, acts: list[int]) -> None:
        """``_ask(phase, {seat: acts})``: one seat asked, a turn's ask. Compiled, the one-seat dict
        this game last asked ``seat`` in (``_asked``, a C slot: no state of the hand, never copied
        or pickled) is used again where nothing else holds it, as its reference count says (that
        list and this function's name): its value replaced, where a new dict costs an allocation
        of its own and of its keys at every turn, and their release at the next step. A caller
        that kept an old ``pending`` keeps it unchanged (held, it is never used again)."""
        if cython.compiled:
            if self._asked is None:
                self._asked = [None, None, None, None]  # NUM_SEATS
            spare = self._spare_dict(seat)
            if spare is not None:  # its one key is seat (pending is read-only): its value replaced,
                at = 0  # unless it is acts already (_held_kinds refilled that list)
                PyDict_Next(spare, cython.address(at), cython.address(key), cython.address(value))  # noqa: F821
                if not is_borrowed(value, acts):  # noqa: F821 - C only (engine.pxd)
                    spare[seat] = acts
            else:
                spare = self._asked[seat] = {seat: acts}
            self.phase = phase
            self.pending = spare
            return
        self.phase = phase  # as Python, _ask's two lines (no second call at every turn)
        self.pending = {seat: acts}

    def _open_window(self, window: Window) -> None:
        """Ask every seat in ``window.options`` at once (choices stay hidden until all answered)."""
        self._window = window
        self._ask(window.kind, dict(window.options))

    def _end_hand(self, result: HandResult) -> None:
        """The hand is over: nobody is asked any more, and the log ends with the result."""
        self.result = result
        self.phase = DONE
        self.pending = {}
        self._window = None
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append(result)  # the end event: its dict made when the log is read (eventlog)

    # ------------------------------------------------------------ the deal
    def __init__(self, config: Any = None, seed: int | None = None, dealer: int = 0, log: bool = True) -> None:
        """A seeded hand (§1 of the rule texts: the shared deal) for a ruleset whose deal needs no
        more than ``_setup``; a ruleset with dice or a streak writes its own constructor. ``log=False``
        (a class that ``PLAYS_WITHOUT_LOG``): no event log from the deal on (``log_arg``)."""
        config, seed, dealer = self._check_args(config, seed, dealer)
        log = log_arg(type(self), log)
        hands, wall, _ = self._seeded_deal(seed, dealer)
        self._setup(config, seed, dealer, hands, wall, "seed")
        if not log:
            self.events = None

    @classmethod
    def new_hand(cls, config: Any, rng: Any) -> Any:
        """The next hand of a seeded stream: its seed and dealer drawn from ``rng`` (a numpy
        ``Generator``). The AEC env and ``VectorEnv`` both deal this way, so table ``i`` of a
        ``VectorEnv`` plays the same hands as an AEC env reset with that table's seed."""
        return cls(config, seed=int(rng.integers(2**63)), dealer=int(rng.integers(NUM_SEATS)))

    @classmethod
    def from_scenario(cls, hands: Any, wall: Any, dealer: int = 0, config: Any = None, seed: int | None = None) -> Any:
        """A hand from given hands and undealt wall (head to tail), checked as ``check_scenario`` says."""
        config, seed, dealer = cls._check_args(config, seed, dealer)
        hs, w = cls._check_scenario(hands, wall, dealer)
        game = cls.__new__(cls)
        game._setup(config, seed, dealer, hs, Wall(w), "scenario")
        return game

    def _setup(self, config: Any, seed: int, dealer: int, hands: list[list[int]], wall: Wall, origin: str) -> None:
        """Set up the hand from its deal (``origin``: "seed" or "scenario") and ask the first decision."""
        raise NotImplementedError

    def _deal_event(self, origin: str, hands: list[list[int]], wall: Wall, **extra: Any) -> dict[str, Any]:
        """The log's first event: everything ``replay`` needs to deal the same hand again."""
        return {"type": "deal", "ruleset": self.RULESET, "origin": origin, "dealer": self.dealer,
                "seed": self.seed, "config": self.config.to_dict(), "hands": [sorted(h) for h in hands],
                "wall": wall.tiles(), **extra}

    @classmethod
    def _check_args(cls, config: Any, seed: Any, dealer: Any) -> tuple[Any, int, int]:
        """(config, seed, dealer) checked: None config is the default preset, None seed drawn."""
        return config_arg(config, cls.CONFIG, cls.CONFIG.PRESETS[0]), seed_or_draw(seed), check_dealer(dealer)

    @classmethod
    def _seeded_deal(cls, seed: int, dealer: int) -> tuple[list[list[int]], Wall, random.Random | None]:
        """(hands, wall after the deal, the seed's generator after the shuffle): §1 of both rule
        texts. Compiled, the generator is None (the shuffle ran in C: ``seeded_shuffle``); a game
        that may roll with it makes it when first asked (``generator_after_shuffle``). As Python,
        the generator the shuffle used."""
        if cython.compiled:
            rng, tiles = None, seeded_shuffle(seed, cls.NUM_KINDS)
        else:
            rng = random.Random(seed)
            tiles = shuffled(rng, cls.NUM_KINDS)
        hands, wall = cls._dealt(tiles, dealer)
        return hands, wall, rng

    @classmethod
    def _dealt(cls, tiles: list[int], dealer: int) -> tuple[list[list[int]], Wall]:
        """(hands, wall after the deal) of the shuffled ``tiles``, head to tail (a shuffle's own
        list, a full wall of ``WALL_SIZE``: the wall takes it over)."""
        # The first 53 tiles drawn from the head are the hands; the rest, in place, are the full
        # wall after those 53 head draws (position for position, stacks counted alike:
        # test_wall.py checks it against Wall(tiles[53:]), a wall laid out at the layout's end).
        if len(tiles) != cls.WALL_SIZE:
            raise ValueError(f"a deal shuffles {cls.WALL_SIZE} tiles, got {len(tiles)}")
        hands = deal_hands(tiles, dealer)  # reads positions 0..52 only
        return hands, Wall.after_deal(tiles, DEALT_TILES)

    @classmethod
    def _check_scenario(cls, hands: Any, wall: Any, dealer: int) -> tuple[list[list[int]], list[int]]:
        """Checked scenario hands and undealt wall (see ``check_scenario``)."""
        return check_scenario(hands, wall, dealer, cls.NUM_KINDS, cls.WALL_SIZE, cls.NO_HONOURS)

    # ------------------------------------------------------------ replay
    @classmethod
    def replay(cls, events: Sequence[dict[str, Any]], verify: bool = True) -> Any:
        """Rebuild a game from its event log: the deal (from its seed, or the scenario), then
        every recorded action.

        With ``verify`` (default) every recorded event must equal the one the rebuilt game
        makes, in order, to the end of the log: a tampered payment, tile, phase or dice roll,
        or a dropped or inserted event raises ``ReplayMismatchError`` naming the first
        difference. ``verify=False`` only re-applies the actions (faster)."""
        verify = bool_arg(verify, "verify")
        events = event_log(events)
        game = cls._from_deal(events[0])
        checked = 0  # events before this index are verified
        for i, e in enumerate(events):
            if e["type"] != "act":
                continue
            if verify:  # the game's log read again: brought up to date (``events``)
                checked = _compare(game.events, events, checked, i)
            try:
                game.step(e.get("seat"), e.get("action"))
            except (IllegalActionError, TypeError, ValueError) as err:
                raise ReplayMismatchError(i, None, e, f"the recorded act cannot be played ({err})") from None
        if verify:
            made = game.events
            _compare(made, events, checked, max(len(made), len(events)))
        return game

    SCENARIO_KEYS: ClassVar[tuple[str, ...]] = ()
    """Extra keys of a scenario deal event passed on to ``from_scenario`` (e.g. ``dice``)."""
    DEAL_KEYS: ClassVar[tuple[str, ...]] = ()
    """Extra keys of every deal event passed on to the constructor and ``from_scenario``."""

    @classmethod
    def _from_deal(cls, deal: dict[str, Any]) -> Any:
        """The game a 'deal' event describes, before any decision."""
        need = ("origin", "dealer", "seed", "config", "hands", "wall") + cls.DEAL_KEYS
        missing = [k for k in need if k not in deal]
        if missing:
            raise ValueError(f"the 'deal' event lacks {missing}: it needs {', '.join(need)}"
                             + (f" (and {', '.join(cls.SCENARIO_KEYS)} for a scenario)" if cls.SCENARIO_KEYS else ""))
        if deal.get("ruleset", cls.RULESET) != cls.RULESET:
            raise ValueError(f"the 'deal' event is of the {deal['ruleset']!r} ruleset: replay it with that "
                             f"ruleset's game, not {cls.__name__} ({cls.RULESET!r})")
        if not isinstance(deal["config"], dict):
            raise TypeError(f"the 'deal' event's config must be a dict of rule options, got {deal['config']!r}")
        config = cls.CONFIG.from_dict(deal["config"])
        extra = {k: deal[k] for k in cls.DEAL_KEYS}
        if deal["origin"] == "seed":
            if deal["seed"] is None:
                raise ValueError("a seeded 'deal' event needs its seed")
            return cls(config, deal["seed"], deal["dealer"], **extra)
        if deal["origin"] == "scenario":
            extra.update({k: deal[k] for k in cls.SCENARIO_KEYS if k in deal})
            return cls.from_scenario(deal["hands"], deal["wall"], dealer=deal["dealer"], config=config,
                                     seed=deal["seed"], **extra)
        raise ValueError(f"the 'deal' event's origin is {deal['origin']!r}: allowed 'seed' or 'scenario'")


# ---------------------------------------------------------------- the deal
def _deal_positions(dealer: int) -> list[list[int]]:
    """Per seat, the positions among the first 53 wall tiles that §1 deals it: four at a time
    for three rounds from the dealer on, then one each, then one more for the dealer."""
    order = [(dealer + i) % NUM_SEATS for i in range(NUM_SEATS)]
    out: list[list[int]] = [[] for _ in range(NUM_SEATS)]
    for i in range(3):
        for j, s in enumerate(order):
            out[s].extend(range(16 * i + 4 * j, 16 * i + 4 * j + 4))
    for j, s in enumerate(order):
        out[s].append(48 + j)
    out[dealer].append(52)
    return out


_DEAL = [[itemgetter(*positions) for positions in _deal_positions(d)] for d in range(NUM_SEATS)]
_DEAL_AT = [[bytes(positions) for positions in _deal_positions(d)] for d in range(NUM_SEATS)]
"""``_DEAL``'s positions as bytes: read in C by ``deal_hands`` compiled."""


def deal_hands(dealt: Sequence[int], dealer: int) -> list[list[int]]:
    """The four hands §1 makes of the first 53 tiles drawn from the head (compiled, a shuffle's
    list read by C loops over ``_DEAL_AT``; as Python, ``_DEAL``'s itemgetters)."""
    if cython.compiled and type(dealt) is list and 0 <= dealer < 4:  # NUM_SEATS
        out = []
        for at in _DEAL_AT[dealer]:
            p = at
            hand = []
            for k in range(len(at)):
                hand.append(dealt[p[k]])  # a list's item read (bounds checked: a short list raises)
            out.append(hand)
        return out
    return [list(pick(dealt)) for pick in _DEAL[dealer]]


@cython.locals(counts=bytearray, t=cython.int)
def count_hands(hands: Iterable[Iterable[int]], num_kinds: int) -> list[bytearray]:
    """Count vectors (bytearrays: list-fast to index, and numpy reads them without a copy)."""
    out = []
    for h in hands:
        counts = zeroed(num_kinds)
        for t in h:
            counts[t] += 1
        out.append(counts)
    return out


def zero_counts(num_kinds: int) -> list[bytearray]:
    """A zeroed count vector of ``num_kinds`` per seat: a deal's melded, river or shown counts."""
    return [zeroed(num_kinds), zeroed(num_kinds), zeroed(num_kinds), zeroed(num_kinds)]  # NUM_SEATS


def zeroed(n: int) -> bytearray:
    """``bytearray(n)``: compiled (n up to 64), copied in C from a zeroed C buffer (``engine.pxd``),
    where a call of the type costs about 1,000 instructions, a game's setup making a dozen."""
    if cython.compiled and 0 <= n <= 64:
        return PyByteArray_FromStringAndSize(_ZEROS, n)  # noqa: F821 - C only
    return bytearray(n)


# ------------------------------------------------------------ arguments
def check_dealer(dealer: Any) -> int:
    return int_arg(dealer, "dealer", 0, NUM_SEATS - 1)


def config_arg(config: Any, cls: type, default: str) -> Any:
    """``config`` if it is a ``cls`` instance; None gives ``cls()`` (the ``default`` preset)."""
    if config is None:
        return cls()
    if not isinstance(config, cls):
        raise TypeError(f"config must be a {cls.__name__} from {cls.__module__} (or None for the {default} preset), "
                        f"got {type(config).__name__}: use RuleConfig.from_dict() for a dict")
    return config


def log_arg(cls: type, log: Any) -> bool:
    """A game constructor's ``log`` checked: True, or False (the game keeps no event log from the
    deal on: ``events`` None, the deal event never made: a rollout's game) for a class that
    ``PLAYS_WITHOUT_LOG``; anything else refused before the deal."""
    if type(log) is not bool:
        raise TypeError(f"log must be True or False, got {log!r}")
    if not log and not cls.PLAYS_WITHOUT_LOG:
        raise ValueError(f"{cls.__name__} does not play without its event log (TableGame.PLAYS_WITHOUT_LOG): "
                         f"allowed log=True")
    return log


def seed_or_draw(seed: Any) -> int:
    """A checked seed; None draws one from the OS so the deal event can record it."""
    seed = seed_arg(seed)
    return random.SystemRandom().getrandbits(63) if seed is None else seed


def check_scenario(hands: Any, wall: Any, dealer: int, num_kinds: int, wall_size: int,
                   what_kinds: str) -> tuple[list[list[int]], list[int]]:
    """Checked scenario hands (the dealer's 14, 13 for the others) and undealt wall: tile text or
    kinds below ``num_kinds`` (``what_kinds`` says why others are wrong), at most four copies of a
    kind, at most ``wall_size - 53`` wall tiles."""
    hands = sequence_arg(hands, "scenario hands")
    if len(hands) != NUM_SEATS:
        raise ValueError(f"a scenario needs {NUM_SEATS} hands, got {len(hands)}")
    hs = [tiles_arg(h, f"scenario hand of seat {s}", honours=num_kinds > 27) for s, h in enumerate(hands)]
    for s, h in enumerate(hs):
        want = 14 if s == dealer else 13
        if len(h) != want:
            raise ValueError(f"seat {s} holds {len(h)} tiles: the dealer (seat {dealer}) "
                             f"needs 14 and every other seat 13")
    w = tiles_arg(wall, "scenario wall", honours=num_kinds > 27)
    if len(w) > wall_size - DEALT_TILES:
        raise ValueError(f"the undealt wall holds at most {wall_size - DEALT_TILES} tiles, got {len(w)}")
    counts = [0] * 34
    for t in [t for h in hs for t in h] + w:
        if t >= num_kinds:
            raise ValueError(what_kinds)
        counts[t] += 1
        if counts[t] > COPIES:
            raise ValueError(f"the scenario holds more than {COPIES} copies of {format([t])}")
    return hs, w


# ------------------------------------------------------------ event logs
def event_log(events: Any) -> list[dict[str, Any]]:
    """Check the shape of an event log: a list of dicts, each with a 'type', the first the deal."""
    events = sequence_arg(events, "events")
    if not events:
        raise ValueError("an empty event log: it starts with the 'deal' event")
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            raise TypeError(f"event {i} must be a dict, got {type(e).__name__} {e!r}")
        if "type" not in e:
            raise ValueError(f"event {i} has no 'type': {e!r}")
    if events[0]["type"] != "deal":
        raise ValueError(f"an event log starts with the 'deal' event, got {events[0]['type']!r}")
    return events


def _compare(made: list[dict[str, Any]], recorded: list[dict[str, Any]], start: int, upto: int) -> int:
    """Raise ``ReplayMismatchError`` at the first index in ``start..upto-1`` where the game's
    events and the recorded ones differ (one list ending early counts as a difference);
    return ``upto``."""
    if len(made) >= upto and len(recorded) >= upto and made[start:upto] == recorded[start:upto]:
        return upto
    for i in range(start, upto):
        a = made[i] if i < len(made) else None
        b = recorded[i] if i < len(recorded) else None
        if a != b:
            raise ReplayMismatchError(i, a, b)
    return upto


# ------------------------------------------------------------ matches
class Match:
    """A match of ``hands`` hands: scores add up and each ruleset's dealer rule picks the next
    dealer. ``to_act``, ``legal_actions`` and ``step`` address the current hand; when it ends the
    next one is dealt at once, until ``done``."""

    GAME: ClassVar[Any]
    """The ruleset's game class."""

    def __init__(self, config: Any = None, hands: int = 4, seed: int | None = None, dealer: int | None = None) -> None:
        hands = int_arg(hands, "hands", low=1)
        self.config = config_arg(config, self.GAME.CONFIG, self.GAME.CONFIG.PRESETS[0])
        self.hands = hands
        self._rng = random.Random(seed_or_draw(seed))
        # the first dealer is drawn at random unless given
        self.dealer = self._rng.randrange(NUM_SEATS) if dealer is None else check_dealer(dealer)
        self.scores = [0] * NUM_SEATS
        self.results: list[HandResult] = []
        self.dealers: list[int] = []
        self.game = self._deal()

    def _deal(self) -> Any:
        """The next hand with ``self.dealer`` (appending it to ``dealers``), from the match's seed stream."""
        self.dealers.append(self.dealer)
        return self.GAME(self.config, seed=self._rng.getrandbits(63), dealer=self.dealer)

    def _after_hand(self, result: HandResult) -> None:
        """The ruleset's dealer rule: set ``self.dealer`` (and any streak) for the next hand; by
        default the result's ``next_dealer``."""
        self.dealer = result.next_dealer

    @property
    def done(self) -> bool:
        return len(self.results) == self.hands

    @property
    def hand_index(self) -> int:
        """0-based index of the current (or, when done, the last) hand."""
        return len(self.dealers) - 1

    @property
    def to_act(self) -> list[int]:
        return self.game.to_act

    def legal_actions(self, seat: int) -> list[int]:
        return self.game.legal_actions(seat)

    def step(self, seat: int, action: int) -> None:
        """Apply a decision in the current hand; deals the next hand when this one ends."""
        if self.done:
            raise IllegalActionError(f"the match is over after {self.hands} hands")
        self.game.step(seat, action)
        self._next_hand_if_over()

    def play_forced(self) -> tuple[int, int] | None:
        """``play_forced`` of the hand across hands: a hand that ends deals the next one."""
        last = None
        while not self.done:
            played = self.game.play_forced()
            if played is None:
                break
            last = played
            if not self.game.done:
                break
            self._next_hand_if_over()
        return last

    def _next_hand_if_over(self) -> None:
        if self.game.done:
            result = self.game.result
            assert result is not None
            self.results.append(result)
            for s, v in enumerate(result.payments):
                self.scores[s] += v
            self._after_hand(result)
            if not self.done:
                self.game = self._deal()

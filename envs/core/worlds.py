"""Cheap copies of a game, and worlds a seat cannot tell from the real one: what search needs.

``clone(game)`` is an independent copy, made attribute by attribute by type: numbers, strings,
tuples and frozen records (melds, wins, configs, results) are shared; bytearrays, lists, dicts
and deques are copied; a ``random.Random`` is copied with its state; any other object (the wall,
an open window, a kong under way) is copied attribute by attribute, so a window class that
gains fields keeps working. The event log's list is copied but its events are shared: the
engines append events and never change one once logged.

``sample_world(game, seat, rng)`` is a complete game of the same class in which everything
``seat`` can see is what it sees in ``game`` (its observation, its legal actions, the public
events, every count) and everything it cannot see is drawn afresh from ``rng``:

- the tiles it cannot see (the other concealed hands, the other seats' face-down kongs, the
  wall's order) are the unseen multiset — all copies of every kind minus what the seat sees —
  in sorted order, shuffled by ``rng``: a uniform draw among the arrangements with the public
  counts, made without looking at the real arrangement, not even at its order;
- future randomness (Changsha's dice) comes from a generator seeded by ``rng``; the real seed
  and generator state are never read;
- another seat's blind choice already made in an open claim window is cleared and the window
  re-asked: that seat's options are worked out again from its drawn hand, and it decides again
  in the world (a made choice is one of its legal options there, and search plays the others
  by its rollout policy anyway, so asking again draws it from that model);
- what followed from the old hidden tiles is worked out again or forgotten: the other seats'
  offers and wins in an open window, a turn's options, its drawn tile (drawn uniformly among the
  seat's hidden tiles), and the other seats' own bars (Changsha 漏胡, Hangzhou 失碰), which are
  kept for ``seat`` only.

The draw conditions on the public tile counts and on the counts the rules make play reveal
(Sichuan: a seat that discarded outside its void held none of it), not on what the others' past
play suggests (that they passed a claim, say): "consistent with the public record" means the
tiles. Bounds on a seat's hidden tiles are dealt exactly (``limited_deal``). Where a
phase itself says another seat holds an option (Changsha: that seat's 海底 win or 开杠 draw
options, its opening win), draws that cannot have it are redrawn (rejection), up to
``MAX_REDRAWS`` times.

The world's event log is the seat's view of the real one (``public_events``, the filter of
``cnmahjong.envs.core.seen``): the deal's hidden hands, wall and seed, the tiles other seats
drew, their concealed kongs and their pending window answers are taken out, so it can be read
but not replayed.

A ruleset declares only what is hidden, with methods on its game class (all optional):

- ``_world_face_up()``: tiles lying face up outside hands, melds and rivers (Changsha's
  开杠 draw and 海底 tile, Hangzhou's indicator);
- ``_world_shown(s)``: counts of seat ``s``'s concealed tiles that everybody sees (Changsha
  opening wins);
- ``_world_limits(seat, s)``: what the record, as ``seat`` knows it, bounds in seat ``s``'s dealt
  tiles (its unseen concealed tiles and face-down kongs): ``(kinds, lo, hi)`` triples
  (``limited_deal.Limit``);
- ``_world_kong_kinds(s)``: the kinds seat ``s``'s face-down kongs may be (default: any);
- ``_world_forget(seat, rng)``: drop state that followed from the old hidden tiles and redraw
  the future randomness from ``rng``;
- ``_world_offer(window, s)``: seat ``s``'s options in the open ``window`` with its new hand
  (updating the window's own per-seat fields), or None / empty when it is not asked;
- ``_world_reask(s, rng, last)``: work out again the decision seat ``s`` (another seat) is asked
  alone now; False when its drawn hand cannot be asked this (the tiles are redrawn); with
  ``last`` it must ask what the hand allows.

Face-down kongs are the generic ``Meld.hidden``; the sampler redraws their kind among the kinds
whose four copies are all unseen (uniformly, or weighted by the deals left when limits bind).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import is_dataclass
from typing import Any

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.core.checks import int_arg
from cnmahjong.envs.core.engine import slot_names
from cnmahjong.envs.core.limited_deal import Holder, deal
from cnmahjong.envs.core.meld import Meld
from cnmahjong.envs.core.seats import NUM_SEATS
from cnmahjong.envs.core.seen import seat_events
from cnmahjong.envs.core.shapes import count_bytes
from cnmahjong.envs.core.tiles import COPIES, counts_copy

MAX_REDRAWS = 200
"""Draws tried when the phase says another seat holds an option (see the module docstring);
after that the world keeps the last draw and that seat is asked only what its hand allows
(in a window the seat sees open, the first other seat in asking order may only pass)."""
SHARED_ITEMS = frozenset({"_events", "_log_tail"})
"""Lists whose items are never changed once appended (the event log and its packed tail:
``eventlog``): the list is copied, its items shared."""
_NO_LOG = frozenset({"_events", "_log_tail"})  # what clone(log=False) does not copy

# ------------------------------------------------------------------ clone
_IMMUTABLE = (int, float, str, bool, type(None), bytes, tuple, frozenset, range, Meld)


def _same(v: Any) -> Any:
    return v


def _copy_list(v: list) -> list:
    out = list(v)
    for i, x in enumerate(out):
        f = _COPIERS.get(type(x)) or _copier(type(x))
        if f is not _same:
            out[i] = f(x)
    return out


def _copy_dict(v: dict) -> dict:
    out = dict(v)
    for k, x in out.items():
        f = _COPIERS.get(type(x)) or _copier(type(x))
        if f is not _same:
            out[k] = f(x)
    return out


def _copy_random(v: random.Random) -> random.Random:
    out = random.Random()
    out.setstate(v.getstate())
    return out


def _copy_object(v: Any, shared: frozenset[str] = frozenset(), dropped: frozenset[str] = frozenset()) -> Any:
    """Any other object: a new one of its class with every attribute (slots and ``__dict__``) copied;
    the lists named in ``shared`` are copied without copying their items, those in ``dropped`` set
    to None."""
    cls = type(v)
    out = cls.__new__(cls)
    for name in _SLOTS.get(cls) or _SLOTS.setdefault(cls, slot_names(cls)):
        try:
            x = getattr(v, name)
        except AttributeError:
            continue
        if name in dropped:
            x = None
        setattr(out, name, list(x) if name in shared and x is not None else _copy(x))
    d = getattr(v, "__dict__", None)
    if d is not None:
        out.__dict__.update({k: list(x) if k in shared else _copy(x) for k, x in d.items()})
    return out


_COPIERS: dict[type, Callable[[Any], Any]] = {
    bytearray: bytearray, list: _copy_list, dict: _copy_dict, deque: lambda v: deque(_copy_list(list(v))),
    random.Random: _copy_random, **{t: _same for t in _IMMUTABLE},
}
_SLOTS: dict[type, tuple[str, ...]] = {}


def _copier(t: type) -> Callable[[Any], Any]:
    f = _COPIERS.get(t)
    if f is None:
        frozen = is_dataclass(t) and t.__dataclass_params__.frozen  # type: ignore[attr-defined]
        f = _COPIERS[t] = _same if frozen else _copy_object
    return f


def _copy(v: Any) -> Any:
    return (_COPIERS.get(type(v)) or _copier(type(v)))(v)


def clone(game: Any, log: bool = True) -> Any:
    """An independent copy of ``game`` (see the module docstring): stepping it leaves ``game`` as it
    was. ``log=False``: the copy keeps no event log (``TableGame.events``), nor copies it."""
    if type(log) is not bool:
        raise TypeError(f"log must be True or False, got {log!r}")
    return _copy_object(game, SHARED_ITEMS, frozenset() if log else _NO_LOG)


def logged(game: Any) -> list[dict[str, Any]]:
    """``game``'s event log; a ``ValueError`` for a game that keeps none (played on with
    ``log=False``), which nothing that reads the record can take."""
    events = game.events
    if events is None:
        raise ValueError("this game keeps no event log (played on with log=False: clone(log=False) or "
                         "rollouts(..., log=False)); replay, views and sampled worlds need one")
    return events


# ------------------------------------------------------------------ worlds
@cython.cfunc
@cython.inline
def _hook(game: Any, name: str) -> Callable[..., Any] | None:
    return getattr(game, name, None)


_UNSEEN_HOOKS: dict[type, tuple[Any, Any]] = {}
"""Each game class's ``(_world_face_up, _world_shown)`` (None where it has none), looked up once:
``unseen_row`` runs at every tied greedy discard, and a missed ``getattr`` is a search of the
class's whole hierarchy each time."""


@cython.cfunc
def _unseen_hooks(cls: type) -> tuple[Any, Any]:
    found = _UNSEEN_HOOKS.get(cls)
    if found is None:
        found = _UNSEEN_HOOKS[cls] = (getattr(cls, "_world_face_up", None), getattr(cls, "_world_shown", None))
    return found


@cython.cfunc
@cython.locals(p=cython.p_uchar, kinds=cython.int, t=cython.int)
@cython.returns(cython.int)
def _count_tiles(p: bytearray, kinds: int, group: Any) -> int:
    """One more seen of each tile kind in ``group``, each checked to be one of the ``kinds``."""
    for t in group:
        if t < 0 or t >= kinds:
            raise ValueError(f"tile kind {t} outside the {kinds} kinds")
        p[t] += 1
    return 0


@cython.cfunc
@cython.locals(p=cython.p_uchar, kinds=cython.int, k=cython.int, rp=cython.p_uchar)
@cython.returns(cython.int)
def _count_row(p: bytearray, kinds: int, row: Any) -> int:
    """A count row (a river's, or a seat's shown tiles) added to the seen counts, its length checked."""
    row = count_bytes(row)  # read only: a bytearray as it is
    if len(row) != kinds:
        raise ValueError(f"a river or shown row of {len(row)} kinds, not {kinds}")
    rp = row  # read through a C pointer, its length checked
    for k in range(kinds):
        p[k] += rp[k]
    return 0


@cython.locals(s=cython.int, k=cython.int, kinds=cython.int, copies=cython.int,
               p=cython.p_uchar, counted=list, m=Meld, melds=list)
def unseen_row(game: Any, seat: int) -> bytearray:
    """``unseen_counts`` as a ``bytearray`` (what the greedy players' 进张 loops read through a C
    pointer): all copies of each kind minus ``seat``'s hand, every meld it sees, every river, the
    tiles face up and the other seats' shown tiles. A game that keeps its rivers counted
    (``river_counts``: a count row per seat, Changsha's and Hangzhou's) has those rows added, not
    its rivers' tiles counted one by one."""
    seen = counts_copy(game.hands[seat])
    kinds = len(seen)
    p = seen  # the compiled loops count into it through a C pointer, each kind checked first
    face_up, shown = _unseen_hooks(type(game))
    melds = game.melds
    for s in range(NUM_SEATS):
        for m in melds[s]:  # a loop, not a genexpr over typed names (docs/performance.md); a Meld's
            if s == seat or not m.hidden:  # fields C reads compiled
                _count_tiles(p, kinds, m.tiles)
    if face_up is not None:
        _count_tiles(p, kinds, face_up(game))
    counted = getattr(game, "river_counts", None)
    for s in range(NUM_SEATS):
        if counted is None:
            _count_tiles(p, kinds, game.rivers[s])
        else:
            _count_row(p, kinds, counted[s])
        if shown is not None and s != seat:
            _count_row(p, kinds, shown(game, s))
    copies = COPIES  # a C int: compared with the module global, each kind would be made a Python int
    for k in range(kinds):
        if p[k] > copies:
            raise AssertionError(f"seat {seat} sees more than {COPIES} copies of a kind: {list(seen)}")
    for k in range(kinds):
        p[k] = copies - p[k]
    return seen


def unseen_counts(game: Any, seat: int) -> list[int]:
    """Copies of each kind that ``seat`` cannot see (``unseen_row`` as a list)."""
    return list(unseen_row(game, seat))


def public_events(game: Any, seat: int) -> list[dict[str, Any]]:
    """The event log as ``seat`` sees it: ``cnmahjong.envs.core.seen``'s filter, the one the play
    page and the bot protocol use (the others' concealed parts and pending window answers out)."""
    return seat_events(logged(game), 0, seat, game.done)[0]


def _holders(game: Any, seat: int, others: list[int], sizes: dict[int, int], holds: Any) -> list[Holder]:
    """The other seats' hidden holdings with what the ruleset says the record bounds in them (less
    the tiles ``holds`` already gives them)."""
    limits, kong_kinds = _hook(game, "_world_limits"), _hook(game, "_world_kong_kinds")
    out = []
    for s in others:
        bounds = []
        for kinds, lo, hi in (limits(seat, s) if limits is not None else ()):
            have = sum(n for k, n in holds.get(s, {}).items() if k in kinds)
            if have > hi:
                raise ValueError(f"seat {s} would hold {have} tiles of {sorted(kinds)}, at most {hi}")
            bounds.append((kinds, lo - have, hi - have))
        out.append(Holder(s, sizes[s], tuple(len(m.tiles) for m in game.melds[s] if m.hidden),
                          frozenset(kong_kinds(s)) if kong_kinds is not None else None, tuple(bounds)))
    return out


def _draw_hidden(world: Any, game: Any, seat: int, unseen: list[int], rng: Any, holds: Any) -> None:
    """Deal the unseen tiles afresh: the other seats' face-down kongs and the concealed tiles of
    seats the record bounds (``limited_deal``), then the other concealed hands (beside their shown
    tiles) and the wall from the sorted rest shuffled by ``rng``."""
    shown = _hook(game, "_world_shown")
    others = [(seat + i) % NUM_SEATS for i in (1, 2, 3)]
    hands = {s: bytearray(shown(s)) if shown is not None else bytearray(len(unseen)) for s in others}
    sizes = {s: sum(game.hands[s]) - sum(hands[s]) for s in others}
    pool = list(unseen)
    for s, tiles in holds.items():  # tiles a seat must hold: given first, the rest dealt around them
        if s not in hands:
            raise ValueError(f"holds names seat {s}: only the other seats {others} hold hidden tiles")
        for k, n in tiles.items():
            pool[k] -= n
            hands[s][k] += n
            sizes[s] -= n
        if sizes[s] < 0:
            raise ValueError(f"seat {s} holds {sum(game.hands[s])} tiles, fewer than it must hold")
    if min(pool) < 0:
        raise ValueError("the tiles the seats must hold are more than those unseen")
    dealt, kongs, counts = deal(pool, _holders(game, seat, others, sizes, holds), rng)
    for s, kinds in kongs.items():
        melds = list(game.melds[s])
        hidden = iter(kinds)
        melds = [m.replace(tiles=(next(hidden),) * len(m.tiles)) if m.hidden else m for m in melds]
        melded = bytearray(len(unseen))
        for m in melds:
            for t in m.tiles:
                melded[t] += 1
        world.melds[s], world.melded[s] = melds, melded
    pool = [k for k, n in enumerate(counts) for _ in range(n)]
    tiles = [pool[i] for i in rng.permutation(len(pool)).tolist()]
    at = 0
    for s in others:
        hand = hands[s]
        if s in dealt:
            for t, n in enumerate(dealt[s]):
                hand[t] += n
        else:
            for t in tiles[at:at + sizes[s]]:
                hand[t] += 1
            at += sizes[s]
        world.hands[s] = hand
    if len(tiles) - at != game.wall.remaining:
        raise AssertionError(f"{len(tiles)} unseen tiles for {at} in hands and {game.wall.remaining} in the wall: "
                             f"the ruleset's declarations (_world_face_up, _world_shown) miss some")
    world.wall.refill(tiles[at:])


def _reopen(world: Any, seat: int, last: bool) -> bool:
    """The open window asked again: ``seat`` keeps its options, its picks and what it is asked
    now; every other seat's options come from its new hand and its picks are cleared. A window
    left with nobody to ask is resolved. False (unless ``last``) when the seat, not asked now,
    sees the window still open but nobody else's new hand is offered anything."""
    w = world._window
    payer = getattr(w, "payer", None)
    order = range(NUM_SEATS) if payer is None else [(payer + i) % NUM_SEATS for i in (1, 2, 3)]
    options: dict[int, list[int]] = {}
    for s in order:  # the asking order
        if s == seat:
            if s in w.options:
                options[s] = w.options[s]
            continue
        acts = world._world_offer(w, s)
        if acts:
            options[s] = acts
    w.options = options
    for name in ("choices", "picks"):
        made = getattr(w, name, None)
        if made is not None:
            setattr(w, name, {seat: made[seat]} if seat in made else {})
    own = world.pending.get(seat)
    world.pending = {s: (own if s == seat else list(a)) for s, a in options.items()
                     if s != seat or own is not None}
    if not world.pending and not last:
        return False
    if not world.pending and seat not in w.options:  # the last draw: keep the window open as the
        first = next(s for s in order if s != seat)   # seat sees it, the first other seat passing
        w.options = {first: [world.ACTIONS.PASS]}
        world.pending = {first: [world.ACTIONS.PASS]}
    if not world.pending:
        world._window = None
        world._resolve_window(w)
    return True


def sample_world(game: Any, seat: int, rng: Any, holds: Any = None) -> Any:
    """A game ``seat`` cannot tell from ``game``, its hidden part drawn from ``rng`` (see the
    module docstring). A function of what the seat knows and of ``rng`` alone. ``holds`` (``{other
    seat: {kind: count}}``, for ``cnmahjong.envs.core.shadow``): tiles those seats' concealed hands
    must hold, given them first (the rest drawn around them: not uniform among the deals that hold
    them, which the shadow does not need); a ``ValueError`` when the record's bounds exclude them."""
    seat = int_arg(seat, "seat", 0, NUM_SEATS - 1)
    if type(rng).__name__ != "Generator" or not type(rng).__module__.startswith("numpy.random"):
        raise TypeError(f"rng must be a numpy.random.Generator (numpy.random.default_rng(seed)), "
                        f"got {type(rng).__name__}")
    events = public_events(game, seat)
    unseen = unseen_counts(game, seat)
    forget, reask = _hook(game, "_world_forget"), _hook(game, "_world_reask")
    for attempt in range(MAX_REDRAWS):
        last = attempt == MAX_REDRAWS - 1
        world = clone(game)
        world.seed = None
        world.events = list(events)
        _draw_hidden(world, game, seat, unseen, rng, holds or {})
        if forget is not None:
            world._world_forget(seat, rng)
        if world._window is not None:
            if _reopen(world, seat, last):
                return world
            continue
        alone = [s for s in world.pending if s != seat]
        if not alone or reask is None or world._world_reask(alone[0], rng, last):
            return world
    raise AssertionError("unreachable: the last draw is always kept")


class SeatView:
    """What one seat may use of a game: its legal actions and worlds drawn from what it knows.

    The arena and the play page hand a search policy this, never the game itself: a policy that
    reads only ``legal_actions`` and ``sample_world`` chooses the same whatever the hidden tiles
    are (tested by permuting them)."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Any, seat: int) -> None:
        self._game = game
        self.seat = int_arg(seat, "seat", 0, NUM_SEATS - 1)

    def legal_actions(self) -> list[int]:
        return self._game.legal_actions(self.seat)

    @property
    def ruleset(self) -> str:
        return self._game.RULESET

    @property
    def phase(self) -> str:
        return self._game.phase

    def sample_world(self, rng: Any) -> Any:
        return sample_world(self._game, self.seat, rng)


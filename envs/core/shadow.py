"""A game rebuilt from what one seat has seen: search behind the bot protocol.

A bot is sent its seat's events (``cnmahjong.envs.core.seen``: the other hands, the wall, the
others' drawn tiles and concealed kongs taken out), never the game. A search needs a game that
``sample_world`` can read, and ``sample_world`` reads only what the seat knows; so any game whose
public record is the seat's events serves, whatever its hidden tiles. ``Shadow`` keeps one:

- it deals the seat's own hand as the deal event shows it and the unseen tiles at random
  (``from_scenario``), with the randomness the events reveal forced (``_world_force``: dice,
  a swap's direction);
- it plays the recorded actions in order, a *unit* at a time (an action, and the answers of the
  window it opens until the window closes), and checks the events the unit makes, as the seat
  sees them, against the recorded ones;
- when a unit cannot be played (another seat discards or melds a tile its hidden hand lacks,
  shows tiles, wins) or makes other events (the seat draws another tile), the hidden part before
  the unit is drawn again (``sample_world`` with the tiles that seat must hold as limits), the
  tiles the unit takes from the wall are laid where it takes them, an action the seat may not
  see (a concealed kong, a secret pick) is found among the legal ones, and a seat the rebuilt
  hands offer a declinable choice that the record does not show declines it (unseen: a declined
  choice leaves no trace). Then it tries again.

The result is a game the seat cannot tell from the real one: the same events, observation and
legal actions; ``sample_world`` on it gives, for the same ``rng``, the world it gives on the real
game (tested on thousands of positions of every ruleset).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from typing import Any

from cnmahjong.envs.core.seats import NUM_SEATS
from cnmahjong.envs.core.seen import seat_events
from cnmahjong.envs.core.tiles import COPIES, NUM_SUITED_KINDS
from cnmahjong.envs.core.worlds import clone, sample_world, unseen_counts

MAX_TRIES = 400
"""Hidden parts drawn again for one unit before the events are declared impossible."""
SHAPE_AFTER = 20
"""Draws after which every other one deals the failing seat a hand made whole around the tiles
it must hold (a winning or ready hand: what a win or a 开杠 needs, which a uniform draw rarely
gives)."""
CLAIMED = ("chi", "peng", "minggang")
"""Meld kinds made with a claimed tile (one of its tiles came from the window, not the hand)."""
SUIT = 9
"""Kinds per suit (a run stays within one)."""


class ShadowError(ValueError):
    """The events cannot be rebuilt: not a seat's view of a hand these rules can play."""


class _Mismatch(Exception):
    """A trial's events differ from the record (or its action cannot be played); ``needs``: tiles
    the failure shows another seat must hold."""

    def __init__(self, why: str, needs: dict[int, Counter] | None = None, seat: int | None = None) -> None:
        super().__init__(why)
        self.needs = needs or {}
        self.seat = seat


class Shadow:
    """A game in step with ``seat``'s events (``feed`` them as they come; ``game`` is the rebuilt
    game, its event log the seat's own). ``ruleset``: a ``Ruleset``; ``rng``: a numpy Generator
    (the hidden parts drawn while rebuilding; they never reach a world)."""

    def __init__(self, ruleset: Any, seat: int, rng: Any) -> None:
        self.ruleset = ruleset
        self.seat = seat
        self.rng = rng
        self.record: list[dict[str, Any]] = []
        self._game: Any = None
        self._matched = 0  # record events the rebuilt game makes, as the seat sees them
        self._start = 0  # where the seat's filter goes on in the rebuilt game's log
        self._next = 0  # the next record event to play
        self._checkpoint: tuple[Any, int, int, int] = (None, 0, 0, 0)  # before the open window's first act
        self._deadline: float | None = None

    def _in_time(self) -> None:
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise ShadowError("the events could not be rebuilt within the time budget")

    @property
    def game(self) -> Any:
        """The rebuilt game, its event log the seat's record (so a world's log is the real one's)."""
        g = clone(self._game)
        g.events = [dict(e) for e in self.record]
        return g

    def feed(self, events: list[dict[str, Any]], seconds: float | None = None) -> None:
        """Take the seat's events since the last call (from the deal at the first) and play them;
        ``seconds``: a time budget for it (past it, a ``ShadowError``: a bot's answer is due)."""
        if not events:
            return
        self._deadline = time.monotonic() + seconds if seconds is not None else None
        if not self.record:
            if events[0].get("type") != "deal":
                raise ShadowError("the first event must be the deal")
            self.record = [dict(e) for e in events]
            self._deal()
            self._advance()
            return
        self.record.extend(dict(e) for e in events)
        try:
            self._advance()
        except ShadowError:  # what the new events show may need another deal: start again from it
            self._deal()
            self._advance()

    # ------------------------------------------------------------ the deal
    def _deal(self) -> None:
        deal, cls = self.record[0], self.ruleset.game
        own = deal["hands"][self.seat]
        if own is None:
            raise ShadowError(f"the deal event does not show seat {self.seat}'s hand")
        config = cls.CONFIG.from_dict(deal["config"])
        extra = {k: deal[k] for k in cls.DEAL_KEYS}
        setup = self._setup_events()
        last: Exception | None = None
        shown: dict[int, Counter] = {}  # tiles shown from a hand (opening wins): dealt to it
        for e in self.record:
            if e.get("shown") and e.get("seat") not in (None, self.seat):
                c = shown.setdefault(e["seat"], Counter())
                for k, n in Counter(e["shown"]).items():
                    c[k] = max(c[k], n)
        for _ in range(MAX_TRIES):
            self._in_time()
            hands, rest = self._random_deal(cls, deal["dealer"], own, shown)
            for wall in self._walls_for(cls, hands, rest, deal["dealer"], config, extra, setup):
                game = cls.from_scenario(hands, wall, dealer=deal["dealer"], config=config, seed=0, **extra)
                seen, start = seat_events(game.events, 1, self.seat, game.done)
                if seen == setup:
                    self._game, self._matched, self._start, self._next = game, 1 + len(seen), start, 1 + len(seen)
                    return
                last = _Mismatch(f"setup events {seen} differ from {setup}")
        raise ShadowError(f"no deal gives the recorded setup: {last}")

    def _setup_events(self) -> list[dict[str, Any]]:
        """The events the deal itself makes (before the first action)."""
        out = []
        for e in self.record[1:]:
            if e["type"] == "act":
                break
            out.append(e)
        return out

    def _random_deal(self, cls: Any, dealer: int, own: list[int],
                     held: dict[int, Counter]) -> tuple[list[list[int]], list[int]]:
        """The seat's own hand, ``held`` tiles dealt to their seats, the rest shuffled."""
        pool = Counter({k: COPIES for k in range(cls.NUM_KINDS)})
        pool.subtract(own)
        for c in held.values():
            pool.subtract(c)
        if min(pool.values()) < 0:
            raise ShadowError(f"the deal and the tiles shown hold more than {COPIES} copies of a kind")
        tiles = sorted(pool.elements())
        tiles = [tiles[i] for i in self.rng.permutation(len(tiles)).tolist()]
        hands: list[list[int]] = []
        at = 0
        for s in range(NUM_SEATS):
            if s == self.seat:
                hands.append(list(own))
                continue
            mine = sorted(held.get(s, Counter()).elements())
            n = len(own) + (s == dealer) - (self.seat == dealer) - len(mine)
            hands.append(mine + tiles[at:at + n])
            at += n
        return hands, tiles[at:]

    def _walls_for(self, cls: Any, hands: list[list[int]], wall: list[int], dealer: int, config: Any,
                   extra: dict[str, Any], setup: list[dict[str, Any]]) -> Any:
        """The wall, then the wall with the tiles the setup reveals laid where it takes them."""
        yield wall
        probe = cls.from_scenario(hands, wall, dealer=dealer, config=config, seed=0, **extra)
        start = probe.wall.size - len(wall)
        taken = [p - start for p in range(start, probe.wall.size) if p not in set(probe.wall.positions())]
        want = _tiles_in(setup)
        for kinds in itertools.product(want, repeat=len(taken)):
            w = _laid(wall, taken, kinds)
            if w is not None:
                yield w

    # ------------------------------------------------------------ play
    def _advance(self) -> None:
        record = self.record
        while self._next < len(record):
            e = record[self._next]
            if e["type"] != "act" and self._next < self._matched:
                self._next += 1  # made by an earlier unit
                continue
            if not self._others_chose(self._game):
                self._checkpoint = (self._game, self._matched, self._start, self._next)
            self._unit(self._next, hidden=e["type"] != "act")
        self._decline_rest()

    def _decline_rest(self) -> None:
        """The record is all played and the seat is not asked: other seats the rebuilt hands ask
        in a declinable window declined it (unseen), as they must have in the real game."""
        g = self._game
        if g is None or self.seat in g.pending or g.phase not in g.DECLINE_PHASES:
            return
        t = clone(g)
        PASS = t.ACTIONS.PASS
        while self.seat not in t.pending and t.phase in t.DECLINE_PHASES and t.pending:
            s = next(iter(t.pending))
            if PASS not in t.legal_actions(s):
                return
            t.step(s, PASS)
        seen, start = seat_events(t.events, self._start, self.seat, t.done)
        if not seen:
            self._game, self._start = t, start

    def _others_chose(self, game: Any) -> bool:
        """Whether other seats have chosen in the window open in ``game`` (drawing their hidden
        tiles again would clear their choices: go back to where the window opened instead)."""
        w = getattr(game, "_window", None)
        if w is None:
            return False
        made = {**(getattr(w, "choices", None) or {}), **(getattr(w, "picks", None) or {})}
        return any(s != self.seat and v for s, v in made.items())

    def _unit(self, lo: int, hidden: bool) -> None:
        """Play the unit starting at record event ``lo`` (``hidden``: an action the seat does not
        see made the event there), drawing the hidden part again until it matches."""
        base = self._game
        if self._others_chose(base):  # the window's other choices would be cleared by a redraw
            try:
                self._game, self._matched, self._start, self._next = self._trial(base, lo, hidden, {})
                return
            except _Mismatch:
                base, self._matched, self._start, lo = self._checkpoint
                self._game, hidden = base, self.record[lo]["type"] != "act"
        needs = self._needs(base, lo, hidden)
        ahead = self.record[lo:self._unit_end(lo)]
        around = self.record[lo:self._unit_end(self._unit_end(lo))]  # with the answers the unit's window gets
        last: Exception | None = None
        stuck: list[int] = []  # seats whose actions still fail with their tiles held (a double win: two)
        for attempt in range(MAX_TRIES):
            self._in_time()
            try:
                shape = stuck if attempt >= SHAPE_AFTER and attempt % 2 else []
                g = base if attempt == 0 else self._redraw(base, needs, shape, ahead if attempt % 3 else [], around)
            except ValueError as err:  # limits nobody's tiles can meet
                last = err
                continue
            try:
                self._game, self._matched, self._start, self._next = self._trial(g, lo, hidden, needs)
                return
            except _Mismatch as err:
                last = err
                if err.seat is not None and err.seat not in stuck:
                    stuck.append(err.seat)
                for s, c in err.needs.items():
                    mine = needs.setdefault(s, Counter())
                    for k, n in c.items():
                        mine[k] = max(mine[k], n)
        raise ShadowError(f"the events from #{lo} ({self.record[lo]}) cannot be rebuilt: {last}")

    def _redraw(self, base: Any, needs: dict[int, Counter], shape: list[int] = (),
                ahead: list[dict[str, Any]] = (), around: list[dict[str, Any]] = ()) -> Any:
        """A world of ``base`` for the seat in which every other seat holds what ``needs`` says;
        ``shape``: seats whose hidden hands are made whole around their needs (``_shaped``). The
        ruleset's bounds are read with the unit's events (``ahead``) in the log: what the unit
        shows binds the hands before it too (Sichuan's D1: a seat about to discard outside its
        void holds none of it), on two tries in three (a bound read after the unit can be one too
        tight before it: a void tile about to be discarded); ``around``: the unit and the answers
        to its window (a win on its discard: the made hand waits on that tile)."""
        log = base.events
        if ahead:
            future = clone(base)
            future.events = [*base.events, *ahead]
            base = future
        shown = getattr(base, "_world_shown", None)
        holds: dict[int, Counter] = {}
        needs = dict(needs)
        for made in shape:
            if made != self.seat:
                needs[made] = self._made_hand(base, needs, made, around)
        for s, c in needs.items():
            have = shown(s) if shown is not None else None
            holds[s] = +Counter({k: n - (have[k] if have is not None else 0) for k, n in c.items()})
        world = sample_world(base, self.seat, self.rng, holds=holds)
        world.events = list(log)  # the rebuilt log goes on (the filter's place in it kept)
        return world

    def _made_hand(self, base: Any, needs: dict[int, Counter], shape: int,
                   around: list[dict[str, Any]]) -> Counter:
        """Seat ``shape``'s hidden hand made whole (or ready) around what it must hold, from the
        tiles no other seat must hold, inside the ruleset's bounds on it (its floors held, its
        capped sets avoided), waiting on the tile a win in ``around`` claims."""
        shown = getattr(base, "_world_shown", None)
        size = sum(base.hands[shape]) - (sum(shown(shape)) if shown is not None else 0)
        pool = unseen_counts(base, self.seat)
        for s, c in needs.items():
            if s != shape:
                for k, n in c.items():
                    pool[k] = max(0, pool[k] - n)
        req = Counter(needs.get(shape, Counter()))
        limits = getattr(base, "_world_limits", None)
        for o in range(NUM_SEATS):  # tiles another seat must hold stay out of the made hand
            if o not in (self.seat, shape) and limits is not None:
                for kinds, lo, _ in limits(self.seat, o):
                    if len(kinds) == 1 and lo > 0:
                        k = next(iter(kinds))
                        pool[k] = max(0, pool[k] - max(0, lo - needs.get(o, Counter())[k]))
        for kinds, lo, hi in (limits(self.seat, shape) if limits is not None else ()):
            if len(kinds) == 1 and lo > 0:  # a floor the record sets (a 换三张 tile not shown)
                k = next(iter(kinds))
                req[k] = max(req[k], lo)
            elif hi < size:  # a capped set (a void suit): the made hand keeps out of it
                for k in kinds:
                    pool[k] = 0 if not req[k] else pool[k]
        won = next((e["tile"] for e in around if e["type"] == "win" and e.get("seat") == shape
                    and e.get("payer") is not None and isinstance(e.get("tile"), int)), None)
        hand = _shaped(pool, size, req, self.rng, won)
        if hand is None:
            raise ValueError(f"no hand of {size} tiles around {needs.get(shape)}")
        return hand

    def _unit_end(self, lo: int) -> int:
        """Where the unit from record event ``lo`` ends: after its action, the window's answers
        shown with it and the events they make."""
        record, end = self.record, lo + 1
        while end < len(record) and record[end]["type"] == "act":
            end += 1
        while end < len(record) and record[end]["type"] != "act":
            end += 1
        return end

    def _needs(self, base: Any, lo: int, hidden: bool) -> dict[int, Counter]:
        """What the record from ``lo`` to the next action shows another seat must hold: the
        first action's own tiles; a concealed kong's four of a kind (drawn among the kinds all
        unseen); a secret pick's tiles once shown. Later actions of the unit add theirs when they
        cannot be played (``_Mismatch.needs``)."""
        record = self.record
        end = self._unit_end(lo)  # with a window's answers (a secret one shows its picks' tiles only when it closes)
        who = record[lo]["seat"]
        needs: dict[int, Counter] = {}
        for s in range(NUM_SEATS):
            if s != self.seat:
                needs[s] = _held(base, s, record, lo, end)
        if hidden and record[lo].get("kind") == "angang" and not record[lo].get("tiles") and who != self.seat:
            k = self._kong_kind(base, who, lo)
            if k is not None:
                needs[who][k] = COPIES
        for e in record[lo:end]:
            if e["type"] == "swap":
                for s, tiles in enumerate(e.get("tiles") or ()):
                    if s != self.seat and tiles is not None:
                        c = needs.setdefault(s, Counter())
                        for k, n in Counter(tiles).items():
                            c[k] = max(c[k], n)
        return {s: c for s, c in needs.items() if +c}

    def _kong_kind(self, base: Any, s: int, lo: int) -> int | None:
        """The kind of seat ``s``'s face-down kong made at ``lo``: the one a later event shows, else
        drawn among the kinds all unseen."""
        made = {m.tiles[0] for m in base.melds[s]}
        for e in self.record[lo:]:
            if e["type"] == "reveal" and e.get("seat") == s:
                shown = [k for k in e.get("tiles") or () if k not in made]
                if shown:
                    return shown[0]
        unseen = unseen_counts(base, self.seat)
        allowed = getattr(base, "_world_kong_kinds", None)
        kinds = set(allowed(s)) if allowed is not None else set(range(len(unseen)))
        cands = [k for k, n in enumerate(unseen) if n == COPIES and k in kinds]
        return cands[int(self.rng.integers(len(cands)))] if cands else None

    def _trial(self, g: Any, lo: int, hidden: bool, needs: dict[int, Counter]) -> tuple[Any, int, int, int]:
        """Play the unit from ``lo`` on a copy of ``g``: its first action, then, while the window
        it opened is open, the answers the record shows; (game, matched, start, next), or
        ``_Mismatch``."""
        record = self.record
        t = clone(g)
        matched, start, j = self._matched, self._start, lo
        while True:
            if j == lo and hidden:
                who, action = record[j]["seat"], None
            elif j < len(record) and record[j]["type"] == "act":
                who, action = record[j]["seat"], record[j].get("action")
                j += 1
            else:
                break
            end = j
            while end < len(record) and record[end]["type"] != "act":
                end += 1
            t, matched, start = self._step(t, who, action, j, end, matched, start, needs)
            if matched < end and record[matched]["type"] != "act":
                return t, matched, start, matched  # a hidden action comes next
            j = end
            if getattr(t, "_window", None) is None or j >= len(record):
                break
        return t, matched, start, j

    def _step(self, t: Any, who: int, action: int | None, j: int, end: int, matched: int, start: int,
              needs: dict[int, Counter]) -> tuple[Any, int, int]:
        """One action (``None``: one the seat may not see, found among the legal ones); the record's
        events up to ``end`` must follow, the wall's tiles laid where the step takes them;
        (game, matched, start)."""
        record, seat = self.record, self.seat
        phase = record[j - 1].get("phase") if action is not None else None
        if phase not in (None, t.phase) and t.phase in t.DECLINE_PHASES and who in t.pending \
                and t.ACTIONS.PASS in t.legal_actions(who):
            t.step(who, t.ACTIONS.PASS)  # asked first in a window the record does not show it in
        self._pass_others(t, j - 1 if action is not None else j, who)
        want = record[matched:end]
        if who not in t.pending:
            raise _Mismatch(f"seat {who} is not asked", *self._own_needs(t, who, j, end))
        legal = t.legal_actions(who)
        candidates = [action] if action is not None else self._hidden_choices(t, who, needs)
        force = getattr(t, "_world_force", None)
        before = t.wall.positions()
        tiles = t.wall.tiles()
        kinds = _tiles_in(want)
        seen: list = []
        for a in candidates:
            if a not in legal:
                continue
            queue: list[list[int] | None] = [None]
            seen_taken: set[tuple[int, ...]] = set()
            while queue:
                laid = queue.pop(0)
                u = clone(t)
                if laid is not None:
                    u.wall.refill(laid)
                if force is not None:
                    u._world_force(want)
                u.step(who, a)
                seen, start2 = seat_events(u.events, start, seat, u.done)
                while self._pass_others(u, matched + len(seen)):  # unseen declines in the window it opened
                    seen, start2 = seat_events(u.events, start, seat, u.done)
                if seen == want[:len(seen)]:
                    rest = want[len(seen):]
                    if all(e["type"] == "act" for e in rest) or (
                            rest[0]["type"] != "act" and rest[0].get("seat") in u.pending and rest[0]["seat"] != seat
                            and self._may_hide(u)):
                        return u, matched + len(seen), start2
                left = set(u.wall.positions())
                taken = tuple(i for i, p in enumerate(before) if p not in left)
                if kinds and taken and len(taken) <= 3 and taken not in seen_taken:
                    seen_taken.add(taken)  # lay the record's tiles where this trial drew
                    queue.extend(_layings(tiles, list(taken), kinds))
        claimed = len(seen) > len(want) and seen[:len(want)] == want  # the record's window did not open
        raise _Mismatch(f"seat {who}'s action {action} (legal {legal}) does not make {want}; it made {seen}",
                        *self._own_needs(t, who, j, end, claimed))

    def _may_hide(self, t: Any) -> bool:
        """Whether an act of another seat asked in ``t`` may be one the seat does not see: a
        concealed kong laid face down, a pick in a secret window. Elsewhere every act is seen, so
        a seat asked where the record shows none means the rebuilt hands differ from the real."""
        return t.phase in t.SECRET_PHASES or type(t).kongs_face_down(self.record[0].get("config") or {})

    def _own_needs(self, t: Any, who: int, j: int, end: int,
                   claimed: bool = False) -> tuple[dict[int, Counter], int | None]:
        """What a failed action shows another seat must hold, and that seat: the actor's own tiles;
        for the seat's own action (its tiles are known) or one that played but opened no window
        where the record shows one (``claimed``), those of the others acting next (a claim the
        rebuilt hands did not offer)."""
        record = self.record
        if who != self.seat and not claimed:
            return {who: _held(t, who, record, j, end)}, who
        stop = end
        while stop < len(record) and record[stop]["type"] == "act":
            stop += 1
        while stop < len(record) and record[stop]["type"] != "act":
            stop += 1
        needs = {s: _held(t, s, record, end, stop) for s in range(NUM_SEATS) if s not in (self.seat, who)}
        needs = {s: c for s, c in needs.items() if c}
        if who != self.seat:
            needs[who] = _held(t, who, record, j, end)
        first = next((record[i]["seat"] for i in range(end, stop)  # the next to answer (a win shows no tiles)
                      if record[i]["type"] == "act" and record[i]["seat"] not in (self.seat, who)), None)
        return needs, next((s for s in needs if s != who), first)

    def _hidden_choices(self, t: Any, who: int, needs: dict[int, Counter]) -> list[int]:
        """Candidates for an action the seat may not see: a secret pick of the tiles the record
        later shows (the ruleset's ``_world_secret_pick``), else every legal action."""
        pick = getattr(t, "_world_secret_pick", None)
        if pick is not None and who in needs:
            chosen = pick(who, sorted(needs[who].elements()))
            if chosen is not None:
                return [chosen]
        return list(t.legal_actions(who))

    def _pass_others(self, t: Any, j: int, keep: int | None = None) -> bool:
        """Seats the rebuilt hands ask in a declinable window that the record shows no answer from
        decline it (an unseen PASS): every pending seat but the seat itself, ``keep`` and those
        answering in the record's actions from ``j`` to the next other event. Not in the window
        the seat decides in now (the record ends in it: the others' answers are not shown yet)."""
        record = self.record
        answering = set()
        i = j
        while 0 <= i < len(record) and record[i]["type"] == "act":
            answering.add(record[i]["seat"])
            i += 1
        if i >= len(record) or t.phase not in t.DECLINE_PHASES:
            return False
        PASS, passed = t.ACTIONS.PASS, False
        for s in list(t.pending):
            if s != self.seat and s != keep and s not in answering and s in t.pending and PASS in t.legal_actions(s):
                t.step(s, PASS)
                passed = True
        return passed


def _held(t: Any, s: int, record: list[dict[str, Any]], lo: int, hi: int) -> Counter:
    """Tiles seat ``s``'s hand must hold for the record's events ``lo:hi`` (its action's): those it
    discards, those its melds take from the hand (not the claimed tile, the last one discarded by
    the seat it came from; not the tiles already melded), those it shows, a revealed winning hand."""
    c: Counter = Counter()
    drawn: Counter = Counter()  # tiles it took from the wall in sight (a 开杠 draw, the 海底 tile)
    for i in range(lo, hi):
        e = record[i]
        if e.get("seat") != s:
            continue
        if e["type"] == "discard":
            if drawn[e["tile"]]:
                drawn[e["tile"]] -= 1
            else:
                c[e["tile"]] += 1
        elif e["type"] not in ("act", "meld", "win", "swap", "reveal", "declare"):
            for k in _tiles_in([e]):
                drawn[k] += ([e.get("tile")] + list(e.get("tiles") or ())).count(k)
        elif e["type"] == "meld" and e.get("tiles"):
            got: Counter = Counter()
            if e.get("kind") in CLAIMED and e.get("from") is not None:
                d = next((x for x in reversed(record[:i]) if x["type"] == "discard" and x["seat"] == e["from"]), None)
                if d is not None:
                    got[d["tile"]] = 1
            for k, n in Counter(e["tiles"]).items():
                c[k] = max(c[k], n - t.melded[s][k] - got[k])
        for k, n in Counter(e.get("shown") or ()).items():
            c[k] = max(c[k], n)
        if e["type"] == "win" and e.get("hand"):
            for k, n in Counter(e["hand"]).items():
                c[k] = max(c[k], n)
        elif e["type"] == "win" and "payer" in e and e["payer"] is None and isinstance(e.get("tile"), int):
            c[e["tile"]] = max(c[e["tile"]], 1)  # a self-drawn win: the tile is in the hand
    return +c


def _layings(tiles: list[int], idx: list[int], kinds: list[int]) -> Any:
    """The wall's tiles with the record's ``kinds`` swapped onto the indices ``idx`` (where a
    trial drew), each assignment once."""
    for combo in itertools.product(kinds, repeat=len(idx)):
        w = _laid(tiles, idx, combo)
        if w is not None and w != tiles:
            yield w


def _laid(wall: list[int], taken: list[int], kinds: tuple[int, ...]) -> list[int] | None:
    """``wall`` with ``kinds`` swapped onto the indices ``taken`` (from other indices), or None."""
    w = list(wall)
    fixed = set()
    for i, k in zip(taken, kinds, strict=True):
        if w[i] == k:
            fixed.add(i)
            continue
        src = next((x for x in range(len(w)) if w[x] == k and x not in fixed and x not in taken), None)
        if src is None:
            return None
        w[i], w[src] = w[src], w[i]
        fixed.add(i)
    return w


def _shaped(pool: list[int], size: int, needs: Counter, rng: Any, won: int | None = None) -> Counter | None:
    """A hand of ``size`` tiles from ``pool`` (counts per kind) holding ``needs``, made of sets and
    a pair: whole (``size`` = 3k+2), one tile short of whole (ready; waiting on ``won``, a claimed
    winning tile, when given), or ``needs`` beside a ready rest (a kong's tiles beside a ready
    hand); None when no try finds one."""
    need = sum(needs.values())
    forms = []
    if size % 3 == 2:
        forms.append(("whole", size, needs))
    if size % 3 == 1:
        forms.append(("ready", size + 1, needs))
    if (size - need) % 3 == 1 and need:
        forms.append(("beside", size - need + 1, Counter()))
    if not forms:
        return None
    for _ in range(60):
        form, n, req = forms[int(rng.integers(len(forms)))]
        left = Counter({k: c for k, c in enumerate(pool) if c})
        if form == "beside":
            left.subtract(needs)
            if min(left.values(), default=0) < 0:
                return None
        if form == "ready" and won is not None:  # whole with the claimed tile, which is then taken out
            left[won] += 1
            whole = _whole(left, n, req + Counter({won: 1}), rng)
            if whole is not None:
                whole[won] -= 1
                return +whole
            continue
        whole = _whole(left, n, req, rng)
        if whole is None:
            continue
        if form == "whole":
            return whole
        spare = [k for k in whole if whole[k] > req[k]]
        if not spare:
            continue
        whole[spare[int(rng.integers(len(spare)))]] -= 1
        return +whole + (needs if form == "beside" else Counter())
    return None


def _whole(pool: Counter, n: int, req: Counter, rng: Any) -> Counter | None:
    """A random hand of ``n`` = 3k+2 tiles from ``pool``: k sets (triplets, or runs within a suit)
    and a pair, covering ``req``; suits kept to those of ``req`` (and one more at most)."""
    suits = {k // SUIT for k in req if k < NUM_SUITED_KINDS}
    if not suits or rng.random() < 0.5:
        suits.add(int(rng.integers(NUM_SUITED_KINDS // SUIT)))
    kinds = [k for k in pool if pool[k] and (k >= NUM_SUITED_KINDS or k // SUIT in suits)]
    left, hand = Counter(pool), Counter()
    todo = Counter(req)
    pair = False
    for _ in range(4 * n):
        if sum(hand.values()) == n:
            return hand if not +(req - hand) else None
        wanted = [k for k in todo if todo[k] > 0]
        choice = wanted or kinds
        if not choice:
            return None
        k = choice[int(rng.integers(len(choice)))]
        options = []
        if not pair and left[k] >= 2:
            options.append((k, k))
        if sum(hand.values()) + 3 <= n - (0 if pair else 2):
            if left[k] >= 3:
                options.append((k, k, k))
            if k < NUM_SUITED_KINDS:
                for lo in (k - 2, k - 1, k):
                    run = (lo, lo + 1, lo + 2)
                    if lo >= 0 and lo // SUIT == k // SUIT == (lo + 2) // SUIT and all(left[x] >= 1 for x in run):
                        options.append(run)
        if not options:
            continue
        group = options[int(rng.integers(len(options)))]
        if len(group) == 2:
            pair = True
        for x in group:
            left[x] -= 1
            hand[x] += 1
            todo[x] -= 1
    return None


def _tiles_in(events: list[dict[str, Any]]) -> list[int]:
    """Tile kinds the events name outside hands (candidates for the wall positions a step takes)."""
    out: set[int] = set()
    for e in events:
        if e["type"] in ("act", "deal", "discard", "meld", "swap"):
            continue
        t = e.get("tile")
        if isinstance(t, int):
            out.add(t)
        for x in e.get("tiles") or ():
            if isinstance(x, int):
                out.add(x)
    return sorted(out)

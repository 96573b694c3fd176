"""``ChangshaGame``: one hand of Changsha mahjong as a state machine (rules §1, §5–§9).

The engine asks seats for decisions and applies them:

- ``to_act`` lists the seats that must decide now: one seat on its turn, or
  every eligible seat at once for simultaneous decisions (claims on a discard,
  robbing a kong, winning on forced discards). Seats with nothing to decide are
  never asked, and a seat's legal actions never depend on what another seat
  has already chosen (choices stay hidden until everybody has answered, §5).
- ``legal_actions(seat)`` gives the sorted action ids (``actions.py``).
- ``step(seat, action)`` applies one decision; automatic steps (draws, dice,
  forced discards) run until a decision is needed or the hand is over.

Every state change is appended to ``events`` as a JSON-serialisable dict;
``ChangshaGame.replay(events)`` rebuilds the identical game from them and
checks every recorded event against the rebuilt one (``ReplayMismatchError``
at the first difference).

Bad input never changes state: ``step`` checks the seat and action (ints or
numpy ints, never bools or floats) and their legality before anything happens.
The protocol, windows, deal, replay and match loop are ``cnmahjong.envs.core.engine``'s;
this module holds Changsha's state machine.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.patterns import Win, WinContext, _opening_shown, classify, opening_present, wait_mask
from cnmahjong.envs.changsha.rules import OPENING_PATTERNS, RuleConfig
from cnmahjong.envs.changsha.scoring import bird_seat, bird_tiles, bird_value, others, settle
from cnmahjong.envs.core.checks import int_arg, sequence_arg
from cnmahjong.envs.core.engine import (
    DONE,
    NUM_SEATS,
    ClaimWindow,
    IllegalActionError,
    Match,
    ReplayMismatchError,
    TableGame,
    log_arg,
    zero_counts,
)
from cnmahjong.envs.core.engine import OTHERS as _OTHERS
from cnmahjong.envs.core.engine import count_hands as _count_hands
from cnmahjong.envs.core.eventlog import DISCARD as _DISCARD_FORM
from cnmahjong.envs.core.eventlog import DRAW as _DRAW_FORM
from cnmahjong.envs.core.eventlog import event_form, pack
from cnmahjong.envs.core.meld import ANGANG, CHI, JIAGANG, MINGGANG, PENG, Meld, kong_possible
from cnmahjong.envs.core.result import HandResult, Transfer, win_transfers
from cnmahjong.envs.core.tiles import NUM_SUITED_KINDS
from cnmahjong.envs.core.wall import WALL_SIZE, Wall, generator_after_shuffle

__all__ = ["RULESET", "ChangshaGame", "ChangshaMatch", "IllegalActionError", "ReplayMismatchError", "new_hand"]

RULESET = "changsha"
"""This ruleset's name: every deal event and result carries it (``Ruleset.name``)."""
_KINDS = range(NUM_SUITED_KINDS)

# Phases: what the seats in ``to_act`` are deciding.
OPENING = "opening"  # declare opening-hand wins (§3.2)
DISCARD = "discard"  # own turn: discard, self kong or self-drawn win
CLAIM = "claim"  # claims on a discard (§5)
ROB = "rob"  # robbing a kong: added 补张 (§6.2) or open 开杠 (§6.4)
DICE = "dice"  # choose one or two dice for 开杠 (§6.3)
KONG_DRAW = "kong_draw"  # after a 开杠 draw: 杠上开花, 开杠 again, or let the tiles go
KONG_DISCARD = "kong_discard"  # HU-only claims on the discarded 开杠 tiles (杠上炮)
HAIDI = "haidi"  # take or decline the 海底 tile (§7)
HAIDI_DRAW = "haidi_draw"  # the taker: 海底捞月 or let it go
HAIDI_DISCARD = "haidi_discard"  # HU-only claims on the 海底 tile (海底炮)
PHASES = (OPENING, DISCARD, CLAIM, ROB, DICE, KONG_DRAW, KONG_DISCARD, HAIDI, HAIDI_DRAW,
          HAIDI_DISCARD, DONE)
_DISCARD_EVENT, _FORCED_DISCARD_EVENT, _DRAW_EVENT = 1, 2, 3
"""Indices of ``ChangshaGame.EVENT_FORMS`` (``eventlog``: 0 is the act)."""

_Options = dict[int, list[int]]  # seat -> legal actions
_Wins = dict[int, tuple[int, Win]]  # seat -> (winning tile, best win)

OPENING_REASON = "opening:"
"""A transfer for an opening win (起手胡, §3.2) has the reason ``opening:`` + its pattern."""

# The actions the turn and claim steps offer and compare, read once here: a module attribute
# (``A.HU``) is a lookup per use, these compile to C ints (game.pxd).
_HU, _PASS, _PENG_CLAIM = A.HU, A.PASS, A.PENG
_BUZHANG_CLAIM, _KAIGANG_CLAIM = A.BUZHANG_CLAIM, A.KAIGANG_CLAIM
_BUZHANG_SELF, _KAIGANG_SELF = A.BUZHANG_SELF, A.KAIGANG_SELF
_CHI_LOW, _CHI_MID, _CHI_HIGH = A.CHI_LOW, A.CHI_MID, A.CHI_HIGH
_HAIDI_TAKE, _HAIDI_DECLINE = A.HAIDI_TAKE, A.HAIDI_DECLINE

_SELF_DRAWN = WinContext(self_drawn=True)
_ON_DISCARD = WinContext()
_TIANHU = WinContext(self_drawn=True, tianhu=True)
_DIHU = WinContext(dihu=True)


class _Window(ClaimWindow):
    """A simultaneous decision (§5): CLAIM, ROB, KONG_DISCARD or HAIDI_DISCARD."""

    __slots__ = ("wins", "louhu")

    def __init__(self, kind: str, tiles: list[int], payer: int, options: dict[int, list[int]],
                 wins: dict[int, tuple[int, Win]], louhu: dict[int, int]) -> None:
        self.kind, self.options, self.choices, self.picks = kind, options, {}, {}  # ClaimWindow's, as it
        self.tiles, self.payer = tiles, payer  # sets them itself (no base __init__ call per claim)
        self.wins = wins  # seat -> (tile, best win) when HU is offered
        self.louhu = louhu  # seat -> kinds (bitmask) barred if the seat passes HU


@dataclass
class _Kong:
    """A 开杠 under way (§6.3)."""

    seat: int
    tile: int
    open: bool  # 明杠 or 加杠: may be robbed once the dice are thrown (§6.4)
    from_seat: int | None  # discarder of a 明杠
    exempt: frozenset[int] = frozenset()  # seats that passed HU on that discard (§6.4)
    total: int = 0
    drawn: list[int] = field(default_factory=list)
    rekong: int | None = None


class ChangshaGame(TableGame):
    """One hand of Changsha mahjong. See the module docstring for the protocol."""

    RULESET = RULESET
    PLAYS_WITHOUT_LOG = True  # every write to the log is guarded (rollouts, VectorEnv(log=False))
    ACTIONS = A
    NUM_KINDS = NUM_SUITED_KINDS
    CONFIG = RuleConfig
    WALL_SIZE = WALL_SIZE
    NO_HONOURS = "Changsha has no honour tiles (kinds 0..26 only)"
    SCENARIO_KEYS = ("dice",)
    PHASES = PHASES
    DECLINE_PHASES = (OPENING, CLAIM, ROB, KONG_DISCARD, HAIDI_DISCARD)
    EVENT_FORMS = (_DISCARD_FORM, event_form("discard", "seat", "tile", forced=True), _DRAW_FORM)
    """The frequent events packed until the log is read (``eventlog``): indices ``_DISCARD_EVENT``,
    ``_FORCED_DISCARD_EVENT``, ``_DRAW_EVENT``."""
    DICE_AHEAD = 2 * NUM_SUITED_KINDS + NUM_SEATS * len(OPENING_PATTERNS) * 2
    """Dice rolled in one hand at most: two per 开杠 (one kong per kind at most) and two birds per
    opening-win declaration (each seat declares each pattern at most once)."""

    # Slots: attribute reads are the engine's most frequent operation, and slot reads skip
    # the instance dict.
    __slots__ = (  # with TableGame's (phase, pending, _window, _events, _log_tail, hands, result, payments)
        "config", "seed", "dealer", "wall", "melds", "melded", "rivers", "river_counts", "shown",
        "declared", "public_log", "locked", "louhu", "turn", "drawn", "last_tile", "revealed",
        "_rng", "_dice", "_waits", "_kong", "_turn_win", "_dihu", "_opening_queue", "_opening",
        "_haidi_first", "_haidi_offers", "_haidi_taker", "_haidi_kong_seat", "_ahead",
    )

    def __init__(self, config: RuleConfig | None = None, seed: int | None = None,
                 dealer: int = 0, log: bool = True) -> None:
        """A seeded deal (§1). ``seed=None`` draws a seed, recorded in the deal event, so that
        every game can be replayed; ``log=False``: no event log at all (``engine.log_arg``)."""
        config, seed, dealer = self._check_args(config, seed, dealer)
        log = log_arg(type(self), log)
        hands, wall, rng = self._seeded_deal(seed, dealer)
        self._setup(config, seed, dealer, hands, wall, rng, None, log)

    @classmethod
    def from_scenario(cls, hands: Sequence[str | Iterable[int]], wall: str | Iterable[int],
                      dealer: int = 0, dice: Iterable[int] = (), config: RuleConfig | None = None,
                      seed: int | None = 0) -> ChangshaGame:
        """Start from explicit concealed hands (the dealer's 14) and the undealt wall, head to
        tail (§11). ``dice`` values are used in order by every roll before the seeded generator.
        Hands and wall are tile text or lists of kinds; an empty wall must be given explicitly."""
        config, seed, dealer = cls._check_args(config, seed, dealer)
        hs, w = cls._check_scenario(hands, wall, dealer)
        dice = [int_arg(d, f"scenario dice[{i}]", 1, 6) for i, d in enumerate(sequence_arg(dice, "scenario dice"))]
        game = cls.__new__(cls)
        game._setup(config, seed, dealer, hs, Wall(w), random.Random(seed), dice)
        return game

    # ------------------------------------------------------------------ setup
    def _setup(self, config: RuleConfig, seed: int, dealer: int, hands: list[list[int]],
               wall: Wall, rng: random.Random | None, dice: list[int] | None, log: bool = True) -> None:
        """Common start; ``dice`` is None for a seeded deal, the scenario's dice otherwise; ``log``
        False: no event log (the deal event not made)."""
        self.config = config
        self.seed = seed
        self.dealer = dealer
        self.wall = wall
        self._rng = rng
        self._dice = deque(dice or ())
        self._ahead: list[int] | None = None  # peek_dice's answer until the next roll
        # Count vectors per seat are bytearrays: list-fast to index, and the observation
        # encoder reads them as numpy arrays without copying element by element.
        self.hands: list[bytearray] = _count_hands(hands, NUM_SUITED_KINDS)
        self.melds: list[list[Meld]] = [[] for _ in range(NUM_SEATS)]
        self.melded: list[bytearray] = zero_counts(NUM_SUITED_KINDS)
        self.rivers: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        """Tiles lying discarded in front of each seat (claimed ones are removed)."""
        self.river_counts: list[bytearray] = zero_counts(NUM_SUITED_KINDS)
        self.shown: list[bytearray] = zero_counts(NUM_SUITED_KINDS)
        """Counts of concealed tiles shown by opening declarations (§3.2) still in the hand."""
        self.declared: list[list[str]] = [[] for _ in range(NUM_SEATS)]
        self.public_log: list[int] = []
        """Journal of public rows as they change, for incremental observers (append-only):
        ``s`` when seat s's melds changed, ``4 + s`` its river, ``8 + s`` its shown tiles;
        a discard logs ``4 + s + 16 * (t + 1)``: tile ``t`` joined the river of seat s."""
        self.locked = [False] * NUM_SEATS
        """Seats locked after a 开杠 whose draw they did not use (§6.3)."""
        self.louhu = [0] * NUM_SEATS
        """漏胡: per seat, kinds (bitmask) it may not win on from a discard until its next draw."""
        self.payments = [0] * NUM_SEATS
        self.phase = OPENING
        self.turn = dealer
        self.drawn: int | None = None
        self.last_tile: int | None = None
        self.events = [] if log else None
        self.result: HandResult | None = None
        self._waits: list[int | None] = [None] * NUM_SEATS
        self.pending: dict[int, list[int]] = {}
        """Seat -> its sorted legal actions, for the seats to act now (read it, never change it;
        ``to_act`` and ``legal_actions`` give copies)."""
        self._window: _Window | None = None
        self._kong: _Kong | None = None
        self._turn_win: Win | None = None
        self._dihu = True  # until the dealer's first discard has been offered, with no meld made
        self._opening_queue: list[int] = []
        self._opening: list[dict[str, Any]] = []
        self._haidi_first: int | None = None
        self._haidi_offers = 0
        self._haidi_taker: int | None = None
        self._haidi_kong_seat: int | None = None
        self.revealed: list[int] = []
        """Tiles drawn face up and not yet in a hand or river: 开杠 draws, the 海底 tile."""
        if log:
            deal = {"type": "deal", "ruleset": RULESET, "origin": "seed" if dice is None else "scenario",
                    "dealer": dealer, "seed": seed, "config": config.to_dict(), "hands": [sorted(h) for h in hands],
                    "wall": wall.tiles()}
            if dice is not None:
                deal["dice"] = list(dice)
            self._log_tail.append(deal)
        order = [(dealer + i) % NUM_SEATS for i in range(NUM_SEATS)]
        self._opening_queue = [s for s in order if self._declarable(s)]
        self._next_opening()

    # ------------------------------------------------------------- decisions
    def _discards_all_held(self, seat: int) -> bool:
        return self.phase == DISCARD and not self.locked[seat]

    def _apply(self, seat: int, action: int, phase: str) -> None:
        if phase == DISCARD:  # the most common decision first
            self._step_discard_turn(seat, action)
        elif phase == OPENING:
            self._step_opening(seat, action)
        elif phase == DICE:
            self._roll_kong_dice(1 if action == A.DICE_ONE else 2)
        elif phase == KONG_DRAW:
            self._step_kong_draw(seat, action)
        elif phase == HAIDI:
            self._step_haidi(seat, action)
        elif phase == HAIDI_DRAW:
            if action == A.HU:
                assert self._turn_win is not None and self.last_tile is not None
                self._finish([(seat, self.last_tile, self._turn_win)], payer=None, haidi=True)
            else:
                self._haidi_discard(seat)

    # ------------------------------------------------------------ helpers
    def _roll(self, n: int, purpose: str, seat: int) -> list[int]:
        values = [self._dice.popleft() if self._dice else self._generator().randint(1, 6) for _ in range(n)]
        self._ahead = None
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "dice", "seat": seat, "purpose": purpose, "values": values})
        return values

    def _generator(self) -> random.Random:
        """The seeded generator the dice roll with: a deal shuffled in C leaves None
        (``TableGame._seeded_deal``), made here when first asked."""
        rng = self._rng
        if rng is None:
            rng = self._rng = generator_after_shuffle(self.seed, NUM_SUITED_KINDS)
        return rng

    def peek_dice(self, n: int) -> list[int]:
        """The next ``n`` rolls: the scenario's dice still queued, then the seeded generator's,
        drawn from a copy of it (made again only after a roll)."""
        ahead = self._ahead
        if ahead is None or len(ahead) < n:
            ahead = list(self._dice)[:n]
            if len(ahead) < n:
                rng = random.Random()
                rng.setstate(self._generator().getstate())
                ahead += [rng.randint(1, 6) for _ in range(n - len(ahead))]
            self._ahead = ahead
        return ahead[:n]

    def _wait(self, s: int) -> int:
        w = self._waits[s]
        if w is None:
            w = self._waits[s] = wait_mask(self.hands[s], self.melded[s], len(self.melds[s]))
        return w

    def _win_with(self, s: int, t: int, ctx: WinContext) -> Win | None:
        """The win seat ``s`` (3n+1 concealed) would make with tile ``t``, or None."""
        if not self._wait(s) >> t & 1:
            return None
        h = self.hands[s]
        h[t] += 1
        win = classify(h, self.melds[s], t, ctx, self.config)
        h[t] -= 1
        return win

    def _kong_wall_ok(self) -> bool:
        """§6.5: a kong needs a tile in the wall; with only the 海底 left, ``kong_on_haidi``."""
        r = self.wall.remaining
        return r > 1 or (r == 1 and self.config.kong_on_haidi)

    def _ready_after_kong(self, s: int, t: int, from_hand: int, new_meld: bool) -> bool:
        """§6.3: is the hand ready once the kong of ``t`` is set aside?"""
        h = self.hands[s]
        melded = self.melded[s]
        h[t] -= from_hand
        old = melded[t]
        melded[t] = 4
        ready = wait_mask(h, melded, len(self.melds[s]) + new_meld) != 0
        melded[t] = old
        h[t] += from_hand
        return ready

    def _to_river(self, s: int, t: int, forced: bool = False) -> None:
        self.rivers[s].append(t)
        counts = self.river_counts[s]
        counts[t] += 1
        self.public_log.append(4 + s + 16 * (t + 1))
        self.last_tile = t
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append(pack(_FORCED_DISCARD_EVENT if forced else _DISCARD_EVENT, s, t))

    def _unshow(self, s: int, t: int) -> None:
        """A tile of kind ``t`` left seat ``s``'s hand in sight: the others know one shown copy
        fewer is surely still there (it may have been the shown one), whatever the hand holds
        unseen; counting what the hand holds would tell them whether it holds another copy."""
        shown = self.shown[s]
        if shown[t]:
            shown[t] -= 1
            self.public_log.append(8 + s)

    def _add_meld(self, s: int, kind: str, tiles: tuple[int, ...], from_seat: int | None,
                  how: str | None, used: tuple[int, ...]) -> None:
        """The meld ``tiles`` (``used``: those taken from the hand)."""
        if kind == JIAGANG:
            t = tiles[0]
            self.melds[s] = [Meld(JIAGANG, tiles, m.from_seat) if m.kind == PENG and m.tiles[0] == t else m
                             for m in self.melds[s]]
        else:
            self.melds[s].append(Meld(kind, tiles, from_seat))
        melded = self.melded[s]  # typed (game.pxd): C reads and writes
        if kind == JIAGANG:
            melded[tiles[0]] = 4
        else:
            for t in tiles:
                melded[t] += 1
        self.public_log.append(s)
        self._waits[s] = None
        self._dihu = False
        for t in used:
            self._unshow(s, t)
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "meld", "seat": s, "kind": kind, "tiles": list(tiles),
                                "from": from_seat, "how": how})

    # ------------------------------------------------------------ opening §3.2
    def _declarable(self, s: int) -> list[str]:
        if self.declared[s] and not self.config.opening_win_stacking:
            return []
        allowed = self.config.opening_wins
        return [p for p in opening_present(self.hands[s])
                if p in allowed and p not in self.declared[s]]

    def _next_opening(self) -> None:
        while self._opening_queue:
            s = self._opening_queue[0]
            pats = self._declarable(s)
            if pats:
                self._ask(OPENING, {s: sorted([A.declare(p) for p in pats] + [A.PASS])})
                return
            self._opening_queue.pop(0)
        self._start_turn(self.dealer, None, self._tianhu_win())

    def _step_opening(self, s: int, action: int) -> None:
        if action == A.PASS:
            self._opening_queue.pop(0)
        else:
            pattern = OPENING_PATTERNS[action - A.DECLARE]
            shown = _opening_shown(self.hands[s], pattern)
            assert shown is not None
            for t in set(shown):
                self.shown[s][t] = max(self.shown[s][t], shown.count(t))
            self.public_log.append(8 + s)
            self.declared[s].append(pattern)
            dice = self._roll(self.config.bird_count, "opening_birds", s)
            seats = [bird_seat(v, self.dealer) for v in dice]
            st = settle(self.config, self.dealer, s, others(s), big=False, he=0, self_drawn=True,
                        bird_seats=seats)
            for i, v in enumerate(st.payments):
                self.payments[i] += v
            record = {"seat": s, "pattern": pattern, "shown": shown, "dice": dice,
                      "bird_seats": seats, "payments": list(st.payments)}
            self._opening.append(record)
            if self._log_tail is not None:  # None: a rollout's game keeps no log
                self._log_tail.append({"type": "declare", **record})
            if not self.config.opening_win_stacking:
                self._opening_queue.pop(0)
        self._next_opening()

    def _tianhu_win(self) -> Win | None:
        """The dealer's dealt 14 as a win (天胡), or None: classified only where the hand less one
        tile waits on it (``wait_mask``, as ``_win_with``): most deals are not complete."""
        d = self.dealer
        h = self.hands[d]
        t = self._last_kind(d)
        h[t] -= 1
        ready = wait_mask(h, self.melded[d], 0) >> t & 1
        h[t] += 1
        if not ready:
            return None
        return classify(h, [], t, _TIANHU, self.config)

    # ---------------------------------------------------------- turns §5, §6
    def _start_turn(self, s: int, drawn: int | None, win: Win | None) -> None:
        """Seat ``s`` holds 3n+2 tiles: discard, kong, or win if ``win``."""
        self.turn = s
        self.drawn = drawn
        self._turn_win = win
        h = self.hands[s]
        locked = self.locked[s]
        if locked and drawn is not None:
            acts = [drawn]  # §6.3: a locked player discards the tile he drew
        else:
            acts = self._held_kinds(h, s)  # every kind held (the list s was asked with last, refilled)
        if win is not None:
            acts.append(_HU)
        # a kong needs four of a kind in hand or a PENG to add to (checked first: it is rare; as
        # Python, two tests where a call costs more)
        if (kong_possible(h, self.melded[s]) if cython.compiled else 4 in h or self.melds[s]) \
                and self._kong_wall_ok():
            kongs = self._self_kongs(s)
            for t, kind in kongs:
                if not locked:
                    acts.append(A.buzhang(t))
                if self._ready_after_kong(s, t, 4 if kind == ANGANG else 1, kind == ANGANG):
                    acts.append(A.kaigang(t))
            if kongs:  # the discards and HU are in order already
                acts.sort()
        self._ask_seat(DISCARD, s, acts)

    def _self_kongs(self, s: int) -> list[tuple[int, str]]:
        """Kongs seat ``s`` could make from its own hand: 暗杠 (four held) and 加杠 (on a PENG)."""
        h = self.hands[s]
        out = [(t, ANGANG) for t in _KINDS if h[t] == 4] if 4 in h else []
        for m in self.melds[s]:
            if m.kind == PENG and h[m.tiles[0]]:  # the kind first: most melds are CHI here (Sichuan has none)
                out.append((m.tiles[0], JIAGANG))
        return out

    def _step_discard_turn(self, s: int, action: int) -> None:
        if action < NUM_SUITED_KINDS:
            self._discard(s, action)
        elif action == _HU:
            assert self._turn_win is not None
            tile = self.drawn if self.drawn is not None else self._last_kind(s)
            self._finish([(s, tile, self._turn_win)], payer=None)
        else:
            is_kai = action >= _KAIGANG_SELF
            t = action - (_KAIGANG_SELF if is_kai else _BUZHANG_SELF)
            kind = ANGANG if self.hands[s][t] == 4 else JIAGANG
            used = (t,) * (4 if kind == ANGANG else 1)
            self.hands[s][t] -= len(used)
            self._add_meld(s, kind, (t,) * 4, None, "kaigang" if is_kai else "buzhang", used)
            if is_kai:
                self._start_kaigang(_Kong(s, t, open=kind == JIAGANG, from_seat=None))
            elif kind == JIAGANG:
                self._open_rob_buzhang(s, t)
            else:
                self._buzhang_draw(s)

    def _last_kind(self, s: int) -> int:
        """The highest kind seat ``s`` holds (a loop from the top: C compiled, a few steps)."""
        h = self.hands[s]
        for t in range(len(h) - 1, -1, -1):
            if h[t]:
                return t
        raise ValueError(f"seat {s} holds no tile")

    def _discard(self, s: int, t: int) -> None:
        h = self.hands[s]
        h[t] -= 1
        self._waits[s] = None
        self._unshow(s, t)
        self._to_river(s, t)
        self._open_claims(s, t)

    def _draw(self, s: int) -> None:
        """Seat ``s`` would draw: the 海底 offer, a drawn hand, or a head draw (§1, §7)."""
        r = self.wall.remaining
        if r == 0:
            self._finish([], payer=None)
        elif r == 1:
            if self._haidi_first is None:
                self._haidi_first = s
            self._ask(HAIDI, {s: [_HAIDI_TAKE, _HAIDI_DECLINE]})
            self.turn = s
        else:
            t = self.wall.draw_head()
            if self._log_tail is not None:  # None: a rollout's game keeps no log
                self._log_tail.append(pack(_DRAW_EVENT, s, t, 0))  # from the head
            self._take_drawn(s, t)

    def _take_drawn(self, s: int, t: int) -> None:
        self.louhu[s] = 0  # 漏胡 lasts until the seat's next own draw (§5)
        win = self._win_with(s, t, _SELF_DRAWN)
        h = self.hands[s]
        h[t] += 1
        self._waits[s] = None
        self._start_turn(s, t, win)

    def _buzhang_draw(self, s: int) -> None:
        """补张 (§6.1): a tail tile; winning with it is an ordinary self-drawn win."""
        t = self.wall.draw_tail()
        if self.wall.remaining == 0:
            self._haidi_kong_seat = s  # §6.5: the last tile used as a replacement
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append(pack(_DRAW_EVENT, s, t, 1))  # from the tail
        self._take_drawn(s, t)

    # ---------------------------------------------------------- claims §5
    def _open_claims(self, d: int, t: int) -> None:
        """Collect every eligible seat's claim on discard ``t`` of seat ``d``."""
        nxt, s2, s3 = _OTHERS[d]
        h1, h2, h3 = self.hands[nxt], self.hands[s2], self.hands[s3]
        waits = self._waits  # the others' waits are cached (only the discarder's hand changed): read
        w = waits[nxt]  # here, a method call only to make one; w1..w3 are C integers compiled
        w1 = self._wait(nxt) if w is None else w
        w = waits[s2]
        w2 = self._wait(s2) if w is None else w
        w = waits[s3]
        w3 = self._wait(s3) if w is None else w
        # the seats with a claim to be offered (bits 0..2 for nxt, s2, s3): a wait on t, a pair
        # of it, or (nxt) a CHI; the others are not asked (their offer would be empty)
        asked = ((1 if w1 >> t & 1 or h1[t] >= 2 or _chi_bits(h1, t) else 0)
                 | (2 if w2 >> t & 1 or h2[t] >= 2 else 0) | (4 if w3 >> t & 1 or h3[t] >= 2 else 0))
        if not asked:
            self._dihu = False  # the common case: no win, PENG, kong or CHI for anybody
            self._draw(nxt)
            return
        options: dict[int, list[int]] = {}
        wins: dict[int, tuple[int, Win]] = {}
        hu_only = self.wall.remaining == 0  # §6.5: the last discard may only be won on
        dihu = self._dihu and d == self.dealer
        self._dihu = False
        kong_ok = not hu_only and self._kong_wall_ok()
        for s in _OTHERS[d]:
            if asked & 1:
                acts, win = self._claim_offer(s, d, t, dihu, hu_only, kong_ok)
                if win is not None:
                    wins[s] = (t, win)
                if acts:
                    options[s] = acts
            asked >>= 1
        if not options:
            self._draw(nxt)
            return
        self._open_claims_window(CLAIM, [t], d, options, wins, {s: 1 << t for s in wins})

    def _claim_offer(self, s: int, d: int, t: int, dihu: bool, hu_only: bool,
                     kong_ok: bool) -> tuple[list[int], Win | None]:
        """Seat ``s``'s claims on discard ``t`` of seat ``d`` (empty: none) and the win it offers."""
        h = self.hands[s]
        n = h[t]
        acts = []
        win = None
        if self._wait(s) >> t & 1 and not self.louhu[s] >> t & 1:
            win = self._win_with(s, t, _DIHU if dihu else _ON_DISCARD)
            if win is not None:
                acts.append(_HU)
        locked = self.locked[s]
        if not hu_only and not locked:
            if s == _OTHERS[d][0]:
                acts += _chis(h, t)
            if n >= 2:
                acts.append(_PENG_CLAIM)
        if n == 3 and kong_ok:
            if not locked:
                acts.append(_BUZHANG_CLAIM)
            if self._ready_after_kong(s, t, 3, True):
                acts.append(_KAIGANG_CLAIM)
        if acts:
            acts.append(_PASS)
            acts.sort()
        return acts, win

    def _open_claims_window(self, kind: str, tiles: list[int], payer: int, options: dict[int, list[int]],
                            wins: dict[int, tuple[int, Win]], louhu: dict[int, int]) -> None:
        """Ask every seat in ``options`` at once; ``louhu`` holds the kinds each HU-offered seat
        is barred from winning on (漏胡) if it does not take the win."""
        self._open_window(_Window(kind, tiles, payer, options, wins, louhu))

    def _resolve_window(self, w: _Window) -> None:  # type: ignore[override]
        win = w  # compiled: the window's type known (game.pxd), its slots read in C
        for s, bits in win.louhu.items():
            if win.choices.get(s) != _HU:
                self.louhu[s] |= bits
        winners = [(s, *win.wins[s]) for s in win.options if win.choices[s] == _HU]
        if winners:
            self._finish(winners, payer=win.payer, haidi=win.kind == HAIDI_DISCARD)
            return
        if win.kind == CLAIM:
            self._apply_claim(w)
        elif win.kind == ROB:
            k = self._kong
            if k is not None:
                self._kong_draw()
            else:
                self._buzhang_draw(win.payer)
        elif win.kind == KONG_DISCARD:
            self._after_kong_discard()
        else:  # HAIDI_DISCARD: nobody won the 海底 tile
            self._finish([], payer=None)

    def _apply_claim(self, w: _Window) -> None:
        d, t = w.payer, w.tiles[0]
        claim = None
        for s, a in w.choices.items():
            if a in (_PENG_CLAIM, _BUZHANG_CLAIM, _KAIGANG_CLAIM):
                claim = (s, a)
        if claim is None:
            for s, a in w.choices.items():  # a loop, not next(genexp): a compiled method has no closure
                if _CHI_LOW <= a <= _CHI_HIGH:
                    claim = (s, a)
                    break
        if claim is None:
            self._draw((d + 1) % NUM_SEATS)
            return
        s, a = claim
        self.rivers[d].pop()
        self.river_counts[d][t] -= 1
        self.public_log.append(4 + d)
        h = self.hands[s]
        if _CHI_LOW <= a <= _CHI_HIGH:
            run = A.chi_run(a, t)
            used = tuple([x for x in run if x != t])
            for x in used:
                h[x] -= 1
            self._add_meld(s, CHI, run, d, None, used)
            self._start_turn(s, None, None)
        elif a == _PENG_CLAIM:
            h[t] -= 2
            self._add_meld(s, PENG, (t,) * 3, d, None, (t, t))
            self._start_turn(s, None, None)
        else:
            h[t] -= 3
            is_kai = a == _KAIGANG_CLAIM
            self._add_meld(s, MINGGANG, (t,) * 4, d, "kaigang" if is_kai else "buzhang", (t, t, t))
            self.turn = s
            if is_kai:
                passed = frozenset([o for o in w.louhu if w.choices.get(o) != _HU])
                self._start_kaigang(_Kong(s, t, open=True, from_seat=d, exempt=passed))
            else:
                self._buzhang_draw(s)

    # ------------------------------------------------------- robbing §6.2, §6.4
    def _open_rob_buzhang(self, s: int, t: int) -> None:
        """§6.2: others may win on the tile added to a PENG by 补张 (an ordinary discard win)."""
        options, wins, louhu = self._hu_options(s, [t], lambda n: _ON_DISCARD)
        if options:
            self._open_claims_window(ROB, [t], s, options, wins, louhu)
        else:
            self._buzhang_draw(s)

    def _hu_options(self, payer: int, tiles: list[int], ctx_for: Any,
                    exempt: frozenset[int] = frozenset()) -> tuple[_Options, _Wins, dict[int, int]]:
        """HU-only options of the other seats on ``tiles``; ``ctx_for(n)`` gives the context
        when ``n`` of the tiles win for that seat. Seats in ``exempt`` ignore 漏胡. Also
        returns, per offered seat, the winning kinds it is barred from if it passes (漏胡)."""
        options: dict[int, list[int]] = {}
        wins: dict[int, tuple[int, Win]] = {}
        louhu: dict[int, int] = {}
        for i in (1, 2, 3):
            s = (payer + i) % NUM_SEATS
            offer = self._hu_offer(s, tiles, ctx_for, 0 if s in exempt else self.louhu[s])
            if offer is not None:
                wins[s], louhu[s] = offer
                options[s] = [_HU, _PASS]
        return options, wins, louhu

    def _hu_offer(self, s: int, tiles: list[int], ctx_for: Any, barred: int) -> tuple[tuple[int, Win], int] | None:
        """Seat ``s``'s best win on one of ``tiles`` (none of the kinds in the ``barred`` bitmask)
        and the kinds it would win on, or None."""
        hits = [t for t in tiles if not barred >> t & 1 and self._win_with(s, t, ctx_for(1)) is not None]
        if not hits:
            return None
        ctx = ctx_for(len(hits))
        best = max(((t, self._win_with(s, t, ctx)) for t in hits), key=lambda tw: tw[1].he)
        return best, sum(1 << t for t in set(hits))  # type: ignore[return-value]

    # ------------------------------------------------------------ 开杠 §6.3
    def _start_kaigang(self, k: _Kong) -> None:
        self._kong = k
        stacks = self.wall.stacks_left()
        if stacks >= 12:
            self._roll_kong_dice(2)
        elif stacks >= 6 and self.config.kong_dice_choice:
            self._ask(DICE, {k.seat: [A.DICE_ONE, A.DICE_TWO]})
        else:
            self._roll_kong_dice(2 if stacks >= 6 else 1)

    def _roll_kong_dice(self, n: int) -> None:
        k = self._kong
        assert k is not None
        k.total = sum(self._roll(n, "kaigang", k.seat))
        if k.open:
            # §6.4: once the dice are thrown others may rob the kong tile (抢杠胡). A seat
            # that passed HU on the discard this 明杠 was made from may still rob it.
            options, wins, louhu = self._hu_options(k.seat, [k.tile], lambda n: _ROBBING, k.exempt)
            if k.from_seat is not None:
                options.pop(k.from_seat, None)
                wins.pop(k.from_seat, None)
            if options:
                self._open_claims_window(ROB, [k.tile], k.seat, options, wins, louhu)
                return
        self._kong_draw()

    def _kong_draw(self) -> None:
        k = self._kong
        assert k is not None
        s = k.seat
        k.drawn = self.wall.draw_dice(k.total, self.config.kong_draw_count, self.config.kong_dice_overflow)
        if self.wall.remaining == 0:
            self._haidi_kong_seat = s  # §6.3/§6.5: the last tile taken, no 海底 this hand
        self.revealed = list(k.drawn)
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "kong_draw", "seat": s, "tiles": list(k.drawn), "total": k.total})
        self.louhu[s] = 0
        acts = self._kong_draw_options(k)
        if acts:
            self._ask(KONG_DRAW, {s: sorted(acts + [A.PASS])})
        else:
            self._kong_discard(k)

    def _kong_draw_options(self, k: _Kong) -> list[int]:
        """What the kong's seat may do with its drawn tiles: 杠上开花 (setting ``_turn_win`` and
        ``last_tile``) and 开杠 again; empty when neither."""
        s = k.seat
        hits = [t for t in k.drawn if self._win_with(s, t, _KAIHUA[1]) is not None]
        acts = []
        self._turn_win = None
        if hits:
            ctx = _KAIHUA[len(hits)]
            tile, win = max(((t, self._win_with(s, t, ctx)) for t in hits), key=lambda tw: tw[1].he)
            self._turn_win = win
            self.last_tile = tile
            acts.append(A.HU)
        if self._kong_wall_ok():
            h = self.hands[s]
            for t in sorted(set(k.drawn)):
                if h[t] == 3:  # the fourth of a concealed triplet: 暗杠
                    ok = self._ready_after_kong(s, t, 3, True)
                else:  # the fourth of his own PENG: 加杠
                    ok = any(m.kind == PENG and m.tiles[0] == t for m in self.melds[s]) \
                        and self._ready_after_kong(s, t, 0, False)
                if ok:
                    acts.append(A.kaigang(t))
        return acts

    def _step_kong_draw(self, s: int, action: int) -> None:
        k = self._kong
        assert k is not None
        if action == A.HU:
            assert self._turn_win is not None and self.last_tile is not None
            self._finish([(s, self.last_tile, self._turn_win)], payer=None)
            return
        if action != A.PASS:
            t = action - A.KAIGANG_SELF
            k.rekong = t  # stays face up in ``revealed`` until the new kong is made
            k.drawn.remove(t)
        self._kong_discard(k)

    def _kong_discard(self, k: _Kong) -> None:
        """§6.3: unused drawn tiles are discarded at once; others may only HU (杠上炮)."""
        s = k.seat
        if not self.locked[s]:
            self.locked[s] = True
            if self._log_tail is not None:  # None: a rollout's game keeps no log
                self._log_tail.append({"type": "lock", "seat": s})
        self.revealed = [] if k.rekong is None else [k.rekong]
        for t in k.drawn:
            self._to_river(s, t, forced=True)
        if k.drawn:
            options, wins, louhu = self._hu_options(s, k.drawn, lambda n: _PAO[n])
            if options:
                self._open_claims_window(KONG_DISCARD, list(k.drawn), s, options, wins, louhu)
                return
        self._after_kong_discard()

    def _after_kong_discard(self) -> None:
        k = self._kong
        assert k is not None
        s = k.seat
        self._kong = None
        if k.rekong is None:
            self._draw((s + 1) % NUM_SEATS)
            return
        t = k.rekong
        self.revealed = []
        self.hands[s][t] += 1
        kind = ANGANG if self.hands[s][t] == 4 else JIAGANG
        used = (t,) * (4 if kind == ANGANG else 1)
        self.hands[s][t] -= len(used)
        self._add_meld(s, kind, (t,) * 4, None, "kaigang", used)
        self._start_kaigang(_Kong(s, t, open=kind == JIAGANG, from_seat=None))

    # ------------------------------------------------------------- 海底 §7
    def _step_haidi(self, s: int, action: int) -> None:
        if action == A.HAIDI_DECLINE:
            if self._log_tail is not None:  # None: a rollout's game keeps no log
                self._log_tail.append({"type": "haidi", "seat": s, "take": False})
            self._haidi_offers += 1
            if self._haidi_offers == NUM_SEATS:
                self._finish([], payer=None)
            else:
                nxt = (s + 1) % NUM_SEATS
                self.turn = nxt
                self._ask(HAIDI, {nxt: [A.HAIDI_TAKE, A.HAIDI_DECLINE]})
            return
        t = self.wall.draw_head()
        self._haidi_taker = s
        self.last_tile = t
        self.louhu[s] = 0
        self.revealed = [t]
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "haidi", "seat": s, "take": True, "tile": t})
        win = self._win_with(s, t, _LAOYUE)
        if win is not None:
            self._turn_win = win
            self._ask(HAIDI_DRAW, {s: [A.HU, A.PASS]})
        else:
            self._haidi_discard(s)

    def _haidi_discard(self, s: int) -> None:
        """§7: the 海底 tile never joins the hand; others may only HU on it (海底炮)."""
        t = self.last_tile
        assert t is not None
        self.revealed = []
        self._to_river(s, t, forced=True)
        options, wins, louhu = self._hu_options(s, [t], lambda n: _HAIDI_PAO)
        if options:
            self._open_claims_window(HAIDI_DISCARD, [t], s, options, wins, louhu)
        else:
            self._finish([], payer=None)

    # -------------------------------------------------------- settlement §8
    def _finish(self, winners: list[tuple[int, int, Win]], payer: int | None, haidi: bool = False) -> None:
        """Settle the winners (several on one tile: 通炮, each with the payer) and end the hand."""
        cfg = self.config
        patterns: dict[int, dict[str, int]] = {}
        he: dict[int, int] = {}
        tiles: dict[int, int | None] = {}
        birds: list[int] = []
        seats: list[int] = []
        transfers: list[Transfer] = []
        for d in self._opening:  # 起手胡 (§3.2), settled as they were declared
            transfers += win_transfers(d["seat"], d["payments"], OPENING_REASON + d["pattern"])
        if winners:
            first_tile = winners[0][1]
            birds = [bird_value(t) for t in
                     bird_tiles(self.wall.peek_head(cfg.bird_count), cfg.bird_count, first_tile, haidi)]
            seats = [bird_seat(v, self.dealer) for v in birds]
            for s, t, win in winners:
                st = settle(cfg, self.dealer, s, others(s) if payer is None else (payer,),
                            big=win.big, he=win.he, self_drawn=payer is None, bird_seats=seats)
                for i, v in enumerate(st.payments):
                    self.payments[i] += v
                patterns[s] = dict.fromkeys(win.patterns, 1)
                he[s] = win.he
                tiles[s] = t
                transfers += win_transfers(s, st.payments)
                if self._log_tail is not None:  # None: a rollout's game keeps no log
                    self._log_tail.append({"type": "win", "seat": s, "tile": t, "payer": payer,
                                        "patterns": list(win.patterns), "he": win.he,
                                        "payments": list(st.payments)})
        won = tuple(s for s, _, _ in winners)
        self._end_hand(HandResult(
            ruleset=RULESET, payments=tuple(self.payments), winners=won,
            self_drawn=won if payer is None else (), won_from={} if payer is None else dict.fromkeys(won, payer),
            winning_tiles=tiles, patterns=patterns, value=he, transfers=tuple(transfers),
            next_dealer=self._next_dealer(winners, payer),
            extras={"birds": birds, "bird_seats": seats, "opening": [dict(d) for d in self._opening]},
        ))

    def _next_dealer(self, winners: list[tuple[int, int, Win]], payer: int | None) -> int:
        """§9: the dealer of the next hand."""
        if len(winners) == 1:
            return winners[0][0]
        if winners:
            assert payer is not None
            return payer
        declarers = []
        for d in self._opening:
            if d["seat"] not in declarers:
                declarers.append(d["seat"])
        if len(declarers) == 1:
            return declarers[0]
        if len(declarers) > 1:  # rule G: the seat hit by the first bird of the first declaration
            first = self._opening[0]["bird_seats"]
            return first[0] if first else declarers[0]
        for seat in (self._haidi_taker, self._haidi_kong_seat, self._haidi_first):
            if seat is not None:
                return seat
        return self.turn  # the wall emptied by a kong draw: the seat that would have drawn

    # ------------------------------------------- worlds (cnmahjong.envs.core.worlds)
    def _world_face_up(self) -> list[int]:
        """Tiles face up outside hands, melds and rivers: 开杠 draws and the 海底 tile."""
        return self.revealed

    def _world_shown(self, s: int) -> bytearray:
        """Seat ``s``'s tiles shown by opening wins (§3.2), still in its hand."""
        return self.shown[s]

    def _world_forget(self, seat: int, rng: Any) -> None:
        """The hidden tiles were drawn afresh: future dice come from ``rng``; the wait cache, the
        other seats' 漏胡 and the seats still to declare opening wins followed from the old hands."""
        self._rng = random.Random(int(rng.integers(2**63)))
        self._dice = deque()
        self._ahead = None
        self._waits = [None] * NUM_SEATS
        for s in _OTHERS[seat]:
            self.louhu[s] = 0
        queue = self._opening_queue
        if self.phase == OPENING and queue:
            order = [(self.dealer + i) % NUM_SEATS for i in range(NUM_SEATS)]
            self._opening_queue = [queue[0]] + [s for s in order[order.index(queue[0]) + 1:] if self._declarable(s)]

    @classmethod
    def kongs_face_down(cls, config: dict[str, Any]) -> bool:
        """§6: every kong is shown face up, a concealed one too (暗杠也要亮明)."""
        return False

    def _world_force(self, events: list[dict[str, Any]]) -> None:
        """A game rebuilt from a seat's events (``envs.core.shadow``): the next rolls are the
        recorded ones."""
        for e in events:
            if e["type"] == "dice":
                self._dice.extend(e["values"])
        self._ahead = None

    def _world_offer(self, w: _Window, s: int) -> list[int]:
        """Seat ``s``'s options in the open window with its drawn hand (its win and 漏胡 bits too)."""
        w.wins.pop(s, None)
        w.louhu.pop(s, None)
        if w.kind == CLAIM:
            d, t = w.payer, w.tiles[0]
            dihu = d == self.dealer and not any(self.melds) and sum(map(len, self.rivers)) == 1
            hu_only = self.wall.remaining == 0
            acts, win = self._claim_offer(s, d, t, dihu, hu_only, not hu_only and self._kong_wall_ok())
            if win is not None:
                w.wins[s], w.louhu[s] = (t, win), 1 << t
            return acts
        k = self._kong
        barred = self.louhu[s]
        if w.kind == ROB and k is not None:  # a 开杠 robbed (§6.4)
            if s == k.from_seat:
                return []
            barred = 0 if s in k.exempt else barred
            offer = self._hu_offer(s, w.tiles, lambda n: _ROBBING, barred)
        elif w.kind == ROB:  # a 补张 robbed (§6.2)
            offer = self._hu_offer(s, w.tiles, lambda n: _ON_DISCARD, barred)
        elif w.kind == KONG_DISCARD:
            offer = self._hu_offer(s, w.tiles, _PAO.__getitem__, barred)
        else:
            offer = self._hu_offer(s, w.tiles, lambda n: _HAIDI_PAO, barred)
        if offer is None:
            return []
        w.wins[s], w.louhu[s] = offer
        return [A.HU, A.PASS]

    def _world_reask(self, s: int, rng: Any, last: bool) -> bool:
        """Seat ``s`` (another seat) is asked alone: its options again from its drawn hand. Its
        drawn tile is one of its hidden tiles, uniformly. False when the phase says it holds an
        option its hand lacks (an opening win, a 开杠 draw's use, a 海底 win), unless ``last``."""
        phase = self.phase
        if phase == DISCARD:
            h = self.hands[s]
            drawn, win = self.drawn, None
            if drawn is not None:
                hidden = [t for t in _KINDS for _ in range(h[t] - self.shown[s][t])] or self._held_kinds(h)
                drawn = hidden[int(rng.integers(len(hidden)))]
                h[drawn] -= 1
                win = self._win_with(s, drawn, _SELF_DRAWN)
                h[drawn] += 1
                self._waits[s] = None
            elif s == self.dealer and self._dihu:
                win = self._tianhu_win()
            self._start_turn(s, drawn, win)
        elif phase == OPENING:
            pats = self._declarable(s)
            if not pats:
                if not last:
                    return False
                self._opening_queue.pop(0)
                self._next_opening()
            else:
                self._ask(OPENING, {s: sorted([A.declare(p) for p in pats] + [A.PASS])})
        elif phase == KONG_DRAW:
            assert self._kong is not None
            self.last_tile = self._kong.tile  # a winning drawn tile replaces it below
            acts = self._kong_draw_options(self._kong)
            if not acts and not last:
                return False
            self._ask(KONG_DRAW, {s: sorted(acts + [A.PASS])})
        elif phase == HAIDI_DRAW:
            assert self.last_tile is not None
            self._turn_win = self._win_with(s, self.last_tile, _LAOYUE)
            if self._turn_win is None and not last:
                return False
            self._ask(HAIDI_DRAW, {s: [A.HU, A.PASS] if self._turn_win is not None else [A.PASS]})
        return True  # DICE and HAIDI: the options are public

    # ------------------------------------------------------------- views
    def tiles_accounted(self) -> int:
        """Tiles in the wall, hands, melds and rivers (constant through a hand: §1's 108)."""
        return (self.wall.remaining + sum(map(sum, self.hands)) + sum(map(sum, self.melded))
                + sum(map(len, self.rivers)) + len(self.revealed))

    def __repr__(self) -> str:
        return (f"ChangshaGame(phase={self.phase!r}, to_act={self.to_act}, wall={self.wall.remaining}, "
                f"dealer={self.dealer})")


_KAIHUA = {n: WinContext(self_drawn=True, kong_draw=True, kong_draw_wins=n) for n in (1, 2)}
_PAO = {n: WinContext(kong_draw=True, kong_draw_wins=n) for n in (1, 2)}
_LAOYUE = WinContext(self_drawn=True, haidi=True)
_HAIDI_PAO = WinContext(haidi=True)
_ROBBING = WinContext(robbing_kong=True)


def _chi_bits(h: bytearray, t: int) -> int:
    """The runs hand ``h`` holds the other two tiles of for discard ``t`` (suited): bit 0 for
    t..t+2, bit 1 for t-1..t+1, bit 2 for t-2..t; 0 for none (most discards), no list made."""
    r = t % 9
    bits = 0
    if r <= 6 and h[t + 1] and h[t + 2]:
        bits |= 1
    if 1 <= r <= 7 and h[t - 1] and h[t + 1]:
        bits |= 2
    if r >= 2 and h[t - 2] and h[t - 1]:
        bits |= 4
    return bits


def _chis(h: bytearray, t: int) -> list[int]:
    """The CHI actions hand ``h`` has on discard ``t``, in order (``_chi_bits``' runs)."""
    bits = _chi_bits(h, t)
    out = []
    if bits & 1:
        out.append(_CHI_LOW)
    if bits & 2:
        out.append(_CHI_MID)
    if bits & 4:
        out.append(_CHI_HIGH)
    return out


class ChangshaMatch(Match):
    """A match of ``hands`` hands (§9): the dealer passes by the next-dealer rule and scores add up.

    ``to_act``, ``legal_actions`` and ``step`` address the current hand; when it
    ends the next one is dealt at once, until ``done``. The first dealer is drawn
    at random unless given (§9 / source rule A).
    """

    GAME = ChangshaGame


def new_hand(config: RuleConfig, rng: Any) -> ChangshaGame:
    """``ChangshaGame.new_hand`` as a module function: a ruleset's ``new_hand`` travels to worker
    processes (RLlib, SB3's subprocesses) by reference, which a compiled class's bound method cannot."""
    return ChangshaGame.new_hand(config, rng)

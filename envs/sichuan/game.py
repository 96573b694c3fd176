"""``SichuanGame``: one hand of Sichuan mahjong 血战到底 as a state machine (rules ``sichuan.md``).

The decision protocol, blind windows, deal, event log with verified replay and the match loop
are ``cnmahjong.envs.core.engine``'s; this module holds Sichuan's rules:

- §2.1 换三张: one blind window of all four seats, three picks each (``SWAP`` ids, masked so a
  pick never leads to a dead end), then the direction is drawn (or fixed) and the twelve tiles
  move at once; §2.2 定缺: one blind window of all four (``VOID`` ids), revealed together;
- §3 play: the dealer's first turn has no draw; D1 (void tiles first), D2 (no PENG or kong of the
  void); claims on a discard are blind: every HU claimant wins (一炮多响), else PENG or 直杠; no
  kong or win after a PENG; a 补杠 may be robbed (抢杠, blind); 过胡 thresholds; kongs need a
  tile in the wall;
- §4 a winner leaves (``seats_out``); play goes on from the first remaining seat after the last
  winner; the third win ends the hand, else the empty wall does (§7);
- §6 kong money is paid when the kong takes effect and kept on the kong ledger; wins, 呼叫转移 and
  the §7 exhaustion payments are ``scoring``'s pure functions.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

import random
from collections.abc import Iterable, Sequence
from typing import Any

from cnmahjong.envs.core import engine
from cnmahjong.envs.core.engine import DONE, NEXT, NUM_SEATS, OTHERS, ClaimWindow, TableGame, Window, zero_counts
from cnmahjong.envs.core.eventlog import DISCARD as _DISCARD_FORM
from cnmahjong.envs.core.eventlog import DRAW as _DRAW_FORM
from cnmahjong.envs.core.eventlog import pack
from cnmahjong.envs.core.limited_deal import Limit
from cnmahjong.envs.core.meld import ANGANG, JIAGANG, MINGGANG, PENG, Meld, kong_possible
from cnmahjong.envs.core.result import HandResult, Transfer
from cnmahjong.envs.core.tiles import COPIES, NUM_SUITED_KINDS
from cnmahjong.envs.core.wall import WALL_SIZE, Wall, seeded_shuffle_and_draw
from cnmahjong.envs.sichuan import actions as A
from cnmahjong.envs.sichuan import scoring
from cnmahjong.envs.sichuan.patterns import Reading, WinContext, holds_void, reading, wait_mask, win_shape
from cnmahjong.envs.sichuan.rules import DIRECTIONS, RuleConfig

__all__ = ["RULESET", "SichuanGame", "SichuanMatch", "new_hand"]

RULESET = "sichuan"
SWAP, VOID, DISCARD, CLAIM, ROB = "swap", "void", "discard", "claim", "rob"
PHASES = (SWAP, VOID, DISCARD, CLAIM, ROB, DONE)
_DISCARD_EVENT, _DRAW_EVENT = 1, 2
"""Indices of ``SichuanGame.EVENT_FORMS`` (``eventlog``: 0 is the act)."""
SWAP_PICKS = 3
"""§2.1: tiles each seat passes."""
OFFSET = {"next": 1, "across": 2, "previous": 3}
"""§2.1: a seat gives its three tiles to seat s + OFFSET[direction]."""
ZIMO, DIANPAO, QIANGGANG = "zimo", "dianpao", "qianggang"
"""How a seat won (``result.extras["win_kind"]``)."""

_KINDS = range(NUM_SUITED_KINDS)
_VOID_ACTIONS = [A.void(s) for s in range(3)]
# The actions the turn and claim steps offer and compare, read once here: a module attribute
# (``A.HU``) is a lookup per use, these compile to C ints (game.pxd).
_HU, _PASS, _PENG_CLAIM, _GANG_CLAIM, _GANG_SELF, _SWAP = A.HU, A.PASS, A.PENG, A.GANG_CLAIM, A.GANG_SELF, A.SWAP
if not _PENG_CLAIM < _GANG_CLAIM < _HU < _PASS:  # _claim_options lists them in this order: sorted
    raise ImportError("actions.py: a claim's options must number PENG < GANG_CLAIM < HU < PASS")
_ON_DISCARD = tuple([WinContext(gangpao=g, haidi=h, dihu=d)
                     for g in (False, True) for h in (False, True) for d in (False, True)])
"""The contexts of a win on a discard, at 4·杠上炮 + 2·海底 + 地胡 (an index: no key to build and hash)."""
_ROBBED = WinContext(qianggang=True)
"""The context of a win on a robbed 补杠 tile (抢杠), made once (a WinContext checks its fields when made)."""


class SichuanGame(TableGame):
    """One hand of Sichuan mahjong 血战到底. See the module docstring."""

    RULESET = RULESET
    PLAYS_WITHOUT_LOG = True  # every write to the log is guarded (rollouts, VectorEnv(log=False))
    ACTIONS = A
    NUM_KINDS = NUM_SUITED_KINDS
    CONFIG = RuleConfig
    WALL_SIZE = WALL_SIZE
    NO_HONOURS = "Sichuan mahjong has no honours (§1): tiles are the kinds 0-26 (1m..9p)"
    PHASES = PHASES
    EVENT_FORMS = (_DISCARD_FORM, _DRAW_FORM)
    """The frequent events packed until the log is read (``eventlog``): ``_DISCARD_EVENT``, ``_DRAW_EVENT``."""
    SECRET_PHASES = (SWAP,)
    DECLINE_PHASES = (CLAIM, ROB)
    MAX_TO_ACT = 4
    SCENARIO_KEYS = ("swap_direction",)

    __slots__ = (  # with TableGame's (phase, pending, _window, _events, _log_tail, hands, result, payments)
        "config", "seed", "dealer", "wall", "_rng", "_fixed_direction", "_direction_draw", "melds", "melded", "rivers",
        "turn", "voids", "swap_direction", "passed", "received", "out", "ledger", "kongs",
        "last_kong", "threshold", "peng_lock", "turn_draws", "replacement", "kong_this_turn",
        "last_kong_from", "dealer_opening", "quiet", "ordinary_draws", "discards", "won_tiles",
        "_transfers", "_wins", "_first_group", "_offer_fan", "_haidi_discard", "_gangpao_discard", "_waits",
    )

    # ------------------------------------------------------------------ the deal
    def __init__(self, config: RuleConfig | None = None, seed: int | None = None, dealer: int = 0,
                 log: bool = True) -> None:
        """A seeded hand (§1): 108 tiles shuffled and dealt as in Changsha; the 换三张 direction,
        when random, is drawn later from the same seeded generator. ``log=False``: no event log
        at all (``engine.log_arg``)."""
        config, seed, dealer = self._check_args(config, seed, dealer)
        log = engine.log_arg(type(self), log)
        if config.huan_san_zhang and config.huan_direction == "random":  # its one draw: made with the deal
            tiles, draw = seeded_shuffle_and_draw(seed, NUM_SUITED_KINDS, len(DIRECTIONS))
            hands, wall = self._dealt(tiles, dealer)
            self._setup_hand(config, seed, dealer, hands, wall, "seed", None, None, draw, log)
        else:
            hands, wall, rng = self._seeded_deal(seed, dealer)
            self._setup_hand(config, seed, dealer, hands, wall, "seed", rng, None, None, log)

    @classmethod
    def from_scenario(cls, hands: Sequence[str | Iterable[int]], wall: str | Iterable[int], dealer: int = 0,
                      config: RuleConfig | None = None, seed: int | None = 0,
                      swap_direction: str | None = None) -> SichuanGame:
        """A hand from the four **dealt** hands (before 换三张; the dealer's 14) and the undealt wall
        head to tail (at most 55; a shorter wall lies at the end of the 108 positions).
        ``swap_direction`` fixes the 换三张 direction (``"next"``, ``"across"``, ``"previous"``);
        None draws it from ``seed``'s generator, or takes the ``huan_direction`` option when fixed."""
        config, seed, dealer = cls._check_args(config, seed, dealer)
        if swap_direction is not None:
            if swap_direction not in DIRECTIONS:
                raise ValueError(f"swap_direction={swap_direction!r}: allowed None or one of {DIRECTIONS}")
            if not config.huan_san_zhang:
                raise ValueError("swap_direction must be None when the rule option huan_san_zhang is off "
                                 "(there is no 换三张)")
            if config.huan_direction not in ("random", swap_direction):
                raise ValueError(f"swap_direction={swap_direction!r} differs from the rule option "
                                 f"huan_direction={config.huan_direction!r}: give None or that direction")
        hs, w = cls._check_scenario(hands, wall, dealer)
        game = cls.__new__(cls)
        game._setup_hand(config, seed, dealer, hs, Wall(w), "scenario", random.Random(seed), swap_direction)
        return game

    def _setup_hand(self, config: RuleConfig, seed: int, dealer: int, hands: list[list[int]], wall: Wall,
                    origin: str, rng: random.Random | None, direction: str | None, draw: int | None = None,
                    log: bool = True) -> None:
        """``rng``: the seed's generator (None where nothing is drawn from it, or where ``draw``, its
        one draw for a random 换三张 direction, was made with the deal: ``seeded_shuffle_and_draw``);
        ``log`` False: no event log (the deal event not made)."""
        self.config, self.seed, self.dealer, self.wall, self._rng = config, seed, dealer, wall, rng
        self._fixed_direction, self._direction_draw = direction, draw
        extra = {"swap_direction": direction} if origin == "scenario" else {}
        self.events = [self._deal_event(origin, hands, wall, **extra)] if log else None
        self.hands: list[bytearray] = engine.count_hands(hands, NUM_SUITED_KINDS)
        self.melds: list[list[Meld]] = [[] for _ in range(NUM_SEATS)]
        self.melded = zero_counts(NUM_SUITED_KINDS)
        self.rivers: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        self.payments = [0] * NUM_SEATS
        self.result: HandResult | None = None
        self.pending: dict[int, list[int]] = {}
        self._window: Window | None = None
        self.turn = dealer
        self.voids: list[int] | None = None
        """Per seat its void suit (0 m, 1 s, 2 p), None until the 定缺 window has closed."""
        self.swap_direction: str | None = None
        self.passed: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        self.received: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        self.out: list[int] = []
        self.ledger: list[scoring.KongEntry] = []
        """Open kong-ledger entries (§6.1), closed by 呼叫转移 (§6.3) or 退税 (§7)."""
        self.kongs = 0
        self.last_kong: list[int | None] = [None] * NUM_SEATS
        """Per seat, the number of the last kong it made (§6.3)."""
        self.threshold: list[int | None] = [None] * NUM_SEATS
        """§3 过胡: per seat the F of the last discard or 抢杠 win it passed, until its next ordinary
        draw, PENG or 直杠 (private to the seat)."""
        self.peng_lock = [0] * NUM_SEATS
        """``pass_peng_lock``: per seat the kinds (bitmask) of passed PENGs."""
        self.turn_draws: list[int] = []
        """Tiles drawn in the current turn (its ordinary draw and replacements): 转手杠 (§3)."""
        self.replacement = False
        """The turn's latest draw was a kong replacement (杠上开花)."""
        self.kong_this_turn = False
        self.last_kong_from: int | None = None
        """The discarder of the turn's last kong when it was a 直杠, else None (点杠花)."""
        self.dealer_opening = True
        """The dealer's first turn, before he has done anything (天胡)."""
        self.quiet = True
        """No PENG, kong or win yet (地胡)."""
        self.ordinary_draws = [0] * NUM_SEATS
        self.discards = 0
        self.won_tiles: list[int] = []
        """Kinds of the discards and added kong tiles won, each once however many won it (public:
        they lie face up outside hands, melds and rivers)."""
        self._transfers: list[Transfer] = []
        self._wins: list[dict[str, Any]] = []
        self._first_group: tuple[list[int], int | None] | None = None
        self._offer_fan: dict[int, int] = {}
        self._waits: list[int | None] = [None] * NUM_SEATS
        self._haidi_discard = False
        self._gangpao_discard = False
        order = [(dealer + i) % NUM_SEATS for i in range(NUM_SEATS)]
        if config.huan_san_zhang:
            self._open_window(Window(SWAP, {s: self._swap_options(s, []) for s in order}))
        else:
            self._open_void_window()

    def _setup(self, config: Any, seed: int, dealer: int, hands: list[list[int]], wall: Wall, origin: str) -> None:
        raise NotImplementedError("SichuanGame deals through __init__ and from_scenario")

    # ------------------------------------------------------------ seats that leave (§4)
    @property
    def seats_out(self) -> tuple[int, ...]:
        """Seats that have won, in settlement order: never asked again, never pay or are paid."""
        return tuple(self.out)

    def remaining(self) -> list[int]:
        """Seats that have not won yet (未胡玩家), in seat order."""
        return [s for s in range(NUM_SEATS) if s not in self.out]

    def _next_remaining(self, s: int) -> int:
        nxt = NEXT[s]
        while nxt in self.out:
            nxt = NEXT[nxt]
        return nxt

    # ------------------------------------------------------------ §2.1 换三张
    def _swap_options(self, seat: int, picks: list[int]) -> list[int]:
        """SWAP ids ``seat`` may pick next (design env.md): an unpicked copy held, not below the last
        pick, of the first pick's suit (``huan_same_suit``), with enough unpicked tiles of that pool
        at or above it for the picks still to come."""
        h = self.hands[seat]
        need = SWAP_PICKS - len(picks)  # this pick and those after it
        low = picks[-1] if picks else 0
        same_suit = 1 if self.config.huan_same_suit else 0
        suit = picks[0] // 9 if same_suit and picks else -1  # the first pick's suit binds the rest
        if len(h) != NUM_SUITED_KINDS:
            raise ValueError(f"seat {seat}'s hand has {len(h)} counts, allowed {NUM_SUITED_KINDS}")
        if cython.compiled:  # the copies of each kind not picked yet (each pick was one held): in a C
            p = h  # array (game.pxd), NUM_SUITED_KINDS a literal
            for t in range(27):
                left[t] = p[t]  # noqa: F821 - C only
        else:
            left = bytearray(h)
        for t in picks:
            if not 0 <= t < NUM_SUITED_KINDS:
                raise ValueError(f"seat {seat}'s pick {t}: allowed kinds 0..{NUM_SUITED_KINDS - 1}")
            left[t] -= 1
        out = []
        unpicked = 0  # unpicked tiles from t to its pool's end (its suit's with huan_same_suit, else the last kind)
        for t in range(NUM_SUITED_KINDS - 1, low - 1, -1):  # downwards: one addition a kind
            if same_suit and t % 9 == 8:
                unpicked = 0
            unpicked += left[t]
            if left[t] and unpicked >= need and (suit < 0 or t // 9 == suit):
                out.append(_SWAP + t)
        out.reverse()  # ascending, as a seat's options are
        return out

    def _more_picks(self, window: Window, seat: int) -> list[int]:
        w = window  # a Window's C fields (game.pxd)
        picks = w.picks[seat]
        if w.kind != SWAP or len(picks) == SWAP_PICKS:
            return []
        return self._swap_options(seat, [a - _SWAP for a in picks])

    def _resolve_swap(self, window: Window) -> None:
        """All picks are in: the direction is drawn (or fixed), the twelve tiles move at once."""
        direction = self._fixed_direction
        if direction is None:
            fixed = self.config.huan_direction
            if fixed == "random":  # a world's generator (_world_forget) before the deal's own draw
                direction = DIRECTIONS[self._direction_draw if self._rng is None else self._rng.randrange(3)]
            else:
                direction = fixed
        off = OFFSET[direction]
        given = [[a - _SWAP for a in window.picks[s]] for s in range(NUM_SEATS)]
        for s in range(NUM_SEATS):
            h = self.hands[s]
            for t in given[s]:
                h[t] -= 1
        for s in range(NUM_SEATS):
            tiles = given[s]
            to = (s + off) % NUM_SEATS
            h = self.hands[to]
            for t in tiles:
                h[t] += 1
            self.passed[s] = tiles
            self.received[to] = list(tiles)
        self.swap_direction = direction
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "swap", "direction": direction, "tiles": given})
        self._open_void_window()

    @classmethod
    def seat_view(cls, e: dict[str, Any], viewer: int) -> dict[str, Any] | None:
        """The swap: a seat sees the tiles it gave and those it received (§9). A win: another
        seat's concealed tiles and itemised fan stay hidden unless ``reveal_winner_hand`` (the
        event says ``revealed``). Another seat's PASS on a discard or a 补杠 is not shown at all
        (``DECLINE_PHASES``): a declined HU leaves no trace (§9)."""
        if e["type"] == "swap":
            giver = (viewer - OFFSET[e["direction"]]) % NUM_SEATS
            return {**e, "tiles": [t if s in (viewer, giver) else None for s, t in enumerate(e["tiles"])]}
        if e["type"] == "win" and e["seat"] != viewer and not e.get("revealed"):
            return {k: v for k, v in e.items() if k not in ("hand", "patterns", "fan")}
        return super().seat_view(e, viewer)

    # ------------------------------------------------------------ §2.2 定缺
    def _open_void_window(self) -> None:
        order = [(self.dealer + i) % NUM_SEATS for i in range(NUM_SEATS)]
        self._open_window(Window(VOID, {s: list(_VOID_ACTIONS) for s in order}))

    def _resolve_window(self, window: Window) -> None:
        w = window  # a Window's C fields (game.pxd)
        kind = w.kind
        if kind == SWAP:
            self._resolve_swap(w)
        elif kind == VOID:
            self.voids = [w.choices[s] - A.VOID for s in range(NUM_SEATS)]
            if self._log_tail is not None:  # None: a rollout's game keeps no log
                self._log_tail.append({"type": "void", "voids": list(self.voids)})
            self._start_turn(self.dealer)
        elif kind == CLAIM:
            self._resolve_claims(w)  # type: ignore[arg-type]
        else:
            self._resolve_rob(w)  # type: ignore[arg-type]

    # ------------------------------------------------------------ §3 turns
    def _void(self, s: int) -> int:
        assert self.voids is not None
        return self.voids[s]

    def _discards_all_held(self, seat: int) -> bool:
        return self.phase == DISCARD and not holds_void(self.hands[seat], self._void(seat))

    def _start_turn(self, s: int, after_peng: bool = False, wins: int = -1) -> None:
        """Seat ``s`` holds 3n+2 tiles: discard (D1), or, unless the turn began with a PENG, win
        and kong (D2; a kong needs a tile in the wall). ``wins``: 1 or 0 where the caller knows
        whether the hand is a win (a head draw, from the waits cached before it), -1 to look."""
        self.turn = s
        self._waits[s] = None  # its hand changes this turn
        h = self.hands[s]
        v = self._void(s)
        if holds_void(h, v):  # the kinds of the void suit held (D1), else every kind held: the
            acts = self._held_kinds(h, s, 9 * v, 9 * v + 9)  # list s was asked with last, refilled
        else:
            acts = self._held_kinds(h, s)
        if not after_peng:
            if win_shape(h, len(self.melds[s]), v) if wins < 0 else wins:
                acts.append(_HU)
            # a kong is rare: looked for only where one may be (as Python, two tests: a call costs more)
            if self.wall.remaining and (kong_possible(h, self.melded[s]) if cython.compiled
                                        else 4 in h or self.melds[s]):
                found = 0  # a kind is four held (暗杠) or added to its PENG (加杠), never both
                if 4 in h:  # 暗杠: four held, outside the void
                    for t in range(NUM_SUITED_KINDS):
                        if h[t] == 4 and t // 9 != v:
                            acts.append(_GANG_SELF + t)  # A.gang(t)
                            found = 1
                for m in self.melds[s]:  # 加杠 on a PENG
                    if h[m.tiles[0]] and m.kind == PENG:  # the C read first (the kind: a string compare)
                        acts.append(_GANG_SELF + m.tiles[0])
                        found = 1
                if found:  # the kongs lie between the discards and HU
                    acts.sort()
        self._ask_seat(DISCARD, s, acts)

    def _draw(self, s: int, tail: bool = False) -> None:
        """Seat ``s`` draws: an ordinary draw from the head (none left: exhaustion, §1), or a kong
        replacement from the tail."""
        if not tail:
            if not self.wall.remaining:
                self._exhaust()
                return
            self.threshold[s] = None
            self.peng_lock[s] = 0
            self.turn_draws = []
            self.kong_this_turn = False
            self.last_kong_from = None
            self.ordinary_draws[s] += 1
        t = self.wall.draw_tail() if tail else self.wall.draw_head()
        h = self.hands[s]
        # A head draw's win is the drawn kind's bit in the waits cached for the hand before it
        # (unchanged since: _wait; a drawn kind is never one held or melded four times). A kong's
        # replacement follows a change of the hand the cache may predate: looked at afresh.
        w = None if tail else self._waits[s]
        h[t] += 1
        self.turn_draws.append(t)
        self.replacement = tail
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append(pack(_DRAW_EVENT, s, t, 1 if tail else 0))  # the source's index in DRAW_SOURCES
        self._start_turn(s, False, -1 if w is None else w >> t & 1)

    def _apply(self, seat: int, action: int, phase: str) -> None:
        opening = self.dealer_opening
        self.dealer_opening = False
        if action < NUM_SUITED_KINDS:
            self._discard(seat, action)
        elif action == _HU:
            self._self_draw_win(seat, opening)
        else:
            self._own_kong(seat, action - _GANG_SELF)

    def _discard(self, s: int, t: int) -> None:
        h = self.hands[s]
        h[t] -= 1
        self.rivers[s].append(t)
        self.discards += 1
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append(pack(_DISCARD_EVENT, s, t))
        self._haidi_discard = not self.wall.remaining
        self._gangpao_discard = self.kong_this_turn
        options: dict[int, list[int]] = {}
        self._offer_fan = {}
        ctx = None  # made for the first seat with a claim to offer (most discards have none)
        waits = self._waits  # the cached waits read here (compiled: C integers), _wait only to make them
        hands = self.hands
        out = self.out
        for o in OTHERS[s]:
            if o in out:
                continue
            w = waits[o]
            bits = self._wait(o) if w is None else w
            held = hands[o]  # compiled, a bytearray read in C
            if not bits >> t & 1 and held[t] < 2:  # no win on t, no PENG or kong of it
                continue
            if ctx is None:
                ctx = self._discard_context(s)
            acts = self._claim_options(o, t, ctx)
            if acts:
                options[o] = acts
        if options:
            self._open_window(ClaimWindow(CLAIM, [t], s, options))
        else:
            self._draw(self._next_remaining(s))

    def _discard_context(self, d: int) -> WinContext:
        """How the last discard, made by seat ``d``, is won (§4): 杠上炮, 海底, 地胡 (one shared
        context per case: a ``WinContext`` is frozen, and checked once, when made)."""
        i = 0
        if self._gangpao_discard:
            i += 4
        if self._haidi_discard:
            i += 2
        if self.discards == 1 and d == self.dealer and self.quiet:
            i += 1
        return _ON_DISCARD[i]

    def _claim_options(self, o: int, t: int, ctx: WinContext) -> list[int]:
        """Seat ``o``'s options on the discard ``t`` just made, won in context ``ctx`` (HU, 直杠,
        PENG and PASS; [] when it has no claim), recording an offered win's F for 过胡."""
        fan = self._offered_win(o, t, ctx)
        h = self.hands[o]
        n = h[t]
        peng = gang = False
        if n >= 2 and t // 9 != self._void(o):  # D2
            peng = not self.peng_lock[o] >> t & 1
            gang = n == 3 and self.wall.remaining > 0
        if fan is None and not peng and not gang:  # the common case: no list made but the answer
            return []
        acts = []  # in id order (checked at import), as a seat's options are sorted
        if peng:
            acts.append(_PENG_CLAIM)
        if gang:
            acts.append(_GANG_CLAIM)
        if fan is not None:
            acts.append(_HU)
            self._offer_fan[o] = fan
        acts.append(_PASS)
        return acts

    def _rob_options(self, o: int, t: int) -> list[int]:
        """Seat ``o``'s options on the added tile ``t`` of a 补杠 (§3 抢杠胡): HU and PASS when it
        may win on it, else []; an offered win's F is recorded for 过胡."""
        fan = self._offered_win(o, t, _ROBBED)
        if fan is None:
            return []
        self._offer_fan[o] = fan
        return [A.HU, A.PASS]

    def _offered_win(self, o: int, t: int, ctx: WinContext) -> int | None:
        """The uncapped F of seat ``o``'s win on tile ``t`` when it is offered (§4, D3, 过胡), else None."""
        w = self._waits[o]  # the cached waits read here (compiled: a C integer), _wait only to make them
        waits = self._wait(o) if w is None else w
        if not waits >> t & 1:  # not a win shape: no reading to make (the common case)
            return None
        h = self.hands[o]
        h[t] += 1
        r = reading(h, self.melds[o], t, ctx, self.config, self._void(o))
        h[t] -= 1
        if r is None:
            return None
        bar = self.threshold[o]
        rule = self.config.pass_hu
        if bar is not None and (rule == "until_draw" or (rule == "higher_fan" and r.fan <= bar)):
            return None
        return r.fan

    def _wait(self, o: int) -> int:
        """Seat ``o``'s waits (``patterns.wait_mask``: the kinds that complete its 13 − 3n concealed
        tiles, D3 included), kept until its hand changes: every other seat is asked on every discard,
        and once the voids are known (none is made before: ``_void``; the swap comes first) a seat's
        hand and melds change only on its own turn (each one starts in ``_start_turn``, which drops
        them) or in a sampled world (``_world_forget``). A kind it holds all four copies of is no
        wait, and no other seat can offer it."""
        w = self._waits[o]
        if w is None:
            w = self._waits[o] = wait_mask(self.hands[o], self.melded[o], len(self.melds[o]), self._void(o))
        return w

    def _pass_thresholds(self, window: ClaimWindow) -> None:
        """§3 过胡 and ``pass_peng_lock``: a seat offered HU that did not take it gets that win's F;
        a seat offered PENG that passed locks the kind."""
        if self.config.pass_hu != "none":
            for o, fan in self._offer_fan.items():
                if window.choices.get(o) != _HU:
                    self.threshold[o] = fan
        if self.config.pass_peng_lock:
            t = window.tiles[0]
            for o, acts in window.options.items():
                if _PENG_CLAIM in acts and window.choices[o] == _PASS:
                    self.peng_lock[o] |= 1 << t

    def _resolve_claims(self, window: ClaimWindow) -> None:
        d, t = window.payer, window.tiles[0]
        self._pass_thresholds(window)
        winners = [o for o in OTHERS[d] if window.choices.get(o) == _HU]
        if winners:
            self.won_tiles.append(self.rivers[d].pop())
            self._settle_group(winners, d, t, self._discard_context(d), DIANPAO)
            return
        claim = None  # a loop, not next(genexp): a compiled method has no closure
        for o, a in window.choices.items():
            if a in (_PENG_CLAIM, _GANG_CLAIM):
                claim = (o, a)
                break
        if claim is None:
            self._draw(self._next_remaining(d))
            return
        o, a = claim
        self.rivers[d].pop()
        self.quiet = False
        self.threshold[o] = None
        self.peng_lock[o] = 0
        self.turn_draws = []
        self.kong_this_turn = False
        self.last_kong_from = None
        h = self.hands[o]
        if a == _PENG_CLAIM:
            h[t] -= 2
            self._add_meld(o, Meld(PENG, (t,) * 3, d), [])
            self._start_turn(o, after_peng=True)
            return
        h[t] -= 3
        entries = scoring.kong_money(self.kongs, o, MINGGANG, self.config, remaining=self.remaining(), discarder=d)
        self._kong_made(o, Meld(MINGGANG, (t,) * 4, d), entries)
        self.last_kong_from = d
        self._draw(o, tail=True)

    # ------------------------------------------------------------ kongs (§3, §6.1)
    def _add_meld(self, s: int, meld: Meld, entries: list[scoring.KongEntry]) -> None:
        self.melds[s].append(meld)
        row = self.melded[s]
        for t in meld.tiles:
            row[t] += 1
        transfers = [e.transfer() for e in entries]
        if transfers:  # a PENG pays nothing
            self._pay(transfers)
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "meld", "seat": s, "kind": meld.kind, "tiles": list(meld.tiles),
                                "from": meld.from_seat, "transfers": [x.to_dict() for x in transfers]})

    def _kong_made(self, s: int, meld: Meld, entries: list[scoring.KongEntry]) -> None:
        """A kong takes effect: its money is paid now and ledgered (§6.1)."""
        self.quiet = False
        self.kong_this_turn = True
        self.last_kong[s] = self.kongs
        self.kongs += 1
        self.ledger += entries
        self._add_meld(s, meld, entries)

    def _own_kong(self, s: int, t: int) -> None:
        h = self.hands[s]
        self.last_kong_from = None
        if h[t] == 4:  # 暗杠
            h[t] = 0
            entries = scoring.kong_money(self.kongs, s, ANGANG, self.config, remaining=self.remaining())
            face_down = not self.config.reveal_angang_tile  # its kind unseen by the others (worlds redraw it)
            self._kong_made(s, Meld(ANGANG, (t,) * 4, hidden=face_down), entries)
            self._draw(s, tail=True)
            return
        # 补杠: robbers first (§3 抢杠胡)
        if self.config.qiang_gang:
            self._offer_fan = {}
            options = {}
            for o in OTHERS[s]:
                if o not in self.out and (acts := self._rob_options(o, t)):
                    options[o] = acts
            if options:
                self._open_window(ClaimWindow(ROB, [t], s, options))
                return
        self._bugang(s, t)

    def _bugang(self, s: int, t: int) -> None:
        """The 补杠 takes effect (nobody robbed it): 刮风 unless it is a 转手杠 (§3)."""
        self.hands[s][t] -= 1
        i, old = next((i, m) for i, m in enumerate(self.melds[s]) if m.kind == PENG and m.tiles[0] == t)
        self.melds[s].pop(i)
        self.melded[s][t] -= 3
        entries = scoring.kong_money(self.kongs, s, JIAGANG, self.config, remaining=self.remaining(),
                                     drawn_this_turn=t in self.turn_draws)
        self._kong_made(s, Meld(JIAGANG, (t,) * 4, old.from_seat), entries)
        self._draw(s, tail=True)

    def _resolve_rob(self, window: ClaimWindow) -> None:
        s, t = window.payer, window.tiles[0]
        self._pass_thresholds(window)
        winners = [o for o in OTHERS[s] if window.choices.get(o) == A.HU]
        if not winners:
            self._bugang(s, t)
            return
        self.hands[s][t] -= 1  # the added tile leaves his hand; his PENG stays
        self.won_tiles.append(t)
        self._settle_group(winners, s, t, _ROBBED, QIANGGANG)

    # ------------------------------------------------------------ wins (§4, §6.2, §6.3)
    def _self_draw_win(self, s: int, opening: bool) -> None:
        tianhu = opening and s == self.dealer
        dihu = (not tianhu and s != self.dealer and self.quiet and self.ordinary_draws[s] == 1
                and not self.replacement)
        gangkai = self.replacement
        ctx = WinContext(self_drawn=True, gangkai=gangkai, dianganghua=gangkai and self.last_kong_from is not None,
                         haidi=not self.wall.remaining and not tianhu, tianhu=tianhu, dihu=dihu)
        tile = None if opening else self.turn_draws[-1]  # 天胡: no tile was drawn
        h = self.hands[s]
        r = reading(h, self.melds[s], h.index(max(h)) if tile is None else tile, ctx, self.config, self._void(s))
        assert r is not None, "HU was offered for a hand that does not win"
        special = self.config.tiandihu and (tianhu or dihu)
        transfers = scoring.win_payments(s, r.fan, self.config, remaining=self.remaining(), tiandihu=special,
                                         zhigang_discarder=self.last_kong_from if ctx.dianganghua else None)
        self._record_win(s, None, tile, r, ZIMO, transfers)
        if self._first_group is None:
            self._first_group = ([s], None)
        self._after_wins(s)

    def _settle_group(self, winners: list[int], payer: int, t: int, ctx: WinContext, kind: str) -> None:
        """Every winner of one discard or 补杠, in turn order from ``payer``: paid and out; then
        呼叫转移 on a 杠上炮; play goes on after the last of them."""
        closed: list[scoring.KongEntry] = []
        for w in winners:
            h = self.hands[w]
            h[t] += 1
            r = reading(h, self.melds[w], t, ctx, self.config, self._void(w))
            h[t] -= 1
            assert r is not None, "HU was offered for a hand that does not win"
            special = self.config.tiandihu and ctx.dihu
            transfers = scoring.win_payments(w, r.fan, self.config, remaining=self.remaining(), payer=payer,
                                             tiandihu=special)
            if ctx.gangpao:
                moved, closed = scoring.call_transfer(payer, self.last_kong[payer], [w], self.ledger, self.config)
                transfers += moved
            self._record_win(w, payer, t, r, kind, transfers)
        self.ledger = [e for e in self.ledger if e not in closed]
        if self._first_group is None:
            self._first_group = (list(winners), payer)
        self._after_wins(winners[-1])

    def _record_win(self, s: int, payer: int | None, tile: int | None, r: Reading, kind: str,
                    transfers: list[Transfer]) -> None:
        self._pay(transfers)
        self.quiet = False
        self.out.append(s)
        hand = [t for t in _KINDS for _ in range(self.hands[s][t])] + ([tile] if payer is not None else [])
        self._wins.append({"seat": s, "payer": payer, "tile": tile, "kind": kind, "reading": r})
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "win", "seat": s, "tile": tile, "payer": payer, "kind": kind,
                                "fan": r.fan, "patterns": dict(r.patterns), "hand": sorted(hand),
                                "revealed": self.config.reveal_winner_hand,
                                "transfers": [x.to_dict() for x in transfers]})

    def _after_wins(self, last: int) -> None:
        """§4: the third win ends the hand; else the first remaining seat after ``last`` draws."""
        if len(self.out) >= NUM_SEATS - 1:
            self._finish({}, {})
            return
        self._draw(self._next_remaining(last))

    # ------------------------------------------------------------ §7 exhaustion, the result
    def _exhaust(self) -> None:
        classes: dict[int, str] = {}
        fans: dict[int, int] = {}
        for s in self.remaining():
            classes[s], fmax = scoring.exhaustion_class(self.hands[s], self.melds[s], self._void(s), self.config,
                                                        self._wait(s))
            if fmax is not None:
                fans[s] = fmax
        transfers = scoring._exhaustion_payments(classes, fans, self.ledger, self.config)  # its own: unchecked
        self._pay(transfers)
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "exhaust", "classes": {str(k): v for k, v in classes.items()},
                                "dajiao_fan": {str(k): v for k, v in fans.items()},
                                "transfers": [x.to_dict() for x in transfers]})
        self._finish(classes, fans)

    def _pay(self, transfers: list[Transfer]) -> None:
        for x in transfers:
            self.payments[x.payer] -= x.amount
            self.payments[x.payee] += x.amount
        self._transfers += transfers

    def _finish(self, classes: dict[int, str], fans: dict[int, int]) -> None:
        wins = self._wins
        group = self._first_group
        next_dealer = scoring.next_dealer(self.dealer, *(group if group else ((), None)))
        self._end_hand(HandResult(
            ruleset=RULESET, payments=tuple(self.payments), winners=tuple([w["seat"] for w in wins]),
            self_drawn=tuple([w["seat"] for w in wins if w["payer"] is None]),
            won_from={w["seat"]: w["payer"] for w in wins if w["payer"] is not None},
            winning_tiles={w["seat"]: w["tile"] for w in wins},
            patterns={w["seat"]: dict(w["reading"].patterns) for w in wins},
            value={w["seat"]: w["reading"].fan for w in wins}, transfers=tuple(self._transfers),
            next_dealer=next_dealer,
            extras={"voids": list(self.voids or []), "swap_direction": self.swap_direction,
                    "win_kind": {str(w["seat"]): w["kind"] for w in wins},
                    "classes": {str(k): v for k, v in classes.items()},
                    "dajiao_fan": {str(k): v for k, v in fans.items()}}))

    # ------------------------------------------- worlds (cnmahjong.envs.core.worlds)
    def _world_face_up(self) -> list[int]:
        """The discards and added kong tiles won: face up outside hands, melds and rivers."""
        return list(self.won_tiles)

    def _world_shown(self, s: int) -> bytearray:
        """Seat ``s``'s concealed tiles everybody sees: a winner's whole hand under
        ``reveal_winner_hand``, and the tile a 补杠 adds while the others may rob it."""
        if s in self.out and self.config.reveal_winner_hand:
            return bytearray(self.hands[s])
        row = bytearray(NUM_SUITED_KINDS)
        w = self._window
        if w is not None and w.kind == ROB and w.payer == s:
            row[w.tiles[0]] = 1  # type: ignore[attr-defined]
        return row

    def _world_limits(self, seat: int, s: int) -> list[Limit]:
        """What the record, as ``seat`` knows it, bounds in seat ``s``'s dealt tiles. D1: after a
        discard outside his void he held none of it, so now at most his draws since, less the void
        tiles he has discarded since. D3: a winner holds none. §9, 换三张: the receiver of
        ``seat``'s three tiles still holds them, less the copies he has shown since (discards,
        melds, a 补杠 tile on offer); a face-down kong counts as held (limits cover it)."""
        out: list[Limit] = []
        if self.voids is not None:
            v = self.voids[s]
            cap = 0 if s in self.out else self._void_cap(s, v)
            if cap is not None:
                out.append((frozenset(range(9 * v, 9 * v + 9)), 0, cap))
        if self.swap_direction is not None and s == (seat + OFFSET[self.swap_direction]) % NUM_SEATS:
            left = [0] * NUM_SUITED_KINDS
            for t in self.passed[seat]:
                left[t] += 1
            for e in self.events:
                if e["type"] == "discard" and e["seat"] == s:
                    left[e["tile"]] -= 1
            for m in self.melds[s]:
                if not m.hidden:
                    left[m.tiles[0]] -= len(m.tiles) - (m.from_seat is not None)
            for t, n in enumerate(self._world_shown(s)):
                left[t] -= n
            out += [(frozenset((t,)), n, COPIES) for t, n in enumerate(left) if n > 0]
        return out

    def _void_cap(self, s: int, v: int) -> int | None:
        """D1's bound on seat ``s``'s void tiles now: his draws since his last discard outside the
        void ``v`` less the void tiles he discarded since; None before any such discard."""
        draws = void_out = 0
        for e in reversed(self.events):
            kind = e["type"]
            if kind == "void":
                return None
            if kind == "draw" and e["seat"] == s:
                draws += 1
            elif kind == "discard" and e["seat"] == s:
                if e["tile"] // 9 != v:
                    return draws - void_out
                void_out += 1
        return None

    def _world_kong_kinds(self, s: int) -> range | list[int]:
        """D2: nobody kongs a tile of his void suit."""
        if self.voids is None:
            return range(NUM_SUITED_KINDS)
        v = self.voids[s]
        return [t for t in range(NUM_SUITED_KINDS) if t // 9 != v]

    def _world_forget(self, seat: int, rng: Any) -> None:
        """What followed from the others' old hands or is private to them: their 过胡 thresholds,
        passed-PENG locks and offered wins; the 换三张 tiles ``seat`` does not know (it knows the
        three it passed, now in its receiver's dealt hand, and the three it received, from its
        giver); the direction still to be drawn comes from ``rng``."""
        self._waits = [None] * NUM_SEATS  # the others' hands (and hidden kongs) were drawn afresh
        for o in OTHERS[seat]:
            self.threshold[o] = None
            self.peng_lock[o] = 0
            self.passed[o], self.received[o] = [], []
        self._offer_fan = {o: f for o, f in self._offer_fan.items() if o == seat}
        if self.swap_direction is not None:
            off = OFFSET[self.swap_direction]
            self.received[(seat + off) % NUM_SEATS] = list(self.passed[seat])
            self.passed[(seat - off) % NUM_SEATS] = list(self.received[seat])
        self._rng = random.Random(int(rng.integers(2**63)))

    def _world_offer(self, w: Window, s: int) -> list[int]:
        """Seat ``s``'s options in the open window ``w`` with its new hand."""
        if w.kind == SWAP:
            return self._swap_options(s, [])
        if w.kind == VOID:
            return list(_VOID_ACTIONS)
        assert isinstance(w, ClaimWindow)
        if s in self.out:
            return []
        t = w.tiles[0]
        if w.kind == ROB:
            return self._rob_options(s, t)
        return self._claim_options(s, t, self._discard_context(w.payer))

    def _world_reask(self, s: int, rng: Any, last: bool) -> bool:
        """Seat ``s`` (another seat) on its turn: the tiles it drew this turn are among its tiles,
        drawn uniformly (which of them was drawn decides 转手杠); its options follow from its hand."""
        h = self.hands[s]
        if self.turn_draws:
            tiles = [t for t in _KINDS for _ in range(h[t])]
            self.turn_draws = [tiles[int(rng.integers(len(tiles)))] for _ in self.turn_draws]
        self._start_turn(s, after_peng=not self.turn_draws and not self.dealer_opening)
        return True

    @classmethod
    def kongs_face_down(cls, config: dict[str, Any]) -> bool:
        """A 暗杠's kind is shown unless the option ``reveal_angang_tile`` is off."""
        return not config.get("reveal_angang_tile", True)

    def _world_force(self, events: list[dict[str, Any]]) -> None:
        """A game rebuilt from a seat's events (``envs.core.shadow``): a swap the record shows
        goes in its recorded direction; a self-drawn win the record shows was on its recorded
        tile (which of the hand's tiles was drawn is hidden until then)."""
        for e in events:
            if e["type"] == "swap":
                self._fixed_direction = e["direction"]
            elif e["type"] == "win" and e.get("payer") is None and self.turn_draws \
                    and e.get("seat") in self.pending and self.hands[e["seat"]][e["tile"]]:
                self.turn_draws[-1] = e["tile"]

    def _world_secret_pick(self, s: int, tiles: list[int]) -> int | None:
        """Seat ``s``'s next 换三张 pick among ``tiles`` (those the record shows it passed) not
        picked yet, or None (``envs.core.shadow``)."""
        w = self._window
        if w is None or w.kind != SWAP:
            return None
        left = list(tiles)
        for a in w.picks.get(s, ()):
            if a - A.SWAP in left:
                left.remove(a - A.SWAP)
        legal = self.legal_actions(s)
        return next((A.swap(t) for t in sorted(left) if A.swap(t) in legal), None)

    # ------------------------------------------------------------------ views
    def tiles_accounted(self) -> int:
        """Tiles in the wall, concealed hands, melds and rivers, and the discards and added kong
        tiles won (each once, however many won it): §1's 108 through a hand."""
        return (self.wall.remaining + sum(map(sum, self.hands)) + sum(map(sum, self.melded))
                + sum(map(len, self.rivers)) + len(self.won_tiles))

    def __repr__(self) -> str:
        return (f"SichuanGame(phase={self.phase!r}, to_act={self.to_act}, wall={self.wall.remaining}, "
                f"dealer={self.dealer}, out={self.out}, voids={self.voids})")


class SichuanMatch(engine.Match):
    """A match of ``hands`` hands with §1's dealer rule (首胡者坐庄; several first winners: the
    discarder; no win: the dealer stays): ``Match``'s default reads ``result.next_dealer``."""

    GAME = SichuanGame


def new_hand(config: RuleConfig, rng: Any) -> SichuanGame:
    """``SichuanGame.new_hand`` as a module function: a ruleset's ``new_hand`` travels to worker
    processes by reference, which a compiled class's bound method cannot."""
    return SichuanGame.new_hand(config, rng)

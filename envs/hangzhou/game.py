"""``HangzhouGame``: one hand of Hangzhou mahjong as a state machine (rules §1–§6).

The decision protocol, blind claim windows, deal, event log with verified
replay and the match loop are ``cnmahjong.envs.core.engine``'s (shared with Changsha);
this module holds Hangzhou's rules:

- after the deal the next head tile is turned up as the indicator; its three
  other copies are 财神 and the 白板 play its kind (``patterns``);
- a turn: draw (head, or tail after a kong), then discard, kong or a
  self-drawn win; a 财神 discarded by a player who was 爆头-ready before this
  turn's draw is a 飘 (财飘); on a turn that begins with his own CHI or PENG,
  爆头-ready before the claim stands in for before the draw (§3);
- claims on a discard are collected blind and resolved HU (first in turn order
  after the discarder) > PENG / 明杠 > CHI; a discarded 财神 is never claimed;
  CHI from the previous seat only; 失碰; claim limits from 二连庄 on; discard
  wins only on 三连庄 between the dealer and a non-dealer; nobody else claims
  or wins on a discard while a 飘 is pending;
- concealed kongs stay face down for the others until their owner's next turn;
- the hand is drawn when a draw would leave the last 19 drawable tiles (20
  with the indicator); no kong then;
- settlement: the best reading's exponent, the §5 table and §6 承包 / 反承包 /
  后半场承包 (``scoring``).
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from collections.abc import Iterable, Sequence
from typing import Any

from cnmahjong.envs.core import engine
from cnmahjong.envs.core.checks import int_arg
from cnmahjong.envs.core.engine import DONE, NEXT, NUM_SEATS, OTHERS, ClaimWindow, TableGame, zero_counts
from cnmahjong.envs.core.eventlog import DISCARD as _DISCARD_FORM
from cnmahjong.envs.core.eventlog import DRAW as _DRAW_FORM
from cnmahjong.envs.core.eventlog import event_form, pack
from cnmahjong.envs.core.meld import ANGANG, CHI, JIAGANG, MINGGANG, PENG, Meld, kong_possible
from cnmahjong.envs.core.result import HandResult, win_transfers
from cnmahjong.envs.core.tiles import NUM_KINDS
from cnmahjong.envs.core.wall import HONOURS_WALL_SIZE, Wall
from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.patterns import baotou_counts, best_reading_counts, chi_runs, natural_kind, win_counts
from cnmahjong.envs.hangzhou.rules import RuleConfig
from cnmahjong.envs.hangzhou.scoring import liable_seats, piao_claim_split, settle

_CHI_RUNS = [chi_runs(k) for k in range(NUM_KINDS)]
"""``chi_runs`` of every indicator, read by index (the cached call was most of a discard's CHI check)."""


def _chi_pairs(table: tuple[tuple[tuple[int, int, int], ...], ...]) -> bytes:
    """A ``chi_runs`` table flat, for C reads: per physical discard t, six bytes, the two hand
    kinds of each CHI in ``A.CHI_ACTIONS``' order, or 255 twice where that CHI makes no run."""
    out = bytearray([255]) * (6 * NUM_KINDS)
    for t, runs in enumerate(table):
        for a, x, y in runs:
            k = 6 * t + 2 * (a - A.CHI_LOW)
            out[k] = x
            out[k + 1] = y
    return bytes(out)


_CHI_PAIRS = [_chi_pairs(runs) for runs in _CHI_RUNS]
"""``_CHI_RUNS`` flat (``_chi_pairs``), per indicator: ``HangzhouGame._chi_bits`` compiled."""

__all__ = ["RULESET", "HangzhouGame", "HangzhouMatch", "new_hand"]

RULESET = "hangzhou"
"""This ruleset's name: every deal event and result carries it (``Ruleset.name``)."""

DISCARD = "discard"  # own turn: discard, own kong or self-drawn win
CLAIM = "claim"  # claims on a discard (blind, resolved by priority)
PHASES = (DISCARD, CLAIM, DONE)
_DISCARD_EVENT, _PIAO_DISCARD_EVENT, _DRAW_EVENT = 1, 2, 3
"""Indices of ``HangzhouGame.EVENT_FORMS`` (``eventlog``: 0 is the act)."""

LAST_DRAWABLE = 19
"""§1 exhaustion: a draw that would take one of the last 19 drawable tiles (20 with the
turned-up indicator, the source's last ten stacks) ends the hand instead; no kong then."""

_KINDS = range(NUM_KINDS)
# The actions the turn and claim steps offer and compare, read once here: a module attribute
# (``A.HU``) is a lookup per use, these compile to C ints (game.pxd).
_HU, _PASS, _PENG_CLAIM, _GANG_CLAIM, _GANG_SELF = A.HU, A.PASS, A.PENG, A.GANG_CLAIM, A.GANG_SELF
_CHI_LOW, _CHI_HIGH = A.CHI_LOW, A.CHI_HIGH


class HangzhouGame(TableGame):
    """One hand of Hangzhou mahjong. See the module docstring."""

    RULESET = RULESET
    PLAYS_WITHOUT_LOG = True  # every write to the log is guarded (rollouts, VectorEnv(log=False))
    ACTIONS = A
    NUM_KINDS = NUM_KINDS
    """Physical kinds 0–33, honours included; discards are actions 0–33."""
    CONFIG = RuleConfig
    WALL_SIZE = HONOURS_WALL_SIZE
    DEAL_KEYS = ("streak",)
    PHASES = PHASES
    DECLINE_PHASES = (CLAIM,)
    EVENT_FORMS = (_DISCARD_FORM, event_form("discard", "seat", "tile", piao=True), _DRAW_FORM)
    """The frequent events packed until the log is read (``eventlog``): indices ``_DISCARD_EVENT``,
    ``_PIAO_DISCARD_EVENT``, ``_DRAW_EVENT``."""
    """Every deal event records the dealer's streak level (§5)."""

    __slots__ = (  # with TableGame's (phase, pending, _window, _events, _log_tail, hands, result, payments)
        "config", "seed", "dealer", "streak", "wall", "indicator", "melds", "melded", "rivers",
        "river_counts", "public_log", "turn", "drawn", "last_tile", "claims", "claims_made",
        "shipeng", "piao", "doublings", "bearer", "piao_pending", "_ready_before",
    )

    def __init__(self, config: RuleConfig | None = None, seed: int | None = None, dealer: int = 0,
                 streak: int = 1, log: bool = True) -> None:
        """A seeded deal (§1): 136 tiles shuffled, 53 dealt as in Changsha, the next head tile
        turned up. ``streak``: the dealer's §5 level, 1 平庄, 2 二连庄, 3 三连庄 or more;
        ``log=False``: no event log at all (``engine.log_arg``)."""
        config, seed, dealer = self._check_args(config, seed, dealer)
        streak = int_arg(streak, "streak", 1, 3)
        log = engine.log_arg(type(self), log)
        hands, wall, _ = self._seeded_deal(seed, dealer)
        self._setup(config, seed, dealer, streak, hands, wall, "seed", log)

    @classmethod
    def from_scenario(cls, hands: Sequence[str | Iterable[int]], wall: str | Iterable[int], dealer: int = 0,
                      config: RuleConfig | None = None, seed: int | None = 0, streak: int = 1) -> HangzhouGame:
        """Start from explicit concealed hands (the dealer's 14) and the undealt wall, head to tail;
        ``wall[0]`` is the indicator turned up after dealing. Tile text takes honours (``1z..7z``)."""
        config, seed, dealer = cls._check_args(config, seed, dealer)
        streak = int_arg(streak, "streak", 1, 3)
        hs, w = cls._check_scenario(hands, wall, dealer)
        if not w:
            raise ValueError("a Hangzhou scenario wall needs at least one tile: wall[0] is the indicator")
        game = cls.__new__(cls)
        game._setup(config, seed, dealer, streak, hs, Wall(w, size=HONOURS_WALL_SIZE), "scenario")
        return game

    def _setup(self, config: RuleConfig, seed: int, dealer: int, streak: int, hands: list[list[int]],
               wall: Wall, origin: str, log: bool = True) -> None:
        self.config = config
        self.seed = seed
        self.dealer = dealer
        self.streak = streak
        self.wall = wall
        self.events = [{
            "type": "deal", "ruleset": RULESET, "origin": origin, "dealer": dealer, "seed": seed, "streak": streak,
            "config": config.to_dict(), "hands": [sorted(h) for h in hands], "wall": wall.tiles()}] if log else None
        self.indicator = wall.draw_head()
        if log:
            self._log_tail.append({"type": "indicator", "tile": self.indicator})
        self.hands: list[bytearray] = engine.count_hands(hands, NUM_KINDS)
        self.melds: list[list[Meld]] = [[] for _ in range(NUM_SEATS)]
        self.melded = zero_counts(NUM_KINDS)
        """Physical tiles in each seat's melds (hidden kongs included: the referee's count)."""
        self.rivers: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        self.river_counts = zero_counts(NUM_KINDS)
        self.public_log: list[int] = []
        """Append-only journal for incremental observers: ``s`` melds of seat s changed, ``4 + s``
        its river; a discard logs ``4 + s + 16 * (t + 1)``: tile ``t`` joined the river of seat s."""
        self.payments = [0] * NUM_SEATS
        self.phase = DISCARD
        self.turn = dealer
        self.drawn: int | None = None
        self.last_tile: int | None = None
        self.result: HandResult | None = None
        self.pending: dict[int, list[int]] = {}
        self._window: ClaimWindow | None = None
        self.claims = [[0] * NUM_SEATS for _ in range(NUM_SEATS)]
        """``claims[a][b]``: CHI, PENG and 明杠 seat a made on seat b's discards (§6)."""
        self.claims_made = 0
        """Claims made this hand (observers re-read ``claims`` when it changes)."""
        self.shipeng = [0] * NUM_SEATS
        """失碰: per seat, kinds (bitmask) it passed a PENG on, barred until its next turn (§2)."""
        self.piao = [0] * NUM_SEATS
        """飘 count: 飘 since the seat's last discard that was not a 飘 (§3)."""
        self.doublings: list[list[tuple[str, int | None]]] = [[] for _ in range(NUM_SEATS)]
        """Per seat, its 飘 and kongs since its last non-飘 discard, in order, each with the seat
        that bears it under 后半场承包 (or None)."""
        self.bearer: list[int | None] = [None] * NUM_SEATS
        """The discarder of a seat's latest claim made while its 飘 count was above zero."""
        self.piao_pending: list[int] = []
        """Seats whose 飘 restricts the others until their own next turn (§3)."""
        self._ready_before = False
        """The seat on turn was 爆头-ready before this turn's draw, or before the CHI or PENG that
        began it: a 财神 it discards now is a 飘 (财飘, §3)."""
        self._start_turn(dealer)

    # ------------------------------------------------------------- decisions
    def _discards_all_held(self, seat: int) -> bool:
        return self.phase == DISCARD

    def _apply(self, seat: int, action: int, phase: str) -> None:
        if action < NUM_KINDS:
            self._discard(seat, action)
        elif action == _HU:
            self._win(seat, self.drawn, None)
        else:
            self._own_kong(seat, action - _GANG_SELF)

    def _restricted(self, s: int) -> bool:
        """Another seat's 飘 is pending: no CHI, PENG, 明杠, 加杠 or discard win for ``s`` (§3)."""
        pending = self.piao_pending
        return bool(pending) and any([p != s for p in pending])  # a list, not a genexp: no closure in C

    def _baotou_ready(self, s: int) -> bool:
        """§3 爆头-ready: seat ``s``'s 13-tile hand (melds included), one 财神 taken out, is
        complete sets or six pairs. Asked before a draw or a claim changes the hand."""
        h = self.hands[s]
        return bool(h[self.indicator]) and any(baotou_counts(h, self.indicator, len(self.melds[s])))

    def ready_before(self) -> bool:
        """§3: whether the seat on turn was 爆头-ready before this turn's draw or claim (its 财神
        discard now is a 飘). A claim or a sampled world sets it at once; after a draw it is None
        until first asked here, then made of the hand less the drawn tile (the 13 tiles before the
        draw): most turns never discard a 财神, so a rollout rarely asks."""
        ready = self._ready_before
        if ready is None:
            s, t = self.turn, self.drawn
            h = self.hands[s]
            h[t] -= 1
            ready = self._ready_before = self._baotou_ready(s)
            h[t] += 1
        return ready

    def _kong_ok(self) -> bool:
        """A kong's replacement must not come from the last 19 drawable tiles (§1)."""
        return self.wall.remaining > LAST_DRAWABLE

    # ----------------------------------------------------------------- turns
    def _begin_turn(self, s: int) -> None:
        """Seat ``s``'s turn comes (a draw or a claim): its hidden kongs show, its 失碰 and its
        pending 飘 end."""
        self.shipeng[s] = 0
        if s in self.piao_pending:
            self.piao_pending.remove(s)
        shown = None  # a list only for a hidden kong (most turns have none: no list made)
        for m in self.melds[s]:  # a loop over a typed name (game.pxd): the meld's slots read in C
            if m.hidden:
                if shown is None:
                    shown = []
                shown.append(m.tiles[0])
        if shown is not None:
            self.melds[s] = [m.replace(hidden=False) for m in self.melds[s]]
            self.public_log.append(s)
            if self._log_tail is not None:  # None: a rollout's game keeps no log
                self._log_tail.append({"type": "reveal", "seat": s, "tiles": shown})

    def _start_turn(self, s: int) -> None:
        """Seat ``s`` holds 3n+2 tiles: discard, kong, or win when the last draw completed it."""
        self.turn = s
        h = self.hands[s]
        acts = self._held_kinds(h, s)  # every kind held (the list s was asked with last, refilled)
        n_melds = len(self.melds[s])
        # a win needs a drawn tile, or the dealer's dealt 14 before anything public happened
        win = (self.drawn is not None or not self.public_log) and win_counts(h, self.indicator, n_melds)
        # a kong is rare: looked for only where one may be (as Python, two tests: a call costs more)
        if (kong_possible(h, self.melded[s]) if cython.compiled else 4 in h or n_melds) and self._kong_ok():
            held = len(acts)
            if 4 in h:
                acts += [A.gang(t) for t in _KINDS if h[t] == 4]
            if n_melds and not self._restricted(s):
                for m in self.melds[s]:  # a typed loop (game.pxd), as _begin_turn's
                    t = m.tiles[0]
                    if h[t] and m.kind == PENG:
                        acts.append(_GANG_SELF + t)  # A.gang(t)
            if len(acts) > held:  # the discards come sorted: only added kongs need a sort
                acts.sort()
        if win:
            acts.append(_HU)  # the highest action a turn offers: the list stays sorted
        self._ask_seat(DISCARD, s, acts)

    def _draw(self, s: int, tail: bool = False) -> None:
        """Seat ``s`` draws (the head, or the tail after a kong) or the hand is drawn (§1)."""
        if not tail:
            if self.wall.remaining <= LAST_DRAWABLE:
                self._finish(None)
                return
            self._begin_turn(s)
        self._ready_before = None  # asked when first read (ready_before): most turns never need it
        t = self.wall.draw_tail() if tail else self.wall.draw_head()
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append(pack(_DRAW_EVENT, s, t, 1 if tail else 0))  # the source's index in DRAW_SOURCES
        h = self.hands[s]
        h[t] += 1
        self.drawn = t
        self._start_turn(s)

    def _discard(self, s: int, t: int) -> None:
        """Seat ``s`` discards ``t``: a 财神 from the 爆头-ready state (before this turn's draw or
        claim) is a 飘 (财飘, §3); any other discard ends the seat's 飘 streak."""
        h = self.hands[s]
        piao = t == self.indicator and self.ready_before()  # of the hand still holding t
        h[t] -= 1
        self.drawn = None
        self._ready_before = False
        self.rivers[s].append(t)
        counts = self.river_counts[s]
        counts[t] += 1
        self.public_log.append(4 + s + 16 * (t + 1))
        self.last_tile = t
        if piao:  # 财飘: the streak goes on and the others are restricted until s's next turn
            self.piao[s] += 1
            self.doublings[s].append(("piao", self.bearer[s]))
            self.piao_pending.append(s)
        else:
            self.piao[s] = 0
            if self.doublings[s]:  # most discards: none to end (no new empty list made)
                self.doublings[s] = []
            self.bearer[s] = None
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append(pack(_PIAO_DISCARD_EVENT if piao else _DISCARD_EVENT, s, t))
        if t == self.indicator:  # a 财神 is never claimed (§2)
            self._draw(NEXT[s])
        else:
            self._open_claims(s, t)

    def _own_kong(self, s: int, t: int) -> None:
        """暗杠 (four in hand, face down) or 加杠 (the fourth added to a PENG)."""
        h = self.hands[s]
        if h[t] == 4:
            h[t] = 0
            self._add_meld(s, Meld(ANGANG, (t,) * 4, None, hidden=True))
        else:
            h[t] -= 1
            old = next(m for m in self.melds[s] if m.kind == PENG and m.tiles[0] == t)
            self.melds[s][self.melds[s].index(old)] = Meld(JIAGANG, (t,) * 4, old.from_seat)
            self.melded[s][t] += 1
            self.public_log.append(s)
            if self._log_tail is not None:  # None: a rollout's game keeps no log
                self._log_tail.append({"type": "meld", "seat": s, "kind": JIAGANG, "tiles": [t] * 4,
                                    "from": old.from_seat})
        self.doublings[s].append(("kong", self.bearer[s]))
        self._draw(s, tail=True)

    def _add_meld(self, s: int, meld: Meld) -> None:
        self.melds[s].append(meld)
        melded = self.melded[s]
        for t in meld.tiles:
            melded[t] += 1
        self.public_log.append(s)
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "meld", "seat": s, "kind": meld.kind, "tiles": list(meld.tiles),
                                "from": meld.from_seat})

    # ----------------------------------------------------------------- claims
    def _claim_limit_ok(self, s: int, d: int) -> bool:
        """§2: from 二连庄 on, at most 3 claims each way between dealer and non-dealer, 2 between
        two non-dealers."""
        if self.streak < 2 or not self.config.claim_limits:  # the streak first: a C read
            return True
        return self.claims[s][d] < (3 if self.dealer in (s, d) else 2)

    def _chi_bits(self, h: bytearray, t: int) -> int:
        """The CHIs hand ``h`` has on discard ``t`` (natural kind n): runs n..n+2, n-1..n+1, n-2..n
        of its suit (bits 0, 1, 2), the hand's tiles taken by the kinds they play (a 白板 for the
        indicator kind); 0 for none, as most discards, with no list made (C reads of the table)."""
        bits = 0
        if not cython.compiled:  # as Python, the few runs of chi_runs' own table iterated
            for a, x, y in _CHI_RUNS[self.indicator][t]:
                if h[x] and h[y]:
                    bits |= 1 << (a - _CHI_LOW)
            return bits
        pairs = _CHI_PAIRS[self.indicator]
        i = 6 * t
        for k in range(3):
            x = pairs[i]
            if x != 255 and h[x] and h[pairs[i + 1]]:
                bits |= 1 << k
            i += 2
        return bits

    def _chis(self, h: bytearray, t: int) -> list[int]:
        """The CHI actions of ``_chi_bits``, in order (consecutive ids from ``A.CHI_LOW``)."""
        bits = self._chi_bits(h, t)
        out = []
        for k in range(3):
            if bits >> k & 1:
                out.append(_CHI_LOW + k)
        return out

    def _open_claims(self, d: int, t: int) -> None:
        """Collect every eligible seat's claim on discard ``t`` of seat ``d``, blind."""
        nxt, s2, s3 = OTHERS[d]
        h1, h2, h3 = self.hands[nxt], self.hands[s2], self.hands[s3]
        asked = 7  # the seats with a claim to be offered (bits 0..2 for nxt, s2, s3): all where the
        if self.streak < 3:  # dealer's streak lets a discard be won, else a pair of t or (nxt) a CHI
            asked = ((1 if h1[t] >= 2 or self._chi_bits(h1, t) else 0)
                     | (2 if h2[t] >= 2 else 0) | (4 if h3[t] >= 2 else 0))
            if not asked:
                self._draw(nxt)  # the common case: no PENG, kong or CHI for anybody
                return
        options: dict[int, list[int]] = {}
        for s in (nxt, s2, s3):
            if asked & 1:
                acts = self._claim_offer(s, d, t)
                if acts:
                    options[s] = acts
            asked >>= 1
        if options:
            self._open_window(ClaimWindow(CLAIM, [t], d, options))
        else:
            self._draw(nxt)

    def _claim_offer(self, s: int, d: int, t: int) -> list[int]:
        """Seat ``s``'s claims on discard ``t`` of seat ``d`` (empty: none)."""
        if self.piao_pending and self._restricted(s):
            return []  # another seat's 飘 is pending (§3)
        h = self.hands[s]
        acts = []
        if self.streak >= 3 and self.dealer in (s, d):
            h[t] += 1
            if win_counts(h, self.indicator, len(self.melds[s])):
                acts.append(_HU)
            h[t] -= 1
        if self._claim_limit_ok(s, d):
            if s == NEXT[d]:
                acts += self._chis(h, t)
            if h[t] >= 2 and not self.shipeng[s] >> t & 1:
                acts.append(_PENG_CLAIM)
                if h[t] == 3 and self._kong_ok():
                    acts.append(_GANG_CLAIM)
        if acts:
            acts.append(_PASS)
            acts.sort()
        return acts

    def _resolve_window(self, w: ClaimWindow) -> None:
        win = w  # compiled: the window's type known (game.pxd), its slots read in C
        d, t = win.payer, win.tiles[0]
        choices = win.choices
        for s, acts in win.options.items():  # 失碰: a PENG offered and not taken
            if _PENG_CLAIM in acts and choices[s] not in (_PENG_CLAIM, _GANG_CLAIM):
                self.shipeng[s] |= 1 << t
        for s in OTHERS[d]:  # several HU: the first in turn order after the discarder (§3)
            if choices.get(s) == _HU:
                self._win(s, t, d)
                return
        claim = None  # loops, not next(genexp): a compiled method has no closure
        for s, a in choices.items():
            if a in (_PENG_CLAIM, _GANG_CLAIM):
                claim = (s, a)
                break
        if claim is None:
            for s, a in choices.items():
                if _CHI_LOW <= a <= _CHI_HIGH:
                    claim = (s, a)
                    break
        if claim is None:
            self._draw(NEXT[d])
            return
        s, a = claim
        self.rivers[d].pop()
        self.river_counts[d][t] -= 1
        self.public_log.append(4 + d)
        self.claims[s][d] += 1
        self.claims_made += 1
        self._begin_turn(s)
        if self.piao[s]:  # 后半场承包: later doublings are d's to bear (§6)
            self.bearer[s] = d
        # §3: on a turn begun by a CHI or PENG, 爆头-ready before the claim (the 13-tile hand, before
        # the claimed tile and the meld change it) stands in for before the draw; a 明杠's
        # replacement draw asks again below
        self._ready_before = self._baotou_ready(s)
        h = self.hands[s]
        self.drawn = None
        if _CHI_LOW <= a <= _CHI_HIGH:
            run = [(x, y) for b, x, y in _CHI_RUNS[self.indicator][t] if b == a][0]
            for x in run:
                h[x] -= 1
            ordered = sorted([(natural_kind(x, self.indicator), x) for x in (*run, t)])  # a run's kinds differ
            self._add_meld(s, Meld(CHI, tuple([x for _, x in ordered]), d))
            self._start_turn(s)
        elif a == _PENG_CLAIM:
            h[t] -= 2
            self._add_meld(s, Meld(PENG, (t,) * 3, d))
            self._start_turn(s)
        else:
            h[t] -= 3
            self._add_meld(s, Meld(MINGGANG, (t,) * 4, d))
            self.doublings[s].append(("kong", self.bearer[s]))
            self._draw(s, tail=True)

    # -------------------------------------------------------------- settlement
    def _win(self, s: int, tile: int | None, discarder: int | None) -> None:
        """Settle the win of seat ``s``: self-drawn (``tile`` the drawn one, None for the dealer's
        dealt hand) or on ``discarder``'s ``tile``."""
        self_drawn = discarder is None
        c = bytearray(self.hands[s])
        if not self_drawn:
            c[tile] += 1  # type: ignore[index]
        kongs = sum(1 for kind, _ in self.doublings[s] if kind == "kong")
        best = best_reading_counts(c, self.indicator, len(self.melds[s]), tile if self_drawn else None,
                                   self_drawn, self.piao[s], kongs)
        assert best is not None, "HU was offered for a hand that does not win"
        reading, e = best
        counted = [b for kind, b in self.doublings[s] if kind == "kong" or reading.baotou]
        borne = [b for b in counted if b is not None]
        level, cfg = self.streak, self.config
        chengbao, fan = liable_seats(s, self.claims) if cfg.liability else (None, ())
        if chengbao is not None or fan:
            net = settle(level, self.dealer, s, e, discarder, self.claims, True)
            borne = []
        elif cfg.piao_claim_liability and borne:
            net = piao_claim_split(level, self.dealer, s, e, borne, discarder)
        else:
            net = settle(level, self.dealer, s, e, discarder)
            borne = []
        for i, v in enumerate(net):
            self.payments[i] += v
        patterns: dict[str, int] = {}
        if reading.qidui:
            patterns["QIDUI"] = 1
        if reading.qing:
            patterns["QING_QIDUI"] = 1
        if reading.quads:
            patterns["HAOHUA"] = reading.quads
        if reading.baotou:
            patterns["BAOTOU"] = 1
            if self.piao[s]:
                patterns["CAIPIAO"] = self.piao[s]
        if kongs:
            patterns["GANGKAI"] = kongs
        liable = {"chengbao": chengbao, "fan": list(fan), "borne": list(borne)}
        if self._log_tail is not None:  # None: a rollout's game keeps no log
            self._log_tail.append({"type": "win", "seat": s, "tile": tile, "payer": discarder, "exponent": e,
                                "patterns": dict(patterns), "payments": list(net),
                                "liable": {"chengbao": chengbao, "fan": list(fan), "borne": list(borne)}})
        self._finish(HandResult(
            ruleset=RULESET, payments=tuple(self.payments), winners=(s,), self_drawn=(s,) if self_drawn else (),
            won_from={} if self_drawn else {s: discarder}, winning_tiles={s: tile}, patterns={s: patterns},
            value={s: e}, transfers=tuple(win_transfers(s, net, reasons=_liable_reasons(chengbao, fan, borne))),
            next_dealer=s, extras={"liable": liable}))

    def _finish(self, result: HandResult | None) -> None:
        """End the hand: a win's result, or None for a drawn hand (荒庄: the dealer keeps the seat)."""
        if result is None:
            result = HandResult(
                ruleset=RULESET, payments=tuple(self.payments), winners=(), self_drawn=(), won_from={},
                winning_tiles={}, patterns={}, value={}, transfers=(), next_dealer=self.dealer,
                extras={"liable": {"chengbao": None, "fan": [], "borne": []}})
        self._end_hand(result)

    # ------------------------------------------- worlds (cnmahjong.envs.core.worlds)
    def _world_face_up(self) -> list[int]:
        """The indicator: the one tile face up outside hands, melds and rivers."""
        return [self.indicator]

    def _world_forget(self, seat: int, rng: Any) -> None:
        """The other seats' 失碰 followed from their old hands (a PENG offered and passed)."""
        for s in OTHERS[seat]:
            self.shipeng[s] = 0

    def _world_offer(self, w: ClaimWindow, s: int) -> list[int]:
        return self._claim_offer(s, w.payer, w.tiles[0])

    def _world_reask(self, s: int, rng: Any, last: bool) -> bool:
        """Seat ``s`` (another seat) on its turn: which tile it drew is one of its tiles,
        uniformly; whether it was 爆头-ready before (a 财神 discard would be a 飘) follows."""
        h = self.hands[s]
        if self.drawn is not None:
            tiles = [t for t in _KINDS for _ in range(h[t])]
            self.drawn = tiles[int(rng.integers(len(tiles)))]
            h[self.drawn] -= 1
            self._ready_before = self._baotou_ready(s)
            h[self.drawn] += 1
        elif self.public_log:  # a turn begun by a CHI or PENG: the hand before the claim
            before = bytearray(h)
            for t in self.melds[s][-1].tiles:
                before[t] += 1
            before[self.last_tile] -= 1
            k = self.indicator
            self._ready_before = bool(before[k]) and any(baotou_counts(before, k, len(self.melds[s]) - 1))
        self._start_turn(s)
        return True

    # ------------------------------------------------------------------ views
    def tiles_accounted(self) -> int:
        """Tiles in the wall, hands, melds, rivers and the indicator: §1's 136 through a hand."""
        return (self.wall.remaining + sum(map(sum, self.hands)) + sum(map(sum, self.melded))
                + sum(map(len, self.rivers)) + 1)

    def __repr__(self) -> str:
        return (f"HangzhouGame(phase={self.phase!r}, to_act={self.to_act}, wall={self.wall.remaining}, "
                f"dealer={self.dealer}, streak={self.streak}, indicator={self.indicator})")


def _liable_reasons(chengbao: int | None, fan: Iterable[int], borne: Iterable[int]) -> dict[int, str] | None:
    """Per liable seat, the reason of its transfer (§6): ``chengbao`` (承包), ``fan`` (反承包),
    both joined by ``+``, or ``borne`` (后半场承包); None when nobody is liable."""
    reasons: dict[int, str] = {}
    for s in borne:
        reasons[s] = "borne"
    for s in fan:
        reasons[s] = "fan"
    if chengbao is not None:
        reasons[chengbao] = "chengbao+fan" if chengbao in reasons else "chengbao"
    return reasons or None


class HangzhouMatch(engine.Match):
    """A match of ``hands`` hands with §5's dealer rule: the dealer keeps the seat when he wins or
    the hand is drawn (streak + 1, level capped at 3); otherwise the winner deals at level 1."""

    GAME = HangzhouGame

    def __init__(self, config: RuleConfig | None = None, hands: int = 4, seed: int | None = None,
                 dealer: int | None = None) -> None:
        self.streak = 1
        self.streaks: list[int] = []
        super().__init__(config, hands, seed, dealer)

    def _deal(self) -> HangzhouGame:
        self.dealers.append(self.dealer)
        self.streaks.append(self.streak)
        return HangzhouGame(self.config, seed=self._rng.getrandbits(63), dealer=self.dealer,
                            streak=min(self.streak, 3))

    def _after_hand(self, result: HandResult) -> None:
        if result.next_dealer == self.dealer:
            self.streak += 1
        else:
            self.dealer = result.next_dealer
            self.streak = 1


def new_hand(config: RuleConfig, rng: Any) -> HangzhouGame:
    """``HangzhouGame.new_hand`` (one-hand episodes are dealt at level 1) as a module function: a
    ruleset's ``new_hand`` travels to worker processes by reference, which a compiled class's bound
    method cannot."""
    return HangzhouGame.new_hand(config, rng)

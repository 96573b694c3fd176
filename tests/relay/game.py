"""The relay's engine on the shared ``TableGame`` skeleton (rules in the package docstring)."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.core import engine
from cnmahjong.envs.core.engine import DONE, NEXT, NUM_SEATS, OTHERS, ClaimWindow, TableGame, Window
from cnmahjong.envs.core.result import HandResult, Transfer
from cnmahjong.envs.core.wall import WALL_SIZE, Wall
from tests.relay import actions as A
from tests.relay.rules import RuleConfig

RULESET = "relay"
PASSING, DISCARD, CLAIM = "pass", "discard", "claim"
PICKS = 2
"""Tiles each seat passes on in the opening window."""
KINDS = range(A.NUM_KINDS)


def pairs(counts: Any) -> int:
    return sum(c // 2 for c in counts)


class RelayGame(TableGame):
    RULESET = RULESET
    ACTIONS = A
    NUM_KINDS = A.NUM_KINDS
    CONFIG = RuleConfig
    WALL_SIZE = WALL_SIZE
    NO_HONOURS = "the relay has no honours"
    PHASES = (PASSING, DISCARD, CLAIM, DONE)
    MAX_TO_ACT = 4  # the opening window asks all four seats at once
    SECRET_PHASES = (PASSING,)

    def _setup(self, config: RuleConfig, seed: int, dealer: int, hands: list[list[int]], wall: Wall,
               origin: str) -> None:
        self.config, self.seed, self.dealer, self.wall = config, seed, dealer, wall
        self.events: list[dict[str, Any]] = [self._deal_event(origin, hands, wall)]
        self.hands = engine.count_hands(hands, A.NUM_KINDS)
        self.melds: list[list[Any]] = [[] for _ in range(NUM_SEATS)]
        self.rivers: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        self.passed: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        """Per seat, the kinds it passed on (its own: shown to it alone)."""
        self.payments = [0] * NUM_SEATS
        self.result: HandResult | None = None
        self.pending: dict[int, list[int]] = {}
        self._window: Window | None = None
        self.out: list[int] = []
        self.win_order: list[tuple[int, int | None, int | None]] = []  # (winner, payer, tile) in order
        self._transfers: list[Transfer] = []
        self.turn = dealer
        order = [(dealer + i) % NUM_SEATS for i in range(NUM_SEATS)]
        self._open_window(Window(PASSING, {s: self._pick_options(s, []) for s in order}))

    # ------------------------------------------------------------ seats that leave
    @property
    def seats_out(self) -> tuple[int, ...]:
        return tuple(self.out)

    @property
    def seats_settled(self) -> tuple[int, ...]:
        """With ``refund`` a winner may still be paid at the end: nobody is settled before it."""
        if self.config.refund and self.phase != DONE:
            return ()
        return tuple(self.out)

    def in_play(self) -> list[int]:
        return [s for s in range(NUM_SEATS) if s not in self.out]

    # ------------------------------------------------------------ the opening window
    def _pick_options(self, seat: int, picks: list[int]) -> list[int]:
        """Kinds ``seat`` may pick next: one it still holds unpicked, not below its last pick, and
        leaving enough tiles above it for the picks still to come (no dead end)."""
        h = self.hands[seat]
        left = PICKS - len(picks) - 1  # picks to come after this one
        above = 0  # tiles of kinds above k (all unpicked: picks never go down)
        out = []
        for k in range(A.NUM_KINDS - 1, (picks[-1] if picks else 0) - 1, -1):
            avail = h[k] - picks.count(k)
            if avail >= 1 and avail - 1 + above >= left:
                out.append(A.PICK + k)
            above += h[k]
        return sorted(out)

    def _more_picks(self, window: Window, seat: int) -> list[int]:
        if window.kind != PASSING or len(window.picks[seat]) == PICKS:
            return []
        return self._pick_options(seat, [a - A.PICK for a in window.picks[seat]])

    def _resolve_window(self, window: Window) -> None:
        if isinstance(window, ClaimWindow):
            self._resolve_claims(window)
            return
        given = [[a - A.PICK for a in window.picks[s]] for s in range(NUM_SEATS)]
        for s, tiles in enumerate(given):
            for t in tiles:
                self.hands[s][t] -= 1
                self.hands[NEXT[s]][t] += 1
            self.passed[s] = tiles
        self.events.append({"type": "pass", "tiles": given})
        self._turn(self.dealer)

    @classmethod
    def seat_view(cls, e: dict[str, Any], viewer: int) -> dict[str, Any] | None:
        """The pass: a seat sees the tiles it gave and those it received, nothing of the others'."""
        if e["type"] != "pass":
            return e
        shown = (viewer, (viewer - 1) % NUM_SEATS)
        return {**e, "tiles": [t if s in shown else None for s, t in enumerate(e["tiles"])]}

    # ------------------------------------------------------------ play
    def _wins(self, counts: Any) -> bool:
        return pairs(counts) >= self.config.pairs_to_win

    def _turn(self, s: int) -> None:
        h = self.hands[s]
        acts = [t for t in KINDS if h[t]]
        if self._wins(h):
            acts.append(A.HU)
        self.turn = s
        self._ask(DISCARD, {s: acts})

    def _discards_all_held(self, seat: int) -> bool:
        return self.phase == DISCARD

    def _apply(self, seat: int, action: int, phase: str) -> None:
        if action == A.HU:
            self._win(seat, None, None)
            self._after_win(seat)
            return
        self.hands[seat][action] -= 1
        self.rivers[seat].append(action)
        self.events.append({"type": "discard", "seat": seat, "tile": action})
        options = {}
        for o in OTHERS[seat]:
            if o in self.out:
                continue
            self.hands[o][action] += 1
            if self._wins(self.hands[o]):
                options[o] = [A.HU, A.PASS]
            self.hands[o][action] -= 1
        if options:
            self._open_window(ClaimWindow(CLAIM, [action], seat, options))
        else:
            self._draw_after(seat)

    def _resolve_claims(self, window: ClaimWindow) -> None:
        d, t = window.payer, window.tiles[0]
        winners = [o for o in OTHERS[d] if window.choices.get(o) == A.HU]  # every claimant wins (一炮多响)
        if not winners:
            self._draw_after(d)
            return
        self.rivers[d].pop()
        for w in winners:
            self.hands[w][t] += 1
            self._win(w, d, t)
        self._after_win(d)

    def _win(self, winner: int, payer: int | None, tile: int | None) -> None:
        """``winner`` is paid now and leaves the hand's play."""
        if payer is None:
            transfers = [Transfer(o, winner, 1) for o in OTHERS[winner] if o not in self.out]
        else:
            transfers = [Transfer(payer, winner, 2)]
        self._pay(transfers)
        self.out.append(winner)
        self.win_order.append((winner, payer, tile))
        self.events.append({"type": "win", "seat": winner, "tile": tile, "payer": payer,
                            "patterns": {"PAIRS": pairs(self.hands[winner])}, "payments": list(self.payments)})

    def _after_win(self, last: int) -> None:
        """Play goes on with the next seat in play after ``last``, until one is left."""
        if len(self.out) >= NUM_SEATS - 1:
            self._finish()
            return
        self._draw_after(last)

    def _draw_after(self, s: int) -> None:
        nxt = NEXT[s]
        while nxt in self.out:
            nxt = NEXT[nxt]
        if not self.wall.remaining:
            self._finish()
            return
        t = self.wall.draw_head()
        self.hands[nxt][t] += 1
        self.events.append({"type": "draw", "seat": nxt, "tile": t, "source": "head"})
        self._turn(nxt)

    def _pay(self, transfers: list[Transfer]) -> None:
        for tr in transfers:
            self.payments[tr.payer] -= tr.amount
            self.payments[tr.payee] += tr.amount
        self._transfers += transfers

    def _finish(self) -> None:
        if self.config.refund:  # each winner refunds 1 to every seat still in play
            self._pay([Transfer(w, p, 1, "refund") for w, _, _ in self.win_order for p in self.in_play()])
        winners = tuple(w for w, _, _ in self.win_order)
        self._end_hand(HandResult(
            ruleset=RULESET, payments=tuple(self.payments), winners=winners,
            self_drawn=tuple(w for w, p, _ in self.win_order if p is None),
            won_from={w: p for w, p, _ in self.win_order if p is not None},
            winning_tiles={w: t for w, _, t in self.win_order},
            patterns={w: {"PAIRS": pairs(self.hands[w])} for w in winners},
            value={w: 0 for w in winners}, transfers=tuple(self._transfers),
            next_dealer=winners[0] if winners else self.dealer))


new_hand = RelayGame.new_hand


class RelayMatch(engine.Match):
    GAME = RelayGame

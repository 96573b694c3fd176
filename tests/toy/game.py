"""The toy's engine: the shared ``TableGame`` skeleton with five pairs as its whole rule book."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.core import engine
from cnmahjong.envs.core.engine import DONE, NEXT, NUM_SEATS, OTHERS, ClaimWindow, TableGame
from cnmahjong.envs.core.result import HandResult, Transfer
from cnmahjong.envs.core.tiles import NUM_SUITED_KINDS
from cnmahjong.envs.core.wall import WALL_SIZE, Wall
from tests.toy import actions as A
from tests.toy.rules import RuleConfig

RULESET = "fivepairs"
DISCARD, CLAIM = "discard", "claim"
KINDS = range(NUM_SUITED_KINDS)


def pairs(counts: Any) -> int:
    return sum(c // 2 for c in counts)


class ToyGame(TableGame):
    RULESET = RULESET
    ACTIONS = A
    NUM_KINDS = NUM_SUITED_KINDS
    CONFIG = RuleConfig
    WALL_SIZE = WALL_SIZE
    NO_HONOURS = "the toy has no honours"
    PHASES = (DISCARD, CLAIM, DONE)

    def _setup(self, config: RuleConfig, seed: int, dealer: int, hands: list[list[int]], wall: Wall,
               origin: str) -> None:
        self.config, self.seed, self.dealer, self.wall = config, seed, dealer, wall
        self.events: list[dict[str, Any]] = [self._deal_event(origin, hands, wall)]
        self.hands = engine.count_hands(hands, NUM_SUITED_KINDS)
        self.melds: list[list[Any]] = [[] for _ in range(NUM_SEATS)]
        self.rivers: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        self.payments = [0] * NUM_SEATS
        self.result: HandResult | None = None
        self.pending: dict[int, list[int]] = {}
        self._window: ClaimWindow | None = None
        self.turn = dealer
        self.phase = DISCARD
        self._turn(dealer)

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
            self._settle(seat, None)
            return
        self.hands[seat][action] -= 1
        self.rivers[seat].append(action)
        self.events.append({"type": "discard", "seat": seat, "tile": action})
        options = {}
        for o in OTHERS[seat]:
            self.hands[o][action] += 1
            if self._wins(self.hands[o]):
                options[o] = [A.HU, A.PASS]
            self.hands[o][action] -= 1
        if options:
            self._open_window(ClaimWindow(CLAIM, [action], seat, options))
        else:
            self._draw(NEXT[seat])

    def _resolve_window(self, window: ClaimWindow) -> None:
        for o in OTHERS[window.payer]:  # the first claimant after the discarder
            if window.choices.get(o) == A.HU:
                self.hands[o][window.tiles[0]] += 1
                self.rivers[window.payer].pop()
                self._settle(o, window.payer, window.tiles[0])
                return
        self._draw(NEXT[window.payer])

    def _draw(self, s: int) -> None:
        if not self.wall.remaining:
            self._finish(None, None)
            return
        t = self.wall.draw_head()
        self.hands[s][t] += 1
        self.events.append({"type": "draw", "seat": s, "tile": t, "source": "head"})
        self._turn(s)

    def _settle(self, winner: int, discarder: int | None, tile: int | None = None) -> None:
        self._finish(winner, discarder)
        self.events.insert(-1, {"type": "win", "seat": winner, "tile": tile, "payer": discarder,
                                "patterns": {"PAIRS": pairs(self.hands[winner])}, "payments": list(self.payments)})

    def _finish(self, winner: int | None, discarder: int | None) -> None:
        if winner is None:
            transfers: list[Transfer] = []
        elif discarder is None:
            transfers = [Transfer(o, winner, 1) for o in OTHERS[winner]]
        else:
            transfers = [Transfer(discarder, winner, 3)]
        for t in transfers:
            self.payments[t.payer] -= t.amount
            self.payments[t.payee] += t.amount
        winners = () if winner is None else (winner,)
        self._end_hand(HandResult(
            ruleset=RULESET, payments=tuple(self.payments), winners=winners,
            self_drawn=winners if discarder is None else (),
            won_from={} if discarder is None or winner is None else {winner: discarder},
            winning_tiles={}, patterns={w: {"PAIRS": pairs(self.hands[w])} for w in winners},
            value={w: 0 for w in winners}, transfers=tuple(transfers),
            next_dealer=self.dealer if winner is None else winner))


new_hand = ToyGame.new_hand


class ToyMatch(engine.Match):
    GAME = ToyGame

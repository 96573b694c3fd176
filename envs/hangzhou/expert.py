"""Hangzhou's stronger rule-based player (``ExpertAgent``): greedy's play plus the ruleset's bets.

Greedy (``heuristic.py``) takes every win, so it never reaches 爆头 by choice and never 飘s. The
expert weighs the central decision of the rules (§3, §4): a plain self-drawn win now against
discarding into the 爆头-ready state (any next draw wins, ×2), and an 爆头 win against throwing
an extra 财神 (财飘, one more ×2), by the chance of reaching its next draw (tiles left in the
wall, §1 exhaustion, and the others' chance of self-drawing first) times the multiplier. A kong
that keeps it 爆头-ready is a sure 杠开 爆头. It does not make the third claim on one player's
discards (反承包, §6), nor gives a player his third claim on its own discards when a tie allows.
It reads only its ``hz-v0`` observation.
"""

from __future__ import annotations

import numpy as np

from cnmahjong.envs.core import wild
from cnmahjong.envs.core.tiles import NUM_KINDS, melds_of
from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.game import LAST_DRAWABLE
from cnmahjong.envs.hangzhou.heuristic import after_removing, heuristic, wild_shanten
from cnmahjong.envs.hangzhou.observation import (
    CHANNELS,
    decode_claim,
    decode_hand,
    decode_indicator,
    decode_phase,
    decode_unseen,
)
from cnmahjong.envs.hangzhou.patterns import baotou_counts, best_reading_counts, chi_runs, natural
from cnmahjong.envs.hangzhou.scoring import DEALER_SELF_DRAW, LIABILITY_CLAIMS, NON_DEALER_PAYS

OTHERS = (1, 2, 3)
"""The other seats, relative: 下家, 对家, 上家."""


# ------------------------------------------------------------------ decoders
def decode_claims(obs: np.ndarray, a: int, b: int) -> int:
    """Claims (CHI, PENG, 明杠) relative seat ``a`` made on relative seat ``b``'s discards (§6),
    capped at 3: the CLAIMS blocks run over a, then over the other seats b in turn order."""
    return CHANNELS.decode(obs, "CLAIMS", 3 * a + (b if b < a else b - 1))


def decode_piao(obs: np.ndarray) -> list[int]:
    """飘 count (capped at 2) per relative seat (§3)."""
    return CHANNELS.decode(obs, "PIAO")


def decode_piao_pending(obs: np.ndarray) -> list[bool]:
    """Per relative seat: its 飘 is pending (it was 爆头-ready: it wins on most next draws)."""
    return CHANNELS.decode(obs, "PIAO_PENDING")


def _ready(hand: list[int], k: int, melds: int) -> tuple[bool, bool]:
    """爆头-ready (§3) of a 13-tile hand: (by sets, by six pairs); no 财神, not ready."""
    return baotou_counts(hand, k, melds) if hand[k] else (False, False)


# ------------------------------------------------------------------ the bet
class _Table:
    """What the bet needs from the observation: the wall, the dealer and streak, 飘 counts."""

    def __init__(self, obs: np.ndarray) -> None:
        self.wall = CHANNELS.decode(obs, "WALL")
        self.dealer = CHANNELS.decode(obs, "DEALER")
        self.streak = CHANNELS.decode(obs, "STREAK")
        self.piao = decode_piao(obs)
        self.pending = decode_piao_pending(obs)
        self.ready_before = CHANNELS.decode(obs, "READY")

    def income(self) -> int:
        """§5: what the three payers give on my self-drawn win at multiplier 1."""
        d = DEALER_SELF_DRAW[self.streak]
        return 3 * d if self.dealer == 0 else d + 2 * NON_DEALER_PAYS

    def loss(self) -> float:
        """Rough points I pay when another seat self-draws (§5, an average multiplier of 1.5)."""
        d = DEALER_SELF_DRAW[self.streak]
        return 1.5 * (d if self.dealer == 0 else (d + 2 * NON_DEALER_PAYS) / 3)

    def survive(self, draws: tuple[int, ...], left: int | None = None) -> float:
        """Chance that I reach my next draw: the wall still gives one (§1 exhaustion), and none
        of the seats drawing before it (relative) self-draws a win first. A seat with a pending
        飘 is 爆头-ready: it wins on its draw. Hazard per draw from greedy self-play: near zero
        in the first turns, about 0.1 a draw in the second half of the wall."""
        r = self.wall if left is None else left
        if r - len(draws) <= LAST_DRAWABLE:
            return 0.0
        p = 1.0
        for i, s in enumerate(draws):
            if self.pending[s]:
                return 0.0
            p *= 1.0 - min(0.11, max(0.005, (70 - (r - i)) * 0.0035))
        return p

    def value(self, exponent: int, p: float) -> float:
        """Expected points of a win at ``2**exponent`` reached with chance ``p``, a loss otherwise."""
        return p * self.income() * 2 ** exponent - (1.0 - p) * self.loss()


def _wait_exponent(ready: tuple[bool, bool], piao: int) -> int:
    """§4 exponent of an 爆头 win from the given readiness with ``piao`` 飘 in the streak
    (七对子爆头 counts 七对子 too; quads and kongs left out)."""
    return 1 + piao + (1 if ready[1] else 0)


# ------------------------------------------------------------------ own turn
def _turn(obs: np.ndarray, legal: list[int], hand: list[int], k: int, n: int, table: _Table) -> int:
    """Own turn (14 tiles): kong into a sure 杠开 爆头, win, 飘 or wait for 爆头, else discard."""
    piao = table.piao[0] if table.ready_before else 0
    for a in legal:  # a kong that keeps the hand 爆头-ready: its replacement draw wins (杠开, §4)
        if A.GANG_SELF <= a < A.HU:
            t = a - A.GANG_SELF
            concealed = hand[t] == 4
            after = after_removing(hand, *([t] * (4 if concealed else 1)))
            if any(_ready(after, k, n + concealed)):  # 爆头 and 杠开, with the pending 飘 streak
                return a
    drawn = CHANNELS.decode(obs, "DRAWN")
    now = None
    if A.HU in legal:
        best = best_reading_counts(hand, k, n, drawn, True, table.piao[0], 0)
        e_now = best[1] if best is not None else 0
        now = table.income() * 2 ** e_now
    # the 13-tile hands that leave me 爆头-ready, and what waiting for the next draw is worth
    p = table.survive(OTHERS)
    options: dict[int, float] = {}
    for t in range(NUM_KINDS):
        if hand[t] and t in legal:
            ready = _ready(after_removing(hand, t), k, n)
            if any(ready):
                is_piao = t == k and table.ready_before
                options[t] = table.value(_wait_exponent(ready, piao + 1 if is_piao else 0), p)
    if options:
        t = max(options, key=lambda x: (options[x], x != k))
        if now is None or options[t] > now:
            return t
    if now is not None:
        return A.HU
    return _discard(obs, legal, hand, k, n)


def _claim_risk(obs: np.ndarray, t: int, unseen: list[int]) -> int:
    """承包 risk of discarding ``t`` (§6): seats that already made 2 claims on my discards and
    could claim it (a PENG needs two unseen copies; a CHI, 下家 only, a suited neighbour)."""
    risk = 0
    for o in OTHERS:
        if decode_claims(obs, o, 0) == LIABILITY_CLAIMS - 1 and (
                unseen[t] >= 2 or (o == 1 and chi_runs(decode_indicator(obs))[t])):
            risk += 1
    return risk


def _baotou_distance(hand: list[int], k: int) -> int:
    """How far a 13-tile hand is from 爆头-ready (§3): wildcards its sets still need beyond the
    财神 kept aside (0: ready); no 财神, far."""
    b, w = natural(hand, k)
    return wild.sets_need(b) - (w - 1) if w else NUM_KINDS


def _discard(obs: np.ndarray, legal: list[int], hand: list[int], k: int, n: int) -> int:
    """Greedy's discard (``heuristic``, kongs included) among the discards that keep its best
    shanten, the least 承包-risky first, then those nearest to 爆头-ready (the 财神 kept free to
    pair with any draw); a 财神 is kept (it is never discarded but as a 飘)."""
    discards = [a for a in legal if a < A.CHI_LOW and (a != k or len(legal) == 1)]
    if not discards:
        return heuristic(obs, legal)
    scores = {t: wild_shanten(after_removing(hand, t), k, n) for t in discards}
    best = min(scores.values())
    tied = [t for t in discards if scores[t] == best]
    if any(decode_claims(obs, o, 0) == LIABILITY_CLAIMS - 1 for o in OTHERS):
        unseen = decode_unseen(obs)
        risks = {t: _claim_risk(obs, t, unseen) for t in tied}
        tied = [t for t in tied if risks[t] == min(risks.values())]
    if hand[k] and len(tied) > 1:
        dist = {t: _baotou_distance(after_removing(hand, t), k) for t in tied}
        tied = [t for t in tied if dist[t] == min(dist.values())]
    keep = tied + [a for a in legal if A.GANG_SELF <= a < A.HU]
    return heuristic(obs, keep) if len(keep) > 1 else keep[0]


# ------------------------------------------------------------------ claims
def _claim(obs: np.ndarray, legal: list[int], hand: list[int], k: int, n: int, table: _Table) -> int:
    """A discard is offered: keep an 爆头-ready hand (or kong and 飘 from it when that pays),
    never make the third claim on one seat (反承包, §6), else greedy's claim."""
    t = decode_claim(obs)
    d = CHANNELS.decode(obs, "ACTOR")
    if t is None or d == 0:
        return A.PASS if A.PASS in legal else legal[0]
    ready = _ready(hand, k, n)
    before_me = tuple(range(d + 1, 4))  # the seats that draw before my next draw if I pass
    if any(ready):
        e_ready = _wait_exponent(ready, table.piao[0])
        pass_value = table.value(e_ready, table.survive(before_me))
        best, choice = pass_value, A.PASS
        if A.HU in legal:  # a discard win (三连庄, §3) pays 8, never 爆头: the bigger bet wins
            won = list(hand)
            won[t] += 1
            win = best_reading_counts(won, k, n, t, False, 0, 0)
            if win is not None and 8 * 2 ** win[1] > best:
                best, choice = 8 * 2 ** win[1], A.HU
        if A.GANG_CLAIM in legal and any(_ready(after_removing(hand, t, t, t), k, n + 1)):
            sure = table.income() * 2 ** (e_ready + 1)  # the replacement draw wins: 杠开 爆头
            if sure > best:
                best, choice = sure, A.GANG_CLAIM
        if decode_claims(obs, 0, d) < LIABILITY_CLAIMS - 1:  # a claim then a 飘 (§3, after a claim)
            runs = {a: (x, y) for a, x, y in chi_runs(k)[t]}
            for a in legal:
                used = (t, t) if a == A.PENG else runs.get(a)
                if used is None:
                    continue
                after = after_removing(hand, *used)
                if after[k] >= 2:
                    later = _ready(after_removing(after, k), k, n + 1)
                    if any(later):
                        v = table.value(_wait_exponent(later, table.piao[0] + 1), table.survive(OTHERS))
                        if v > best:
                            best, choice = v, a
        return choice
    if A.HU in legal:
        return A.HU
    if decode_claims(obs, 0, d) >= LIABILITY_CLAIMS - 1:  # a third claim makes me liable (反承包)
        return A.PASS
    return heuristic(obs, legal)


def expert(obs: np.ndarray, legal: list[int]) -> int:
    """The expert's choice among ``legal`` (more than one) for a ``hz-v0`` observation."""
    hand = decode_hand(obs)
    k = decode_indicator(obs)
    n = melds_of(hand)
    table = _Table(obs)
    if decode_phase(obs) == "claim":
        return _claim(obs, legal, hand, k, n, table)
    return _turn(obs, legal, hand, k, n, table)


__all__ = ["expert"]

"""Changsha's stronger rule-based player (``ExpertAgent``), reading only its observation.

Each discard (and each PENG / CHI) is scored as an expected value in 片:

- **value** (牌价): the chance to win from the shanten (向听数) left, times what the win pays.
  A small win (平胡) needs a real 将 (2/5/8 pair, §3.1) and pays little; the big shapes
  碰碰胡, 将将胡, 清一色 and 七小对 (§4) pay about six times as much (§8.2), so a discard that
  keeps a big shape one step behind the small one can still be the better one;
- **danger** (放炮风险): each opponent's chance to be ready (听牌) from his melds, the wall
  left and 开杠 (an opponent locked after 开杠 is surely ready, §6.3), times the chance that
  the tile wins for him (lower for kinds he threw himself, suji-like kinds, terminals,
  kinds with every other copy visible; higher in the suit of a one-suit melder), times what
  he would be paid. A hopeless hand late against a ready opponent thus folds (弃和) by
  itself: its value is near zero and only the danger is left.

Wins, opening declarations, kongs, dice and the 海底 are played as ``heuristic`` plays them.
"""

from __future__ import annotations

import numpy as np

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.heuristic import heuristic, improving, minus
from cnmahjong.envs.changsha.observation import (
    CHANNELS,
    WALL_SCALE,
    decode_claim,
    decode_hand,
    decode_phase,
    decode_unseen,
)
from cnmahjong.envs.core.shapes import seven_pairs_shanten, standard_shanten, standard_shanten_after_discard
from cnmahjong.envs.core.tiles import JIANG_KINDS, melds_of

NUM_KINDS = 27
_JIANG = sorted(JIANG_KINDS)
_MELDS, _RIVER = CHANNELS.slice("MELDS"), CHANNELS.slice("RIVER")
_KONGS, _LOCKED = CHANNELS.slice("KONGS"), CHANNELS.slice("LOCKED")
_DEALER, _WALL = CHANNELS.slice("DEALER"), CHANNELS.start("WALL")

# Chance to win the hand from a shanten (0 = ready), before the wall-left factor.
_WIN_CHANCE = (0.42, 0.17, 0.06, 0.02, 0.006, 0.002, 0.0, 0.0, 0.0, 0.0, 0.0)
SMALL_VALUE = 3.0
"""Mean 片 a small win (小胡) brings (self-drawn ones are paid by all three)."""
BIG_VALUE = 18.0
"""Mean 片 a big win (大胡) brings: 6 合-units a payer (§8.2), discounted for its fewer outs."""
UKEIRE_FLOOR = 0.6
"""Share of a discard's value kept when it has no 进张 beside the widest one's."""
HIT = 0.1
"""Chance that a plain middle tile is one of a ready opponent's waits."""
READY_TURN, READY_MELD = 0.04, 0.13
"""An unlocked opponent's chance to be ready grows with his turns and his melds."""
READY_CUT = 0.7
"""Opponents less likely ready than this are not defended against: cheap small wins do not pay for it."""


class _Table:
    """What one observation says about the table, decoded once: the danger of every kind."""

    def __init__(self, obs: np.ndarray) -> None:
        self.wall = int(round(float(obs[_WALL, 0]) * WALL_SCALE)) if obs.dtype.kind == "f" else int(obs[_WALL, 0])
        melds = obs[_MELDS].reshape(4, 4, NUM_KINDS).sum(axis=1).astype(int)
        rivers = obs[_RIVER].reshape(4, 4, NUM_KINDS).sum(axis=1).astype(int)
        kongs = obs[_KONGS].astype(int)
        locked = obs[_LOCKED, 0] > 0
        dealer = int(obs[_DEALER, 0].argmax())
        self.unseen = decode_unseen(obs)
        self.own_melded = melds[0].tolist()
        turns = max(0.0, (55 - self.wall) / 4.0)
        danger = np.zeros(NUM_KINDS)
        self.threat = 0.0
        for o in (1, 2, 3):
            m = melds[o]
            n_kongs = int(kongs[o].sum())
            n_melds = (int(m.sum()) - 4 * n_kongs) // 3 + n_kongs
            ready = 1.0 if locked[o] else min(0.85, max(0.0, READY_TURN * (turns - 4) + READY_MELD * n_melds))
            if ready < READY_CUT:
                continue
            big = _big_chance(m)
            pay = (1 + (dealer in (0, o))) * 1.6 * (1 - big) + (6 + (dealer in (0, o))) * 1.6 * big
            danger += ready * pay * HIT * _wait_weights(m, rivers[o], self.unseen)
            self.threat = max(self.threat, ready)
        self.danger = danger.tolist()

    def win_chance(self, s: int) -> float:
        """Chance to win from shanten ``s`` with the wall left (fewer draws, fewer chances)."""
        return _WIN_CHANCE[max(0, min(s, 10))] * min(1.0, self.wall / 30.0)


def _big_chance(melded: np.ndarray) -> float:
    """How likely an opponent's win is big (大胡), from his melds: one suit, triplets only, all 将."""
    kinds = np.flatnonzero(melded)
    if not len(kinds):
        return 0.12
    suits = {k // 9 for k in kinds}
    chance = 0.1
    if len(suits) == 1:
        chance += 0.25 * min(3, len(kinds))
    if all(melded[k] >= 3 for k in kinds):
        chance += 0.12 * len(kinds)
    if all(k in JIANG_KINDS for k in kinds):
        chance += 0.2 * len(kinds)
    return min(0.9, chance)


def _wait_weights(melded: np.ndarray, river: np.ndarray, unseen: list[int]) -> np.ndarray:
    """Relative chance each kind wins for one ready opponent (1 = a plain middle tile)."""
    w = np.ones(NUM_KINDS)
    kinds = np.flatnonzero(melded)
    suits = {int(k) // 9 for k in kinds}
    for k in range(NUM_KINDS):
        r = k % 9
        f = 0.6 if r in (0, 8) else 0.85 if r in (1, 7) else 1.0
        if river[k]:
            f *= 0.25  # his own discard (现物): rarely his wait, though Changsha has no 振听
        else:
            low = r - 3 >= 0 and river[k - 3]
            high = r + 3 <= 8 and river[k + 3]
            if (low or r - 3 < 0) and (high or r + 3 > 8) and (low or high):
                f *= 0.55  # 筋 (suji): the two-sided waits through it are thrown
        if unseen[k] == 0:
            f *= 0.5  # no pair or single wait on it is left
        elif unseen[k] == 1:
            f *= 0.8
        if len(kinds) >= 2 and len(suits) == 1:
            f *= 2.0 if k // 9 in suits else 0.35  # 清一色 melder
        w[k] = f
    return w


# ------------------------------------------------------------------ hand value
def _pengpeng(c: list[int], n: int) -> int:
    """碰碰胡 shanten of a 3n+1 hand: sets are triplets, pairs wait to become them."""
    sets = n + sum(1 for x in c if x >= 3)
    pairs = sum(1 for x in c if x == 2)
    return 8 - 2 * min(sets, 4) - min(pairs, 5 - min(sets, 4))


def _qingyise(c: list[int], suit: int, n: int) -> int:
    """清一色 shanten of a 3n+1 hand in ``suit``: every other tile must go."""
    own = [x if k // 9 == suit else 0 for k, x in enumerate(c)]
    return max(standard_shanten(own, n), sum(c) - sum(own))


class _Shapes:
    """Which shapes the hand may still make, from its melds (decided once per decision)."""

    def __init__(self, melded: list[int], n: int) -> None:
        held = [k for k in range(NUM_KINDS) if melded[k]]
        self.n = n
        self.pengpeng = all(melded[k] >= 3 for k in held)
        self.jiang = all(k in JIANG_KINDS for k in held)
        self.pairs = n == 0
        suits = {k // 9 for k in held}
        self.suits = suits if len(suits) == 1 else set() if suits else {0, 1, 2}

    def value(self, c: list[int], std: int, table: _Table) -> float:
        """Expected 片 of a 3n+1 hand ``c`` whose standard shanten (false 将 allowed) is ``std``."""
        small = std + (0 if any(c[j] >= 2 for j in _JIANG) else 1)  # 平胡 needs a real 将
        big = 9
        if self.pengpeng:
            big = min(big, _pengpeng(c, self.n))
        if self.jiang:
            big = min(big, sum(c) - sum(c[j] for j in _JIANG))
        if self.pairs:
            big = min(big, seven_pairs_shanten(c))
        for s in self.suits:
            if sum(c) - sum(c[9 * s:9 * s + 9]) <= 4:
                big = min(big, _qingyise(c, s, self.n))
        return max(table.win_chance(small) * SMALL_VALUE, table.win_chance(big) * BIG_VALUE)


def _best_discard(hand: list[int], shapes: _Shapes, table: _Table, kinds: list[int]) -> tuple[float, int]:
    """(score, kind) of the best discard among ``kinds``: value less danger.

    Among the discards of the lowest standard shanten the value grows with the 进张 (unseen
    tiles that improve the hand), so danger does not override a much wider hand."""
    std = standard_shanten_after_discard(hand, shapes.n)
    low = min(std[t] for t in kinds)
    values = {}
    for t in kinds:
        hand[t] -= 1
        values[t] = shapes.value(hand, std[t], table)
        hand[t] += 1
    top = [t for t in kinds if std[t] == low]
    for t in kinds:
        if std[t] != low:
            values[t] *= (1 + UKEIRE_FLOOR) / 2  # 进张 unknown: a middling width
    if len(top) > 1:
        width = {t: improving(minus(hand, t), table.own_melded, shapes.n, low, table.unseen) for t in top}
        most = max(width.values()) or 1
        for t in top:
            values[t] *= UKEIRE_FLOOR + (1 - UKEIRE_FLOOR) * width[t] / most
    return max((values[t] - table.danger[t], t) for t in kinds)


# ------------------------------------------------------------------ decisions
def expert(observation: np.ndarray, legal: list[int]) -> int:
    """The expert's choice among ``legal`` (more than one) for a ``cs-v0`` observation."""
    phase = decode_phase(observation)
    if A.HU in legal or phase in ("haidi", "dice") or any(A.DECLARE <= a < A.DICE_ONE for a in legal):
        return heuristic(observation, legal)
    if any(A.BUZHANG_SELF <= a < A.HU or a in (A.KAIGANG_CLAIM, A.BUZHANG_CLAIM) for a in legal):
        return heuristic(observation, legal)  # kongs: greedy's rules (开杠 when offered)
    if phase == "discard":
        discards = [a for a in legal if a < NUM_KINDS]
        if discards:
            hand = decode_hand(observation)
            table = _Table(observation)
            shapes = _Shapes(table.own_melded, melds_of(hand))
            return _best_discard(hand, shapes, table, discards)[1]
    if phase == "claim" and any(a == A.PENG or a in A.CHI_ACTIONS for a in legal):
        return _claim(observation, legal)
    return A.PASS if A.PASS in legal else legal[0]


def _claim(obs: np.ndarray, legal: list[int]) -> int:
    """PENG / CHI only when the best discard after it beats keeping the hand (value and danger)."""
    claim = decode_claim(obs)
    if not claim:
        return A.PASS
    t = claim[0]
    hand = decode_hand(obs)
    table = _Table(obs)
    n = melds_of(hand)
    here = _Shapes(table.own_melded, n)
    safest = min(table.danger[k] for k in range(NUM_KINDS) if hand[k])
    keep = here.value(hand, standard_shanten(hand, n), table) - safest
    best, best_action = keep + 0.05, A.PASS  # a claim must be worth its exposure
    for a in legal:
        run = (t, t, t) if a == A.PENG else A.chi_run(a, t) if a in A.CHI_ACTIONS else None
        if run is None:
            continue
        after = list(hand)
        melded = list(table.own_melded)
        for x in run:
            melded[x] += 1
        after[t] += 1
        for x in run:
            after[x] -= 1
        if min(after) < 0:
            continue
        shapes = _Shapes(melded, n + 1)
        kinds = [k for k in range(NUM_KINDS) if after[k] and k != t]
        if not kinds:
            continue
        score = _best_discard(after, shapes, table, kinds)[0]
        if score > best:
            best, best_action = score, a
    return best_action

"""Sichuan's stronger rule-based player (``ExpertAgent``), reading only its ``sc-v0`` planes.

Every discard, claim and kong is scored as an expected value in points (units of ``base``):

- **value** (牌价) of the 13-tile hand it keeps: for each target shape it can still reach, the
  chance to complete it before the wall runs out (its shanten, the unseen tiles that improve it,
  the draws left and, for the last step, the other remaining seats' discards: §3 every
  remaining seat may win on a discard) times what the win pays. The targets are the plain
  standard hand, 清一色 in each kept suit, 对对胡, 七对 and their one-suit forms, with their §5 fan
  (清一色 2, 对对 1, 七对 2, 根 1 each, capped at 3 fan: ``V(F) = 2**min(F, 3)``). A one-suit target
  is only open while every meld is of that suit (§5 QINGYISE counts melds). A self-draw is paid
  by every remaining seat plus the 加底 (§5, §6.2), and a win takes the seat out of the hand
  (§4), so it pays no later self-draw, 查大叫 or 花猪 money: the value of any win includes that
  escape. Being ready (有叫) at exhaustion is worth something too (§7 查大叫).
- **danger** (放炮风险) of the tile thrown: for each opponent still in (seats that won have left,
  §4, and are ignored), the chance he is ready (his discards so far and his PENGs; one whose
  latest discard was of his own void suit still holds a void tile and cannot win, D1/D3),
  times the chance the tile is a wait (never a tile of his void suit, D3; less for terminals
  and kinds he threw himself; more in the suit he is visibly collecting), times what he would
  be paid (2**F, more for a one-suit collector).

The opening: 定缺 (§2.2) is the suit with the fewest tiles (each is a forced discard, D1), ties to
the one whose removal leaves the lower shanten; 换三张 (§2.1) gives three tiles of the legal suit
it holds fewest of (greedy's pick, the same plan: those tiles would be shed anyway). A
shanten-driven void choice that kept more tiles to shed measured worse in the arena.
While it holds void tiles it must throw them (D1): the most dangerous first, while the others
are least likely ready. It always wins when it can (HU: the win ends its risk, §4), claims a
PENG or a kong and makes its own kongs when the value says so (kong money, §6.1, and 根 count).
"""

from __future__ import annotations

import numpy as np

from cnmahjong.envs.core.shapes import (
    seven_pairs_shanten,
    standard_shanten,
    standard_shanten_after_draw,
)
from cnmahjong.envs.sichuan import actions as A
from cnmahjong.envs.sichuan.heuristic import heuristic
from cnmahjong.envs.sichuan.observation import CHANNELS, KINDS, SUIT_LABELS

SUIT = 9
OTHERS = (1, 2, 3)
"""The other seats, relative: 下家, 对家, 上家."""
CAP = 3
"""§5 default 封顶: the fan the value model caps at."""
SELF_DRAW_SHARE = 0.4
"""Share of wins that are self-drawn (paid by every remaining seat, §6.2)."""
ESCAPE = 2.0
"""Points a win early in the hand saves by leaving it (§4), scaled by the share of the wall left."""
READY_BONUS = 2.0
"""Points being ready at exhaustion is worth (§7 查大叫 received rather than paid)."""
MID_STEP = {"std": 1.0, "flush": 0.75, "pairs": 0.7, "seven": 0.6}
"""Per target family, the share of the typical step rate (``LEVEL_Q``) of the steps after the first."""
LEVEL_Q = {1: 0.2, 2: 0.32, 3: 0.42, 4: 0.5}
"""Chance per round to go from shanten k to k − 1 in a typical standard hand."""
DISCOUNT = 0.88
"""A win one round later is worth this share (the others win and self-draw meanwhile)."""
DANGER_WEIGHT = 1.0
FIRST = 1.15
_HAND, _MELDS, _RIVER = CHANNELS.slice("HAND"), CHANNELS.slice("MELDS"), CHANNELS.slice("RIVER")
_RECENT, _WON = CHANNELS.slice("RECENT_DISCARDS"), CHANNELS.slice("WON_TILE")


def _suit_of(t: int) -> int:
    return t // SUIT


class _View:
    """What one observation tells: own hand and melds, voids, who is still in, unseen tiles."""

    def __init__(self, obs: np.ndarray) -> None:
        self.hand: list[int] = obs[_HAND].sum(axis=0).astype(int).tolist()
        melds = obs[_MELDS].reshape(4, 4, KINDS).sum(axis=1).astype(int)
        rivers = obs[_RIVER].reshape(4, 4, KINDS).sum(axis=1).astype(int)
        won = obs[_WON].sum(axis=0).astype(int)
        self.melded: list[int] = melds[0].tolist()
        self.meld_kinds = [t for t in range(KINDS) if self.melded[t]]
        self.n_melds = len(self.meld_kinds)
        voids = CHANNELS.decode(obs, "VOID")
        self.voids: list[int | None] = [None if v == "unknown" else SUIT_LABELS.index(v) - 1 for v in voids]
        self.void = self.voids[0]
        outs = CHANNELS.decode(obs, "OUT")
        self.inside = [o == "in" for o in outs]
        self.phase: str = CHANNELS.decode(obs, "PHASE")
        self.wall: int = CHANNELS.decode(obs, "WALL")
        self.unseen: list[int] = np.maximum(
            0, 4 - melds.sum(axis=0) - rivers.sum(axis=0) - won - obs[_HAND].sum(axis=0)).astype(int).tolist()
        self.rivers = rivers
        self.melds = melds
        recent = obs[_RECENT].reshape(4, -1, KINDS)
        self.last = [int(recent[s, 0].argmax()) if recent[s, 0].any() else None for s in range(4)]
        self.players_in = sum(self.inside)
        self._danger: list[float] | None = None
        self.obs = obs

    # ---------------------------------------------------------------- table model
    def rounds(self) -> float:
        """Own draws left, about: the wall shared by the seats still in."""
        return self.wall / max(1, self.players_in)

    def win_value(self, fan: int) -> float:
        """Expected points a win of ``fan`` brings (§5, §6.2), plus leaving the hand (§4)."""
        v = 2 ** min(fan, CAP)
        payers = max(1, self.players_in - 1)
        return SELF_DRAW_SHARE * payers * (v + 1) + (1 - SELF_DRAW_SHARE) * v + ESCAPE * self.wall / 55.0

    def danger(self) -> list[float]:
        """Expected points lost by throwing each kind (see the module docstring)."""
        if self._danger is not None:
            return self._danger
        out = [0.0] * KINDS
        for o in OTHERS:
            if not self.inside[o]:
                continue
            ov = self.voids[o]
            n_disc = int(self.rivers[o].sum())
            m = self.melds[o]
            kinds = [t for t in range(KINDS) if m[t]]
            ready = min(0.85, max(0.0, 0.05 * (n_disc - 4) + 0.12 * len(kinds)))
            if ov is not None and self.last[o] is not None and _suit_of(self.last[o]) == ov:
                ready *= 0.3  # D1: he just threw a void tile, he may hold more: no win (D3)
            if ready <= 0.0:
                continue
            flush = self._collecting(o, kinds, ov)
            for t in range(KINDS):
                s = _suit_of(t)
                if s == ov:
                    continue
                r = t % SUIT
                hit = 0.06 if r in (0, 8) else 0.09 if r in (1, 7) else 0.12
                if self.rivers[o][t]:
                    hit *= 0.5
                if self.unseen[t] == 0:
                    hit *= 0.6
                cost = 2.5
                if flush is not None:
                    if s == flush:
                        hit *= 2.0
                        cost = 6.0
                    else:
                        hit *= 0.3
                out[t] += ready * hit * cost
        self._danger = out
        return out

    def _collecting(self, o: int, kinds: list[int], ov: int | None) -> int | None:
        """The suit opponent ``o`` visibly collects (清一色): all his melds of one suit (two at
        least), or many discards none of which is of a kept suit."""
        suits = {_suit_of(t) for t in kinds}
        if len(kinds) >= 2 and len(suits) == 1:
            return suits.pop()
        if ov is None:
            return None
        river = self.rivers[o]
        kept = [s for s in range(3) if s != ov]
        per = [int(river[s * SUIT:(s + 1) * SUIT].sum()) for s in kept]
        if sum(per) >= 6 and min(per) == 0 and (not suits or suits == {kept[per.index(0)]}):
            return kept[per.index(0)]
        return None


# ------------------------------------------------------------------ shape targets
def _pairs_shanten(c: list[int], melds: int) -> int:
    """对对胡 shanten of concealed counts beside ``melds`` PENG/kong melds (all melds are triplets
    in Sichuan: no CHI, §3)."""
    trips = sum(1 for x in c if x >= 3)
    pairs = sum(1 for x in c if x == 2)
    sets = min(4, melds + trips)
    if pairs:
        return 8 - 2 * sets - min(pairs - 1, 4 - sets) - 1
    return 8 - 2 * sets


def _complete(s: int, q1: float, q_mid: float, q_win: float, rounds: float) -> tuple[float, float]:
    """(discounted chance to win, chance to be ready at the end) from shanten ``s`` within
    ``rounds`` rounds: one step a round at most, the first with ``q1``, the later steps from
    shanten k with ``q_mid`` times the level's typical rate, the win with ``q_win``. A win ``r``
    rounds away counts ``DISCOUNT**r``: the others win and self-draw meanwhile (§4, §6.2)."""
    n = int(rounds + 0.5)
    steps = s + 1
    if s > 0:
        probs = [q1] + [min(0.9, q_mid * LEVEL_Q[min(k, 4)]) for k in range(s - 1, 0, -1)] + [q_win]
    else:
        probs = [q_win]
    dist = [1.0] + [0.0] * steps  # dist[i]: i steps made
    won = 0.0
    weight = 1.0
    for _ in range(n):
        weight *= DISCOUNT
        new = dist[:]
        for i in range(steps):
            moved = dist[i] * probs[i]
            new[i] -= moved
            new[i + 1] += moved
        won += (new[steps] - dist[steps]) * weight
        dist = new
    return won, dist[steps - 1]


def _gen(c: list[int], melded: list[int], kinds: range | None = None) -> int:
    """根 already held: kinds of which all four copies are in the hand or the melds (§5)."""
    return sum(1 for t in (kinds or range(KINDS)) if c[t] + melded[t] == 4)


def hand_value(v: _View, c: list[int], n_melds: int) -> float:
    """Expected points of keeping concealed counts ``c`` (3n+1 tiles) beside ``n_melds`` melds."""
    void = v.void
    kept = list(c)
    if void is not None:
        kept[void * SUIT:(void + 1) * SUIT] = [0] * SUIT
    unseen = v.unseen
    total = max(1, sum(unseen))
    rounds = v.rounds()
    others = max(1, v.players_in - 1)
    meld_suits = {_suit_of(t) for t in v.meld_kinds}
    best = 0.0
    after = standard_shanten_after_draw(kept, n_melds)
    s_std = standard_shanten(kept, n_melds)

    def per_round(u: float, chances: float) -> float:
        return 1.0 - (1.0 - min(0.95, u / total)) ** chances

    def score(s: int, u: int, fan: int, family: str) -> float:
        if s < 0:
            return v.win_value(fan)
        q_win_now = per_round(u, 1 + 0.8 * others)
        q1 = q_win_now if s == 0 else per_round(u, FIRST)
        q_win = per_round(6 if family != "seven" else 3, 1 + 0.8 * others)
        win, ready = _complete(s, q1, MID_STEP[family], q_win, rounds)
        return win * v.win_value(fan) + (ready - win if s > 0 else 1.0 - win) * READY_BONUS * (1.0 - rounds / 14)

    allowed = [t for t in range(KINDS) if void is None or _suit_of(t) != void]
    # the plain standard hand (清一色 when it is one suit already)
    u = sum(unseen[t] for t in allowed if after[t] < s_std)
    suits_now = {_suit_of(t) for t in range(KINDS) if kept[t]} | meld_suits
    gen = _gen(kept, v.melded)
    best = max(best, score(s_std, u, gen + (2 if len(suits_now) == 1 else 0), "std"))
    # 清一色 in each suit it could still make
    for x in range(3):
        if x == void or (meld_suits and meld_suits != {x}) or (suits_now == {x}):
            continue
        cx = [0] * KINDS
        cx[x * SUIT:(x + 1) * SUIT] = kept[x * SUIT:(x + 1) * SUIT]
        sx = standard_shanten(cx, n_melds)
        if sx > 4:
            continue
        ax = standard_shanten_after_draw(cx, n_melds)
        ux = sum(unseen[t] for t in range(x * SUIT, (x + 1) * SUIT) if ax[t] < sx)
        best = max(best, score(sx, ux, 2 + _gen(cx, v.melded, range(x * SUIT, (x + 1) * SUIT)), "flush"))
    # 对对胡 (and its one-suit form)
    sp = _pairs_shanten(kept, n_melds)
    if sp <= 4:
        trips = sum(1 for x in kept if x >= 3)
        pairs = sum(1 for x in kept if x == 2)
        need_pairs = pairs - 1 < 4 - min(4, n_melds + trips)
        up = sum(unseen[t] * (1 + 0.8 * others) for t in allowed if kept[t] == 2)
        if need_pairs:
            up += sum(unseen[t] for t in allowed if kept[t] == 1)
        fan = 1 + gen + (2 if len(suits_now) == 1 else 0)
        best = max(best, score(sp, int(up), fan, "pairs"))
    # 七对 (no melds)
    if n_melds == 0:
        s7 = seven_pairs_shanten(kept)
        if s7 <= 4:
            u7 = sum(unseen[t] for t in allowed if kept[t] in (1, 3))
            fan = 2 + sum(1 for x in kept if x == 4) + (2 if len(suits_now) == 1 else 0)
            best = max(best, score(s7, u7, fan, "seven"))
    return best


# ------------------------------------------------------------------ decisions
def _minus(c: list[int], *tiles: int) -> list[int]:
    out = list(c)
    for t in tiles:
        out[t] -= 1
    return out


def _void_key(hand: list[int], s: int) -> tuple[int, int]:
    """How costly suit ``s`` is as the void: (tiles of ``s`` to shed, shanten of the rest)."""
    rest = list(hand)
    rest[s * SUIT:(s + 1) * SUIT] = [0] * SUIT
    return sum(hand[s * SUIT:(s + 1) * SUIT]), min(standard_shanten(rest, 0), seven_pairs_shanten(rest))


def _choose_void(v: _View, legal: list[int]) -> int:
    """定缺 (§2.2): the suit with the fewest tiles (each costs a forced discard, D1), then the one
    whose removal leaves the lower shanten."""
    return min(legal, key=lambda a: (*_void_key(v.hand, a - A.VOID), a))


def _discard_scores(v: _View, hand: list[int], n_melds: int, discards: list[int]) -> dict[int, float]:
    danger = v.danger()
    return {t: hand_value(v, _minus(hand, t), n_melds) - DANGER_WEIGHT * danger[t] for t in discards}


def _turn(obs: np.ndarray, v: _View, legal: list[int]) -> int:
    hand = v.hand
    discards = [a for a in legal if a < KINDS]
    void = v.void
    if void is not None and discards and all(_suit_of(t) == void for t in discards) and any(
            hand[t] for t in range(void * SUIT, (void + 1) * SUIT)):
        danger = v.danger()  # D1: void tiles first, the most dangerous while few are ready
        return max(discards, key=lambda t: (round(danger[t], 3), -hand[t], abs(t % SUIT - 4), -t))
    scores = _discard_scores(v, hand, v.n_melds, discards)
    best_t = max(scores, key=lambda t: (scores[t], t))
    best = scores[best_t]
    for a in legal:
        if A.GANG_SELF <= a < A.HU:  # 暗杠 (2 from each remaining seat) or 补杠 (1 each), §6.1
            t = a - A.GANG_SELF
            concealed = hand[t] == 4
            after = _minus(hand, *([t] * (4 if concealed else 1)))
            money = (2 if concealed else 1) * max(1, v.players_in - 1)
            kept = hand_value(v, after, v.n_melds + concealed)  # 3n+1 tiles before the replacement draw
            if kept + money >= best - 0.5:
                return a
    return best_t


def _claim(obs: np.ndarray, v: _View, legal: list[int]) -> int:
    """A discard (or a 补杠) is offered: PENG or 直杠 when the value says so, else PASS."""
    t = CHANNELS.decode(obs, "OFFERED")
    if t is None:
        return A.PASS if A.PASS in legal else legal[0]
    hand = v.hand
    stay = hand_value(v, hand, v.n_melds)
    choice, best = A.PASS, stay
    if A.GANG_CLAIM in legal:
        after = _minus(hand, t, t, t)
        value = hand_value(v, after, v.n_melds + 1) + 2.0  # 直杠 money (§6.1) and a draw
        if value >= best:
            choice, best = A.GANG_CLAIM, value
    if A.PENG in legal:
        after = _minus(hand, t, t)
        danger = v.danger()
        v.meld_kinds = [*v.meld_kinds, t]
        if void_held(v, after):
            opts = [u for u in range(v.void * SUIT, (v.void + 1) * SUIT) if after[u]]
        else:
            opts = [u for u in range(KINDS) if after[u]]
        value = max(hand_value(v, _minus(after, u), v.n_melds + 1) - DANGER_WEIGHT * danger[u] for u in opts)
        v.meld_kinds = v.meld_kinds[:-1]
        if value > best + 0.05:
            choice, best = A.PENG, value
    return choice


def void_held(v: _View, c: list[int]) -> bool:
    """D1: the counts ``c`` hold a tile of the own void suit."""
    return v.void is not None and any(c[v.void * SUIT:(v.void + 1) * SUIT])


def expert(obs: np.ndarray, legal: list[int]) -> int:
    """The expert's choice among ``legal`` for an ``sc-v0`` observation (see the module docstring)."""
    if len(legal) == 1:
        return legal[0]
    if A.HU in legal:
        return A.HU
    v = _View(obs)
    if legal[0] >= A.VOID:
        return _choose_void(v, legal)
    if legal[0] >= A.SWAP:  # 换三张: the suit it will drop (fewest tiles, as 定缺 picks), lowest first
        return heuristic(obs, legal)
    if v.phase in ("claim", "rob"):
        return _claim(obs, v, legal)
    return _turn(obs, v, legal)


__all__ = ["expert", "hand_value"]

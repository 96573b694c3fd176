"""Changsha's rule-based player (``GreedyAgent``'s play here), reading only its observation. It

- always wins (HU) when it can, and declares opening wins;
- discards to minimise shanten (向听数 over the standard, seven-pairs and all-将
  shapes, false 将 included), breaking ties by how many unseen tiles would then
  improve the hand (进张), then by the higher tile kind;
- claims PENG / CHI only when that lowers its shanten;
- opens 开杠 whenever it may (the engine offers it only when ready) and makes
  补张 kongs when they do not set the hand back;
- takes the 海底 when ready; a 开杠 with a choice uses two dice.

It reads a few facts (phase, own hand and melds, the tiles on offer, the unseen counts): from the
observation planes (``heuristic``) or, in rollouts, from the game itself (``heuristic_on_game``:
the same facts of the same seat without encoding and decoding planes; the same choices, tested).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.observation import CHANNELS, decode_claim, decode_melded
from cnmahjong.envs.changsha.patterns import shanten, shanten_after_discard, shanten_changed_row
from cnmahjong.envs.core.engine import offered
from cnmahjong.envs.core.seat_facts import SeatFacts
from cnmahjong.envs.core.shapes import counts_for, lowest_held, new_row
from cnmahjong.envs.core.tiles import counts_copy, melds_of

NUM_KINDS = 27

# The actions the player compares and returns, read once here: a module attribute (``A.HU``) is a
# lookup per use, these compile to C ints (heuristic.pxd).
_HU, _PASS, _PENG, _DECLARE, _DICE_ONE, _DICE_TWO = A.HU, A.PASS, A.PENG, A.DECLARE, A.DICE_ONE, A.DICE_TWO
_BUZHANG_CLAIM, _KAIGANG_CLAIM, _BUZHANG_SELF, _KAIGANG_SELF = (A.BUZHANG_CLAIM, A.KAIGANG_CLAIM, A.BUZHANG_SELF,
                                                                A.KAIGANG_SELF)
_HAIDI_TAKE, _HAIDI_DECLINE, _CHI_LOW, _CHI_HIGH = A.HAIDI_TAKE, A.HAIDI_DECLINE, A.CHI_LOW, A.CHI_HIGH


class _Facts(SeatFacts):
    """The facts the player reads: decoded from a ``cs-v0`` observation, or read from the game for
    ``seat`` (what its observation encodes)."""

    __slots__ = ()
    CHANNELS = CHANNELS

    def melded(self) -> list[int] | bytearray:
        if self.game is None:
            return decode_melded(self.obs, 0)
        return counts_copy(self.game.melded[self.seat])  # a copy the shapes read without converting

    def claim(self) -> list[int]:
        if self.game is None:
            return decode_claim(self.obs)
        window = self.game._window
        return [] if window is None else sorted(window.tiles)


def heuristic(observation: np.ndarray, legal: list[int]) -> int:
    """The greedy choice among ``legal`` (more than one) for a ``cs-v0`` observation."""
    return _decide(_Facts(observation), legal)


def heuristic_on_game(game: Any, seat: int, legal: list[int]) -> int:
    """``heuristic`` for ``seat`` of ``game``, its facts read from the game instead of planes."""
    facts = _Facts.__new__(_Facts)  # no __init__ (compiled, a C allocation: one a decision)
    facts.obs, facts.game, facts.seat = None, game, seat
    return _decide(facts, legal)


@cython.locals(a=cython.int, phase=str)
def _decide(facts: _Facts, legal: list[int]) -> int:
    if offered(legal, _HU):  # a C loop over the list (``in`` compares objects)
        return _HU
    for a in legal:  # the first opening declaration (C loops: no list of them made)
        if _DECLARE <= a < _DICE_ONE:
            return a
    phase = facts.phase()
    hand = facts.hand()
    melded = facts.melded()
    if phase == "haidi":
        ready = shanten(hand, melded, melds_of(hand)) <= 0
        return _HAIDI_TAKE if ready and offered(legal, _HAIDI_TAKE) else _HAIDI_DECLINE
    if phase == "dice":
        return _DICE_TWO if offered(legal, _DICE_TWO) else legal[0]
    for a in legal:  # the first 开杠
        if _KAIGANG_SELF <= a < _HU or a == _KAIGANG_CLAIM:
            return a
    if phase == "claim":
        return _claim(facts, legal, hand, melded)
    if phase == "discard":
        return _discard(facts, legal, hand, melded)
    return _PASS if offered(legal, _PASS) else legal[0]


def _claim(facts: _Facts, legal: list[int], hand: list[int], melded: list[int]) -> int:
    claim = facts.claim()
    if not claim:
        return _PASS
    t = claim[0]
    n = melds_of(hand)
    base = shanten(hand, melded, n)
    if offered(legal, _BUZHANG_CLAIM):
        after = hand[:]
        after[t] -= 3
        if shanten(after, _plus(melded, t, 4), n + 1) <= base:
            return _BUZHANG_CLAIM
    best, best_action = base, _PASS
    for a in legal:
        if a == _PENG:
            used = [t, t]
        elif _CHI_LOW <= a <= _CHI_HIGH:
            used = [x for x in A.chi_run(a, t) if x != t]
        else:
            continue
        after = hand[:]
        for x in used:
            after[x] -= 1
        new_melded = melded[:]
        for x in (A.chi_run(a, t) if _CHI_LOW <= a <= _CHI_HIGH else (t, t, t)):
            new_melded[x] += 1
        s = lowest_held(shanten_after_discard(after, new_melded, n + 1), after)
        if s < best:
            best, best_action = s, a
    return best_action


@cython.locals(best_t=cython.int, most=cython.int, x=cython.int, a=cython.int, t=cython.int, best=cython.int,
               discards=list, tied=list, work=bytearray, lp=cython.p_uchar)
def _discard(facts: _Facts, legal: list[int], hand: list[int], melded: list[int]) -> int:
    n = melds_of(hand)
    left = new_row(NUM_KINDS)  # ``shanten_after_discard`` as a row (each value plus one), read in C
    shanten_changed_row(hand, melded, n, -1, left)
    lp = left
    discards = []
    best = 10  # the lowest a discard leaves, plus one (``lowest_of``: 9 when there is none)
    for a in legal:
        if a < NUM_KINDS:
            discards.append(a)
            if lp[a] < best:
                best = lp[a]
    best -= 1
    for a in legal:
        if _BUZHANG_SELF <= a < _KAIGANG_SELF:
            t = a - _BUZHANG_SELF
            after = hand[:]
            after[t] = 0 if hand[t] == 4 else hand[t] - 1
            new_n = n + 1 if hand[t] == 4 else n
            # the replacement tile is unknown: keep the kong if the hand is no worse without it
            if shanten(after, _plus(melded, t, 4), new_n) <= best:
                return a
    if not discards:
        return legal[0]
    tied = []
    for t in discards:
        if lp[t] - 1 == best:
            tied.append(t)
    if len(tied) == 1:
        return tied[0]
    unseen = facts.unseen()
    best_t, most = -1, -1
    work = counts_copy(hand)  # each tied discard taken out of one copy and put back (its bytes C bytes)
    for t in tied:  # the most 进张, then the higher kind (a loop: no key tuples, compiled a C loop)
        work[t] -= 1
        x = improving(work, melded, n, best, unseen)
        work[t] += 1
        if x > most or x == most and t > best_t:
            best_t, most = t, x
    return best_t


def minus(hand: list[int], t: int) -> list[int]:
    out = hand[:]  # the same type: a game's bytearray stays one (read by the shapes without converting)
    out[t] -= 1
    return out


def _plus(counts: list[int], t: int, value: int) -> list[int]:
    out = counts[:]
    out[t] = value
    return out


@cython.locals(k=cython.int, total=cython.int, u=cython.int, x=cython.int, a=cython.p_uchar,
               up=cython.p_uchar)
def improving(hand: list[int], melded: list[int], n: int, current: int, unseen: list[int] | bytearray) -> int:
    """进张: unseen copies of the kinds whose draw lowers the shanten of the 3n+1 ``hand``."""
    after = new_row(NUM_KINDS)  # the shanten after each draw, plus one (``shapes.row_values``)
    shanten_changed_row(hand, melded, n, 1, after)
    a = after
    counts = counts_for(unseen, NUM_KINDS, "unseen counts")  # the game's facts' bytearray (worlds.unseen_row)
    up = counts  # read through a C pointer
    total = 0
    for k in range(NUM_KINDS):  # a plain loop over typed names: a C loop in the compiled build
        u = up[k]
        x = a[k]
        if u and x <= current:  # the shanten (x - 1) below current
            total += u
    return total

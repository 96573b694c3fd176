"""Sichuan's greedy player (``GreedyAgent``'s play here), from the ``sc-v0`` planes alone.

换三张: the three tiles of the suit it holds fewest of (with at least three), lowest first; 定缺:
the suit it holds fewest of; D1: the void tiles first, singles before pairs. Otherwise it wins
when it can, discards to minimise shanten (standard form, or seven pairs with no melds) counted
without the void suit, ties broken by the kinds that would then improve the hand (进张) and
then the higher kind; PENG when it lowers the shanten, a kong when it does not set the hand
back (no defence, no value bets: those are the expert's, later).

It reads a few facts (phase, own hand and void, the tile on offer): from the observation planes
(``heuristic``) or, in rollouts, from the game itself (``heuristic_on_game``: the same facts of the
same seat; the same choices, tested).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.core.engine import ClaimWindow
from cnmahjong.envs.core.seat_facts import Observed, OnGame
from cnmahjong.envs.core.shapes import (
    lowest_held,
    lowest_of,
    new_row,
    seven_pairs_shanten,
    shanten_one_changed,
    standard_shanten,
    standard_shanten_changed_row,
)
from cnmahjong.envs.core.tiles import melds_of
from cnmahjong.envs.sichuan import actions as A
from cnmahjong.envs.sichuan.observation import CHANNELS, KINDS, SUIT_LABELS
from cnmahjong.envs.sichuan.patterns import holds_void

SUIT = 9
_NO_SUIT = bytes(SUIT)


class _Observed(Observed):
    """The facts the player reads, decoded from an ``sc-v0`` observation."""

    __slots__ = ()
    CHANNELS = CHANNELS

    def void(self) -> int | None:
        """The seat's own void suit, None until every seat's is shown."""
        void = CHANNELS.decode(self.obs, "VOID", 0)
        return None if void == "unknown" else SUIT_LABELS.index(void) - 1

    def offered(self) -> int | None:
        return CHANNELS.decode(self.obs, "OFFERED")


class _OnGame(OnGame):
    """The same facts read from the game for ``seat`` (what its observation encodes)."""

    __slots__ = ()

    def void(self) -> int | None:
        voids = self.game.voids
        return None if voids is None else voids[self.seat]

    def offered(self) -> int | None:
        window = self.game._window
        return window.tiles[0] if isinstance(window, ClaimWindow) else None


def _without(hand: list[int], void: int | None, *removed: int) -> list[int]:
    out = hand[:]  # the same type: a game's bytearray stays one (read by the shapes without converting)
    for t in removed:
        out[t] -= 1
    if void is not None:
        out[SUIT * void:SUIT * void + SUIT] = _NO_SUIT  # bytes: a bytearray takes them in one copy
    return out


def shanten(hand: list[int], melds: int) -> int:
    """Shanten of the counts beside ``melds`` melds: standard form, or seven pairs when concealed."""
    s = standard_shanten(hand, melds)
    return min(s, seven_pairs_shanten(hand)) if melds == 0 else s


def _suit_counts(hand: list[int]) -> list[int]:
    return [sum(hand[SUIT * s:SUIT * s + SUIT]) for s in range(3)]


def heuristic(obs: np.ndarray, legal: list[int]) -> int:
    """The greedy choice among ``legal`` for an ``sc-v0`` observation."""
    return _decide(_Observed(obs), legal)


def heuristic_on_game(game: Any, seat: int, legal: list[int]) -> int:
    """``heuristic`` for ``seat`` of ``game``, its facts read from the game instead of planes."""
    return _decide(_OnGame(game, seat), legal)


@cython.locals(best=cython.int, best_t=cython.int, most=cython.int, x=cython.int, left=list)
def _decide(facts: Any, legal: list[int]) -> int:
    if A.HU in legal:
        return A.HU
    hand, void, phase = facts.hand(), facts.void(), facts.phase()
    if legal[0] >= A.VOID:  # 定缺: the suit it holds fewest of (then fewest pairs)
        return min(legal, key=lambda a: (_suit_counts(hand)[a - A.VOID], sum(
            hand[t] >= 2 for t in range(SUIT * (a - A.VOID), SUIT * (a - A.VOID + 1))), a))
    if legal[0] >= A.SWAP:  # 换三张: the legal suit it holds fewest of, its lowest legal tile
        counts = _suit_counts(hand)
        return min(legal, key=lambda a: (counts[(a - A.SWAP) // SUIT], a))
    n = melds_of(hand)
    if phase in ("claim", "rob"):
        return _claim(facts, legal, hand, void, n)
    discards = [a for a in legal if a < KINDS]
    if holds_void(hand, void):
        return min(discards, key=lambda t: (hand[t], -abs(t % SUIT - 4), t))  # D1: singles, edges first
    left = shanten_one_changed(hand, n, -1)  # ``shanten`` after each discard (no void tile held here)
    best = lowest_of(left, discards)
    gang_self, hu = A.GANG_SELF, A.HU  # read once: a module attribute is a lookup a read
    for a in legal:
        if gang_self <= a < hu:  # own kong, kept when the hand is no worse without the tiles
            t = a - gang_self
            concealed = hand[t] == 4
            if shanten(_without(hand, void, *([t] * (4 if concealed else 1))), n + concealed) <= best:
                return a
    tied = [t for t in discards if left[t] == best]
    if len(tied) == 1:
        return tied[0]
    best_t, most = -1, -1
    for t in tied:  # the most 进张, then the higher kind (a loop: no key tuples, compiled C ints)
        x = improving(_without(hand, void, t), n, best, void)
        if x > most or x == most and t > best_t:
            best_t, most = t, x
    return best_t


@cython.locals(best=cython.int, u=cython.int, v=cython.int, x=cython.int, total=cython.int, a=cython.p_uchar)
def improving(rest: list[int], n: int, best: int, void: int | None) -> int:
    """Kinds (outside the void) whose draw would lower the shanten of ``rest`` (a discard made)
    below ``best``."""
    after = new_row(KINDS)  # the shanten after each draw, plus one (``shapes.row_values``)
    standard_shanten_changed_row(rest, n, 1, after)
    a = after
    v = -1 if void is None else void
    total = 0
    for u in range(KINDS):  # a loop over typed names: a C loop in the compiled build
        x = a[u]
        if x <= best and u // SUIT != v:  # the shanten (x - 1) below best
            total += 1
    return total


def _claim(facts: Any, legal: list[int], hand: list[int], void: int | None, n: int) -> int:
    """PENG or 直杠 on the offered tile when it does not set the hand back; else PASS."""
    t = facts.offered()
    if t is None:
        return A.PASS
    base = shanten(_without(hand, void), n)
    if A.GANG_CLAIM in legal and shanten(_without(hand, void, t, t, t), n + 1) <= base:
        return A.GANG_CLAIM
    if A.PENG in legal:
        rest = _without(hand, void, t, t)
        # D2 lets a seat holding void tiles PENG: with nothing else left, its discard is a void
        # tile and the hand outside the void gains nothing (``base``)
        after = lowest_held(shanten_one_changed(rest, n + 1, -1), rest)  # 9: nothing left to discard
        if after == 9:
            after = base
        if after < base:
            return A.PENG
    return A.PASS

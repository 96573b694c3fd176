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

from cnmahjong.envs.core.engine import ClaimWindow, offered
from cnmahjong.envs.core.seat_facts import SeatFacts
from cnmahjong.envs.core.shapes import (
    counts_for,
    lowest_held,
    lowest_of,
    new_row,
    seven_pairs_shanten,
    shanten_one_changed,
    standard_shanten,
    standard_shanten_changed_row,
)
from cnmahjong.envs.core.tiles import counts_copy, melds_of
from cnmahjong.envs.sichuan import actions as A
from cnmahjong.envs.sichuan.observation import CHANNELS, KINDS, SUIT_LABELS
from cnmahjong.envs.sichuan.patterns import holds_void

SUIT = 9
# The actions the player compares and returns, read once here: a module attribute (``A.HU``) is a
# lookup per use, these compile to C ints (heuristic.pxd).
_HU, _PASS, _PENG, _VOID, _SWAP = A.HU, A.PASS, A.PENG, A.VOID, A.SWAP
_GANG_SELF, _GANG_CLAIM = A.GANG_SELF, A.GANG_CLAIM
_NO_SUIT = bytearray(SUIT)
"""A void suit's zero counts (read only): a bytearray, which a bytearray's slice takes in one copy
(``bytes`` there is first copied into a new bytearray by CPython: a type call per use)."""


class _Facts(SeatFacts):
    """The facts the player reads: decoded from an ``sc-v0`` observation, or read from the game for
    ``seat`` (what its observation encodes)."""

    __slots__ = ()
    CHANNELS = CHANNELS

    def void(self) -> int | None:
        """The seat's own void suit, None until every seat's is shown."""
        if self.game is None:
            void = CHANNELS.decode(self.obs, "VOID", 0)
            return None if void == "unknown" else SUIT_LABELS.index(void) - 1
        voids = self.game.voids
        return None if voids is None else voids[self.seat]

    def offered(self) -> int | None:
        if self.game is None:
            return CHANNELS.decode(self.obs, "OFFERED")
        window = self.game._window
        return window.tiles[0] if isinstance(window, ClaimWindow) else None


def _without(hand: list[int], void: int | None, t: int = 0, k: int = 0) -> list[int]:
    """``hand`` less ``k`` copies of kind ``t``, its void suit (if any) emptied: a copy."""
    out = hand[:]  # the same type: a game's bytearray stays one (read by the shapes without converting)
    if k:
        out[t] -= k
    if void is not None:
        out[SUIT * void:SUIT * void + SUIT] = _NO_SUIT
    return out


def shanten(hand: list[int], melds: int) -> int:
    """Shanten of the counts beside ``melds`` melds: standard form, or seven pairs when concealed."""
    s = standard_shanten(hand, melds)
    return min(s, seven_pairs_shanten(hand)) if melds == 0 else s


@cython.locals(s=cython.int, t=cython.int, total=cython.int, p=cython.p_uchar)
def _suit_counts(hand: list[int] | bytearray) -> list[int]:
    """Tiles held of each suit (a loop over the counts read as bytes: no slice or sum per suit)."""
    counts = counts_for(hand, 3 * SUIT)  # a game's bytearray as it is
    p = counts  # read through a C pointer
    out = [0, 0, 0]
    for s in range(3):
        total = 0
        for t in range(SUIT * s, SUIT * s + SUIT):
            total += p[t]
        out[s] = total
    return out


def heuristic(obs: np.ndarray, legal: list[int]) -> int:
    """The greedy choice among ``legal`` for an ``sc-v0`` observation."""
    return _decide(_Facts(obs), legal)


def heuristic_on_game(game: Any, seat: int, legal: list[int]) -> int:
    """``heuristic`` for ``seat`` of ``game``, its facts read from the game instead of planes."""
    facts = _Facts.__new__(_Facts)  # no __init__ (compiled, a C allocation: one a decision)
    facts.obs, facts.game, facts.seat = None, game, seat
    return _decide(facts, legal)


@cython.locals(best=cython.int, best_t=cython.int, most=cython.int, x=cython.int, left=list, work=bytearray,
               t=cython.int, phase=str)
def _decide(facts: _Facts, legal: list[int]) -> int:
    if offered(legal, _HU):  # a C loop over the list (``in`` compares objects)
        return _HU
    hand, void, phase = facts.hand(), facts.void(), facts.phase()
    if legal[0] >= _VOID:  # 定缺: the suit it holds fewest of (then fewest pairs)
        return _void_pick(legal, hand)
    if legal[0] >= _SWAP:  # 换三张: the legal suit it holds fewest of, its lowest legal tile
        return _swap_pick(legal, _suit_counts(hand))
    n = melds_of(hand)
    if phase in ("claim", "rob"):
        return _claim(facts, legal, hand, void, n)
    discards = [a for a in legal if a < KINDS]
    if holds_void(hand, void):
        return _void_first(hand, discards)
    left = shanten_one_changed(hand, n, -1)  # ``shanten`` after each discard (no void tile held here)
    best = lowest_of(left, discards)
    for a in legal:
        if _GANG_SELF <= a < _HU:  # own kong, kept when the hand is no worse without the tiles
            t = a - _GANG_SELF
            concealed = hand[t] == 4
            if shanten(_without(hand, void, t, 4 if concealed else 1), n + concealed) <= best:
                return a
    tied = [t for t in discards if left[t] == best]
    if len(tied) == 1:
        return tied[0]
    best_t, most = -1, -1
    work = counts_copy(hand)  # each tied discard taken out of one copy and put back (C bytes); no void tile held here
    for t in tied:  # the most 进张, then the higher kind (a loop: no key tuples, compiled C ints)
        work[t] -= 1
        x = improving(work, n, best, void)
        work[t] += 1
        if x > most or x == most and t > best_t:
            best_t, most = t, x
    return best_t


@cython.locals(a=cython.int, t=cython.int, x=cython.int, c=cython.int, pairs=cython.int, best=cython.int,
               best_c=cython.int, best_pairs=cython.int)
def _void_pick(legal: list[int], hand: list[int]) -> int:
    """定缺's pick: the suit held fewest, then with the fewest pairs, then the lowest action (``min``
    by (count, pairs, action) as a C loop over each offered suit's kinds)."""
    best, best_c, best_pairs = -1, 0, 0
    for a in legal:
        c = pairs = 0
        for t in range(SUIT * (a - _VOID), SUIT * (a - _VOID + 1)):
            x = hand[t]
            c += x
            pairs += x >= 2
        if best < 0 or c < best_c or c == best_c and (pairs < best_pairs or pairs == best_pairs and a < best):
            best, best_c, best_pairs = a, c, pairs
    return best


@cython.locals(a=cython.int, c=cython.int, best=cython.int, best_c=cython.int)
def _swap_pick(legal: list[int], counts: list[int]) -> int:
    """换三张's pick: the legal tile of the suit held fewest, the lowest first (``min`` by
    (suit count, action) as a C loop: no key function called, no tuple made per tile)."""
    best, best_c = -1, 0
    for a in legal:
        c = counts[(a - _SWAP) // SUIT]
        if best < 0 or c < best_c or c == best_c and a < best:
            best, best_c = a, c
    return best


@cython.locals(t=cython.int, c=cython.int, edge=cython.int, best=cython.int, best_c=cython.int,
               best_edge=cython.int)
def _void_first(hand: list[int], discards: list[int]) -> int:
    """D1 (void tiles held): the discard held fewest, then farthest from its suit's middle (edges
    first), then the lowest kind: ``min`` by (count, -distance, kind) as a C loop."""
    best, best_c, best_edge = -1, 0, 0
    for t in discards:
        c = hand[t]
        edge = abs(t % SUIT - 4)
        if best < 0 or c < best_c or c == best_c and (edge > best_edge or edge == best_edge and t < best):
            best, best_c, best_edge = t, c, edge
    return best


@cython.locals(u=cython.int, v=cython.int, x=cython.int, total=cython.int, a=cython.p_uchar)
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


def _claim(facts: _Facts, legal: list[int], hand: list[int], void: int | None, n: int) -> int:
    """PENG or 直杠 on the offered tile when it does not set the hand back; else PASS."""
    t = facts.offered()
    if t is None:
        return _PASS
    base = shanten(_without(hand, void), n)
    if offered(legal, _GANG_CLAIM) and shanten(_without(hand, void, t, 3), n + 1) <= base:
        return _GANG_CLAIM
    if offered(legal, _PENG):
        rest = _without(hand, void, t, 2)
        # D2 lets a seat holding void tiles PENG: with nothing else left, its discard is a void
        # tile and the hand outside the void gains nothing (``base``)
        after = lowest_held(shanten_one_changed(rest, n + 1, -1), rest)  # 9: nothing left to discard
        if after == 9:
            after = base
        if after < base:
            return _PENG
    return _PASS

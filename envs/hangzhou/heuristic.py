"""Hangzhou's rule-based player (``GreedyAgent``'s play here): shanten with 财神 (``cnmahjong.envs.core.wild.shanten``).

Always wins when it can; discards to minimise the wildcard-aware shanten (a 财神 is kept, as
it lowers the shanten by one), breaking ties by how many unseen tiles would then improve the
hand (进张), then by the higher kind; claims PENG / CHI only when that lowers its shanten and
a 明杠 or own kong when it does not set the hand back. It never 飘s (a win now beats a bet).

It reads a few facts (phase, own hand, the indicator, the tile on offer, the unseen counts): from
the observation planes (``heuristic``) or, in rollouts, from the game itself
(``heuristic_on_game``: the same facts of the same seat; the same choices, tested).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.core.engine import offered
from cnmahjong.envs.core.seat_facts import SeatFacts
from cnmahjong.envs.core.shapes import count_bytes, counts_for, lowest_held, new_row
from cnmahjong.envs.core.tiles import NUM_KINDS, melds_of
from cnmahjong.envs.core.wild import shanten, shanten_after_discard_row, shanten_after_draw_row
from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.observation import CHANNELS, decode_claim, decode_indicator
from cnmahjong.envs.hangzhou.patterns import WHITE, chi_runs, natural, natural_kind

_HU, _PASS, _PENG, _GANG_CLAIM, _GANG_SELF = A.HU, A.PASS, A.PENG, A.GANG_CLAIM, A.GANG_SELF
_CHI_LOW, _CHI_HIGH = A.CHI_LOW, A.CHI_HIGH
"""The action ids the player compares, as module constants (C ints compiled: heuristic.pxd), where
``A.HU`` would be a module attribute looked up at each read."""
_NINES = [9] * NUM_KINDS
"""``_discard_scores``' start: 9 for each kind (copied, not built by a list repeat a call)."""


def wild_shanten(hand: list[int], indicator: int, melds: int) -> int:
    b, w = natural(hand, indicator)
    return shanten(b, w, melds)


def after_removing(hand: list[int], *removed: int) -> list[int]:
    out = hand[:]  # the same type: a game's bytearray stays one (read by the shapes without converting)
    for t in removed:
        out[t] -= 1
    return out


def _discard_scores(hand: list[int], indicator: int, melds: int) -> list[int]:
    """``wild_shanten`` of the hand less one tile of each physical kind it holds (9 for a kind
    not held), in one pass over the natural kinds (``wild.shanten_after_discard_row``): a discarded
    财神 is a wildcard less, a discarded 白板 the indicator's natural kind, any other tile its own."""
    b, w = natural(hand, indicator)
    return _natural_discard_scores(hand, b, w, indicator, melds)


@cython.locals(t=cython.int, white=cython.int,
               white_tile=cython.int, out=list, hp=cython.p_uchar, lp=cython.p_uchar)
def _natural_discard_scores(hand: list[int], b: bytes, w: int, indicator: int, melds: int) -> list[int]:
    """``_discard_scores`` of ``hand`` whose natural counts ``b`` and 财神 ``w`` (``natural``'s) the
    caller has made: the greedy player's decision reads them again for its tied discards."""
    left = new_row(NUM_KINDS)  # each natural discard's shanten plus one, read through a C pointer
    shanten_after_discard_row(b, w, melds, left)
    lp = left
    white = natural_kind(WHITE, indicator)
    white_tile = WHITE  # a C int (see improving)
    held = count_bytes(hand)  # a game's bytearray as it is, its 34 kinds checked (wild._tally, above)
    hp = held  # read through a C pointer: no Python int per kind
    out = _NINES[:]
    for t in range(NUM_KINDS):  # a loop over typed names: a C loop in the compiled build
        if hp[t]:
            if t == indicator:
                out[t] = shanten(b, w - 1, melds)
            else:
                out[t] = lp[white if t == white_tile else t] - 1
    return out


def _best_discard(hand: list[int], indicator: int, melds: int) -> int:
    """The lowest shanten any discard leaves."""
    return lowest_held(_discard_scores(hand, indicator, melds), hand)


class _Facts(SeatFacts):
    """The facts the player reads: decoded from an ``hz-v0`` observation, or read from the game for
    ``seat`` (what its observation encodes)."""

    __slots__ = ()
    CHANNELS = CHANNELS

    def indicator(self) -> int:
        if self.game is None:
            return decode_indicator(self.obs)
        return self.game.indicator

    def claim(self) -> int | None:
        if self.game is None:
            return decode_claim(self.obs)
        window = self.game._window
        return None if window is None else window.tiles[0]


def heuristic(obs: np.ndarray, legal: list[int]) -> int:
    """The greedy choice among ``legal`` (more than one) for a ``hz-v0`` observation."""
    return _decide(_Facts(obs), legal)


def heuristic_on_game(game: Any, seat: int, legal: list[int]) -> int:
    """``heuristic`` for ``seat`` of ``game``, its facts read from the game instead of planes."""
    facts = _Facts.__new__(_Facts)  # no __init__ (compiled, a C allocation: one a decision)
    facts.obs, facts.game, facts.seat = None, game, seat
    return _decide(facts, legal)


@cython.locals(best_t=cython.int, most=cython.int, plain=cython.int, p=cython.int, x=cython.int, t=cython.int,
               a=cython.int, k=cython.int, n=cython.int, w=cython.int, nt=cython.int, best=cython.int, left=list,
               work=bytearray, phase=str, tied=list)
def _decide(facts: _Facts, legal: list[int]) -> int:
    if offered(legal, _HU):  # a C loop over the list (``in`` compares objects)
        return _HU
    hand = facts.hand()
    k = facts.indicator()
    n = melds_of(hand)
    phase = facts.phase()
    if phase == "claim":
        return _claim(facts, legal, hand, k, n)
    b, w = natural(hand, k)  # the hand's natural counts, for its discard scores and its tied discards
    left = _natural_discard_scores(hand, b, w, k, n)
    best = 9  # the lowest shanten a legal discard leaves (the discards: the ids below CHI_LOW)
    for a in legal:  # loops over C ints compiled (a comprehension's variable would be an object)
        if a < _CHI_LOW and left[a] < best:
            best = left[a]
    for a in legal:
        if _GANG_SELF <= a < _HU:  # own kong: kept when the hand is no worse without the tiles
            t = a - _GANG_SELF
            after = after_removing(hand, *([t] * (4 if hand[t] == 4 else 1)))
            if wild_shanten(after, k, n + (hand[t] == 4)) <= best:
                return a
    tied = []
    for a in legal:
        if a < _CHI_LOW and left[a] == best:
            tied.append(a)
    if len(tied) == 1:
        return tied[0]
    unseen = facts.unseen()
    best_t, most, plain = -1, -1, -1
    work = bytearray(b)  # the hand's natural counts: each tied discard taken out and put back
    for t in tied:  # the highest (not the 财神, 进张, kind): a loop, no key tuples (compiled, C ints)
        p = 1 if t != k else 0
        if p < plain:  # a tile other than the 财神 is tied: the 财神's 进张 cannot matter
            continue
        if t == k:  # a 财神 discarded: a wildcard less
            x = _improving_natural(work, w - 1, k, n, best, unseen)
        else:  # a natural tile of the kind it plays (a 白板 the indicator's) less
            nt = natural_kind(t, k)
            work[nt] -= 1
            x = _improving_natural(work, w, k, n, best, unseen)
            work[nt] += 1
        if p > plain or x > most or x == most and t > best_t:
            best_t, most, plain = t, x, p
    return best_t


def improving(rest: list[int], k: int, n: int, best: int, unseen: list[int] | bytearray) -> int:
    """进张: unseen copies of the physical kinds whose draw would lower the shanten of ``rest`` below
    ``best``. One pass over the natural kinds (``wild.shanten_after_draw_row``): a drawn 财神 adds a
    wildcard, a drawn 白板 the indicator's natural kind, any other tile its own."""
    b, w = natural(rest, k)
    return _improving_natural(b, w, k, n, best, unseen)


@cython.locals(u=cython.int, total=cython.int, with_wild=cython.int, a=cython.p_uchar, up=cython.p_uchar)
def _improving_natural(b: bytes | bytearray, w: int, k: int, n: int, best: int,
                       unseen: list[int] | bytearray) -> int:
    """``improving`` of the hand whose natural counts are ``b`` with ``w`` 财神 (``natural``'s): the
    greedy player's tied discards take each one out of its hand's natural counts, made once."""
    after = new_row(NUM_KINDS)  # the shanten after each natural draw, plus one (``shapes.row_values``)
    with_wild = shanten_after_draw_row(b, w, n, after)
    a = after
    # each physical kind's draw at its own place: a 白板 plays the indicator's natural kind, a 财神
    # adds a wildcard (written last: when the 财神 is the 白板 itself, it is a wildcard)
    a[WHITE] = a[natural_kind(WHITE, k)]
    a[k] = with_wild + 1
    counts = counts_for(unseen, NUM_KINDS, "unseen counts")  # the game's facts' bytearray (worlds.unseen_row)
    up = counts  # read through a C pointer
    total = 0
    for u in range(NUM_KINDS):  # a loop over typed names: a C loop in the compiled build (no branch)
        total += up[u] * (a[u] <= best)  # the shanten after drawing u below best (a row: each value plus one)
    return total


@cython.locals(a=cython.int, base=cython.int, best=cython.int, choice=cython.int, s=cython.int, t=cython.int)
def _claim(facts: _Facts, legal: list[int], hand: list[int], k: int, n: int) -> int:
    claimed = facts.claim()
    if claimed is None:
        return _PASS
    t = claimed
    base = wild_shanten(hand, k, n)
    if offered(legal, _GANG_CLAIM) and wild_shanten(after_removing(hand, t, t, t), k, n + 1) <= base:
        return _GANG_CLAIM
    best, choice = base, _PASS
    runs = {r: (x, y) for r, x, y in chi_runs(k)[t]}
    for a in legal:  # C ints compiled: no object compared
        if a == _PENG:
            used = (t, t)
        elif _CHI_LOW <= a <= _CHI_HIGH:  # CHI_ACTIONS (consecutive ids)
            used = runs[a]
        else:
            continue
        s = _best_discard(after_removing(hand, *used), k, n + 1)
        if s < best:
            best, choice = s, a
    return choice

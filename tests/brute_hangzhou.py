"""Obviously-correct Hangzhou references: every identity of every 财神 is tried.

Written from the rule text alone (§1, §3), without ``cnmahjong.envs.core.wild``'s tables: a
财神 is assigned each of the 34 kinds in turn (a fifth copy allowed), and the
resulting hand without wildcards is split into sets by plain recursion.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

WHITE = 33


def split(tiles: Sequence[int], indicator: int) -> tuple[list[int], int]:
    """(counts of what the non-财神 tiles play, number of 财神): §1 read literally."""
    counts = [0] * 34
    wild = 0
    for t in tiles:
        if t == indicator:
            wild += 1  # the three copies in play of the indicator kind are 财神
        elif t == WHITE:
            counts[indicator] += 1  # 白板 plays the indicator kind (not reached when it is 白板)
        else:
            counts[t] += 1
    return counts, wild


def sets_and_pair(c: list[int], pair: bool) -> bool:
    """Runs (suits only) and triplets, plus one pair when ``pair``; plain recursion."""
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return not pair
    if pair and c[i] >= 2:
        c[i] -= 2
        ok = sets_and_pair(c, False)
        c[i] += 2
        if ok:
            return True
    if c[i] >= 3:
        c[i] -= 3
        ok = sets_and_pair(c, pair)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = sets_and_pair(c, pair)
        for k in (i, i + 1, i + 2):
            c[k] += 1
        if ok:
            return True
    return False


def identities(counts: list[int], wild: int):
    """Every count vector the 财神 can make, each standing for any of the 34 kinds."""
    for kinds in combinations_with_replacement(range(34), wild):
        c = list(counts)
        for k in kinds:
            c[k] += 1
        yield c


def is_win(concealed: Sequence[int], n_melds: int, indicator: int) -> bool:
    counts, wild = split(concealed, indicator)
    for c in identities(counts, wild):
        if sets_and_pair(c, True):
            return True
        if not n_melds and sum(c) == 14 and all(x % 2 == 0 for x in c):
            return True
    return False


def baotou_ready(concealed13: Sequence[int], n_melds: int, indicator: int) -> bool:
    """§3: one 财神 out, the rest (other 财神 wild) is complete sets or six pairs."""
    counts, wild = split(concealed13, indicator)
    if not wild:
        return False
    for c in identities(counts, wild - 1):
        if sets_and_pair(c, False):
            return True
        if not n_melds and sum(c) == 12 and all(x % 2 == 0 for x in c):
            return True
    return False


def waits(concealed13: Sequence[int], melds: Sequence[Sequence[int]], indicator: int) -> set[int]:
    """Physical kinds whose draw wins, less those of which every copy in play is held."""
    held = [0] * 34
    for t in list(concealed13) + [t for m in melds for t in m]:
        held[t] += 1
    out = set()
    for t in range(34):
        if held[t] < (3 if t == indicator else 4) and is_win(list(concealed13) + [t], len(melds), indicator):
            out.add(t)
    return out

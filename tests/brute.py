"""Slow, obviously-correct reference implementations used to cross-check the tables."""

from __future__ import annotations

from collections.abc import Sequence

JIANG = {k for k in range(27) if k % 9 in (1, 4, 7)}


def all_sets(c: list[int]) -> bool:
    """Can the counts be split into runs and triplets only (recursive search)?"""
    i = next((k for k in range(27) if c[k]), None)
    if i is None:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = all_sets(c)
        c[i] += 3
        if ok:
            return True
    if i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = all_sets(c)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


def standard_pairs(c: Sequence[int]) -> set[int]:
    """Kinds that can be the pair of a standard decomposition of concealed counts."""
    c = list(c)
    out = set()
    if sum(c) % 3 != 2:
        return out
    for p in range(27):
        if c[p] >= 2:
            c[p] -= 2
            if all_sets(c):
                out.add(p)
            c[p] += 2
    return out


def complete(c: Sequence[int], melds: Sequence[Sequence[int]]) -> bool:
    """Any §2 shape: standard, seven pairs (no melds), all-将."""
    if standard_pairs(c):
        return True
    if not melds and sum(c) == 14 and all(x % 2 == 0 for x in c):
        return True
    tiles = [k for k in range(27) if c[k]] + [t for m in melds for t in m]
    return all(t in JIANG for t in tiles)


def waits(c: Sequence[int], melds: Sequence[Sequence[int]]) -> set[int]:
    held = list(c)
    for m in melds:
        for t in m:
            held[t] += 1
    out = set()
    for t in range(27):
        if held[t] >= 4:
            continue
        c2 = list(c)
        c2[t] += 1
        if complete(c2, melds):
            out.add(t)
    return out

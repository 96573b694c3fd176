"""Slow, obviously-correct Sichuan reference (rules §4, §5, §7 waits), to cross-check
``envs/sichuan/patterns.py``: every cut of the concealed tiles into sets and a pair is listed by
search, each cut's items are read off the rule table one by one, and the best reading is the
largest sum (seven pairs first on a tie)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

RANK = [k % 9 + 1 for k in range(27)]  # 1-based ranks


def cuts(c: list[int]) -> Iterator[list[tuple[str, int]]]:
    """Every way to split counts ``c`` into sets (``("run", low)`` / ``("pung", k)``) and one
    ``("pair", k)``, by taking the lowest tile each time in every role it can play."""
    yield from _cuts(list(c), False)


def _cuts(c: list[int], paired: bool) -> Iterator[list[tuple[str, int]]]:
    i = next((k for k in range(27) if c[k]), None)
    if i is None:
        if paired:
            yield []
        return
    if c[i] >= 3:
        c[i] -= 3
        for rest in _cuts(c, paired):
            yield [("pung", i), *rest]
        c[i] += 3
    if not paired and c[i] >= 2:
        c[i] -= 2
        for rest in _cuts(c, True):
            yield [("pair", i), *rest]
        c[i] += 2
    if i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for d in range(3):
            c[i + d] -= 1
        for rest in _cuts(c, paired):
            yield [("run", i), *rest]
        for d in range(3):
            c[i + d] += 1


def group_tiles(g: tuple[str, int]) -> list[int]:
    kind, k = g
    return [k, k + 1, k + 2] if kind == "run" else [k] * (2 if kind == "pair" else 3)


def is_win(c: Sequence[int], melds: Sequence[tuple[str, int]], void: int | None) -> bool:
    """§4: no concealed tile of the void (D3); a standard cut with 4 sets counting melds, or seven
    pairs of 14 concealed tiles."""
    if void is not None and any(c[k] for k in range(27) if k // 9 == void):
        return False
    if sum(c) + 3 * len(melds) != 14:
        return False
    if any(True for _ in cuts(c)):
        return True
    return not melds and sum(c) == 14 and all(x % 2 == 0 for x in c)


def waits(c: Sequence[int], melds: Sequence[tuple[str, int]], void: int | None) -> set[int]:
    """§7: kinds not held four times (hand and melds) that make a win."""
    held = list(c)
    for kind, k in melds:
        held[k] += 4 if kind in ("minggang", "jiagang", "angang") else 3
    out = set()
    for t in range(27):
        if held[t] < 4:
            w = list(c)
            w[t] += 1
            if is_win(w, melds, void):
                out.add(t)
    return out


FAN = {"PINGHU": 0, "DUIDUI": 1, "QIDUI": 2, "QINGYISE": 2, "JINGOU": 1, "JIANGDUI": 2, "DAIYAOJIU": 2,
       "GEN": 1, "GANGKAI": 1, "GANGPAO": 1, "QIANGGANG": 1, "HAIDI": 1, "ZIMO": 1, "MENQING": 1,
       "ZHONGZHANG": 1}


def best(c: Sequence[int], melds: Sequence[tuple[str, int]], void: int | None, ctx: dict[str, bool],
         opt: dict) -> tuple[int, dict[str, int]] | None:
    """The §5 reading (F, items) by the table, or None when not a win. ``melds`` are
    (kind, tile kind) with kind "peng", "minggang", "jiagang" or "angang"; ``ctx`` holds the
    WinContext flags, ``opt`` the RuleConfig options."""
    if not is_win(c, melds, void):
        return None
    if opt["tiandihu"] and (ctx["tianhu"] or ctx["dihu"]):
        return (5 if opt["cap_fan"] is None else opt["cap_fan"]), {"TIANHU" if ctx["tianhu"] else "DIHU": 1}
    tiles = [k for k in range(27) for _ in range(c[k])]
    for kind, k in melds:
        tiles += [k] * (3 if kind == "peng" else 4)
    common = {}
    if len({t // 9 for t in tiles}) == 1:
        common["QINGYISE"] = 1
    gen = sum(1 for k in set(tiles) if tiles.count(k) == 4)
    if gen:
        common["GEN"] = gen
    for flag, item in (("gangkai", "GANGKAI"), ("gangpao", "GANGPAO"), ("qianggang", "QIANGGANG")):
        if ctx[flag]:
            common[item] = 1
    if ctx["haidi"] and opt["haidi"]:
        common["HAIDI"] = 1
    dgh_as_discard = ctx["dianganghua"] and opt["dianganghua"] == "dianpao"
    if ctx["self_drawn"] and opt["zimo_bonus"] == "fan" and not dgh_as_discard:
        common["ZIMO"] = 1
    if opt["menqing_zhongzhang"]:
        if not any(kind in ("peng", "minggang", "jiagang") for kind, _ in melds):
            common["MENQING"] = 1
        if not any(RANK[t] in (1, 9) for t in tiles):
            common["ZHONGZHANG"] = 1
    readings = []
    if not melds and sum(c) == 14 and all(x % 2 == 0 for x in c):
        readings.append({"QIDUI": 1})
    meld_groups = [("pung", k) for _, k in melds]
    for cut in cuts(c):
        sets = [g for g in cut if g[0] != "pair"] + meld_groups
        pair = next(g for g in cut if g[0] == "pair")
        items = {}
        if all(g[0] == "pung" for g in sets):
            items["DUIDUI"] = 1
            if opt["yaojiu_jiangdui"] and all(RANK[t] in (2, 5, 8) for t in tiles):
                items["JIANGDUI"] = 1
        if opt["jingoudiao"] and len(melds) == 4:
            items["JINGOU"] = 1
        if opt["yaojiu_jiangdui"] and all(any(RANK[t] in (1, 9) for t in group_tiles(g)) for g in [*sets, pair]):
            items["DAIYAOJIU"] = 1
        readings.append(items)
    scored = []
    for items in readings:
        items = {**items, **common}
        if not any(k in items for k in ("DUIDUI", "QIDUI", "QINGYISE", "JINGOU", "JIANGDUI", "DAIYAOJIU")):
            items["PINGHU"] = 1
        scored.append((sum(FAN[k] * n for k, n in items.items()), items))
    top = max(f for f, _ in scored)
    first = next(r for r in scored if r[0] == top)
    others = {tuple(sorted(i.items())) for f, i in scored if f == top}
    # The rule reports seven pairs on a tie with a standard reading; two standard cuts of one
    # top F with different items would leave the report undefined: flag it.
    assert "QIDUI" in first[1] or len(others) == 1, f"ambiguous best reading {others}"
    return first

"""Sichuan shapes, waits and fan (rules §2 D3, §4, §5, §7 waits) against the rule text's examples
and named totals, and against the brute-force reference ``tests/brute_sichuan.py`` on 100,000
random hands."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cnmahjong.envs.core.meld import ANGANG, JIAGANG, MINGGANG, PENG, Meld
from cnmahjong.envs.core.tiles import parse, to_counts
from cnmahjong.envs.sichuan.patterns import (
    WinContext,
    best_reading,
    holds_void,
    is_win,
    max_wait_fan,
    reading,
    wait_mask,
    waits,
)
from cnmahjong.envs.sichuan.rules import RuleConfig
from tests import brute_sichuan as brute

M, S, P = 0, 1, 2


def kong(text: str, kind: str = MINGGANG) -> Meld:
    return Meld(kind, tuple(parse(text)))


# ------------------------------------------------------------------ §5 examples
def test_s5_example_qingyise_gen():
    """§5: `111m 123m 456m 789m 99m` (four 1m, void 筒) is 清一色 + 根 = 3."""
    r = best_reading("111m 123m 456m 789m 99m", void=P)
    assert (r.fan, r.patterns) == (3, {"QINGYISE": 1, "GEN": 1})


def test_s5_example_qidui():
    """§5: `11m 33m 77m 22s 44s 99s 55s` is a 七对 = 2."""
    r = best_reading("11m 33m 77m 22s 44s 99s 55s", void=P)
    assert (r.fan, r.patterns) == (2, {"QIDUI": 1})


def test_s5_example_duidui_jingou():
    """§5: `[555s] [888s] [222m] [999m] 5m` won on 5m is 对对胡 + 金钩钓 = 2."""
    r = best_reading("55m", ["555s", "888s", "222m", "999m"], "5m", void=P)
    assert (r.fan, r.patterns) == (2, {"DUIDUI": 1, "JINGOU": 1})


def test_s5_example_jiang_jingou():
    """§5: `[222s] [555s] [888s] [222m] 5m` won on 5m is 将金钩钓: 对对 1 + 将对 2 + 金钩 1 = 4."""
    r = best_reading("55m", ["222s", "555s", "888s", "222m"], "5m", void=P)
    assert (r.fan, r.patterns) == (4, {"DUIDUI": 1, "JINGOU": 1, "JIANGDUI": 1})


def test_s5_example_tie_reports_seven_pairs():
    """§5: `11223377889911m` reads as 七对 + 清一色 + 根 = 5 and as 带幺九 + 清一色 + 根 = 5: the
    seven-pairs reading is reported."""
    c = to_counts(parse("11223377889911m"))
    assert brute.best(c, [], None, _ctx(), _opts(RuleConfig())) == (5, {"QIDUI": 1, "QINGYISE": 1, "GEN": 1})
    r = best_reading("11223377889911m")
    assert (r.fan, r.patterns) == (5, {"QIDUI": 1, "QINGYISE": 1, "GEN": 1})
    # The other reading exists: the cut 123m 123m 789m 789m 11m, every set with a 1 or a 9.
    assert [("pair", 0), ("run", 0), ("run", 0), ("run", 6), ("run", 6)] in list(brute.cuts(c))


# (name, concealed, melds, winning tile, F) for the named totals of §5
NAMED_TOTALS = [
    ("清对", "111222555888m 99m", [], "9m", 3),
    ("将对", "222555m 888s 22s 55s 5s", [], "5s", 3),
    ("龙七对", "1111m 33m 55m 77s 88s 99s", [], "9s", 3),
    ("清七对", "11335577889922m", [], "2m", 4),
    ("清龙七对", "11113355778899m", [], "9m", 5),
    ("清金钩钓", "99m", ["111m", "333m", "555m", "777m"], "9m", 4),
    ("将金钩钓", "22m", ["555m", "888m", "222s", "555s"], "2m", 4),
    ("清幺九", "123m 789m 789m 789m 11m", [], "1m", 4),
    ("十八罗汉", "99m", [kong("1111m"), kong("3333m"), kong("5555s"), kong("7777s")], "9m", 6),
    ("清十八罗汉", "99m", [kong("1111m"), kong("3333m"), kong("5555m"), kong("7777m")], "9m", 8),
]


@pytest.mark.parametrize("name,concealed,melds,tile,fan", NAMED_TOTALS, ids=[n[0] for n in NAMED_TOTALS])
def test_s5_named_totals(name, concealed, melds, tile, fan):
    """§5: every named total of the rule text is the sum of its items."""
    assert best_reading(concealed, melds, tile).fan == fan


def test_s5_pinghu_only_without_hand_items():
    """§5: PINGHU (0) is reported when no hand item applies, even beside 根 or a situational item."""
    r = best_reading("123m 456m 789m 111s 55s", winning_tile="5s")
    assert (r.fan, r.patterns) == (0, {"PINGHU": 1})
    r = best_reading("123m 123m 456m 111s 11m", winning_tile="1m", context=WinContext(self_drawn=True, gangkai=True))
    assert (r.fan, r.patterns) == (2, {"PINGHU": 1, "GEN": 1, "GANGKAI": 1})


def test_s5_gen_counts_every_quad_the_winning_tile_included():
    """§5 根: a kong, a PENG with the fourth concealed, four concealed (the winning tile counts)."""
    melds = [kong("5555s", ANGANG), kong("777s", PENG)]
    r = best_reading("789s 123m 11m", melds, "1m")  # 7777s: PENG + the fourth concealed
    assert r.patterns["GEN"] == 2
    r = best_reading("234m 345m 456s 678s 44m", winning_tile="4m")  # 4m x4 with the winning tile
    assert r.patterns == {"PINGHU": 1, "GEN": 1}


def test_s5_daiyaojiu_needs_every_set_and_the_pair():
    """§5 带幺九: a 456 run or a pair of 5s breaks it."""
    assert best_reading("123m 789m 111s 999s 99m").patterns == {"DAIYAOJIU": 1}
    assert best_reading("123m 456m 111s 999s 99m").patterns == {"PINGHU": 1}
    assert best_reading("123m 789m 111s 999s 55m").patterns == {"PINGHU": 1}


def test_s5_options_remove_items():
    """§5 options: ``jingoudiao``, ``yaojiu_jiangdui`` off remove JINGOU, JIANGDUI, DAIYAOJIU;
    ``menqing_zhongzhang`` adds MENQING (暗杠 allowed) and ZHONGZHANG; ``haidi`` off drops HAIDI."""
    off = RuleConfig(jingoudiao=False, yaojiu_jiangdui=False)
    assert best_reading("55m", ["222s", "555s", "888s", "222m"], "5m", config=off).patterns == {"DUIDUI": 1}
    assert best_reading("123m 789m 111s 999s 99m", config=off).patterns == {"PINGHU": 1}
    on = RuleConfig(menqing_zhongzhang=True)
    r = best_reading("234m 456m 55m 678s", [kong("3333s", ANGANG)], "8s", config=on)
    assert r.patterns == {"PINGHU": 1, "GEN": 1, "MENQING": 1, "ZHONGZHANG": 1}
    r = best_reading("234m 456m 55m 678s", [kong("3333s", JIAGANG)], "8s", config=on)
    assert r.patterns == {"PINGHU": 1, "GEN": 1, "ZHONGZHANG": 1}
    ctx = WinContext(self_drawn=True, haidi=True)
    assert "HAIDI" in best_reading("123m 456m 789m 111s 55s", context=ctx).patterns
    assert "HAIDI" not in best_reading("123m 456m 789m 111s 55s", context=ctx, config=RuleConfig(haidi=False)).patterns


def test_s5_zimo_item_and_dianganghua():
    """§5 ZIMO only with ``zimo_bonus = "fan"``; §6.2 点杠花 under ``"dianpao"`` has no ZIMO item."""
    hand = "123m 456m 789m 111s 55s"
    zimo = WinContext(self_drawn=True)
    assert "ZIMO" not in best_reading(hand, context=zimo).patterns
    fan = RuleConfig(zimo_bonus="fan")
    assert best_reading(hand, context=zimo, config=fan).patterns == {"PINGHU": 1, "ZIMO": 1}
    dgh = WinContext(self_drawn=True, gangkai=True, dianganghua=True)
    assert best_reading(hand, context=dgh, config=fan).patterns == {"PINGHU": 1, "GANGKAI": 1, "ZIMO": 1}
    both = RuleConfig(zimo_bonus="fan", dianganghua="dianpao")
    assert best_reading(hand, context=dgh, config=both).patterns == {"PINGHU": 1, "GANGKAI": 1}


@pytest.mark.parametrize("cap,fan", [(3, 3), (6, 6), (None, 5)])
def test_s5_tianhu_dihu_score_cap_alone(cap, fan):
    """§5: 天胡 / 地胡 score F = cap_fan (5 with no cap) alone; with ``tiandihu`` off an ordinary win."""
    cfg = RuleConfig(cap_fan=cap, huazhu_fan=3)
    hand = "11223377889911m"
    assert best_reading(hand, context=WinContext(self_drawn=True, tianhu=True), config=cfg).patterns == {"TIANHU": 1}
    r = best_reading(hand, context=WinContext(dihu=True), config=cfg)
    assert (r.fan, r.patterns) == (fan, {"DIHU": 1})
    r = best_reading(hand, context=WinContext(dihu=True), config=cfg.replace(tiandihu=False))
    assert r.fan == 5


# ------------------------------------------------------------------ D3 and waits
def test_d3_no_win_with_a_void_tile():
    """D3: no win while the concealed tiles with the winning tile hold a tile of the void suit."""
    assert is_win("123m 456m 789m 111s 55s")
    assert not is_win("123m 456m 789m 111s 55s", void="s")
    assert is_win("123m 456m 789m 111s 55s", void="p")
    with pytest.raises(ValueError, match="not a win"):
        best_reading("123m 456m 789m 111s 55s", void=S)


def test_holds_void_reads_a_count_vector_as_any_sequence_d3():
    """D1/D3 花猪 test: a game's count vector (a bytearray, read through a C pointer when compiled)
    gives what the same counts as a list give, for every void and none."""
    rng = random.Random(12)
    held = 0
    for _ in range(3000):
        counts = [0] * 27
        for t in rng.sample(range(27), rng.randrange(1, 9)):
            counts[t] = rng.randrange(1, 5)
        for void in (None, 0, 1, 2):
            want = void is not None and any(counts[9 * void:9 * void + 9])
            assert holds_void(bytearray(counts), void) == holds_void(counts, void) == want
            held += want
    assert held > 1000


def test_d3_melds_are_not_concealed_tiles():
    """D3 reads the concealed tiles; melds of the void cannot exist (D2), the engine refuses them."""
    assert is_win("123m 456m 789m 55s", ["111p"], void="p") is True


def test_waits_d3_and_four_held():
    """§7 waits: none while a void tile is held, no void kind, no kind held four times (melds
    included); a wait whose copies are all visible elsewhere still counts (local test)."""
    assert waits("1112345678999s") == set(range(9, 18))
    assert waits("1112345678999s", void="s") == set()
    assert waits("123m 456m 789m 111s 1p") == {18}
    assert waits("123m 456m 789m 111s 1p", void="p") == set()
    assert waits("123m 456m 789m 11s 23p", void="s") == set()
    assert waits("123m 456m 789m 11s 23p", void="m") == set()  # the m tiles are void tiles
    assert waits("123p 456p 789p 11s 23p", void="m") == {18, 21, 24}  # 1p, 4p, 7p (123 234 567 789)
    # 1111m is a 七对 only with two pairs of 1m: the fifth copy does not exist.
    assert waits("1111m 33m 55m 77m 99m 2m") == {1}
    # A PENG of 5s and the fourth 5s in hand: the 单钓 on 5s would be a fifth copy (melds count).
    assert waits("123m 456m 789m 5s", ["555s"]) == set()


def test_max_wait_fan_plain_discard():
    """§7 查大叫: Fmax over the waits as an ordinary discard win (no situational item)."""
    c = to_counts(parse("1112345678999s"))
    assert max_wait_fan(c, [], P, RuleConfig()) == 3  # 清一色 + 根 on 1s or 9s
    assert max_wait_fan(to_counts(parse("1112345678999s")), [], S, RuleConfig()) is None


def test_bad_public_input_is_refused():
    """Public forms name what was wrong: sizes, fifth copies, honours, runs as melds, the void."""
    with pytest.raises(ValueError, match="14 tiles"):
        is_win("123m")
    with pytest.raises(ValueError, match="copies"):
        waits("1m 234m 567m 888m", ["1111m"])
    with pytest.raises(ValueError, match="out of range"):
        waits([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 27])  # an honour (kind 27)
    with pytest.raises(ValueError, match="CHI"):
        waits("123m 456m 789m 1s", ["123s"])
    with pytest.raises(ValueError, match="void"):
        is_win("123m 456m 789m 111s 55s", void=3)
    with pytest.raises(ValueError, match="void"):
        is_win("123m 456m 789m 111s 55s", void=True)
    with pytest.raises(ValueError, match="winning tile"):
        best_reading("123m 456m 789m 111s 55s", winning_tile="9p")
    for bad in (27, True, -1):
        with pytest.raises(ValueError, match="tile kind"):
            best_reading("123m 456m 789m 111s 55s", winning_tile=bad)
    with pytest.raises(ValueError, match="gangkai"):
        WinContext(gangkai=True)
    with pytest.raises(TypeError, match="self_drawn"):
        WinContext(self_drawn=1)


# ------------------------------------------------------------------ brute-force cross-check
MELD_KINDS = ("peng", "minggang", "jiagang", "angang")
CONFIGS = [RuleConfig(), RuleConfig(zimo_bonus="fan", dianganghua="dianpao", menqing_zhongzhang=True),
           RuleConfig(jingoudiao=False, yaojiu_jiangdui=False, haidi=False, tiandihu=False),
           RuleConfig(cap_fan=None, huazhu_fan=4, zimo_bonus="fan")]


def _opts(cfg: RuleConfig) -> dict:
    return cfg.to_dict()


def _ctx(**flags: bool) -> dict[str, bool]:
    return {**dict.fromkeys(("self_drawn", "gangkai", "dianganghua", "gangpao", "qianggang", "haidi",
                             "tianhu", "dihu"), False), **flags}


def _random_ctx(rng: random.Random) -> dict[str, bool]:
    how = rng.choice(("zimo", "zimo", "discard", "discard", "gangkai", "dgh", "gangpao", "qianggang",
                      "tianhu", "dihu"))
    flags = {"zimo": {"self_drawn": True}, "discard": {}, "gangkai": {"self_drawn": True, "gangkai": True},
             "dgh": {"self_drawn": True, "gangkai": True, "dianganghua": True}, "gangpao": {"gangpao": True},
             "qianggang": {"qianggang": True}, "tianhu": {"self_drawn": True, "tianhu": True},
             "dihu": {"dihu": True, "self_drawn": rng.random() < 0.5}}[how]
    return _ctx(haidi=rng.random() < 0.2 and how != "qianggang", **flags)


def random_hand(rng: random.Random, size: int = 14):
    """(concealed counts, melds as (kind, tile), void): half built from sets and a pair (or seven
    pairs), half drawn at random, mostly from two suits and at times from the 1-2-3-7-8-9 or the
    2-5-8 ranks only, so wins, near-wins and every item of §5 are common."""
    suits = rng.sample(range(3), rng.choice((1, 2, 2, 2, 3)))
    ranks = rng.choice((range(9), range(9), range(9), (0, 1, 2, 6, 7, 8), (1, 4, 7)))  # all, 1-or-9, 将
    if len(suits) == 1 and len(ranks) == 3:  # 12 tiles cannot make a hand
        suits.append((suits[0] + 1) % 3)
    kinds = [k for k in range(27) if k // 9 in suits and k % 9 in ranks]
    void = rng.choice([None, *[s for s in range(3) if s not in suits]]) if rng.random() < 0.9 \
        else rng.randrange(3)
    left = {k: 4 for k in kinds}
    n_melds = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
    melds = []
    for _ in range(n_melds):
        k = rng.choice([k for k in kinds if left[k] >= 3])
        kind = rng.choice(MELD_KINDS) if left[k] == 4 else "peng"
        left[k] -= 3 if kind == "peng" else 4
        melds.append((kind, k))
    need = 14 - 3 * n_melds
    c = [0] * 27

    def take(k: int, n: int = 1) -> bool:
        if left.get(k, 0) < n:
            return False
        left[k] -= n
        c[k] += n
        return True

    style = rng.random()
    if style < 0.15 and n_melds == 0:  # seven pairs, quads allowed
        for _ in range(50):
            if sum(c) < 14:
                take(rng.choice(kinds), 2)
    elif style < 0.6:  # sets and a pair (at times only sets and a pair with a 1 or a 9)
        ends = [k for k in kinds if k % 9 in (0, 8)] if len(ranks) == 6 and rng.random() < 0.7 else kinds
        take(rng.choice(ends), 2)
        for _ in range(50):
            if sum(c) >= need:
                break
            k = rng.choice(ends)
            k -= 2 if k % 9 == 8 and rng.random() < 0.5 else 0
            if rng.random() < 0.5 and k % 9 <= 6 and all(left.get(k + d, 0) for d in range(3)):
                for d in range(3):
                    take(k + d)
            else:
                take(k, 3)
    while sum(c) < need:  # random fill (also tops up a failed construction)
        take(rng.choice([k for k in left if left[k]]))
    while sum(c) > need:
        k = rng.choice([k for k in range(27) if c[k]])
        c[k] -= 1
    if size == 13:
        k = rng.choice([k for k in range(27) if c[k]])
        c[k] -= 1
    return c, melds, void


def _melds(ms):
    return [Meld(kind, (k,) * (3 if kind == "peng" else 4)) for kind, k in ms]


def _melded(ms):
    out = [0] * 27
    for kind, k in ms:
        out[k] += 3 if kind == "peng" else 4
    return out


def test_cross_check_brute_force_100000_hands():
    """100,000 random hands of 14 tiles (win shape, D3, the best reading's F and items under four
    configs and random contexts) and 20,000 of 13 tiles (waits) agree with the brute force."""
    rng = random.Random(20261203)
    wins = 0
    seen: Counter[str] = Counter()
    for i in range(100_000):
        c, ms, void = random_hand(rng)
        melds = _melds(ms)
        cfg = CONFIGS[i % len(CONFIGS)]
        ctx = _random_ctx(rng)
        want = brute.best(c, ms, void, ctx, _opts(cfg))
        tile = rng.choice([k for k in range(27) if c[k]])
        got = reading(c, melds, tile, WinContext(**ctx), cfg, void)
        assert (got and (got.fan, got.patterns)) == (want and (want[0], want[1])), (c, ms, void, ctx, cfg)
        wins += want is not None
        seen.update(want[1] if want else {})
    assert wins > 30_000  # the generator makes wins common, so the readings are really compared
    assert all(seen[k] >= 50 for k in brute.FAN), seen  # every item of §5 is met, each many times
    ready = 0
    for _ in range(20_000):
        c, ms, void = random_hand(rng, 13)
        got = wait_mask(c, _melded(ms), len(ms), void)
        want = brute.waits(c, ms, void)
        assert {k for k in range(27) if got >> k & 1} == want, (c, ms, void)
        ready += bool(want)
    assert ready > 5_000


def test_s5_a_reading_refuses_counts_that_are_not_the_27_kinds():
    """``reading`` counts the hand through a C pointer compiled: a count vector of another length
    that still makes a win shape is an error naming the length, never a read past the kinds."""
    c = to_counts(parse("123456789m22345p")) + [0]
    with pytest.raises(ValueError, match="counts must hold 27 kinds, got 28"):
        reading(c, [], 19, WinContext(), RuleConfig(), 1)
    assert reading(c[:27], [], 19, WinContext(), RuleConfig(), 1).patterns == {"PINGHU": 1}

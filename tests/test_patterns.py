"""§2 waits, §3 small wins, §3.2 opening-hand wins, §4 big wins (with the source's examples)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cnmahjong.envs.changsha.patterns import (
    ANGANG,
    JIAGANG,
    MINGGANG,
    PENG,
    Meld,
    WinContext,
    classify_win,
    is_ready,
    opening_patterns,
    opening_shown,
    waits,
)
from cnmahjong.envs.changsha.rules import RuleConfig
from cnmahjong.envs.core.tiles import format, parse, to_counts
from tests import brute

MAIN = RuleConfig.preset("mainstream")
STACK = RuleConfig.preset("mainstream", big_win_stacking=True)
CLASSIC = RuleConfig.preset("classic")


def pats(*args, **kw):
    win = classify_win(*args, **kw)
    return None if win is None else set(win.patterns)


# ------------------------------------------------------------------ §4 examples
def test_section4_example_pengpeng_on_5p():
    # 111m 222m(kong) 444s 5p 777p wins on 5p as 碰碰胡
    melds = [Meld(MINGGANG, tuple(parse("2222m")))]
    assert waits("111m444s5p777p", melds) >= {parse("5p")[0]}
    assert pats("111m444s5p777p5p", melds, "5p") == {"PENGPENG"}


def test_section4_example_false_jiang_on_6p_needs_a_big_situation():
    melds = [Meld(MINGGANG, tuple(parse("2222m")))]
    hand = "111m444s5p777p6p"  # 567p 77p: false 将, no big pattern
    assert parse("6p")[0] in waits("111m444s5p777p", melds)
    assert classify_win(hand, melds, "6p") is None
    assert pats(hand, melds, "6p", WinContext(self_drawn=True, kong_draw=True)) == {"GANGSHANG_KAIHUA"}
    assert pats(hand, melds, "6p", WinContext(robbing_kong=True)) == {"QIANGGANG"}
    assert pats(hand, melds, "6p", WinContext(self_drawn=True, haidi=True)) == {"HAIDI_LAOYUE"}
    assert pats(hand, melds, "6p", WinContext(haidi=True)) == {"HAIDI_PAO"}


def test_section4_example_seven_pairs_or_pinghu():
    # 22334m 55s 445566p: on 4m 七小对; on 1m only 平胡 (55s pair)
    assert waits("22334m55s445566p") == set(parse("14m"))
    assert pats("22334m55s445566p4m", winning_tile="4m") == {"QIXIAODUI"}
    assert pats("22334m55s445566p1m", winning_tile="1m") == {"PINGHU"}


def test_section4_example_qingyise_false_jiang():
    # 123m 123m 5666m 9999m(kong): 清一色, wins on 4m, 5m, 7m (false 将 66m allowed)
    melds = [Meld(MINGGANG, tuple(parse("9999m")))]
    assert waits("1231235666m", melds) == set(parse("457m"))
    for t in ("4m", "5m", "7m"):
        assert pats("1231235666m" + t, melds, t) == {"QINGYISE"}


# ----------------------------------------------------------------------- §2
def test_waits_exclude_a_kind_held_four_times_section2():
    # 1112345678999m would wait on all nine, but 1m is held 4 times with the kong
    assert waits("1112345678999m") == set(range(9))
    assert 0 not in waits("2345678999m", [Meld(ANGANG, (0, 0, 0, 0))]) | {99}
    assert waits("1111m23456789m9s") == {parse("9s")[0]}  # 4 copies of 1m already held


def test_all_jiang_waits_any_jiang_kind_section2():
    assert waits("2228m5558s2225p8p") == set(parse("258m258s258p"))
    # with all four 2m held, 2m is no wait
    assert waits("22228m558s2225p8p") == set(parse("58m258s258p"))


def test_all_jiang_counts_melds_section2():
    melds = [Meld(PENG, (1, 1, 1))]
    assert parse("2s")[0] in waits("5558m2225s8p8p", melds)
    chi = [Meld("chi", (0, 1, 2))]
    assert parse("2s")[0] not in waits("5558m2225s8p8p", chi)


def test_waits_input_errors():
    with pytest.raises(ValueError, match="13 tiles"):
        waits("123m")
    with pytest.raises(ValueError, match="at most 4"):
        waits("11m23456789m", [Meld(PENG, (0, 0, 0))])


def test_is_ready():
    assert is_ready("1112345678999m")
    assert not is_ready("1357m1357s13579p")


@st.composite
def hand_with_melds(draw):
    """A 13-tile position: concealed tiles plus 0–3 random melds, from one or two suits."""
    n_melds = draw(st.integers(0, 3))
    suits = draw(st.lists(st.sampled_from([0, 1, 2]), min_size=1, max_size=2, unique=True))
    pool = [s * 9 + r for s in suits for r in range(9) for _ in range(4)]
    rnd = draw(st.randoms(use_true_random=False))
    rnd.shuffle(pool)
    counts = [0] * 27
    for t in pool:
        counts[t] += 1
    melds = []
    for _ in range(n_melds):
        kind = rnd.choice(["peng", "chi", "kong"])
        base = rnd.choice([t for t in range(27) if counts[t]])
        if kind == "chi" and base % 9 <= 6 and counts[base + 1] and counts[base + 2]:
            tiles = (base, base + 1, base + 2)
        elif kind == "kong" and counts[base] == 4:
            tiles = (base,) * 4
        elif counts[base] >= 3:
            tiles = (base,) * 3
        else:
            continue
        for t in tiles:
            counts[t] -= 1
        melds.append(tiles)
    rest = [t for t in range(27) for _ in range(counts[t])]
    rnd.shuffle(rest)
    return rest[: 13 - 3 * len(melds)], melds


@settings(max_examples=500)
@given(hand_with_melds())
def test_waits_agree_with_brute_force(position):
    concealed, melds = position
    expect = brute.waits(to_counts(concealed), melds)
    assert waits(concealed, melds) == expect, (format(concealed), melds)


def test_waits_agree_with_brute_force_on_seeded_random_hands():
    rng = random.Random(2024)
    wall = [k for k in range(27) for _ in range(4)]
    ready = 0
    for _ in range(1500):
        suits = rng.sample(range(3), rng.choice([1, 2, 3]))
        pool = [t for t in wall if t // 9 in suits]
        hand = rng.sample(pool, 13)
        expect = brute.waits(to_counts(hand), [])
        assert waits(hand) == expect, format(hand)
        ready += bool(expect)
    assert ready > 100  # the sample really exercises ready hands


# ------------------------------------------------------------------- §3.1
def test_pinghu_needs_real_jiang_section3_1():
    assert pats("123m456m789s123p55p") == {"PINGHU"}
    assert classify_win("123m456m789s123p66p") is None  # false 将, no big pattern


def test_pinghu_when_some_decomposition_has_real_jiang():
    # 11123444m: pair 11m (false) or 44m (false); 22234555m: 22m+234+555 or 222+345+55
    assert classify_win("11123444m678s999p") is None
    assert pats("22234555m678s999p") == {"PINGHU"}


def test_incomplete_hand_is_no_win():
    assert classify_win("1357m1357s135799p") is None


# --------------------------------------------------------------------- §4
def test_pengpeng_false_jiang_and_chi_breaks_it():
    assert pats("111m333s777p999p66m", winning_tile="6m") == {"PENGPENG"}
    assert classify_win("123m333s777p999p66m", winning_tile="6m") is None


def test_jiangjiang_section4():
    assert pats("258m258m258s258p22s") == {"JIANGJIANG"}
    # melds count: a PENG of 5m and a chi cannot both be all-将
    assert pats("22258m88s25p55s", [(4, 4, 4)]) == {"JIANGJIANG"}


def test_qingyise_any_form():
    assert pats("11223344556677m") >= {"QINGYISE", "QIXIAODUI"}
    assert pats("12312345678999m", winning_tile="9m") == {"QINGYISE"}


def test_longqidui_only_with_stacking_in_zi_section4():
    hand = "1111m22m44s55s66p77p"
    assert classify_win(hand, config=MAIN).patterns == ("QIXIAODUI",)
    win = classify_win(hand, config=STACK)
    assert win.patterns == ("LONGQIDUI",) and win.he == 2
    win = classify_win(hand, config=CLASSIC)  # 垛合子 values do not exist in points
    assert win.patterns == ("QIXIAODUI",) and win.he == 1


def test_haohua_jiangjiang_quads_section4():
    hand = "2222m5555s888p22p5m"
    # self-drawn: both concealed quads count
    win = classify_win(hand, winning_tile="5m", ctx=WinContext(self_drawn=True), config=STACK)
    assert "HAOHUA_JIANGJIANG" in win.patterns and "QIXIAODUI" not in win.patterns
    # the 5555s quad is also completed by a discarded 5s: that quad does not count
    win2 = classify_win("2222m555s888p22p5m5s", winning_tile="5s", config=STACK)
    assert "HAOHUA_JIANGJIANG" in win2.patterns
    assert win2.he == 2  # only 2222m counts: k=1 -> 2 合
    win3 = classify_win("2222m555s888p22p5m5s", winning_tile="5s",
                        ctx=WinContext(self_drawn=True), config=STACK)
    assert win3.he == 3


def test_haohua_counts_concealed_kong_not_claimed_kong():
    conc = [Meld(ANGANG, (1, 1, 1, 1))]
    exp = [Meld(MINGGANG, (1, 1, 1, 1))]
    hand = "555s888p22p55m8m"
    assert classify_win(hand, conc, "8m", config=STACK).he == 2
    assert classify_win(hand, exp, "8m", config=STACK).patterns == ("JIANGJIANG",)


def test_quanqiuren_four_exposed_melds_section4():
    melds = [(0, 1, 2), (9, 9, 9), Meld(JIAGANG, (20,) * 4), (12, 13, 14)]
    assert pats("7p7p", melds, "7p") == {"QUANQIUREN"}
    assert pats("7p7p", melds, "7p", WinContext(self_drawn=True)) == {"QUANQIUREN"}
    no_self = MAIN.replace(quanqiuren_self_draw=False)
    assert classify_win("7p7p", melds, "7p", WinContext(self_drawn=True), no_self) is None
    assert classify_win("7p7p", melds, "7p", config=CLASSIC) is None  # pattern absent
    concealed_kong = melds[:2] + [Meld(ANGANG, (20,) * 4), melds[3]]
    assert classify_win("7p7p", concealed_kong, "7p") is None


def test_tianhu_dihu_section4():
    assert pats("123m456m789s123p66p", winning_tile="6p",
                ctx=WinContext(self_drawn=True, tianhu=True)) == {"TIANHU"}
    assert pats("123m456m789s123p66p", winning_tile="6p", ctx=WinContext(dihu=True)) == {"DIHU"}


def test_gangshang_both_tiles_win_two_he_with_stacking():
    hand = "123m456m789s123p55p"
    ctx = WinContext(self_drawn=True, kong_draw=True, kong_draw_wins=2)
    assert classify_win(hand, ctx=ctx, config=MAIN).he == 1
    assert classify_win(hand, ctx=ctx, config=STACK).he == 2
    pao = WinContext(kong_draw=True, kong_draw_wins=2)
    assert classify_win(hand, ctx=pao, config=STACK).patterns == ("GANGSHANG_PAO",)


def test_big_patterns_stack_only_with_option_section8_3():
    hand = "11223344556677m"  # 清一色 七小对
    assert classify_win(hand, config=MAIN).he == 1
    assert classify_win(hand, config=STACK).he == 2
    assert classify_win(hand, config=CLASSIC).he == 2
    capped = classify_win(hand, ctx=WinContext(self_drawn=True, haidi=True), config=STACK)
    assert capped.he == 3


def test_small_and_big_counts_big_only_section8_2():
    win = classify_win("123m456m789s123p55p", ctx=WinContext(self_drawn=True, haidi=True))
    assert win.patterns == ("HAIDI_LAOYUE",) and win.big


def test_classify_win_errors():
    with pytest.raises(ValueError, match="14 tiles"):
        classify_win("123m")
    with pytest.raises(ValueError, match="not among"):
        classify_win("123m456m789s123p55p", winning_tile="9p")
    with pytest.raises(ValueError, match="chi"):
        Meld("chi", (7, 8, 9))
    with pytest.raises(ValueError, match="meld kind"):
        Meld("pong", (1, 1, 1))
    with pytest.raises(ValueError, match="抢杠"):
        WinContext(self_drawn=True, robbing_kong=True)


# ------------------------------------------------------------------- §3.2
@pytest.mark.parametrize(
    "hand, expected",
    [
        ("1111m369s147p369p", {"SIXI", "BANBAN"}),
        ("111m333s258p1467p", {"LIULIUSHUN"}),
        ("1111m333s258p147p", {"SIXI", "LIULIUSHUN"}),
        ("22m22s22p136m1479s", {"SANTONG"}),
        ("123467m123456s5p", {"YIZHIHUA"}),
        ("1234567m123469s", {"QUEYISE"}),
        ("1369m1369s13679p", {"BANBAN"}),
        ("123m456m789s1234p", set()),
    ],
)
def test_opening_patterns_section3_2(hand, expected):
    assert len(parse(hand)) == 13
    assert opening_patterns(hand) == expected


def test_opening_patterns_dealer_14_tiles():
    assert opening_patterns("111m222m333s4679p1s") == {"LIULIUSHUN"}


def test_opening_shown_tiles_section3_2():
    assert opening_shown("1111m369s147p369p", "SIXI") == [0, 0, 0, 0]
    assert format(opening_shown("111m333s258p1467p", "LIULIUSHUN")) == "111m333s"
    assert format(opening_shown("22m22s22p136m1479s", "SANTONG")) == "22m22s22p"
    assert len(opening_shown("1111m369s147p369p", "BANBAN")) == 13
    with pytest.raises(ValueError, match="has no SANTONG"):
        opening_shown("1111m369s147p369p", "SANTONG")
    with pytest.raises(ValueError, match="13 or 14"):
        opening_patterns("123m")


def test_two_quads_are_one_sixi_section3_2():
    assert opening_patterns("1111m2222s369p147p") >= {"SIXI"}
    assert opening_shown("1111m2222s369p147p", "SIXI") == [0] * 4


# ------------------------------------------------------------------ shanten
def test_shanten_over_all_three_shapes_section2():
    from cnmahjong.envs.changsha.patterns import shanten

    none = [0] * 27
    assert shanten(to_counts(parse("11m22m33m44m55m66m7m")), none, 0) == 0  # seven pairs
    assert shanten(to_counts(parse("2228m5558s2225p8p")), none, 0) == 0  # all-将
    assert shanten(to_counts(parse("2228m5558s2225p9p")), none, 0) == 1  # one tile off all-将
    assert shanten(to_counts(parse("123m456m789s123p55p")), none, 0) == -1


@settings(max_examples=200)
@given(hand_with_melds())
def test_shanten_zero_iff_some_wait_kind(position):
    from cnmahjong.envs.changsha.patterns import shanten

    concealed, melds = position
    c = to_counts(concealed)
    held = to_counts([t for m in melds for t in m] + concealed)
    melded = to_counts([t for m in melds for t in m])
    # waits ignoring the four-copies rule: shanten cannot see which copies exist
    completing = [k for k in range(27) if brute.complete([x + (i == k) for i, x in enumerate(c)], melds)]
    assert (shanten(c, melded, len(melds)) <= 0) == bool(completing), (format(concealed), melds, held)


@settings(max_examples=400)
@given(st.data())
def test_shanten_after_draw_equals_shanten_of_each_draw(data):
    """The one-pass tables agree with ``shanten`` of the hand plus (or less) each kind."""
    from cnmahjong.envs.changsha.patterns import shanten, shanten_after_discard, shanten_after_draw

    rng = random.Random(data.draw(st.integers(0, 2**32)))
    melds = data.draw(st.integers(0, 3))
    wall = [k for k in range(27) for _ in range(4)]
    if data.draw(st.booleans()):
        wall = [k for k in wall if k % 9 in (1, 4, 7)] * 2  # all-将 hands too
    tiles = rng.sample(wall, 13 - 3 * melds)
    c = [0] * 27
    for t in tiles:
        c[t] = min(4, c[t] + 1)
    melded = [0] * 27
    for _ in range(melds):
        melded[rng.choice([1, 4, 7, 10, 13, 16, 19, 22, 25] if data.draw(st.booleans()) else range(27))] += 3
    after = shanten_after_draw(c, melded, melds)
    for k in range(27):
        if c[k] < 4:
            c[k] += 1
            assert after[k] == shanten(c, melded, melds), (c, k)
            c[k] -= 1
    # and each discard from the hand with one more tile (3n+2 tiles, as on a turn)
    c[rng.choice([k for k in range(27) if c[k] < 4])] += 1
    left = shanten_after_discard(c, melded, melds)
    for k in range(27):
        if c[k]:
            c[k] -= 1
            assert left[k] == shanten(c, melded, melds), (c, k)
            c[k] += 1


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 3), st.booleans(), st.booleans())
def test_shanten_rows_equal_one_shanten_per_changed_kind_section2(rnd, num_melds, jiang_melds, draw):
    """§2: the greedy player's rows (``shanten_changed_row``: the shanten after each draw or
    discard, plus one) and their lists (``shanten_after_draw``/``_discard``) equal ``shanten`` of
    the hand with that kind added or removed, kind by kind (9 where the change cannot be): with
    melds of 将 ranks only (the all-将 shape) or of any kind, none (seven pairs) or up to three."""
    from cnmahjong.envs.changsha.patterns import shanten, shanten_after_discard, shanten_after_draw, shanten_changed_row
    from cnmahjong.envs.core.shapes import new_row, row_values

    kinds = [k for k in range(27) if k % 9 in (1, 4, 7)] if jiang_melds else list(range(27))
    melded = [0] * 27
    for k in rnd.sample(kinds, num_melds):
        melded[k] = 3
    pool = [k for k in range(27) for _ in range(4 - melded[k])]
    c = [0] * 27
    for k in rnd.sample(pool, 13 - 3 * num_melds + (0 if draw else 1)):
        c[k] += 1
    delta = 1 if draw else -1
    row = new_row(27)
    shanten_changed_row(bytearray(c), bytearray(melded), num_melds, delta, row)
    expect = []
    for k in range(27):
        changed = c[:]
        changed[k] += delta
        expect.append(shanten(changed, melded, num_melds) if 0 <= changed[k] <= 4 else 9)
    assert [x - 1 for x in row] == row_values(row, 27) == expect
    assert (shanten_after_draw if draw else shanten_after_discard)(c, melded, num_melds) == expect


def test_counts_for_refuses_a_vector_shorter_than_its_kinds():
    """``shapes.counts_for`` (what the greedy players' pointer loops read) gives a game's bytearray as
    it is, a list as bytes, and names the vector when it holds fewer kinds than asked."""
    from cnmahjong.envs.core.shapes import counts_for

    row = bytearray([1, 2, 3])
    assert counts_for(row, 3) is row and counts_for([1, 2, 3], 2) == b"\x01\x02\x03"
    with pytest.raises(ValueError, match="2 unseen counts for 27 kinds"):
        counts_for([0, 4], 27, "unseen counts")


def test_row_values_refuse_what_is_not_a_row():
    """``row_values`` reads bytes 0..10 only, from a row at least ``n`` long, naming what was wrong."""
    from cnmahjong.envs.core.shapes import new_row, row_values

    assert row_values(bytearray([0, 10, 5]), 3) == [-1, 9, 4]
    with pytest.raises(ValueError, match="a row of 2 bytes for 3 kinds"):
        row_values(bytearray(2), 3)
    assert len(new_row(34)) == 34 and not any(new_row(34))

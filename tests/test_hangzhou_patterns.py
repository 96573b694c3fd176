"""Hangzhou hand evaluator (rules §1, §3): 财神, the 白板 stand-in, waits, 爆头, readings.

Hands are written as tile text with honours (``1z..7z`` = 东南西北中发白); the indicator
is given as a kind (``k("5m")``).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cnmahjong.envs.core.meld import Meld
from cnmahjong.envs.core.tiles import parse
from cnmahjong.envs.core.wall import HONOURS_WALL_SIZE, Wall, shuffled
from cnmahjong.envs.core.wild import complete
from cnmahjong.envs.hangzhou.patterns import (
    WHITE,
    WinReading,
    baotou_ready,
    best_reading,
    is_win,
    meld_tiles,
    natural,
    waits,
    win_counts,
)
from tests import brute_hangzhou as brute


def k(text: str) -> int:
    (t,) = parse(text, honours=True)
    return t


def T(text: str) -> list[int]:
    return parse(text, honours=True)


# ------------------------------------------------------------------------ §1 tiles
def test_honour_tiles_and_136_wall_section1():
    assert T("1234567z") == list(range(27, 34))
    assert k("7z") == WHITE
    tiles = shuffled(random.Random(3), 34)
    assert len(tiles) == HONOURS_WALL_SIZE == 136
    assert sorted(tiles) == [t for t in range(34) for _ in range(4)]
    wall = Wall(tiles, size=HONOURS_WALL_SIZE)
    assert wall.draw_head() == tiles[0] and wall.draw_tail() == tiles[-2]  # tail: top of the last stack
    assert wall.remaining == 134


def test_changsha_shuffle_unchanged_by_the_shared_helper_section1():
    """The 108-tile shuffle is the one Changsha always dealt: a seed's first tiles are fixed."""
    a = shuffled(random.Random(11))
    assert len(a) == 108 and max(a) == 26
    assert a == shuffled(random.Random(11), 27)


# ------------------------------------------------------------- §1 白板 stand-in
def test_white_plays_the_indicator_kind_in_a_run_section1():
    # 5m is the indicator: 4m 白 6m is a run, 5m copies are 财神.
    assert is_win("4m7z6m123p456p789p11s", indicator=k("5m"))
    assert not is_win("4m7z6m123p456p789p11s", indicator=k("1z"))  # 白 plays 东 there: no run


def test_white_in_pairs_pengs_and_kongs_section1():
    five_m = k("5m")
    assert is_win("123m456m789m123p77z", indicator=five_m)  # 白白 pair (as 5m 5m)
    assert meld_tiles("777z", five_m) == (WHITE,) * 3  # a PENG of the indicator kind is three 白板
    assert meld_tiles("7777z", five_m) == (WHITE,) * 4  # its kong is four 白板
    assert meld_tiles("4m7z6m", five_m) == (3, 5, WHITE)  # a CHI run with the 白板 as 5m
    assert meld_tiles(Meld("peng", (3, 3, 3)), five_m) == (3, 3, 3)  # Meld objects work too
    with pytest.raises(ValueError, match="财神"):
        meld_tiles("555m", five_m)  # the 财神 never joins a meld (§2)
    with pytest.raises(ValueError, match="not a run"):
        meld_tiles("4m7z6m", k("5p"))  # 白 plays 5p there


def test_white_wait_is_the_indicator_kind_section1():
    # 4m 6m waits on 5m's identity: the 白板 (physical 33). The 财神 (5m) also fills it.
    assert waits("46m123p456p789p11s", indicator=k("5m")) == {WHITE, k("5m")}
    assert waits("46m123p456p789p11s", indicator=k("1z")) == {k("5m"), k("1z")}  # 5m or a 财神


def test_indicator_white_makes_the_whites_wild_and_nothing_substitutes_section1():
    white = WHITE
    # 白 turned up: the other 白板 are 财神. 7z + 5m pair up; 7z stands for 5m.
    assert is_win("123m456m789m123p5m7z", indicator=white)
    with pytest.raises(ValueError, match="财神"):
        meld_tiles("777z", white)
    # no stand-in: 4m 白 6m is no run unless the 白 is wild: here it is, so it completes
    assert is_win("4m7z6m123p456p789p11s", indicator=white)
    assert waits("46m123p456p789p11s", indicator=white) == {k("5m"), white}


@pytest.mark.parametrize("kind", [bytearray, bytes, list])
def test_natural_counts_move_the_white_to_the_indicator_kind_section1(kind):
    """§1: the 财神 (the indicator kind) come out as wildcards, the 白板 count as the indicator
    kind; every indicator, the 白板 itself included, and every form of counts (a game's bytearray
    takes the compiled C path, a list the Python one) give the same answer."""
    rng = random.Random(7)
    for _ in range(200):
        counts = [rng.randrange(5) for _ in range(34)]
        for indicator in range(34):
            b, w = natural(kind(counts), indicator)
            want = list(counts)
            want[indicator] = counts[WHITE]
            want[WHITE] = 0
            assert (b, w) == (bytes(want), counts[indicator])
            assert type(b) is bytes


def test_caishen_as_a_fifth_copy_section1():
    """§1 decision: a 财神 may stand for a fifth copy of a kind whose four copies are held."""
    assert is_win("1111m999p999s999m5z", indicator=k("5z"))
    assert brute.is_win(T("1111m999p999s999m5z"), 0, k("5z"))


def test_win_counts_of_a_games_bytearray_is_the_natural_counts_test_section3():
    """§3: ``win_counts`` of a game's bytearray (compiled: its natural counts in one module buffer)
    answers as ``complete`` of ``natural``'s bytes (a list takes that path): random hands of 14 and
    fewer tiles (melds), seven-pair-rich ones, and counts past 4 (outside the tables), every
    indicator; and the brute force agrees on the real hands."""
    rng = random.Random(11)
    for i in range(3000):
        melds = rng.randrange(5) if i % 3 else 0
        size = 14 - 3 * melds
        counts = [0] * 34
        while sum(counts) < size:
            t = rng.randrange(34) if i % 4 else rng.randrange(7)  # few kinds: pairs and triplets
            if counts[t] < 4:
                counts[t] += 1
        if i % 10 == 0:
            counts[rng.randrange(34)] = rng.choice((5, 6, 9))  # not a hand: the dict path
        indicator = rng.randrange(34)
        b, w = natural(counts, indicator)
        want = complete(b, w, not melds)
        assert win_counts(bytearray(counts), indicator, melds) is want
        assert win_counts(list(counts), indicator, melds) is want
        if i % 10 and i % 4 == 0:
            tiles = [t for t in range(34) for _ in range(counts[t])]
            assert brute.is_win(tiles, melds, indicator) == want


def test_waits_leave_out_kinds_whose_every_copy_in_play_is_held_section1():
    # 1111m + sets: only a fifth 1m would pair it, and no fifth copy exists to draw
    assert waits("1111m345p678p999s", indicator=k("1z")) == {k("1z")}  # a 财神, never a 5th 1m
    # the indicator kind has 3 in play: holding all three 财神, drawing it is impossible
    hand = "555m123p456p789p1s"  # 5m is the indicator: three 财神 and 1s, any draw wins
    assert baotou_ready(hand, indicator=k("5m"))
    w = waits(hand, indicator=k("5m"))
    assert k("5m") not in w and len(w) == 33
    # a meld counts as held: PENG 1s and 1s in hand
    assert k("1s") not in waits("1s123p456p789p", ["111s"], indicator=k("1z"))


def test_honours_form_no_runs_section3():
    assert not is_win("123z456z7z7z123m456m", indicator=k("9p"))
    assert is_win("111z222z77z123m456m", indicator=k("9p"))


def test_caishen_never_in_a_meld_size_and_copy_errors_name_the_problem():
    with pytest.raises(ValueError, match="14 tiles"):
        is_win("123m", indicator=0)
    with pytest.raises(ValueError, match="only 3 are in play"):
        waits("5555m123p456p789p", indicator=k("5m"))
    with pytest.raises(TypeError, match="indicator"):
        is_win("123m456m789m123p55z", indicator=None)
    with pytest.raises(ValueError, match="out of range"):
        is_win("123m456m789m123p55z", indicator=34)
    with pytest.raises(TypeError, match="melds"):
        waits("123m456m789m1p", "123p", indicator=0)


# -------------------------------------------------------------------- §3 爆头
def test_baotou_ready_standard_and_six_pairs_section3():
    five_z = k("5z")
    assert baotou_ready("123m456m789m123p5z", indicator=five_z)  # sets + one 财神
    assert not baotou_ready("123m456m789m12p5z5z", indicator=k("1z"))  # no 财神 at all
    assert baotou_ready("112233m445566p5z", indicator=five_z)  # six pairs + 财神 (七对子爆头)
    assert not baotou_ready("112233m44556p5z7z", indicator=five_z)  # one 财神 would go to 6p
    # with melds: four sets counting the melds
    assert baotou_ready("456m789m5z", ["123p", "777s"], indicator=five_z)
    # two 财神: one out, the other still wild (completes 12p into a run)
    assert baotou_ready("123m456m789m12p5z5z", indicator=five_z)


def test_baotou_ready_means_every_drawable_kind_wins_section3():
    hand = "123m456m789m123p5z"
    assert waits(hand, indicator=k("5z")) == set(range(34))


# ---------------------------------------------------------------- readings (§3–§4)
def test_reading_baotou_standard_and_kongs_section4():
    r, e = best_reading("123m456m789m123p5z9s", indicator=k("5z"), drawn=k("9s"))
    assert r == WinReading(baotou=True) and e == 1  # 爆头 ×2
    _, e = best_reading("123m456m789m123p5z9s", indicator=k("5z"), drawn=k("9s"), kongs=1, piao=1)
    assert e == 3  # 杠飘 ×8
    r, e = best_reading("123m456m789m123p5z9s", indicator=k("5z"), drawn=k("9s"), self_drawn=False)
    assert r == WinReading() and e == 0  # a discard win is never 爆头


def test_reading_seven_pairs_qing_and_quads_section4():
    r, e = best_reading("11223344556677m", indicator=k("1z"), drawn=0)
    assert r == WinReading(qidui=True, qing=True) and e == 2  # 清七对 ×4 (also standard: lower)
    r, e = best_reading("1111m223344556p6p", indicator=k("1z"), drawn=0)
    assert r == WinReading(qidui=True, quads=1) and e == 2  # 豪华七对 ×4, no 清 with a quad
    # four 白板 are a quad of the indicator kind; 财神 never form one
    r, _ = best_reading("7777z112233m4455p", indicator=k("9s"), drawn=0)
    assert r.quads == 1
    r, _ = best_reading("9s9s9s7z112233m4455p", indicator=k("9s"), drawn=0)
    assert r.quads == 0 and not r.qing


def test_reading_seven_pairs_baotou_with_quads_section4():
    # 豪华七对子爆头 ×8: six pairs (a quad among them) + 财神 + any drawn tile
    r, e = best_reading("1111m2233m4455p5z9s", indicator=k("5z"), drawn=k("9s"))
    assert r == WinReading(qidui=True, quads=1, baotou=True) and e == 3
    # 三豪华七对双财飘 ×128
    _, e = best_reading("1111m2222m3333m5z9s", indicator=k("5z"), drawn=k("9s"), piao=2)
    assert e == 7


def test_best_reading_prefers_the_higher_multiplier_section3():
    # Ready for 爆头 by sets (111 123 345 555 + 财神) and, after drawing 2m, also seven pairs
    # with two quads where the 财神 pairs the 4m instead: 七对 ×2 × 豪华² beats 爆头 ×2.
    hand = "1111m2m33m4m5555m4z2m"
    r, e = best_reading(hand, indicator=k("4z"), drawn=k("2m"))
    assert r == WinReading(qidui=True, quads=2) and e == 3
    # with two 飘 the 爆头 reading (1 + 2) ties it; a third makes 爆头 the best
    r, e = best_reading(hand, indicator=k("4z"), drawn=k("2m"), piao=3)
    assert r.baotou and e == 4


# ------------------------------------------------------- brute-force cross-checks
@st.composite
def hz_hands(draw, size: int) -> tuple[list[int], list[tuple[int, ...]], int]:
    """A Hangzhou hand: indicator, 0–3 财神 in hand, 白板 often, few kinds so wins are common;
    sometimes one or two melds (never holding a 财神)."""
    indicator = draw(st.sampled_from([WHITE, 4, 13, 22, 27, 31, draw(st.integers(0, 33))]))
    suits = draw(st.lists(st.sampled_from([0, 1, 2]), min_size=1, max_size=2, unique=True))
    kinds = [s * 9 + r for s in suits for r in range(9)]
    kinds += draw(st.lists(st.integers(27, 33), max_size=3, unique=True)) + [WHITE]
    kinds = [t for t in dict.fromkeys(kinds) if t != indicator]
    n_melds = draw(st.sampled_from([0, 0, 0, 1, 2]))
    held = [0] * 34
    melds: list[tuple[int, ...]] = []
    for _ in range(n_melds):
        t = draw(st.sampled_from(kinds))
        if draw(st.booleans()) and t < 27 and t % 9 <= 6 and t + 1 in kinds and t + 2 in kinds:
            m: tuple[int, ...] = (t, t + 1, t + 2)
        else:
            m = (t,) * draw(st.sampled_from([3, 3, 4]))
        if all(held[x] + m.count(x) <= 4 for x in set(m)):
            melds.append(m)
            for x in m:
                held[x] += 1
    n_wild = draw(st.integers(0, 3))
    concealed = [indicator] * n_wild
    held[indicator] += n_wild
    pool = [t for t in kinds for _ in range(4)]
    order = draw(st.permutations(pool))
    for t in order:
        if len(concealed) == size - 3 * len(melds):
            break
        if held[t] < 4:
            concealed.append(t)
            held[t] += 1
    assume(len(concealed) == size - 3 * len(melds))
    return sorted(concealed), melds, indicator


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hz_hands(14))
def test_is_win_matches_brute_force_section3(hand):
    concealed, melds, indicator = hand
    assert is_win(concealed, melds, indicator=indicator) == brute.is_win(concealed, len(melds), indicator)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hz_hands(13))
def test_waits_and_baotou_match_brute_force_section3(hand):
    concealed, melds, indicator = hand
    n_wild = concealed.count(indicator)
    assert baotou_ready(concealed, melds, indicator=indicator) == brute.baotou_ready(concealed, len(melds), indicator)
    got = waits(concealed, melds, indicator=indicator)
    if n_wild <= 2:  # a 财神 draw makes four wildcards: 58,905 identities per hand, too slow
        assert got == brute.waits(concealed, melds, indicator)
    else:  # three 财神: cross-check against the (brute-checked) table is_win instead
        held = [0] * 34
        for t in concealed + [t for m in melds for t in m]:
            held[t] += 1
        expect = {t for t in range(34) if held[t] < (3 if t == indicator else 4)
                  and win_counts(_counts(concealed + [t]), indicator, len(melds))}
        assert got == expect


def _counts(tiles: list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def test_cross_check_covers_wins_and_all_wildcard_counts():
    """The strategy reaches winning hands with 0, 1, 2 and 3 财神 (else the cross-check is idle)."""
    seen = set()

    @settings(max_examples=400, deadline=None, database=None)
    @given(hz_hands(14))
    def collect(hand):
        concealed, melds, indicator = hand
        if is_win(concealed, melds, indicator=indicator):
            seen.add(concealed.count(indicator))

    collect()
    assert seen == {0, 1, 2, 3}


def _random_wild_hand(r: random.Random, full: int) -> tuple[list[int], int, int]:
    """(34 counts of a random hand of ``full`` - 3 m tiles, m melds, 0-3 wildcards): every size
    of a 13-tile (``full`` 13) or 14-tile (14) hand."""
    size = r.choice([full - 12, full - 9, full - 6, full - 3, full])
    c = [0] * 34
    for t in r.sample([k for k in range(34) for _ in range(4)], size):
        c[t] += 1
    return c, (full - size) // 3, r.choice([0, 0, 1, 2, 3])


def test_shanten_after_draw_equals_one_shanten_per_drawn_kind():
    """``wild.shanten_after_draw`` (the greedy players' 进张 in one pass) equals ``wild.shanten`` of
    the hand with each kind added, over 3,000 random hands of every size, meld count and number of
    wildcards; and the Hangzhou ``improving`` count equals the count made tile by tile."""
    from cnmahjong.envs.core import wild
    from cnmahjong.envs.hangzhou.heuristic import improving, wild_shanten

    r = random.Random(5)
    for _ in range(3000):
        c, melds, w = _random_wild_hand(r, 13)
        fast = wild.shanten_after_draw(bytes(c), w, melds)
        assert wild.shanten_after_draw_and_wild(bytes(c), w, melds) == (fast, wild.shanten(bytes(c), w + 1, melds))
        for k in range(34):
            if c[k] == 4:
                assert fast[k] == 9
                continue
            c[k] += 1
            assert fast[k] == wild.shanten(bytes(c), w, melds), (c, w, melds, k)
            c[k] -= 1
        indicator = r.randrange(34)
        unseen = [r.randrange(0, 4 - min(3, c[u])) if c[u] < 4 else 0 for u in range(34)]
        best = wild_shanten(c, indicator, melds) + r.choice([-1, 0, 1])
        slow = 0
        for u in range(34):
            if unseen[u]:
                c[u] += 1
                slow += unseen[u] if wild_shanten(c, indicator, melds) < best else 0
                c[u] -= 1
        assert improving(c, indicator, melds, best, unseen) == slow


def test_a_drawn_wildcard_with_every_honour_held():
    """``shanten_after_draw_and_wild``'s drawn wildcard when no honour is missing from the hand
    (its standard shanten then asked of the tables, not read off a lone honour's draw)."""
    from cnmahjong.envs.core import wild

    c = [0] * 34
    for k in (*range(27, 34), 0, 1, 2, 10, 20, 21):  # 13 tiles: every honour once
        c[k] += 1
    for w, melds in ((0, 0), (1, 0), (2, 0), (0, 1)):
        after, with_wild = wild.shanten_after_draw_and_wild(bytes(c), w, melds)
        assert with_wild == wild.shanten(bytes(c), w + 1, melds)
        assert after == wild.shanten_after_draw(bytes(c), w, melds)


def test_a_wild_row_is_the_list_plus_one_and_a_short_row_is_refused():
    """``wild.shanten_after_draw_row`` (what the greedy player's 进张 loop reads through a C pointer)
    holds ``shanten_after_draw`` plus one and returns the drawn wildcard's shanten; a row shorter
    than the 34 kinds is an error, never a write past its end."""
    from cnmahjong.envs.core import wild

    r = random.Random(8)
    for _ in range(200):
        c, melds, w = _random_wild_hand(r, 13)
        row = bytearray(34)
        assert wild.shanten_after_draw_row(bytes(c), w, melds, row) == wild.shanten(bytes(c), w + 1, melds)
        assert [x - 1 for x in row] == wild.shanten_after_draw(bytes(c), w, melds)
    with pytest.raises(ValueError, match="a row of 20 bytes for 34 kinds"):
        wild.shanten_after_draw_row(bytes(c), w, melds, bytearray(20))


def test_shanten_after_discard_equals_one_shanten_per_discarded_kind():
    """``wild.shanten_after_discard`` (the greedy player's discard scores in one pass) equals
    ``wild.shanten`` of the hand less each held kind (9 for a kind not held), over 3,000 random
    hands of every size, meld count and number of wildcards; and the Hangzhou player's
    ``_discard_scores`` equals ``wild_shanten`` of the physical hand less each held kind, 财神
    and 白板 included."""
    from cnmahjong.envs.core import wild
    from cnmahjong.envs.hangzhou.heuristic import _discard_scores, wild_shanten

    r = random.Random(6)
    for _ in range(3000):
        c, melds, w = _random_wild_hand(r, 14)
        fast = wild.shanten_after_discard(bytes(c), w, melds)
        for k in range(34):
            if not c[k]:
                assert fast[k] == 9
                continue
            c[k] -= 1
            assert fast[k] == wild.shanten(bytes(c), w, melds), (c, w, melds, k)
            c[k] += 1
        indicator = r.choice([r.randrange(34), 33])  # 33: the 白板 as indicator, its own 财神
        scores = _discard_scores(bytearray(c), indicator, melds)
        for t in range(34):
            if c[t]:
                c[t] -= 1
                assert scores[t] == wild_shanten(c, indicator, melds), (c, indicator, melds, t)
                c[t] += 1
            else:
                assert scores[t] == 9


def _contents(width: int, most: int, sample: int, seed: int) -> list[bytes]:
    """Every content of ``width`` kinds (0..4 copies) with at most ``most`` tiles, and ``sample``
    random ones of up to 14 tiles."""
    from itertools import product

    out = [bytes(c) for c in product(range(5), repeat=width) if sum(c) <= most]
    r = random.Random(seed)
    while sample:
        c = bytearray(width)
        for _ in range(r.randrange(15)):
            k = r.randrange(width)
            c[k] += c[k] < 4
        out.append(bytes(c))
        sample -= 1
    return out


def test_the_win_tests_group_entries_equal_the_recursion_section3():
    """The compiled win test's group values (``wild._suit_entries``: every suit content in one pass;
    ``wild._honours_entry``: the honours kind by kind) equal ``wild._cost``'s exact recursion, for
    every content of up to 6 tiles and 6,000 random ones of up to 14 (``4 s + d + 1``: ``s``
    wildcards to make sets, ``d`` more for the pair)."""
    from cnmahjong.envs.core import wild

    table = wild._suit_entries()
    assert len(table) == 5 ** 9 and min(table) >= 1
    for key in _contents(9, 6, 6000, seed=1):
        s, pair = wild._cost(key, True, False), wild._cost(key, True, True)
        index = sum(c * 5 ** r for r, c in enumerate(key))
        assert table[index] - 1 == 4 * s + pair - s + 1, list(key)
    for key in _contents(7, 6, 6000, seed=2):
        s, pair = wild._cost(key, False, False), wild._cost(key, False, True)
        assert wild._honours_entry(bytes(27) + key) == 4 * s + pair - s + 1, list(key)

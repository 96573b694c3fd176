"""§8 settlement: birds, bird factors, both presets, 自摸加1, stacking and cap."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cnmahjong.envs.changsha.rules import RuleConfig
from cnmahjong.envs.changsha.scoring import (
    bird_factor,
    bird_seat,
    bird_tiles,
    others,
    pair_amount,
    settle,
    total,
)
from cnmahjong.envs.core.tiles import parse

MAIN = RuleConfig.preset("mainstream")
CLASSIC = RuleConfig.preset("classic")
A, B, C, D = 0, 1, 2, 3  # the source's seats, dealer A


def seats(*values, dealer=A):
    return [bird_seat(v, dealer) for v in values]


# ---------------------------------------------------------------- §8.1 birds
def test_bird_seats_section8_1():
    assert seats(1, 5, 9) == [A, A, A]
    assert seats(2, 6) == [B, B]
    assert seats(3, 7) == [C, C]
    assert seats(4, 8) == [D, D]
    assert seats(1, 2, dealer=2) == [2, 3]
    with pytest.raises(ValueError, match="1..9"):
        bird_seat(0, 0)


@pytest.mark.parametrize(
    "birds, factors",
    [((5, 9), {B: 3, C: 3, D: 3}),  # 例1
     ((5, 6), {B: 3, C: 2, D: 2}),  # 例2
     ((2, 2), {B: 3, C: 1, D: 1}),  # 例3
     ((2, 3), {B: 2, C: 2, D: 1})],  # 例4
)
def test_dealer_self_draw_bird_factors_section8_1(birds, factors):
    bs = seats(*birds)
    assert {p: bird_factor(bs, A, p) for p in (B, C, D)} == factors


@pytest.mark.parametrize(
    "birds, factor",
    [((2, 2), 3), ((2, 7), 3), ((3, 7), 3), ((2, 8), 2), ((3, 9), 2), ((1, 4), 1)],  # 例5–例10
)
def test_b_wins_on_c_discard_bird_factor_section8_1(birds, factor):
    assert bird_factor(seats(*birds), B, C) == factor


def test_two_winners_on_one_discard_section8_1():
    # 例11: A and B both win (small) on C's discard, birds 1,3: A +6, B +2, C -8
    bs = seats(1, 3)
    a = settle(MAIN, A, A, [C], big=False, he=0, self_drawn=False, bird_seats=bs)
    b = settle(MAIN, A, B, [C], big=False, he=0, self_drawn=False, bird_seats=bs)
    assert total([a, b]) == [6, 2, -8, 0]


def test_dealer_self_draw_small_with_zimo_plus_one_section8_2():
    # A self-draws a small win, birds 1,2: B pays 2×3+1 = 7, C and D 2×2+1 = 5
    s = settle(MAIN, A, A, others(A), big=False, he=0, self_drawn=True, bird_seats=seats(1, 2))
    assert s.payments == (17, -7, -5, -5)


def test_bird_tiles_from_the_head_section8_1():
    assert bird_tiles([3, 7], 2, winning_tile=5, haidi_win=False) == [3, 7]
    assert bird_tiles([3, 7], 1, winning_tile=5, haidi_win=False) == [3]
    # only the 海底 tile left: it is every bird
    assert bird_tiles([3], 2, winning_tile=5, haidi_win=False) == [3, 3]
    # winning on the 海底 tile: that tile is every bird
    assert bird_tiles([], 2, winning_tile=5, haidi_win=True) == [5, 5]
    # wall otherwise empty: the winning tile is every bird ([decision])
    assert bird_tiles([], 2, winning_tile=8, haidi_win=False) == [8, 8]
    assert bird_tiles([3], 0, winning_tile=8, haidi_win=False) == []


# -------------------------------------------------- §8.2 mainstream amounts
@pytest.mark.parametrize(
    "winner, payer, self_drawn, expect",
    [(A, B, True, 2 + 1), (A, B, False, 2), (B, A, True, 2 + 1), (B, C, True, 1 + 1),
     (B, A, False, 2), (B, C, False, 1)],
)
def test_mainstream_small_amounts_section8_2(winner, payer, self_drawn, expect):
    assert pair_amount(MAIN, A, winner, payer, big=False, he=0, self_drawn=self_drawn,
                       factor=1) == expect


@pytest.mark.parametrize(
    "winner, payer, self_drawn, expect",
    [(A, B, True, 7 + 1), (A, B, False, 7), (B, A, True, 7 + 1), (B, C, True, 6 + 1),
     (B, A, False, 7), (B, C, False, 6)],
)
def test_mainstream_big_amounts_six_seven_pian_section8_2(winner, payer, self_drawn, expect):
    assert pair_amount(MAIN, A, winner, payer, big=True, he=1, self_drawn=self_drawn,
                       factor=1) == expect


def test_big_win_birds_multiply_he_and_cap_section8_2():
    stack = RuleConfig.preset("mainstream", big_win_stacking=True, cap_he=4)
    # 2 合 × factor 3 = 6, capped at 4, × (6+1); 自摸加1 outside the cap
    assert pair_amount(stack, A, A, B, big=True, he=2, self_drawn=True, factor=3) == 4 * 7 + 1
    assert pair_amount(stack, A, B, C, big=True, he=1, self_drawn=False, factor=2) == 2 * 6


# ----------------------------------------------------- §8.4 classic points
@pytest.mark.parametrize(
    "big, winner, payer, self_drawn, expect",
    [(False, A, B, True, 20), (False, B, A, True, 20), (False, B, C, True, 10),
     (False, B, C, False, 10), (False, B, A, False, 20), (False, A, B, False, 20),
     (True, A, B, True, 40), (True, B, A, True, 40), (True, B, C, True, 30),
     (True, B, C, False, 60), (True, B, A, False, 70), (True, A, C, False, 70)],
)
def test_classic_table_cells_section8_4(big, winner, payer, self_drawn, expect):
    assert pair_amount(CLASSIC, A, winner, payer, big=big, he=1, self_drawn=self_drawn,
                       factor=1) == expect


def test_classic_units_and_bird_double_section8_4():
    # 2 big units on a dealer's discard: each unit 70; one bird on the pair doubles
    assert pair_amount(CLASSIC, A, B, A, big=True, he=2, self_drawn=False, factor=1) == 140
    assert pair_amount(CLASSIC, A, B, A, big=True, he=2, self_drawn=False, factor=2) == 280
    assert pair_amount(CLASSIC, A, B, C, big=False, he=0, self_drawn=True, factor=2) == 20


def test_settle_rejects_bad_seats():
    with pytest.raises(ValueError, match="settlement seats"):
        settle(MAIN, A, A, [A], big=False, he=0, self_drawn=False, bird_seats=[])


@given(st.sampled_from([MAIN, CLASSIC, RuleConfig.preset("mainstream", big_win_stacking=True,
                                                          cap_he=6)]),
       st.integers(0, 3), st.integers(0, 3), st.booleans(), st.booleans(), st.integers(1, 6),
       st.lists(st.integers(1, 9), max_size=2), st.integers(0, 3))
def test_settlements_are_zero_sum_and_positive(cfg, dealer, winner, big, self_drawn, he,
                                               birds, discarder):
    payers = others(winner) if self_drawn else [discarder]
    if winner in payers:
        return
    s = settle(cfg, dealer, winner, payers, big=big, he=he, self_drawn=self_drawn,
               bird_seats=[bird_seat(v, dealer) for v in birds])
    assert sum(s.payments) == 0
    assert s.payments[winner] > 0
    assert all(s.payments[p] < 0 for p in payers)


def test_bird_values_are_ranks():
    from cnmahjong.envs.changsha.scoring import bird_value
    assert [bird_value(t) for t in parse("1m5s9p")] == [1, 5, 9]

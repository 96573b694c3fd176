"""Hangzhou settlement (rules §4 multipliers, §5 base table, §6 承包) and RuleConfig.

Seats in the §6 examples: 甲 0, 乙 1, 丙 2, 丁 3.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cnmahjong.envs.hangzhou.rules import RuleConfig, as_config
from cnmahjong.envs.hangzhou.scoring import base_amounts, exponent, liable_seats, piao_claim_split, settle

NO_CLAIMS = [[0] * 4 for _ in range(4)]


def claims_with(*entries: tuple[int, int, int]) -> list[list[int]]:
    c = [[0] * 4 for _ in range(4)]
    for a, b, n in entries:
        c[a][b] = n
    return c


# ------------------------------------------------------------------ §4 exponent
SOURCE_MULTIPLIERS = [
    # (source name, multiplier, description) — every entry of the source's tables
    ("杠开", 2, dict(kongs=1)),
    ("爆头", 2, dict(baotou=True)),
    ("杠暴", 4, dict(baotou=True, kongs=1)),
    ("财飘", 4, dict(baotou=True, piao=1)),
    ("双财飘", 8, dict(baotou=True, piao=2)),
    ("飘杠", 8, dict(baotou=True, piao=1, kongs=1)),
    ("一飘双杠", 16, dict(baotou=True, piao=1, kongs=2)),
    ("一飘三杠", 32, dict(baotou=True, piao=1, kongs=3)),
    ("一飘四杠", 64, dict(baotou=True, piao=1, kongs=4)),
    ("双飘双杠", 32, dict(baotou=True, piao=2, kongs=2)),
    ("双飘三杠", 64, dict(baotou=True, piao=2, kongs=3)),
    ("双飘四杠", 128, dict(baotou=True, piao=2, kongs=4)),
    ("一杠双飘", 16, dict(baotou=True, piao=2, kongs=1)),
    ("双杠爆", 8, dict(baotou=True, kongs=2)),
    ("三杠爆", 16, dict(baotou=True, kongs=3)),
    ("四杠爆", 32, dict(baotou=True, kongs=4)),
    ("七对子", 2, dict(qidui=True)),
    ("清七对", 4, dict(qidui=True, qing=True)),
    ("七对子爆头", 4, dict(qidui=True, baotou=True)),
    ("七对子财飘", 8, dict(qidui=True, baotou=True, piao=1)),
    ("七对子双财飘", 16, dict(qidui=True, baotou=True, piao=2)),
    ("豪华七对子", 4, dict(qidui=True, quads=1)),
    ("双豪华七对子", 8, dict(qidui=True, quads=2)),
    ("三豪华七对子", 16, dict(qidui=True, quads=3)),
    ("豪华七对子爆头", 8, dict(qidui=True, quads=1, baotou=True)),
    ("豪华七对子财飘", 16, dict(qidui=True, quads=1, baotou=True, piao=1)),
    ("豪华七对子双财飘", 32, dict(qidui=True, quads=1, baotou=True, piao=2)),
    ("双豪华七对子爆头", 16, dict(qidui=True, quads=2, baotou=True)),
    ("双豪华七对子财飘", 32, dict(qidui=True, quads=2, baotou=True, piao=1)),
    ("双豪华七对子双财飘", 64, dict(qidui=True, quads=2, baotou=True, piao=2)),
    ("三豪华七对子爆头", 32, dict(qidui=True, quads=3, baotou=True)),
    ("三豪华七对子财飘", 64, dict(qidui=True, quads=3, baotou=True, piao=1)),
    ("三豪华七对子双财飘", 128, dict(qidui=True, quads=3, baotou=True, piao=2)),
]


@pytest.mark.parametrize("name, multiplier, win", SOURCE_MULTIPLIERS, ids=[r[0] for r in SOURCE_MULTIPLIERS])
def test_source_multipliers_section4(name, multiplier, win):
    assert 2 ** exponent(**win) == multiplier


def test_piao_counts_only_in_a_baotou_win_section4():
    assert exponent(piao=2) == 0
    assert exponent(qidui=True, piao=1) == 1


def test_exponent_rejects_descriptions_the_rules_exclude():
    with pytest.raises(ValueError, match="qidui"):
        exponent(quads=1)
    with pytest.raises(ValueError, match="清七对"):
        exponent(qidui=True, qing=True, quads=1)
    with pytest.raises(ValueError, match="kongs"):
        exponent(kongs=-1)
    with pytest.raises(TypeError, match="piao"):
        exponent(piao=1.5)


# ------------------------------------------------------------------ §5 base table
@pytest.mark.parametrize("level, dealer_pays", [(1, 2), (2, 4), (3, 8)])
def test_base_table_section5(level, dealer_pays):
    assert base_amounts(level, dealer=0, winner=0) == [0, dealer_pays, dealer_pays, dealer_pays]
    assert base_amounts(level, dealer=0, winner=2) == [dealer_pays, 1, 0, 1]
    assert settle(level, 0, 0, 0) == [3 * dealer_pays, -dealer_pays, -dealer_pays, -dealer_pays]
    assert settle(level, 0, 2, 2) == [-4 * dealer_pays, -4, 4 * dealer_pays + 8, -4]


def test_discard_win_only_on_sanlianzhuang_between_dealer_and_non_dealer_section5():
    assert settle(3, dealer=1, winner=1, exponent=0, discarder=3) == [0, 8, 0, -8]
    assert settle(3, dealer=1, winner=2, exponent=1, discarder=1) == [0, -16, 16, 0]
    with pytest.raises(ValueError, match="三连庄"):
        settle(2, dealer=1, winner=1, exponent=0, discarder=3)
    with pytest.raises(ValueError, match="two non-dealers"):
        settle(3, dealer=1, winner=2, exponent=0, discarder=3)
    with pytest.raises(ValueError, match="self-drawn"):
        settle(3, dealer=1, winner=2, exponent=0, discarder=2)


# ------------------------------------------------------------------ §6 承包
def test_source_example_tiao_biandan_section6():
    """"甲吃了乙 3 摊，乙吃了丙 3 摊，乙胡了，那丙要承包，甲要加倍承包。"

    乙 (1) self-draws at level 1 with 丁 (3) dealing, multiplier ×1. Income without liability:
    dealer 2 + others 1 + 1 = 4. 丙 (承包) pays the income 4, 甲 (反承包) pays 2 × 4 = 8;
    乙 receives 12 (挑扁担: income + 2 × income); 丁 pays nothing."""
    claims = claims_with((0, 1, 3), (1, 2, 3))
    assert liable_seats(1, claims) == (2, (0,))
    assert settle(1, dealer=3, winner=1, exponent=0, claims=claims) == [-8, 12, -4, 0]


def test_source_example_discard_win_with_liability_section6():
    """"如果乙是 3 连庄，乙吃了甲 3 摊，丙放冲了，那甲和丙都要付。"

    乙 (1) is the dealer on 三连庄 and wins on 丙's (2) discard: 丙 pays 8; 乙 made 3 claims
    on 甲 (0), so 甲 pays the same 8 again (§6 decision); 乙 receives 16."""
    claims = claims_with((1, 0, 3))
    assert settle(3, dealer=1, winner=1, exponent=0, discarder=2, claims=claims) == [-8, 16, -8, 0]


def test_chengbao_alone_section6():
    # 乙 (1), non-dealer, self-draws ×4 at level 2; he claimed 3 times from 丁 (3).
    # Income: dealer 0 pays 4×4 = 16, 丙 and 丁 4 each = 24; 丁 pays all of it.
    assert settle(2, dealer=0, winner=1, exponent=2, claims=claims_with((1, 3, 3))) == [0, 24, 0, -24]


def test_fan_chengbao_alone_pays_twice_the_income_section6():
    # 丙 (2) made 3 claims on the winner 甲's (0, dealer, level 1) discards: income 6, 丙 pays 12.
    assert settle(1, dealer=0, winner=0, exponent=0, claims=claims_with((2, 0, 3))) == [12, 0, -12, 0]


def test_one_player_both_liable_and_fan_pays_three_times_section6():
    claims = claims_with((1, 2, 3), (2, 1, 4))  # winner 乙 on 丙 and 丙 on 乙
    assert settle(1, dealer=3, winner=1, exponent=1, claims=claims) == [0, 24, -24, 0]  # income 8


def test_discard_win_liable_or_fan_is_the_discarder_section6():
    # discard amount 8 (×1): the discarder liable pays 2 × 8, a 反承包 discarder 3 × 8
    assert settle(3, 0, 0, 0, discarder=2, claims=claims_with((0, 2, 3))) == [16, 0, -16, 0]
    assert settle(3, 0, 0, 0, discarder=2, claims=claims_with((2, 0, 3))) == [24, 0, -24, 0]
    # 反承包 by another seat on a discard win: discarder 8 + that seat 2 × 8
    assert settle(3, 0, 0, 0, discarder=2, claims=claims_with((3, 0, 3))) == [24, 0, -8, -16]


def test_liability_option_off_and_two_claims_change_nothing_section6():
    claims = claims_with((1, 2, 3), (0, 1, 3))
    assert settle(1, 3, 1, 0, claims=claims, liability=False) == settle(1, 3, 1, 0)
    assert settle(1, 3, 1, 0, claims=claims_with((1, 2, 2), (0, 1, 2))) == settle(1, 3, 1, 0)


def test_chengbao_on_two_players_takes_the_most_claimed_then_turn_order_section6():
    assert liable_seats(0, claims_with((0, 2, 3), (0, 3, 4))) == (3, ())
    assert liable_seats(0, claims_with((0, 2, 3), (0, 3, 3), (0, 1, 3))) == (1, ())


def test_piao_claim_liability_split_section6():
    """后半场承包: 乙 (1) wins ×8 (e = 3) at level 1, dealer 甲 (0); his last doubling came after
    a claim from 丙 (2) while he had a 飘. Without that doubling (×4): 甲 8, 丙 4, 丁 4; 丙 bears
    the rest: every payer's amount doubled once more, 2 + 1 + 1 = 4 × 4 = 16 on top."""
    assert piao_claim_split(1, 0, 1, 3, [2]) == [-8, 32, -20, -4]
    # two borne doublings, the first by 丁, the second by 丙: 4 × 2 (= 8) and 4 × 4 (= 16)
    assert piao_claim_split(1, 0, 1, 3, [3, 2]) == [-4, 32, -18, -10]
    assert piao_claim_split(1, 0, 1, 3, []) == settle(1, 0, 1, 3)
    with pytest.raises(ValueError, match="exceed"):
        piao_claim_split(1, 0, 1, 1, [2, 3])
    with pytest.raises(ValueError, match="own doublings"):
        piao_claim_split(1, 0, 1, 3, [1])


@settings(max_examples=300, deadline=None)
@given(level=st.sampled_from([1, 2, 3]), dealer=st.integers(0, 3), winner=st.integers(0, 3),
       disc=st.integers(0, 3), e=st.integers(0, 8), discard=st.booleans(),
       claims=st.lists(st.lists(st.integers(0, 4), min_size=4, max_size=4), min_size=4, max_size=4),
       bearers=st.lists(st.integers(0, 3), max_size=3))
def test_settlement_is_zero_sum_and_only_the_winner_gains_section7(level, dealer, winner, disc, e, discard,
                                                                  claims, bearers):
    for a in range(4):
        claims[a][a] = 0
    discarder = None
    if discard and level == 3 and disc != winner and dealer in (winner, disc):
        discarder = disc
    net = settle(level, dealer, winner, e, discarder, claims)
    assert sum(net) == 0 and net[winner] > 0 and all(v <= 0 for s, v in enumerate(net) if s != winner)
    plain = settle(level, dealer, winner, e, discarder)
    assert net[winner] >= plain[winner]  # liability never lowers the winner's income
    bearers = [b for b in bearers if b != winner][:e]
    split = piao_claim_split(level, dealer, winner, e, bearers, discarder)
    assert split[winner] == plain[winner] and sum(split) == 0


def test_settle_rejects_bad_arguments():
    with pytest.raises(ValueError, match="level"):
        settle(4, 0, 0, 0)
    with pytest.raises(ValueError, match="winner"):
        settle(1, 0, 4, 0)
    with pytest.raises(TypeError, match="exponent"):
        settle(1, 0, 0, 1.0)
    with pytest.raises(ValueError, match="4 rows"):
        settle(1, 0, 0, 0, claims=[[0] * 4])
    with pytest.raises(ValueError, match="own discard"):
        settle(1, 0, 0, 0, claims=claims_with((1, 1, 1)))
    with pytest.raises(TypeError, match="claims"):
        settle(1, 0, 0, 0, claims={0: 1})


# ------------------------------------------------------------------ RuleConfig
def test_rule_config_preset_and_options():
    cfg = RuleConfig.preset("hangzhou")
    assert cfg == RuleConfig() and cfg.claim_limits and cfg.liability and cfg.piao_claim_liability
    assert as_config({"preset": "hangzhou", "liability": False}).liability is False
    assert as_config("hangzhou").to_dict() == {"claim_limits": True, "liability": True,
                                               "piao_claim_liability": True}
    assert cfg.replace(claim_limits=False) == RuleConfig(claim_limits=False)


@pytest.mark.parametrize("bad, error, match", [
    ({"liability": 1}, ValueError, "'liability'.*True or False"),
    ({"claim_limit": True}, ValueError, "unknown rule options.*claim_limits"),
    ("changsha", ValueError, "unknown rule preset 'changsha'.*hangzhou"),
    (3, TypeError, "rules must be"),
])
def test_rule_config_rejects_bad_options(bad, error, match):
    with pytest.raises(error, match=match):
        as_config(bad)

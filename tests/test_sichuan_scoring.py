"""Sichuan payments (rules §1 dealer, §5 value, §6, §7) as pure functions, and every worked
settlement of §10 (base 1) computed from its hands."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cnmahjong.envs.core.meld import ANGANG, JIAGANG, MINGGANG, PENG, Meld
from cnmahjong.envs.core.result import Transfer
from cnmahjong.envs.core.tiles import parse, to_counts
from cnmahjong.envs.sichuan.patterns import WinContext, best_reading
from cnmahjong.envs.sichuan.rules import RuleConfig
from cnmahjong.envs.sichuan.scoring import (
    DAJIAO,
    HUAZHU,
    KONG,
    NOT_READY,
    READY,
    TRANSFER,
    TUISHUI,
    KongEntry,
    call_transfer,
    exhaustion_class,
    exhaustion_payments,
    kong_money,
    net,
    next_dealer,
    value,
    win_payments,
)

M, S, P = 0, 1, 2
ALL = (0, 1, 2, 3)


def transfers(entries):
    return [e.transfer() for e in entries]


# ------------------------------------------------------------------ §5 value
@pytest.mark.parametrize("cap,fan,want", [(3, 0, 1), (3, 2, 4), (3, 3, 8), (3, 7, 8), (4, 5, 16), (6, 6, 64),
                                          (None, 8, 256)])
def test_s5_value_capped(cap, fan, want):
    """§5: V(F) = base × 2**min(F, cap_fan); no cap: base × 2**F."""
    cfg = RuleConfig(cap_fan=cap, huazhu_fan=3)
    assert value(fan, cfg) == want
    assert value(fan, cfg.replace(base=5)) == 5 * want


# ------------------------------------------------------------------ §10 worked settlements
def test_s10_1_self_draw_qingyise_gen():
    """§10.1: seat 2 (void 筒) draws 9m to 1111234567899m: F = 3, under 加底 each pays 9 (+27); with
    ``zimo_bonus = "fan"`` F = 4 and each pays 16 (cap_fan = 4)."""
    cfg = RuleConfig(cap_fan=4)
    zimo = WinContext(self_drawn=True)
    r = best_reading("1111234567899m 9m", context=zimo, config=cfg, void=P)
    assert (r.fan, r.patterns) == (3, {"QINGYISE": 1, "GEN": 1})
    pay = win_payments(2, r.fan, cfg, remaining=ALL)
    assert pay == [Transfer(s, 2, 9, "win") for s in (0, 1, 3)]
    assert net(pay) == [-9, -9, 27, -9]
    fan = cfg.replace(zimo_bonus="fan")
    r = best_reading("1111234567899m 9m", context=zimo, config=fan, void=P)
    assert r.fan == 4 and net(win_payments(2, r.fan, fan, remaining=ALL)) == [-16, -16, 48, -16]


def test_s10_1_kong_then_gangkai():
    """§10.1: had he drawn 8m, made a 暗杠 of 1111m (+2 from each) and drawn 9m as the replacement:
    F = 清一色 2 + 根 1 + 杠上开花 1 = 4, each pays 16 + 1 = 17 (+57 in all)."""
    cfg = RuleConfig(cap_fan=4)
    kong = kong_money(0, 2, ANGANG, cfg, remaining=ALL)
    assert net(transfers(kong)) == [-2, -2, 6, -2]
    r = best_reading("23456788m 999m", [Meld(ANGANG, (0,) * 4)], "9m",
                     context=WinContext(self_drawn=True, gangkai=True), config=cfg, void=P)
    assert (r.fan, r.patterns) == (4, {"QINGYISE": 1, "GEN": 1, "GANGKAI": 1})
    win = win_payments(2, r.fan, cfg, remaining=ALL)
    assert [t.amount for t in win] == [17, 17, 17]
    assert net(transfers(kong) + win) == [-19, -19, 57, -19]


def test_s10_2_two_winners_on_one_discard():
    """§10.2 一炮双响: seat 0 discards 5s; seat 1 (void 万) 平胡 V = 1, seat 3 (void 筒) 七对 V = 4:
    seat 0 pays 1 + 4 = 5. These being the first wins, seat 0 deals next."""
    cfg = RuleConfig()
    r1 = best_reading("34s 678s 111p 456p 99p 5s", winning_tile="5s", void=M)
    r3 = best_reading("11m 33m 77m 22s 44s 99s 5s 5s", winning_tile="5s", void=P)
    assert (r1.fan, r1.patterns, r3.fan, r3.patterns) == (0, {"PINGHU": 1}, 2, {"QIDUI": 1})
    pay = win_payments(1, r1.fan, cfg, remaining=ALL, payer=0) + win_payments(3, r3.fan, cfg, remaining=ALL, payer=0)
    assert pay == [Transfer(0, 1, 1, "win"), Transfer(0, 3, 4, "win")]
    assert net(pay) == [-5, 1, 0, 4]
    assert next_dealer(2, [1, 3], first_payer=0) == 0


def test_s10_3_exhaustion():
    """§10.3 (cap 3): seat 2's 暗杠 before seat 1's win (2 from seats 0, 1, 3), seat 0's 补杠 after it
    (1 from seats 2, 3). At the empty wall seat 0 holds a 筒 (his void): 花猪; seat 2 is not ready;
    seat 3 is ready on 1112345678999s with Fmax 3. Exhaustion: seat 0 −16, seat 1 0, seat 2 −3,
    seat 3 +19; with the kong money seat 0 −16, seat 1 −2, seat 2 +2, seat 3 +16."""
    cfg = RuleConfig()
    ledger = kong_money(0, 2, ANGANG, cfg, remaining=ALL) + kong_money(1, 0, JIAGANG, cfg, remaining=(0, 2, 3))
    hands = {0: ("123m 456m 789m 1p", [Meld(PENG, (12,) * 3)], P),   # holds 1p, void 筒
             2: ("147m 258m 369s 1s", [Meld(ANGANG, (22,) * 4)], P),  # no wait
             3: ("1112345678999s", [], P)}
    classes, fans = {}, {}
    for seat, (tiles, melds, void) in hands.items():
        classes[seat], fmax = exhaustion_class(to_counts(parse(tiles)), melds, void, cfg)
        if fmax is not None:
            fans[seat] = fmax
    assert classes == {0: HUAZHU, 2: NOT_READY, 3: READY} and fans == {3: 3}
    pay = exhaustion_payments(classes, fans, ledger, cfg)
    assert pay == [Transfer(0, 2, 8, HUAZHU), Transfer(0, 3, 8, HUAZHU), Transfer(2, 3, 8, DAJIAO),
                   Transfer(2, 0, 2, TUISHUI), Transfer(2, 3, 2, TUISHUI),  # not seat 1's 2: he has won
                   Transfer(0, 2, 1, TUISHUI), Transfer(0, 3, 1, TUISHUI)]
    assert net(pay) == [-16, 0, -3, 19]
    assert [a + b for a, b in zip(net(pay), net(transfers(ledger)), strict=True)] == [-16, -2, 2, 16]


def test_s10_4_gangpao_with_call_transfer():
    """§10.4: seat 0's 暗杠 of 6666p (+6); from the replacement he discards 3m and seat 2 wins: 平胡 +
    杠上炮, F = 1, seat 0 pays 2 then K = 6. Net 0: −2, 1: −2, 2: +6, 3: −2. Had seat 3 won on that 3m
    too (V = 2), seat 0 would pay him 2 + 6 more (−10), and seat 3 would end at +6."""
    cfg = RuleConfig()
    ledger = kong_money(0, 0, ANGANG, cfg, remaining=ALL)
    pao = WinContext(gangpao=True)
    r2 = best_reading("12m 456m 789m 123p 55p 3m", winning_tile="3m", context=pao, void=S)
    assert (r2.fan, r2.patterns) == (1, {"PINGHU": 1, "GANGPAO": 1})
    win = win_payments(2, r2.fan, cfg, remaining=ALL, payer=0)
    moved, closed = call_transfer(0, 0, [2], ledger, cfg)
    assert moved == [Transfer(0, 2, 6, TRANSFER)] and closed == ledger
    assert net(transfers(ledger) + win + moved) == [-2, -2, 6, -2]
    r3 = best_reading("12m 567m 789m 789p 22p 3m", winning_tile="3m", context=pao, void=S)
    assert r3.fan == 1
    win += win_payments(3, r3.fan, cfg, remaining=ALL, payer=0)
    moved, _ = call_transfer(0, 0, [2, 3], ledger, cfg)
    assert moved == [Transfer(0, 2, 6, TRANSFER), Transfer(0, 3, 6, TRANSFER)]
    assert net(transfers(ledger) + win + moved) == [-10, -2, 6, 6]


# ------------------------------------------------------------------ §6.1 kong money
def test_s6_1_kong_table():
    """§6.1: 直杠 2 × base from the discarder; 暗杠 2 × base and 补杠 1 × base from each remaining
    seat but the owner (seats that have won pay nothing)."""
    cfg = RuleConfig(base=3)
    assert kong_money(4, 1, MINGGANG, cfg, remaining=ALL, discarder=3) == [KongEntry(4, 3, 1, 6)]
    assert kong_money(0, 1, ANGANG, cfg, remaining=(0, 1, 3)) == [KongEntry(0, 0, 1, 6), KongEntry(0, 3, 1, 6)]
    assert kong_money(2, 1, JIAGANG, cfg, remaining=ALL) == [KongEntry(2, s, 1, 3) for s in (0, 2, 3)]
    assert kong_money(0, 1, MINGGANG, cfg, remaining=ALL, discarder=3)[0].transfer() == Transfer(3, 1, 6, KONG)


def test_s3_zhuanshougang_pays_nothing_unless_option():
    """§3 转手杠: a 补杠 of a tile held from an earlier turn pays nothing; ``bugang_from_hand_pays``."""
    assert kong_money(0, 1, JIAGANG, RuleConfig(), remaining=ALL, drawn_this_turn=False) == []
    paid = kong_money(0, 1, JIAGANG, RuleConfig(bugang_from_hand_pays=True), remaining=ALL, drawn_this_turn=False)
    assert [e.amount for e in paid] == [1, 1, 1]


def test_kong_money_refuses_bad_input():
    with pytest.raises(ValueError, match="discarder"):
        kong_money(0, 1, MINGGANG, RuleConfig(), remaining=ALL)
    with pytest.raises(ValueError, match="discarder"):
        kong_money(0, 1, MINGGANG, RuleConfig(), remaining=(1, 2, 3), discarder=0)  # he has won
    with pytest.raises(ValueError, match="kong kind 'peng'"):
        kong_money(0, 1, PENG, RuleConfig(), remaining=ALL)
    with pytest.raises(ValueError, match="owner=4 out of range"):
        kong_money(0, 4, ANGANG, RuleConfig(), remaining=ALL)


# ------------------------------------------------------------------ §6.2 win payments
def test_s6_2_self_draw_only_remaining_pay():
    """§6.2 / §4: on a self-draw each remaining seat but the winner pays; a seat that has won
    pays nothing. 加底 adds base after the cap; ``"fan"`` and ``"none"`` add nothing."""
    cfg = RuleConfig(base=2)
    assert win_payments(1, 5, cfg, remaining=(1, 2)) == [Transfer(2, 1, 16 + 2, "win")]
    assert win_payments(1, 5, cfg.replace(zimo_bonus="none"), remaining=(1, 2)) == [Transfer(2, 1, 16, "win")]
    assert win_payments(1, 5, cfg.replace(zimo_bonus="fan"), remaining=(1, 2)) == [Transfer(2, 1, 16, "win")]


def test_s6_2_tiandihu_without_jiadi():
    """§6.2: 天胡 / 地胡 are paid as 自摸 or 点炮 without 加底."""
    cfg = RuleConfig()
    assert [t.amount for t in win_payments(0, 3, cfg, remaining=ALL, tiandihu=True)] == [8, 8, 8]
    assert win_payments(2, 3, cfg, remaining=ALL, payer=0, tiandihu=True) == [Transfer(0, 2, 8, "win")]


def test_s6_2_dianganghua():
    """§6.2 点杠花: under ``"zimo"`` paid as any self-draw; under ``"dianpao"`` the 直杠's discarder
    alone pays W, no 加底."""
    assert [t.amount for t in win_payments(1, 2, RuleConfig(), remaining=ALL, zhigang_discarder=3)] == [5, 5, 5]
    pay = win_payments(1, 2, RuleConfig(dianganghua="dianpao"), remaining=ALL, zhigang_discarder=3)
    assert pay == [Transfer(3, 1, 4, "win")]


def test_win_payments_refuse_bad_input():
    with pytest.raises(ValueError, match="payer 2"):
        win_payments(2, 1, RuleConfig(), remaining=ALL, payer=2)
    with pytest.raises(ValueError, match="payer 0"):
        win_payments(2, 1, RuleConfig(), remaining=(1, 2, 3), payer=0)
    with pytest.raises(ValueError, match="winner 0 is not among"):
        win_payments(0, 1, RuleConfig(), remaining=(1, 2, 3))
    with pytest.raises(ValueError, match="fan=-1"):
        win_payments(0, -1, RuleConfig(), remaining=ALL)
    with pytest.raises(ValueError, match="twice"):
        win_payments(0, 1, RuleConfig(), remaining=(0, 1, 1))


# ------------------------------------------------------------------ §6.3 呼叫转移
def test_s6_3_last_kong_only_and_hand_scope():
    """§6.3: K is the last kong's open entries (scope ``"hand"``: every open entry he owns); a last
    kong that paid nothing (转手杠) hands on nothing; ``call_transfer`` off hands on nothing."""
    cfg = RuleConfig()
    ledger = (kong_money(0, 1, ANGANG, cfg, remaining=ALL) + kong_money(1, 2, ANGANG, cfg, remaining=ALL)
              + kong_money(2, 1, MINGGANG, cfg, remaining=ALL, discarder=3))
    moved, closed = call_transfer(1, 2, [0], ledger, cfg)
    assert moved == [Transfer(1, 0, 2, TRANSFER)] and closed == [ledger[-1]]
    moved, closed = call_transfer(1, 2, [0, 3], ledger, cfg.replace(call_transfer_scope="hand"))
    assert moved == [Transfer(1, 0, 8, TRANSFER), Transfer(1, 3, 8, TRANSFER)]
    assert closed == [e for e in ledger if e.owner == 1]
    assert call_transfer(1, 5, [0], ledger, cfg) == ([], [])  # kong 5 (a 转手杠) has no entry
    assert call_transfer(1, 2, [0], ledger, cfg.replace(call_transfer=False)) == ([], [])


# ------------------------------------------------------------------ §7 exhaustion
def test_s7_huazhu_pays_non_huazhu_not_each_other_and_pays_no_dajiao():
    """§7: 花猪 pay each remaining non-花猪 base × 2**huazhu_fan (default cap_fan), not each other;
    a 花猪 pays no 查大叫; not-ready seats pay each ready seat V(Fmax)."""
    cfg = RuleConfig(huazhu_fan=5)
    pay = exhaustion_payments({0: HUAZHU, 1: HUAZHU, 2: READY, 3: NOT_READY}, {2: 1}, [], cfg)
    assert pay == [Transfer(0, 2, 32, HUAZHU), Transfer(0, 3, 32, HUAZHU), Transfer(1, 2, 32, HUAZHU),
                   Transfer(1, 3, 32, HUAZHU), Transfer(3, 2, 2, DAJIAO)]
    pay = exhaustion_payments({1: READY, 2: READY}, {1: 2, 2: 7}, [], RuleConfig())
    assert pay == []  # two ready seats pay nothing


def test_s7_tuishui_option_and_ready_keep():
    """§7 退税: not-ready seats and 花猪 return open entries to remaining payers; ready seats keep
    theirs; ``tuishui`` off returns nothing."""
    cfg = RuleConfig()
    ledger = kong_money(0, 3, ANGANG, cfg, remaining=ALL) + kong_money(1, 2, ANGANG, cfg, remaining=ALL)
    classes = {0: NOT_READY, 1: NOT_READY, 2: READY, 3: NOT_READY}
    pay = exhaustion_payments(classes, {2: 0}, ledger, cfg)
    assert [t for t in pay if t.reason == TUISHUI] == [Transfer(3, s, 2, TUISHUI) for s in (0, 1, 2)]
    assert [t for t in exhaustion_payments(classes, {2: 0}, ledger, cfg.replace(tuishui=False))
            if t.reason == TUISHUI] == []


def test_s7_classes():
    """§7: 花猪 by the declared void (a two-suit hand whose void is one of them is a 花猪); ready
    with a wait, Fmax over the waits; a wait whose four copies are held is none."""
    cfg = RuleConfig()
    assert exhaustion_class(to_counts(parse("123m 456m 789m 11s 23s")), [], P, cfg) == (READY, 0)
    assert exhaustion_class(to_counts(parse("123m 456m 789m 11s 23s")), [], S, cfg) == (HUAZHU, None)
    assert exhaustion_class(to_counts(parse("123m 456m 789m 1111s")), [], P, cfg) == (NOT_READY, None)
    assert exhaustion_class(to_counts(parse("1112345678999s")), [], M, cfg) == (READY, 3)


def test_exhaustion_payments_refuse_bad_input():
    with pytest.raises(ValueError, match="exactly the ready seats"):
        exhaustion_payments({0: READY, 1: NOT_READY}, {}, [], RuleConfig())
    with pytest.raises(ValueError, match="class 'ting'"):
        exhaustion_payments({0: "ting"}, {}, [], RuleConfig())


# ------------------------------------------------------------------ §1 dealer
def test_s1_next_dealer():
    """§1 首胡者坐庄: the first winner; several first winners: their discarder; no win: dealer stays."""
    assert next_dealer(1) == 1
    assert next_dealer(1, [3]) == 3
    assert next_dealer(1, [2, 3], first_payer=0) == 0
    with pytest.raises(ValueError, match="first_payer"):
        next_dealer(1, [2, 3])


# ------------------------------------------------------------------ §4 / §8 properties
@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 3), min_size=2), st.data())
def test_only_remaining_seats_pay_or_are_paid(rest, data):
    """§4: a seat that has won pays and receives nothing; §8: every list of transfers is zero-sum."""
    rest = sorted(rest)
    cfg = RuleConfig()
    winner = data.draw(st.sampled_from(rest))
    owner = data.draw(st.sampled_from(rest))
    ledger = list(itertools.chain(
        kong_money(0, owner, ANGANG, cfg, remaining=rest),
        kong_money(1, owner, JIAGANG, cfg, remaining=rest)))
    classes = {s: data.draw(st.sampled_from((HUAZHU, READY, NOT_READY))) for s in rest}
    fans = {s: data.draw(st.integers(0, 9)) for s in rest if classes[s] == READY}
    pay = (win_payments(winner, data.draw(st.integers(0, 9)), cfg, remaining=rest) + transfers(ledger)
           + exhaustion_payments(classes, fans, ledger, cfg))
    assert all(t.payer in rest and t.payee in rest and t.amount > 0 for t in pay)
    assert sum(net(pay)) == 0

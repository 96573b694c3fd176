"""财飘 after a claim (rules §3, §4, §6; issue #19 item 7): on a turn that begins with the 飘
player's own CHI or PENG, "爆头-ready before the claim" stands in for "before the draw", so a
财神 he then discards is a 飘, and 后半场承包 ("财飘后的财飘 … 由那一方承包") applies to it.

Seats: 0 = 甲 (dealer, level 1), 1 = 乙, 2 = 丙, 3 = 丁. Indicator 5z (中): the 财神 is 5z. §5
base amounts of 乙's self-drawn win: 甲 (dealer) 2, 丙 1, 丁 1 (sum 4).
"""

from __future__ import annotations

import pytest

from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.game import CLAIM, DISCARD, HangzhouGame
from cnmahjong.envs.hangzhou.observation import READY, encode
from cnmahjong.envs.hangzhou.rules import RuleConfig
from tests.hz_scenario import discard, hz_game, k

DEALER = "1s4s7s2p5p8p3m6m9s1z2z3z4z6z"
DEALER_9P = "1s4s7s2p5p8p3m6m9s1z2z3z4z9p"  # 甲 keeps a 9p for 乙's CHI
SEAT2 = "2s5s8s4p7p1m4m6z7z1z2z3z4z"
SEAT2_9P = "2s5s8s9p7p1m4m6z7z1z2z3z4z"  # 丙 holds a 9p for 乙's PENG
SEAT3 = "3s6s9s5m8m4p7p4z4z6z6z7z7z"
SEAT3_9P = "3s6s9s5m8m9p7p4z4z6z6z7z7z"  # 丁 holds a 9p for 乙's PENG

READY_TWO_CAISHEN = "123m456m789m9p9p5z5z"
"""爆头-ready with an extra 财神: one 5z out, 123m 456m 789m 9p9p5z are four sets."""
READY_FOR_CHI = "123m456m789m7p8p5z5z"
"""爆头-ready: one 5z out, 123m 456m 789m 7p8p5z are four sets; 7p8p CHI a 9p."""


def discards(game: HangzhouGame, seat: int) -> list[dict]:
    return [e for e in game.events if e["type"] == "discard" and e["seat"] == seat]


def discard_drawn(game: HangzhouGame) -> None:
    s = game.to_act[0]
    assert game.phase == DISCARD and game.drawn is not None
    game.step(s, game.drawn)


def play_piao_peng_piao(option: bool) -> HangzhouGame:
    """乙 is 爆头-ready holding two 财神 and draws the third: he throws it, a 飘 (count 1). With
    his 飘 pending, 丁 discards 9p and 乙 PENGs it (丁 is P); from the 13-tile hand he held before
    the claim he was 爆头-ready, so the 财神 he throws now is a 飘 too (count 2). He keeps one
    财神 (123m 456m 789m + PENG 9p: ready) and self-draws 6p: 爆头 with two 飘."""
    hands = [DEALER, READY_TWO_CAISHEN, SEAT2, SEAT3_9P]
    g = hz_game(hands, indicator="5z", head="5z 8s 1p 2s 3s 4s 6p",
                config=RuleConfig(piao_claim_liability=option))
    g.step(0, discard("9s"))
    g.step(1, discard("5z"))  # 飘 1: 爆头-ready before the draw
    assert g.piao[1] == 1 and g.piao_pending == [1]
    discard_drawn(g)  # 丙 8s
    g.step(3, discard("9p"))
    assert g.phase == CLAIM and g.to_act == [1]  # 甲 is restricted by 乙's pending 飘; 乙 may claim
    g.step(1, A.PENG)
    assert g.piao_pending == [] and g.piao[1] == 1  # his turn came: the restriction ends, the count stays
    assert encode(g, 1)[READY].all()  # the observation: a 财神 discard now is a 飘
    g.step(1, discard("5z"))  # 飘 2: 爆头-ready before the claim
    assert g.piao[1] == 2 and g.piao_pending == [1]
    for _ in range(3):  # 丙, 丁, 甲 draw and discard; nobody else may claim
        discard_drawn(g)
    assert g.to_act == [1] and g.drawn == k("6p") and g.piao_pending == []
    g.step(1, A.HU)
    return g


@pytest.mark.parametrize("option, payments", [
    # §6 后半场承包 on: the 2nd 飘 came after the claim on 丁 while the count was 1, so 丁 bears
    # that doubling. At ×4 (e = 2): 甲 2×4 = 8, 丙 1×4 = 4, 丁 1×4 = 4; 丁 pays the rest of every
    # payer's amount, (2 + 1 + 1) × (8 − 4) = 16, so 丁 pays 4 + 16 = 20. 乙: 8 + 4 + 20 = 32.
    (True, (-8, 32, -4, -20)),
    # off: plain §5 at ×8: 甲 2×8 = 16, 丙 1×8 = 8, 丁 1×8 = 8; 乙 +32.
    (False, (-16, 32, -8, -8)),
])
def test_piao_after_peng_with_piao_pending_then_baotou_x8_section3_section4_section6(option, payments):
    """§3 财飘 after a PENG made with the 飘 pending: ×8 = 2**(爆头 1 + 2 飘) (§4), and §6
    后半场承包 puts the second doubling on the PENG's discarder."""
    g = play_piao_peng_piao(option)
    flags = [e.get("piao", False) for e in discards(g, 1)]
    assert flags == [True, True]
    assert discards(g, 1)[1] == {"type": "discard", "seat": 1, "tile": k("5z"), "piao": True}
    r = g.result
    assert r.winners == (1,) and r.self_drawn and r.winning_tiles[1] == k("6p")
    assert r.value[1] == 3 and r.patterns[1] == {"BAOTOU": 1, "CAIPIAO": 2}
    assert r.extras["liable"] == {"chengbao": None, "fan": [], "borne": [3] if option else []}
    assert r.payments == payments and sum(r.payments) == 0
    assert g.events[-2]["payments"] == list(payments)
    again = HangzhouGame.replay(g.events)
    assert again.events == g.events and again.result == r


@pytest.mark.parametrize("option, payments", [
    # on: 甲 (the CHI's discarder) bears the 2nd 飘. At ×4: 甲 8, 丙 4, 丁 4; 甲 also pays
    # (2 + 1 + 1) × (8 − 4) = 16, so 24 in all. 乙: 24 + 4 + 4 = 32.
    (True, (-24, 32, -4, -4)),
    (False, (-16, 32, -8, -8)),  # plain ×8
])
def test_piao_after_chi_with_piao_pending_section3_section6(option, payments):
    """§3 财飘 after a CHI: 乙 飘s (count 1), CHIs 甲's 9p (789p) with the 飘 pending, throws a
    财神: 飘 2; then self-draws 爆头, ×8, 甲 bearing the second doubling (§6)."""
    hands = [DEALER_9P, READY_FOR_CHI, SEAT2, SEAT3]
    g = hz_game(hands, indicator="5z", head="5z 8s 1p 6z 2s 3s 4s 6p",
                config=RuleConfig(piao_claim_liability=option))
    g.step(0, discard("9s"))
    g.step(1, discard("5z"))  # 飘 1
    discard_drawn(g)  # 丙 8s
    discard_drawn(g)  # 丁 1p
    assert g.to_act == [0] and g.drawn == k("6z")
    g.step(0, discard("9p"))
    assert g.phase == CLAIM and g.legal_actions(1) == [A.CHI_HIGH, A.PASS]
    g.step(1, A.CHI_HIGH)
    assert g.melds[1][0].kind == "chi" and g.melds[1][0].from_seat == 0
    g.step(1, discard("5z"))  # 飘 2: 爆头-ready before the CHI
    assert [e.get("piao", False) for e in discards(g, 1)] == [True, True]
    assert g.piao[1] == 2 and g.piao_pending == [1]
    assert g.doublings[1] == [("piao", None), ("piao", 0)]  # the second borne by 甲 (§6)
    for _ in range(3):
        discard_drawn(g)
    g.step(1, A.HU)
    r = g.result
    assert r.value[1] == 3 and r.patterns[1] == {"BAOTOU": 1, "CAIPIAO": 2}
    assert r.extras["liable"]["borne"] == ([0] if option else [])
    assert r.payments == payments and sum(r.payments) == 0
    again = HangzhouGame.replay(g.events)
    assert again.events == g.events and again.result == r


def test_piao_pending_restricts_the_others_again_after_the_claim_section3():
    """After the PENG his pending 飘 ended (his turn came); the 飘 he throws then makes it pending
    again: until his next draw 丁 may not PENG 丙's 4z (丁 holds 4z 4z)."""
    hands = [DEALER, READY_TWO_CAISHEN, SEAT2, SEAT3_9P]
    g = hz_game(hands, indicator="5z", head="5z 8s 1p 2s")
    g.step(0, discard("9s"))
    g.step(1, discard("5z"))
    discard_drawn(g)
    g.step(3, discard("9p"))
    g.step(1, A.PENG)
    g.step(1, discard("5z"))
    assert g.piao_pending == [1] and g.to_act == [2]
    g.step(2, discard("4z"))
    assert g.phase == DISCARD and g.to_act == [3]  # no PENG window for 丁


def test_claim_when_not_baotou_ready_then_caishen_is_an_ordinary_discard_section3():
    """乙 (123m 456m 789m 9p9p 1z 5z) is not 爆头-ready (one 5z out, 1z is left single). He PENGs
    丙's 9p and throws his 财神: an ordinary discard (no 飘, nothing pending), so 丁 may PENG 丙's
    next 4z."""
    hands = [DEALER, "123m456m789m9p9p1z5z", SEAT2_9P, SEAT3]
    g = hz_game(hands, indicator="5z", head="8s 8m 1p")
    g.step(0, discard("9s"))
    discard_drawn(g)  # 乙 8s
    g.step(2, discard("9p"))
    assert g.phase == CLAIM and g.to_act == [1]
    g.step(1, A.PENG)
    assert not encode(g, 1)[READY].any()
    g.step(1, discard("5z"))
    assert "piao" not in discards(g, 1)[-1]
    assert g.piao[1] == 0 and g.piao_pending == [] and g.doublings[1] == []
    g.step(2, discard("4z"))
    assert g.phase == CLAIM and g.legal_actions(3) == [A.PENG, A.PASS]


def test_piao_streak_ends_when_not_baotou_ready_before_the_claim_section3():
    """乙, 爆头-ready with two 财神, draws 1z and throws a 财神 instead of winning: a 飘 (count 1),
    but his hand (… 9p9p 5z 1z) is no longer 爆头-ready. He PENGs 丙's 9p with the 飘 pending; the
    财神 he throws then is an ordinary discard: his 飘 count (and 后半场承包 bearer) is reset."""
    hands = [DEALER, READY_TWO_CAISHEN, SEAT2_9P, SEAT3]
    g = hz_game(hands, indicator="5z", head="1z 8m")
    g.step(0, discard("9s"))
    assert A.HU in g.legal_actions(1)
    g.step(1, discard("5z"))  # 飘: he could have won
    assert g.piao[1] == 1 and g.piao_pending == [1]
    g.step(2, discard("9p"))
    assert g.to_act == [1]
    g.step(1, A.PENG)
    assert g.bearer[1] == 2
    g.step(1, discard("5z"))
    assert [e.get("piao", False) for e in discards(g, 1)] == [True, False]
    assert g.piao[1] == 0 and g.piao_pending == [] and g.doublings[1] == [] and g.bearer[1] is None


def test_piao_after_a_claim_needs_no_earlier_piao_section3():
    """[reading] "before the claim" stands in for "before the draw" whatever the 飘 count: 乙,
    爆头-ready with no 飘 yet, PENGs 丙's 9p and throws a 财神: a 飘 (count 1). The claim was made
    with no 飘 count, so nobody bears it (§6); he then self-draws 爆头 with one 飘: ×4, §5 split:
    甲 2×4 = 8, 丙 4, 丁 4; 乙 +16."""
    hands = [DEALER, READY_TWO_CAISHEN, SEAT2_9P, SEAT3]
    g = hz_game(hands, indicator="5z", head="8s 8m 1p 2s 6s 6p")
    g.step(0, discard("9s"))
    discard_drawn(g)  # 乙 8s (he could have won: 爆头)
    g.step(2, discard("9p"))
    g.step(1, A.PENG)
    assert g.bearer[1] is None
    g.step(1, discard("5z"))
    assert discards(g, 1)[-1].get("piao") is True
    assert g.piao[1] == 1 and g.piao_pending == [1] and g.doublings[1] == [("piao", None)]
    for _ in range(3):
        discard_drawn(g)
    g.step(1, A.HU)
    r = g.result
    assert r.value[1] == 2 and r.patterns[1] == {"BAOTOU": 1, "CAIPIAO": 1}
    assert r.extras["liable"]["borne"] == [] and r.payments == (-8, 16, -4, -4)
    assert HangzhouGame.replay(g.events).events == g.events

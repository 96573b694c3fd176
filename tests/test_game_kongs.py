"""Kongs: 补张 (§6.1), robbing a 补张 (§6.2), 开杠 with dice (§6.3), 抢杠胡 (§6.4),
杠上开花 / 杠上炮 and the lock, kongs near the end (§6.5)."""

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.game import DICE, DISCARD, KONG_DISCARD, KONG_DRAW, ROB
from cnmahjong.envs.changsha.rules import RuleConfig
from tests.scenario import (
    NO_OPENING,
    READY_22P,
    READY_55P,
    answer,
    build,
    discard_drawn,
    pass_claims,
    t,
    to_seat1_discard,
)

# Dealer hands with a concealed quad of 2m; after setting it aside the first waits on 2p.
QUAD_READY = "2222m345m678s456p2p"
QUAD_NOT_READY = "2222m345m678s46p19p"
# Seat 3 holds 555m; after a kong of 5m it waits on 2p.
TRIPLE_5M = "555m345s678s456p2p"


def events_of(g, kind):
    return [e for e in g.events if e["type"] == kind]


# --------------------------------------------------------------- 补张 §6.1
def test_concealed_buzhang_draws_from_tail_and_cannot_be_robbed_section6_1():
    g = build({0: QUAD_READY, 2: READY_55P}, "1s", filler_wall=30, tail="8s9s")
    assert A.buzhang(t("2m")) in g.legal_actions(0)
    g.step(0, A.buzhang(t("2m")))
    # seat 2 "waits" on 2m by its own tiles, but a 暗杠 cannot be robbed (§6.2)
    assert g.phase == DISCARD and g.to_act == [0]
    assert g.melds[0][0].kind == "angang"
    # the tail draw takes the top of the last stack: 8s (9s is its bottom)
    assert g.drawn == t("8s") and events_of(g, "draw")[-1]["source"] == "tail"
    assert not events_of(g, "dice")


def test_buzhang_from_discard_and_self_drawn_win_on_replacement_section6_1():
    g = to_seat1_discard({3: TRIPLE_5M}, wall="9s1s1s", tail="2p8s")
    assert g.legal_actions(3) == [A.PENG, A.BUZHANG_CLAIM, A.KAIGANG_CLAIM, A.PASS]
    answer(g, {3: A.BUZHANG_CLAIM})
    assert g.melds[3][0].kind == "minggang" and g.drawn == t("2p")
    assert A.HU in g.legal_actions(3)
    g.step(3, A.HU)
    r = g.result
    # an ordinary self-drawn win: 平胡, no 杠上开花
    assert tuple(r.patterns[3]) == ("PINGHU",) and r.self_drawn
    # birds 1s,1s on the dealer: dealer pays (1+1)×3+1, the others 1×1+1
    assert r.payments == (-7, -2, -2, 11)


def to_added_kong(**kw):
    """Seat 2 PENGs 5m, seat 3 gets ready on 2m/5m later, then seat 2 draws the fourth 5m.

    Seat 3 was not ready when the 5m was discarded, so no 漏胡 bars it from robbing.
    """
    g = build({1: "5m123s456s789p22m6p", 2: "55m123p789s23m88p1s", 3: "34m678m567s5p789p9m"},
              "9s5p1s9s5m3s3s", filler_wall=30, **kw)
    g.step(0, t("9m"))
    pass_claims(g)
    g.step(1, t("5m"))
    answer(g, {2: A.PENG})
    g.step(2, t("1s"))
    pass_claims(g)
    assert g.drawn == t("5p")
    g.step(3, t("9m"))  # seat 3 is now ready on 2m/5m
    pass_claims(g)
    discard_drawn(g)  # dealer
    discard_drawn(g)  # seat 1
    assert g.to_act == [2] and g.drawn == t("5m")
    return g


def test_robbing_an_added_buzhang_is_an_ordinary_win_kong_player_pays_section6_2():
    g = to_added_kong()
    assert A.buzhang(t("5m")) in g.legal_actions(2)
    g.step(2, A.buzhang(t("5m")))  # 加杠 by 补张
    assert g.phase == ROB and g.to_act == [3]
    g.step(3, A.HU)
    r = g.result
    assert tuple(r.patterns[3]) == ("PINGHU",) and r.won_from[3] == 2  # not 抢杠: an ordinary win
    # birds 3s, 3s land opposite the dealer: on seat 2, the payer: factor 3
    assert r.payments == (0, 0, -3, 3)


# --------------------------------------------------------------- 开杠 §6.3
def test_kaigang_only_when_ready_section6_3():
    g = build({0: QUAD_NOT_READY}, "1s", filler_wall=30)
    assert A.buzhang(t("2m")) in g.legal_actions(0)
    assert A.kaigang(t("2m")) not in g.legal_actions(0)
    g = build({0: QUAD_READY}, "1s", filler_wall=30)
    assert A.kaigang(t("2m")) in g.legal_actions(0)


def test_kaigang_two_dice_select_stack_from_tail_gangshang_kaihua_section6_3():
    g = build({0: QUAD_READY}, "1s2s", filler_wall=30, tail="2p9p8s8s", dice=[1, 1])
    g.step(0, A.kaigang(t("2m")))
    assert events_of(g, "dice")[-1]["values"] == [1, 1]
    # total 2: the second stack from the tail holds 2p (top) and 9p
    assert events_of(g, "kong_draw")[-1]["tiles"] == [t("2p"), t("9p")]
    assert g.phase == KONG_DRAW and g.legal_actions(0) == [A.HU, A.PASS]
    assert g.revealed == [t("2p"), t("9p")]
    g.step(0, A.HU)
    r = g.result
    assert tuple(r.patterns[0]) == ("GANGSHANG_KAIHUA",)
    # birds 1s, 2s on seats 0 and 1; big self-drawn by the dealer: 7 × factor + 1
    assert r.payments == (52, -22, -15, -15)


def test_both_drawn_tiles_win_two_he_only_with_stacking_section4():
    for cfg, he in ((NO_OPENING, 1), (NO_OPENING.replace(big_win_stacking=True), 2)):
        g = build({0: QUAD_READY}, "1s2s", filler_wall=30, tail="2p2p8s8s", dice=[1, 1], config=cfg)
        g.step(0, A.kaigang(t("2m")))
        g.step(0, A.HU)
        assert g.result.value[0] == he


def test_unused_kong_tiles_are_discarded_hu_only_gangshang_pao_section6_3():
    g = build({0: QUAD_READY, 2: READY_55P}, "1s2s", filler_wall=30, tail="5m9p8s8s", dice=[1, 1])
    g.step(0, A.kaigang(t("2m")))
    # 暗杠: no rob window, though seat 2 "waits" on 2m; nothing to decide on the draw
    assert g.phase == KONG_DISCARD and g.to_act == [2]
    assert g.legal_actions(2) == [A.HU, A.PASS]  # HU only on forced discards
    assert g.rivers[0] == [t("5m"), t("9p")] and g.locked[0]
    g.step(2, A.HU)
    r = g.result
    assert tuple(r.patterns[2]) == ("GANGSHANG_PAO",) and r.won_from[2] == 0
    # birds on seats 0 and 1: one on the pair (2, 0): factor 2; big with the dealer: 7
    assert r.payments == (-14, 0, 14, 0)


def test_locked_after_unused_kong_draw_section6_3():
    g = build({0: QUAD_READY, 2: READY_55P}, "1s9s3p8p", filler_wall=30, tail="5m9p8s8s",
              dice=[1, 1])
    g.step(0, A.kaigang(t("2m")))
    g.step(2, A.PASS)
    assert g.locked[0] and any(e["type"] == "lock" and e["seat"] == 0 for e in g.events)
    assert g.to_act == [1] and g.drawn == t("1s")
    discard_drawn(g)  # seat 1 throws 1s
    discard_drawn(g)  # seat 2 throws 9s
    g.step(3, t("3p"))  # the dealer could CHI 3p with 45p, but he is locked
    assert g.phase == DISCARD and g.to_act == [0] and g.drawn == t("8p")
    assert g.legal_actions(0) == [t("8p")]  # only the drawn tile may be discarded


def test_dice_choice_between_six_and_eleven_stacks_section6_3():
    g = build({0: QUAD_READY}, "1s2s", filler_wall=12, tail="2p9p8s8s", dice=[2])
    assert g.wall.stacks_left() == 9
    g.step(0, A.kaigang(t("2m")))
    assert g.phase == DICE and g.legal_actions(0) == [A.DICE_ONE, A.DICE_TWO]
    g.step(0, A.DICE_ONE)
    assert events_of(g, "dice")[-1]["values"] == [2]
    assert events_of(g, "kong_draw")[-1]["tiles"] == [t("2p"), t("9p")]


def test_dice_fixed_to_two_without_choice_and_one_below_six_stacks_section6_3():
    cfg = NO_OPENING.replace(kong_dice_choice=False)
    g = build({0: QUAD_READY}, "1s2s", filler_wall=12, tail="2p9p8s8s", dice=[1, 1], config=cfg)
    g.step(0, A.kaigang(t("2m")))
    assert g.phase == KONG_DRAW and events_of(g, "dice")[-1]["values"] == [1, 1]
    g = build({0: QUAD_READY}, "1s2s", filler_wall=4, tail="2p9p8s8s", dice=[2])
    assert g.wall.stacks_left() == 5
    g.step(0, A.kaigang(t("2m")))
    assert events_of(g, "dice")[-1]["values"] == [2]


def test_classic_kong_takes_one_tile_section6_3():
    cfg = RuleConfig.preset("classic", opening_wins=())
    g = build({0: QUAD_READY}, "1s2s", filler_wall=30, tail="9p2p8s8s", dice=[1, 1], config=cfg)
    g.step(0, A.kaigang(t("2m")))
    assert events_of(g, "kong_draw")[-1]["tiles"] == [t("9p")]
    assert g.wall.tiles()[-3:] == [t("2p"), t("8s"), t("8s")]  # 2p, the bottom, stays


def test_kaigang_again_with_a_drawn_tile_section6_3():
    g = build({0: "2222m333s456p5p789m"}, "1s2s", filler_wall=30, tail="3s9p5p8s8s7s",
              dice=[1, 2, 1, 1])
    g.step(0, A.kaigang(t("2m")))
    # total 3: the third stack from the tail holds 3s and 9p; 3s makes a fourth 3s
    assert events_of(g, "kong_draw")[-1]["tiles"] == [t("3s"), t("9p")]
    assert g.legal_actions(0) == [A.kaigang(t("3s")), A.PASS]
    g.step(0, A.kaigang(t("3s")))
    # 9p was discarded first (nobody could win on it), then the new 开杠 rolled
    assert g.rivers[0] == [t("9p")] and g.locked[0]
    assert [m.kind for m in g.melds[0]] == ["angang", "angang"]
    assert events_of(g, "kong_draw")[-1]["tiles"] == [t("5p"), t("8s")]
    g.step(0, A.HU)
    assert tuple(g.result.patterns[0]) == ("GANGSHANG_KAIHUA",)


# ----------------------------------------------------------- 抢杠胡 §6.4
def test_robbing_an_open_kaigang_from_a_discard_qianggang_section6_4():
    # seat 2 waits on 5m with a false 将 (11m): no win on the plain discard, but it may rob
    g = to_seat1_discard({2: "11m234s678p345p46m", 3: TRIPLE_5M}, wall="9s1s1s", dice=[3, 3], filler_wall=30)
    assert A.HU not in g.legal_actions(2)
    before = g.wall.remaining
    answer(g, {3: A.KAIGANG_CLAIM})
    assert events_of(g, "dice")[-1]["values"] == [3, 3]
    assert g.phase == ROB and g.to_act == [2]  # the discarder, seat 1, is not asked
    assert g.wall.remaining == before  # robbed before the draw
    g.step(2, A.HU)
    r = g.result
    assert tuple(r.patterns[2]) == ("QIANGGANG",) and r.won_from[2] == 3
    assert r.payments == (0, 0, 6, -6)  # birds 1s, 1s on the dealer: factor 1, big 6


def test_passed_hu_may_still_rob_the_kaigang_made_on_that_discard_section6_4():
    g = to_seat1_discard({2: READY_22P, 3: TRIPLE_5M}, wall="9s1s1s", dice=[3, 3], filler_wall=30)
    assert A.HU in g.legal_actions(2)
    answer(g, {2: A.PASS, 3: A.KAIGANG_CLAIM})
    assert g.louhu[2] & (1 << t("5m"))
    assert g.phase == ROB and g.legal_actions(2) == [A.HU, A.PASS]
    g.step(2, A.HU)
    assert tuple(g.result.patterns[2]) == ("QIANGGANG",)


def test_buzhang_on_a_discard_is_not_robbable_section6_2():
    g = to_seat1_discard({2: "11m234s678p345p46m", 3: TRIPLE_5M}, wall="9s1s1s", tail="8s9s")
    answer(g, {3: A.BUZHANG_CLAIM})
    assert g.phase == DISCARD and g.to_act == [3] and g.drawn == t("8s")


def test_robbing_an_added_kaigang_section6_4():
    g = to_added_kong(dice=[2, 2])
    g.step(2, A.kaigang(t("5m")))  # 加杠 by 开杠: ready on 1m/4m
    assert g.phase == ROB and g.to_act == [3]
    g.step(3, A.HU)
    assert tuple(g.result.patterns[3]) == ("QIANGGANG",) and g.result.won_from[3] == 2


# ------------------------------------------------------------ §6.5 the end
def test_buzhang_takes_the_haidi_tile_no_haidi_and_hu_only_after_section6_5():
    g = build({0: "2222m345m678s456p9m", 2: "99m147s147p369s3p8p"}, "9p")
    assert g.wall.remaining == 1 and A.buzhang(t("2m")) in g.legal_actions(0)
    g.step(0, A.buzhang(t("2m")))
    assert g.drawn == t("9p") and g.wall.remaining == 0
    g.step(0, t("9m"))
    # seat 2 holds 99m, but the last discard may only be won on: nobody is asked
    assert g.done and g.result.drawn
    assert g.result.next_dealer == 0  # §9: the player who used the 海底 as a replacement


def test_no_kong_on_haidi_when_option_off_section6_5():
    g = build({0: "2222m345m678s456p9m"}, "9p", config=NO_OPENING.replace(kong_on_haidi=False))
    assert not any(a >= A.BUZHANG_SELF and a < A.HU for a in g.legal_actions(0))


def test_kaigang_on_the_haidi_tile_one_die_section6_5():
    g = build({0: "2222m345m678s456p9m"}, "9p", dice=[4])
    g.step(0, A.kaigang(t("2m")))
    assert events_of(g, "dice")[-1]["values"] == [4]  # fewer than 6 stacks: one die
    assert events_of(g, "kong_draw")[-1]["tiles"] == [t("9p")]  # the total overflows: tail
    assert g.done and g.result.drawn  # 9p discarded, nobody wins, the wall is empty

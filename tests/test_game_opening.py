"""Opening-hand wins (起手胡, §3.2) through the engine, and the next-dealer rule G (§9)."""

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.game import DISCARD, OPENING
from cnmahjong.envs.changsha.rules import RuleConfig
from tests.scenario import build, t

MAIN = RuleConfig.preset("mainstream")
SIXI_ONLY = "1111m23m258s369p6s"
SIXI_AND_LIULIU = "1111m333s258p36m9p"
OTHER_SIXI = "9999s23m58m36p47p2p"


def test_declare_opening_win_paid_as_small_self_draw_with_dice_birds_section3_2():
    g = build({1: SIXI_ONLY}, "", dice=[2, 3], config=MAIN)
    assert g.phase == OPENING and g.to_act == [1]
    assert g.legal_actions(1) == [A.PASS, A.declare("SIXI")]
    g.step(1, A.declare("SIXI"))
    # dice 2, 3 land on seats 1 and 2; non-dealer small self-draw with 自摸加1:
    # dealer (1+1)×2+1 = 5, seat 2 1×3+1 = 4, seat 3 1×2+1 = 3
    assert g.payments == [-5, 12, -4, -3]
    assert g.shown[1][t("1m")] == 4 and sum(g.shown[1]) == 4  # the four 1m are public
    assert sum(g.hands[1]) == 13  # shown tiles stay in the hand
    assert g.phase == DISCARD and g.to_act == [0]  # play goes on with the dealer


def test_opening_payments_stand_in_a_drawn_hand_and_rule_g_section8_5():
    g = build({1: SIXI_ONLY}, "", dice=[2, 3], config=MAIN)
    g.step(1, A.declare("SIXI"))
    g.step(0, g.legal_actions(0)[0])
    while not g.done:  # empty wall: the hand is drawn at once (claims, if any, passed)
        s = g.to_act[0]
        g.step(s, A.PASS)
    r = g.result
    assert r.drawn and r.payments == (-5, 12, -4, -3)
    assert r.extras["opening"][0]["pattern"] == "SIXI" and r.extras["opening"][0]["dice"] == [2, 3]
    assert r.next_dealer == 1  # §9 rule G: the one declaring seat deals next


def test_one_pattern_without_stacking_several_with_section3_2():
    g = build({1: SIXI_AND_LIULIU}, "", dice=[1, 1], config=MAIN)
    assert g.legal_actions(1) == [A.PASS, A.declare("SIXI"), A.declare("LIULIUSHUN")]
    g.step(1, A.declare("SIXI"))
    assert g.to_act == [0] and g.phase == DISCARD
    stacking = MAIN.replace(opening_win_stacking=True)
    g = build({1: SIXI_AND_LIULIU}, "", dice=[1, 1, 4, 4], config=stacking)
    g.step(1, A.declare("SIXI"))
    assert g.to_act == [1] and g.legal_actions(1) == [A.PASS, A.declare("LIULIUSHUN")]
    g.step(1, A.declare("LIULIUSHUN"))
    assert [d["dice"] for d in g._opening] == [[1, 1], [4, 4]]  # each with its own dice
    assert g.declared[1] == ["SIXI", "LIULIUSHUN"]
    assert sum(g.payments) == 0 and g.payments[1] > 0


def test_seats_asked_in_turn_order_from_the_dealer_section3_2():
    g = build({0: SIXI_ONLY, 3: OTHER_SIXI}, "", dealer=2, config=MAIN, dice=[1] * 8)
    assert g.to_act == [3]
    g.step(3, A.PASS)
    assert g.to_act == [0]
    g.step(0, A.PASS)
    assert g.phase == DISCARD and g.to_act == [2]


def test_presets_offer_only_their_patterns_section10():
    santong = "22m22s22p13m469s17p"
    assert build({1: santong}, "", config=MAIN).legal_actions(1) == [A.PASS, A.declare("SANTONG")]
    classic = RuleConfig.preset("classic")
    g = build({1: santong}, "", config=classic)
    assert g.phase == DISCARD and g.to_act == [0]


def test_rule_g_two_declarers_first_bird_of_first_declaration_section9():
    g = build({1: SIXI_ONLY, 3: OTHER_SIXI}, "", dice=[3, 3, 1, 1], config=MAIN)
    g.step(1, A.declare("SIXI"))
    g.step(3, A.declare("SIXI"))
    g.step(0, g.legal_actions(0)[0])
    while not g.done:
        g.step(g.to_act[0], A.PASS)
    assert g.result.next_dealer == 2  # die 3 of the first declaration: opposite the dealer


def test_a_shown_tile_leaving_the_hand_tells_nothing_of_the_concealed_copies_section3_2():
    """§3.2: the tiles an opening win shows are public; when one of that kind leaves the hand in
    sight, the others know one shown copy fewer is surely still there, whatever the hand holds
    unseen. Two hands the dealer cannot tell apart (a fourth 1m concealed or not) give it the
    same shown counts and the same observation (the old clamp to the hand's count told them apart)."""
    from cnmahjong.envs.core.ruleset import get_ruleset

    def after_discarding_1m(seat1: str):
        g = build({0: "2345678m234p567s9p", 1: seat1}, "9s9s", dice=[2, 3], config=MAIN)
        g.step(1, A.declare("LIULIUSHUN"))
        g.step(0, t("9p"))
        while g.to_act != [1]:
            g.step(g.to_act[0], A.PASS)
        g.step(1, t("1m"))
        return g

    three, four = after_discarding_1m("111m333s2589s147p"), after_discarding_1m("1111m333s589s147p")
    assert three.hands[1][t("1m")] == 2 and four.hands[1][t("1m")] == 3
    assert list(three.shown[1]) == list(four.shown[1])
    assert three.shown[1][t("1m")] == 2 and three.shown[1][t("3s")] == 3
    encode = get_ruleset("changsha").encoder()
    assert (encode(three, 0) == encode(four, 0)).all()

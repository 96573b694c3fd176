"""The hand as a state machine: deal (§1), turns and claims (§5), 漏胡, 天胡/地胡 (§4),
海底 (§7), settlement through the engine (§8), errors, events and replay."""

import importlib
import json

import pytest

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.game import (
    CLAIM,
    DISCARD,
    HAIDI,
    HAIDI_DISCARD,
    HAIDI_DRAW,
    ChangshaGame,
    IllegalActionError,
)
from cnmahjong.envs.changsha.rules import RuleConfig
from tests.scenario import READY_22P, READY_55P, answer, build, pass_claims, t, to_seat1_discard

# A dealer hand that throws 5m first and holds no pair or run (claims are easy to read).
DEALER = "5m9m147s147p9s9p28s36p"


# ------------------------------------------------------------------ §1 deal
def test_deal_sizes_and_wall_section1():
    g = ChangshaGame(seed=3, dealer=2)
    sizes = [sum(h) for h in g.hands]
    assert sizes[2] == 14 and sizes.count(13) == 3
    assert g.wall.remaining == 55
    assert g.tiles_accounted() == 108


def test_deal_order_four_at_a_time_section1():
    g = ChangshaGame(seed=11, dealer=1)
    wall_order = list(g.events[0]["hands"])  # sorted hands; rebuild the shuffle instead
    import random

    from cnmahjong.envs.core.wall import shuffled
    tiles = shuffled(random.Random(11))  # the wall as the game shuffles it with seed 11
    order = [1, 2, 3, 0]
    expect = {s: [] for s in range(4)}
    pos = 0
    for _ in range(3):
        for s in order:
            expect[s] += tiles[pos:pos + 4]
            pos += 4
    for s in order:
        expect[s].append(tiles[pos])
        pos += 1
    expect[1].append(tiles[pos])
    pos += 1
    assert pos == 53
    assert [sorted(expect[s]) for s in range(4)] == wall_order
    assert g.wall.tiles() == tiles[53:]


@pytest.mark.parametrize("dealer", range(4))
def test_deal_hands_four_at_a_time_from_every_dealer_section1(dealer):
    """§1's deal of the first 53 tiles drawn: four at a time three rounds from the dealer on, one
    each, one more for the dealer; a shuffle's list (compiled: C loops) and any other sequence
    (a tuple: the itemgetters) alike; a list too short is refused."""
    from cnmahjong.envs.core.engine import deal_hands

    tiles = list(range(100, 153))
    order = [(dealer + i) % 4 for i in range(4)]
    want = [[] for _ in range(4)]
    for r in range(3):
        for j, s in enumerate(order):
            want[s] += tiles[16 * r + 4 * j:16 * r + 4 * j + 4]
    for j, s in enumerate(order):
        want[s].append(tiles[48 + j])
    want[dealer].append(tiles[52])
    assert deal_hands(tiles, dealer) == deal_hands(tuple(tiles), dealer) == want
    with pytest.raises(IndexError):
        deal_hands(tiles[:52], dealer)


def test_shuffle_is_a_uniform_permutation_section1():
    """§1: 108 tiles, four of each kind, in random order. Over 3,000 shuffles the kind at
    the head and at the tail are uniform (chi-square, 26 degrees of freedom, p < 0.001
    rejects above 54.05)."""
    import random

    from cnmahjong.envs.core.wall import shuffled
    rng = random.Random(0)
    head, tail = [0] * 27, [0] * 27
    n = 3000
    for _ in range(n):
        tiles = shuffled(rng)
        assert sorted(tiles) == [k for k in range(27) for _ in range(4)]
        head[tiles[0]] += 1
        tail[tiles[-1]] += 1
    for counts in (head, tail):
        chi2 = sum((c - n / 27) ** 2 / (n / 27) for c in counts)
        assert chi2 < 54.05, counts


def test_same_seed_same_deal():
    a, b = ChangshaGame(seed=5), ChangshaGame(seed=5)
    assert a.events[0] == b.events[0]
    assert ChangshaGame(seed=6).events[0] != a.events[0]


# ------------------------------------------------------------ scenario errors
@pytest.mark.parametrize(
    "hands, wall, dealer, fragment",
    [(["1m"] * 4, "", 0, "seat 0 holds 1 tiles"),
     (["1111m23456789m99s"] + ["12345678s12345p"] * 3, "1m", 0, "more than 4 copies of 1m"),
     (["123m"] * 4, "", 7, "dealer=7 out of range")],
)
def test_impossible_scenarios_raise(hands, wall, dealer, fragment):
    with pytest.raises(ValueError, match=fragment):
        ChangshaGame.from_scenario(hands, wall, dealer)


def test_scenario_dice_must_be_die_values():
    with pytest.raises(ValueError, match="1..6"):
        build({}, "", dice=[7])


# ---------------------------------------------------------------- §5 turns
def test_discard_passes_turn_to_next_player_who_draws_from_head_section5():
    g = build({0: DEALER}, "1s2s3s", filler_wall=20)
    assert g.phase == DISCARD and g.to_act == [0]
    g.step(0, t("9m"))
    # 9m: nobody can claim it (filler holds no pair of 9m and seat 1 no 78m)
    assert g.phase == DISCARD and g.to_act == [1]
    assert g.drawn == t("1s") and g.rivers[0] == [t("9m")]


# Claims are tested on seat 1's discard: any win on the dealer's first discard is 地胡.
def test_chi_only_next_player_three_positions_section5():
    g = to_seat1_discard({2: "3467m258s258p33p6p", 3: "46m369s369p11s1p8m8p"})
    assert g.phase == CLAIM
    assert g.legal_actions(2) == [A.CHI_LOW, A.CHI_MID, A.CHI_HIGH, A.PASS]
    assert 3 not in g.to_act  # 46m but not the next player: no CHI, and nothing else to claim
    answer(g, {2: A.CHI_MID})
    assert g.melds[2][0].tiles == (t("4m"), t("5m"), t("6m"))
    assert g.phase == DISCARD and g.to_act == [2] and g.drawn is None
    assert g.rivers[1] == []  # the claimed tile left the river


def test_peng_beats_chi_and_choices_stay_hidden_section5():
    g = to_seat1_discard({2: "3467m258s258p33p6p", 3: "55m369s369p11s1p8m8p"})
    assert g.to_act == [2, 3]
    before = g.legal_actions(3)
    g.step(2, A.CHI_LOW)
    assert g.legal_actions(3) == before == [A.PENG, A.PASS]
    g.step(3, A.PENG)
    assert g.melds[3][0].kind == "peng" and not g.melds[2]
    assert g.to_act == [3]


def test_chi_goes_through_when_peng_passes():
    g = to_seat1_discard({2: "3467m258s258p33p6p", 3: "55m369s369p11s1p8m8p"})
    answer(g, {2: A.CHI_LOW, 3: A.PASS})
    assert g.melds[2][0].tiles == (t("5m"), t("6m"), t("7m"))


def test_hu_beats_peng_even_when_answered_first_section5():
    g = to_seat1_discard({2: READY_22P, 3: "55m369s369p11s1p8m8p"})
    assert set(g.to_act) == {2, 3}
    g.step(3, A.PENG)
    g.step(2, A.HU)
    r = g.result
    assert r.winners == (2,) and tuple(r.patterns[2]) == ("PINGHU",) and r.won_from[2] == 1
    assert not g.melds[3]


def test_tongpao_several_winners_discarder_pays_each_section5():
    g = to_seat1_discard({2: READY_22P, 3: READY_55P}, wall="9s2s6s")
    answer(g, {2: A.HU, 3: A.HU})
    r = g.result
    assert r.winners == (2, 3)
    # birds 2s, 6s: ranks 2 and 6 land on the dealer's next player, seat 1, the payer
    assert r.extras["birds"] == [2, 6] and r.extras["bird_seats"] == [1, 1]
    assert r.payments == (0, -6, 3, 3)  # small, no dealer: 1 × factor 3 each
    assert r.next_dealer == 1  # §9: several winners on one discard -> the discarder


def test_player_may_pass_hu_section5():
    g = to_seat1_discard({3: READY_55P})
    assert g.legal_actions(3) == [A.HU, A.PASS]
    g.step(3, A.PASS)
    assert not g.done and g.to_act == [2]


# ------------------------------------------------------------------ 漏胡
LOUHU = {2: "5m258s258p1479m3s3p", 3: READY_55P}


def test_louhu_bars_same_kind_until_own_draw_section5():
    g = to_seat1_discard(LOUHU, wall="9s1p2s")
    answer(g, {3: A.PASS})
    assert g.louhu[3] & (1 << t("5m"))
    assert g.to_act == [2] and g.drawn == t("1p")
    g.step(2, t("5m"))
    assert g.phase == CLAIM and A.HU not in g.legal_actions(3)  # CHI only: 漏胡


def test_louhu_ends_with_own_draw_section5():
    g = to_seat1_discard(LOUHU, wall="9s1p2s8s")
    answer(g, {3: A.PASS})
    g.step(2, t("5m"))
    answer(g, {})
    assert g.to_act == [3] and g.drawn == t("2s") and g.louhu[3] == 0
    g.step(3, t("2s"))
    pass_claims(g)
    assert g.to_act == [0]
    g.step(0, t("5m"))  # the filler dealer's 5m
    assert A.HU in g.legal_actions(3)


def test_louhu_does_not_touch_self_drawn_wins_section5():
    g = to_seat1_discard(LOUHU, wall="9s1p5m")
    answer(g, {3: A.PASS})
    g.step(2, t("3p"))
    pass_claims(g)
    assert g.to_act == [3] and g.drawn == t("5m")
    assert A.HU in g.legal_actions(3)
    g.step(3, A.HU)
    assert g.result.self_drawn and tuple(g.result.patterns[3]) == ("PINGHU",)


# ------------------------------------------------------------ 天胡 / 地胡 §4
def test_tianhu_dealer_wins_on_dealt_tiles_section4():
    g = build({0: "123m456m789s123p55p"}, "1m2m", filler_wall=20)
    assert A.HU in g.legal_actions(0)
    g.step(0, A.HU)
    r = g.result
    assert tuple(r.patterns[0]) == ("TIANHU",) and r.self_drawn
    # birds 1m, 2m -> seats 0 and 1; big self-drawn by the dealer: 7 × factor + 1
    assert r.payments == (22 + 15 + 15, -22, -15, -15)


def test_dihu_non_dealer_wins_on_dealers_first_discard_section4():
    g = build({0: DEALER, 1: "34m678m234s22p678p"}, "3s3s", filler_wall=20)
    g.step(0, t("5m"))
    g.step(1, A.HU)
    r = g.result
    assert tuple(r.patterns[1]) == ("DIHU",)
    # birds 3s, 3s land opposite the dealer (seat 2): factor 1; big, dealer pays 7
    assert r.payments == (-7, 7, 0, 0)


# ---------------------------------------------------------------- 海底 §7
def haidi_game(wall="3s9p", **kw):
    """Seat 1 (ready on 2m/5m with the real 将 55p) draws the first wall tile, 3s, and throws it;
    the second and last tile is then the 海底, offered to seat 2."""
    g = build({0: DEALER, 1: "34m678m567s55p789p"}, wall, **kw)
    g.step(0, t("9m"))
    pass_claims(g)
    g.step(1, t("3s"))
    pass_claims(g)
    return g


def test_haidi_offered_round_the_table_all_decline_is_a_draw_section7():
    g = haidi_game(wall="3s9p")
    # one tile (9p) is left: the 海底
    assert g.phase == HAIDI and g.to_act == [2]
    for s in (2, 3, 0, 1):
        assert g.to_act == [s]
        g.step(s, A.HAIDI_DECLINE)
    assert g.done and g.result.drawn
    assert g.result.next_dealer == 2  # §9: the first player offered the 海底


def test_haidi_laoyue_self_drawn_big_and_bird_is_the_tile_section7():
    g = haidi_game(wall="3s2m")
    g.step(2, A.HAIDI_DECLINE)
    g.step(3, A.HAIDI_DECLINE)
    g.step(0, A.HAIDI_DECLINE)
    g.step(1, A.HAIDI_TAKE)
    assert g.phase == HAIDI_DRAW and g.revealed == [t("2m")]
    assert sum(g.hands[1]) == 13  # the 海底 tile never joins the hand
    g.step(1, A.HU)
    r = g.result
    assert tuple(r.patterns[1]) == ("HAIDI_LAOYUE",)
    # §8.1: the 海底 tile (rank 2) is every bird: both on seat 1, the winner
    assert r.extras["birds"] == [2, 2] and r.extras["bird_seats"] == [1, 1]
    # big self-drawn by a non-dealer, factor 3 for everyone: dealer 7×3+1, others 6×3+1
    assert r.payments == (-22, 22 + 19 + 19, -19, -19)
    assert r.next_dealer == 1


def test_haidi_taken_without_win_is_discarded_haidi_pao_section7():
    g = haidi_game(wall="3s5m")
    assert g.to_act == [2]
    g.step(2, A.HAIDI_TAKE)  # seat 2 (filler) cannot win: the tile is discarded
    assert g.phase == HAIDI_DISCARD and g.to_act == [1]
    assert g.legal_actions(1) == [A.HU, A.PASS]  # HU only: no CHI/PENG on the 海底
    g.step(1, A.HU)
    r = g.result
    assert tuple(r.patterns[1]) == ("HAIDI_PAO",) and r.won_from[1] == 2
    assert r.extras["birds"] == [5, 5] and r.extras["bird_seats"] == [0, 0]  # rank 5 -> the dealer
    assert r.payments == (0, 6, -6, 0)  # factor 1 (no bird on seat 1 or 2), big 6


def test_haidi_discard_nobody_wins_is_a_draw_and_taker_deals_section9():
    g = haidi_game(wall="3s1p")
    g.step(2, A.HAIDI_DECLINE)
    g.step(3, A.HAIDI_TAKE)
    assert g.done and g.result.drawn and g.result.next_dealer == 3


# --------------------------------------------------------------- errors
def test_illegal_action_names_seat_action_and_phase():
    g = build({0: DEALER}, "", filler_wall=20)
    with pytest.raises(IllegalActionError, match=r"seat 0 cannot play 87 \(HU\) in phase 'discard'"):
        g.step(0, A.HU)
    with pytest.raises(IllegalActionError, match=r"seat 2 is not to act"):
        g.step(2, 0)
    with pytest.raises(IllegalActionError, match="outside 0..98"):
        g.step(0, 123)


def test_step_after_the_end_raises():
    g = build({0: "123m456m789s123p55p"}, "", filler_wall=5)
    g.step(0, A.HU)
    with pytest.raises(IllegalActionError, match="the hand is over"):
        g.step(0, A.PASS)
    assert g.to_act == [] and g.legal_actions(0) == []


# -------------------------------------------------------- events and replay
def test_events_are_json_and_replay_rebuilds_the_game():
    g = ChangshaGame(RuleConfig.preset("classic"), seed=42)
    import random
    rng = random.Random(0)
    while not g.done:
        s = g.to_act[0]
        g.step(s, rng.choice(g.legal_actions(s)))
    text = json.dumps(g.events)
    again = ChangshaGame.replay(json.loads(text))
    assert again.events == g.events
    assert again.result == g.result


def test_replay_needs_a_deal():
    with pytest.raises(ValueError, match="deal"):
        ChangshaGame.replay([{"type": "act", "seat": 0, "action": 0}])


# ------------------------------------------------- §8 settlement through the engine
@pytest.mark.parametrize(
    "config, payments",
    [(RuleConfig.preset("mainstream", opening_wins=()), (21, -7, -7, -7)),
     # classic: one bird (5 -> the dealer): each pays 20 × 2, no 自摸加1
     (RuleConfig.preset("classic", opening_wins=()), (120, -40, -40, -40))],
)
def test_dealer_self_draw_small_win_birds_5_9_each_pays_triple_section8_1(config, payments):
    # §8.1 例1: the dealer self-draws, birds 5 and 9: each pays ×3 (mainstream: 2×3+1)
    g = build({0: READY_55P + "9m"}, "1s9s1p5m5s9s", filler_wall=10, config=config)
    g.step(0, t("9m"))
    for _ in range(3):
        pass_claims(g)
        (s,) = g.to_act
        g.step(s, g.drawn)
    pass_claims(g)
    assert g.to_act == [0] and g.drawn == t("5m")
    g.step(0, A.HU)
    r = g.result
    assert tuple(r.patterns[0]) == ("PINGHU",) and r.self_drawn
    assert r.payments == payments


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou"])
def test_chi_actions_are_consecutive_section5(ruleset):
    """§5 CHI: the three CHI actions are consecutive ids, which the compiled games and Changsha's
    player test as one range (``CHI_LOW <= a <= CHI_HIGH``)."""
    actions = importlib.import_module(f"cnmahjong.envs.{ruleset}.actions")
    assert tuple(range(actions.CHI_LOW, actions.CHI_HIGH + 1)) == actions.CHI_ACTIONS

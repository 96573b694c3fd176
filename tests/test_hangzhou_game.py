"""Hangzhou engine scenarios (rules §1–§6): each rule played through ``HangzhouGame``, the
settlement worked out by hand from the rule text in the comments.

Seats: 0 = 甲, 1 = 乙, 2 = 丙, 3 = 丁. ``hz_game`` fills the wall with the unused copies after
the head draws given, so every scenario holds exactly 136 tiles.
"""

from __future__ import annotations

import random

import pytest

from cnmahjong.envs.core.engine import IllegalActionError
from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.game import CLAIM, DISCARD, HangzhouGame, HangzhouMatch
from cnmahjong.envs.hangzhou.patterns import chi_runs
from tests.hz_scenario import T, discard, hz_game, k

# Hands used by several scenarios (indicator 5z = 中: the 财神 is 5z, the 白板 7z plays 5z).
READY_BAOTOU = "123m456m789m123p5z"  # sets + one 财神: 爆头-ready, any draw wins
DEALER = "1s4s7s2p5p8p3m6m9s1z2z3z4z6z"
SEAT2 = "2s5s8s4p7p1m4m6z7z1z2z3z4z"
SEAT3 = "3s6s9s5m8m4p7p4z4z6z6z7z7z"


def act(game: HangzhouGame, seat: int, action: int) -> None:
    """Play ``action`` for ``seat``; in a claim window every other asked seat passes."""
    if game.phase == CLAIM:
        others = [s for s in game.to_act if s != seat]
        for s in others:
            game.step(s, A.PASS)
        if seat in game.to_act:
            game.step(seat, action)
        return
    game.step(seat, action)


def discard_drawn(game: HangzhouGame) -> None:
    """The seat on turn discards the tile it just drew."""
    s = game.to_act[0]
    assert game.phase == DISCARD and game.drawn is not None
    game.step(s, game.drawn)


def test_indicator_is_the_next_head_tile_and_wall_holds_136_section1():
    g = hz_game([DEALER, READY_BAOTOU, SEAT2, SEAT3], indicator="5z")
    assert g.indicator == k("5z")
    assert g.events[1] == {"type": "indicator", "tile": k("5z")}
    assert g.tiles_accounted() == 136
    g2 = HangzhouGame(seed=3)
    assert g2.tiles_accounted() == 136 and g2.wall.remaining == 136 - 53 - 1
    assert g2.indicator == g2.events[0]["wall"][0]


def test_self_drawn_baotou_section3_section5():
    """乙 (1) is 爆头-ready and draws 1z: 爆头, e = 1. Level 1, dealer 甲: 甲 pays 2 × 2 = 4,
    丙 and 丁 1 × 2 = 2 each; 乙 +8."""
    g = hz_game([DEALER, READY_BAOTOU, SEAT2, SEAT3], indicator="5z", head="1z")
    g.step(0, discard("9s"))  # nobody can claim 9s
    assert g.to_act == [1] and g.drawn == k("1z") and A.HU in g.legal_actions(1)
    g.step(1, A.HU)
    r = g.result
    assert r.payments == (-4, 8, -2, -2)
    assert r.patterns[1] == {"BAOTOU": 1} and r.value[1] == 1 and r.self_drawn and r.winners == (1,)
    assert r.next_dealer == 1


def test_caipiao_restricts_the_others_until_the_piao_players_next_turn_section3():
    """乙 is 爆头-ready, draws a second 财神 and discards it: a 飘. Nobody may claim it, and until
    乙's next draw 丁 may not PENG 丙's 4z. 乙 then draws and wins 爆头 with one 飘: e = 2 (财飘
    ×4): 甲 pays 2 × 4 = 8, 丙 and 丁 4 each; 乙 +16."""
    g = hz_game([DEALER, READY_BAOTOU, SEAT2, SEAT3], indicator="5z", head="5z 9p 8p 9s 1p")
    g.step(0, discard("9s"))
    assert g.drawn == k("5z")
    g.step(1, discard("5z"))  # the 飘 (he could have won)
    assert g.events[-2] == {"type": "discard", "seat": 1, "tile": k("5z"), "piao": True}
    assert g.to_act == [2] and g.phase == DISCARD  # a 财神 is never claimed: 丙 drew
    assert g.piao[1] == 1 and g.piao_pending == [1]
    g.step(2, discard("4z"))  # 丁 holds 4z 4z but may not PENG while 乙's 飘 is pending
    assert g.to_act == [3] and g.phase == DISCARD
    discard_drawn(g)  # 丁
    discard_drawn(g)  # 甲
    assert g.to_act == [1] and g.drawn == k("1p") and g.piao_pending == []
    g.step(1, A.HU)
    r = g.result
    assert r.patterns[1] == {"BAOTOU": 1, "CAIPIAO": 1} and r.value[1] == 2
    assert r.payments == (-8, 16, -4, -4)


def test_without_piao_the_same_discard_is_claimed():
    """Control for the 飘 test: 丙's 4z is offered to 丁 (PENG) when no 飘 is pending."""
    g = hz_game([DEALER, READY_BAOTOU, SEAT2, SEAT3], indicator="5z", head="9p 9m")
    g.step(0, discard("9s"))
    g.step(1, discard("9p"))  # an ordinary discard: 乙's 飘 count stays 0
    discard_drawn(g) if g.drawn == k("9m") else None
    g2 = hz_game([DEALER, READY_BAOTOU, SEAT2, SEAT3], indicator="5z", head="9p 9m")
    g2.step(0, discard("9s"))
    g2.step(1, discard("9p"))
    g2.step(2, discard("4z"))
    assert g2.phase == CLAIM and g2.legal_actions(3) == [A.PENG, A.PASS]


def test_piao_only_from_the_baotou_ready_state_section3():
    """A 财神 discarded by a player who was not 爆头-ready before the draw is an ordinary discard."""
    hand = "123m456m789m12p5z7z"  # 12p + 白 single: not 爆头-ready (the 财神 must fill 3p)
    g = hz_game([DEALER, hand, SEAT2, SEAT3], indicator="5z", head="5z")
    g.step(0, discard("9s"))
    g.step(1, discard("5z"))
    assert "piao" not in g.events[-2] and g.piao[1] == 0 and g.piao_pending == []


def test_concealed_kong_gangkai_and_hidden_until_next_turn_section1_section3():
    """乙 holds 1111s, draws 9p and makes a 暗杠; the tail replacement 1m completes 123m 456m
    789m + 9p with the 财神: 杠开, e = 1 (×2), not 爆头 (before the replacement the hand needed
    the 财神 elsewhere). 甲 (dealer) pays 2 × 2 = 4, the others 2 each; 乙 +8."""
    hand = "1111s23m456m789m5z"
    g = hz_game([DEALER.replace("1s", "9p"), hand, SEAT2, SEAT3], indicator="5z", head="9p", tail="1m")
    g.step(0, discard("9s"))
    assert A.gang(k("1s")) in g.legal_actions(1)
    g.step(1, A.gang(k("1s")))
    (meld,) = g.melds[1]
    assert meld.kind == "angang" and meld.hidden and g.drawn == k("1m")
    assert A.HU in g.legal_actions(1)
    g.step(1, A.HU)
    assert g.result.patterns[1] == {"GANGKAI": 1} and g.result.value[1] == 1
    assert g.result.payments == (-4, 8, -2, -2)


def test_concealed_kong_revealed_at_the_owners_next_turn_section1():
    hand = "1111s23m456m789m5z"
    g = hz_game([DEALER.replace("1s", "9p"), hand, SEAT2, SEAT3], indicator="5z", head="9p 8p 1p 6p 5p",
                tail="6s")
    g.step(0, discard("9s"))
    g.step(1, A.gang(k("1s")))
    g.step(1, discard("6s"))
    assert g.melds[1][0].hidden
    for _ in range(3):  # 丙, 丁, 甲 draw and discard
        assert g.melds[1][0].hidden
        discard_drawn(g)
    assert g.to_act == [1] and not g.melds[1][0].hidden  # 乙's next draw shows it
    assert {"type": "reveal", "seat": 1, "tiles": [k("1s")]} in g.events  # the kind, public now


def test_chi_only_from_the_previous_seat_and_peng_beats_chi_section2():
    """甲 discards 5p: 乙 (next) may CHI 4p6p, 丙 may PENG 5p5p, 丁 holding 4p6p may not CHI.
    Both claim: PENG wins, 丙 plays next and one claim of 丙 on 甲 is counted."""
    g = hz_game(["5p1s4s7s2p8p3m6m9s1z2z3z4z6z", "46p1m2m3m7m8m9m1s2s3s9p9p",
                 "55p2m5m8m3s6s8s1p9s7z7z6z", "46p4m7m2s5s7s8s3p7p1z2z3z"], indicator="5z")
    g.step(0, discard("5p"))
    assert g.phase == CLAIM and sorted(g.to_act) == [1, 2]
    assert g.legal_actions(1) == [A.CHI_MID, A.PASS] and g.legal_actions(2) == [A.PENG, A.PASS]
    g.step(1, A.CHI_MID)
    with pytest.raises(IllegalActionError):
        g.step(1, A.PASS)  # answered already
    g.step(2, A.PENG)
    assert g.to_act == [2] and g.melds[2][0].kind == "peng" and g.claims[2][0] == 1
    assert g.melds[1] == [] and g.rivers[0] == []


def test_white_plays_the_indicator_kind_in_a_chi_section1_section2():
    """Indicator 5p: 甲 discards 4p; 乙 holds 白 6p and may CHI 4p 白(5p) 6p."""
    g = hz_game(["4p1s4s7s2p8p3m6m9s1z2z3z4z6z", "7z6p1m2m3m7m8m9m1s2s3s9p9p",
                 "2m5m8m3s6s8s1p9s6z2z3z4z4z", "4m7m2s5s7s3p7p1z2z3z5z5z5z"], indicator="5p")
    g.step(0, discard("4p"))
    assert A.CHI_LOW in g.legal_actions(1)
    g.step(1, A.CHI_LOW)
    assert g.melds[1][0].tiles == (k("4p"), k("7z"), k("6p"))


def test_chi_offers_are_the_runs_of_chi_runs_for_every_indicator_section1_section2():
    """The CHIs a discard offers (``_chis``, from ``_chi_bits``' flat tables) are exactly the runs
    ``patterns.chi_runs`` lists whose two hand kinds are held, the 白板 playing the indicator kind,
    on random hands, discards and indicators (a 财神 discard: none)."""
    rng = random.Random(8)
    g = HangzhouGame(seed=1)
    for _ in range(6000):
        g.indicator = rng.randrange(34)
        h = bytearray(rng.choice((0, 0, 1, 1, 2)) for _ in range(34))
        t = rng.randrange(34)
        want = [a for a, x, y in chi_runs(g.indicator)[t] if h[x] and h[y]]
        assert g._chis(h, t) == want, (g.indicator, t, list(h))
        assert g._chi_bits(h, t) == sum(1 << (a - A.CHI_LOW) for a in want)


def test_shipeng_bars_the_passed_kind_until_the_own_turn_section2():
    """丙 passes PENG on 甲's 5p; 乙 then discards the last 5p: 丙 may not PENG it (失碰).
    After 丙's own draw the bar is gone."""
    g = hz_game(["5p1s4s7s2p8p3m6m9s1z2z3z4z6z", "1m2m3m7m8m9m1s2s3s9p9p6z6z",
                 "55p2m5m8m3s6s8s1p9s7z7z6z", "4m7m9m2s5s7s3p7p1z2z3z4z4z"], indicator="5z", head="5p 9m")
    g.step(0, discard("5p"))
    assert g.legal_actions(2) == [A.PENG, A.PASS]
    g.step(2, A.PASS)
    assert g.shipeng[2] == 1 << k("5p")
    g.step(1, discard("5p"))
    assert g.phase == DISCARD and g.to_act == [2]  # no window: 丙 drew instead
    assert g.shipeng[2] == 0


@pytest.mark.parametrize("streak, made, offered", [(1, 2, True), (2, 1, True), (2, 2, False), (3, 2, False)])
def test_claim_limits_between_non_dealers_section2(streak, made, offered):
    """From 二连庄 on, a non-dealer claims at most twice on another non-dealer's discards
    (the count is set directly: the limit is what is tested)."""
    g = hz_game(["1s4s7s2p8p3m6m9s1z2z3z4z6z9p", "5p1m2m3m7m8m9m1s2s3s9p6z6z",
                 "55p2m5m8m3s6s8s1p9s7z7z6z", "4m7m9m2s5s7s3p7p1z2z3z4z4z"], indicator="5z", streak=streak)
    g.claims[2][1] = made
    g.step(0, discard("9p"))
    g.step(1, discard("5p"))
    assert (g.phase == CLAIM and A.PENG in g.legal_actions(2)) == offered


def test_claim_limit_dealer_and_non_dealer_is_three_section2():
    g = hz_game(["5p1s4s7s2p8p3m6m9s1z2z3z4z6z", "1m2m3m7m8m9m1s2s3s9p9p6z6z",
                 "55p2m5m8m3s6s8s1p9s7z7z6z", "4m7m9m2s5s7s3p7p1z2z3z4z4z"], indicator="5z", streak=2)
    g.claims[2][0] = 2
    g.step(0, discard("5p"))
    assert A.PENG in g.legal_actions(2)
    g2 = hz_game(["5p1s4s7s2p8p3m6m9s1z2z3z4z6z", "1m2m3m7m8m9m1s2s3s9p9p6z6z",
                  "55p2m5m8m3s6s8s1p9s7z7z6z", "4m7m9m2s5s7s3p7p1z2z3z4z4z"], indicator="5z", streak=2)
    g2.claims[2][0] = 3
    g2.step(0, discard("5p"))
    assert g2.phase == DISCARD  # no claim left for 丙 on the dealer


def test_discard_win_only_on_sanlianzhuang_first_in_turn_order_section3_section5():
    """甲 (dealer, 三连庄) discards 9p; 乙 and 丙 both wait on it and both choose HU: 乙, first
    after the discarder, wins alone. Discard win: 甲 pays 8 × 2⁰ = 8."""
    hands = ["9p1s4s7s2p8p3m6m9s1z2z3z4z6z", "123m456m789m123p9p", "123s456s789s12m3m9p",
             "4m7m2s5s5s3p7p1z2z3z4z4z6z"]
    g = hz_game(hands, indicator="5z", streak=3)
    g.step(0, discard("9p"))
    assert g.legal_actions(1) == [A.HU, A.PASS] and g.legal_actions(2) == [A.HU, A.PASS]
    g.step(2, A.HU)
    g.step(1, A.HU)
    assert g.result.winners == (1,) and g.result.won_from[1] == 0 and not g.result.self_drawn
    assert g.result.payments == (-8, 8, 0, 0)
    for streak in (1, 2):  # no discard win below 三连庄
        g = hz_game(hands, indicator="5z", streak=streak)
        g.step(0, discard("9p"))
        assert all(A.HU not in g.legal_actions(s) for s in (1, 2))


def test_no_discard_win_between_two_non_dealers_section3():
    hands = ["1s4s7s2p8p3m6m9s1z2z3z4z6z5p", "9p123m456m789m12p6z", "123s456s789s12m3m9p",
             "4m7m2s5s5s3p7p1z2z3z4z4z6z"]
    g = hz_game(hands, indicator="5z", streak=3)
    g.step(0, discard("5p"))
    g.step(1, discard("9p"))  # 丙 waits on 9p, but 乙 is no dealer
    assert g.phase == DISCARD and g.to_act == [2]


def test_exhaustion_at_twenty_tiles_and_no_kong_then_section1_section5():
    """The wall holds the indicator and 20 tiles. 乙 draws (20 → 19 drawable) and may not kong
    his 1111s; 丙 would draw one of the last 19: the hand is drawn, the dealer keeps the seat."""
    g = hz_game([DEALER.replace("1s", "9p"), "1111s23m456m789m5z", SEAT2, SEAT3], indicator="5z",
                head="8p", wall_size=21)
    assert g.wall.remaining == 20
    g.step(0, discard("9s"))
    assert g.wall.remaining == 19 and not any(a >= A.GANG_SELF for a in g.legal_actions(1) if a != A.HU)
    g.step(1, discard("8p"))
    assert g.done and g.result.drawn and g.result.payments == (0, 0, 0, 0) and g.result.next_dealer == 0
    assert g.tiles_accounted() == 136 - (136 - 53 - 21)


def test_caishen_never_claimed_nor_in_melds_section2():
    """A discarded 财神 opens no claim even for a seat holding two more of its... it can't: only 3
    are in play. Here 丙 holds the other two 5z: still nothing is offered."""
    g = hz_game(["5z1s4s7s2p8p3m6m9s1z2z3z4z6z", "1m2m3m7m8m9m1s2s3s9p9p6z6z",
                 "5z5z2m5m8m3s6s8s1p9s7z7z6z", "4m7m9m2s5s7s3p7p1z2z3z4z4z"], indicator="5z")
    g.step(0, discard("5z"))
    assert g.phase == DISCARD and g.to_act == [1]


def test_replay_rebuilds_and_verifies_a_hangzhou_hand():
    g = HangzhouGame(seed=12, dealer=2, streak=3)
    import random
    rng = random.Random(1)
    while not g.done:
        s = g.to_act[0]
        g.step(s, rng.choice(g.legal_actions(s)))
    h = HangzhouGame.replay(g.events)
    assert h.events == g.events and h.result == g.result
    events = [dict(e) for e in g.events]
    events[1] = {"type": "indicator", "tile": (events[1]["tile"] + 1) % 34}
    from cnmahjong.envs.core.engine import ReplayMismatchError
    with pytest.raises(ReplayMismatchError):
        HangzhouGame.replay(events)


def test_match_streak_and_dealer_rule_section5():
    m = HangzhouMatch(hands=6, seed=5, dealer=1)
    import random
    rng = random.Random(0)
    while not m.done:
        s = m.to_act[0]
        acts = m.legal_actions(s)
        m.step(s, A.HU if A.HU in acts else rng.choice(acts))
    assert len(m.results) == 6 and sum(m.scores) == 0
    for i in range(1, 6):
        prev, dealer = m.results[i - 1], m.dealers[i]
        if prev.drawn or prev.winners == (m.dealers[i - 1],):
            assert dealer == m.dealers[i - 1] and m.streaks[i] == m.streaks[i - 1] + 1
        else:
            assert dealer == prev.winners[0] and m.streaks[i] == 1


def test_scenario_errors_name_the_problem():
    with pytest.raises(ValueError, match="indicator"):
        HangzhouGame.from_scenario([T(DEALER), T(READY_BAOTOU), T(SEAT2), T(SEAT3)], [])
    with pytest.raises(ValueError, match="streak"):
        HangzhouGame(seed=1, streak=4)
    with pytest.raises(ValueError, match="more than 4 copies of 1m"):
        HangzhouGame.from_scenario(["1111m222m333m4m5m6m7m", "1m2s3s4s5s6s7s8s9s1p2p3p4p", SEAT2, SEAT3], "1z")


# ------------------------------------------------------------------ §6 played through
def test_source_example_tiao_biandan_played_section6():
    """"甲吃了乙 3 摊，乙吃了丙 3 摊，乙胡了，那丙要承包，甲要加倍承包。"

    丙 (2) deals at level 1. 乙 PENGs 1s, 2s, 3s from 丙; 甲 PENGs 1p, 2p, 3p from 乙; 乙
    self-draws 6m: 678m + 9p9p with three PENGs, e = 0. Income: 丙 (dealer) 2 + 甲 1 + 丁 1 = 4.
    丙 承包 pays 4, 甲 反承包 pays 2 × 4 = 8, 丁 nothing; 乙 receives 12 (挑扁担)."""
    hands = ["1p1p2p2p3p3p1z2z3z1m1m4m5m", "1s1s2s2s3s3s1p2p3p7m8m9p9p",
             "1s2s3s9m9s6p7p8p1z6m4s7s5p2m", "3m8m9m7s8s9s2p3p4p1p4z6z7z"]
    g = hz_game(hands, indicator="5z", dealer=2, head="4z 6z 9s 1m 2m 7z 5p 4p 6m")
    script = [
        (2, discard("1s")), (1, A.PENG), (1, discard("1p")), (0, A.PENG), (0, discard("1z")),
        (1, discard("2p")), (0, A.PENG), (0, discard("2z")),
        (1, discard("3p")), (0, A.PENG), (0, discard("3z")),
        (1, discard("4z")), (2, discard("2s")), (1, A.PENG), (1, discard("6z")),
        (2, discard("3s")), (1, A.PENG), (1, discard("9s")),
        (2, discard("7z")), (3, discard("5p")), (0, discard("4p")), (1, A.HU),
    ]
    for seat, action in script:
        act(g, seat, action)
    assert g.claims[1][2] == 3 and g.claims[0][1] == 3
    r = g.result
    assert r.winners == (1,) and r.self_drawn and r.value[1] == 0
    assert r.extras["liable"] == {"chengbao": 2, "fan": [0], "borne": []}
    assert r.payments == (-8, 12, -4, 0)


def test_source_example_discard_win_with_liability_played_section6():
    """"如果乙是 3 连庄，乙吃了甲 3 摊，丙放冲了，那甲和丙都要付。"

    乙 (1) deals on 三连庄 and CHIs 3m, 3s, 3p from 甲; 丙 discards 6p and 乙 wins on it
    (678p + 9s9s). Discard win: 丙 pays 8; 乙 made 3 claims on 甲, so 甲 pays the same 8 again."""
    hands = ["3m3s3p1m5m9m4s6s8s4p9p1z2z", "1m2m1s2s1p2p1z2z3z4z7p8p9s9s",
             "2m4m6m8m5s7s9s5p7p9p1s8s8p", "5m7m2s4s6s8s2p4p6p8p1z2z3z"]
    g = hz_game(hands, indicator="5z", dealer=1, streak=3, head="6z 7z 9m 6z 7z 9s 6z 7z 9p 6p")
    script = [(1, discard("1z")), (2, discard("6z")), (3, discard("7z")), (0, discard("3m")), (1, A.CHI_HIGH),
              (1, discard("2z")), (2, discard("6z")), (3, discard("7z")), (0, discard("3s")), (1, A.CHI_HIGH),
              (1, discard("3z")), (2, discard("6z")), (3, discard("7z")), (0, discard("3p")), (1, A.CHI_HIGH),
              (1, discard("4z")), (2, discard("6p")), (1, A.HU)]
    for seat, action in script:
        act(g, seat, action)
    r = g.result
    assert g.claims[1][0] == 3 and r.winners == (1,) and r.won_from[1] == 2
    assert r.extras["liable"] == {"chengbao": 0, "fan": [], "borne": []}
    assert r.payments == (-8, 16, -8, 0)


@pytest.mark.parametrize("option, payments", [(True, (-8, 32, -20, -4)), (False, (-16, 32, -8, -8))])
def test_piao_claim_liability_played_section6(option, payments):
    """后半场承包: 乙, 爆头-ready, 飘s a second 财神; while his 飘 count is 1 he makes a 明杠 on
    丙's 9p, and the replacement wins: 爆头 + 飘 + kong, e = 3 (×8). The kong came after the claim
    on 丙, so 丙 bears that doubling: at ×4 甲 pays 8, 丙 4, 丁 4, and 丙 the other half of every
    amount, 4 × 4 = 16: 丙 pays 20 in all. Without the option: 甲 16, 丙 8, 丁 8."""
    from cnmahjong.envs.hangzhou.rules import RuleConfig
    hands = [DEALER, "123m456m789m9p9p9p5z", "2s5s8s9p7p1m4m6z7z1z2z3z4z", SEAT3]
    g = hz_game(hands, indicator="5z", head="5z 9m", tail="1z",
                config=RuleConfig(piao_claim_liability=option))
    for seat, action in [(0, discard("9s")), (1, discard("5z")), (2, discard("9p"))]:
        act(g, seat, action)
    assert g.legal_actions(1) == [A.PENG, A.GANG_CLAIM, A.PASS] and g.to_act == [1]  # 丁 and 甲 restricted
    g.step(1, A.GANG_CLAIM)
    assert g.drawn == k("1z")
    g.step(1, A.HU)
    r = g.result
    assert r.value[1] == 3 and r.patterns[1] == {"BAOTOU": 1, "CAIPIAO": 1, "GANGKAI": 1}
    assert r.extras["liable"]["borne"] == ([2] if option else [])
    assert r.payments == payments


def test_white_peng_and_added_kong_play_the_indicator_kind_section1():
    """Indicator 5m: 甲's discarded 白 is claimed as 5m. 丙 PENGs it with his two 白 (three 白板 =
    a triplet of the indicator kind), later draws the last 白 and adds it (加杠, four 白板)."""
    hands = ["7z1s4s7s2p5p8p3m6m9s1z2z3z4z", "1m2m3m7m8m9m1s2s3s9p9p6z6z",
             "7z7z2s5s8s4p7p1m4m5z1z2z3z", "3s6s9s8m9m4p7p4z4z6z6z1z2z"]
    g = hz_game(hands, indicator="5m", head="9s 8p 1p 7z")
    g.step(0, discard("7z"))
    assert g.legal_actions(2) == [A.PENG, A.PASS] and 1 not in g.to_act
    g.step(2, A.PENG)
    assert g.melds[2][0].tiles == (k("7z"),) * 3
    g.step(2, discard("1z"))
    for _ in range(3):
        discard_drawn(g)
    assert g.to_act == [2] and g.drawn == k("7z") and A.gang(k("7z")) in g.legal_actions(2)
    g.step(2, A.gang(k("7z")))
    assert g.melds[2][0].kind == "jiagang" and g.melds[2][0].tiles == (k("7z"),) * 4
    assert g.claims[2][0] == 1  # the added kong is no new claim (§6)

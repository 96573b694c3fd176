"""``SichuanGame`` (rules sichuan.md §1–§7, design env.md "Engine (envs/sichuan/game.py)"):
scenario tests citing the §, the §10 worked settlements played through the engine, refusals of
bad input before any change, verified replay, and random play (108 tiles at every step,
zero-sum, seats that have left never asked again)."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from cnmahjong.envs.core.engine import IllegalActionError, ReplayMismatchError
from cnmahjong.envs.core.tiles import parse
from cnmahjong.envs.sichuan import actions as A
from cnmahjong.envs.sichuan.game import SichuanGame, SichuanMatch
from cnmahjong.envs.sichuan.rules import RuleConfig

M, S, P = 0, 1, 2
T = {name: parse(name)[0] for name in (f"{r}{s}" for s in "msp" for r in range(1, 10))}
"""Tile kinds by name: T["5s"] == 13."""


def step(g: SichuanGame, seat: int, action: int) -> None:
    """One decision, checking that every tile stays accounted for after it: §1's 108 in a seeded
    hand; a scenario's 53 dealt and its (maybe shorter) wall."""
    g.step(seat, action)
    assert g.tiles_accounted() == 53 + len(g.events[0]["wall"])
    if g.events[0]["origin"] == "seed":
        assert g.tiles_accounted() == 108


def start(hands, wall, voids, dealer=0, **options) -> SichuanGame:
    """A scenario without 换三张 (unless ``options`` turn it on), the voids declared."""
    cfg = RuleConfig(**{"huan_san_zhang": False, **options})
    g = SichuanGame.from_scenario(hands, wall, dealer=dealer, config=cfg)
    assert g.phase == "void" and sorted(g.to_act) == [0, 1, 2, 3]
    for s in list(g.to_act):
        step(g, s, A.void(voids[s]))
    return g


def discard(g: SichuanGame, seat: int, tile: str) -> None:
    assert g.to_act == [seat] and g.phase == "discard", (g.to_act, g.phase)
    step(g, seat, T[tile])


def play_out(g: SichuanGame) -> None:
    """Finish the hand: PASS when offered, else the first legal action that is not HU or a kong."""
    while not g.done:
        s = g.to_act[0]
        acts = g.legal_actions(s)
        a = A.PASS if A.PASS in acts else next(a for a in acts if a < A.PENG)
        step(g, s, a)


def last_win(g: SichuanGame) -> dict:
    return next(e for e in reversed(g.events) if e["type"] == "win")


# ------------------------------------------------------------------ §10.2 一炮双响
ONE_SHOT_TWO = dict(
    hands=["11s 9s 22s 333s 5s 66s 77s 8s",    # seat 0, dealer, void 万
           "34s 678s 111p 456p 99p",            # seat 1, void 万
           "2m 4m 5m 6m 8m 9m 2p 33p 5p 7p 88p",  # seat 2, void 条
           "11m 33m 77m 22s 44s 99s 5s"],      # seat 3, void 筒
    wall="9m 6m 2p 9s 5m 5m 3p 3p",
    voids=[M, M, S, P],
)


def test_s10_2_two_winners_on_one_discard_leave_and_seat_0_draws_next():
    """§10.2 / §3 一炮多响 / §4: seat 0 discards 5s (not his first discard): seat 1 平胡 V = 1 and
    seat 3 七对 V = 4 both win; seat 0 pays 5; both leave; the next draw is seat 0's (the first
    remaining seat after seat 3); seat 0 deals next (§1, 放炮者坐庄)."""
    g = start(**ONE_SHOT_TWO)
    discard(g, 0, "1s")
    discard(g, 1, "9m")  # D1: his void 万 first
    discard(g, 2, "6m")
    discard(g, 3, "2p")  # D1
    discard(g, 0, "5s")
    assert g.phase == "claim" and sorted(g.to_act) == [1, 3]
    assert A.HU in g.legal_actions(1) and A.HU in g.legal_actions(3)
    step(g, 3, A.HU)
    step(g, 1, A.HU)
    assert g.payments == [-5, 1, 0, 4] and g.seats_out == (1, 3)
    assert g.to_act == [0] and g.phase == "discard"  # seat 0 drew 5m and must discard it (D1)
    assert g.legal_actions(0) == [T["5m"]]
    wins = [e for e in g.events if e["type"] == "win"]
    assert [(e["seat"], e["fan"], e["patterns"]) for e in wins] == [(1, 0, {"PINGHU": 1}), (3, 2, {"QIDUI": 1})]
    play_out(g)
    r = g.result
    assert r.winners == (1, 3) and r.won_from == {1: 0, 3: 0} and r.next_dealer == 0
    assert r.payments[1] == 1 and r.payments[3] == 4  # nothing more paid to or by them (§4)
    assert all(1 not in (t.payer, t.payee) and 3 not in (t.payer, t.payee) for t in r.transfers[2:])
    assert sum(r.payments) == 0 and set(r.extras["classes"]) == {"0", "2"}


def test_s4_a_seat_that_has_left_is_never_asked_again():
    g = start(**ONE_SHOT_TWO)
    for seat, tile in ((0, "1s"), (1, "9m"), (2, "6m"), (3, "2p"), (0, "5s")):
        discard(g, seat, tile)
    step(g, 1, A.HU)
    step(g, 3, A.HU)
    while not g.done:
        assert not {1, 3} & set(g.to_act)
        for s in (1, 3):
            with pytest.raises(IllegalActionError, match=f"seat {s} is not to act"):
                g.step(s, A.PASS)
        s = g.to_act[0]
        acts = g.legal_actions(s)
        step(g, s, A.PASS if A.PASS in acts else next(a for a in acts if a < A.PENG))


# ------------------------------------------------------------------ §10.4 杠上炮 and 呼叫转移
GANGPAO = dict(
    hands=["6666p 3m 44m 11p 2p 33p 99p",   # seat 0, dealer, void 条
           "11s 22s 33s 44s 55s 66s 7s",     # seat 1, void 万
           "12m 456m 789m 123p 55p",         # seat 2, void 条
           "12m 567m 789m 789p 22p"],        # seat 3, void 条
    wall="7s 8s 5p 9s",  # the replacement: wall[2] = 5p
    voids=[S, M, S, S],
)


@pytest.mark.parametrize("both", [False, True])
def test_s10_4_gangpao_with_call_transfer(both):
    """§10.4: seat 0's 暗杠 of 6666p (+2 from each, a kong: no 地胡 follows); from the replacement he
    discards 3m and seat 2 wins 平胡 + 杠上炮 (F = 1): seat 0 pays 2, then 呼叫转移 K = 6. Net 0: −2,
    1: −2, 2: +6, 3: −2. With seat 3 winning too (V = 2): 0: −10, 3: +6."""
    g = start(**GANGPAO)
    step(g, 0, A.gang(T["6p"]))
    assert g.payments == [6, -2, -2, -2]
    discard(g, 0, "3m")
    assert sorted(g.to_act) == [2, 3]
    step(g, 2, A.HU)
    step(g, 3, A.HU if both else A.PASS)
    if both:
        assert g.payments == [-10, -2, 6, 6]
    else:
        assert g.payments == [-2, -2, 6, -2]
    win = next(e for e in g.events if e["type"] == "win")
    assert win["patterns"] == {"PINGHU": 1, "GANGPAO": 1}
    assert [t["reason"] for t in win["transfers"]] == ["win", "transfer"]
    assert g.ledger == []  # the kong's entries are closed: §7 never refunds them


# ------------------------------------------------------------------ §10.1 self-draw
SELF_DRAW = dict(
    hands=["1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 2p 3p 4p 5p",   # seat 0, dealer, void 万
           "1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 2p 3p 4p",      # seat 1, void 万
           "1111234567899m",                              # seat 2, void 筒
           "2m 3m 4m 5m 6m 7m 1s 2s 3s 6p 7p 8p 9p"],     # seat 3, void 条
    voids=[M, M, P, S],
)


def test_s10_1_self_draw_qingyise_gen():
    """§10.1 (cap_fan 4): seat 2 draws 9m on a later draw: 清一色 + 根 = 3, seats 0, 1, 3 each pay
    2³ + 1 = 9 under 加底 (+27)."""
    g = start(wall="9p 9m 8p", tiandihu=True, cap_fan=4, **SELF_DRAW)
    discard(g, 0, "5p")
    discard(g, 1, "9p")  # seat 1 drew 9p
    assert g.to_act == [2]
    assert A.HU in g.legal_actions(2)
    step(g, 2, A.HU)
    # his first ordinary draw with nothing before: 地胡 (F = cap_fan) under the default tiandihu ...
    assert g.result is None and last_win(g)["patterns"] == {"DIHU": 1}
    assert g.payments == [-16, -16, 48, -16]  # 2**cap_fan from each, no 加底 (§6.2)
    # ... so the worked example's "not his first draw" is played with tiandihu off
    g = start(wall="9p 9m 8p", cap_fan=4, tiandihu=False, **SELF_DRAW)
    discard(g, 0, "5p")
    discard(g, 1, "9p")
    step(g, 2, A.HU)
    assert last_win(g)["patterns"] == {"QINGYISE": 1, "GEN": 1} and g.payments == [-9, -9, 27, -9]


def test_s10_1_kong_then_gangkai():
    """§10.1: he draws 8m, makes a 暗杠 of 1111m (+2 from each) and draws 9m as the replacement:
    清一色 2 + 根 1 + 杠上开花 1 = 4, each pays 16 + 1 = 17 (+57 in all)."""
    g = start(wall="9p 8m 9m 8p", cap_fan=4, tiandihu=False, **SELF_DRAW)  # replacement: wall[2] = 9m
    discard(g, 0, "5p")
    discard(g, 1, "9p")
    assert A.gang(T["1m"]) in g.legal_actions(2)
    step(g, 2, A.gang(T["1m"]))
    assert g.payments == [-2, -2, 6, -2]
    step(g, 2, A.HU)
    assert last_win(g)["patterns"] == {"QINGYISE": 1, "GEN": 1, "GANGKAI": 1}
    assert g.payments == [-19, -19, 57, -19]


# ------------------------------------------------------------------ §3 抢杠, 补杠, 转手杠
ROB = dict(
    hands=["5s 11m 22m 33m 44m 66m 77m 9m",        # seat 0, dealer, void 筒
           "55s 123s 78s 123p 66p 9p",             # seat 1, void 万
           "2m 5m 8m 3m 6m 9m 4p 5p 9p 2s 4s 7s 8s",  # seat 2, void 条
           "46s 11p 123p 789p 5p 8p 9p"],          # seat 3, void 万
    wall="1m 7p 8m 5s 3p 4p 4p 7m",
    voids=[P, M, S, M],
)


def _to_bugang(**options) -> SichuanGame:
    g = start(**ROB, **options)
    discard(g, 0, "5s")
    assert g.legal_actions(1) == [A.PENG, A.PASS]  # seat 3 is not offered: no win yet
    step(g, 1, A.PENG)
    acts = g.legal_actions(1)
    assert A.HU not in acts and not any(A.GANG_SELF <= a < A.HU for a in acts)  # §3: no kong or win after a PENG
    discard(g, 1, "6p")
    discard(g, 2, "2s")  # D1
    discard(g, 3, "5p")  # he drew 7p: ready on 5s
    discard(g, 0, "8m")
    assert g.to_act == [1] and A.gang(T["5s"]) in g.legal_actions(1)
    step(g, 1, A.gang(T["5s"]))
    return g


def test_s3_qiang_gang_robs_the_added_tile():
    """§3 抢杠胡: seat 3 robs seat 1's 补杠 of 5s: no 刮风, no replacement, the 5s leaves seat 1's
    hand and his PENG stays; seat 1 pays as a discarder: 平胡 + 抢杠 = 1, V = 2."""
    g = _to_bugang()
    assert g.phase == "rob" and g.to_act == [3] and g.legal_actions(3) == [A.HU, A.PASS]
    assert g.claim_tiles == [T["5s"]] and g.claim_from == 1
    step(g, 3, A.HU)
    assert g.payments == [0, -2, 0, 2] and g.seats_out == (3,)
    assert [m.kind for m in g.melds[1]] == ["peng"] and g.hands[1][T["5s"]] == 0
    assert last_win(g)["patterns"] == {"PINGHU": 1, "QIANGGANG": 1}
    assert g.to_act == [0]  # the first remaining seat after seat 3 draws
    assert g.result is None
    play_out(g)
    assert g.result.won_from == {3: 1} and g.result.extras["win_kind"] == {"3": "qianggang"}


def test_s3_bugang_not_robbed_pays_gua_feng():
    """§3 / §6.1: nobody robs: the 补杠 takes effect, 1 × base from each remaining seat; the
    passer's 过胡 threshold is that win's F."""
    g = _to_bugang()
    step(g, 3, A.PASS)
    assert g.payments == [-1, 3, -1, -1] and g.threshold[3] == 1
    assert [m.kind for m in g.melds[1]] == ["jiagang"] and g.events[-1]["type"] == "draw"
    assert g.events[-1]["source"] == "tail"


def test_s3_no_robbing_without_qiang_gang():
    g = _to_bugang(qiang_gang=False)
    assert g.phase == "discard" and g.to_act == [1] and g.payments == [-1, 3, -1, -1]


PASS_HU = dict(
    hands=["123456s 88s 3m 6m 77m 88m",           # seat 0, dealer, void 筒
           "123456789p 5s 6s 7s 9s",              # seat 1, void 万
           "999m 11m 2m 4m 22p 33p 88p",          # seat 2, void 条
           "123m 46m 789s 11s 234s"],             # seat 3, void 筒: waits on 5m (平胡)
    voids=[P, M, S, P],
)


@pytest.mark.parametrize("rule,kong,offered", [
    ("higher_fan", False, False), ("higher_fan", True, True), ("until_draw", True, False),
    ("none", False, True)])
def test_s3_pass_hu(rule, kong, offered):
    """§3 过胡: seat 3 passes a 平胡 (F = 0) on seat 1's 5m. Before his next draw another 5m comes
    from seat 2: plain (F = 0) or after a kong (杠上炮, F = 1). ``higher_fan`` offers only a higher
    F, ``until_draw`` none, ``none`` every one; his next ordinary draw clears the threshold."""
    wall = "5m 9m 4s 1p 5m 2s" if kong else "5m 5m 4s 1p 9p 2s"
    g = start(wall=wall, pass_hu=rule, **PASS_HU)
    discard(g, 0, "3m")
    discard(g, 1, "5m")  # D1
    assert g.to_act == [3] and g.legal_actions(3) == [A.HU, A.PASS]
    step(g, 3, A.PASS)
    assert g.threshold[3] == (None if rule == "none" else 0)
    if kong:
        step(g, 2, A.gang(T["9m"]))  # replacement: 5m
    discard(g, 2, "5m")
    if offered:
        assert g.phase == "claim" and g.to_act == [3] and A.HU in g.legal_actions(3)
        step(g, 3, A.PASS)
    assert g.phase == "discard" and g.to_act == [3] and g.threshold[3] is None  # he drew 4s


# ------------------------------------------------------------------ §2 换三张 and 定缺
def test_s2_swap_masks_and_fixed_direction():
    """§2.1 / design: three picks each in one blind window of all four; picks go up within the first
    pick's suit and never lead to a dead end; the scenario's direction moves all twelve at once."""
    hands = ["1234567m 1234567s", "789s 1234567p 888m", "123p 8p 99p 8s 999s 567m", "9999m 44p 567p 88p 11s"]
    g = SichuanGame.from_scenario(hands, "", dealer=0, swap_direction="across")
    assert g.phase == "swap" and sorted(g.to_act) == [0, 1, 2, 3]
    # seat 3: a first pick needs three of its suit at or above it: 9m, 4p..7p (not 8p, not 1s)
    assert g.legal_actions(3) == [A.swap(T[t]) for t in ("9m", "4p", "5p", "6p", "7p")]
    step(g, 3, A.swap(T["7p"]))
    assert g.legal_actions(3) == [A.swap(T["8p"])]  # the one 7p is picked: 8p, 8p remain
    with pytest.raises(IllegalActionError):
        g.step(3, A.swap(T["5p"]))  # below the last pick
    assert g.legal_actions(0)[:3] == [A.swap(T[t]) for t in ("1m", "2m", "3m")]  # nothing of seat 3's picks
    for s, tiles in ((0, ("1m", "2m", "3m")), (1, ("7s", "8s", "9s")), (2, ("1p", "2p", "3p"))):
        for t in tiles:
            step(g, s, A.swap(T[t]))
            assert g.swap_direction is None and g.phase == "swap"
    step(g, 3, A.swap(T["8p"]))
    step(g, 3, A.swap(T["8p"]))
    assert g.swap_direction == "across" and g.phase == "void"
    swap = next(e for e in g.events if e["type"] == "swap")
    assert swap["tiles"] == [[0, 1, 2], [15, 16, 17], [18, 19, 20], [24, 25, 25]]
    assert g.received[2] == [0, 1, 2] and g.passed[2] == [18, 19, 20] and g.received[1] == [24, 25, 25]
    assert (g.hands[2][0], g.hands[0][18], g.hands[0][0], g.hands[1][25]) == (1, 1, 0, 2)
    view = SichuanGame.seat_view(swap, 1)  # seat 1 gave to seat 3 and got seat 3's
    assert view["tiles"] == [None, [15, 16, 17], None, [24, 25, 25]]
    assert SichuanGame.replay(g.events).hands == g.hands  # the deal event keeps the direction
    assert g.events[0]["swap_direction"] == "across"


@pytest.mark.parametrize("same_suit", [False, True])
def test_s2_1_swap_options_are_the_definitions_picks(same_suit):
    """§2.1 换三张 picks (design env.md): the SWAP ids offered after each pick are exactly the
    definition's, spelt out here kind by kind: an unpicked copy held, not below the last pick, of
    the first pick's suit under ``huan_same_suit``, with at least as many unpicked tiles of its pool
    (its suit, else every kind) from it upwards as picks remain; seeded hands, random picks."""
    r = random.Random(3)
    cfg = RuleConfig(huan_same_suit=same_suit)
    checked = 0
    for seed in range(200):
        g = SichuanGame(cfg, seed=seed)
        for seat in range(4):
            picks: list[int] = []
            while len(picks) < 3:
                left = list(g.hands[seat])
                for t in picks:
                    left[t] -= 1
                want = []
                for t in range(picks[-1] if picks else 0, 27):
                    pool_end = (t // 9 + 1) * 9 if same_suit else 27
                    if (left[t] and not (same_suit and picks and t // 9 != picks[0] // 9)
                            and sum(left[t:pool_end]) >= 3 - len(picks)):
                        want.append(A.SWAP + t)
                assert g._swap_options(seat, list(picks)) == want, (seed, seat, picks)
                checked += 1
                picks.append(r.choice(want) - A.SWAP)
    assert checked == 200 * 4 * 3


def test_s2_1_random_direction_uniform_and_recorded():
    """§2.1: the direction is drawn uniformly from three (chi-square over 300 seeded hands) and the
    swap event records it; replay checks it."""
    seen: Counter[str] = Counter()
    for seed in range(300):
        g = SichuanGame(seed=seed)
        while g.phase == "swap":
            s = g.to_act[0]
            step(g, s, g.legal_actions(s)[0])
        seen[g.swap_direction] += 1
        if seed < 5:
            SichuanGame.replay(g.events)
    chi2 = sum((n - 100) ** 2 / 100 for n in seen.values())
    assert set(seen) == {"next", "across", "previous"} and chi2 < 13.8  # p > 0.001 at 2 degrees


def test_s2_2_void_window_blind_then_revealed():
    """§2.2: all four declare at once; nothing is revealed before the last answer."""
    g = SichuanGame.from_scenario(ONE_SHOT_TWO["hands"], ONE_SHOT_TWO["wall"],
                                  config=RuleConfig(huan_san_zhang=False))
    for s, v in ((2, S), (0, M), (3, P)):
        step(g, s, A.void(v))
        assert g.voids is None and g.legal_actions(1) == [85, 86, 87]
    step(g, 1, A.void(M))
    assert g.voids == [M, M, S, P] and g.events[-1] == {"type": "void", "voids": [M, M, S, P]}
    assert g.phase == "discard" and g.to_act == [0]


def test_d1_void_tiles_first():
    """D1: while he holds void tiles only those are legal discards, whatever he drew."""
    g = start(**ONE_SHOT_TWO)
    discard(g, 0, "1s")
    assert g.legal_actions(1) == [T["9m"]]  # seat 1 drew 9m, his void
    g = start(hands=ONE_SHOT_TWO["hands"], wall=ONE_SHOT_TWO["wall"], voids=[M, M, S, S])
    for seat, tile in ((0, "1s"), (1, "9m"), (2, "6m")):
        discard(g, seat, tile)
    assert g.legal_actions(3) == [T[t] for t in ("2s", "4s", "5s", "9s")]  # void 条 first, not the 2p drawn


@pytest.mark.parametrize("void,offered", [(P, True), (S, False)])
def test_d2_no_peng_of_the_void(void, offered):
    """D2: seat 3 holds 22s; seat 0 discards 2s: a PENG is offered unless 条 is his void."""
    g = start(hands=ONE_SHOT_TWO["hands"], wall=ONE_SHOT_TWO["wall"], voids=[M, M, S, void])
    discard(g, 0, "2s")
    assert g.phase == "claim" and g.legal_actions(1) == [A.HU, A.PASS]  # seat 1 waits on 2s too
    assert g.legal_actions(3) == ([A.PENG, A.PASS] if offered else [])


def test_d2_d3_no_concealed_kong_of_the_void_and_no_win_holding_it():
    """D3: the dealer's complete 14 with his void suit in it is no win; D2: no 暗杠 of his void."""
    hands = ["11223377889911m", *TIANHU_OTHERS]
    g = start(hands, "1p", [M, M, S, S])
    assert g.legal_actions(0) == [T[t] for t in ("1m", "2m", "3m", "7m", "8m", "9m")]
    g = start(hands, "1p", [P, M, S, S])
    assert g.legal_actions(0) == [T[t] for t in ("1m", "2m", "3m", "7m", "8m", "9m")] + [A.gang(0), A.HU]


def test_no_kong_on_an_empty_wall():
    """§3: kongs need a tile in the wall; on an empty wall only PENG remains."""
    g = start(hands=GANGPAO["hands"], wall="", voids=GANGPAO["voids"])
    assert not any(A.GANG_SELF <= a < A.HU for a in g.legal_actions(0))
    discard(g, 0, "6p")
    assert g.done and g.result.extras["classes"]  # seat 1 would draw from an empty wall: §7


# ------------------------------------------------------------------ §4 天胡, 地胡, the end
TIANHU_OTHERS = ["1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 2p 3p 4p", "2m 3m 4m 5m 6m 7m 1s 2s 3s 6p 7p 8p 9p",
                 "5p 6p 7p 8p 9p 5s 6s 7s 8s 9s 2p 3p 4p"]


def test_s4_tianhu_only_item():
    """§4/§5: the dealer wins on his dealt 14 on his first turn: TIANHU alone, F = cap_fan, no 加底;
    winning tile None."""
    hands = ["11223377889911m", *TIANHU_OTHERS]
    g = start(hands, "1p", [P, M, S, S])
    assert A.HU in g.legal_actions(0)
    step(g, 0, A.HU)
    win = last_win(g)
    assert win["patterns"] == {"TIANHU": 1} and win["fan"] == 3 and win["tile"] is None
    assert g.payments == [24, -8, -8, -8]


def test_illegal_input_refused_before_any_change():
    """Every illegal input raises naming what was wrong, and the game is as it was."""
    g = start(**ONE_SHOT_TWO)
    before = (copy.deepcopy(g.events), [bytes(h) for h in g.hands], g.to_act, list(g.payments))
    for seat, action, err in ((0, 88, IllegalActionError), (0, A.HU, IllegalActionError),
                              (1, T["1s"], IllegalActionError), (0, True, TypeError), (0, 1.0, TypeError),
                              (0, T["9p"], IllegalActionError), (5, 0, IllegalActionError)):
        with pytest.raises(err):
            g.step(seat, action)
    assert (g.events, [bytes(h) for h in g.hands], g.to_act, g.payments) == before


def test_from_scenario_refuses_impossible_scenarios():
    h = ONE_SHOT_TWO["hands"]
    with pytest.raises(ValueError, match="swap_direction='left'"):
        SichuanGame.from_scenario(h, "", swap_direction="left")
    with pytest.raises(ValueError, match="huan_san_zhang is off"):
        SichuanGame.from_scenario(h, "", config=RuleConfig(huan_san_zhang=False), swap_direction="next")
    with pytest.raises(ValueError, match="differs from the rule option huan_direction='next'"):
        SichuanGame.from_scenario(h, "", config=RuleConfig(huan_direction="next"), swap_direction="across")
    with pytest.raises(ValueError, match="more than 4 copies"):
        SichuanGame.from_scenario(h, "5s 5s 5s")
    with pytest.raises(ValueError, match="needs 14"):
        SichuanGame.from_scenario([h[1], h[1], h[2], h[3]], "")
    with pytest.raises(ValueError, match="at most 55"):
        SichuanGame.from_scenario(h, list(range(27)) * 2 + [25, 26])
    with pytest.raises(ValueError, match="no honours"):
        SichuanGame.from_scenario([h[0], h[1], h[2], [27] + list(parse(h[3]))[1:]], "")


# ------------------------------------------------------------------ random play
def test_random_play_replay_108_and_zero_sum():
    """200 seeded hands with random legal actions (HU always taken): 108 tiles at every step,
    zero-sum, payments equal to the transfers, winners never asked again and never paying after
    their win, verified replay gives the same hand, and a tampered log is refused."""
    wins = 0
    for seed in range(200):
        rng = random.Random(seed)
        g = SichuanGame(seed=seed, dealer=seed % 4)
        while not g.done:
            s = rng.choice(g.to_act)
            assert s not in g.seats_out
            acts = g.legal_actions(s)
            step(g, s, A.HU if A.HU in acts else rng.choice(acts))
        r = g.result
        assert sum(r.payments) == 0 and list(r.payments) == g.payments
        for w in r.winners:
            idx = next(k for k, e in enumerate(g.events) if e["type"] == "win" and e["seat"] == w)
            later = [t for e in g.events[idx + 1:] for t in e.get("transfers", [])]
            assert all(w not in (t["payer"], t["payee"]) for t in later)
        wins += len(r.winners)
        again = SichuanGame.replay(g.events)
        assert again.result == r and again.events == g.events
    assert wins > 20
    bad = copy.deepcopy(g.events)
    bad[-1]["result"]["payments"][0] += 1
    with pytest.raises(ReplayMismatchError):
        SichuanGame.replay(bad)


def test_match_dealer_rule():
    """§1: a match's next dealer is the hand's ``next_dealer`` (first winner; several: the
    discarder; none: the dealer stays)."""
    m = SichuanMatch(hands=3, seed=5, dealer=2)
    rng = random.Random(0)
    while not m.done:
        s = rng.choice(m.to_act)
        acts = m.legal_actions(s)
        m.step(s, A.HU if A.HU in acts else rng.choice(acts))
    assert m.dealers[0] == 2
    for r, d in zip(m.results, m.dealers[1:], strict=False):
        assert r.next_dealer == d


# ------------------------------------------------------------------ more of §3–§7 through the engine
DIANGANG = dict(
    hands=["5s 11m 22m 33m 44m 66m 77m 8m",     # seat 0, dealer, void 筒
           "555s 123m 456m 789m 9s",            # seat 1, void 筒
           "123456789p 1s 2s 3s 4s",            # seat 2, void 万
           "123456789p 6s 7s 8s 1s"],           # seat 3, void 万
    wall="2p 3p 9s 4p",  # the replacement: wall[2] = 9s
    voids=[P, P, M, M],
)


@pytest.mark.parametrize("rule,want", [("zimo", [-7, 17, -5, -5]), ("dianpao", [-6, 6, 0, 0])])
def test_s6_2_dianganghua(rule, want):
    """§6.2 点杠花: seat 1's 直杠 on seat 0's 5s (+2 from seat 0), the replacement 9s completes him:
    平胡 + 根 + 杠上开花, F = 2, V = 4. ``"zimo"``: paid as a self-draw (4 + 1 from each); ``"dianpao"``:
    seat 0 alone pays 4. Either way a self-drawn win."""
    g = start(dianganghua=rule, **DIANGANG)
    discard(g, 0, "5s")
    assert g.legal_actions(1) == [A.PENG, A.GANG_CLAIM, A.PASS]
    step(g, 1, A.GANG_CLAIM)
    assert g.payments == [-2, 2, 0, 0]
    step(g, 1, A.HU)
    assert last_win(g)["patterns"] == {"PINGHU": 1, "GEN": 1, "GANGKAI": 1}
    assert g.payments == want
    play_out(g)
    assert g.result.self_drawn == (1,) and g.result.won_from == {}


def test_s3_zhuanshougang_pays_nothing_unless_option():
    """§3 转手杠: seat 1 draws the fourth 5s, keeps it, and adds it to his PENG on a later turn: no
    刮风; with ``bugang_from_hand_pays`` 1 from each remaining seat."""
    for pays in (False, True):
        g = start(hands=ROB["hands"], wall="1m 7p 8m 5s 3p 4p 4p 7m 6m 6s 9s 2m", voids=ROB["voids"],
                  qiang_gang=False, bugang_from_hand_pays=pays)
        discard(g, 0, "5s")
        step(g, 1, A.PENG)
        for seat, tile in ((1, "6p"), (2, "2s"), (3, "5p"), (0, "8m")):
            discard(g, seat, tile)
        assert A.gang(T["5s"]) in g.legal_actions(1)
        discard(g, 1, "2s")  # keeps the 5s drawn this turn
        while not (g.phase == "discard" and g.to_act == [1]):
            s = g.to_act[0]
            acts = g.legal_actions(s)
            step(g, s, A.PASS if A.PASS in acts else acts[0])
        before = list(g.payments)
        step(g, 1, A.gang(T["5s"]))
        gained = [a - b for a, b in zip(g.payments, before, strict=True)]
        assert gained == ([-1, 3, -1, -1] if pays else [0, 0, 0, 0])
        assert [m.kind for m in g.melds[1]] == ["jiagang"]


def test_s4_haidi_self_draw():
    """§4/§5 海底捞月: a self-draw on the last tile of the wall adds HAIDI."""
    g = start(wall="9p 9m", cap_fan=4, tiandihu=False, **SELF_DRAW)
    discard(g, 0, "5p")
    discard(g, 1, "9p")
    assert g.wall.remaining == 0
    step(g, 2, A.HU)
    win = last_win(g)
    assert win["patterns"] == {"QINGYISE": 1, "GEN": 1, "HAIDI": 1}
    assert [(t["payer"], t["amount"]) for t in win["transfers"]] == [(0, 17), (1, 17), (3, 17)]
    assert g.done  # the next seat would draw from an empty wall: §7 among seats 0, 1, 3


def test_s7_exhaustion_through_the_engine():
    """§7: the empty wall ends the hand; seat 3 holds his void 条 (花猪) and pays each remaining
    non-花猪 8 (cap 3); seats 0, 1 and 2 are ready (2: 清一色 + 根, Fmax 3), so no 查大叫 and no 退税."""
    g = start(wall="9p 8p", **SELF_DRAW)
    discard(g, 0, "5p")
    discard(g, 1, "9p")
    discard(g, 2, "8p")  # D1: his void 筒
    assert g.done
    r = g.result
    assert r.extras["classes"] == {"0": "ready", "1": "ready", "2": "ready", "3": "huazhu"}
    assert r.extras["dajiao_fan"] == {"0": 0, "1": 0, "2": 3}
    assert r.payments == (8, 8, 8, -24) and {t.reason for t in r.transfers} == {"huazhu"}
    assert r.winners == () and r.next_dealer == 0  # no win: the dealer stays


def test_s7_exhaustion_classes_from_the_kept_waits_equal_those_made_afresh():
    """§7 查叫 at exhaustion reads each seat's kept waits (``SichuanGame._wait``, passed to
    ``scoring.exhaustion_class``): in random play every exhausted hand's classes and Fmax equal
    those ``exhaustion_class`` makes from the final hands and melds alone."""
    from cnmahjong.envs.sichuan.heuristic import heuristic_on_game
    from cnmahjong.envs.sichuan.scoring import exhaustion_class

    exhausted = ready = 0
    for seed in range(150):
        g = SichuanGame(seed=seed)
        while not g.done:  # the heuristic's discards get ready; passing every claim, most hands exhaust
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            g.step(seat, A.PASS if A.PASS in legal else heuristic_on_game(g, seat, legal))
        classes, fans = g.result.extras["classes"], g.result.extras["dajiao_fan"]
        if not classes:
            continue
        exhausted += 1
        for k, cls in classes.items():
            s = int(k)
            assert exhaustion_class(g.hands[s], g.melds[s], g.voids[s], g.config) == (cls, fans.get(k)), (seed, s)
            ready += cls == "ready"
    assert exhausted > 100 and ready > 20


def test_s9_winner_hand_hidden_until_the_end_unless_revealed():
    """§9: a winner's concealed tiles and itemised fan stay hidden from the others while the hand is
    on (``reveal_winner_hand`` shows them); the amounts are public."""
    for reveal in (False, True):
        g = start(reveal_winner_hand=reveal, **GANGPAO)
        step(g, 0, A.gang(T["6p"]))
        discard(g, 0, "3m")
        step(g, 2, A.HU)
        step(g, 3, A.PASS)
        win = last_win(g)
        assert SichuanGame.seat_view(win, 2) == win
        other = SichuanGame.seat_view(win, 1)
        assert other["transfers"] == win["transfers"]
        assert ("patterns" in other and "hand" in other and "fan" in other) is reveal
        # §9: seat 3's declined HU leaves no trace in the others' views; his own view keeps it
        passed = next(e for e in g.events if e["type"] == "act" and e["seat"] == 3 and e["phase"] == "claim")
        assert passed["action"] == A.PASS
        assert [SichuanGame.seat_view(passed, v) for v in (0, 1, 2)] == [None] * 3
        assert SichuanGame.seat_view(passed, 3) == passed


@pytest.mark.parametrize("lock", [False, True])
def test_s3_pass_peng_lock(lock):
    """§3 ``pass_peng_lock``: seat 3 passes a PENG of 1s; with the lock the next 1s (seat 1's,
    before seat 3's next draw) is not offered to him; without it (the default) it is."""
    g = start(wall="1s 9m 4s 1p 5m 2s", pass_peng_lock=lock, **PASS_HU)
    discard(g, 0, "1s")
    assert g.legal_actions(3) == [A.PENG, A.PASS]
    step(g, 3, A.PASS)
    discard(g, 1, "1s")
    if lock:
        assert g.phase == "discard" and g.to_act == [2]
    else:
        assert g.phase == "claim" and g.legal_actions(3) == [A.PENG, A.PASS]


def test_legal_mask_matches_legal_actions():
    """The env's mask (one byte-table pass when every held kind may be discarded) equals the
    legal actions at every decision of 30 random hands, D1 turns included."""
    for seed in range(30):
        rng = random.Random(seed)
        g = SichuanGame(seed=seed)
        while not g.done:
            for s in range(4):
                assert [a for a, x in enumerate(g.legal_mask(s)) if x] == g.legal_actions(s)
            s = rng.choice(g.to_act)
            step(g, s, rng.choice(g.legal_actions(s)))


@pytest.mark.parametrize("tiandihu", [False, True])
def test_third_win_ends_the_hand_without_exhaustion(tiandihu):
    """§3 一炮多响 / §4: three seats win on one discard: the hand ends at once, after all three are
    settled; nobody is checked (§7 does not apply); the discarder deals next (§1). It is the
    dealer's first discard with nothing before: 地胡 for each (F = cap_fan, V = 8) under
    ``tiandihu``, else 平胡 (V = 1)."""
    hands = ["5m 11m 22m 33m 77m 88m 99m 3s", "46m 123s 456s 789s 11s", "46m 123s 456s 789s 22s",
             "46m 123p 456p 789p 11p"]
    g = start(hands, "1p 2p", [P, P, P, S], tiandihu=tiandihu)
    discard(g, 0, "5m")
    assert sorted(g.to_act) == [1, 2, 3]
    for s in (2, 3, 1):
        step(g, s, A.HU)
    r = g.result
    v = 8 if tiandihu else 1
    assert g.done and r.winners == (1, 2, 3) and r.payments == (-3 * v, v, v, v)
    assert r.patterns[2] == ({"DIHU": 1} if tiandihu else {"PINGHU": 1})
    assert r.extras["classes"] == {} and not any(e["type"] == "exhaust" for e in g.events)
    assert r.next_dealer == 0 and g.wall.remaining == 2


def test_s7_tuishui_skips_a_payer_who_has_won():
    """§7 (the engine's side of §10.3): seat 0's 暗杠 on his first turn takes 2 from each; on his
    next turn he draws the 海底 tile and seat 1 wins on his discard (海底炮), so seat 1's account is
    closed; at exhaustion seat 0 still holds his void 万 (花猪: 8 to seats 2 and 3), seat 2 is not
    ready (1 to ready seat 3), and seat 0's 退税 returns 2 to seats 2 and 3, not to seat 1."""
    hands = ["9999p 11m 3m 5m 1s 2s 3s 4s 6s 8s",   # seat 0, dealer, void 万
             "46m 123p 456p 777p 11p",             # seat 1, void 条
             "1m 4m 7m 3m 6m 9m 1s 4s 7s 2s 5s 8s 9s",  # seat 2, void 筒, not ready
             "123m 456m 789m 22s 33s"]             # seat 3, void 筒, ready on 2s / 3s
    g = start(hands, "8s 5s 9s 7s 6s", [M, S, P, P])  # the replacement: wall[3] = 7s
    step(g, 0, A.gang(T["9p"]))
    assert g.payments == [6, -2, -2, -2]
    assert g.legal_actions(0) == [T["1m"], T["3m"], T["5m"]]  # D1
    for seat, tile in ((0, "3m"), (1, "8s"), (2, "5s"), (3, "9s")):
        discard(g, seat, tile)
    assert g.wall.remaining == 0
    discard(g, 0, "5m")
    step(g, 1, A.HU)
    assert last_win(g)["patterns"] == {"PINGHU": 1, "HAIDI": 1}
    assert g.done  # seat 2 would draw from the empty wall
    r = g.result
    assert r.extras["classes"] == {"0": "huazhu", "2": "not_ready", "3": "ready"}
    exhaustion = [(t.payer, t.payee, t.amount, t.reason) for t in r.transfers if t.reason not in ("kong", "win")]
    assert exhaustion == [(0, 2, 8, "huazhu"), (0, 3, 8, "huazhu"), (2, 3, 1, "dajiao"),
                          (0, 2, 2, "tuishui"), (0, 3, 2, "tuishui")]
    assert r.payments == (-16, 0, 7, 9)


def test_s2_1_options_fixed_direction_and_any_suit():
    """§2.1 options: ``huan_direction`` fixed (the seed draws nothing); ``huan_same_suit`` off lets
    the picks cross suits (still non-decreasing, never a dead end)."""
    hands = ["1234567m 1234567s", "789s 1234567p 888m", "123p 8p 99p 8s 999s 567m", "9999m 44p 567p 88p 11s"]
    g = SichuanGame.from_scenario(hands, "", config=RuleConfig(huan_direction="previous", huan_same_suit=False))
    assert g.legal_actions(3) == [A.swap(T[t]) for t in ("9m", "1s", "4p", "5p", "6p", "7p")]  # 8p: two left above
    step(g, 3, A.swap(T["9m"]))
    assert A.swap(T["1s"]) in g.legal_actions(3)  # another suit after 9m
    while g.phase == "swap":
        s = g.to_act[0]
        step(g, s, g.legal_actions(s)[0])
    assert g.swap_direction == "previous"
    assert g.received[3] == g.passed[0] and g.received[0] == g.passed[1]  # seat s gives to s + 3


def test_s4_d3_kept_waits_are_the_win_shapes_in_random_play_and_worlds():
    """The waits a seat keeps between its turns (``_wait``: offered wins on a discard or a robbed
    tile are read only for them) are exactly the tiles whose addition makes a §4 shape without a
    void tile (D3), checked for every seat off its turn and every kind another seat could still
    offer (fewer than four copies in its hand and melds), along random hands and in worlds sampled
    from them (redrawn hands and hidden kongs: the kept waits must not outlive them)."""
    import numpy as np

    from cnmahjong.envs.sichuan.patterns import win_shape

    waits = 0

    def check(game) -> int:
        nonlocal waits
        checked = 0
        for o in range(4):
            h, n = game.hands[o], len(game.melds[o])
            if game.voids is None or o in game.out or sum(h) != 13 - 3 * n:
                continue
            mask = game._wait(o)
            for t in range(27):
                if h[t] + game.melded[o][t] < 4:
                    h[t] += 1
                    assert bool(mask >> t & 1) == win_shape(h, n, game.voids[o]), (o, t, list(h))
                    waits += mask >> t & 1
                    h[t] -= 1
                    checked += 1
        return checked

    r = random.Random(4)
    rng = np.random.default_rng(4)
    checked = 0
    for seed in range(60):
        game = SichuanGame(seed=seed)
        while not game.done:
            checked += check(game)
            seat = game.to_act[0]
            if game.voids is not None and seat not in game.out and r.random() < 0.1:
                checked += check(game.sample_world(seat, rng))
            legal = game.legal_actions(seat)
            game.step(seat, A.HU if A.HU in legal and r.random() < 0.5 else r.choice(legal))
    assert checked > 100_000 and waits > 200

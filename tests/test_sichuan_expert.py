"""Sichuan's expert player (envs/sichuan/expert.py): positions built with ``from_scenario`` and
read through the ``sc-v0`` encoder, as the arena's players see them."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from cnmahjong.envs.core.tiles import tiles_arg
from cnmahjong.envs.sichuan import actions as A
from cnmahjong.envs.sichuan.expert import _View, expert
from cnmahjong.envs.sichuan.game import SichuanGame
from cnmahjong.envs.sichuan.heuristic import heuristic
from cnmahjong.envs.sichuan.observation import Encoder
from cnmahjong.envs.sichuan.rules import RuleConfig

NO_SWAP = RuleConfig(huan_san_zhang=False)
_ENC = Encoder()


def planes(g: SichuanGame, seat: int) -> np.ndarray:
    return np.frombuffer(_ENC.planes(g, seat), dtype=np.uint8).reshape(-1, 27)


def filler_wall(hands: list[str], head: str, size: int) -> list[int]:
    """``head`` then tiles nobody holds yet, ``size`` in all (4 copies of each kind at most)."""
    used = Counter(t for h in hands for t in tiles_arg(h)) + Counter(tiles_arg(head))
    rest = [t for t in range(27) for _ in range(4 - used[t])]
    assert all(n <= 4 for n in used.values())
    return tiles_arg(head) + rest[:size - len(tiles_arg(head))]


def test_void_is_the_suit_with_fewest_tiles():
    hands = ["1234567m12345s99p", "123m456s789p1122m", "345m678s234p5566s", "789m123s567p3344p"]
    g = SichuanGame.from_scenario(hands, filler_wall(hands, "", 40), config=NO_SWAP)
    assert g.phase == "void"
    assert expert(planes(g, 0), g.legal_actions(0)) == A.void(2)  # 筒: two tiles (§2.2)


def test_void_tie_goes_to_the_weaker_suit_where_greedy_takes_the_lower():
    # 5 m, 4 s (2345s, connected), 4 p (1359p, scattered): drop 筒 (greedy drops 条, the lower id)
    hands = ["12345m2345s1359p", "123m456s789p1122m9s", "345m678s234p5566s", "789m123s567p3344p"]
    g = SichuanGame.from_scenario(hands, filler_wall(hands, "", 40), dealer=1, config=NO_SWAP)
    obs, legal = planes(g, 0), g.legal_actions(0)
    assert heuristic(obs, legal) == A.void(1)
    assert expert(obs, legal) == A.void(2)


def test_it_declares_a_win_when_legal():
    hands = ["123m456m789m123s55s", "123p456p789p1122m", "345m678s234p5566s", "789m123s567p3344p"]
    g = SichuanGame.from_scenario(hands, filler_wall(hands, "", 40), config=NO_SWAP)
    for s in (0, 1, 2, 3):
        g.step(s, expert(planes(g, s), g.legal_actions(s)) if s == 0 else A.void(s % 3))
    assert g.voids[0] == 2  # no 筒 held
    legal = g.legal_actions(0)
    assert A.HU in legal  # 天胡 (§4)
    assert expert(planes(g, 0), legal) == A.HU


def test_only_legal_actions_over_many_decisions():
    decisions = 0
    rng = random.Random(7)
    for seed in range(12):
        g = SichuanGame(seed=seed, dealer=seed % 4)
        while g.phase != "done":
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            a = expert(planes(g, seat), legal) if seat != 3 or rng.random() < 0.5 else rng.choice(legal)
            assert a in legal, (seed, seat, a, legal)
            g.step(seat, a)
            decisions += 1
    assert decisions >= 300


def _drive(g: SichuanGame, plans: dict[int, list[int]]) -> None:
    """Play the planned actions of each seat in turn; claims not planned are passed."""
    while True:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        if plans[seat]:
            a = plans[seat].pop(0)
        elif A.PASS in legal:
            a = A.PASS
        else:
            return
        assert a in legal, (seat, a, legal)
        g.step(seat, a)


def test_it_keeps_the_tile_a_visible_one_suit_collector_wants():
    # seat 2 (void 条) PENGs 3p and 7p: he collects 筒 (清一色). Seat 0 then holds 123s 456s 123p
    # 456p with 9s and 9p, either of which leaves it ready on the other: it throws 9s.
    hands = ["123s456s123p456p9s1m", "3p234m678m234s678s", "33p77p1122m589m45p", "7p3456789m13579s"]
    g = SichuanGame.from_scenario(hands, filler_wall(hands, "5s2s4s9p", 30), config=NO_SWAP)
    plans = {0: [A.void(0), A.discard(tiles_arg("1m")[0])],
             1: [A.void(2), A.discard(tiles_arg("3p")[0])],
             2: [A.void(1), A.PASS, A.PENG, A.discard(tiles_arg("9m")[0]), A.PENG, A.discard(tiles_arg("8m")[0])],
             3: [A.void(2), A.discard(tiles_arg("7p")[0]), A.discard(tiles_arg("4s")[0])]}
    _drive(g, plans)
    assert g.turn == 0 and g.phase == "discard" and len(g.melds[2]) == 2
    obs, legal = planes(g, 0), g.legal_actions(0)
    nine_s, nine_p = tiles_arg("9s")[0], tiles_arg("9p")[0]
    danger = _View(obs).danger()
    assert danger[nine_p] > 3 * danger[nine_s]
    assert all(danger[t] == 0 for t in range(9, 18))  # his void 条 can never win for him (D3); 1, 3 not ready
    assert heuristic(obs, legal) == nine_p  # greedy breaks the tie by the higher kind
    assert expert(obs, legal) == nine_s


def test_greedy_and_expert_weigh_a_peng_that_leaves_only_void_tiles():
    """D2: a seat holding void tiles may still PENG. Seat 1 (void 筒) holds 55m and eleven 筒: after
    the PENG nothing outside its void would be left (sampled worlds of the search reach such hands);
    both players answer with a legal action instead of failing on an empty count."""
    hands = ["1234m6789m12345s5m", "55m11122233399p", "789s456p678p1122s", "2233m4477p3344s9s"]
    g = SichuanGame.from_scenario(hands, filler_wall(hands, "", 40), config=NO_SWAP)
    for seat, void in ((0, 2), (1, 2), (2, 0), (3, 1)):
        g.step(seat, A.void(void))
    g.step(0, A.discard(tiles_arg("5m")[0]))
    assert g.to_act == [1] and A.PENG in g.legal_actions(1)
    obs, legal = planes(g, 1), g.legal_actions(1)
    assert heuristic(obs, legal) == A.PASS  # nothing to gain outside the void
    assert expert(obs, legal) in legal

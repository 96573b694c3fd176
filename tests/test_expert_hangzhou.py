"""Hangzhou's expert player (``envs/hangzhou/expert.py``): legal play, the 爆头 / 财飘 bets (§3,
§4) against the wall (§1), the 承包 claim it avoids (§6), and the arena counts that show the bets."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cnmahjong.agents.play import play_episode
from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.env import raw_env
from cnmahjong.envs.hangzhou.expert import decode_claims, expert
from cnmahjong.envs.hangzhou.game import HangzhouGame
from cnmahjong.envs.hangzhou.heuristic import heuristic
from cnmahjong.envs.hangzhou.observation import encode
from cnmahjong.envs.vector import VectorEnv
from cnmahjong.training.arena import evaluate
from tests.hz_scenario import hz_game, k

# the 财神 is 1z (东) in the bet scenarios: the dealer holds one beside four sets and a 9p
DEALER = "123m456m789m123p1z9p"
OTHERS = ["147m258p369s2z3z4z5z", "258m369p147s2z3z4z6z", "369m147p258s5z6z6z5z"]


def _agent(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """The expert as a ``play_episode`` policy: it sees only its observation and mask."""
    legal = np.flatnonzero(action_mask).tolist()
    return legal[0] if len(legal) == 1 else expert(observation, legal)


def _ask(game: HangzhouGame, seat: int) -> tuple[np.ndarray, list[int]]:
    return encode(game, seat), game.legal_actions(seat)


def _drive(game: HangzhouGame, decide: Callable[[HangzhouGame, int, list[int]], int | None]) -> tuple[int, list[int]]:
    """Play until ``decide`` returns None for a pending seat: that (seat, legal) is returned."""
    while not game.done:
        if game.play_forced() is not None:
            continue
        for s in list(game.to_act):
            legal = game.legal_actions(s)
            a = decide(game, s, legal)
            if a is None:
                return s, legal
            game.step(s, a)
    raise AssertionError("the hand ended before the position was reached")


def _tsumogiri(game: HangzhouGame, s: int, legal: list[int]) -> int:
    """Opponents pass every claim and throw the tile they drew."""
    if A.PASS in legal:
        return A.PASS
    return game.drawn if game.drawn is not None else legal[0]


# ----------------------------------------------------------------- legal play
def test_expert_plays_only_legal_moves_through_the_aec_env():
    env = raw_env()
    seen = {"decisions": 0}

    def check(seat, obs, action):
        assert obs["action_mask"][action] == 1
        seen["decisions"] += 1

    for seed in range(100):
        play_episode(env, [_agent] * 4, seed=seed, on_decision=check)
    assert seen["decisions"] > 3000


def test_expert_plays_only_legal_moves_through_the_vector_env():
    venv = VectorEnv(num_tables=8, ruleset="hangzhou", seed=3)
    batch = venv.reset()
    hands = 0
    while hands < 100:
        acts = []
        for obs, mask in zip(batch.obs, batch.mask, strict=True):
            legal = np.flatnonzero(mask).tolist()
            a = legal[0] if len(legal) == 1 else expert(obs, legal)
            assert a in legal
            acts.append(a)
        batch = venv.step(acts)
        hands += int(batch.hand_over.sum())


# ----------------------------------------------------------------- 爆头 (§3, §4)
def test_declines_a_plain_win_for_baotou_early_and_takes_it_late():
    """§3/§4: the dealer's 14 are four sets + 财神 + 9p, a plain win (×1). Throwing the 9p leaves
    the 爆头-ready state (any draw wins, ×2): worth it with a full wall, not when no draw is left
    (§1: the hand is drawn at 19 drawable tiles)."""
    early = hz_game([DEALER, *OTHERS], "1z")
    obs, legal = _ask(early, 0)
    assert A.HU in legal and heuristic(obs, legal) == A.HU
    assert expert(obs, legal) == k("9p")
    late = hz_game([DEALER, *OTHERS], "1z", wall_size=22)  # 21 left: no draw of mine after 3 others
    obs, legal = _ask(late, 0)
    assert expert(obs, legal) == A.HU


def _piao_position(wall_size: int | None = None) -> tuple[np.ndarray, list[int]]:
    """The dealer threw the 9p (爆头-ready), the others threw their draws, and it drew a second
    财神: it can win 爆头 (×2) or throw a 财神 (飘) and stay ready."""
    game = hz_game([DEALER, *OTHERS], "1z", head="8s8s8s1z", wall_size=wall_size)
    first = {"done": False}

    def decide(g: HangzhouGame, s: int, legal: list[int]) -> int | None:
        if s != 0:
            return _tsumogiri(g, s, legal)
        if not first["done"]:
            first["done"] = True
            return k("9p")
        return None

    seat, legal = _drive(game, decide)
    assert seat == 0 and game.hands[0][k("1z")] == 2
    return encode(game, 0), legal


def test_piao_from_the_baotou_ready_state_when_it_pays():
    """§3 财飘: ready before the draw and holding an extra 财神, throwing it keeps the hand ready
    and doubles the next 爆头 (财飘 ×4, §4): the expert throws it early, greedy wins."""
    obs, legal = _piao_position()
    assert A.HU in legal and heuristic(obs, legal) == A.HU
    assert expert(obs, legal) == k("1z")


def test_no_piao_when_no_draw_is_left():
    """§1: with 26 tiles dealt-off the wall, the others' three draws leave no draw for me: win."""
    obs, legal = _piao_position(wall_size=27)
    assert A.HU in legal and expert(obs, legal) == A.HU


# ----------------------------------------------------------------- 承包 (§6)
def test_does_not_make_the_third_claim_on_one_player_section6():
    """§6 反承包: three claims on one player's discards make me pay him 2 × his income if he wins.
    Seat 0 PENGs the dealer's (seat 3) 2z and 3z; the third PENG (4z) would lower its shanten,
    greedy takes it, the expert passes."""
    hands = ["2z2z3z3z4z4z123m1s9p9s5p", "147m258p39s1z1z5z5z6z", "258m369p147s1z5z6z6z",
             "2z369m147p258s9m1z5z6z"]
    game = hz_game(hands, "6s", head="8m8m3z9p9p4z", dealer=3)
    pengs = []

    def decide(g: HangzhouGame, s: int, legal: list[int]) -> int | None:
        if s == 3 and g.phase == "discard":
            honours = [t for t in (k("2z"), k("3z"), k("4z")) if g.hands[3][t]]
            return honours[0] if honours else g.drawn
        if s != 0:
            return _tsumogiri(g, s, legal)
        if A.PENG in legal and g.claim_tiles == [k("4z")]:
            return None
        a = expert(encode(g, 0), legal) if len(legal) > 1 else legal[0]
        if a == A.PENG:
            pengs.append(g.claim_tiles[0])
        return a

    seat, legal = _drive(game, decide)
    obs = encode(game, 0)
    assert pengs == [k("2z"), k("3z")] and decode_claims(obs, 0, 3) == 2
    assert heuristic(obs, legal) == A.PENG
    assert expert(obs, legal) == A.PASS


# ----------------------------------------------------------------- the arena
def test_the_arena_shows_the_expert_reaching_baotou():
    """The bets happen in play: the expert's 爆头 count beats greedy's, which only falls into it."""
    report = evaluate(["expert", "greedy", "greedy", "greedy"], 25, "hangzhou", workers=1, progress=False)
    ours, *theirs = report["reports"]
    assert ours["baotou_per_hand"] > max(r["baotou_per_hand"] for r in theirs)
    assert ours["baotou_per_hand"] > 0.01

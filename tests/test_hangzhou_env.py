"""The PettingZoo env ``hangzhou_mahjong_v0``: API, seeding, rewards, hidden information, scenarios."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou import env, raw_env
from cnmahjong.envs.hangzhou import observation as O
from tests.hz_scenario import discard, hz_game, k


def test_pettingzoo_api_and_seed_tests():
    api_test(env(), num_cycles=400)
    seed_test(lambda: env(), num_cycles=400)
    e = raw_env()
    assert e.metadata["name"] == "hangzhou_mahjong_v0" and e.encoder == "hz-v0"
    assert e.observation_space("player_0")["observation"].shape == (145, 34)
    assert e.action_space("player_0").n == A.NUM_ACTIONS == 75


def play_random(e, rng: random.Random) -> dict[str, float]:
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        game = e.unwrapped.game
        seat = e.unwrapped.agent_name_mapping[agent]
        assert np.flatnonzero(obs["action_mask"]).tolist() == game.legal_actions(seat)
        assert set(info) == {"phase"}
        acts = np.flatnonzero(obs["action_mask"])
        e.step(int(A.HU if A.HU in acts else rng.choice(acts)))
    return totals


@pytest.mark.parametrize("hands", [1, 3])
def test_every_seat_receives_its_whole_settlement_section7(hands):
    rng = random.Random(hands)
    for seed in range(15):
        e = env(reward_scale=2.0, hands_per_episode=hands)
        e.reset(seed=seed)
        totals = play_random(e, rng)
        u = e.unwrapped
        paid = u.match.scores if u.match is not None else u.game.result.payments
        assert [totals[a] for a in e.possible_agents] == [p / 2.0 for p in paid]
        assert sum(paid) == 0


def test_observation_holds_the_hand_indicator_and_unseen_counts_section1():
    e = raw_env()
    e.reset(seed=7)
    g = e.game
    for seat in range(4):
        obs = e.observe(f"player_{seat}")["observation"]
        assert O.decode_hand(obs) == list(g.hands[seat])
        assert O.decode_indicator(obs) == g.indicator
        unseen = O.decode_unseen(obs)
        # every copy not in the seat's hand, minus the turned-up indicator
        assert unseen == [4 - g.hands[seat][t] - (t == g.indicator) for t in range(34)]
        assert obs[O.WALL, 0] == pytest.approx(g.wall.remaining / 82)
    obs = O.encode(g, 0)
    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1


def test_concealed_kong_hidden_from_the_others_until_revealed_section1():
    """乙 makes a 暗杠 of 1s: the others see a hidden kong but not its tile (melds, kongs and
    unseen counts unchanged for 1s) until 乙's next draw; 乙 sees it at once."""
    hands = ["9p4s7s2p5p8p3m6m9s1z2z3z4z6z", "1111s23m456m789m5z",
             "2s5s8s4p7p1m4m6z7z1z2z3z4z", "3s6s9s5m8m4p7p4z4z6z6z7z7z"]
    wall = hz_game(hands, indicator="5z", head="9p 8p 1p 6p 5p", tail="6s").events[0]["wall"]
    e = raw_env(auto_single_actions=False)
    e.reset(options={"scenario": {"hands": hands, "wall": wall, "dealer": 0, "streak": 1}})
    g = e.game
    g.step(0, discard("9s"))
    g.step(1, A.gang(k("1s")))
    one_s = k("1s")
    mine = e.observe("player_1")["observation"]
    assert mine[O.KONGS, one_s] == 1 and O.decode_melded(mine, 0)[one_s] == 4
    for seat in (0, 2, 3):
        obs = e.observe(f"player_{seat}")["observation"]
        rel = (1 - seat) % 4
        assert O.decode_melded(obs, rel)[one_s] == 0 and obs[O.KONGS + rel, one_s] == 0
        assert obs[O.HIDDEN_KONGS + 2 * rel, 0] == 1  # a hidden kong is known to exist
        assert O.decode_unseen(obs)[one_s] == 4 - g.hands[seat][one_s]
    assert "face down" in __import__("cnmahjong.envs.hangzhou.render", fromlist=["x"]).render_text(g, viewer=0)
    g.step(1, discard("6s"))
    for _ in range(3):
        s = g.to_act[0]
        g.step(s, g.drawn)
    assert g.to_act == [1]  # 乙 drew again: the kong is revealed
    obs = e.observe("player_0")["observation"]
    assert O.decode_melded(obs, 1)[one_s] == 4 and obs[O.KONGS + 1, one_s] == 1


def test_scenario_reset_takes_streak_and_rejects_unknown_keys():
    hands = ["9p4s7s2p5p8p3m6m9s1z2z3z4z6z", "123m456m789m123p9p",
             "2s5s8s4p7p1m4m6z7z1z2z3z4z", "3s6s9s5m8m4p7p4z4z6z6z7z7z"]
    e = raw_env()
    e.reset(options={"scenario": {"hands": hands, "wall": "5z9m9m", "dealer": 0, "streak": 3}})
    assert e.game.streak == 3 and e.game.indicator == k("5z")
    with pytest.raises(ValueError, match="streak"):
        e.reset(options={"scenario": {"hands": hands, "wall": "5z", "dice": [1]}})


def test_rules_option_and_preset():
    assert raw_env(rules={"liability": False}).config.liability is False
    with pytest.raises(ValueError, match="hangzhou"):
        raw_env(rules="mainstream")


def test_incremental_encoder_equals_a_fresh_one_every_step():
    """The env's encoder keeps public blocks between calls and patches a river on a discard; at
    every step of 25 random hands (claims, kongs, reveals, 飘 included) it must give a fresh
    encoder's bytes. Most steps observe one seat, so several changes arrive in one batch."""
    from cnmahjong.envs.hangzhou.game import HangzhouGame
    from tests.test_hangzhou_fuzz import choose

    rng = random.Random(8)
    checked = 0
    for seed in range(25):
        g = HangzhouGame(seed=seed, streak=1 + seed % 3)
        enc = O.Encoder()
        while not g.done:
            for s in [rng.randrange(4)] if rng.random() < 0.7 else range(4):
                assert enc.planes(g, s) == O.Encoder().planes(g, s)
                checked += 1
            s = rng.choice(g.to_act)
            g.step(s, choose(rng, g, s))
    assert checked > 1000

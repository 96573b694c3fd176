"""The PettingZoo AEC env changsha_mahjong_v0, its observation encoder and the wrapper."""

import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha import env, raw_env
from cnmahjong.envs.changsha.game import ChangshaGame, IllegalActionError
from cnmahjong.envs.changsha.observation import (
    ENCODER,
    NUM_CHANNELS,
    SHAPE,
    decode_claim,
    decode_drawn,
    decode_hand,
    decode_phase,
    decode_unseen,
    decode_wall,
    encode,
)
from cnmahjong.envs.changsha.rules import RuleConfig
from tests.scenario import DEALER_5M, READY_55P, build, t


def run_episode(e, seed, pick=None):
    """Play one episode with random masked actions; return the rewards each agent collected."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    got = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        got[agent] += reward
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(pick(legal, rng) if pick else rng.choice(legal))
        e.step(action)
    return got


@pytest.mark.filterwarnings("ignore:Observation space for each agent", "ignore:Observation is not a NumPy",
                            "ignore:ignoring unknown reset options")
def test_pettingzoo_api_test():
    api_test(env(), num_cycles=400, verbose_progress=False)


def test_pettingzoo_seed_test():
    seed_test(lambda: env(), num_cycles=300)


def test_metadata_spaces_and_agents():
    e = env()
    e.reset(seed=0)
    assert e.metadata["name"] == "changsha_mahjong_v0" and e.metadata["is_parallelizable"] is False
    assert e.possible_agents == [f"player_{i}" for i in range(4)]
    assert e.action_space("player_0").n == 99
    space = e.observation_space("player_2")["observation"]
    assert space.shape == SHAPE == (NUM_CHANNELS, 27) and space.dtype == np.float32
    assert e.unwrapped.encoder == ENCODER == "cs-v0"


def test_registered_with_pettingzoo_registry():
    import pettingzoo

    e = pettingzoo.make("aec", "changsha_mahjong_v0", rules="classic")
    e.reset(seed=1)
    assert e.unwrapped.config == RuleConfig.preset("classic")


def test_rewards_sum_to_zero_and_reach_every_seat():
    for seed in range(40):
        e = env(reward_scale=2.0)
        got = run_episode(e, seed, pick=lambda legal, rng: A.HU if A.HU in legal else rng.choice(legal))
        result = e.unwrapped.game.result
        assert sum(got.values()) == pytest.approx(0.0)
        assert [got[f"player_{s}"] for s in range(4)] == pytest.approx([p / 2 for p in result.payments])


def test_the_seat_that_dealt_in_gets_its_negative_reward():
    # seat 1 throws 5m and seat 3 wins: seat 1 never acts again but is paid its loss
    e = env()
    hands = build({0: DEALER_5M, 3: READY_55P}, "", filler_wall=20)
    e.reset(options={"scenario": {"hands": [ChangshaGame_hand(hands, s) for s in range(4)],
                                  "wall": hands.wall.tiles(), "dealer": 0}})
    assert e.agent_selection == "player_0"
    e.step(t("5m"))
    assert e.agent_selection == "player_3"
    e.step(A.HU)
    rewards = {}
    for agent in e.agent_iter():
        _, reward, term, _, _ = e.last()
        assert term
        rewards[agent] = reward
        e.step(None)
    assert rewards["player_3"] > 0 and rewards["player_0"] < 0
    assert rewards["player_0"] == -rewards["player_3"] and rewards["player_1"] == rewards["player_2"] == 0


def ChangshaGame_hand(game, seat):  # noqa: N802 - helper reading a built scenario back
    return [k for k in range(27) for _ in range(game.hands[seat][k])]


def test_mask_equals_engine_legal_actions_and_idle_masks_are_zero():
    e = env(auto_single_actions=False)
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if e.terminations[e.agent_selection]:
            break
        game = e.unwrapped.game
        for agent in e.possible_agents:
            seat = int(agent[-1])
            mask = e.observe(agent)["action_mask"]
            assert mask.dtype == np.int8
            assert np.flatnonzero(mask).tolist() == game.legal_actions(seat)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


def test_auto_single_actions_only_asks_real_choices():
    e = env()
    e.reset(seed=9)
    rng = np.random.default_rng(1)
    for _agent in e.agent_iter():
        obs, _, term, _, _ = e.last()
        if term:
            e.step(None)
            continue
        assert obs["action_mask"].sum() >= 2
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_illegal_action_raises_with_reason():
    e = env()
    e.reset(seed=3)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="cannot play"):
        e.step(bad)


def test_bad_options_raise():
    with pytest.raises(ValueError, match="mainstream"):
        raw_env(rules="sichuan")
    with pytest.raises(ValueError, match="reward_scale"):
        raw_env(reward_scale=0)
    with pytest.warns(UserWarning, match="unknown reset options"):
        raw_env().reset(options={"senario": {}})
    with pytest.raises(ValueError, match="scenario takes the keys"):
        raw_env().reset(options={"scenario": {"hand": []}})


def test_pickle_round_trip_continues_identically():
    e = env()
    e.reset(seed=11)
    for _ in range(10):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(np.flatnonzero(mask)[-1]))
    clone = pickle.loads(pickle.dumps(e))
    for _ in range(20):
        if e.terminations[e.agent_selection]:
            break
        a = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
        assert clone.agent_selection == e.agent_selection
        np.testing.assert_array_equal(clone.observe(clone.agent_selection)["observation"],
                                      e.observe(e.agent_selection)["observation"])
        e.step(a)
        clone.step(a)


def test_match_episode_with_dealer_rule():
    e = env(hands_per_episode=3)
    got = run_episode(e, 4)
    match = e.unwrapped.match
    assert match.done and len(match.results) == 3
    assert [got[f"player_{s}"] for s in range(4)] == pytest.approx(match.scores)
    assert match.dealers[1:] == [r.next_dealer for r in match.results[:-1]]


# ------------------------------------------------------------------ observation
def test_observation_hides_other_concealed_hands():
    rng = np.random.default_rng(3)
    for seed in range(30):
        g = ChangshaGame(seed=seed)
        steps = int(rng.integers(0, 60))
        while not g.done and steps:
            s = g.to_act[0]
            g.step(s, int(rng.choice(g.legal_actions(s))))
            steps -= 1
        if g.done:
            continue
        for seat in range(4):
            before = encode(g, seat)
            hidden = {o: [k for k in range(27) if g.hands[o][k] > g.shown[o][k]]
                      for o in range(4) if o != seat}
            pairs = [(a, b, ka, kb) for a in hidden for b in hidden if a < b
                     for ka in hidden[a][:1] for kb in hidden[b][-1:] if ka != kb]
            if not pairs:  # every opponent tile is public (shown by opening wins)
                continue
            a, b, ka, kb = pairs[0]
            swap(g, a, b, ka, kb)
            np.testing.assert_array_equal(before, encode(g, seat))  # swapping their tiles: no change
            swap(g, a, b, kb, ka)


def swap(g, a, b, ka, kb):
    """Seat a gives a hidden ka to seat b for a hidden kb."""
    g.hands[a][ka] -= 1
    g.hands[a][kb] += 1
    g.hands[b][kb] -= 1
    g.hands[b][ka] += 1


def test_observation_decodes_own_hand_unseen_and_public_state():
    g = build({0: DEALER_5M}, "1s2s", filler_wall=20)
    obs = encode(g, 0)
    assert obs.shape == SHAPE and obs.dtype == np.float32
    assert obs.min() >= 0.0 and obs.max() <= 1.0
    assert decode_hand(obs) == list(g.hands[0])
    unseen = decode_unseen(obs)
    assert all(unseen[k] == 4 - g.hands[0][k] for k in range(27))
    assert decode_phase(obs) == "discard" and decode_wall(obs) == g.wall.remaining
    g.step(0, t("9m"))
    obs1 = encode(g, 1)  # seat 1 drew 1s: its drawn tile; 9m lies in the dealer's river
    assert decode_drawn(obs1) == t("1s")
    assert decode_unseen(obs1)[t("9m")] == 4 - 1 - g.hands[1][t("9m")]
    assert decode_drawn(encode(g, 2)) is None


def test_claim_tile_and_phase_in_observation():
    g = build({1: "5m123s456s789p22m6p", 3: READY_55P}, "9s", filler_wall=20)
    g.step(0, t("9m"))
    g.step(1, t("5m"))
    obs = encode(g, 3)
    assert decode_phase(obs) == "claim" and decode_claim(obs) == [t("5m")]


def test_render_ansi_hides_other_hands_until_the_end():
    e = env(render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert "hidden" in text and max(text) >= "\U0001F000" or "wall" in text
    viewer = e.unwrapped.game.to_act[0]
    assert f"seat {viewer}" in text
    run_episode(e, 2)
    final = e.render()
    assert "hidden" not in final and "payments" in final


def test_incremental_encoder_equals_reference_encoder_every_step():
    """The fast encoder (one instance kept over the hand, as the env keeps it) equals the
    plain reference encoder for every seat at every step; a second instance asked only
    for the acting seat (so it skips many changes between calls) and a fresh one too."""
    from cnmahjong.envs.changsha.observation import UNSEEN, Encoder
    from tests.reference_encoder import reference_encode

    rng = np.random.default_rng(8)
    for seed in range(25):
        g = ChangshaGame(RuleConfig.preset("classic" if seed % 2 else "mainstream"), seed=seed)
        every, acting = Encoder(), Encoder()
        while not g.done:
            for seat in range(4):  # every seat, acting or not, as observers would
                ref = reference_encode(g, seat)
                np.testing.assert_array_equal(every(g, seat), ref)
                assert (ref[UNSEEN:UNSEEN + 4].sum(axis=0) <= 4).all()  # real counts: 0..4 copies
            s = g.to_act[0]
            np.testing.assert_array_equal(acting(g, s), reference_encode(g, s))
            np.testing.assert_array_equal(encode(g, s), reference_encode(g, s))
            g.step(s, int(rng.choice(g.legal_actions(s))))


def test_observation_arrays_are_independent_and_writable():
    """Each call returns a fresh array: writing to one never changes a later observation."""
    e = raw_env()
    e.reset(seed=4)
    agent = e.agent_selection
    first = e.observe(agent)["observation"]
    keep = first.copy()
    first[:] = 7.0
    np.testing.assert_array_equal(e.observe(agent)["observation"], keep)

"""The proof of "one home per ruleset": a ruleset that lives outside the library (``tests/toy``,
五对 five pairs, with Changsha's tiles) plugs into the AEC env, ``VectorEnv``, the greedy agent,
the arena, the viewer and the self-play trainer through its folder and one registration
(``CNMAHJONG_RULESETS``, which worker processes inherit), with no edit anywhere else. Every
test here goes through the generic modules as they are: one that needed to know the toy
would fail."""

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cnmahjong.envs.core import ruleset as registry
from tests.plugins import plugged_in
from tests.test_vector import _finish_aec, by_table, drive_aec_rewards, random_actions

TOY = "tests.toy.ruleset:FIVEPAIRS"


@pytest.fixture(autouse=True, scope="module")
def fivepairs():
    """The one registration, undone afterwards."""
    with plugged_in(TOY) as rs:
        yield rs


def test_the_registry_finds_it_by_name_preset_encoder_and_event_log(fivepairs):
    assert "fivepairs" in registry.ruleset_names()
    assert registry.preset_names()["sixpairs"] == "fivepairs"
    assert registry.ruleset_of_rules("sixpairs") is fivepairs
    assert registry.ruleset_of_rules({"pairs_to_win": 4}) is fivepairs
    assert registry.ruleset_of_encoder("fp-v1") is fivepairs
    game = fivepairs.new_hand(fivepairs.as_config("fivepairs"), np.random.default_rng(0))
    assert registry.ruleset_of_events(game.events) is fivepairs
    import dataclasses

    assert registry.register(fivepairs) is fivepairs  # the same object again: nothing changes
    with pytest.raises(ValueError, match="registered already"):
        registry.register(dataclasses.replace(fivepairs, title="another"))


def test_the_aec_env_passes_pettingzoos_tests():
    from cnmahjong.envs.aec import aec_env, make_env

    api_test(make_env("fivepairs"), num_cycles=200)
    seed_test(lambda: make_env("fivepairs", rules="sixpairs"), num_cycles=200)
    env = aec_env("fivepairs")(encoder="fp-v1")
    env.reset(seed=3)
    assert env.observation_space("player_0")["observation"].shape == (10, 27)
    assert env.state().shape == env.state_space.shape


@pytest.mark.parametrize("encoder", ["fp-v0", "fp-v1"])
def test_vector_env_rows_and_rewards_equal_the_aec_envs(encoder):
    from cnmahjong.envs.aec import aec_env
    from cnmahjong.envs.vector import VectorEnv

    venv = VectorEnv(num_tables=2, seed=4, ruleset="fivepairs", encoder=encoder, state=True,
                     defer_early_payments=True)
    batch = venv.reset()
    aecs = []
    for t in range(2):
        e = aec_env("fivepairs")(encoder=encoder)
        e.reset(seed=venv.table_seeds[t])
        aecs.append(e)
    rng = np.random.default_rng(0)
    hands = paid = 0
    while hands < 20:
        for t, aec in enumerate(aecs):
            for i in np.flatnonzero(batch.table == t):
                o = aec.observe(f"player_{batch.seat[i]}")
                assert batch.obs[i].tobytes() == o["observation"].tobytes()
                assert np.array_equal(batch.mask[i], o["action_mask"])
                assert batch.state[i].tobytes() == aec.state().tobytes()
        actions = random_actions(batch, rng)
        chosen = by_table(batch, actions, len(aecs))
        batch = venv.step(actions)
        for t, aec in enumerate(aecs):
            got = drive_aec_rewards(aec, chosen[t])
            assert np.allclose(batch.rewards[t], got)
            paid += bool(got.any())
            if not batch.hand_over[t]:
                assert aec.game.events == venv.games[t].events
            else:
                _finish_aec(aec)
                aec.reset()
                hands += 1
    assert paid >= 10


def test_greedy_agent_plays_it_from_its_observation_alone():
    from cnmahjong.agents import GreedyAgent
    from cnmahjong.agents.play import play_episode
    from cnmahjong.envs.aec import aec_env

    env = aec_env("fivepairs")()
    wins = 0
    for seed in range(5):
        play_episode(env, [GreedyAgent()] * 4, seed=seed)
        wins += bool(env.unwrapped.game.result.winners)
    assert wins >= 4  # five pairs come quickly to a player that keeps its pairs


def test_event_logs_name_it_and_replay():
    rs = registry.get_ruleset("fivepairs")
    game = rs.new_hand(rs.as_config("sixpairs"), np.random.default_rng(8))
    while not game.done:
        s = game.to_act[0]
        game.step(s, game.legal_actions(s)[0])
    events = json.loads(json.dumps(game.events))
    assert events[0]["ruleset"] == "fivepairs"
    assert registry.ruleset_of_events(events).game.replay(events).events == game.events


def test_the_arena_plays_and_ranks_it_in_worker_processes():
    from cnmahjong.training.arena import run_arena

    result = run_arena(["greedy", "random", "random", "random"], deals=6, rules="fivepairs", workers=2, seed=1)
    assert result.ruleset == "fivepairs" and result.unit == "points"
    hands = [h for deal in result.hands for h in deal]
    assert len(hands) == 6 * 4
    greedy, *randoms = result.reports
    assert greedy.rates["win_rate"] > max(r.rates["win_rate"] for r in randoms)  # keeping pairs wins more
    assert greedy.mean > 0


def test_the_viewer_draws_a_hand_of_it(tmp_path):
    from cnmahjong.training.viewer.frames import hand_frames
    from cnmahjong.training.viewer.replay import write_replay

    rs = registry.get_ruleset("fivepairs")
    game = rs.new_hand(rs.as_config("fivepairs"), np.random.default_rng(5))
    while not game.done:
        s = game.to_act[0]
        game.step(s, rs.heuristic(rs.encoder()(game, s), game.legal_actions(s)))
    hand = hand_frames(game.events, seat=0)
    assert hand["ruleset"] == "fivepairs" and hand["title"].startswith("Five pairs")
    assert len(hand["frames"]) == 1 + sum(e["type"] == "act" for e in game.events)
    assert hand["frames"][-1]["result"]["winners"] == list(game.result.winners)
    assert hand["frames"][0]["seats"][1]["hand"] is None  # another seat's tiles stay hidden
    page = write_replay(game.events, tmp_path / "hand.html")
    assert "Five pairs" in page.read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_self_play_trainer_trains_on_it_with_its_second_encoder(tmp_path):
    from cnmahjong.envs.integrations.networks import load_actor_critic
    from cnmahjong.training.selfplay_ppo import train

    final = train({"algo": "selfplay_ppo", "run_dir": str(tmp_path), "rules": "fivepairs", "encoder": "fp-v1",
                   "total_timesteps": 600, "num_workers": 2, "tables_per_worker": 4, "steps_per_rollout": 16,
                   "net_arch": [16], "batch_size": 64, "n_epochs": 1, "checkpoint_every_updates": 1})
    net = load_actor_critic(str(final))
    assert net.encoder == "fp-v1" and net.shape == (10, 27)


def test_a_game_that_does_not_play_without_its_log_is_refused_before_any_play(fivepairs):
    """``log=False`` needs a game class that declares ``PLAYS_WITHOUT_LOG`` (every write to its log
    guarded): the shipped games do; the toy's does not, so ``VectorEnv(log=False)`` refuses it at
    construction, ``rollouts(log=False)`` before any play, and ``deal_and_play`` and the self-play
    trainer (``test_the_self_play_trainer_trains_on_it_with_its_second_encoder``) keep its log."""
    from cnmahjong.envs.core.rollouts import deal_and_play, rollouts
    from cnmahjong.envs.vector import VectorEnv

    assert all(registry.get_ruleset(name).game.PLAYS_WITHOUT_LOG for name in ("changsha", "hangzhou", "sichuan"))
    assert not fivepairs.game.PLAYS_WITHOUT_LOG
    with pytest.raises(ValueError, match="does not play without its event log .*allowed log=True"):
        VectorEnv(num_tables=2, ruleset="fivepairs", log=False)
    game = fivepairs.new_hand(fivepairs.as_config("fivepairs"), np.random.default_rng(1))
    before = list(game.events)
    with pytest.raises(ValueError, match=r"games\[0\]: ToyGame does not play without its event log"):
        rollouts([game], "random", log=False)
    assert game.events == before and not game.done  # refused before any play
    assert len(deal_and_play(fivepairs, "fivepairs", range(3))) == 3  # played with its log kept

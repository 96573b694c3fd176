"""The second plug-in ruleset (``tests/relay``, 接力对子): every shape Sichuan 血战到底 brings to the
generic layers, through them as they are, with no edit outside its folder. A blind opening window
of all four seats with two picks each (``TableGame._more_picks``), a winner who leaves while the
others play on (``seats_out``), two winners on one discard, and a refund paid to or by a seat
after it left (``seats_settled``: with ``refund`` its account stays open to the end)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cnmahjong.envs.core import ruleset as registry
from cnmahjong.envs.core.seats import NUM_SEATS
from tests.leaving_seats import heuristic_of, rllib_hands, single_agent_hands, tianshou_hands, torchrl_hands
from tests.plugins import plugged_in
from tests.vector_parity import check_vector_parity

RELAY = "tests.relay.ruleset:RELAY"
PRESETS = ("relay", "relay-norefund")


@pytest.fixture(autouse=True, scope="module")
def relay():
    """The one registration (which worker processes inherit), undone afterwards."""
    with plugged_in(RELAY) as rs:
        yield rs


def new_game(rs, preset="relay", seed=0):
    return rs.new_hand(rs.as_config(preset), np.random.default_rng(seed))


def play_aec(env, policy, seed):
    """One hand through the AEC env: per agent the rewards summed over every step, the step at which
    each agent terminated, and the order of dead steps."""
    env.reset(seed=seed)
    got = dict.fromkeys(env.possible_agents, 0.0)
    ended, removed, steps = {}, [], 0
    while env.agents:
        agent = env.agent_selection
        obs, _, term, _, _ = env.last()
        if term:
            ended.setdefault(agent, steps)
            removed.append(agent)
            env.step(None)
        else:
            env.step(policy(obs["observation"], obs["action_mask"]))
            steps += 1
        for a, r in env.rewards.items():
            got[a] += r
        for a in env.agents:
            if env.terminations[a]:
                ended.setdefault(a, steps)
    return got, ended, removed


# ------------------------------------------------------------------ the engine's new shapes
def test_the_opening_window_asks_all_four_blind_with_two_picks_each(relay):
    game = new_game(relay)
    d = game.dealer
    assert game.phase == "pass" and game.to_act == [(d + i) % 4 for i in range(4)]
    enc = relay.encoder()
    before = {s: (game.legal_actions(s), enc.planes(game, s)) for s in range(4)}
    first = game.to_act[0]
    pick = game.legal_actions(first)[-1]
    game.step(first, pick)
    # the others' masks and observations do not depend on the pick; the picker is asked again last
    for s in range(4):
        if s != first:
            assert (game.legal_actions(s), enc.planes(game, s)) == before[s]
    assert game.to_act[-1] == first and game._window.picks[first] == [pick]
    assert all(a >= pick for a in game.legal_actions(first))  # picks go in non-decreasing kind order
    total = [sum(h) for h in game.hands]
    while game.phase == "pass":
        s = game.to_act[0]
        game.step(s, game.legal_actions(s)[0])
    given = game.events[-2]["tiles"] if game.events[-1]["type"] == "draw" else game.events[-1]["tiles"]
    assert [len(t) for t in given] == [2] * 4
    assert [sum(h) for h in game.hands] == total  # two out, two in
    assert game.claim_tiles == [] and game.claim_from is None  # a swap window is no claim


def test_picks_never_lead_to_a_dead_end_and_stay_hidden_from_the_others(relay):
    rng = np.random.default_rng(1)
    for seed in range(300):
        game = new_game(relay, seed=seed)
        while game.phase == "pass":
            s = game.to_act[0]
            legal = game.legal_actions(s)
            assert legal, "a seat was left with no legal pick"
            game.step(s, int(rng.choice(legal)))
        assert game.phase == "discard"


def hands_until(rs, preset, want, seeds=range(400)):
    """The first seeded hand (greedy play) whose result satisfies ``want``."""
    policy = heuristic_of(rs)
    for seed in seeds:
        game = new_game(rs, preset, seed)
        while not game.done:
            s = game.to_act[0]
            game.step(s, policy(rs.encoder()(game, s), game.legal_mask(s)))
        if want(game):
            return seed, game
    raise AssertionError("no such hand among the seeds")


def test_two_winners_on_one_discard_and_wins_kept_in_order(relay):
    seed, game = hands_until(relay, "relay", lambda g: len(g.result.won_from) >= 2
                             and len(set(g.result.won_from.values())) < len(g.result.won_from))
    r = game.result
    wins = [e for e in game.events if e["type"] == "win"]
    assert list(r.winners) == [e["seat"] for e in wins]  # the order the wins were settled in
    assert r.value == {w: 0 for w in r.winners} and set(r.patterns) == set(r.winners)
    payer = next(p for p in r.won_from.values() if list(r.won_from.values()).count(p) > 1)
    both = [w for w, p in r.won_from.items() if p == payer]
    # one discard, two winners: consecutive in the log, in turn order from the discarder
    i = [e["seat"] for e in wins].index(both[0])
    assert [e["seat"] for e in wins[i:i + 2]] == sorted(both, key=lambda s: (s - payer) % 4)
    assert sum(r.payments) == 0 and relay.game.replay(game.events).events == game.events


# ------------------------------------------------------------------ the AEC env and leaving seats
@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_and_seed_tests(preset):
    from cnmahjong.envs.aec import make_env

    api_test(make_env("relay", rules=preset), num_cycles=300)
    seed_test(lambda: make_env("relay", rules=preset), num_cycles=300)


def test_a_winner_terminates_at_its_win_and_the_others_play_on(relay):
    """Without refunds a winner's account closes with its win: it terminates in that step with its
    reward, is selected next for its dead step, and the others go on."""
    from cnmahjong.envs.aec import aec_env

    env = aec_env("relay")(rules="relay-norefund", reward_scale=2.0)
    policy = heuristic_of(relay)
    seen_mid_hand = 0
    for seed in range(60):
        got, ended, removed = play_aec(env, policy, seed)
        game = env.game
        r = game.result
        assert got == {f"player_{s}": r.payments[s] / 2.0 for s in range(4)}  # every seat, its whole settlement
        # the winners that left mid-hand (terminated before the last decision) were removed first,
        # in settlement order, and the hand went on without them
        early = [a for a in removed if ended[a] < max(ended.values())]
        assert early == [f"player_{w}" for w in r.winners][:len(early)]
        seen_mid_hand += bool(early)
    assert seen_mid_hand >= 10


def test_with_refunds_a_seat_that_left_is_paid_at_the_end(relay):
    """With ``refund`` the winner leaves play but its account stays open: it is never asked again,
    terminates with everyone at the end, and the refund it pays reaches its rewards."""
    from cnmahjong.envs.aec import aec_env

    env = aec_env("relay")()
    policy = heuristic_of(relay)
    refunds = 0
    for seed in range(40):
        env.reset(seed=seed)
        asked_after_out = set()
        got = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            agent = env.agent_selection
            obs, _, term, _, _ = env.last()
            seat = env.agent_name_mapping[agent]
            if term:
                assert env.game.done  # nobody terminates before the end
                env.step(None)
            else:
                asked_after_out.add(seat in env.game.seats_out)
                env.step(policy(obs["observation"], obs["action_mask"]))
            for a, r in env.rewards.items():
                got[a] += r
        assert asked_after_out == {False}
        r = env.game.result
        assert got == {f"player_{s}": float(r.payments[s]) for s in range(4)}
        refunds += any(t.reason == "refund" for t in r.transfers)
    assert refunds >= 10


# ------------------------------------------------------------------ VectorEnv
@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_vector_env_rows_and_rewards_equal_the_aec_envs(preset):
    """Row for row (observations, masks, the global state) and reward for reward, over 800 hands
    (400 per preset), four seats pending at once in the opening window."""
    assert check_vector_parity("relay", 400, rules=preset) > 200


# ------------------------------------------------------------------ single-agent and library recipes
@pytest.mark.parametrize("preset", PRESETS)
def test_single_agent_env_pays_the_learner_its_whole_settlement(relay, preset):
    """The learner may leave first, or see opponents leave; either way its returns are its payments."""
    left_early = single_agent_hands(preset, heuristic_of(relay), 30)
    assert left_early >= 3 if preset == "relay-norefund" else left_early == 0


def test_tianshous_seat_env_counts_a_seat_that_left_by_its_settlement(relay):
    tianshou_hands("relay-norefund", "rl-v0", 10)


def test_rllibs_pettingzoo_env_pays_every_seat_its_settlement(relay):
    """A winner's ``terminated`` comes with its win, mid-hand."""
    assert rllib_hands("relay-norefund", heuristic_of(relay), relay.shape, 20) >= 3


def test_torchrls_wrapper_pays_every_seat_its_settlement(relay):
    torchrl_hands("relay", "relay-norefund", 5)


# ------------------------------------------------------------------ the tools
def test_arena_league_and_replay(relay, tmp_path):
    from cnmahjong.training.arena import run_arena
    from cnmahjong.training.league.core import League

    result = run_arena(["greedy", "random", "random", "random"], deals=6, rules="relay", workers=2, seed=1)
    assert result.ruleset == "relay"
    hands = [h for deal in result.hands for h in deal]
    assert len(hands) == 24
    greedy, *randoms = result.reports
    assert greedy.rates["win_rate"] > max(r.rates["win_rate"] for r in randoms)
    league = League(policies=[], rules="relay", deals=4, seed=2)
    league.add(["greedy", "random"], workers=1)
    standings = league.standings(resamples=50)
    assert sorted(st.policy for st in standings) == ["greedy", "random"]
    assert abs(sum(st.rating for st in standings)) < 1e-9 and all(st.hands > 0 for st in standings)
    game = new_game(relay, "relay-norefund", 9)
    while not game.done:
        s = game.to_act[0]
        game.step(s, game.legal_actions(s)[-1])
    events = json.loads(json.dumps(game.events))
    assert relay.game.replay(events).events == game.events


def test_viewer_shows_a_seat_nothing_of_the_others_picks(relay, tmp_path):
    from cnmahjong.training.viewer.frames import hand_frames
    from cnmahjong.training.viewer.replay import write_replay

    game = new_game(relay, "relay", 5)
    picks = {}
    while not game.done:
        s = game.to_act[0]
        a = game.legal_actions(s)[0]
        if game.phase == "pass":
            picks.setdefault(s, []).append(a)
        game.step(s, a)
    hand = hand_frames(game.events, seat=0)
    said = [f["action"] for f in hand["frames"][1:9]]  # the eight picks of the opening window
    for seat, what in said:
        if seat != 0:
            assert "pick" not in what and what == "a hidden choice"
    assert [w for s, w in said if s == 0] == [relay.game.ACTIONS.describe(a) for a in picks[0]]
    everyone = hand_frames(game.events)  # the referee's view shows every pick
    assert sum("pick" in f["action"][1] for f in everyone["frames"][1:9]) == 8
    assert all(f["offered"] == [] for f in hand["frames"][1:8])  # a swap window offers no tile
    assert "Pairs relay" in write_replay(game.events, tmp_path / "hand.html").read_text(encoding="utf-8")


def test_the_state_and_the_text_table(relay):
    from cnmahjong.envs.aec import aec_env

    env = aec_env("relay")(render_mode="ansi")
    env.reset(seed=3)
    assert env.state().shape == env.state_space.shape
    text = env.render()
    assert "phase: pass" in text and "offered" not in text  # the default text table; no claim to show
    hidden = sum(line.endswith("(hidden)") or "(hidden)" in line for line in text.splitlines())
    assert hidden == 3


def test_example_bot_plays_it_with_zero_faults(relay):
    import sys
    from pathlib import Path

    from cnmahjong.training.arena import run_arena

    bot = Path(__file__).resolve().parents[1] / "examples" / "bots" / "simple_bot.py"
    result = run_arena([f"bot:{sys.executable} {bot}", "greedy", "greedy", "greedy"], deals=2, rules="relay",
                       workers=1, seed=3)
    faults = dict(result.reports[0].faults)
    assert faults.pop("decisions") > 0 and not any(faults.values()), faults
    assert len([h for d in result.hands for h in d]) == 8


@pytest.mark.slow
def test_the_self_play_trainer_trains_on_it(tmp_path):
    from cnmahjong.envs.integrations.networks import load_actor_critic
    from cnmahjong.training.selfplay_ppo import train

    final = train({"algo": "selfplay_ppo", "run_dir": str(tmp_path), "rules": "relay-norefund",
                   "total_timesteps": 600, "num_workers": 2, "tables_per_worker": 4, "steps_per_rollout": 16,
                   "net_arch": [16], "batch_size": 64, "n_epochs": 1, "checkpoint_every_updates": 1})
    net = load_actor_critic(str(final))
    assert net.encoder == "rl-v0" and net.shape == relay_shape()


def relay_shape():
    return registry.get_ruleset("relay").shape


def test_seats_are_one_fact(relay):
    from cnmahjong.envs.core import engine, result, seats

    assert engine.NUM_SEATS is seats.NUM_SEATS and result.NUM_SEATS is seats.NUM_SEATS == NUM_SEATS
    assert relay.name == "relay" and relay.num_actions == 56 and relay.default_rules == "relay"
    assert relay.max_to_act == 4 and relay.scenario_keys == ()


def test_the_play_page_plays_it_by_clicking_and_hides_the_others_picks(relay, browser):
    """In Chromium, the human at seat 0 plays whole hands of the relay by clicking enabled buttons
    only (picks, discards, HU, PASS): the hand goes on after a winner leaves, even the human, and
    the page's log tells another seat's pick only as a hidden choice."""
    import random
    import threading

    from cnmahjong.training.server.seat import Table, serve
    from tests.test_web import _wait

    table = Table(["greedy", "greedy", "greedy"], "relay-norefund", seed=5)
    server = serve(table, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    rng = random.Random(1)
    log: list[str] = []
    try:
        for _hand in range(2):
            browser.get(base + "/")
            for _ in range(300):
                _wait(lambda: browser.find_elements("id", "over")
                      or browser.find_elements("css selector", "button.act"))
                if browser.find_elements("id", "over"):
                    break
                enabled = [b for b in browser.find_elements("css selector", "button.act") if b.is_enabled()]
                assert enabled and all(int(b.get_attribute("data-action")) in table.legal() for b in enabled)
                before = len(table.game.events)
                rng.choice(enabled).click()
                _wait(lambda n=before: len(table.game.events) > n)
                log += table.log
            assert table.game.done
            _wait(lambda: browser.find_elements("id", "result"))
            shown = [int(td.text) for td in browser.find_elements("css selector", "#result td:nth-child(2)")]
            assert shown == list(table.game.result.payments)
            table.new_hand()
    finally:
        server.shutdown()
        server.server_close()
    others = [line for line in log if line.startswith(("seat 1:", "seat 2:", "seat 3:"))]
    assert any("a hidden choice" in line for line in others)
    assert not any("pick" in line for line in others)


def test_a_seats_events_hold_nothing_of_the_others_picks_or_passed_tiles(relay):
    """The one seat filter (``envs.core.seen``: bot messages, sampled worlds) on the relay: during the
    hand a seat sees its own picks, the tiles it gave and received, and of the others' picks only
    that they were made."""
    from cnmahjong.envs.core.seen import seat_events

    game = new_game(relay, "relay", 11)
    while game.phase == "pass" or len(game.events) < 20:
        s = game.to_act[0]
        game.step(s, game.legal_actions(s)[-1])
    full = next(e for e in game.events if e["type"] == "pass")["tiles"]
    for viewer in range(4):
        seen, _ = seat_events(game.events, 0, viewer, over=False)
        picks = [e for e in seen if e["type"] == "act" and e["phase"] == "pass"]
        assert picks and all(("action" in e) == (e["seat"] == viewer) for e in picks)
        [passed] = [e for e in seen if e["type"] == "pass"]
        shown = {viewer, (viewer - 1) % 4}
        assert passed["tiles"] == [t if s in shown else None for s, t in enumerate(full)]
    assert seat_events(game.events, 0, 0, over=True)[0] == game.events


def test_clone_copies_a_game_whose_class_has_no_slots(relay):
    """``clone()`` of a ruleset written without ``__slots__`` (its state in ``__dict__``): equal, and
    independent of the original."""
    game = new_game(relay, "relay-norefund", 3)
    for _ in range(12):
        s = game.to_act[0]
        game.step(s, game.legal_actions(s)[0])
    copy = game.clone()
    assert copy.events == game.events and [bytes(h) for h in copy.hands] == [bytes(h) for h in game.hands]
    before = list(game.events)
    while not copy.done:
        s = copy.to_act[0]
        copy.step(s, copy.legal_actions(s)[-1])
    assert game.events == before and not game.done

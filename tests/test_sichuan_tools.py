"""Sichuan 血战到底 through every tool that takes a ruleset (issue 33, 3 and 5): the library recipes
pay every seat its whole settlement, a winner who left included; the arena, the league and
replay; the bot protocol (the voids, the swapped tiles, who is out); the replay viewer and the
play page's log (a seat sees its own swap only, no other seat's declined claim); the state and
the text table; the self-play trainer. The play page in Chromium is ``tests/test_table_page.py``'s."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

from cnmahjong.envs.core.ruleset import get_ruleset
from cnmahjong.envs.sichuan import actions as A
from tests.leaving_seats import heuristic_of, rllib_hands, single_agent_hands, tianshou_hands, torchrl_hands

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def sichuan():
    return get_ruleset("sichuan")


def greedy_hand(rs, seed: int):
    """A whole hand played by the greedy player at every seat (winners leave, so seats go out)."""
    game = rs.new_hand(rs.as_config("sichuan"), np.random.default_rng(seed))
    enc = rs.encoder()
    while not game.done:
        s = game.to_act[0]
        game.step(s, rs.heuristic(enc(game, s), game.legal_actions(s)))
    return game


# ------------------------------------------------------------------ library recipes
def test_single_agent_env_pays_the_learner_its_whole_settlement(sichuan):
    assert single_agent_hands("sichuan", heuristic_of(sichuan), 20) >= 3  # it often wins and leaves


def test_tianshous_seat_env_counts_a_seat_that_left_by_its_settlement():
    tianshou_hands("sichuan", "sc-v0", 4)


def test_rllibs_pettingzoo_env_pays_every_seat_its_settlement(sichuan):
    assert rllib_hands("sichuan", heuristic_of(sichuan), sichuan.shape, 8) >= 3


def test_torchrls_wrapper_pays_every_seat_its_settlement():
    torchrl_hands("sichuan", "sichuan", 3)


# ------------------------------------------------------------------ the tools
def test_arena_league_and_replay(sichuan):
    from cnmahjong.training.arena import run_arena
    from cnmahjong.training.league.core import League

    result = run_arena(["expert", "greedy", "random", "random"], deals=4, rules="sichuan", workers=2, seed=1)
    assert result.ruleset == "sichuan" and result.unit == "points"
    for deal in result.hands:
        for record in deal:
            rows = record["policies"]
            assert sum(p["settlement"] for p in rows) == 0 and all(0 <= p["kongs"] <= 4 for p in rows)
    expert, greedy, *randoms = result.reports
    assert min(expert.rates["win_rate"], greedy.rates["win_rate"]) > max(r.rates["win_rate"] for r in randoms)
    league = League(policies=[], rules="sichuan", deals=2, seed=2)
    league.add(["greedy", "random"], workers=1)
    standings = league.standings(resamples=50)
    assert sorted(st.policy for st in standings) == ["greedy", "random"]
    game = greedy_hand(sichuan, 9)
    events = json.loads(json.dumps(game.events))
    assert sichuan.game.replay(events).events == game.events


def test_a_bot_gets_the_voids_the_swapped_tiles_and_who_is_out(tmp_path):
    """Through the protocol (fields view, events asked for): the 定缺 fields, its own 换三张 tiles
    (passed and received) and who has won; the swap event shows only its own tiles; zero faults."""
    from cnmahjong.training.arena import run_arena

    log = tmp_path / "messages.jsonl"
    bot = "bot:" + shlex.join([sys.executable, str(ROOT / "tests" / "bots" / "tree_bot.py"), "log", "m", str(log)])
    result = run_arena([bot, "greedy", "greedy", "greedy"], deals=1, rules="sichuan", workers=1, seed=4)
    faults = dict(result.reports[0].faults)
    assert faults.pop("decisions") > 20 and not any(faults.values()), faults
    messages = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    hello = messages[0]
    assert hello["ruleset"] == "sichuan" and hello["encoder"] == "sc-v0" and hello["num_actions"] == A.NUM_ACTIONS
    acts = [m for m in messages if m["type"] == "act"]
    fields = [m["obs"] for m in acts]
    assert any(f["VOID"] != ["unknown"] * 4 for f in fields) and any(f["VOID"] == ["unknown"] * 4 for f in fields)
    assert any(sum(f["PASSED"]) == 3 and sum(f["RECEIVED"]) == 3 for f in fields)
    assert any(f["OUT"] != ["in"] * 4 for f in fields)  # greedy seats win and leave
    swaps = [e for m in acts for e in m.get("events", []) if e["type"] == "swap"]
    assert swaps
    for m in acts:
        for e in m.get("events", []):
            if e["type"] == "swap":  # its own tiles and its giver's, never the two other seats'
                seat, giver = m["seat"], (m["seat"] - {"next": 1, "across": 2, "previous": 3}[e["direction"]]) % 4
                assert [s for s, t in enumerate(e["tiles"]) if t is not None] == sorted({seat, giver})
            if e["type"] == "act" and e["seat"] != m["seat"] and e["phase"] == "swap":
                assert "action" not in e


def test_viewer_and_play_log_show_a_seat_its_own_swap_and_no_declined_claim(sichuan):
    """Seat 0's replay and the play page's log: the others' 换三张 picks as hidden choices, the
    swap line naming only the tiles seat 0 gave and those it received, no other seat's PASS on a
    claim; the referee's view shows all."""
    from cnmahjong.envs.core.tiles import name
    from cnmahjong.training.viewer.frames import hand_frames

    game = greedy_hand(sichuan, 21)
    swap = next(e for e in game.events if e["type"] == "swap")
    giver = (0 - {"next": 1, "across": 2, "previous": 3}[swap["direction"]]) % 4
    seen = hand_frames(game.events, seat=0)["frames"]
    said = [f["action"] for f in seen if f["action"] is not None]
    assert all(what == "a hidden choice" for s, what in said[:12] if s != 0)
    assert not [what for s, what in said if s != 0 and what == "PASS"]
    lines = [line for f in seen for line in f["log"]]
    [swap_line] = [line for line in lines if line.startswith("换三张")]
    for s, tiles in enumerate(swap["tiles"]):
        told = f"seat {s} gives {' '.join(map(name, tiles))}"
        assert (told in swap_line) == (s in (0, giver))
    full = hand_frames(game.events)["frames"]
    assert sum(f["action"] is not None and f["action"][1] == "PASS" for f in full) > 0
    assert all(f"seat {s} gives" in next(x for f in full for x in f["log"] if x.startswith("换三张"))
               for s in range(4))
    wins = [line for f in seen for line in f["log"] if " wins on " in line]
    assert len(wins) == len(game.result.winners) and all("and leaves" in line for line in wins)


def test_the_play_page_log_hides_the_others_picks_and_declined_claims(sichuan):
    from cnmahjong.training.server.seat import Table

    table = Table(["greedy", "greedy", "greedy"], "sichuan", seed=3)
    log: list[str] = []  # what the log said while the hand was on (at its end everything is shown)
    for _ in range(3):
        while not table.game.done:
            legal = table.legal()
            said = len(table.log)
            table.act(A.PASS if A.PASS in legal else legal[0])
            if not table.game.done:
                log += table.log[said:]
        table.new_hand()
    others = [line for line in log if line.startswith(("seat 1:", "seat 2:", "seat 3:"))]
    assert any("a hidden choice" in line for line in others)
    assert not any("SWAP" in line or line.endswith("PASS") for line in others)
    assert any(line.startswith("定缺") for line in log)


def test_seat_tags_markers_and_statistics(sichuan):
    game = greedy_hand(sichuan, 5)
    view, stats = sichuan.view, sichuan.stats
    tags = [view.seat_tags(game, s) for s in range(4)]
    assert all(any(t.startswith("void ") for t in ts) for ts in tags)
    for s in game.result.winners:
        assert any(t.startswith(f"won #{game.out.index(s) + 1} ") for t in tags[s])
    markers = {m["id"]: m for m in view.markers(game)}
    assert markers["swap"]["text"] == game.swap_direction
    assert markers["out"]["text"] == ", ".join(f"seat {s}" for s in game.out)
    rows = stats.hand_stats(game)
    assert [r["settlement"] for r in rows] == list(game.result.payments)
    kongs = [sum(e["type"] == "meld" and e["seat"] == s and len(e["tiles"]) == 4 for e in game.events)
             for s in range(4)]  # a 补杠's meld event is its kong (the PENG's had three tiles)
    assert [r["kongs"] for r in rows] == kongs
    classes = game.result.extras["classes"]
    assert [r["huazhu"] for r in rows] == [int(classes.get(str(s)) == "huazhu") for s in range(4)]


def test_the_state_and_the_text_table():
    from cnmahjong.envs.aec import aec_env

    env = aec_env("sichuan")(render_mode="ansi")
    env.reset(seed=3)
    assert env.state().shape == env.state_space.shape
    text = env.render()
    assert "phase: swap" in text


@pytest.mark.slow
def test_the_self_play_trainer_trains_on_it(tmp_path, sichuan):
    from cnmahjong.envs.integrations.networks import load_actor_critic
    from cnmahjong.training.selfplay_ppo import train

    final = train({"algo": "selfplay_ppo", "run_dir": str(tmp_path), "rules": "sichuan",
                   "total_timesteps": 600, "num_workers": 2, "tables_per_worker": 4, "steps_per_rollout": 16,
                   "net_arch": [16], "batch_size": 64, "n_epochs": 1, "checkpoint_every_updates": 1})
    net = load_actor_critic(str(final))
    assert net.shape == sichuan.shape

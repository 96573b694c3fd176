"""The rollout primitive (``envs.core.rollouts``): the rest of many positions played to the end in
one call, checked against a plain Python loop over the engine (the same choices, event for
event, the same settlements) on 5,000+ positions of every shipped ruleset, zero-sum, seeded, and
refusing what it cannot play before it plays anything."""

from __future__ import annotations

import gc
import random

import numpy as np
import pytest

from cnmahjong.agents.search import play_out, rollout_player
from cnmahjong.envs.core.rollouts import POLICIES, _play_all, deal_and_play, rollouts
from cnmahjong.envs.core.ruleset import get_ruleset

RULESETS = ("changsha", "hangzhou", "sichuan")


def positions(name: str, n: int, seed: int) -> list:
    """``n`` positions: fresh hands played by random legal actions to a random depth."""
    rs = get_ruleset(name)
    config = rs.as_config(rs.default_rules)
    r = random.Random(seed)
    out = []
    hand = 0
    while len(out) < n:
        game = rs.game(config, seed=seed * 100_000 + hand)
        hand += 1
        for _ in range(r.randrange(0, 90)):
            if game.done:
                break
            s = game.to_act[0]
            game.step(s, r.choice(game.legal_actions(s)))
        out.append(game)
    return out


def python_loop(game, policy: str, draw) -> None:
    """The reference: the engine driven one decision at a time from Python."""
    rs = get_ruleset(game.RULESET)
    encoder = rs.encoder()
    while not game.done:
        game.play_forced()
        if game.done:
            break
        s = game.to_act[0]
        legal = game.legal_actions(s)
        if policy == "random":
            a = legal[int(draw() * len(legal))]
        elif policy == "first":
            a = legal[0]
        else:
            a = rs.heuristic(encoder(game, s), legal)
        game.step(s, a)


@pytest.mark.parametrize("name", RULESETS)
def test_rollouts_equal_the_python_loop_event_for_event(name):
    """Random and first-legal play from 1,000 positions per ruleset (5,000+ in all, with greedy
    below), greedy from 150: the same events and settlements as the loop, zero-sum, every game over."""
    for policy, n in (("random", 1000), ("first", 700), ("greedy", 150)):
        games = positions(name, n, seed=len(policy))
        twins = [g.clone() for g in games]
        pay = rollouts(games, policy, seed=7)
        draw = random.Random(7).random
        for game, twin, row in zip(games, twins, pay, strict=True):
            python_loop(twin, policy, draw)
            assert game.done and twin.done
            assert game.events == twin.events, (name, policy)
            assert row == list(twin.result.payments) and sum(row) == 0


def test_greedy_rollouts_are_the_search_players_play_outs():
    """The search player's greedy play-out (``agents.search.play_out``) and the primitive agree."""
    rs = get_ruleset("changsha")
    games = positions("changsha", 60, seed=3)
    twins = [g.clone() for g in games]
    pay = rollouts(games, "greedy")
    play = rollout_player(rs, "greedy")
    rng = np.random.default_rng(0)
    for twin, row in zip(twins, pay, strict=True):
        assert list(play_out(twin, play, rng).payments) == list(row)


def test_deal_and_play_is_seeded_and_refusals_come_first():
    a = np.array(deal_and_play("hangzhou", "hangzhou", range(20), "random", seed=1))
    assert (a.sum(axis=1) == 0).all() and a.shape == (20, 4)
    games = positions("sichuan", 10, seed=1)
    runs = {}
    for seed in (1, 1, 2):
        twins = [g.clone() for g in games]
        rollouts(twins, "random", seed=seed)
        runs.setdefault(seed, []).append([t.events for t in twins])
    assert runs[1][0] == runs[1][1] and runs[1][0] != runs[2][0]
    rs = get_ruleset("sichuan")
    dealt = [rs.game(rs.as_config(rs.default_rules), seed=s) for s in range(20)]
    assert rollouts(dealt, "first") == deal_and_play("sichuan", rs.default_rules, range(20), "first")
    games = positions("changsha", 2, seed=1)
    before = [list(g.events) for g in games]
    with pytest.raises(ValueError, match=f"rollout policy 'best' is unknown: allowed {', '.join(POLICIES)}"):
        rollouts(games, "best")
    with pytest.raises(TypeError, match=r"games\[2\] is str, not a game"):
        rollouts([*games, "x"], "first")
    assert [g.events for g in games] == before  # nothing played


def test_rollouts_pause_the_collector_and_leave_it_as_it_was():
    """The cyclic collector is off while the hands are played and back as it was afterwards, on,
    off, or after a policy raised mid-hand."""
    seen = []

    def spy(game, seat, legal):
        seen.append(gc.isenabled())
        if len(seen) == 50:
            raise RuntimeError("a policy failed")
        return legal[0]

    was = gc.isenabled()
    try:
        for state in (True, False):
            (gc.enable if state else gc.disable)()
            deal_and_play("changsha", "mainstream", range(3), "first")
            rollouts(positions("sichuan", 2, seed=3), "random")
            assert gc.isenabled() is state
            gc.enable()
            with pytest.raises(RuntimeError, match="a policy failed"):
                _play_all(positions("changsha", 3, seed=2), spy)
            assert gc.isenabled() and seen and not any(seen)
            seen.clear()
    finally:
        (gc.enable if was else gc.disable)()

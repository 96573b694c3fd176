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
from cnmahjong.envs.core.engine import slot_state
from cnmahjong.envs.core.rollouts import POLICIES, _play_all, deal_and_play, reads_log, rollouts
from cnmahjong.envs.core.ruleset import get_ruleset
from cnmahjong.envs.core.worlds import SeatView, public_events

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


def state_without_log(game) -> dict:
    """Everything of a game but its event log, comparable (a generator by its state, the rest by
    ``repr``: the wall, windows and kongs have no ``==``)."""
    state = slot_state(game)
    del state["_events"], state["_log_tail"]  # the log and its packed tail (envs.core.eventlog)
    return {k: v.getstate() if isinstance(v, random.Random) else repr(v) for k, v in state.items()}


@pytest.mark.parametrize("name", RULESETS)
def test_a_game_without_its_log_plays_and_settles_the_same(name):
    """``log=False`` (``TableGame.events`` None): random and greedy play from 300 positions per
    ruleset ends in the same state and settlement as with the log, every field but the log equal;
    ``deal_and_play``, which keeps none, settles as the logged hands do."""
    for policy, n in (("random", 300), ("greedy", 60)):
        games = positions(name, n, seed=11)
        twins = [g.clone() for g in games]
        assert rollouts(games, policy, seed=5, log=False) == rollouts(twins, policy, seed=5)
        for game, twin in zip(games, twins, strict=True):
            assert game.events is None and twin.events[-1]["type"] == "end"
            assert state_without_log(game) == state_without_log(twin)
    rs = get_ruleset(name)
    dealt = [rs.game(rs.as_config(rs.default_rules), seed=s) for s in range(40)]
    assert deal_and_play(name, rs.default_rules, range(40), "random", seed=2) == rollouts(dealt, "random", seed=2)


@pytest.mark.parametrize("name", RULESETS)
def test_a_hand_dealt_without_its_log_is_the_logged_deal_less_its_log(name):
    """``Game(config, seed, dealer, log=False)`` (``deal_and_play``'s hands: no deal event made) is
    the logged deal with its log dropped, state for state, and plays and settles the same; a ``log``
    that is not a bool, or ``log=False`` for a class that does not play without its log, is refused
    before the deal."""
    rs = get_ruleset(name)
    config = rs.as_config(rs.default_rules)
    bare = [rs.game(config, seed=s, dealer=s % 4, log=False) for s in range(30)]
    full = [rs.game(config, seed=s, dealer=s % 4) for s in range(30)]
    for game, twin in zip(bare, full, strict=True):
        assert game.events is None and twin.events[0]["type"] == "deal"
        twin.events = None
        assert state_without_log(game) == state_without_log(twin)
    assert rollouts(bare, "random", seed=4) == rollouts(full, "random", seed=4)
    assert [state_without_log(g) for g in bare] == [state_without_log(g) for g in full]
    with pytest.raises(TypeError, match="log must be True or False, got 'no'"):
        rs.game(config, seed=1, log="no")

    class Logged(rs.game):
        PLAYS_WITHOUT_LOG = False

    with pytest.raises(ValueError, match="does not play without its event log"):
        Logged(config, seed=1, log=False)
    assert Logged(config, seed=1).events[0]["type"] == "deal"


def test_clone_without_the_log_and_what_refuses_a_game_without_one():
    """``clone(log=False)`` copies all but the log (the original keeps its own) and steps as a logged
    copy does; a game without a log is refused by what reads the record, with the reason."""
    for name in RULESETS:
        game = positions(name, 1, seed=5)[0]
        before = list(game.events)
        bare, full = game.clone(log=False), game.clone()
        assert bare.events is None and game.events == before
        assert state_without_log(bare) == state_without_log(game)
        for copy in (bare, full):
            copy.play_forced()
            s = copy.to_act[0]
            copy.step(s, copy.legal_actions(s)[-1])
        assert state_without_log(bare) == state_without_log(full) and bare.events is None
        assert bare.clone().events is None
        seat = bare.to_act[0] if bare.to_act else 0
        with pytest.raises(ValueError, match="keeps no event log"):
            public_events(bare, seat)
        with pytest.raises(ValueError, match="keeps no event log"):
            bare.sample_world(seat, np.random.default_rng(0))
        with pytest.raises(ValueError, match="keeps no event log"):
            SeatView(bare, seat).sample_world(np.random.default_rng(0))
        with pytest.raises(TypeError, match="log must be True or False, got 'no'"):
            game.clone(log="no")


def test_which_players_read_the_log_and_rollouts_refuse_them_without_one():
    """Random, first and the greedy players on the game's facts read no log; a player on the
    observation may (the expert; a ruleset's greedy without ``heuristic_on_game``), and rollouts
    refuse ``log=False`` for one, or a ``log`` that is not a bool, before any play."""

    class Players:
        heuristic_on_game = None

    class NoGameGreedy:
        players = Players()

    for name in RULESETS:
        rs = get_ruleset(name)
        assert not any(reads_log(rs, p) for p in POLICIES)
        assert reads_log(rs, "expert")
    assert reads_log(NoGameGreedy(), "greedy") and not reads_log(NoGameGreedy(), "random")
    games = positions("hangzhou", 3, seed=2)
    before = [list(g.events) for g in games]
    with pytest.raises(TypeError, match="log must be True or False, got 0"):
        rollouts(games, "random", log=0)
    assert [g.events for g in games] == before


@pytest.mark.parametrize("name", RULESETS)
def test_a_turn_ask_never_changes_a_pending_dict_somebody_holds(name):
    """``TableGame._ask_seat`` (a turn's one-seat ask; compiled, it fills again the seat's last
    turn dict where nothing else holds it) and ``_held_kinds`` (compiled, it refills the list of
    that dict likewise): a ``pending`` dict, or only its list of legal actions, kept by a caller is
    never changed by the turns after it, for every turn of a hand, its own seat's next turns included."""
    rs = get_ruleset(name)
    game = rs.game(rs.as_config(rs.default_rules), seed=12)
    r = random.Random(0)
    kept: list[tuple[dict, dict]] = []  # (a turn's pending dict, what it held then)
    kept_lists: list[tuple[list, list]] = []  # (a turn's legal list, what it held then)
    while not game.done:
        game.play_forced()
        if game.done:
            break
        pending = game.pending
        s = next(iter(pending))
        if game.phase == "discard" and len(pending) == 1:
            x = r.random()
            if x < 0.25:
                kept.append((pending, {s: list(a) for s, a in pending.items()}))
            elif x < 0.5:
                kept_lists.append((pending[s], list(pending[s])))
        legal = pending[s]
        del pending
        game.step(s, legal[int(r.random() * len(legal))])
    assert len(kept) >= 3 and len(kept_lists) >= 3
    assert all(d == then for d, then in kept)
    assert all(a == then for a, then in kept_lists)
    assert all(d is not game.pending for d, _ in kept)


@pytest.mark.parametrize("name", RULESETS)
def test_held_kinds_lists_the_kinds_held_in_a_range_clipped_to_the_hand(name):
    """``TableGame._held_kinds`` (a turn's discards; Sichuan's void suit, D1, as a range): the
    kinds held from ``lo`` to before ``hi``, in order, a range past either end clipped, on random
    count vectors of the ruleset's length, with and without a seat's list to refill."""
    rs = get_ruleset(name)
    game = rs.game(rs.as_config(rs.default_rules), seed=3)
    n = len(game.hands[0])
    r = random.Random(4)
    for i in range(400):
        h = bytearray(r.choice((0, 0, 1, 2, 4)) for _ in range(n))
        lo, hi = r.randrange(-3, n + 3), r.randrange(-3, n + 40)
        want = [t for t in range(max(lo, 0), min(hi, n)) if h[t]]
        assert game._held_kinds(h, i % 4 if i % 2 else -1, lo, hi) == want, (lo, hi, list(h))
        assert game._held_kinds(h) == [t for t in range(n) if h[t]]

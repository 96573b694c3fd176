"""A game rebuilt from one seat's events (``cnmahjong.envs.core.shadow``) and the search player
behind the bot protocol (``cnmahjong.agents.search_bot``).

The rebuilt game must be one the seat cannot tell from the real one: fed the seat's events as the
bot protocol sends them (a batch at each of its decisions), its legal actions are the real ones,
and ``sample_world`` on it gives, for the same ``rng``, the world it gives on the real game (the
same hands, wall, melds, rivers, phase, pending choices and log; played out, the same
settlement). So the search bot plays exactly as the search does in process."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from cnmahjong.agents.search import make_search
from cnmahjong.agents.search_bot import SearchBot, decision_seed, seat_decisions
from cnmahjong.envs.core.rollouts import play_to_end, seat_player
from cnmahjong.envs.core.ruleset import get_ruleset
from cnmahjong.envs.core.shadow import Shadow, ShadowError
from cnmahjong.envs.core.worlds import SeatView, sample_world


def _state(w):
    return ([bytes(h) for h in w.hands], w.wall.tiles(), [list(m) for m in w.melds], [list(r) for r in w.rivers],
            w.phase, {s: sorted(a) for s, a in w.pending.items()}, w.events)


@pytest.mark.parametrize("name,hands,broken", [("changsha", 12, 0), ("hangzhou", 12, 0), ("sichuan", 12, 1)])
def test_the_rebuilt_game_gives_the_worlds_the_real_one_gives(name, hands, broken):
    """``broken``: hands whose events the shadow may fail to rebuild (a ``ShadowError``, then the
    bot's rule-based player plays the hand out): the draws that meet every bound the record sets
    at once (Sichuan's D1 and 换三张 floors with a win's shape) can be rarer than its tries."""
    rs = get_ruleset(name)
    play = seat_player(rs, "greedy")
    shadows: dict[int, Shadow] = {}
    failed: set[int] = set()
    checked = 0
    for h, game, seat, new in seat_decisions(name, hands):
        if h in failed:
            continue
        shadow = shadows.setdefault(h, Shadow(rs, seat, np.random.default_rng(h)))
        try:
            shadow.feed(new)
        except ShadowError:
            failed.add(h)
            continue
        rebuilt = shadow.game
        assert sorted(rebuilt.legal_actions(seat)) == sorted(game.legal_actions(seat))
        for k in range(2):
            a = sample_world(game, seat, np.random.default_rng(k))
            b = sample_world(rebuilt, seat, np.random.default_rng(k))
            assert _state(a) == _state(b), (name, h, k)
            play_to_end(a, play)
            play_to_end(b, play)
            assert a.result.payments == b.result.payments
        checked += 1
    assert checked >= 3 * hands and len(failed) <= broken, (checked, failed)


def test_events_that_no_hand_can_make_are_refused():
    rs = get_ruleset("changsha")
    (_, game, seat, new), *_ = seat_decisions("changsha", 1)
    with pytest.raises(ShadowError, match="the first event must be the deal"):
        Shadow(rs, seat, np.random.default_rng(0)).feed(new[1:])
    deal = dict(new[0])
    deal["hands"] = [None] * 4
    with pytest.raises(ShadowError, match="does not show seat"):
        Shadow(rs, seat, np.random.default_rng(0)).feed([deal])
    five = dict(new[0])  # a fifth copy of a kind in the seat's hand
    five["hands"] = [[0] * 5 + h[5:] if s == seat else h for s, h in enumerate(new[0]["hands"])]
    with pytest.raises(ShadowError, match="more than 4 copies"):
        Shadow(rs, seat, np.random.default_rng(0)).feed([five])
    with pytest.raises(ShadowError, match="within the time budget"):
        Shadow(rs, seat, np.random.default_rng(0)).feed(new, seconds=0.0)
    other = next(s for s in range(4) if s != seat)
    forged = [*new, {"type": "act", "seat": other, "action": 0, "phase": "discard"},
              {"type": "discard", "seat": other, "tile": 0}, {"type": "discard", "seat": other, "tile": 0}]
    with pytest.raises(ShadowError, match="cannot be rebuilt"):
        Shadow(rs, seat, np.random.default_rng(0)).feed(forged)


@pytest.mark.parametrize("name,hands,fallbacks", [("changsha", 6, 0), ("hangzhou", 6, 0), ("sichuan", 8, 2)])
def test_the_search_bot_plays_as_the_search_does_in_process(name, hands, fallbacks):
    """``SearchBot.answer`` on the bot protocol's act messages gives, at every decision it
    searches, the in-process search player's choice on the real game with the same seed; the
    others (a hand the shadow could not rebuild) are the rule-based player's, counted."""
    rs = get_ruleset(name)
    bot = SearchBot("search:rollouts=6", rs.name, None)
    same = 0
    counts: dict[int, int] = {}
    for h, game, seat, new in seat_decisions(name, hands, share=0.3):
        n = counts[h] = counts.get(h, -1) + 1
        legal = game.legal_actions(seat)
        obs = rs.encoder()(game, seat)
        message = {"type": "act", "id": 1, "hand": str(h), "seat": seat, "legal": legal, "events": new,
                   "obs": obs.tolist()}
        before = bot.fallbacks
        choice = bot.answer(message)
        if bot.fallbacks > before:
            assert choice == rs.heuristic(obs, legal)
            continue
        search = make_search("rollouts=6", decision_seed(str(h), seat, n), rs.name)
        assert choice == search.act_view(SeatView(game, seat)), (h, n)
        same += 1
    assert same >= 8 and bot.fallbacks <= fallbacks, (same, bot.fallbacks)


def test_the_search_bot_in_the_arena():
    """Through the pipe: the arena starts the bot, which plays a deal's four rotations without a
    fault (every answer in time, legal, from the search)."""
    from cnmahjong.training.arena.core import run_arena

    bot = f"bot:{sys.executable} -m cnmahjong.agents.search_bot search:rollouts=4"
    result = run_arena([bot, "greedy", "greedy", "greedy"],
                       deals=1, rules="mainstream", seed=5, bot_time_limit=10)
    bot = result.reports[0]
    assert bot.bot_name == "search bot (search:rollouts=4)"
    faults = dict(bot.faults)
    assert faults.pop("decisions") > 0 and not any(faults.values()), bot.faults  # no timeout, crash, illegal, ...
    for deal in result.hands:
        for record in deal:
            assert sum(p["settlement"] for p in record["policies"]) == 0


def test_the_measure_command_reports_and_refuses_bad_arguments():
    import io

    from cnmahjong.agents.search_bot import main

    out = io.StringIO()
    assert main(["--measure", "changsha", "2"], stdout=out) == 0
    assert out.getvalue().startswith("changsha: ") and "hands not rebuilt" in out.getvalue()
    for bad in (["--measure", "changsha"], ["--measure", "changsha", "0"], ["--measure", "changsha", "x"]):
        out = io.StringIO()
        assert main(bad, stdout=out) == 2 and "HANDS an integer 1..10000" in out.getvalue()
    out = io.StringIO()
    assert main(["--measure", "tokyo", "2"], stdout=out) == 2 and "unknown ruleset 'tokyo'" in out.getvalue()

"""The search player (``make_policy("search")``, ``cnmahjong.agents.search``): strict options, every
decision kind of both rulesets answered legally, deterministic for a seed, blind to the hidden
tiles (its choices are unchanged when they are permuted consistently), and playable in the arena."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from cnmahjong.agents import make_policy
from cnmahjong.agents.search import DEFAULTS, SearchPolicy, play_out, play_out_own, rollout_player
from cnmahjong.envs.core.ruleset import get_ruleset
from cnmahjong.envs.core.worlds import SeatView
from cnmahjong.training.arena.core import run_arena
from tests.test_worlds import twin


def test_options_are_parsed_strictly():
    p = make_policy("search", seed=1, ruleset="changsha")
    assert isinstance(p, SearchPolicy) and p.rollouts == DEFAULTS["rollouts"] and p.policy == "greedy"
    assert p.confirm == 0
    # a ruleset's own defaults (Sichuan: overrides confirmed in fresh worlds), a named option winning
    assert make_policy("search", ruleset="sichuan").confirm == 16
    assert make_policy("search:confirm=0", ruleset="sichuan").confirm == 0
    p = make_policy("search:rollouts=200,policy=expert,ms=500,margin=0.5", ruleset="hangzhou")
    assert (p.rollouts, p.policy, p.ms, p.margin) == (200, "expert", 500, 0.5)
    unknown = "'foo' is unknown: allowed rollouts, ms, policy, margin, anchor, top, confirm, own"
    for spec, said in [("search:foo=1", unknown),
                       ("search:rollouts=0", "rollouts='0': allowed an integer 1..1000000"),
                       ("search:rollouts=1.5", "rollouts='1.5'"), ("search:rollouts", "needs a value"),
                       ("search:policy=nn", "policy='nn': allowed greedy, expert, random"),
                       ("search:margin=-1", "margin='-1': allowed a number >= 0"),
                       ("search:margin=nan", "margin='nan'"), ("search:ms=x", "ms='x'"),
                       ("search:own=net", "own='net': allowed rollout, anchor"),
                       ("search:own=anchor,anchor=rollout", "own=anchor needs an anchor")]:
        with pytest.raises(ValueError, match="search option") as err:
            make_policy(spec, ruleset="changsha")
        assert said in str(err.value)


def test_an_observation_alone_is_refused():
    with pytest.raises(TypeError, match="seat's view"):
        make_policy("search", ruleset="changsha")(np.zeros((3, 3)), np.ones(3))


def decision_positions(name: str, per_kind: int = 2):
    """Positions with a choice (more than one legal action) of every decision kind the ruleset has,
    met under greedy play that passes a 开杠 draw's win (as ``tests/test_worlds.py`` does)."""
    rs = get_ruleset(name)
    config = rs.as_config(rs.default_rules)
    found: dict[str, list] = {}
    kinds = {p for p in rs.game.PHASES if p != "done"}
    for seed in range(300):
        game = rs.new_hand(config, np.random.default_rng(seed))
        encoder = rs.encoder()
        while not game.done:
            for s in game.to_act:
                if len(game.legal_actions(s)) > 1 and len(found.setdefault(game.phase, [])) < per_kind:
                    found[game.phase].append((game.clone(), s))
            s = game.to_act[0]
            legal = game.legal_actions(s)
            if game.phase == "kong_draw":
                a = 88  # PASS
            else:
                a = rs.heuristic(encoder(game, s), legal) if len(legal) > 1 else legal[0]
            game.step(s, a)
        if all(len(found.get(k, ())) >= per_kind for k in kinds - {"haidi_draw"}):
            break
    return found


@pytest.mark.parametrize("name", ["changsha", "hangzhou", "sichuan"])
def test_every_decision_kind_deterministic_and_blind(name):
    """At every decision kind: a legal action; the same seed gives the same choice; and a game with
    the hidden tiles permuted (``twin``) gets the same choice from a player with the same seed."""
    found = decision_positions(name)
    rs = get_ruleset(name)
    expected = {p for p in rs.game.PHASES if p != "done"} - {"haidi_draw"}  # a 海底 win with a choice is rare
    assert expected <= set(found), expected - set(found)
    r = random.Random(4)
    chose: Counter = Counter()
    for phase, cases in found.items():
        for game, seat in cases:
            legal = game.legal_actions(seat)
            a = SearchPolicy(rs, seed=9, rollouts=12).act_view(SeatView(game, seat))
            assert a in legal
            assert SearchPolicy(rs, seed=9, rollouts=12).act_view(SeatView(game, seat)) == a
            other = twin(game, seat, r)
            assert SearchPolicy(rs, seed=9, rollouts=12).act_view(SeatView(other, seat)) == a, phase
            chose[phase] += 1
    assert sum(chose.values()) >= 2 * len(expected) - 2


def test_search_player_in_the_arena():
    """The arena hands the search player its seat views (given only observations it would raise):
    one deal in its four rotations is played and settles zero-sum."""
    result = run_arena(["search:rollouts=6", "greedy", "greedy", "greedy"], deals=1, rules="mainstream", seed=3)
    assert len(result.hands) == 1 and len(result.hands[0]) == 4
    for deal in result.hands:
        for record in deal:
            assert sum(p["settlement"] for p in record["policies"]) == 0


@pytest.mark.parametrize("rules", ["mainstream", "sichuan"])
def test_search_player_sits_at_the_play_page(rules):
    """The play page's table hands a search opponent its seat's view (given only observations it would
    raise, and the table would stall): whole hands play to the end with the search at seat 1."""
    from cnmahjong.training.server.table import Table

    table = Table(["search:rollouts=4", "greedy", "greedy"], rules, seed=2)
    for _ in range(2):
        while not table.game.done:
            assert table.stalled is None
            table.act(table.legal()[0])
        assert table.stalled is None
        table.new_hand()
    assert table.policies[0].decisions > 0


def test_an_anchored_search_keeps_its_anchors_choice_unless_another_is_clearly_better():
    """``anchor=``: the default choice is the anchor's (a rule player or a network on its own
    encoder), so with an unreachable margin the search plays exactly as its anchor; a bad anchor
    is refused when the player is made."""
    from cnmahjong.agents import ExpertAgent

    rs = get_ruleset("changsha")
    expert = ExpertAgent(ruleset="changsha")
    cases = [c for cases in decision_positions("changsha", per_kind=1).values() for c in cases]
    p = make_policy("search:anchor=expert,margin=1000,rollouts=4", seed=2, ruleset="changsha")
    for game, seat in cases:
        legal = game.legal_actions(seat)
        assert p.act_view(SeatView(game, seat)) == expert(rs.encoder()(game, seat), _mask(rs, legal))
    net = make_policy("search:anchor=pretrained,margin=1000,rollouts=4", seed=2, ruleset="changsha")
    pretrained = make_policy("pretrained", ruleset="changsha")
    for game, seat in cases:
        legal = game.legal_actions(seat)
        assert net.act_view(SeatView(game, seat)) == pretrained(rs.encoder()(game, seat), _mask(rs, legal))
    with pytest.raises(ValueError, match="anchor='nn': allowed expert, greedy, pretrained, rollout"):
        make_policy("search:anchor=nn", ruleset="changsha")
    with pytest.raises(ValueError, match="does not exist"):
        make_policy("search:anchor=ckpt:/nonexistent.pt", ruleset="changsha")
    with pytest.raises(ValueError, match="the hangzhou rules need encoder"):
        make_policy("search:anchor=pretrained-changsha", ruleset="hangzhou")


def test_confirm_replaces_the_anchors_choice_only_when_fresh_worlds_agree():
    """``confirm=N``: the same search up to its choice, then N fresh worlds judge the best against
    the anchor's choice: it plays the unconfirmed search's override or the anchor's choice, never a
    third action, and some overrides that the choosing worlds favoured do not survive."""
    from cnmahjong.agents import ExpertAgent

    rs = get_ruleset("changsha")
    expert = ExpertAgent(ruleset="changsha")
    cases = [c for cases in decision_positions("changsha", per_kind=6).values() for c in cases]
    overrides = kept = 0
    for i, (game, seat) in enumerate(cases):
        legal = game.legal_actions(seat)
        anchor = expert(rs.encoder()(game, seat), _mask(rs, legal))
        loose = make_policy("search:rollouts=12,margin=0", seed=i, ruleset="changsha")
        checked = make_policy("search:rollouts=12,margin=0,confirm=12", seed=i, ruleset="changsha")
        first, second = loose.act_view(SeatView(game, seat)), checked.act_view(SeatView(game, seat))
        assert second in (first, anchor)
        if first != anchor:
            overrides += 1
            kept += second == first
            assert checked.played == loose.played + 24
    assert overrides >= 3 and kept < overrides, (overrides, kept)


def _mask(rs, legal):
    m = np.zeros(rs.num_actions, dtype=bool)
    m[legal] = True
    return m


def test_top_keeps_the_networks_most_probable_actions_as_the_only_candidates():
    """``top=K`` with a network anchor: every play-out is of one of the anchor's K most probable
    actions (the candidates are those and its choice), and ``top=0`` refuses nothing."""
    rs = get_ruleset("changsha")
    net = make_policy("pretrained", ruleset="changsha")
    cases = [c for cases in decision_positions("changsha", per_kind=2).values() for c in cases]
    p = make_policy("search:anchor=pretrained,top=2,rollouts=12", seed=1, ruleset="changsha")
    for game, seat in cases:
        legal = game.legal_actions(seat)
        obs, mask = rs.encoder()(game, seat), _mask(rs, legal)
        allowed = {a for a, _ in net.top_actions(obs[None], mask[None], 2)[0]}
        assert p.act_view(SeatView(game, seat)) in allowed
    with pytest.raises(ValueError, match=r"top='x': allowed an integer 0..1000000 \(0: every legal action\)"):
        make_policy("search:top=x", ruleset="changsha")


def test_lockstep_play_outs_equal_the_plain_loop():
    """``play_out_own`` (the searching seat's choices batched over many games, the others' played at
    once) gives the same hands as the plain loop when the seat's chooser is the same greedy player:
    the order in which a claim window's seats answer changes nothing (blind choices); the chooser
    is asked only when the searching seat alone is to act."""
    for name in ("changsha", "hangzhou", "sichuan"):
        rs = get_ruleset(name)
        play = rollout_player(rs, "greedy")
        cases = [c for cases in decision_positions(name, per_kind=3).values() for c in cases]
        rng = np.random.default_rng(0)
        for seat in range(4):
            games = [g.clone() for g, _ in cases]
            asked = []

            def own(waiting, seat=seat, asked=asked, play=play, rng=rng):
                asked.append(len(waiting))
                for g in waiting:
                    assert set(g.pending) == {seat} and len(g.legal_actions(seat)) > 1
                return [play(g, seat, rng) for g in waiting]

            got = play_out_own(games, seat, play, rng, own)
            want = [play_out(g.clone(), play, rng).payments[seat] for g, _ in cases]
            assert got == want and all(g.done for g in games), (name, seat)
            assert sum(asked) > len(cases)  # the seat decided in these play-outs, batched
            assert max(asked) > 1


def test_own_anchor_plays_the_seats_later_choices_as_its_anchor_would():
    """``own=anchor``: in the play-outs the searching seat's later choices are its anchor's (a
    network's, one forward pass for many games, each game's planes from its own incremental
    encoder): the batch chooser gives the anchor's choice on each observation; the search stays
    legal, deterministic and blind to the hidden tiles; a rule anchor (no batch) works too."""
    rs = get_ruleset("changsha")
    p = make_policy("search:anchor=pretrained,top=2,rollouts=8,own=anchor", seed=3, ruleset="changsha")
    assert p.own == "anchor"
    anchor = p._anchor_of("changsha")
    cases = [c for cases in decision_positions("changsha", per_kind=2).values() for c in cases]
    for seat in range(4):
        choose = p._own_chooser(anchor, seat, "changsha")
        games = [g.clone() for g, _ in cases]
        for _ in range(12):  # the same games asked again and again, as a play-out does
            waiting = []
            for g in games:
                g.play_forced()
                if g.pending and seat in g.pending and len(g.legal_actions(seat)) > 1:
                    waiting.append(g)
            if not waiting:
                break
            got = choose(waiting)
            want = [anchor(rs.encoder()(g, seat), _mask(rs, g.legal_actions(seat))) for g in waiting]
            assert got == want
            for g, a in zip(waiting, got, strict=True):
                g.step(seat, a)
            for g in games:  # the others play on
                while g.pending and seat not in g.pending:
                    s = next(iter(g.pending))
                    g.step(s, g.legal_actions(s)[0])
    r = random.Random(5)
    for game, seat in cases[:6]:
        a = p.act_view(SeatView(game, seat))
        assert a in game.legal_actions(seat)
        again = make_policy("search:anchor=pretrained,top=2,rollouts=8,own=anchor", seed=3, ruleset="changsha")
        assert again.act_view(SeatView(twin(game, seat, r), seat)) == a
        p.reset(3)
    rule = make_policy("search:rollouts=6,own=anchor", seed=1, ruleset="hangzhou")  # the expert anchor
    for game, seat in [c for cases in decision_positions("hangzhou", per_kind=1).values() for c in cases][:4]:
        assert rule.act_view(SeatView(game, seat)) in game.legal_actions(seat)
    assert rule.played > 0


def test_play_outs_without_the_log_choose_as_with_it(monkeypatch):
    """Greedy and random play-outs copy the worlds without the event log (they read none); the
    choices are those of copies that keep it, at a few decisions of each ruleset."""
    import cnmahjong.agents.search as search

    play_each = search._play_each
    logs = []

    def spy(*args):
        logs.append(args[-1])
        return play_each(*args)

    for name in ("changsha", "hangzhou", "sichuan"):
        rs = get_ruleset(name)
        cases = [c for cs in decision_positions(name, per_kind=1).values() for c in cs][:4]
        for policy in ("greedy", "random"):
            chose = []
            for keep in (False, True):
                monkeypatch.setattr(search, "_play_each", spy)
                if keep:
                    monkeypatch.setattr(search, "reads_log", lambda rs, name: True)
                chose.append([SearchPolicy(rs, seed=3, rollouts=8, policy=policy).act_view(SeatView(g, s))
                              for g, s in cases])
                monkeypatch.undo()
                assert set(logs) == {keep}, (name, policy)
                logs.clear()
            assert chose[0] == chose[1], (name, policy)

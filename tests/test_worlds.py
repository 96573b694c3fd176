"""``game.sample_world(seat, rng)`` and ``game.clone()`` (``cnmahjong.envs.core.worlds``), both rulesets:
the seat's observation and legal actions are the real ones at every decision kind, the world
plays to a zero-sum end, the same ``rng`` state gives the same world, games the seat cannot tell
apart give the same world, the hidden tiles are uniform (chi-square), and a clone is independent
and equal."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from scipy.stats import chisquare

from cnmahjong.envs.core.engine import slot_names
from cnmahjong.envs.core.ruleset import get_ruleset
from cnmahjong.envs.core.tiles import COPIES
from cnmahjong.envs.core.wall import EMPTY
from cnmahjong.envs.core.worlds import SeatView, public_events, unseen_counts, unseen_row

RULESETS = ("changsha", "hangzhou", "sichuan")
RARE = ("dice", "haidi_draw", "kong_draw", "kong_discard", "rob", "haidi_discard")
"""Changsha's decision kinds that random play seldom meets: met under greedy play below."""


def _ruleset(name: str):
    rs = get_ruleset(name)
    return rs, rs.as_config(rs.default_rules)


def _pick(r: random.Random, legal: list[int], num_kinds: int) -> int:
    """Random play leaning to claims, kongs and the other rare decisions, so every kind comes up."""
    rare = [a for a in legal if a >= num_kinds]
    if rare and r.random() < 0.6:
        return r.choice(rare)
    return r.choice(legal)


def positions(name: str, hands: int, seed: int = 0):
    """(game, seat) at every decision of ``hands`` randomly played hands, for every seat."""
    rs, config = _ruleset(name)
    r = random.Random(seed)
    for h in range(hands):
        game = rs.new_hand(config, np.random.default_rng(seed * 1000 + h))
        while not game.done:
            for seat in range(4):
                yield game, seat
            s = r.choice(game.to_act)
            game.step(s, _pick(r, game.legal_actions(s), game.NUM_KINDS))


def state(x: Any, depth: int = 0) -> Any:
    """Every attribute of a game (or part of one) as plain data, for comparing two games."""
    if isinstance(x, random.Random):
        return ("Random", x.getstate())
    if isinstance(x, (int, float, str, bool, type(None), bytes)):
        return x
    if isinstance(x, bytearray):
        return bytes(x)
    if isinstance(x, (list, tuple)):
        return [state(v, depth + 1) for v in x]
    if isinstance(x, dict):
        return {k: state(v, depth + 1) for k, v in x.items()}
    if hasattr(x, "__iter__") and not hasattr(x, "__dict__") and not slot_names(type(x)):
        return [state(v, depth + 1) for v in x]
    out = {n: state(getattr(x, n), depth + 1) for n in slot_names(type(x)) if hasattr(x, n)}
    out.update({n: state(v, depth + 1) for n, v in getattr(x, "__dict__", {}).items()})
    return (type(x).__name__, out)


def play_out(game: Any, seed: int) -> Any:
    r = random.Random(seed)
    while not game.done:
        s = game.to_act[0]
        game.step(s, r.choice(game.legal_actions(s)))
    return game.result


# ------------------------------------------------------------------ what the seat sees
@pytest.mark.parametrize("name", RULESETS)
def test_unseen_counts_count_every_tile_the_seat_sees(name):
    """``unseen_counts`` (which adds a game's ``river_counts`` rows where it keeps them) equals the
    copies left after counting, tile by tile, the seat's hand, every river's tiles, the melds it
    sees, the tiles face up and the other seats' shown tiles: at every decision, every seat."""
    checked = 0
    for game, seat in positions(name, hands=12, seed=5):
        seen = Counter({k: n for k, n in enumerate(game.hands[seat]) if n})
        for s in range(4):
            seen.update(game.rivers[s])
            for m in game.melds[s]:
                if s == seat or not m.hidden:
                    seen.update(m.tiles)
            if s != seat and hasattr(game, "_world_shown"):
                seen.update({k: n for k, n in enumerate(game._world_shown(s)) if n})
        seen.update(game._world_face_up())
        assert unseen_counts(game, seat) == [COPIES - seen[k] for k in range(game.NUM_KINDS)]
        assert unseen_row(game, seat) == bytearray(COPIES - seen[k] for k in range(game.NUM_KINDS))
        checked += 1
    assert checked > 1000, checked


@pytest.mark.parametrize("name", RULESETS)
def test_unseen_counts_refuse_a_game_whose_tiles_do_not_add_up(name):
    """A river row of the wrong length, a tile outside the kinds or a fifth copy seen is an error
    naming it (the counts are written through a C pointer compiled: nothing is read or written
    outside the row)."""
    game, seat = next(p for p in positions(name, hands=1, seed=7) if p[0].rivers[(p[1] + 1) % 4])
    other = (seat + 1) % 4
    if hasattr(game, "river_counts"):
        broken = game.clone()
        broken.river_counts[other] = bytearray(game.NUM_KINDS - 1)
        with pytest.raises(ValueError, match=f"a river or shown row of {game.NUM_KINDS - 1} kinds"):
            unseen_row(broken, seat)
    else:
        broken = game.clone()
        broken.rivers[other].append(game.NUM_KINDS)
        with pytest.raises(ValueError, match=f"tile kind {game.NUM_KINDS} outside the {game.NUM_KINDS} kinds"):
            unseen_row(broken, seat)
    crowded = game.clone()
    t = next(k for k in range(game.NUM_KINDS) if crowded.hands[seat][k])
    crowded.hands[seat][t] = COPIES + 1
    with pytest.raises(AssertionError, match=f"sees more than {COPIES} copies"):
        unseen_counts(crowded, seat)


@pytest.mark.parametrize("name", RULESETS)
def test_world_shows_the_seat_what_it_sees(name):
    """Thousands of positions, every seat: observation and legal actions equal the real ones, and
    every decision kind of the ruleset is met on a seat's own decision; a sample of the worlds is
    played to the end and settles zero-sum."""
    rs, _ = _ruleset(name)
    encoder = rs.encoder
    r = random.Random(1)
    kinds: Counter = Counter()
    checked = played = 0
    for game, seat in positions(name, hands=50, seed=3):
        world = game.sample_world(seat, np.random.default_rng(r.getrandbits(32)))
        assert type(world) is type(game)
        np.testing.assert_array_equal(encoder()(world, seat), encoder()(game, seat), err_msg=f"{game.phase} {seat}")
        assert world.legal_actions(seat) == game.legal_actions(seat)
        assert world.tiles_accounted() == game.tiles_accounted()
        assert [sum(h) for h in world.hands] == [sum(h) for h in game.hands]
        assert world.wall.remaining == game.wall.remaining
        assert world.wall.positions() == game.wall.positions()
        if seat in game.pending:
            kinds[game.phase] += 1
        checked += 1
        if r.random() < 0.03:
            result = play_out(world, r.getrandbits(32))
            assert sum(result.payments) == 0
            played += 1
    assert checked > 5000 and played > 100, (checked, played)
    # the ruleset's decision kinds a seat meets under this play (the rare ones: below)
    expected = {p for p in rs.game.PHASES if p != "done"} - set(RARE)
    assert expected <= set(kinds), f"decision kinds not met: {expected - set(kinds)}"


def test_changsha_world_at_the_kong_and_haidi_decisions():
    """The rare Changsha decisions, met under greedy play (which gets ready hands; it passes a
    开杠 draw's win so that the dropped tiles are offered): the 开杠 dice choice, the drawn tiles'
    use, the 杠上炮 window, robbing a kong, the 海底 win and the 海底炮 window."""
    rs, config = _ruleset("changsha")
    rare = RARE
    met: Counter = Counter()
    for seed in range(300):
        game = rs.new_hand(config, np.random.default_rng(seed))
        encoder = rs.encoder()
        while not game.done:
            s = game.to_act[0]
            legal = game.legal_actions(s)
            if game.phase in rare:
                met[game.phase] += 1
                for seat in range(4):
                    world = game.sample_world(seat, np.random.default_rng(seed))
                    np.testing.assert_array_equal(rs.encoder()(world, seat), rs.encoder()(game, seat))
                    assert world.legal_actions(seat) == game.legal_actions(seat)
                    assert sum(play_out(world, seed).payments) == 0
            if game.phase == "kong_draw":
                a = 88  # PASS
            else:
                a = rs.heuristic(encoder(game, s), legal) if len(legal) > 1 else legal[0]
            game.step(s, a)
        if all(met[k] for k in rare):
            break
    assert all(met[k] for k in rare), met


# ------------------------------------------------------------------ a function of knowledge and rng
@pytest.mark.parametrize("name", RULESETS)
def test_same_rng_state_same_world(name):
    for i, (game, seat) in enumerate(positions(name, hands=3, seed=7)):
        if i % 7:
            continue
        a = game.sample_world(seat, np.random.default_rng(42))
        b = game.sample_world(seat, np.random.default_rng(42))
        assert state(a) == state(b)
        assert state(play_out(a, 1)) == state(play_out(b, 1))


def twin(game: Any, seat: int, r: random.Random) -> Any:
    """A game ``seat`` cannot tell from ``game``: the hidden tiles permuted consistently (a hidden
    tile of another seat swapped with one in the wall, the wall's order shuffled), other seats'
    blind choices in the open window changed, a new dice generator; derived caches left stale."""
    other = game.clone()
    hidden = [p for p, t in enumerate(other.wall.layout()) if t != EMPTY]
    tiles = [t for t in other.wall.layout() if t != EMPTY]
    s = r.choice([x for x in range(4) if x != seat])
    shown = getattr(other, "shown", None)
    mine = [t for t in range(len(other.hands[s])) for _ in range(other.hands[s][t] - (shown[s][t] if shown else 0))]
    if mine and tiles:
        i = r.randrange(len(tiles))
        x = r.choice(mine)
        other.hands[s][x] -= 1
        other.hands[s][tiles[i]] += 1
        tiles[i] = x
    r.shuffle(tiles)
    assert len(hidden) == len(tiles)
    other.wall.refill(tiles)
    if hasattr(other, "_rng"):
        other._rng = random.Random(r.getrandbits(64))
    window = other._window
    if window is not None:
        for o in list(window.choices):
            if o != seat:
                window.choices[o] = r.choice(window.options[o])
    other.seed = r.getrandbits(63)
    return other


@pytest.mark.parametrize("name", RULESETS)
def test_indistinguishable_games_give_the_same_world(name):
    """The world never reads the hidden state, not even its order: two games the seat cannot tell
    apart give the same world for the same rng state."""
    r = random.Random(11)
    compared = 0
    for i, (game, seat) in enumerate(positions(name, hands=6, seed=13)):
        if i % 3:
            continue
        other = twin(game, seat, r)
        assert state(other) != state(game) or not game.wall.remaining
        a = game.sample_world(seat, np.random.default_rng(i))
        b = other.sample_world(seat, np.random.default_rng(i))
        assert public_events(game, seat) == public_events(other, seat)
        assert state(a) == state(b), f"{game.phase} seat {seat}"
        compared += 1
    assert compared > 300


def test_hidden_kongs_and_pending_choices_are_redrawn():
    """Hangzhou: another seat's face-down kong gets a kind with all four copies unseen, its tiles
    and act are blanked in the world's log; another seat's blind choice in an open window is cleared."""
    kongs = windows = 0
    for game, seat in positions("hangzhou", hands=60, seed=17):
        hidden = [(s, m) for s in range(4) if s != seat for m in game.melds[s] if m.hidden]
        window = game._window
        if hidden and kongs < 50:
            world = game.sample_world(seat, np.random.default_rng(kongs))
            events = public_events(game, seat)
            assert all(e.get("tiles") for e in events if e["type"] == "meld" and e["seat"] == seat)
            assert any(e["type"] == "meld" and not e["tiles"] for e in events)
            unseen = unseen_counts(game, seat)
            for s in range(4):
                for m in world.melds[s]:
                    if m.hidden and s != seat:
                        assert unseen[m.tiles[0]] == COPIES
            kongs += 1
        if window is not None and any(o != seat for o in window.choices) and windows < 50:
            world = game.sample_world(seat, np.random.default_rng(windows))
            if world._window is not None:
                assert set(world._window.choices) <= {seat}
                windows += 1
    assert kongs >= 10 and windows >= 10, (kongs, windows)


# ------------------------------------------------------------------ uniform
@pytest.mark.parametrize("name", ("changsha", "hangzhou"))
def test_hidden_tiles_are_uniform(name):
    """Chi-square: the head tile of the world's wall follows the unseen counts, and the number of
    copies of a kind in the next seat's hand follows the hypergeometric law. (Sichuan's play
    reveals counts, D1 and 换三张: tests/test_sichuan_worlds.py checks its law against rejection.)"""
    from scipy.stats import hypergeom

    rs, config = _ruleset(name)
    game = rs.new_hand(config, np.random.default_rng(5))
    r = random.Random(2)
    for _ in range(40):  # into the hand a little
        s = game.to_act[0]
        game.step(s, r.choice(game.legal_actions(s)))
        if game.done:
            pytest.fail("the hand ended early")
    seat = game.to_act[0]
    unseen = unseen_counts(game, seat)
    total = sum(unseen)
    rng = np.random.default_rng(0)
    n = 3000
    heads: Counter = Counter()
    copies: Counter = Counter()
    nxt = (seat + 1) % 4
    size = sum(game.hands[nxt])
    kind = max(range(len(unseen)), key=unseen.__getitem__)
    for _ in range(n):
        world = game.sample_world(seat, rng)
        heads[world.wall.peek_head(1)[0]] += 1
        copies[world.hands[nxt][kind]] += 1
    kinds = [k for k in range(len(unseen)) if unseen[k]]
    observed = [heads[k] for k in kinds]
    expected = [n * unseen[k] / total for k in kinds]
    assert chisquare(observed, expected).pvalue > 1e-3
    law = hypergeom(total, unseen[kind], size)
    ks = range(unseen[kind] + 1)
    exp = [n * law.pmf(k) for k in ks]
    keep = [k for k in ks if exp[k] >= 5]  # pool the tail
    obs = [copies[k] for k in keep] + [n - sum(copies[k] for k in keep)]
    exp = [exp[k] for k in keep] + [n - sum(exp[k] for k in keep)]
    assert chisquare(obs, exp).pvalue > 1e-3


# ------------------------------------------------------------------ clone
@pytest.mark.parametrize("name", RULESETS)
def test_clone_is_independent_and_equal(name):
    r = random.Random(3)
    for i, (game, _) in enumerate(positions(name, hands=3, seed=21)):
        if i % 11 or game.done:
            continue
        before = state(game)
        twin_ = game.clone()
        assert state(twin_) == before
        seed = r.getrandbits(32)
        played = play_out(twin_, seed)
        assert state(game) == before, "stepping the clone changed the original"
        again = play_out(copy.deepcopy(game), seed)
        assert state(played) == state(again)
        assert twin_.events == play_out_events(game, seed)


def play_out_events(game: Any, seed: int) -> list:
    g = copy.deepcopy(game)
    play_out(g, seed)
    return g.events


def test_seat_view_gives_worlds_not_the_game():
    rs, config = _ruleset("changsha")
    game = rs.new_hand(config, np.random.default_rng(0))
    seat = game.to_act[0]
    view = SeatView(game, seat)
    assert view.legal_actions() == game.legal_actions(seat)
    assert view.ruleset == "changsha"
    world = view.sample_world(np.random.default_rng(1))
    assert world is not game and world.legal_actions(seat) == game.legal_actions(seat)
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        game.sample_world(seat, random.Random(0))
    with pytest.raises(ValueError, match="seat"):
        game.sample_world(4, np.random.default_rng(0))

"""Sichuan 血战到底 through the generic layers: the encoder ``sc-v0`` (what a seat may see), the
PettingZoo env, ``VectorEnv``, the greedy player."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from cnmahjong.envs.core import ruleset as registry
from cnmahjong.envs.core.meld import ANGANG
from cnmahjong.envs.core.wall import EMPTY
from cnmahjong.envs.sichuan import actions as A
from cnmahjong.envs.sichuan.game import SichuanGame
from cnmahjong.envs.sichuan.heuristic import heuristic
from cnmahjong.envs.sichuan.observation import CHANNELS, MONEY_SCALE, SHAPE, Encoder, encode, planes_to_float
from cnmahjong.envs.sichuan.rules import RuleConfig
from tests.leaving_seats import heuristic_of
from tests.test_relay_ruleset import play_aec
from tests.vector_parity import check_vector_parity


@pytest.fixture(scope="module")
def sichuan():
    return registry.get_ruleset("sichuan")


def random_game(seed: int, steps: int, config: RuleConfig | None = None, greedy: bool = False) -> SichuanGame:
    """A seeded hand after ``steps`` legal actions (or to its end): random ones, or the greedy
    player's (which wins, so seats leave)."""
    rng = random.Random(seed)
    g = SichuanGame(config=config, seed=seed, dealer=seed % 4)
    enc = Encoder()
    while not g.done and steps:
        s = g.to_act[0]
        legal = g.legal_actions(s)
        g.step(s, heuristic(enc(g, s), legal) if greedy else rng.choice(legal))
        steps -= 1
    return g


def tiles_of(counts: list[int]) -> list[int]:
    return [k for k, n in enumerate(counts) for _ in range(n)]


# ------------------------------------------------------------------ the encoder
def test_channel_table_and_the_planes_decode_to_the_game():
    """Each group decodes to the fact of the game it is declared to hold, from the seat's view."""
    assert CHANNELS.size == SHAPE[0] and registry.get_ruleset("sichuan").shape == SHAPE
    checked = set()
    for seed in range(120):
        g = random_game(seed, 13 + 3 * seed, greedy=seed % 3 > 0)
        seat = seed % 4
        obs = encode(g, seat)
        assert obs.dtype == np.float32 and obs.shape == SHAPE and obs.min() >= 0 and obs.max() <= 4
        raw = np.frombuffer(Encoder().planes(g, seat), dtype=np.uint8).reshape(SHAPE)
        assert np.array_equal(planes_to_float(raw), obs)
        rel = [(seat + r) % 4 for r in range(4)]
        assert CHANNELS.decode(obs, "HAND") == list(g.hands[seat])
        assert CHANNELS.decode(obs, "PHASE") == g.phase
        assert CHANNELS.decode(obs, "WALL") == g.wall.remaining
        assert CHANNELS.decode(obs, "DEALER") == (g.dealer - seat) % 4
        assert CHANNELS.decode(obs, "RIVER") == [[g.rivers[s].count(k) for k in range(27)] for s in rel]
        assert CHANNELS.decode(obs, "RECENT_DISCARDS", 1) == g.rivers[rel[1]][::-1][:6]
        net = [g.payments[s] // g.config.base for s in rel]
        assert CHANNELS.decode(obs, "GAINS") == [max(x, 0) for x in net]
        assert CHANNELS.decode(obs, "LOSSES") == [max(-x, 0) for x in net]
        assert abs(obs[CHANNELS.start("GAINS"), 0] * MONEY_SCALE - max(net[0], 0)) < 1e-4
        held = [sum(e.amount for e in g.ledger if e.owner == s) for s in rel]
        assert CHANNELS.decode(obs, "KONG_MONEY") == held
        voids = CHANNELS.decode(obs, "VOID")
        assert voids == (["unknown"] * 4 if g.voids is None else ["msp"[g.voids[s]] for s in rel])
        assert CHANNELS.decode(obs, "DIRECTION") == (g.swap_direction or "unknown")
        if g.passed[seat]:
            checked.add("swap")
            assert tiles_of(CHANNELS.decode(obs, "PASSED")) == sorted(g.passed[seat])
            assert tiles_of(CHANNELS.decode(obs, "RECEIVED")) == sorted(g.received[seat])
        out = CHANNELS.decode(obs, "OUT")
        assert [o != "in" for o in out] == [s in g.seats_out for s in rel]
        checked.update(o for o in out if o != "in")
        tiles = {e["seat"]: e["tile"] for e in g.events if e["type"] == "win"}
        assert CHANNELS.decode(obs, "WON_TILE") == [tiles.get(s) for s in rel]
        threshold = g.threshold[seat]
        assert CHANNELS.decode(obs, "PASSED_HU") == (threshold is not None)
        if threshold is not None:
            checked.add("threshold")
            assert CHANNELS.decode(obs, "PASSED_FAN") == min(threshold, 6)
    assert {"swap", "zimo", "dianpao"} <= checked, checked


def test_own_picks_show_and_the_others_picks_do_not():
    """In the blind 换三张 window a seat sees its own picks and pick count, nothing of the others'."""
    g = SichuanGame(seed=5, dealer=0)
    enc = Encoder()
    before = {s: enc.planes(g, s) for s in range(4)}
    first = g.to_act[0]
    pick = g.legal_actions(first)[0]
    g.step(first, pick)
    for s in range(4):
        if s != first:
            assert enc.planes(g, s) == before[s]
    obs = encode(g, first)
    assert CHANNELS.decode(obs, "PICKS") == 1
    assert CHANNELS.decode(obs, "PASSED")[pick - A.SWAP] == 1 and sum(CHANNELS.decode(obs, "PASSED")) == 1


def permuted_twin(g: SichuanGame, seat: int, r: random.Random) -> SichuanGame | None:
    """The same deal with hidden tiles permuted consistently: a copy of a kind another seat still
    holds concealed swapped with an undrawn wall tile of another kind, the undrawn wall shuffled,
    the seeded swap direction fixed as drawn. None when no such swap exists."""
    deal = g.events[0]
    hands = [list(h) for h in deal["hands"]]
    wall = list(deal["wall"])
    layout = g.wall.layout()
    first = len(layout) - len(wall)
    undrawn = [p - first for p, t in enumerate(layout) if t != EMPTY]
    others = [o for o in range(4) if o != seat and any(g.hands[o][x] and x in hands[o] for x in range(27))]
    if not undrawn or not others:
        return None
    o = r.choice(others)
    x = r.choice([x for x in range(27) if g.hands[o][x] and x in hands[o]])
    ys = [i for i in undrawn if wall[i] != x]
    if not ys:
        return None
    i = r.choice(ys)
    hands[o][hands[o].index(x)], wall[i] = wall[i], x
    tiles = [wall[j] for j in undrawn]
    r.shuffle(tiles)
    for j, t in zip(undrawn, tiles, strict=True):
        wall[j] = t
    return SichuanGame.from_scenario(hands, wall, dealer=g.dealer, config=g.config, seed=r.getrandbits(32),
                                     swap_direction=g.swap_direction)


def test_leak_the_observation_ignores_every_hidden_tile():
    """Over many random positions: seat s's observation is the same, at every step, in a game whose
    hidden tiles (another seat's concealed tiles, the undrawn wall's order) are permuted consistently
    and which the same actions drive through the same public flow (who is asked, in which phase: a
    claim window is public). A 换三张 direction not drawn yet may differ too."""
    r = random.Random(7)
    compared = positions = 0
    for seed in range(120):
        steps = r.randrange(5, 140)
        g = random_game(seed, steps, RuleConfig(reveal_angang_tile=seed % 2 == 0))
        if g.done:
            continue
        seat = r.randrange(4)
        twin = permuted_twin(g, seat, r)
        if twin is None:
            continue
        acts = [(e["seat"], e["action"]) for e in g.events if e["type"] == "act"]
        ref = SichuanGame.replay(g.events[:1])  # the original deal, stepped alongside
        enc_a, enc_b = Encoder(), Encoder()
        try:
            for s, a in acts:
                if (ref.to_act, ref.phase) != (twin.to_act, twin.phase):  # a window opened in one only
                    raise ValueError("the permuted deal changed the public flow")
                assert enc_a.planes(ref, seat) == enc_b.planes(twin, seat), (seed, ref.phase)
                compared += 1
                ref.step(s, a)
                twin.step(s, a)
        except ValueError:  # the permuted deal cannot be driven the same way: no position to compare
            continue
        assert enc_a.planes(ref, seat) == enc_b.planes(twin, seat)
        assert [bytes(h) for h in ref.hands] != [bytes(h) for h in twin.hands]  # something hidden differs
        positions += 1
    assert positions >= 40 and compared >= 2000, (positions, compared)


def test_a_hidden_angang_shows_its_kind_only_with_reveal_angang_tile():
    for reveal in (True, False):
        found = 0
        for seed in range(400):
            g = random_game(seed, 400, RuleConfig(reveal_angang_tile=reveal))
            kongs = [(s, m.tiles[0]) for s in range(4) for m in g.melds[s] if m.kind == ANGANG]
            for s, t in kongs:
                viewer = (s + 1) % 4
                obs = encode(g, viewer)
                assert CHANNELS.decode(obs, "KONGS", 3).count(t) == int(reveal)
                assert CHANNELS.decode(obs, "HIDDEN_KONGS", 3) == (0 if reveal else min(2, len(
                    [m for m in g.melds[s] if m.kind == ANGANG])))
                assert t in CHANNELS.decode(encode(g, s), "KONGS", 0)
                found += 1
            if found >= 3:
                break
        assert found >= 3


# ------------------------------------------------------------------ the AEC env
def test_pettingzoo_api_and_seed_tests():
    from cnmahjong.envs.aec import make_env

    api_test(make_env("sichuan"), num_cycles=300)
    seed_test(lambda: make_env("sichuan"), num_cycles=300)


def test_a_winner_terminates_at_its_win_with_its_whole_settlement(sichuan):
    """血战: a winner terminates in the step that settles its win, is removed first (in settlement
    order) while the others play on, and every seat's summed rewards equal its payments / scale."""
    from cnmahjong.envs.aec import aec_env

    env = aec_env("sichuan")(reward_scale=2.0)
    policy = heuristic_of(sichuan)
    mid_hand = multi = 0
    for seed in range(40):
        got, ended, removed = play_aec(env, policy, seed)
        r = env.game.result
        assert got == {f"player_{s}": r.payments[s] / 2.0 for s in range(4)}
        early = [a for a in removed if ended[a] < max(ended.values())]
        assert early == [f"player_{w}" for w in r.winners][:len(early)]
        mid_hand += bool(early)
        multi += len(set(r.won_from.values())) < len(r.won_from)
    assert mid_hand >= 20 and multi >= 1, (mid_hand, multi)  # 一炮多响 among them


def test_vector_env_rows_and_rewards_equal_the_aec_envs():
    """Row for row (observations, masks, state) and reward for reward, over a few hundred hands."""
    assert check_vector_parity("sichuan", 200, state_every=11) > 100


# ------------------------------------------------------------------ the greedy player
def test_greedy_choices_in_the_opening_windows(sichuan):
    """换三张: three tiles of the suit it holds fewest of (among those with three); 定缺: the suit
    it holds fewest of after the swap."""
    enc = sichuan.encoder()
    for seed in range(30):
        g = SichuanGame(seed=seed)
        held = {s: [sum(g.hands[s][9 * u:9 * u + 9]) for u in range(3)] for s in range(4)}
        while g.phase == "swap":
            s = g.to_act[0]
            g.step(s, sichuan.heuristic(enc(g, s), g.legal_actions(s)))
        for s in range(4):
            suits = {t // 9 for t in g.passed[s]}
            assert len(suits) == 1
            assert held[s][suits.pop()] == min(n for n in held[s] if n >= 3)
        before = [[sum(g.hands[s][9 * u:9 * u + 9]) for u in range(3)] for s in range(4)]
        while g.phase == "void":
            s = g.to_act[0]
            g.step(s, sichuan.heuristic(enc(g, s), g.legal_actions(s)))
        assert all(before[s][g.voids[s]] == min(before[s]) for s in range(4))


def test_greedy_beats_random_in_the_arena(sichuan):
    from cnmahjong.training.arena import run_arena

    result = run_arena(["greedy", "random", "random", "random"], deals=8, rules="sichuan", workers=1, seed=1)
    assert result.ruleset == "sichuan"
    greedy, *randoms = result.reports
    assert greedy.ci_low > 0 and greedy.mean > max(r.mean for r in randoms)
    assert greedy.rates["win_rate"] > max(r.rates["win_rate"] for r in randoms)


def test_a_declined_hu_shows_only_to_the_seat_that_declined():
    """过胡 is private: another seat's threshold (and PENG lock) changes no plane of the others,
    and the seat's own planes say it."""
    found = 0
    for seed in range(300):
        g = random_game(seed, 10_000, RuleConfig(pass_peng_lock=True))
        # replay up to the first position where some seat holds a 过胡 threshold
        h = SichuanGame.replay(g.events[:1])
        for e in (e for e in g.events if e["type"] == "act"):
            h.step(e["seat"], e["action"])
            holders = [s for s in range(4) if h.threshold[s] is not None and not h.done]
            if holders:
                break
        else:
            continue
        o = holders[0]
        enc = Encoder()
        seen = {s: enc.planes(h, s) for s in range(4)}
        bar, lock = h.threshold[o], h.peng_lock[o]
        h.threshold[o], h.peng_lock[o] = None, 0
        for s in range(4):
            assert (enc.planes(h, s) == seen[s]) == (s != o)
        h.threshold[o], h.peng_lock[o] = bar, lock
        assert CHANNELS.decode(encode(h, o), "PASSED_HU")
        found += 1
        if found >= 10:
            break
    assert found >= 10


@given(st.lists(st.integers(0, 4), min_size=27, max_size=27), st.sets(st.integers(0, 26), min_size=1),
       st.lists(st.integers(0, 14), min_size=3, max_size=3))
def test_the_greedy_players_loops_choose_as_min_with_its_keys(hand, held, counts):
    """The greedy player's C loops for D1 (void tiles held: fewest copies, then the suit's edges,
    then the lowest kind), for 换三张 (the suit held fewest, then the lowest action) and for 定缺
    (the suit held fewest, then fewest pairs, then the lowest action) pick what ``min`` with those
    keys picks, in any order of the candidates."""
    from cnmahjong.envs.sichuan.heuristic import SUIT, _suit_counts, _swap_pick, _void_first, _void_pick

    discards = sorted(held, reverse=True)  # the loops do not rely on the order
    assert _void_first(bytearray(hand), discards) == min(discards, key=lambda t: (hand[t], -abs(t % SUIT - 4), t))
    legal = [A.SWAP + t for t in discards]
    assert _swap_pick(legal, counts) == min(legal, key=lambda a: (counts[(a - A.SWAP) // SUIT], a))
    suits = sorted({t // SUIT for t in held}, reverse=True)  # 定缺: the suits on offer
    legal = [A.VOID + v for v in suits]
    assert _void_pick(legal, bytearray(hand)) == min(legal, key=lambda a: (_suit_counts(hand)[a - A.VOID], sum(
        hand[t] >= 2 for t in range(SUIT * (a - A.VOID), SUIT * (a - A.VOID + 1))), a))
    sums = [sum(hand[SUIT * v:SUIT * v + SUIT]) for v in range(3)]  # _suit_counts: a loop over the bytes
    assert _suit_counts(hand) == _suit_counts(bytearray(hand)) == sums
    with pytest.raises(ValueError, match="26 counts for 27 kinds"):
        _suit_counts(hand[:26])

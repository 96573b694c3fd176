"""The global state (``env.state()``, ``VectorEnv(state=True)``): PettingZoo's state test, what it
adds never reaches an observation, and it determines the rest of the hand given the actions."""

from __future__ import annotations

import copy
import random
from collections import deque

import numpy as np
import pytest
from pettingzoo.test.state_test import test_state as pettingzoo_state_test
from pettingzoo.test.state_test import test_state_space as pettingzoo_state_space_test

from cnmahjong.envs.changsha import observation as cs_obs
from cnmahjong.envs.changsha.env import raw_env as changsha_env
from cnmahjong.envs.changsha.game import ChangshaGame
from cnmahjong.envs.core.engine import DEALT_TILES
from cnmahjong.envs.core.state import state_layout
from cnmahjong.envs.core.wall import EMPTY
from cnmahjong.envs.hangzhou import observation as hz_obs
from cnmahjong.envs.hangzhou.env import raw_env as hangzhou_env
from cnmahjong.envs.hangzhou.game import HangzhouGame

RULESETS = [("changsha", changsha_env, ChangshaGame, cs_obs), ("hangzhou", hangzhou_env, HangzhouGame, hz_obs)]


@pytest.mark.parametrize("name, make_env, game_cls, obs", RULESETS)
def test_pettingzoo_state_test_and_shape(name, make_env, game_cls, obs):
    env = make_env()
    pettingzoo_state_space_test(env)
    pettingzoo_state_test(make_env(), 300)
    layout = state_layout(name)
    c, k = obs.SHAPE
    wall = game_cls.WALL_SIZE - DEALT_TILES
    assert env.state_space.shape == layout.shape == (4 * c + wall + -(-game_cls.DICE_AHEAD // 4), k)
    env.reset(seed=5)
    st = env.state()
    assert st.dtype == np.float32 and env.state_space.contains(st)


def _play_to(game, rng, steps):
    """Random legal decisions (the first pending seat each time), at most ``steps`` of them."""
    actions = []
    while not game.done and steps:
        seat = game.to_act[0]
        a = int(rng.choice(game.legal_actions(seat)))
        game.step(seat, a)
        actions.append((seat, a))
        steps -= 1
    return actions


def _hidden(game, seat):
    """Per other seat, the kinds it holds concealed that nobody else can see."""
    shown = getattr(game, "shown", None)
    return {o: [t for t in range(game.NUM_KINDS) if game.hands[o][t] > (shown[o][t] if shown else 0)]
            for o in range(4) if o != seat}


def _state(game, name):
    layout = state_layout(name)
    enc = layout.ruleset.encoder()
    return layout.to_float(np.frombuffer(layout.planes(game, enc), np.uint8).reshape(layout.shape))


@pytest.mark.parametrize("name, make_env, game_cls, obs", RULESETS)
def test_what_the_state_adds_never_reaches_an_observation(name, make_env, game_cls, obs):
    """What the state holds beyond a seat's view (other hands, the wall's order, the dice ahead)
    is changed under each seat's feet: the seat's observation stays bit for bit the same, while
    the state does change (so the check can fail)."""
    rng = np.random.default_rng(7)
    checked = 0
    for seed in range(40):
        g = game_cls(seed=seed)
        _play_to(g, rng, int(rng.integers(0, 80)))
        if g.done:
            continue
        for seat in range(4):
            before, state_before = obs.encode(g, seat), _state(g, name)
            h = copy.deepcopy(g)
            # 1. another seat's hidden tile for a tile of the wall (and the wall reordered)
            others = [(o, t) for o, ts in _hidden(h, seat).items() for t in ts]
            layout = h.wall._pos
            live = [p for p, t in enumerate(layout) if t != EMPTY]
            swaps = [(o, t, p) for o, t in others for p in live if layout[p] != t]
            if swaps:
                o, t, p = swaps[int(rng.integers(len(swaps)))]
                h.hands[o][t] -= 1
                h.hands[o][layout[p]] += 1
                layout[p] = t
            tiles = [layout[p] for p in live]
            rng.shuffle(tiles)
            for p, t in zip(live, tiles, strict=True):
                layout[p] = t
            # 2. other dice ahead
            if game_cls.DICE_AHEAD:
                h._dice = deque()
                h._rng = random.Random(seed + 1000)
                h._ahead = None  # the game's cache of its dice ahead
            assert np.array_equal(obs.encode(h, seat), before)
            if swaps or game_cls.DICE_AHEAD:
                assert not np.array_equal(_state(h, name), state_before)
                checked += 1
    assert checked > 60


def _decoded_hands(state, name, obs):
    c = obs.SHAPE[0]
    return [obs.decode_hand(state[s * c:(s + 1) * c]) for s in range(4)]


@pytest.mark.parametrize("name, make_env, game_cls, obs", RULESETS)
def test_the_state_determines_the_rest_of_the_hand(name, make_env, game_cls, obs):
    """At a random moment of a hand, a copy of the game whose every hidden part (the four hands,
    the wall, the dice) is rebuilt from the state alone, with a different random generator, makes
    the same events as the original under the same actions, to the end of the hand."""
    rng = np.random.default_rng(11)
    layout = state_layout(name)
    compared = rolled = 0
    for seed in range(200):
        g = game_cls(seed=seed)
        _play_to(g, rng, 0 if seed % 2 else int(rng.integers(1, 40)))  # the deal's opening birds too
        if g.done:
            continue
        st = _state(g, name)
        h = copy.deepcopy(g)
        for s, counts in enumerate(_decoded_hands(st, name, obs)):
            h.hands[s][:] = bytes(counts)
        h.wall._pos[DEALT_TILES:] = layout.decode_wall(st)
        if game_cls.DICE_AHEAD:
            dice = layout.decode_dice(st)
            assert len(dice) == game_cls.DICE_AHEAD
            h._dice = deque(dice)
            h._rng = random.Random(-seed - 1)  # never used: the state's dice suffice
            h._ahead = None
        assert h.hands == g.hands and h.wall.layout() == g.wall.layout()
        start = len(g.events)
        future = _play_to(g, np.random.default_rng(seed), 10_000)
        for seat, a in future:
            h.step(seat, a)
        assert g.done and h.done
        assert h.events[start:] == g.events[start:]
        compared += 1
        rolled += any(e["type"] == "dice" for e in g.events[start:])
    assert compared > 150 and (rolled > 3 or not game_cls.DICE_AHEAD)


def test_the_dice_ahead_are_the_dice_rolled():
    """Changsha's kong and opening-bird dice come, in order, from the state's dice block."""
    layout = state_layout("changsha")
    rng = np.random.default_rng(3)
    rolled = 0
    for seed in range(300):
        g = ChangshaGame(seed=seed)
        ahead = layout.decode_dice(_state(g, "changsha"))
        start = len(g.events)
        _play_to(g, rng, 10_000)
        values = [v for e in g.events[start:] if e["type"] == "dice" for v in e["values"]]
        assert values == ahead[:len(values)]
        rolled += len(values)
    assert rolled > 20


def test_state_is_zero_before_reset_and_never_in_the_infos():
    env = changsha_env()
    assert not env.state().any()
    env.reset(seed=1)
    assert all(set(i) == {"phase"} for i in env.infos.values())


@pytest.mark.parametrize("name, make_env, game_cls, obs", RULESETS)
def test_box_observations_carry_the_mask_in_the_infos(name, make_env, game_cls, obs):
    """``box=True``: the planes alone, bit for bit the dict form's, and each agent's mask in its
    infos (zeros for an agent not to act), at every step of the same seeded hands."""
    boxed, plain = make_env(box=True), make_env()
    assert boxed.observation_space("player_0") == plain.observation_space("player_0")["observation"]
    for seed in range(5):
        boxed.reset(seed=seed)
        plain.reset(seed=seed)
        for _agent in boxed.agent_iter():
            o, r, term, trunc, info = boxed.last()
            p, pr, *_ = plain.last()
            assert isinstance(o, np.ndarray) and o.tobytes() == p["observation"].tobytes() and r == pr
            assert np.array_equal(info["action_mask"], p["action_mask"])
            for a in boxed.agents:
                assert np.array_equal(boxed.infos[a]["action_mask"], plain.observe(a)["action_mask"])
            action = None if term or trunc else int(np.flatnonzero(info["action_mask"])[0])
            boxed.step(action)
            plain.step(action)
        assert boxed.game.events == plain.game.events


@pytest.mark.parametrize("name, make_env, game_cls, obs", RULESETS)
def test_a_windows_choices_so_far_are_not_in_the_state(name, make_env, game_cls, obs):
    """In a window several seats answer blind: the state after the first answers is the state
    before them, whatever they chose, until the window resolves."""
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(300):
        g = game_cls(seed=seed)
        while not g.done and checked < 40:
            if len(g.pending) >= 2:
                before = _state(g, name)
                seat = g.to_act[0]
                g.step(seat, int(rng.choice(g.legal_actions(seat))))
                if g.pending:  # still open: the answer must not show
                    assert np.array_equal(_state(g, name), before)
                    checked += 1
                continue
            seat = g.to_act[0]
            g.step(seat, int(rng.choice(g.legal_actions(seat))))
        if checked >= 40:
            break
    assert checked >= 40

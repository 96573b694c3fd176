"""Bad input at every public entry point: one row per case, each a clear error naming the field.

Every row asserts the error type and that the message names what was wrong;
rejected ``step`` calls leave the game exactly as it was (state and event log).
"""

from __future__ import annotations

import math
import pickle
import random

import numpy as np
import pytest

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.env import raw_env
from cnmahjong.envs.changsha.game import ChangshaGame, ChangshaMatch, IllegalActionError
from cnmahjong.envs.changsha.rules import RuleConfig
from cnmahjong.envs.wrappers import SingleAgentEnv
from cnmahjong.training import config as C
from tests.test_game_fuzz import choose

HANDS = ["123456789m12345s", "123456789s1234p", "123456789p1234m", "6789m6789s6789p1m"]
"""A legal scenario: the dealer's 14 and three 13s (no fifth copy anywhere)."""


def started_env(**kwargs):
    e = raw_env(**kwargs)
    e.reset(seed=1)
    return e


def finished_env():
    e = raw_env()
    e.reset(seed=3)
    while e.agents:
        _, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    return e


def game_to_act():
    g = ChangshaGame(seed=5)
    return g, g.to_act[0]


def _step_game(seat_of, action):
    g, seat = game_to_act()
    g.step(seat_of(seat), action)


def _scenario(**changes):
    sc = {"hands": HANDS, "wall": "", "dealer": 0}
    sc.update(changes)
    return lambda: started_env().reset(options={"scenario": sc})


class Opponent:
    def __init__(self, value):
        self.value = value

    def __call__(self, obs, mask):
        return self.value


def single_agent_step(action):
    env = SingleAgentEnv(seat=0)
    env.reset(seed=0)
    env.step(action)


def single_agent_with_opponent(value):
    env = SingleAgentEnv(seat=0, opponents=[Opponent(value)] * 3)
    env.reset(seed=0)
    for _ in range(50):
        env.step(int(np.flatnonzero(env.action_masks())[0]))


# (id, callable, error type, fragment of the message)
ROWS = [
    # ---- engine: seat and action of step()
    ("step seat float", lambda: _step_game(float, 0), TypeError, "seat must be an integer"),
    ("step seat str", lambda: _step_game(str, 0), TypeError, "seat must be an integer"),
    ("step seat bool", lambda: _step_game(lambda s: True, 0), TypeError, "seat must be an integer, got the bool"),
    ("step seat out of range", lambda: _step_game(lambda s: 7, 0), IllegalActionError, "seat 7 is not to act"),
    ("step action bool", lambda: _step_game(int, True), TypeError, "action must be an integer, got the bool"),
    ("step action float", lambda: _step_game(int, 2.0), TypeError, "action must be an integer"),
    ("step action None", lambda: _step_game(int, None), TypeError, "action must be an integer"),
    ("step action out of table", lambda: _step_game(int, 500), IllegalActionError, "cannot play 500"),
    # ---- engine: replay input
    ("replay a string", lambda: ChangshaGame.replay("abc"), TypeError, "events must be a list"),
    ("replay nothing", lambda: ChangshaGame.replay([]), ValueError, "empty event log"),
    ("replay no deal first", lambda: ChangshaGame.replay([{"type": "act", "seat": 0, "action": 0}]),
     ValueError, "starts with the 'deal' event"),
    ("replay event not a dict", lambda: ChangshaGame.replay([ChangshaGame(seed=1).events[0], 5]),
     TypeError, "event 1 must be a dict"),
    ("replay event without type", lambda: ChangshaGame.replay([ChangshaGame(seed=1).events[0], {"seat": 0}]),
     ValueError, "event 1 has no 'type'"),
    ("replay deal without wall",
     lambda: ChangshaGame.replay([{k: v for k, v in ChangshaGame(seed=1).events[0].items() if k != "wall"}]),
     ValueError, "lacks \\['wall'\\]"),
    ("replay deal with bad origin",
     lambda: ChangshaGame.replay([{**ChangshaGame(seed=1).events[0], "origin": "dream"}]),
     ValueError, "origin is 'dream'"),
    # ---- seeds
    ("game seed negative", lambda: ChangshaGame(seed=-1), ValueError, "seed=-1 out of range"),
    ("game seed float", lambda: ChangshaGame(seed=1.5), TypeError, "seed must be an integer"),
    ("game seed str", lambda: ChangshaGame(seed="7"), TypeError, "seed must be an integer"),
    ("match seed negative", lambda: ChangshaMatch(seed=-3), ValueError, "seed=-3 out of range"),
    ("env reset seed negative", lambda: raw_env().reset(seed=-1), ValueError, "seed=-1 out of range"),
    ("env reset seed float", lambda: raw_env().reset(seed=0.5), TypeError, "seed must be an integer"),
    ("env reset seed str", lambda: raw_env().reset(seed="0"), TypeError, "seed must be an integer"),
    ("game dealer bool", lambda: ChangshaGame(seed=1, dealer=True), TypeError, "dealer must be an integer"),
    ("game config dict", lambda: ChangshaGame({"bird_count": 1}), TypeError,
     "config must be a RuleConfig from cnmahjong.envs.changsha.rules"),
    # ---- rule options
    ("bird_count bool", lambda: RuleConfig(bird_count=True), ValueError, "'bird_count'"),
    ("bird_count float", lambda: RuleConfig(bird_count=2.0), ValueError, "'bird_count'"),
    ("kong_draw_count float", lambda: RuleConfig(kong_draw_count=1.0), ValueError, "'kong_draw_count'"),
    ("zimo_plus_one int", lambda: RuleConfig(zimo_plus_one=1), ValueError, "'zimo_plus_one'"),
    ("cap_he bool", lambda: RuleConfig(cap_he=True), ValueError, "'cap_he'"),
    ("opening_wins None", lambda: RuleConfig(opening_wins=None), ValueError, "opening_wins=None"),
    ("opening_wins int", lambda: RuleConfig(opening_wins=5), ValueError, "opening_wins=5"),
    ("opening_wins str", lambda: RuleConfig(opening_wins="SIXI"), ValueError, "opening_wins='SIXI'"),
    ("two presets", lambda: RuleConfig.preset("mainstream", preset="classic"), ValueError, "second preset"),
    ("options not a mapping", lambda: RuleConfig.from_dict(5), TypeError, "rule options must be a mapping"),
    ("unknown option", lambda: RuleConfig.from_dict({"birds": 2}), ValueError, "unknown rule options \\['birds'\\]"),
    # ---- env options
    ("hands_per_episode bool", lambda: raw_env(hands_per_episode=True), TypeError, "hands_per_episode"),
    ("hands_per_episode zero", lambda: raw_env(hands_per_episode=0), ValueError, "hands_per_episode=0"),
    ("auto_single_actions str", lambda: raw_env(auto_single_actions="no"), TypeError, "auto_single_actions"),
    ("defer_early_payments int", lambda: raw_env(defer_early_payments=1), TypeError, "defer_early_payments"),
    ("result_in_infos str", lambda: raw_env(result_in_infos="yes"), TypeError, "result_in_infos"),
    ("reward_scale nan", lambda: raw_env(reward_scale=math.nan), ValueError, "reward_scale"),
    ("reward_scale inf", lambda: raw_env(reward_scale=math.inf), ValueError, "reward_scale"),
    ("reward_scale str", lambda: raw_env(reward_scale="10"), TypeError, "reward_scale"),
    ("reward_scale zero", lambda: raw_env(reward_scale=0), ValueError, "reward_scale"),
    ("rules int", lambda: raw_env(rules=3), TypeError, "rules must be a preset name"),
    ("render_mode", lambda: raw_env(render_mode="rgb"), ValueError, "render_mode"),
    ("reset options list", lambda: raw_env().reset(options=[1]), TypeError, "reset options must be a dict"),
    # ---- scenarios
    ("scenario None", lambda: raw_env().reset(options={"scenario": None}), TypeError, "scenario must be a dict"),
    ("scenario hands None", _scenario(hands=None), TypeError, "scenario hands must be a list"),
    ("scenario hands int", _scenario(hands=5), TypeError, "scenario hands must be a list"),
    ("scenario hands dict", _scenario(hands={0: "1m"}), TypeError, "scenario hands must be a list"),
    ("scenario hand set", _scenario(hands=[set(range(13))] + HANDS[1:]), TypeError, "hand of seat 0"),
    ("scenario wall set", _scenario(wall={1, 2}), TypeError, "scenario wall must be a list"),
    ("scenario wall None", _scenario(wall=None), TypeError, "scenario wall must be a list"),
    ("scenario wall dict", _scenario(wall={"a": 1}), TypeError, "scenario wall must be a list"),
    ("scenario wall int", _scenario(wall=5), TypeError, "scenario wall must be a list"),
    ("scenario dice float", _scenario(dice=[2.0]), TypeError, "scenario dice\\[0\\]"),
    ("scenario dice str", _scenario(dice="12"), TypeError, "scenario dice must be a list"),
    ("scenario dice seven", _scenario(dice=[7]), ValueError, "scenario dice\\[0\\]=7"),
    ("scenario missing wall", lambda: raw_env().reset(options={"scenario": {"hands": HANDS}}),
     ValueError, "'wall' required"),
    ("scenario unknown key", _scenario(walls=""), ValueError, "a scenario takes the keys"),
    ("scenario tile kind", _scenario(wall=[27]), ValueError, "no honour tiles"),
    # ---- env and wrapper steps
    ("env step before reset", lambda: raw_env().step(0), IllegalActionError, "before reset"),
    ("env step after the end", lambda: finished_env().step(0), IllegalActionError, "after the episode ended"),
    ("env float action", lambda: started_env().step(float(np.flatnonzero(started_env().observe(
        started_env().agent_selection)["action_mask"])[0])), TypeError, "action must be an integer"),
    ("env None action for a live agent", lambda: started_env().step(None), IllegalActionError, "must choose"),
    ("wrapper float action", lambda: single_agent_step(2.7), TypeError, "action must be an integer"),
    ("wrapper step before reset", lambda: SingleAgentEnv().step(0), IllegalActionError, "before reset"),
    ("wrapper seat", lambda: SingleAgentEnv(seat=1.0), ValueError, "seat must be 0..3"),
    ("wrapper opponents", lambda: SingleAgentEnv(opponents="greedy"), ValueError, "three callables"),
    ("opponent returns float", lambda: single_agent_with_opponent(1.5), TypeError, "opponent at seat"),
    ("opponent returns None", lambda: single_agent_with_opponent(None), TypeError, "opponent at seat"),
    # ---- run configs
    *[(f"config {key}={value!r}", lambda key=key, value=value, algo=algo: C.validate({"algo": algo, key: value}),
       C.ConfigError, f"for '{key}'")
      for algo, key, value in [
          ("selfplay_ppo", "gamma", 0.0), ("selfplay_ppo", "gamma", 1.5), ("selfplay_ppo", "gae_lambda", -0.1),
          ("selfplay_ppo", "gae_lambda", 1.01), ("selfplay_ppo", "learning_rate", math.nan),
          ("selfplay_ppo", "learning_rate", math.inf), ("selfplay_ppo", "learning_rate", 0.0),
          ("selfplay_ppo", "learning_rate", "fast"), ("maskable_ppo", "n_steps", 0), ("selfplay_ppo", "n_epochs", 0),
          ("selfplay_ppo", "steps_per_rollout", 0), ("selfplay_ppo", "checkpoint_every_updates", 0),
          ("maskable_ppo", "n_envs", 0), ("selfplay_ppo", "net_arch", [0]), ("selfplay_ppo", "net_arch", []),
          ("selfplay_ppo", "net_arch", ["wide"]), ("selfplay_ppo", "reward_scale", 0),
          ("selfplay_ppo", "max_minutes", 0), ("selfplay_ppo", "max_minutes", -1), ("selfplay_ppo", "seed", -1),
          ("selfplay_ppo", "seed", True), ("selfplay_ppo", "batch_size", 0), ("selfplay_ppo", "total_timesteps", 0),
          ("maskable_ppo", "opponents", ["smart"]), ("maskable_ppo", "opponents", []),
          ("maskable_ppo", "progress_bar", 1), ("selfplay_ppo", "device", "tpu"),
          ("selfplay_ppo", "clip_range", 0.0), ("selfplay_ppo", "ent_coef", -0.01),
          ("selfplay_ppo", "tables_per_worker", 0), ("selfplay_ppo", "learner_seats", 4),
          ("selfplay_ppo", "greedy_weight", -1), ("selfplay_ppo", "bc_decisions", -5),
          ("selfplay_ppo", "init_checkpoint", "missing.pt"), ("selfplay_ppo", "arch", "transformer"),
          ("rllib_ppo", "num_env_runners", -1), ("rllib_ppo", "train_batch_size", 0), ("rllib_ppo", "address", 5),
          ("tianshou_dqn", "eps_training", 1.5), ("tianshou_dqn", "n_envs", 0), ("tianshou_dqn", "n_step", 0),
      ]],
    ("config all weights zero", lambda: C.validate({"algo": "selfplay_ppo", "selfplay_weight": 0}),
     C.ConfigError, "at least one kind of hand"),
]


@pytest.mark.parametrize("call, error, fragment", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_bad_input_is_a_clear_error(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()


# ------------------------------------------------------------------ command lines
def _rejected(module, argv, capsys):
    """Run a command line that must stop with exit code 2; return what it printed on stderr."""
    import importlib

    with pytest.raises(SystemExit) as e:
        importlib.import_module(module).main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


def _evaluate(argv, capsys):
    return _rejected("cnmahjong.training.evaluate", argv, capsys)


def test_evaluate_rejects_bad_arguments_before_playing(tmp_path, capsys):
    base = ["--policies", "random", "random", "random", "random", "--deals", "2"]
    assert "--seed must be 0 or more" in _evaluate(base + ["--seed", "-1"], capsys)
    assert "--workers must be 1 or more" in _evaluate(base + ["--workers", "0"], capsys)
    missing = tmp_path / "nope" / "out.json"
    assert f"--json {missing}: its folder" in _evaluate(base + ["--json", str(missing)], capsys)
    assert "is a folder" in _evaluate(base + ["--png", str(tmp_path)], capsys)
    assert not missing.parent.exists()


@pytest.mark.parametrize("name, content, fragment", [
    ("garbage.pt", b"not a checkpoint", "cannot be read"),
    ("garbage.zip", b"PK\x03\x04 broken", "is an SB3 .zip: loading it unpickles"),
    ("trusted.zip", b"PK\x03\x04 broken", "cannot be read as an sb3-contrib MaskablePPO model"),
    ("model.onnx", b"", "unknown checkpoint type '.onnx'"),
])
def test_evaluate_names_a_corrupt_checkpoint(tmp_path, capsys, name, content, fragment):
    path = tmp_path / name
    path.write_bytes(content)
    trust = ["--trust-zip"] if name.startswith("trusted") else []
    err = _evaluate(["--policies", f"ckpt:{path}", "random", "random", "random", "--deals", "2", *trust], capsys)
    assert str(path) in err and fragment in err


def test_evaluate_names_a_foreign_checkpoint(tmp_path, capsys):
    import torch

    path = tmp_path / "foreign.pt"
    torch.save({"weights": [1, 2, 3]}, path)
    err = _evaluate(["--policies", f"ckpt:{path}", "random", "random", "random", "--deals", "2"], capsys)
    assert str(path) in err and "not a self-play checkpoint" in err and "'state_dict'" in err


def _train(argv, capsys):
    return _rejected("cnmahjong.training.train", argv, capsys)


def test_train_rejects_bad_files_and_overrides(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("algo: [selfplay_ppo\n")
    assert "not valid YAML" in _train(["--config", str(bad)], capsys)
    assert "is not a file" in _train(["--config", str(tmp_path)], capsys)
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    assert "the config is empty" in _train(["--config", str(empty)], capsys)
    good = "configs/selfplay_ppo.yaml"
    assert "bad value 0 for 'num_workers'" in _train(
        ["--config", good, "--set", "num_workers=0"], capsys)
    assert "--set takes KEY=VALUE" in _train(["--config", good, "--set", "gamma"], capsys)
    assert "bad opponent 'smart'" in _train(
        ["--config", "configs/ppo_maskable.yaml", "--set", "opponents=[random, smart]"], capsys)


def test_set_parses_numbers_yaml_leaves_as_text():
    assert C.parse_override("learning_rate=3e-4") == ("learning_rate", 3e-4)
    assert C.parse_override("net_arch=[64, 64]") == ("net_arch", [64, 64])
    assert C.parse_override("run_dir=runs/x") == ("run_dir", "runs/x")
    cfg = C.validate({"algo": "selfplay_ppo", "learning_rate": C.parse_override("learning_rate=3e-4")[1]})
    assert cfg["learning_rate"] == 3e-4


def test_cuda_without_cuda_is_an_error():
    import torch

    if torch.cuda.is_available():
        assert C.validate({"algo": "selfplay_ppo", "device": "cuda"})["device"] == "cuda"
    else:
        with pytest.raises(C.ConfigError, match="no CUDA device"):
            C.validate({"algo": "selfplay_ppo", "device": "cuda"})


# ------------------------------------------------------------------ nothing changes
def test_numpy_integers_are_accepted_and_stored_as_int():
    g = ChangshaGame(seed=np.int64(9), dealer=np.int8(2))
    assert g.events[0]["seed"] == 9 and type(g.events[0]["seed"]) is int
    assert g.events[0]["hands"] == ChangshaGame(seed=9, dealer=2).events[0]["hands"]
    seat = g.to_act[0]
    action = g.legal_actions(seat)[0]
    g.step(np.int32(seat), np.int64(action))
    act = [e for e in g.events if e["type"] == "act"][0]
    assert type(act["seat"]) is int and type(act["action"]) is int
    e = raw_env()
    e.reset(seed=np.uint32(4))
    first = e.observe(e.agent_selection)["observation"].copy()
    e.reset(seed=4)
    assert np.array_equal(first, e.observe(e.agent_selection)["observation"])


def _bad_steps(g: ChangshaGame, rng: random.Random):
    """Rejected decisions of every kind for the current state."""
    seats = g.to_act
    idle = [s for s in range(4) if s not in seats]
    seat = seats[0]
    illegal = [a for a in range(A.NUM_ACTIONS) if a not in g.legal_actions(seat)]
    legal = g.legal_actions(seat)[0]
    out = [(seat, rng.choice(illegal)), (seat, -1), (seat, A.NUM_ACTIONS), (float(seat), legal),
           (seat, float(legal)), (seat, True), (str(seat), legal), (None, legal), (seat, None), (9, legal)]
    if idle:
        out.append((rng.choice(idle), legal))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_a_rejected_step_leaves_state_and_events_unchanged(seed):
    rng = random.Random(seed)
    g = ChangshaGame(RuleConfig.preset("classic" if seed % 2 else "mainstream"), seed=seed)
    tried = 0
    while not g.done:
        if rng.random() < 0.3:
            before = pickle.dumps(g)
            events = [dict(e) for e in g.events]
            for seat, action in _bad_steps(g, rng):
                with pytest.raises((IllegalActionError, TypeError)):
                    g.step(seat, action)
                tried += 1
            assert pickle.dumps(g) == before and g.events == events
        seat = g.to_act[0]
        g.step(seat, choose(rng, g.legal_actions(seat), g, seat))
    with pytest.raises(IllegalActionError, match="the hand is over"):
        g.step(0, A.PASS)
    assert tried > 20


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_a_step_outside_the_pending_actions_is_refused_whatever_the_integer(ruleset):
    """``TableGame.step`` checks the action against the seat's pending ones (compiled: as C
    integers): one just outside them, a negative one and ones far past any C integer are each an
    ``IllegalActionError`` naming what is legal, and the game is as it was; every pending one is taken."""
    import copy

    from cnmahjong.envs.core.engine import IllegalActionError as EngineIllegal
    from cnmahjong.envs.core.ruleset import get_ruleset

    rs = get_ruleset(ruleset)
    game = rs.new_hand(rs.as_config(rs.default_rules), np.random.default_rng(2))
    game.play_forced()
    seat, legal = next(iter(game.pending.items()))
    outside = next(a for a in range(rs.num_actions) if a not in legal)
    before = (copy.deepcopy(game.pending), [bytes(h) for h in game.hands], len(game.events))
    for bad in (outside, -1, -(2**62), 2**62, 2**63, 10**30, -(10**30)):
        with pytest.raises(EngineIllegal, match="legal"):
            game.step(seat, bad)
        assert (game.pending, [bytes(h) for h in game.hands], len(game.events)) == before
    for a in legal:  # each pending action is accepted (on a copy of the game)
        other = game.clone()
        other.step(seat, a)

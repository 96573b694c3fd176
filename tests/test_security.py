"""Hostile input from outside the engines (issue "Trust nothing that comes from outside").

Each row is one hostile input. Every test asserts the error type, that the message names the
file or field that was wrong, and that nothing changed: no code ran (a marker file never
appears), no file was written or overwritten, no table was stepped (the games pickle to the
same bytes). The play server's rows live in ``tests/test_play_security.py``.
"""

from __future__ import annotations

import base64
import copy
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch

from cnmahjong.agents import PRETRAINED, make_policy
from cnmahjong.agents.torch_policy import ActorCritic, TorchPolicy, load_actor_critic, save_actor_critic
from cnmahjong.envs.changsha.game import ChangshaGame
from cnmahjong.envs.changsha.patterns import WinContext
from cnmahjong.envs.hangzhou.game import HangzhouGame
from cnmahjong.envs.hangzhou.patterns import best_reading
from cnmahjong.envs.hangzhou.scoring import exponent, settle
from cnmahjong.envs.vector import VectorEnv
from cnmahjong.training.evaluate import main as evaluate_main
from cnmahjong.training.viewer.replay import main as replay_main

torch.set_num_threads(1)


class Marker:
    """A pickle that writes a file when it is loaded: what a hostile checkpoint would do."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (Path.write_text, (Path(self.path), "code ran"))


def played(cls, seed: int):
    g = cls(seed=seed)
    rng = np.random.default_rng(seed)
    while not g.done:
        s = g.to_act[0]
        g.step(s, int(rng.choice(g.legal_actions(s))))
    return g


# ------------------------------------------------------------------ §1 checkpoints never run code
def _hostile_checkpoint(path: Path, marker: Path) -> None:
    """A real self-play checkpoint with one extra field whose unpickling writes ``marker``."""
    net = ActorCritic([8])
    torch.save({"state_dict": net.state_dict(), "net_arch": [8], "arch": "mlp", "encoder": "cs-v0",
                "payload": Marker(marker)}, path)


def _bare_pickle(path: Path, marker: Path) -> None:
    path.write_bytes(pickle.dumps(Marker(marker)))


@pytest.mark.parametrize("make", [_hostile_checkpoint, _bare_pickle], ids=["torch.save", "bare pickle"])
@pytest.mark.parametrize("load", [
    lambda p: load_actor_critic(str(p)),
    lambda p: TorchPolicy(p),
    lambda p: make_policy(f"ckpt:{p}"),
], ids=["load_actor_critic", "TorchPolicy", "make_policy"])
def test_a_checkpoint_that_would_run_code_is_refused(tmp_path, make, load):
    path, marker = tmp_path / "evil.pt", tmp_path / "marker.txt"
    make(path, marker)
    with pytest.raises(ValueError, match="refused") as err:
        load(path)
    assert str(path) in str(err.value) and "weights" in str(err.value)
    assert not marker.exists()


def test_the_arena_refuses_a_hostile_checkpoint_before_any_deal(tmp_path, capsys):
    path, marker = tmp_path / "evil.pt", tmp_path / "marker.txt"
    _hostile_checkpoint(path, marker)
    out = tmp_path / "report.json"
    with pytest.raises(SystemExit) as exit_:
        evaluate_main(["--policies", f"ckpt:{path}", "random", "random", "random", "--deals", "2",
                       "--json", str(out), "--workers", "1"])
    assert exit_.value.code == 2
    assert str(path) in capsys.readouterr().err
    assert not marker.exists() and not out.exists()


def _hostile_sb3_zip(path: Path, marker: Path) -> None:
    """An SB3-style archive whose ``data`` holds a serialized object, as SB3 stores its classes."""
    payload = base64.b64encode(pickle.dumps(Marker(marker))).decode()
    data = {"policy_class": {":type:": "<class 'type'>", ":serialized:": payload}}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
        z.writestr("_stable_baselines3_version", "2.0.0")


def test_an_sb3_zip_is_loaded_only_when_trusted(tmp_path):
    path, marker = tmp_path / "model.zip", tmp_path / "marker.txt"
    _hostile_sb3_zip(path, marker)
    with pytest.raises(ValueError, match="trust_pickles=True") as err:
        make_policy(f"ckpt:{path}")
    assert str(path) in str(err.value) and not marker.exists()
    with pytest.raises(TypeError, match="trust_pickles must be True or False"):
        TorchPolicy(path, trust_pickles="yes")
    assert not marker.exists()
    # trusted, SB3 unpickles it: this is the code the gate keeps from running
    with pytest.raises(ValueError, match="cannot be read as an sb3-contrib"):
        make_policy(f"ckpt:{path}", trust_pickles=True)
    assert marker.exists()


# ------------------------------------------------------------------ §5 checkpoints and policies
def _saved(tmp_path: Path, **fields) -> Path:
    net = ActorCritic([8])
    ckpt = {"state_dict": net.state_dict(), "net_arch": [8], "arch": "mlp", "encoder": "cs-v0", **fields}
    path = tmp_path / "model.pt"
    torch.save(ckpt, path)
    return path


@pytest.mark.parametrize("fields, named", [
    ({"net_arch": [10**9]}, "'net_arch'"),
    ({"net_arch": [0]}, "'net_arch'"),
    ({"net_arch": [-4]}, "'net_arch'"),
    ({"net_arch": []}, "'net_arch'"),
    ({"net_arch": [8] * 40}, "'net_arch'"),
    ({"net_arch": "256"}, "'net_arch'"),
    ({"net_arch": [True]}, "'net_arch'"),
    ({"net_arch": [8.0]}, "'net_arch'"),
    ({"arch": "transformer"}, "'arch'"),
    ({"arch": 3}, "'arch'"),
    ({"encoder": "cs-v9"}, "'encoder'"),
    ({"encoder": ["cs-v0"]}, "'encoder'"),
    ({"state_dict": [1, 2]}, "'state_dict'"),
    ({"state_dict": {"body.1.weight": "x"}}, "state_dict['body.1.weight']"),
])
def test_a_checkpoint_field_out_of_range_is_named(tmp_path, fields, named):
    path = _saved(tmp_path, **fields)
    with pytest.raises(ValueError) as err:
        load_actor_critic(str(path))
    assert str(path) in str(err.value) and named in str(err.value)


def test_nan_weights_are_an_error_naming_the_file(tmp_path):
    net = ActorCritic([8])
    with torch.no_grad():
        net.policy.bias[3] = float("nan")
    path = save_actor_critic(net, tmp_path / "nan.pt")
    with pytest.raises(ValueError, match="NaN or infinite") as err:
        TorchPolicy(path)
    assert str(path) in str(err.value) and "policy.bias" in str(err.value)


def test_no_weights_make_a_policy_pick_a_masked_action(tmp_path):
    """Logits of -1e12 on every legal action and +1e12 on every other: still legal moves."""
    net = ActorCritic([8])
    with torch.no_grad():
        net.policy.weight.zero_()
        net.policy.bias.fill_(1e12)
    path = save_actor_critic(net, tmp_path / "adversarial.pt")
    policy = TorchPolicy(path)
    rng = np.random.default_rng(0)
    for seed in range(3):
        g = ChangshaGame(seed=seed)
        from cnmahjong.envs.changsha.observation import encode

        while not g.done:
            s = g.to_act[0]
            mask = np.array(g.legal_mask(s), dtype=np.int8)
            with torch.no_grad():  # the legal actions are the worst the weights can make them
                net.policy.bias.copy_(torch.where(torch.from_numpy(mask) == 1, -1e12, 1e12))
            policy._net.load_state_dict(net.state_dict())
            a = policy(encode(g, s), mask)
            assert a in g.legal_actions(s)
            b = policy.act_batch(encode(g, s)[None], mask[None])[0]
            assert b in g.legal_actions(s)
            g.step(s, a if rng.random() < 0.5 else int(rng.choice(g.legal_actions(s))))


def test_a_policy_with_no_legal_logit_raises_instead_of_guessing(tmp_path):
    policy = TorchPolicy(save_actor_critic(ActorCritic([8]), tmp_path / "m.pt"))
    g = ChangshaGame(seed=1)
    from cnmahjong.envs.changsha.observation import encode

    obs = encode(g, g.to_act[0])
    mask = np.frombuffer(bytes(g.legal_mask(g.to_act[0])), dtype=np.int8)
    with pytest.raises(ValueError, match="no finite logit"):
        policy.act_batch(np.full_like(obs, np.nan)[None], mask[None].copy())


@pytest.mark.parametrize("load", [
    lambda: make_policy("pretrained-changsha", ruleset="hangzhou"),
    lambda: TorchPolicy(PRETRAINED, ruleset="hangzhou"),
], ids=["make_policy", "TorchPolicy"])
def test_a_checkpoint_of_the_other_ruleset_is_refused(load):
    with pytest.raises(ValueError) as err:
        load()
    msg = str(err.value)
    assert str(PRETRAINED) in msg and "'cs-v0'" in msg and "'hz-v0'" in msg


def test_the_arena_refuses_the_other_rulesets_checkpoint_before_any_deal(tmp_path, capsys):
    out = tmp_path / "report.json"
    with pytest.raises(SystemExit):
        evaluate_main(["--policies", "pretrained-changsha", "greedy", "greedy", "greedy", "--rules", "hangzhou",
                       "--deals", "2", "--workers", "1", "--json", str(out)])
    err = capsys.readouterr().err
    assert str(PRETRAINED) in err and "'cs-v0'" in err and "'hz-v0'" in err
    assert not out.exists()


# ------------------------------------------------------------------ §3 VectorEnv and caller-owned buffers
def _snapshot(venv: VectorEnv) -> list[bytes]:
    return [pickle.dumps(g) for g in venv.games]


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou"])
@pytest.mark.parametrize("tamper", ["all legal", "all illegal", "garbage"])
def test_legality_is_checked_against_the_engine_not_the_callers_mask(ruleset, tamper):
    venv = VectorEnv(num_tables=8, ruleset=ruleset, seed=3)
    batch = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):  # into the hand, where windows and claims appear
        batch = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in batch.mask]))
    legal = [np.flatnonzero(m).tolist() for m in batch.mask]
    illegal_row = next(i for i, m in enumerate(batch.mask) if not m.all())
    view = torch.from_numpy(batch.mask)  # the caller's tensor over the batch's memory
    if tamper == "all legal":
        view.fill_(1)
    elif tamper == "all illegal":
        view.fill_(0)
    else:
        view.copy_(torch.from_numpy(rng.integers(-3, 3, size=batch.mask.shape).astype(np.int8)))
    before = _snapshot(venv)
    actions = np.array([row[0] for row in legal])
    actions[illegal_row] = next(a for a in range(venv.ruleset.num_actions) if a not in legal[illegal_row])
    with pytest.raises(ValueError, match=f"row {illegal_row} .* is not legal.*No table was changed"):
        venv.step(actions)
    assert _snapshot(venv) == before
    actions[illegal_row] = legal[illegal_row][0]
    batch = venv.step(actions)  # the env is not stuck: the legal answer plays
    assert len(batch) > 0


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_a_batchs_table_and_seat_arrays_written_by_the_caller_change_no_step(ruleset):
    """``batch.table`` and ``batch.seat`` are views of the env's buffers: the step answers the rows
    it made (its private copy of each row's table and seat), whatever the caller wrote there."""
    envs = [VectorEnv(num_tables=6, ruleset=ruleset, seed=5) for _ in range(2)]
    batches = [v.reset() for v in envs]
    rng = np.random.default_rng(1)
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in batches[0].mask])
        batches[1].table[:] = batches[1].table[::-1].copy()  # the caller's writes
        batches[1].seat[:] = (batches[1].seat + 1) % 4
        batches = [v.step(actions) for v in envs]
        assert np.array_equal(batches[0].table, batches[1].table)
        assert np.array_equal(batches[0].seat, batches[1].seat)
    assert [g.events for g in envs[0].games] == [g.events for g in envs[1].games]


@pytest.mark.parametrize("answer, fragment", [
    (lambda t, g: "a game", "returned str: allowed a ChangshaGame or None"),
    (lambda t, g: HangzhouGame(seed=t), "returned HangzhouGame: allowed a ChangshaGame or None"),
    (lambda t, g: g[0], "returned the game object already played at table 0"),
])
def test_hands_must_give_each_table_its_own_game(answer, fragment):
    made: list = []

    def hands(t):
        if not made:
            made.append(ChangshaGame(seed=0))
            return made[0]
        return answer(t, made)

    with pytest.raises(ValueError, match=fragment) as err:
        VectorEnv(num_tables=3, hands=hands).reset()
    assert "hands(1)" in str(err.value)


def test_a_bad_hands_answer_mid_run_leaves_an_env_that_asks_for_reset():
    calls = {"n": 0}

    def hands(t):
        calls["n"] += 1
        return ChangshaGame(seed=calls["n"]) if calls["n"] <= 2 else "garbage"

    venv = VectorEnv(num_tables=2, hands=hands)
    batch = venv.reset()
    rng = np.random.default_rng(1)
    with pytest.raises(ValueError, match="needs reset"):
        for _ in range(5000):
            batch = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in batch.mask]))
    with pytest.raises(RuntimeError, match="before reset"):
        venv.step(np.zeros(len(batch), dtype=np.int64))


# ------------------------------------------------------------------ §4 the replay CLI and viewer
def _replay(tmp_path: Path, data, capsys, out: Path | None = None) -> tuple[int, str, Path]:
    src = tmp_path / "events.json"
    src.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    out = out or tmp_path / "hand.html"
    with pytest.raises(SystemExit) as exit_:
        replay_main([str(src), "-o", str(out)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return exit_.value.code, err, out


def test_the_replay_never_overwrites_its_input(tmp_path, capsys):
    events = played(ChangshaGame, 2).events
    src = tmp_path / "events.json"
    code, err, _ = _replay(tmp_path, events, capsys, out=src)
    assert code == 2 and "is the events file itself" in err
    assert json.loads(src.read_text()) == events


def _first_act(events) -> int:
    return next(i for i, e in enumerate(events) if e["type"] == "act")


@pytest.mark.parametrize("top, fragment", [
    ("NaN", "probability nan"),
    ("Infinity", "probability inf"),
    ([[0, -0.5]], "probability -0.5"),
    ([[0, 1.5]], "probability 1.5"),
    ([[0, True]], "probability True"),
    ([["3", 0.5]], "action '3'"),
    ([[10**6, 0.5]], "action 1000000"),
    ([[True, 0.5]], "action True"),
    ([[0.5, 0.5]], "action 0.5"),
    ([[1]], "each top entry is [action, probability]"),
    ({"a": 1}, "expected {'top'"),
])
def test_annotations_are_validated(tmp_path, capsys, top, fragment):
    events = played(ChangshaGame, 2).events
    i = _first_act(events)
    if top in ("NaN", "Infinity"):  # what Python's json writes for float('nan') / float('inf')
        text = json.dumps({"events": events, "annotations": {str(i): {"top": [[0, float(top.lower()[:3])]]}}})
        code, err, out = _replay(tmp_path, text, capsys)
    else:
        code, err, out = _replay(tmp_path, {"events": events, "annotations": {str(i): {"top": top}}}, capsys)
    assert code == 2 and f"annotation {i}" in err and fragment in err
    assert not out.exists()


@pytest.mark.parametrize("key", ["x", "-1", "99999999"])
def test_annotation_keys_are_event_indices(tmp_path, capsys, key):
    events = played(ChangshaGame, 2).events
    code, err, out = _replay(tmp_path, {"events": events, "annotations": {key: {"top": []}}}, capsys)
    assert code == 2 and "annotation" in err and not out.exists()


@pytest.mark.parametrize("cls", [ChangshaGame, HangzhouGame])
def test_a_log_cut_at_an_event_boundary_is_refused_as_truncated(tmp_path, capsys, cls):
    events = played(cls, 4).events
    cut = [i for i, e in enumerate(events) if e["type"] == "act"][6]
    code, err, out = _replay(tmp_path, events[:cut], capsys)
    assert code == 2 and "truncated" in err and f"after event {cut - 1}" in err
    assert not out.exists()


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"events": ' + "[" * 50_000 + "]" * 50_000 + "}",
                                  "[" * 100_000])
def test_pathological_json_is_a_clear_error(tmp_path, capsys, text):
    code, err, out = _replay(tmp_path, text, capsys)
    assert code == 2 and "events.json" in err and not out.exists()


# ------------------------------------------------------------------ §6 small API gaps
@pytest.mark.parametrize("verify", ["yes", 1, 0, None])
def test_replay_verify_is_a_bool(verify):
    events = played(ChangshaGame, 1).events
    with pytest.raises(TypeError, match="verify must be True or False"):
        ChangshaGame.replay(events, verify=verify)


@pytest.mark.parametrize("cls", [ChangshaGame, HangzhouGame])
def test_copy_copy_of_a_game_is_a_real_copy(cls):
    g = cls(seed=5)
    c = copy.copy(g)
    before = pickle.dumps(g)
    rng = np.random.default_rng(0)
    for _ in range(20):
        if c.done:
            break
        s = c.to_act[0]
        c.step(s, int(rng.choice(c.legal_actions(s))))
    assert pickle.dumps(g) == before  # stepping the copy left the original as it was


@pytest.mark.parametrize("call", [
    lambda: exponent(baotou="yes"),
    lambda: exponent(baotou=1),
    lambda: exponent(qidui=1),
    lambda: exponent(qidui=True, qing="no"),
    lambda: settle(1, 0, 1, 1, liability=1),
    lambda: best_reading("123456789m1122p5m", indicator=27, self_drawn=0),
    lambda: WinContext(self_drawn=1),
    lambda: WinContext(kong_draw=True, kong_draw_wins=True),
], ids=["exponent baotou str", "exponent baotou 1", "qidui 1", "qing str", "settle liability", "best_reading",
        "WinContext self_drawn", "WinContext kong_draw_wins"])
def test_bools_are_bools_everywhere(call):
    with pytest.raises(TypeError, match="must be (True or False|an integer, got the bool)"):
        call()

"""The self-play trainer's config as hostile input (issue 36, findings 5 and 6): every key that
names something outside the config (a Ray head, a checkpoint, a folder, a node address) is
checked by the config check itself, so a bad one stops ``cnmahjong-train`` with exit 2 naming
the key before the run folder exists; a rollout worker that fails ends the run with its own error."""

from __future__ import annotations

import contextlib
import os
import pickle
import re
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import torch
import yaml

from cnmahjong.envs.integrations import networks
from cnmahjong.training import config as C
from cnmahjong.training.rollout_backends import ProcessWorkers
from cnmahjong.training.selfplay_ppo import ActorCritic, save_actor_critic
from cnmahjong.training.train import main as train_main

LOOPBACK = "127.0.0.1"
BASE = {"algo": "selfplay_ppo", "rules": "mainstream"}  # Changsha: the shipped Hangzhou agent is of other rules


def refused_by_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], **keys) -> str:
    """Run ``cnmahjong-train`` on a config with ``keys``; it must exit 2 and make no run folder.
    Returns what it printed on stderr."""
    run_dir = tmp_path / "run"
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump({**BASE, "run_dir": str(run_dir), **keys}), encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        train_main(["--config", str(cfg)])
    assert e.value.code == 2
    assert not run_dir.exists()
    return capsys.readouterr().err


# ------------------------------------------------------------------ finding 5: address
def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def silent_server() -> Iterator[int]:
    """A plain TCP server on 127.0.0.1 that accepts connections and never answers (not Ray)."""
    srv = socket.create_server((LOOPBACK, 0))
    held: list[socket.socket] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            while True:
                held.append(srv.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield srv.getsockname()[1]
    finally:
        srv.close()
        for c in held:
            c.close()


@pytest.mark.parametrize("listener", ["nothing", "not ray"])
def test_an_address_where_no_ray_head_answers_fails_within_seconds(listener, tmp_path, capsys):
    """Ray's own connect retries for ~14 minutes; the config check asks once, with a deadline."""
    with contextlib.ExitStack() as stack:
        port = free_port() if listener == "nothing" else stack.enter_context(silent_server())
        address = f"{LOOPBACK}:{port}"
        t0 = time.monotonic()
        err = refused_by_cli(tmp_path, capsys, backend="ray", address=address)
        seconds = time.monotonic() - t0
    assert "for 'address'" in err and address in err
    assert ("nothing answers" if listener == "nothing" else "does not answer as a Ray head") in err
    assert seconds < 10


@pytest.mark.parametrize("address", [
    "head:６３７９", "１０.0.0.5:6379", "ray://head:10001", "http://head:6379", "head:6379/x", "user@head:6379",
    "head:0", "head:65536", "head:", ":6379", "head", "::1:6379", "[head]:6379", "999.1.1.1:6379", "head :6379",
])
def test_address_is_local_auto_or_an_ascii_host_and_port(address):
    with pytest.raises(C.ConfigError, match=re.escape(f"bad value {address!r} for 'address'")):
        C.validate({**BASE, "backend": "ray", "address": address})


@pytest.mark.parametrize("address", ["auto", "10.0.0.5:6379", "head.example.com:6379", "[::1]:6379", "h-1:1"])
def test_well_formed_addresses_pass_the_syntax_check(address):
    C.ray_address("address", address)  # no error (whether a head answers is the check above)


@pytest.mark.parametrize("ip", ["localhost", "head", "１２７.0.0.1", "0.0.0.0", "::", "224.0.0.1", "10.0.0.300",
                                "127.0.0.1:6379", "http://127.0.0.1", ""])
def test_node_ip_address_is_an_ip_literal(ip):
    with pytest.raises(C.ConfigError, match="for 'node_ip_address': an IP address literal"):
        C.validate({**BASE, "backend": "ray", "node_ip_address": ip})


@pytest.mark.parametrize("ip", ["127.0.0.1", "10.0.0.5", "::1"])
def test_node_ip_address_takes_ipv4_and_ipv6(ip):
    assert C.validate({**BASE, "backend": "ray", "node_ip_address": ip})["node_ip_address"] == ip


# ------------------------------------------------------------------ finding 6: checkpoint keys
class RunsCode:
    """Unpickling this runs code: it would write ``marker``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (exec, (f"open({str(self.marker)!r}, 'w').write('ran')",))


def hostile_file(kind: str, tmp_path: Path) -> tuple[str, str]:
    """A checkpoint key's value of ``kind`` and a fragment of the refusal expected."""
    path = tmp_path / f"{kind.replace(' ', '_')}.pt"
    if kind == "code":
        torch.save({"state_dict": {}, "net_arch": [4], "encoder": "cs-v0", "hook": RunsCode(tmp_path / "ran")}, path)
        return str(path), "cannot be read as weights only"
    if kind == "bare pickle":
        path.write_bytes(pickle.dumps({"state_dict": {}, "net_arch": [4], "encoder": "cs-v0"}))
        return str(path), "cannot be read"
    if kind == "random bytes":
        path.write_bytes(os.urandom(4096))
        return str(path), "cannot be read"
    if kind == "other rules":
        return "pretrained-hangzhou", "reads encoder 'hz-v0' \\(hangzhou\\) observations, the learner 'cs-v0'"
    if kind == "infinite weights":
        net = ActorCritic([4], encoder="cs-v0")
        save_actor_critic(net, path)
        ckpt = torch.load(path, weights_only=True)
        ckpt["state_dict"]["policy.weight"] = torch.full_like(ckpt["state_dict"]["policy.weight"], float("inf"))
        torch.save(ckpt, path)
        return str(path), "NaN or infinite weights"
    if kind == "folder":
        return str(tmp_path), "no such file"
    raise AssertionError(kind)


KINDS = ["code", "bare pickle", "random bytes", "other rules", "infinite weights", "folder"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("key", ["init_checkpoint", "opponent_checkpoints"])
def test_every_checkpoint_is_loaded_and_checked_before_the_run_folder(kind, key, tmp_path, capsys):
    """Loaded exactly as the run loads it (weights only: the code-carrying file never runs)."""
    value, fragment = hostile_file(kind, tmp_path)
    keys = {key: value} if key == "init_checkpoint" else {key: [value], "checkpoint_weight": 1.0}
    with pytest.raises(C.ConfigError, match=re.escape(f"bad value {value!r} for {key!r}: ") + f".*{fragment}"):
        C.validate({**BASE, **keys})
    err = refused_by_cli(tmp_path, capsys, **keys)
    assert f"for {key!r}" in err and "Traceback" not in err
    assert not (tmp_path / "ran").exists()


def test_a_good_checkpoint_of_the_learners_rules_passes(tmp_path):
    path = save_actor_critic(ActorCritic([8], encoder="cs-v0"), tmp_path / "good.pt")
    cfg = C.validate({**BASE, "init_checkpoint": str(path), "opponent_checkpoints": [str(path), "pretrained-changsha"],
                      "checkpoint_weight": 1.0})
    assert cfg["opponent_checkpoints"] == [str(path), "pretrained-changsha"]


@pytest.mark.parametrize("value", [[1], [None], ["ok.pt", 2.5], [["nested.pt"]], [True]])
def test_list_items_are_of_the_declared_type(value, tmp_path, capsys):
    """``opponent_checkpoints=[1]`` was an AttributeError traceback."""
    with pytest.raises(C.ConfigError, match="for 'opponent_checkpoints': expected a list of strs"):
        C.validate({**BASE, "opponent_checkpoints": value})
    assert "for 'opponent_checkpoints'" in refused_by_cli(tmp_path, capsys, opponent_checkpoints=value)
    with pytest.raises(C.ConfigError, match="for 'net_arch': expected a list of ints"):
        C.validate({**BASE, "net_arch": [64, "wide"]})


def test_net_arch_is_within_the_loaders_limits_from_their_one_home(monkeypatch, tmp_path, capsys):
    """A trainer never makes a model its own loader refuses: the config reads the loader's limits."""
    width, layers = networks.MAX_WIDTH, networks.MAX_LAYERS
    assert C.validate({**BASE, "net_arch": [width] + [1] * (layers - 1)})["net_arch"][0] == width
    for bad in ([width + 1], [8] * (layers + 1), [5000]):
        with pytest.raises(C.ConfigError, match=f"for 'net_arch': a list of 1 to {layers} .* 1..{width}"):
            C.validate({**BASE, "net_arch": bad})
    assert "for 'net_arch'" in refused_by_cli(tmp_path, capsys, net_arch=[5000])
    monkeypatch.setattr(networks, "MAX_WIDTH", 64)  # the loader tightens: the config follows
    with pytest.raises(C.ConfigError, match="1..64"):
        C.validate({**BASE, "net_arch": [65]})


@pytest.mark.parametrize("key", ["selfplay_weight", "greedy_weight", "expert_weight", "random_weight",
                                 "snapshot_weight", "checkpoint_weight"])
def test_hand_weights_are_bounded_so_their_sum_stays_finite(key, tmp_path, capsys):
    """1e308 passed and failed at the first hand (the weights' sum overflows to inf)."""
    with pytest.raises(C.ConfigError, match=f"bad value 1e\\+308 for {key!r}: allowed 0 ≤ x ≤ 1e\\+06"):
        C.validate({**BASE, key: 1e308})
    assert f"for {key!r}" in refused_by_cli(tmp_path, capsys, **{key: 1e308})
    extra = {"opponent_checkpoints": ["pretrained-changsha"]} if key == "checkpoint_weight" else {}
    assert C.validate({**BASE, key: 1e6, **extra})[key] == 1e6


@pytest.mark.parametrize("where", ["a file", "below a file"])
def test_run_dir_on_a_file_is_refused(where, tmp_path, capsys):
    blocker = tmp_path / "taken"
    blocker.write_text("mine", encoding="utf-8")
    run_dir = blocker if where == "a file" else blocker / "run"
    with pytest.raises(C.ConfigError, match=re.escape(f"bad value {str(run_dir)!r} for 'run_dir': ") + ".*is a file"):
        C.validate({**BASE, "run_dir": str(run_dir)})
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump({**BASE, "run_dir": str(run_dir)}), encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        train_main(["--config", str(cfg)])
    assert e.value.code == 2 and "for 'run_dir'" in capsys.readouterr().err
    assert blocker.read_text(encoding="utf-8") == "mine"


# ------------------------------------------------------------------ a worker that fails
class FailsAtStart:
    def __init__(self) -> None:
        raise ValueError("no such table 42")


class Fails:
    """A worker whose ``run`` fails as ``how`` says."""

    def __init__(self, how: str) -> None:
        self.how = how

    def run(self, cmd, steps, weights, snapshots):
        if self.how == "raises":
            raise KeyError("rollout 7")
        if self.how == "exits":
            os._exit(3)
        os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize("factory, fargs, message", [
    (FailsAtStart, (), r"rollout worker 0 \(pid \d+\) failed: ValueError: no such table 42"),
    (Fails, ("raises",), r"rollout worker 0 \(pid \d+\) failed: KeyError: 'rollout 7'"),
    (Fails, ("exits",), r"rollout worker 0 \(pid \d+\) died without a word: exit code 3"),
    (Fails, ("killed",), r"rollout worker 0 \(pid \d+\) died without a word: killed by SIGKILL"),
])
def test_a_failing_worker_ends_the_run_with_its_own_error(factory, fargs, message):
    """Not a BrokenPipeError: the learner's error is the worker's exception (its traceback in a
    note) or how its process ended; closing after it raises nothing and leaves nothing running."""
    workers = ProcessWorkers(factory, [fargs])
    try:
        with pytest.raises(RuntimeError, match=message) as e:
            workers.collect("ppo", 1, None, None)
        if "failed:" in message:
            assert "the worker's traceback" in "".join(e.value.__notes__)
    finally:
        workers.close()
    assert not any(p.is_alive() for p in workers.procs)

"""The self-play trainer's rollout workers as Ray actors (``backend: ray``): the same run as the
process backend, weights shared through the object store, and a two-node cluster on 127.0.0.1
(every Ray process on loopback, as in ``test_rllib_cluster``)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from cnmahjong.agents import make_policy
from cnmahjong.training import config as C
from tests.ray_cluster import loopback_cluster
from tests.test_training import legal_play

LOOPBACK = "127.0.0.1"

TINY = {"algo": "selfplay_ppo", "rules": "mainstream", "seed": 3, "num_workers": 2, "tables_per_worker": 4,
        "steps_per_rollout": 24, "total_timesteps": 400, "net_arch": [16], "batch_size": 64, "n_epochs": 1,
        "selfplay_weight": 1.0, "greedy_weight": 1.0, "snapshot_weight": 1.0, "snapshot_every_updates": 1,
        "checkpoint_every_updates": 1000, "device": "cpu"}


def read_log(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "log.jsonl").read_text().splitlines()]


def ppo_rows(run_dir: Path) -> list[dict]:
    return [r for r in read_log(run_dir) if r["phase"] == "ppo"]


def assert_settlements_arrive(rows: list[dict]) -> None:
    """Every finished hand: each learner seat's return (the rewards it trains on, summed over the
    hand) is its settlement, to float32 rounding (settlements are whole units)."""
    assert sum(r["hands"] for r in rows) > 0
    assert max(r["settlement_mismatch"] for r in rows) < 1e-4


def alive(pid: int) -> bool:
    """A process that still runs (a zombie waiting for its parent counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_gone(pids: set[int], seconds: float = 20.0) -> set[int]:
    """The pids still running after up to ``seconds``."""
    deadline = time.time() + seconds
    while (left := {p for p in pids if alive(p)}) and time.time() < deadline:
        time.sleep(0.2)
    return left


@pytest.fixture
def loopback(monkeypatch):
    """Ray's multi-node switch at 0 for this test only, in the environment and in Ray's copy of it
    (as the trainer's ``loopback_ray`` sets them), so that Ray keeps 127.0.0.1; undone afterwards."""
    from ray._private import ray_constants

    monkeypatch.setenv(ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR, "0")
    monkeypatch.setattr(ray_constants, "ENABLE_RAY_CLUSTER", False)


@pytest.mark.parametrize("change, fragment", [
    ({"backend": "dask"}, "allowed \\['processes', 'ray'\\]"),
    ({"backend": "ray", "address": "head"}, "bad value 'head' for 'address'"),
    ({"backend": "ray", "address": "head:0"}, "bad value 'head:0' for 'address'"),
    ({"address": "auto"}, "are for 'backend: ray'"),
    ({"node_ip_address": LOOPBACK}, "are for 'backend: ray'"),
])
def test_backend_keys_are_validated(change, fragment):
    with pytest.raises(C.ConfigError, match=fragment):
        C.validate({"algo": "selfplay_ppo", **change})
    assert C.validate({"algo": "selfplay_ppo", "backend": "ray", "address": "local"})["address"] == "local"
    for address in ("auto", "10.0.0.5:6379"):  # well formed (whether a head answers there: test_trust_trainer)
        C.ray_address("address", address)


PROCESS_RUN = """
import json, sys
from cnmahjong.training.selfplay_ppo import train
final = train(json.loads(sys.argv[1]))
print("RESULT " + json.dumps({"ray": "ray" in sys.modules, "final": str(final)}))
"""


def test_process_backend_logs_its_workers_and_never_imports_ray(tmp_path):
    """The default backend, in a fresh interpreter: no Ray module loaded; the log names each
    worker's host and rate; ``device: auto`` (CUDA when present) still saves CPU tensors."""
    cfg = {**TINY, "run_dir": str(tmp_path / "run"), "device": "auto"}
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", PROCESS_RUN, json.dumps(cfg)], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(next(line for line in out.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert result["ray"] is False
    rows = ppo_rows(tmp_path / "run")
    for r in rows:
        assert r["backend"] == "processes" and len(r["workers"]) == 2
        assert {w["node"] for w in r["workers"]} == {socket.gethostname()}
        assert all(w["decisions_per_second"] > 0 for w in r["workers"])
        assert r["env_decisions_per_second"] < r["collect_decisions_per_second"]  # learning takes time too
        assert r["collect_seconds"] > 0 and r["learn_seconds"] > 0
        assert r["learner_threads"] == 1  # OMP_NUM_THREADS above: the log says what the learner had
    assert rows[-1]["decisions_per_second"] > 0  # the first rollouts may finish no hand yet
    assert_settlements_arrive(rows)
    ckpt = torch.load(result["final"], weights_only=True)  # no map_location: the tensors as saved
    assert {t.device.type for t in ckpt["state_dict"].values()} == {"cpu"}
    legal_play(make_policy(f"ckpt:{result['final']}"), seeds=1)


def test_ray_backend_gives_the_process_backends_checkpoint(tmp_path, loopback, monkeypatch):
    """Same seeds, same worker count: the same data reach the learner in the same order, so the
    checkpoints are equal tensor for tensor (imitation, greedy opponents and snapshots included).
    The weights go into Ray's object store once per rollout, shared by both actors."""
    import ray

    from cnmahjong.training.selfplay_ppo import train

    cfg = {**TINY, "bc_decisions": 60, "bc_epochs": 1}
    by_processes = train({**cfg, "run_dir": str(tmp_path / "p")})
    puts: list[type] = []
    real_put = ray.put
    monkeypatch.setattr(ray, "put", lambda value, **kw: puts.append(type(value)) or real_put(value, **kw))
    by_ray = train({**cfg, "run_dir": str(tmp_path / "r"), "backend": "ray", "address": "local"})
    assert not ray.is_initialized()  # the run stopped the Ray it started
    a = torch.load(by_processes, weights_only=True)["state_dict"]
    b = torch.load(by_ray, weights_only=True)["state_dict"]
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    p_rows, r_rows = ppo_rows(tmp_path / "p"), ppo_rows(tmp_path / "r")
    same = ("learner_decisions", "env_decisions", "hands", "settlement_selfplay", "settlement_vs_greedy",
            "policy_loss", "value_loss")
    assert [[r.get(k) for k in same] for r in p_rows] == [[r.get(k) for k in same] for r in r_rows]
    assert all(r["backend"] == "ray" and len(r["workers"]) == 2 for r in r_rows)
    assert_settlements_arrive(r_rows)
    assert puts.count(dict) == len(r_rows)  # one weights object per PPO rollout, not one per worker


@pytest.fixture
def two_nodes(loopback):
    """A head and a second node on this machine, one CPU each, every process on 127.0.0.1."""
    with loopback_cluster(2) as cluster:
        yield cluster


def node_processes(cluster) -> set[int]:
    """The processes Ray started for the cluster's nodes (GCS, raylets, ...) and all theirs (the
    raylets' worker processes)."""
    pids = {p.process.pid for node in [cluster.head_node, *cluster.worker_nodes]
            for procs in node.all_processes.values() for p in procs}
    parent = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError):
            continue
    while more := {pid for pid, ppid in parent.items() if ppid in pids and pid not in pids}:
        pids |= more
    return pids


@pytest.mark.slow
def test_one_worker_per_node_on_a_two_node_loopback_cluster(two_nodes, tmp_path):
    """``backend: ray`` joins the cluster (``address``, ``node_ip_address`` as on a real one): each
    node collects in every rollout, every hand's returns are its settlements, the checkpoint plays
    legal moves, and no actor, driver connection or node process is left afterwards."""
    import ray

    from cnmahjong.training.selfplay_ppo import train

    cluster = two_nodes
    nodes = {cluster.head_node.node_id, *(n.node_id for n in cluster.worker_nodes)}
    final = train({**TINY, "run_dir": str(tmp_path / "run"), "backend": "ray", "address": cluster.address,
                   "node_ip_address": LOOPBACK, "snapshot_weight": 0.0})
    assert not ray.is_initialized()
    rows = ppo_rows(tmp_path / "run")
    for r in rows:
        assert {w["node"] for w in r["workers"]} == nodes and len(nodes) == 2  # one worker on each node
        assert all(w["decisions"] > 0 for w in r["workers"])
    assert_settlements_arrive(rows)
    legal_play(make_policy(f"ckpt:{final}"), seeds=2)
    actors = {w["pid"] for r in rows for w in r["workers"]}
    assert len(actors) == 2 and not wait_gone(actors)  # the trainer killed its actors
    assert [n["NodeManagerAddress"] for n in cluster.global_state.node_table()] == [LOOPBACK, LOOPBACK]
    started = node_processes(cluster)
    cluster.shutdown()
    assert not wait_gone(started)

"""RLlib over a Ray cluster of two nodes on this machine, every Ray process on 127.0.0.1; and the
RLlib page's snippet (docs/libraries/rllib.md), run as written."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from ray._private import ray_constants  # noqa: E402

from tests.ray_cluster import loopback_cluster  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK = "127.0.0.1"


def rllib():
    """The integration (imported by the tests that use it: it brings RLlib and torch)."""
    from cnmahjong.envs.integrations import rllib

    return rllib


def snippet() -> str:
    """The python block of the integration's docstring (the snippet of docs/libraries/rllib.md)."""
    (block,) = re.findall(r"```python\n(.*?)```", rllib().__doc__, re.S)
    return block


def node_addresses() -> list[str]:
    return [n["NodeManagerAddress"] for n in ray.nodes() if n["Alive"]]


CHECK = """
import json as _json
print("CHECK " + _json.dumps({"nodes": [n["NodeManagerAddress"] for n in ray.nodes()],
                              "runners": result["env_runners"]}, default=float))
"""


@pytest.mark.slow
def test_docs_snippet_trains_on_loopback_and_keeps_every_settlement(tmp_path):
    """The snippet exactly as written (in a fresh interpreter, as a user runs it), then a check of what it left."""
    env = dict(os.environ)
    env.pop(ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR, None)  # loopback_ray() in the snippet does it
    out = subprocess.run([sys.executable, "-c", snippet() + CHECK], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-4000:]
    lines = out.stdout.splitlines()
    check = json.loads(next(line for line in lines if line.startswith("CHECK "))[len("CHECK "):])
    assert check["nodes"] == [LOOPBACK]
    assert float(lines[0]) == 0.0  # the snippet's own print: settlement_mismatch
    assert check["runners"]["settlement_mismatch"] == 0.0 and check["runners"]["num_episodes"] > 0
    assert (tmp_path / "rllib_model.pt").is_file()


def test_the_docs_page_shows_the_snippet_the_test_runs():
    page = (ROOT / "docs/libraries/rllib.md").read_text(encoding="utf-8")
    blocks = [textwrap.dedent(body) for _, body in re.findall(r"^( *)```python\n(.*?)^\1```", page, re.S | re.M)]
    assert snippet() in blocks


@pytest.fixture(scope="module")
def two_nodes():
    """A head and a second node on this machine, one CPU each, both on 127.0.0.1 (with
    ``loopback_ray()``, undone afterwards: the switch and Ray's copy of it)."""

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR, "0")
        mp.setattr(ray_constants, "ENABLE_RAY_CLUSTER", ray_constants.ENABLE_RAY_CLUSTER)
        rllib().loopback_ray()
        with loopback_cluster(2) as cluster:
            yield cluster


@pytest.fixture
def driver(two_nodes):
    """This process as the cluster's driver, on 127.0.0.1 too."""
    ray.init(address=two_nodes.address, _node_ip_address=LOOPBACK)
    try:
        yield two_nodes
    finally:
        ray.shutdown()


def cluster_addresses(cluster) -> list[str]:
    return [n["NodeManagerAddress"] for n in cluster.global_state.node_table() if n["Alive"]]


@pytest.mark.slow
def test_ppo_runners_on_two_loopback_nodes_keep_every_settlement(driver):
    import torch

    torch.set_num_threads(1)
    assert rllib().LOOPBACK == LOOPBACK and node_addresses() == [LOOPBACK, LOOPBACK]
    assert ray.get_runtime_context().get_node_id() == driver.head_node.node_id  # the driver sits on the head
    rllib().register_env()
    # one CPU per node and one per runner: each node holds exactly one runner
    algo = rllib().ppo_config(num_env_runners=2, env_config={"reward_scale": 10.0}, net_arch=[32],
                              train_batch_size_per_learner=1000, minibatch_size=500, num_epochs=1).build_algo()
    try:
        runner_nodes = algo.env_runner_group.foreach_env_runner(
            lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False)
        runner_ips = algo.env_runner_group.foreach_env_runner(
            lambda runner: ray.util.get_node_ip_address(), local_env_runner=False)
        result = algo.train()
    finally:
        algo.stop()
    nodes = {driver.head_node.node_id, *(n.node_id for n in driver.worker_nodes)}
    assert len(nodes) == 2 and sorted(runner_nodes) == sorted(nodes)  # a runner on each node
    assert runner_ips == [LOOPBACK, LOOPBACK]
    assert node_addresses() == [LOOPBACK, LOOPBACK]
    runners = result["env_runners"]
    assert runners["num_env_steps_sampled"] >= 1000 and runners["num_episodes"] > 0
    assert runners["settlement_mismatch"] < 1e-6  # every seat's return as RLlib trains on it is its settlement
    assert runners["zero_sum_error"] < 1e-6


@pytest.mark.slow
def test_the_trainer_joins_the_cluster_as_the_docs_say(two_nodes, tmp_path):
    """``cnmahjong-train --config rllib_ppo --set address=HEAD_IP:6379 --set node_ip_address=HEAD_IP``
    with the head on 127.0.0.1."""
    from cnmahjong.training.train import main

    assert not ray.is_initialized()
    final = main(["--config", "rllib_ppo", "--set", f"address={two_nodes.address}",
                  "--set", f"node_ip_address={LOOPBACK}", "--set", f"run_dir={tmp_path / 'run'}",
                  "--set", "total_timesteps=500", "--set", "train_batch_size=500", "--set", "batch_size=500",
                  "--set", "n_epochs=1", "--set", "net_arch=[32]", "--set", "checkpoint_every_iterations=1000"])
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert len(log) == 1 and log[0]["env_steps"] >= 500 and log[0]["num_episodes"] > 0
    assert log[0]["settlement_mismatch"] < 1e-6 and log[0]["zero_sum_error"] < 1e-6
    assert log[0]["node_addresses"] == [LOOPBACK, LOOPBACK]
    assert final.is_file() and not ray.is_initialized()  # the run let go of the cluster, which still stands
    assert cluster_addresses(two_nodes) == [LOOPBACK, LOOPBACK]

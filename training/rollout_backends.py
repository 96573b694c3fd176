"""Where the self-play trainer's rollout workers run: local processes (``backend: processes``, the
default) or Ray actors on any node of a cluster (``backend: ray``).

Both backends drive the same worker object, built where it runs by ``factory(*fargs)`` and asked
for one rollout at a time by ``run(cmd, steps, weights, snapshots) -> dict``; so the rollout logic
exists once (``selfplay_ppo.RolloutWorker``) and a backend only moves commands and data. Each part
a worker returns is tagged with where it ran (``node``, ``host``, ``pid``): the trainer's log shows
which node collected what.

Ray is imported only by ``RayWorkers``: the process backend never loads it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import socket
from collections.abc import Callable, Sequence
from typing import Any, Protocol

LOOPBACK = "127.0.0.1"


class Backend(Protocol):
    """What the trainer needs of a backend."""

    def collect(self, cmd: str, steps: int, weights: dict | None, snapshots: list | None) -> list[dict[str, Any]]:
        """One rollout of every worker; their parts in worker order (the same order for every backend)."""

    def close(self) -> None:
        """Stop every worker; nothing of the backend is left running."""


class WorkerHost:
    """One rollout worker where it runs, answering each command with its data and its whereabouts."""

    def __init__(self, factory: Callable[..., Any], fargs: Sequence[Any], ray_node: bool = False) -> None:
        self.worker = factory(*fargs)
        host = socket.gethostname()
        node = host
        if ray_node:  # a Ray actor: the node is Ray's node id (several nodes may share a host)
            import ray

            node = ray.get_runtime_context().get_node_id()
        self.where = {"node": node, "host": host, "pid": os.getpid()}

    def run(self, cmd: str, steps: int, weights: dict | None, snapshots: list | None) -> dict[str, Any]:
        return {**self.worker.run(cmd, steps, weights, snapshots), **self.where}


def _serve(conn: Any, factory: Callable[..., Any], fargs: Sequence[Any]) -> None:
    """A worker process: commands in, rollouts out, until ``None``."""
    host = WorkerHost(factory, fargs)
    while (msg := conn.recv()) is not None:
        conn.send(host.run(**msg))


class ProcessWorkers:
    """One spawned process per worker on this machine, each with a pipe to the learner."""

    def __init__(self, factory: Callable[..., Any], fargs: Sequence[Sequence[Any]]) -> None:
        ctx = mp.get_context("spawn")
        self.conns = []
        self.procs = []
        for f in fargs:
            parent, child = ctx.Pipe()
            p = ctx.Process(target=_serve, args=(child, factory, f), daemon=True)
            p.start()
            child.close()  # the worker holds the other end: its death ends our recv() at once
            self.conns.append(parent)
            self.procs.append(p)

    def collect(self, cmd: str, steps: int, weights: dict | None, snapshots: list | None) -> list[dict[str, Any]]:
        msg = {"cmd": cmd, "steps": steps, "weights": weights, "snapshots": snapshots}
        try:
            for c in self.conns:
                c.send(msg)
            return [c.recv() for c in self.conns]
        except (EOFError, BrokenPipeError, ConnectionResetError):
            raise RuntimeError("a rollout worker died (its traceback is printed above)") from None

    def close(self) -> None:
        for c, p in zip(self.conns, self.procs, strict=True):
            if p.is_alive():
                c.send(None)
        for p in self.procs:
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()


def loopback_ray() -> None:
    """Let a node IP of 127.0.0.1 stand (Ray 2.60 on Linux swaps in the interface address unless its
    multi-node switch is 0). The same two lines as ``cnmahjong.envs.integrations.rllib.loopback_ray``,
    whose docstring has the details; that module imports RLlib, which the trainer does not need."""
    from ray._private import ray_constants

    os.environ[ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False


def connect_ray(address: str, node_ip: str | None, cpus: int) -> bool:
    """Join a Ray cluster (``auto`` or ``HOST:PORT``) or start one on this machine (``local``: one CPU
    per worker, every process on ``node_ip``, 127.0.0.1 unless given). A Ray this process is
    already connected to is used as it is. Returns whether this call connected (and so should
    disconnect at the end)."""
    import ray

    if ray.is_initialized():
        return False
    if node_ip in (LOOPBACK, "localhost") or (address == "local" and node_ip is None):
        loopback_ray()
    if address == "local":
        ray.init(num_cpus=cpus, include_dashboard=False, _node_ip_address=node_ip or LOOPBACK)
    else:  # the driver joins the cluster through the node on this machine registered as node_ip
        ray.init(address=address, _node_ip_address=node_ip)
    return True


class RayWorkers:
    """One Ray actor per worker (one CPU each), spread over the cluster's nodes; the weights go
    into the object store once per rollout and every actor reads that one object."""

    def __init__(self, factory: Callable[..., Any], fargs: Sequence[Sequence[Any]], address: str,
                 node_ip: str | None) -> None:
        import ray

        self.own = connect_ray(address, node_ip, len(fargs))
        actor = ray.remote(num_cpus=1)(WorkerHost)
        self.actors = [actor.options(scheduling_strategy="SPREAD").remote(factory, f, True) for f in fargs]

    def collect(self, cmd: str, steps: int, weights: dict | None, snapshots: list | None) -> list[dict[str, Any]]:
        import ray

        w = None if weights is None else ray.put(weights)  # top-level refs: Ray hands the actors the values
        s = None if snapshots is None else ray.put(snapshots)
        try:
            return ray.get([a.run.remote(cmd, steps, w, s) for a in self.actors])
        except ray.exceptions.RayActorError as e:
            raise RuntimeError(f"a rollout worker died: {e}") from None

    def close(self) -> None:
        import ray

        for a in self.actors:
            ray.kill(a)
        self.actors = []
        if self.own:
            ray.shutdown()

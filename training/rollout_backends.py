"""Where the self-play trainer's rollout workers run: local processes (``backend: processes``, the
default) or Ray actors on any node of a cluster (``backend: ray``).

Both backends drive the same worker object, built where it runs by ``factory(*fargs)`` and asked
for one rollout at a time by ``run(cmd, steps, weights, snapshots) -> dict``; so the rollout logic
exists once (``selfplay_ppo.RolloutWorker``) and a backend only moves commands and data. Each part
a worker returns is tagged with where it ran (``node``, ``host``, ``pid``): the trainer's log shows
which node collected what.

A worker that fails ends the run with its own error: the process backend sends the worker's
exception back over its pipe (``WorkerFailure``) and names the exit code of one that died
without a word; Ray raises the actor's error itself.

Ray is imported only by ``RayWorkers`` and ``find_ray_head``: the process backend never loads it.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import socket
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

LOOPBACK = "127.0.0.1"
PROBE_SECONDS = 5.0
"""How long ``find_ray_head`` waits for each of a TCP connection and Ray's answer (Ray's own
connect retries for many minutes before it gives up)."""


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


@dataclass(frozen=True)
class WorkerFailure:
    """What a worker process sends instead of a rollout when it fails: its exception, as text."""

    kind: str
    message: str
    traceback: str

    def error(self, index: int, pid: int | None) -> RuntimeError:
        """The learner's error: the worker, its exception and (as a note) its traceback."""
        err = RuntimeError(f"rollout worker {index} (pid {pid}) failed: {self.kind}: {self.message}")
        err.add_note(f"the worker's traceback:\n{self.traceback.rstrip()}")
        return err


def _serve(conn: Any, factory: Callable[..., Any], fargs: Sequence[Any]) -> None:
    """A worker process: commands in, rollouts out, until ``None``; a failure is sent back
    (``WorkerFailure``) and ends the worker."""
    try:
        host = WorkerHost(factory, fargs)
        while (msg := conn.recv()) is not None:
            conn.send(host.run(**msg))
    except Exception as e:  # the learner shows it: this process's stderr may be lost
        with contextlib.suppress(OSError):
            conn.send(WorkerFailure(type(e).__name__, str(e), traceback.format_exc()))


def _exit_text(code: int | None) -> str:
    if code is None:
        return "still running but its pipe is closed"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


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
        for i, c in enumerate(self.conns):
            try:
                c.send(msg)
            except OSError:  # the worker is gone: what it sent before, or how it ended
                raise self._failure(i) from None
        return [self._answer(i) for i in range(len(self.conns))]

    def _answer(self, i: int) -> dict[str, Any]:
        try:
            reply = self.conns[i].recv()
        except (EOFError, OSError):
            raise self._failure(i) from None
        if isinstance(reply, WorkerFailure):
            raise reply.error(i, self.procs[i].pid)
        return reply

    def _failure(self, i: int) -> RuntimeError:
        """Why worker ``i`` stopped: the exception it sent, else its exit code or signal."""
        conn, proc = self.conns[i], self.procs[i]
        with contextlib.suppress(EOFError, OSError):
            while conn.poll(0):
                reply = conn.recv()
                if isinstance(reply, WorkerFailure):
                    return reply.error(i, proc.pid)
        proc.join(timeout=10)
        return RuntimeError(f"rollout worker {i} (pid {proc.pid}) died without a word: {_exit_text(proc.exitcode)}")

    def close(self) -> None:
        """Ask every worker to stop, then end any that does not; never raises over the run's own error."""
        for c, p in zip(self.conns, self.procs, strict=True):
            if p.is_alive():
                with contextlib.suppress(OSError):
                    c.send(None)
        for c, p in zip(self.conns, self.procs, strict=True):
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)
            c.close()


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
    if node_ip == LOOPBACK or (address == "local" and node_ip is None):
        loopback_ray()
    if address == "local":
        ray.init(num_cpus=cpus, include_dashboard=False, _node_ip_address=node_ip or LOOPBACK)
    else:  # the driver joins the cluster through the node on this machine registered as node_ip
        ray.init(address=address, _node_ip_address=node_ip)
    return True


def find_ray_head(address: str, seconds: float = PROBE_SECONDS) -> str:
    """The head (GCS) address that ``address`` (``auto`` or ``HOST:PORT``) names, once a Ray head
    answered there within ``seconds``; ``ConnectionError`` saying what was found otherwise
    (nothing listening, or something that is not Ray). ``auto`` is what ``ray.init`` reads:
    ``RAY_ADDRESS``, else the cluster ``ray start`` last made on this machine."""
    import grpc
    from ray._private import services
    from ray._private.grpc_utils import init_grpc_channel
    from ray.core.generated.gcs_service_pb2 import GetClusterIdRequest
    from ray.core.generated.gcs_service_pb2_grpc import NodeInfoGcsServiceStub

    head = address
    if address == "auto":
        try:
            head = services.canonicalize_bootstrap_address_or_die(address)
        except Exception as e:  # ConnectionError (none found) or ValueError (a malformed RAY_ADDRESS)
            raise ConnectionError(f"no Ray cluster found for 'auto': {e}") from None
    host, _, port = head.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except (OSError, ValueError) as e:
        raise ConnectionError(f"nothing answers at {head} ({getattr(e, 'strerror', None) or e}): "
                              f"is the cluster's head running (ray start --head)?") from None
    channel = init_grpc_channel(head)
    try:
        reply = NodeInfoGcsServiceStub(channel).GetClusterId(GetClusterIdRequest(), timeout=seconds)
    except grpc.RpcError as e:
        raise ConnectionError(f"{head} accepts connections but does not answer as a Ray head within {seconds:g} s "
                              f"({e.code().name}): is that the port `ray start --head` printed?") from None
    finally:
        channel.close()
    if not reply.cluster_id:
        raise ConnectionError(f"{head} answered without a Ray cluster id: not a Ray head")
    return head


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

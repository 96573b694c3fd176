"""An ordered map over spawned worker processes that a stop ends as a whole, never hangs.

Why not ``multiprocessing.Pool``: its ``terminate`` can wait for ever. Its result thread reads
a shared pipe whose write end the parent also holds, so a worker ended half-way through sending
a large result (the arena's chunk of hand records) leaves a message that never completes, and
``terminate``/``join`` block on it; CI saw the arena hang on SIGTERM that way. Here each worker
has a pipe of its own: the parent reads only when a whole message can begin, and a worker that
dies closes its end, so the parent gets ``EOFError`` (a clear error), not a hang.

A worker ignores Ctrl-C (the parent ends the pool) and ends its bots on SIGTERM
(``cnmahjong.training.sigterm.sigterm_ends_bots``); ``ordered_map`` ends every worker, SIGTERM
then SIGKILL, on any exception in the parent, Ctrl-C and SIGTERM included.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

from cnmahjong.training.sigterm import sigterm_ends_bots

END_GRACE = 5.0
"""Seconds a worker has to end its bots and exit after SIGTERM before it is killed."""


def _ignore(signum: int, frame: Any) -> None:
    """A worker's SIGINT handler: the parent ends the pool. A handler that does nothing, not
    ``SIG_IGN``: the programs a worker starts (bots) would inherit that."""


def _serve(conn: Connection, fn: Callable[[Any], Any], init: Callable[..., None], setup: Sequence[Any]) -> None:
    """A worker's loop: ``init(*setup)``, then ``fn`` of each item received until ``None``."""
    signal.signal(signal.SIGINT, _ignore)
    sigterm_ends_bots()
    init(*setup)
    while (item := conn.recv()) is not None:
        try:
            conn.send((True, fn(item)))
        except Exception as e:  # sent back, raised in the parent
            conn.send((False, e))


def _end(procs: Sequence[mp.process.BaseProcess]) -> None:
    """SIGTERM every worker still running, then SIGKILL what is left after ``END_GRACE``."""
    for p in procs:
        if p.exitcode is None:
            p.terminate()
    for p in procs:
        p.join(END_GRACE)
        if p.exitcode is None:
            p.kill()
            p.join()


def ordered_map(fn: Callable[[Any], Any], items: Iterable[Any], processes: int,
                init: Callable[..., None], setup: Sequence[Any] = ()) -> Iterator[Any]:
    """``map(fn, items)`` over ``processes`` spawned workers, each first running ``init(*setup)``;
    results come in the order of ``items``. ``fn`` and ``init`` must be module-level functions."""
    todo = list(enumerate(items))
    todo.reverse()
    ctx = mp.get_context("spawn")
    workers: dict[Connection, mp.process.BaseProcess] = {}
    try:
        for _ in range(min(processes, len(todo))):
            here, there = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(there, fn, init, tuple(setup)), daemon=True)
            proc.start()
            there.close()
            workers[here] = proc
        busy: dict[Connection, int] = {}

        def give(conn: Connection) -> None:
            index, item = todo.pop()
            conn.send(item)
            busy[conn] = index

        for conn in workers:
            give(conn)
        done: dict[int, Any] = {}
        following = 0
        while busy:
            for conn in wait(list(busy)):
                try:
                    ok, value = conn.recv()  # type: ignore[misc]
                except EOFError:
                    dead = workers[conn]
                    dead.join(END_GRACE)  # its pipe closed as it exited: its status follows at once
                    raise RuntimeError(f"worker process {dead.pid} died (exit status {dead.exitcode})") from None
                if not ok:
                    raise value
                done[busy.pop(conn)] = value
                if todo:
                    give(conn)
            while following in done:
                yield done.pop(following)
                following += 1
        for conn in workers:
            conn.send(None)
        for proc in workers.values():
            proc.join()
    finally:
        _end(list(workers.values()))
        for conn in workers:
            conn.close()

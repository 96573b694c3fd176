"""A bot's process and everything it starts: started in a session of its own, ended as a whole.

A bot is an outside program (``cnmahjong.agents.bot``), and programs start helpers: ``sh -c
'helper & exec my_bot'``, a bot that forks a worker and dies. Ending only the process we started
would leave those running, so ``end`` always kills the bot's whole session, even when the
process we started has already exited: its process group (``os.killpg``) and, where ``/proc``
lists processes (Linux), every process still in its session (one that made a group of its own).
A process that left the session (``setsid``) is beyond reach, as it is beyond a terminal's.

Every started bot is remembered until it is ended, so ``kill_all`` can end them all when the
process is told to stop (``SIGTERM``, see ``cnmahjong.training.sigterm``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path

_LIVE: set[subprocess.Popen] = set()
"""The bot processes started and not yet ended."""


def start(argv: Sequence[str]) -> subprocess.Popen:
    """Start ``argv`` with piped stdin and stdout (stderr thrown away) as the leader of a new session."""
    proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            bufsize=0, start_new_session=True)
    _LIVE.add(proc)
    return proc


def session_members(sid: int) -> list[int]:
    """The processes in session ``sid`` (Linux ``/proc``; empty where there is none)."""
    members = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # it exited meanwhile
            continue
        fields = stat[stat.rfind(")") + 2:].split()  # after "pid (comm) ": state ppid pgrp session ...
        if len(fields) > 3 and fields[3] == str(sid):
            members.append(int(entry.name))
    return members


def kill_session(sid: int) -> None:
    """SIGKILL every process of the session led by ``sid`` (its group, then any stray member)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(sid, signal.SIGKILL)
    for pid in session_members(sid):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def end(proc: subprocess.Popen, grace: float) -> None:
    """Stop a bot: close its input, let it exit by itself for ``grace`` seconds, then kill its whole
    session (always: helpers it started may outlive it), reap it and close the pipes."""
    try:
        with contextlib.suppress(OSError):
            proc.stdin.close()
        if grace > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=grace)
        kill_session(proc.pid)  # the session id stays the leader's pid while any member lives
        proc.wait()
    finally:
        _LIVE.discard(proc)
        for pipe in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                pipe.close()


def kill_all() -> None:
    """Kill the session of every bot this process started and has not ended, without reaping:
    safe inside a signal handler, which may have interrupted this thread inside ``Popen.poll``
    holding the lock that ``Popen.wait`` takes (waiting there would deadlock the process)."""
    for proc in list(_LIVE):
        kill_session(proc.pid)

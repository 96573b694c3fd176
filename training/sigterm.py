"""SIGTERM, as a service manager, ``kill`` or a notebook's stop button sends it, handled like Ctrl-C.

Python's default for SIGTERM is to die at once: no ``finally``, no ``atexit``, so the bots a
tool started (``cnmahjong.agents.bot``: programs in sessions of their own, which a Ctrl-C at the
terminal does not reach) would live on. The arena, the league and the play server call
``sigterm_as_interrupt`` at start, so SIGTERM raises ``KeyboardInterrupt`` and the same clean-up
as Ctrl-C runs (worker pools terminated, bots ended at exit). A pool's worker process, which the
pool ends with SIGTERM, calls ``sigterm_ends_bots``: it ends its bots, then exits.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

from cnmahjong.agents import botproc


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")


def sigterm_as_interrupt() -> None:
    """From now on SIGTERM raises ``KeyboardInterrupt`` in the main thread, as Ctrl-C does
    (a no-op outside the main thread, where no handler can be set)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)


def _end_bots_and_exit(signum: int, frame: Any) -> None:
    botproc.kill_all()  # no reaping: the process exits at once, and waiting could deadlock here
    os._exit(128 + signum)


def sigterm_ends_bots() -> None:
    """For a worker process: SIGTERM ends every bot it started, then the process (status 128 + 15)."""
    signal.signal(signal.SIGTERM, _end_bots_and_exit)

"""``BotPolicy``: any program plays, speaking JSON lines over its stdin and stdout (``bot:CMD``).

    python -m cnmahjong.training.arena --policies "bot:python3 examples/bots/simple_bot.py" greedy greedy greedy
    python -m cnmahjong.training.server --opponents "bot:./my_bot --fast" greedy greedy

A bot is a program, in any language, that reads one JSON object a line on its standard input
and answers one JSON object a line on its standard output (UTF-8; flush after every line). The
arena, the league and the play page start it as ``bot:CMD``: ``CMD`` is split as a shell would
(``shlex.split``) but run without a shell; its first word must be an executable on ``PATH`` or a
path to one (checked when the policy is built). The bot is started at its first decision, with
its standard error thrown away: write your logs to a file, or start it as
``bot:sh -c "my_bot 2>>bot.log"``. Its standard output carries protocol lines only.

**Protocol 1.** The first line the bot reads is the hello::

    {"type": "hello", "protocol": 1, "ruleset": "<name>", "encoder": "<encoder name>",
     "shape": [C, K], "num_actions": N, "actions": ["DISCARD 1m", ...], "tiles": ["1m", ...],
     "groups": [{"name": "HAND", "first": 0, "planes": 4, "blocks": 1, "per": "",
                 "value": "thermometer", "meaning": "..."}, ...],
     "views": ["fields", "planes"], "time_limit": 1.0}

``actions[a]`` is the readable name of action id ``a``, ``tiles[k]`` of tile kind ``k`` (the
columns of the planes), ``groups`` the observation encoder's channel table (as the README prints
it). Within ``HELLO_TIME_LIMIT`` seconds the bot answers::

    {"type": "ready", "name": "my bot", "view": "fields"}

``view`` (optional, default ``"fields"``) picks how observations come. Then, once per decision::

    {"type": "act", "id": 7, "legal": [3, 12, 88], "legal_names": ["DISCARD 4m", "DISCARD 4s", "PASS"],
     "obs": ...}

and the bot answers, within ``time_limit`` seconds of the message::

    {"id": 7, "action": 12}

(a bare ``12`` on its own line is taken as the answer to the decision in hand too; the id form
lets the arena drop a late answer to an earlier decision). ``obs`` is what a trained policy sees,
from the deciding seat's point of view (seat 0 is the bot itself, 1 the next seat, 2 opposite,
3 the previous), in the chosen view:

- ``"fields"``: ``{group name: value}`` for every group of the channel table, as
  ``ChannelTable.decode`` reads it: per-kind counts (lists of K ints) for thermometer groups,
  lists of kinds for kind sets, a kind or null for one-hot planes, a label for choices, true or
  false for flags, ints for levels and counts; a group of several blocks (one per relative seat,
  ...) is the list of its blocks' values.
- ``"planes"``: the C x K planes as nested lists of numbers (0/1, and a fraction on the few
  count planes), exactly the float32 array a network is given.

Every act message stands alone: the arena plays many tables at once and a bot sits at several
of them, so consecutive messages may belong to different hands and seats; keep no state across
them. When the game is over the bot's standard input closes: exit then.

**Faults.** A decision the bot does not answer well is played by the fallback policy instead
(``fallback``, ``greedy`` unless told otherwise) and counted, by kind:

- ``timeout``: no answer within the time limit (or no ``ready`` within ``HELLO_TIME_LIMIT``). The
  bot is killed and started afresh at its next decision: a bot still busy with an old decision
  would otherwise answer the wrong message ever after.
- ``crash``: the bot exited, closed its output or could not be started; it is started afresh
  at its next decision.
- ``illegal``: an action id that is not legal now; the bot keeps running.
- ``bad_reply``: a line that is not JSON, not an answer, or a hello answered wrongly; the bot
  keeps running (a wrong hello, or a line over ``MAX_LINE`` bytes, restarts it).
- ``gave_up``: after ``max_restarts`` restarts the next fault gives the bot up: the fallback
  plays all its remaining decisions, each counted here.

``faults()`` gives these counts with ``decisions`` (every decision asked) and ``restarts``; the
arena sums them over its worker processes and prints them under its table (``PolicyReport.faults``,
and the JSON report's ``faults`` of each bot).

The pipes are watched with ``selectors`` (POSIX: Linux, macOS). The bot runs in a session of its
own, so a timeout kills it with everything it started.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import time
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from cnmahjong.envs.core.ruleset import Ruleset, encoding_of_shape, get_ruleset, ruleset_of_encoder
from cnmahjong.envs.core.tiles import name as tile_name

PROTOCOL = 1
"""The protocol version the hello names."""
TIME_LIMIT = 1.0
"""Seconds a bot has for one decision, from the act message to its answer."""
HELLO_TIME_LIMIT = 10.0
"""Seconds a bot has from its start to its ``ready`` (interpreters and JITs start slowly)."""
MAX_RESTARTS = 3
"""Restarts after faults before the bot is given up and the fallback plays the rest."""
MAX_LINE = 1 << 20
"""Bytes of one answer line beyond which the bot is taken for broken (and restarted)."""
VIEWS = ("fields", "planes")
FAULTS = ("timeout", "crash", "illegal", "bad_reply", "gave_up")
"""The kinds of fault, each a count in ``faults()``: every one is a decision the fallback played."""
_STOPPING = ("timeout", "crash")
"""Faults after which the process is killed and started afresh at the next decision."""
_GRACE = 0.2
"""Seconds a bot has to exit by itself once its input is closed (``close``)."""


class _Fault(Exception):
    def __init__(self, kind: str, why: str, restart: bool = False) -> None:
        super().__init__(why)
        self.kind = kind
        self.restart = restart or kind in _STOPPING


def _end(proc: subprocess.Popen, grace: float) -> None:
    """Stop a bot: close its input, let it exit for ``grace`` seconds, then kill its session."""
    try:
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                try:  # the leader is not reaped yet, so its group id is still its own
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    proc.kill()
                proc.wait()
    finally:
        for pipe in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                pipe.close()


class BotPolicy:
    """A policy ``policy(observation, action_mask) -> action`` played by an outside program over
    the JSON-lines protocol of this module's docstring.

    ``command``: the program and its arguments (a string, split as a shell would, or a list).
    ``ruleset``: the rules played (name or ``Ruleset``; None: found from the first observation's
    shape). ``time_limit``: seconds per decision (``TIME_LIMIT``). ``fallback``: the policy name
    (as ``make_policy`` takes it, not a bot) that plays a decision the bot fails.
    ``max_restarts``: restarts after faults before the bot is given up. ``seed``: the fallback's."""

    def __init__(self, command: str | Sequence[str], ruleset: str | Ruleset | None = None,
                 time_limit: float | None = None, fallback: str = "greedy", max_restarts: int = MAX_RESTARTS,
                 seed: int | None = None, hello_time_limit: float | None = None) -> None:
        from cnmahjong.agents import make_policy

        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv or not argv[0].strip():
            raise ValueError("a bot needs a command to start: bot:CMD, e.g. 'bot:python3 my_bot.py'")
        if shutil.which(argv[0]) is None:
            raise ValueError(f"bot command {argv[0]!r} (of {command!r}) is not found: not an executable "
                             f"on PATH nor a path to an executable file")
        self.time_limit = TIME_LIMIT if time_limit is None else float(time_limit)
        self.hello_time_limit = HELLO_TIME_LIMIT if hello_time_limit is None else float(hello_time_limit)
        if not (self.time_limit > 0 and self.hello_time_limit > 0):
            raise ValueError(f"a bot's time limits are seconds > 0, got {self.time_limit}, {self.hello_time_limit}")
        if not isinstance(max_restarts, int) or max_restarts < 0:
            raise ValueError(f"max_restarts must be an int ≥ 0, got {max_restarts!r}")
        if not isinstance(fallback, str) or fallback.startswith("bot:"):
            raise ValueError(f"a bot's fallback is a built-in policy name, not {fallback!r}")
        self.command = command if isinstance(command, str) else shlex.join(argv)
        self.argv = argv
        self.ruleset = None if ruleset is None else get_ruleset(ruleset)
        self.fallback_name = fallback
        self.fallback = make_policy(fallback, seed=seed, ruleset=ruleset)
        self.max_restarts = max_restarts
        self.name: str | None = None
        """The name the bot gave in its ``ready``."""
        self.view: str | None = None
        self.last_error: str | None = None
        """Why the last fault happened, in words."""
        self.counts = dict.fromkeys(("decisions", *FAULTS, "restarts"), 0)
        self._spec: Any = None  # the encoder of the observations, found at the first decision
        self._names: list[str] = []
        self._given_up = False
        self._faulted = False  # the last process was stopped for a fault: the next start is a restart
        self._next_id = 0
        self._drop_process()

    # ------------------------------------------------------------- the policy
    def reset(self, seed: int | None = None) -> None:
        """A new hand: the fallback's reset (the bot itself is told nothing: messages stand alone)."""
        from cnmahjong.envs.policy import reset_policy

        if seed is not None:
            reset_policy(self.fallback, seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if not legal:
            raise ValueError("BotPolicy got an empty action mask: this seat is not to act")
        self.counts["decisions"] += 1
        spec = self._encoding(np.shape(observation))
        if self._given_up:
            return self._fall("gave_up", "the bot was given up", observation, action_mask)
        try:
            if self.proc is None:
                self._start(spec)
            self._next_id += 1
            message = self.act_message(self._next_id, observation, legal)
            deadline = time.monotonic() + self.time_limit
            self._send(message, deadline)
            action = self._answer(self._next_id, deadline)
        except _Fault as fault:
            if fault.restart:
                self._stop(faulted=True)
            return self._fall(fault.kind, str(fault), observation, action_mask)
        if action not in legal:
            names = self._names
            what = names[action] if 0 <= action < len(names) else "no action"
            return self._fall("illegal", f"answered {action} ({what}), legal {legal}", observation, action_mask)
        return action

    def faults(self) -> dict[str, int]:
        """Counts by fault kind (``FAULTS``), with ``decisions`` and ``restarts``."""
        return dict(self.counts)

    def close(self) -> None:
        """Stop the bot's process (it is started again if the policy is asked to decide)."""
        self._stop(faulted=False)

    def __getstate__(self) -> dict[str, Any]:
        """A copy (a worker process's) starts a bot of its own."""
        state = {k: v for k, v in self.__dict__.items() if not k.startswith("_p")}
        state.update(proc=None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._drop_process()

    # ---------------------------------------------------------- the messages
    def hello_message(self, spec: Any = None) -> dict[str, Any]:
        """The hello: the rules, the action and tile names, the channel table, the time limit."""
        spec = spec or self._spec or (self.ruleset.encoding if self.ruleset else None)
        if spec is None:
            raise ValueError("the hello of a bot without a ruleset waits for its first observation")
        rs = ruleset_of_encoder(spec.name) if self.ruleset is None else self.ruleset
        groups = [{"name": name, "first": first, "planes": planes, "blocks": blocks,
                   "per": spec.channels[name].per, "value": spec.channels[name].value.value,
                   "meaning": spec.channels[name].meaning}
                  for name, first, planes, blocks, _ in spec.channels.layout()]
        return {"type": "hello", "protocol": PROTOCOL, "ruleset": rs.name, "encoder": spec.name,
                "shape": list(spec.shape), "num_actions": rs.num_actions,
                "actions": [rs.game.ACTIONS.describe(a) for a in range(rs.num_actions)],
                "tiles": [tile_name(k) for k in range(spec.shape[1])], "groups": groups,
                "views": list(VIEWS), "time_limit": self.time_limit}

    def act_message(self, n: int, observation: np.ndarray, legal: list[int]) -> dict[str, Any]:
        """The act message of decision ``n`` in the bot's view (``fields`` until it chose)."""
        obs = np.asarray(observation)
        table = self._encoding(obs.shape).channels
        if self.view == "planes":
            view: Any = [[int(x) if x.is_integer() else x for x in row] for row in obs.tolist()]
        else:
            view = {g.name: table.decode(obs, g.name) for g in table}
        return {"type": "act", "id": n, "legal": legal, "legal_names": [self._names[a] for a in legal], "obs": view}

    # --------------------------------------------------------------- helpers
    def _encoding(self, shape: tuple[int, ...]) -> Any:
        if self._spec is None:
            if self.ruleset is None:
                spec = encoding_of_shape(shape)
                rs = ruleset_of_encoder(spec.name)
            else:
                rs = self.ruleset
                spec = next((e for e in rs.encodings if e.shape == tuple(shape)), None)
                if spec is None:
                    raise ValueError(f"observation shape {tuple(shape)} is none of the {rs.name} ruleset's "
                                     f"encoders': {[(e.name, e.shape) for e in rs.encodings]}")
            self._spec = spec
            self._names = [rs.game.ACTIONS.describe(a) for a in range(rs.num_actions)]
        elif tuple(shape) != self._spec.shape:
            raise ValueError(f"BotPolicy plays {self._spec.name} observations {self._spec.shape}, got {tuple(shape)}")
        return self._spec

    def _fall(self, kind: str, why: str, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.counts[kind] += 1
        self.last_error = f"{kind}: {why}"
        return int(self.fallback(observation, action_mask))

    def _drop_process(self) -> None:
        self.proc: subprocess.Popen | None = None
        self._pbuffer = b""
        self._pread: selectors.BaseSelector | None = None
        self._pwrite: selectors.BaseSelector | None = None
        self._pfinal: weakref.finalize | None = None

    def _start(self, spec: Any) -> None:
        if self._faulted:
            if self.counts["restarts"] >= self.max_restarts:
                self._given_up = True
                raise _Fault("gave_up", f"given up after {self.max_restarts} restarts (last: {self.last_error})")
            self.counts["restarts"] += 1
            self._faulted = False
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, bufsize=0, start_new_session=True)
        except OSError as e:
            raise _Fault("crash", f"cannot start {self.command!r}: {e}", restart=True) from None
        self.proc = proc
        self._pfinal = weakref.finalize(self, _end, proc, _GRACE)  # at garbage collection or exit
        os.set_blocking(proc.stdin.fileno(), False)
        self._pread, self._pwrite = selectors.DefaultSelector(), selectors.DefaultSelector()
        self._pread.register(proc.stdout, selectors.EVENT_READ)
        self._pwrite.register(proc.stdin, selectors.EVENT_WRITE)
        deadline = time.monotonic() + self.hello_time_limit
        self._send(self.hello_message(spec), deadline)
        reply = self._line(deadline)
        try:
            ready = json.loads(reply)
        except (ValueError, RecursionError):  # not JSON, or nested too deeply
            ready = None
        if not isinstance(ready, dict) or ready.get("type") != "ready" or ready.get("view", "fields") not in VIEWS:
            raise _Fault("bad_reply", f"the hello was answered {reply[:200]!r}, not "
                                      f"{{\"type\": \"ready\", \"view\": one of {list(VIEWS)}}}", restart=True)
        self.name = str(ready.get("name", self.command))
        self.view = ready.get("view", "fields")

    def _stop(self, faulted: bool) -> None:
        if self._pfinal is not None:
            if faulted:  # no grace for a bot that failed: it may be hung
                self._pfinal.detach()
                _end(self.proc, 0.0)
            else:
                self._pfinal()
        for sel in (self._pread, self._pwrite):
            if sel is not None:
                sel.close()
        self._faulted = self._faulted or faulted
        self._drop_process()

    def _send(self, message: dict[str, Any], deadline: float) -> None:
        """One line to the bot, without blocking past ``deadline`` (a bot that reads nothing)."""
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode())
        fd = self.proc.stdin.fileno()
        while data:
            if self.proc.poll() is not None:
                raise _Fault("crash", f"the bot exited (status {self.proc.returncode})")
            left = deadline - time.monotonic()
            if left <= 0 or not self._pwrite.select(left):
                raise _Fault("timeout", "the bot reads no input")
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                continue
            except OSError as e:  # a broken pipe: it exited
                raise _Fault("crash", f"the bot closed its input ({e})") from None

    def _line(self, deadline: float) -> str:
        """The bot's next non-empty output line, waiting until ``deadline`` at most."""
        while True:
            while b"\n" not in self._pbuffer:
                if len(self._pbuffer) > MAX_LINE:
                    raise _Fault("bad_reply", f"an answer line over {MAX_LINE} bytes", restart=True)
                left = deadline - time.monotonic()
                if left <= 0 or not self._pread.select(left):
                    raise _Fault("timeout", "no answer in time")
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise _Fault("crash", f"the bot closed its output (exit status {self.proc.poll()})")
                self._pbuffer += chunk
            line, _, self._pbuffer = self._pbuffer.partition(b"\n")
            text = line.decode("utf-8", errors="replace").strip()
            if text:
                return text

    def _answer(self, n: int, deadline: float) -> int:
        """The action the bot answers to decision ``n`` (answers to earlier ones are dropped)."""
        while True:
            text = self._line(deadline)
            try:
                reply = json.loads(text)
            except (ValueError, RecursionError):  # not JSON, or nested too deeply
                raise _Fault("bad_reply", f"answered {text[:200]!r}, not JSON") from None
            if isinstance(reply, dict) and "id" in reply:
                rid = reply["id"]
                if isinstance(rid, int) and not isinstance(rid, bool) and rid < n:
                    continue  # a late answer to an earlier decision
                if rid != n:
                    raise _Fault("bad_reply", f"answered {text[:200]!r} to decision {n}")
            action = reply.get("action") if isinstance(reply, dict) else reply
            if isinstance(action, bool) or not isinstance(action, int):
                raise _Fault("bad_reply", f"answered {text[:200]!r}, not {{\"id\": {n}, \"action\": ID}}")
            return action

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

**Protocol 2.** The first line the bot reads is the hello::

    {"type": "hello", "protocol": 2, "ruleset": "<name>", "encoder": "<encoder name>",
     "shape": [C, K], "num_actions": N, "actions": ["DISCARD 1m", ...], "tiles": ["1m", ...],
     "groups": [{"name": "HAND", "first": 0, "planes": 4, "blocks": 1, "per": "",
                 "value": "thermometer", "meaning": "..."}, ...],
     "views": ["fields", "planes"], "time_limit": 1.0}

``actions[a]`` is the readable name of action id ``a``, ``tiles[k]`` of tile kind ``k`` (the
columns of the planes), ``groups`` the observation encoder's channel table (as the README prints
it). Within ``HELLO_TIME_LIMIT`` seconds the bot answers::

    {"type": "ready", "name": "my bot", "view": "fields", "events": true}

``name`` (optional: 1 to ``MAX_NAME`` printable characters) names the bot in the arena's table
and reports; ``view`` (optional, default ``"fields"``) picks how observations come; ``events``
(optional, default false) asks for the public events of each hand (below). Then, once per decision::

    {"type": "act", "id": 7, "hand": "17.2", "seat": 2, "legal": [3, 12, 88],
     "legal_names": ["DISCARD 4m", "DISCARD 4s", "PASS"], "obs": ..., "events": [...]}

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

Every act message can stand alone, but a bot may keep its own state per hand: the arena plays
many tables at once and a bot sits at several of them, so consecutive messages may belong to
different hands. ``hand`` names the hand (a string, unique within one run: the arena's is
``"<deal seed>.<rotation>"``, the play page's ``"<n>"``) and ``seat`` is the bot's absolute seat
there (0-3; the dealer is in the deal event). Both are null when the caller plays no table (a
policy called on a bare observation). With ``"events": true`` in the ready, ``events`` is the
hand's event log (as ``game.events`` writes it) since the bot's last decision at that hand
(from the deal at its first), as its seat may see it (``cnmahjong.envs.core.seen``: another
seat's drawn tile, a concealed kong's tiles, the other hands, the wall and the seed are taken
out; the others' answers to a claim window still open come once it has resolved). A restarted
bot is sent each hand from its deal again. When the game is over the bot's standard input
closes: exit then.

**Faults.** A decision the bot does not answer well is played by the fallback policy instead
(``fallback``, greedy unless told otherwise) and counted, by kind:

- ``timeout``: no answer within the time limit (or no ``ready`` within ``HELLO_TIME_LIMIT``). The
  bot is killed and started afresh at its next decision: a bot still busy with an old decision
  would otherwise answer the wrong message ever after.
- ``crash``: the bot exited (the process started, even when a child it forked lives on),
  closed its output or could not be started; it is started afresh at its next decision.
- ``illegal``: an action id that is not legal now; the bot keeps running.
- ``bad_reply``: a line that is not JSON, not an answer, or a hello answered wrongly (a bad
  ``name``, ``view`` or ``events``); the bot keeps running (a wrong hello, or a line over
  ``MAX_LINE`` bytes, restarts it).
- ``gave_up``: after ``max_restarts`` restarts the next fault gives the bot up: the fallback
  plays all its remaining decisions, each counted here, and the bot is not started again.

and, not a decision the fallback played: ``stale``, a line the bot wrote that answers no
question asked: lines waiting in the pipe when an act message is sent (a second answer to an
earlier decision) and answers naming an earlier decision's id; each is dropped, so a bot that
answers twice cannot put its answers out of step.

The restart budget is per bot per run: the copies of one bot in one arena run (one in each
worker process, made afresh for each chunk of deals) share it through a ``BotRun``, so
``max_restarts`` is the number of restarts of that bot in the whole run, whatever ``--workers``;
once it is spent the next fault anywhere gives the bot up, and the copies made afterwards play
the fallback without starting it (a bot that never answers its hello is started at most
``max_restarts`` + one per worker process times in a run, not ``max_restarts + 1`` per chunk).
A ``BotPolicy`` on its own (no ``BotRun``) keeps its budget for its lifetime.

``faults()`` gives these counts with ``decisions`` (every decision asked) and ``restarts`` (its
keys: ``COUNTS``); the arena sums them over its worker processes and prints them under its table
(``PolicyReport.faults``, and the JSON report's ``faults`` of each bot).

The pipes are watched with ``selectors`` (POSIX: Linux, macOS). The bot runs in a session of its
own, ended as a whole (``cnmahjong.agents.botproc``) whenever the bot is stopped, however it ended.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import re
import selectors
import shlex
import shutil
import subprocess
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from cnmahjong.agents import botproc
from cnmahjong.agents.greedy import GreedyAgent
from cnmahjong.envs.core.ruleset import Ruleset, encoding_of_shape, get_ruleset, ruleset_of_encoder
from cnmahjong.envs.core.seen import seat_events
from cnmahjong.envs.core.tiles import name as tile_name

PROTOCOL = 2
"""The protocol version the hello names (2: act messages carry ``hand``, ``seat`` and, when asked, ``events``)."""
TIME_LIMIT = 1.0
"""Seconds a bot has for one decision, from the act message to its answer."""
MAX_TIME_LIMIT = 600.0
"""The longest time limit a bot may be given (seconds): a bot that thinks longer is a hung one."""
HELLO_TIME_LIMIT = 10.0
"""Seconds a bot has from its start to its ``ready`` (interpreters and JITs start slowly)."""
MAX_RESTARTS = 3
"""Restarts after faults, per bot per run, before the bot is given up and the fallback plays the rest."""
MAX_LINE = 1 << 20
"""Bytes of one answer line (or of lines waiting unasked) beyond which the bot is taken for broken (and restarted)."""
MAX_NAME = 40
"""Characters of the name a bot gives in its ``ready``."""
VIEWS = ("fields", "planes")
FAULTS = ("timeout", "crash", "illegal", "bad_reply", "gave_up")
"""The kinds of fault that make the fallback play a decision, each a count in ``faults()``."""
STALE = "stale"
"""The count of lines dropped because they answered no question asked (not a decision the fallback played)."""
COUNTS = ("decisions", *FAULTS, STALE, "restarts")
"""The keys of ``faults()``."""
_STOPPING = ("timeout", "crash")
"""Faults after which the process is killed and started afresh at the next decision."""
_GRACE = 0.2
"""Seconds a bot has to exit by itself once its input is closed (``close``)."""
_POLL = 0.05
"""Seconds between checks, while waiting for an answer, that the bot's process still runs."""
_HANDS_KEPT = 512
"""Hands whose event position a bot keeps (the oldest is forgotten first)."""


class Where(NamedTuple):
    """Where a decision is made: the hand (a string unique within the run), the absolute seat and
    the hand's event log (``game.events``, read up to its end now)."""

    hand: str
    seat: int
    events: list[dict[str, Any]]


def time_limit_problem(seconds: Any) -> str | None:
    """What is wrong with a bot time limit (seconds, > 0 and at most ``MAX_TIME_LIMIT``), or None."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_TIME_LIMIT:
        return f"a bot's time limit is a number of seconds > 0 and at most {MAX_TIME_LIMIT:g}, got {seconds!r}"
    return None


def time_limit_arg(text: str) -> float:
    """A command line's ``--bot-time-limit``: plain decimal seconds, checked (``time_limit_problem``);
    anything else is an ``argparse.ArgumentTypeError`` saying what is allowed (exit status 2)."""
    seconds = float(text) if re.fullmatch(r"[0-9]+(\.[0-9]*)?|\.[0-9]+", text, re.ASCII) else None
    problem = time_limit_problem(seconds)
    if problem:
        raise argparse.ArgumentTypeError(f"{problem.replace(repr(seconds), repr(text))}")
    return seconds


def name_problem(name: Any) -> str | None:
    """What is wrong with the name a bot gives in its ``ready``, or None."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable() or name != name.strip():
        return (f"a bot's name is 1 to {MAX_NAME} printable characters without leading or trailing spaces, "
                f"got {str(name)[:60]!r}")
    return None


class BotRun:
    """What the copies of one bot in one run share (each arena worker process plays with its own
    copy, made afresh for each chunk of deals): the restarts taken (the budget is per bot per
    run), whether the bot was given up, the name it gave; and the run's time limit (None: each
    copy's own). Made by the arena before its worker processes start, and handed to them."""

    def __init__(self, time_limit: float | None = None, context: Any = None) -> None:
        problem = None if time_limit is None else time_limit_problem(time_limit)
        if problem:
            raise ValueError(problem)
        ctx = context or mp.get_context("spawn")
        self.time_limit = time_limit
        self._restarts = ctx.Value("i", 0)  # restarts taken; -1 once given up
        self._name = ctx.Array("c", 4 * MAX_NAME + 1)

    def take_restart(self, limit: int) -> bool:
        """One more restart if fewer than ``limit`` were taken in the run; else the bot is given up."""
        with self._restarts.get_lock():
            if 0 <= self._restarts.value < limit:
                self._restarts.value += 1
                return True
            self._restarts.value = -1
            return False

    @property
    def given_up(self) -> bool:
        return self._restarts.value < 0

    @property
    def name(self) -> str | None:
        """The name the bot gave in its first ``ready`` of the run (None before)."""
        return self._name.value.decode() or None

    def said(self, name: str) -> None:
        """Record the bot's name, the first one given."""
        with self._name.get_lock():
            if not self._name.value:
                self._name.value = name.encode()


def run_for(policy: str, time_limit: float | None = None) -> BotRun | None:
    """A ``BotRun`` for a bot's policy name (``bot:CMD``), None for any other policy (no shared
    memory made for it); ``time_limit`` is checked either way."""
    problem = None if time_limit is None else time_limit_problem(time_limit)
    if problem:
        raise ValueError(problem)
    return BotRun(time_limit) if isinstance(policy, str) and policy.startswith("bot:") else None


class _Fault(Exception):
    def __init__(self, kind: str, why: str, restart: bool = False) -> None:
        super().__init__(why)
        self.kind = kind
        self.restart = restart or kind in _STOPPING


class BotPolicy:
    """A policy ``policy(observation, action_mask) -> action`` played by an outside program over
    the JSON-lines protocol of this module's docstring; ``decide(observation, action_mask, where)``
    also tells the bot the hand, its seat and (when it asked) the events since its last decision.

    ``command``: the program and its arguments (a string, split as a shell would, or a list).
    ``ruleset``: the rules played (name or ``Ruleset``; None: found from the first observation's
    shape). ``time_limit``: seconds per decision (``TIME_LIMIT``). ``fallback``: the policy object
    that plays a decision the bot fails (None: the ruleset's greedy player; ``make_policy`` builds
    it for ``bot:CMD``). ``max_restarts``: restarts after faults before the bot is given up."""

    def __init__(self, command: str | Sequence[str], ruleset: str | Ruleset | None = None,
                 time_limit: float | None = None, fallback: Callable[..., Any] | None = None,
                 max_restarts: int = MAX_RESTARTS, hello_time_limit: float | None = None) -> None:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv or not argv[0].strip():
            raise ValueError("a bot needs a command to start: bot:CMD, e.g. 'bot:python3 my_bot.py'")
        if shutil.which(argv[0]) is None:
            raise ValueError(f"bot command {argv[0]!r} (of {command!r}) is not found: not an executable "
                             f"on PATH nor a path to an executable file")
        self.time_limit = TIME_LIMIT if time_limit is None else time_limit
        self.hello_time_limit = HELLO_TIME_LIMIT if hello_time_limit is None else hello_time_limit
        for limit in (self.time_limit, self.hello_time_limit):
            problem = time_limit_problem(limit)
            if problem:
                raise ValueError(problem)
        if not isinstance(max_restarts, int) or isinstance(max_restarts, bool) or max_restarts < 0:
            raise ValueError(f"max_restarts must be an int ≥ 0, got {max_restarts!r}")
        if fallback is None:
            fallback = GreedyAgent(ruleset=ruleset)
        if isinstance(fallback, BotPolicy) or not callable(fallback):
            raise ValueError(f"a bot's fallback is a policy object that is not a bot (e.g. make_policy('greedy')), "
                             f"got {fallback!r:.80}")
        self.command = command if isinstance(command, str) else shlex.join(argv)
        self.argv = argv
        self.ruleset = None if ruleset is None else get_ruleset(ruleset)
        self.fallback = fallback
        self.max_restarts = max_restarts
        self.name: str | None = None
        """The name the bot gave in its ``ready`` (None: it gave none)."""
        self.view: str | None = None
        self.events = False
        """Whether the bot asked for the events (``"events": true`` in its ``ready``)."""
        self.last_error: str | None = None
        """Why the last fault happened, in words."""
        self.counts = dict.fromkeys(COUNTS, 0)
        self.run: BotRun | None = None
        self._spec: Any = None  # the encoder of the observations, found at the first decision
        self._names: list[str] = []
        self._given_up = False
        self._faulted = False  # the last process was stopped for a fault: the next start is a restart
        self._next_id = 0
        self._drop_process()

    # ------------------------------------------------------------- the policy
    def share(self, run: BotRun) -> None:
        """Play as one copy of the bot in ``run``: its restart budget, its name and time limit."""
        self.run = run
        if run.time_limit is not None:
            self.time_limit = run.time_limit

    def reset(self, seed: int | None = None) -> None:
        """A new hand: the fallback's reset (the bot itself learns of it from the next ``hand``)."""
        from cnmahjong.envs.policy import reset_policy

        if seed is not None:
            reset_policy(self.fallback, seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.decide(observation, action_mask)

    def decide(self, observation: np.ndarray, action_mask: np.ndarray, where: Where | None = None) -> int:
        """The bot's action for one decision (its fallback's when it fails), made at ``where``."""
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if not legal:
            raise ValueError("BotPolicy got an empty action mask: this seat is not to act")
        self.counts["decisions"] += 1
        spec = self._encoding(np.shape(observation))
        if self._given_up or (self.run is not None and self.run.given_up):
            self._given_up = True
            return self._fall("gave_up", "the bot was given up", observation, action_mask)
        try:
            if self.proc is None:
                self._start(spec)
            self._next_id += 1
            message = self.act_message(self._next_id, observation, legal, where)
            self._drain()
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
        """Counts by fault kind (``FAULTS``), with ``stale``, ``decisions`` and ``restarts`` (``COUNTS``)."""
        return dict(self.counts)

    def close(self) -> None:
        """Stop the bot's process (it is started again if the policy is asked to decide)."""
        self._stop(faulted=False)

    def __getstate__(self) -> dict[str, Any]:
        """A copy (a worker process's) starts a bot of its own, with a budget of its own."""
        state = {k: v for k, v in self.__dict__.items() if not k.startswith("_p")}
        state.update(proc=None, run=None)
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

    def act_message(self, n: int, observation: np.ndarray, legal: list[int],
                    where: Where | None = None) -> dict[str, Any]:
        """The act message of decision ``n`` in the bot's view (``fields`` until it chose); with
        ``events`` asked, the events since the bot's last decision at ``where``'s hand."""
        obs = np.asarray(observation)
        table = self._encoding(obs.shape).channels
        if self.view == "planes":
            view: Any = [[int(x) if x.is_integer() else x for x in row] for row in obs.tolist()]
        else:
            view = {g.name: table.decode(obs, g.name) for g in table}
        message = {"type": "act", "id": n, "hand": None if where is None else where.hand,
                   "seat": None if where is None else where.seat, "legal": legal,
                   "legal_names": [self._names[a] for a in legal], "obs": view}
        if self.events:
            message["events"] = [] if where is None else self._new_events(where)
        return message

    # --------------------------------------------------------------- helpers
    def _new_events(self, where: Where) -> list[dict[str, Any]]:
        """The events of ``where``'s hand the bot has not been sent, as its seat may see them."""
        key = (where.hand, where.seat)
        start = self._pseen.pop(key, 0)
        events, next_start = seat_events(where.events, start, where.seat, over=False)
        self._pseen[key] = next_start  # the most recent hand last: the oldest is forgotten first
        if len(self._pseen) > _HANDS_KEPT:
            del self._pseen[next(iter(self._pseen))]
        return events

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
        self._pseen: dict[tuple[str, int], int] = {}  # (hand, seat) -> the next event to send this process

    def _restart_allowed(self) -> bool:
        if self.run is not None:
            return self.run.take_restart(self.max_restarts)
        return self.counts["restarts"] < self.max_restarts

    def _start(self, spec: Any) -> None:
        if self._faulted:
            if not self._restart_allowed():
                self._given_up = True
                raise _Fault("gave_up", f"given up after {self.max_restarts} restarts (last: {self.last_error})")
            self.counts["restarts"] += 1
            self._faulted = False
        try:
            proc = botproc.start(self.argv)
        except OSError as e:
            raise _Fault("crash", f"cannot start {self.command!r}: {e}", restart=True) from None
        self.proc = proc
        self._pfinal = weakref.finalize(self, botproc.end, proc, _GRACE)  # at garbage collection or exit
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
        if not isinstance(ready, dict) or ready.get("type") != "ready" or ready.get("view", "fields") not in VIEWS \
                or not isinstance(ready.get("events", False), bool):
            raise _Fault("bad_reply", f"the hello was answered {reply[:200]!r}, not {{\"type\": \"ready\", "
                                      f"\"view\": one of {list(VIEWS)}, \"events\": true or false}}", restart=True)
        name = ready.get("name")
        problem = name_problem(name) if "name" in ready else None
        if problem:
            raise _Fault("bad_reply", f"the hello was answered {reply[:200]!r}: {problem}", restart=True)
        self.name = name
        self.view = ready.get("view", "fields")
        self.events = ready.get("events", False)
        if self.run is not None and name is not None:
            self.run.said(name)

    def _stop(self, faulted: bool) -> None:
        if self._pfinal is not None:
            if faulted:  # no grace for a bot that failed: it may be hung
                self._pfinal.detach()
                botproc.end(self.proc, 0.0)
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
            if left <= 0 or not self._pwrite.select(min(left, _POLL)):
                if left <= 0:
                    raise _Fault("timeout", "the bot reads no input")
                continue
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                continue
            except OSError as e:  # a broken pipe: it exited
                raise _Fault("crash", f"the bot closed its input ({e})") from None

    def _read(self) -> None:
        """What the bot's output holds now, onto the buffer (``crash`` at its end)."""
        chunk = os.read(self.proc.stdout.fileno(), 65536)
        if not chunk:
            raise _Fault("crash", f"the bot closed its output (exit status {self.proc.poll()})")
        self._pbuffer += chunk

    def _drain(self) -> None:
        """Drop the lines the bot wrote unasked (before this act message), counting them ``stale``."""
        while self._pread.select(0):
            self._read()
            if len(self._pbuffer) > MAX_LINE:
                raise _Fault("bad_reply", f"over {MAX_LINE} bytes written unasked", restart=True)
        *lines, self._pbuffer = self._pbuffer.split(b"\n")
        self.counts[STALE] += sum(1 for line in lines if line.strip())

    def _line(self, deadline: float) -> str:
        """The bot's next non-empty output line, waiting until ``deadline`` at most; ``crash`` as
        soon as the process started exits (a child it forked may hold the output open)."""
        while True:
            while b"\n" not in self._pbuffer:
                if len(self._pbuffer) > MAX_LINE:
                    raise _Fault("bad_reply", f"an answer line over {MAX_LINE} bytes", restart=True)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Fault("timeout", "no answer in time")
                if self._pread.select(min(left, _POLL)):
                    self._read()
                elif self.proc.poll() is not None:
                    raise _Fault("crash", f"the bot exited (status {self.proc.returncode}) without answering")
            line, _, self._pbuffer = self._pbuffer.partition(b"\n")
            text = line.decode("utf-8", errors="replace").strip()
            if text:
                return text

    def _answer(self, n: int, deadline: float) -> int:
        """The action the bot answers to decision ``n`` (answers to earlier ones are dropped: ``stale``)."""
        while True:
            text = self._line(deadline)
            try:
                reply = json.loads(text)
            except (ValueError, RecursionError):  # not JSON, or nested too deeply
                raise _Fault("bad_reply", f"answered {text[:200]!r}, not JSON") from None
            if isinstance(reply, dict) and "id" in reply:
                rid = reply["id"]
                if isinstance(rid, int) and not isinstance(rid, bool) and rid < n:
                    self.counts[STALE] += 1  # a late answer to an earlier decision
                    continue
                if rid != n:
                    raise _Fault("bad_reply", f"answered {text[:200]!r} to decision {n}")
            action = reply.get("action") if isinstance(reply, dict) else reply
            if isinstance(action, bool) or not isinstance(action, int):
                raise _Fault("bad_reply", f"answered {text[:200]!r}, not {{\"id\": {n}, \"action\": ID}}")
            return action

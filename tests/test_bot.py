"""The bot protocol (``cnmahjong.agents.bot``): a program started as a subprocess plays over JSON
lines; one that hangs, dies or answers illegally is replaced for that decision by its fallback,
the arena finishes, and the faults are counted and reported. The bots: ``examples/bots`` (the
example) and ``tests/bots`` (the faulty ones)."""

import ast
import contextlib
import importlib.util
import json
import os
import pickle
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from cnmahjong.agents import GreedyAgent, make_policy
from cnmahjong.agents import bot as botmod
from cnmahjong.agents.bot import FAULTS, BotPolicy, Where
from cnmahjong.envs.core.ruleset import ruleset_of_preset
from cnmahjong.envs.core.seen import seat_event, seat_events
from cnmahjong.envs.vector import VectorEnv
from cnmahjong.training.arena import run_arena
from cnmahjong.training.arena.stats import PolicyReport
from cnmahjong.training.arena.table import fault_line, format_table

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bots" / "simple_bot.py"
BOTS = ROOT / "tests" / "bots"
RULES = ("mainstream", "hangzhou")


def command(script: Path, *args: str) -> str:
    return shlex.join([sys.executable, str(script), *args])


def decisions(rules: str, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) of ``count`` decisions of greedy players on a few tables."""
    rs = ruleset_of_preset(rules)
    venv = VectorEnv(num_tables=4, rules=rules, ruleset=rs)
    greedy = GreedyAgent(ruleset=rs)
    out: list[tuple[np.ndarray, np.ndarray]] = []
    batch = venv.reset(seed=7)
    while len(out) < count:
        out += [(o.copy(), m.copy()) for o, m in zip(batch.obs, batch.mask, strict=True)]
        batch = venv.step(np.array([greedy(o, m) for o, m in zip(batch.obs, batch.mask, strict=True)]))
    return out[:count]


@pytest.fixture
def started(monkeypatch):
    """Every bot process started while the test runs (to check none is left running)."""
    procs = []
    start = BotPolicy._start

    def spy(self, spec):
        try:
            start(self, spec)
        finally:
            if self.proc is not None and self.proc not in procs:
                procs.append(self.proc)

    monkeypatch.setattr(BotPolicy, "_start", spy)
    return procs


def faulty(faults: dict[str, int]) -> int:
    return sum(faults[k] for k in FAULTS)


# --------------------------------------------------------------- the example
@pytest.mark.parametrize("rules", RULES)
def test_example_bot_plays_whole_hands_through_the_arena(rules, started):
    name = "bot:" + command(EXAMPLE)
    result = run_arena([name, "greedy", "greedy", "greedy"], deals=1, rules=rules)
    faults = result.faults[0]
    assert faults["decisions"] > 20 and faulty(faults) == 0 and faults["restarts"] == 0, faults
    assert result.faults[1:] == [{}, {}, {}]
    assert len(result.hands) == 1 and all(rot is not None for rot in result.hands[0])
    report = result.to_dict()["reports"]
    assert report[0]["faults"] == faults and all("faults" not in r for r in report[1:])
    assert f"0 of {faults['decisions']} decisions played by the fallback" in format_table(
        result.reports, result.deals, result.unit)
    assert len(started) == 1 and started[0].poll() is not None  # one process, ended with the arena


def _example_module():
    spec = importlib.util.spec_from_file_location("simple_bot", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("rules", RULES)
def test_example_bot_answers_what_its_logic_gives(rules):
    """Through the pipe the bot plays exactly what its ``choose`` gives on the same message, with
    the discards it remembered from the events of each hand (so the fields and the events it
    reads arrived whole), and only legal actions. It plays every seat of four tables at once."""
    simple = _example_module()
    rs = ruleset_of_preset(rules)
    bot = BotPolicy(command(EXAMPLE), ruleset=rs)
    tiles = bot.hello_message(rs.encoding)["tiles"]
    venv = VectorEnv(num_tables=4, rules=rules, ruleset=rs)
    memory: dict = {}
    cursor: dict = {}
    dealt = [0] * 4
    batch = venv.reset(seed=7)
    asked = 0
    try:
        while asked < 80:
            actions = []
            rows = zip(batch.obs, batch.mask, batch.table.tolist(), batch.seat.tolist(), strict=True)
            for obs, mask, t, seat in rows:
                where = Where(f"{t}.{dealt[t]}", seat, venv.games[t].events)
                legal = np.flatnonzero(mask).tolist()
                events, cursor[where[:2]] = seat_events(where.events, cursor.get(where[:2], 0), seat, False)
                message = {**bot.act_message(0, obs, legal), "hand": where.hand, "seat": seat, "events": events}
                expected = simple.choose(message, tiles, simple.remember(memory, message, len(tiles)))
                action = bot.decide(obs, mask, where)
                assert action == expected and action in legal
                actions.append(action)
                asked += 1
            batch = venv.step(np.array(actions))
            for t in np.flatnonzero(batch.hand_over).tolist():
                dealt[t] += 1
        assert faulty(bot.faults()) == 0 and bot.name == "simple_bot" and bot.view == "fields" and bot.events
        assert any(any(counts) for counts in memory.values())  # it did see discards
    finally:
        bot.close()


def test_hello_names_the_actions_and_channels():
    rs = ruleset_of_preset("hangzhou")
    hello = BotPolicy(command(EXAMPLE), ruleset=rs).hello_message(rs.encoding)
    assert hello["type"] == "hello" and hello["protocol"] == botmod.PROTOCOL and hello["ruleset"] == rs.name
    assert hello["shape"] == list(rs.shape) and hello["num_actions"] == rs.num_actions == len(hello["actions"])
    assert hello["actions"][rs.game.ACTIONS.PASS] == "PASS" and len(hello["tiles"]) == rs.shape[1]
    assert [g["name"] for g in hello["groups"]] == [g.name for g in rs.encoding.channels]
    assert sum(g["planes"] * g["blocks"] for g in hello["groups"]) == rs.shape[0]


def test_planes_view_sends_the_very_planes():
    obs_mask = decisions("mainstream", 30)
    bot = BotPolicy(command(BOTS / "planes_bot.py"))  # no ruleset: found from the observation's shape
    try:
        for obs, mask in obs_mask:
            legal = np.flatnonzero(mask)
            assert bot(obs, mask) == legal[np.count_nonzero(obs) % len(legal)]
        assert bot.view == "planes" and faulty(bot.faults()) == 0
    finally:
        bot.close()


# ------------------------------------------------------------------ faults
def test_hanging_bot_times_out_restarts_then_is_given_up(monkeypatch, started):
    monkeypatch.setattr(botmod, "TIME_LIMIT", 0.2)
    name = "bot:" + command(BOTS / "failing_bot.py", "hang", "3")
    result = run_arena([name, "greedy", "greedy", "greedy"], deals=1, rules="mainstream")
    faults = result.faults[0]
    # each process answers 2 decisions and hangs on its 3rd: 4 timeouts (3 restarts), then given up
    assert faults["timeout"] == botmod.MAX_RESTARTS + 1 and faults["restarts"] == botmod.MAX_RESTARTS
    assert faults["gave_up"] == faults["decisions"] - 2 * 4 - 4 > 0
    assert faults["crash"] == faults["illegal"] == faults["bad_reply"] == 0
    assert "timeout 4" in format_table(result.reports, result.deals, result.unit)
    assert len(started) == 4 and all(p.poll() is not None for p in started)


def test_timeout_kills_the_hung_process_and_uses_the_fallback():
    rs = ruleset_of_preset("mainstream")
    bot = BotPolicy(command(BOTS / "failing_bot.py", "hang", "1"), ruleset=rs, time_limit=0.2, max_restarts=0)
    obs, mask = decisions("mainstream", 1)[0]
    assert bot(obs, mask) == GreedyAgent(ruleset=rs)(obs, mask)
    assert bot.faults()["timeout"] == 1 and bot.proc is None and "timeout" in bot.last_error
    assert bot(obs, mask) == GreedyAgent(ruleset=rs)(obs, mask)  # max_restarts=0: given up at once
    assert bot.faults()["gave_up"] == 1 and bot.faults()["restarts"] == 0


def test_crashing_bot_is_restarted_then_given_up(started):
    name = "bot:" + command(BOTS / "failing_bot.py", "crash", "5")
    result = run_arena([name, "greedy", "greedy", "greedy"], deals=1, rules="hangzhou")
    faults = result.faults[0]
    # each process answers 4 decisions and exits on its 5th
    assert faults["crash"] == 4 and faults["restarts"] == 3
    assert faults["gave_up"] == faults["decisions"] - 4 * 4 - 4 > 0
    assert faults["timeout"] == faults["illegal"] == faults["bad_reply"] == 0
    assert len(started) == 4 and all(p.poll() is not None for p in started)


@pytest.mark.parametrize("mode, kind", [("illegal", "illegal"), ("garbage", "bad_reply")])
def test_illegal_or_garbage_answer_plays_the_fallback_and_keeps_the_bot(mode, kind):
    rs = ruleset_of_preset("hangzhou")
    greedy = GreedyAgent(ruleset=rs)
    bot = BotPolicy(command(BOTS / "illegal_bot.py", mode), ruleset=rs, fallback=greedy)
    rows = decisions("hangzhou", 12)
    try:
        for obs, mask in rows:
            assert bot(obs, mask) == greedy(obs, mask)
            if bot.proc is not None:
                proc = bot.proc
        faults = bot.faults()
        assert faults[kind] == faults["decisions"] == len(rows) and faults["restarts"] == 0
        assert faulty(faults) == len(rows)
        assert proc is bot.proc and proc.poll() is None  # the same process, still running
    finally:
        bot.close()
    assert proc.poll() is not None


def test_illegal_bot_through_the_arena_finishes_on_its_fallback(started):
    name = "bot:" + command(BOTS / "illegal_bot.py", "illegal")
    result = run_arena([name, "greedy", "greedy", "greedy"], deals=1, rules="mainstream")
    faults = result.faults[0]
    assert faults["illegal"] == faults["decisions"] > 0 and faults["restarts"] == 0
    assert len(started) == 1 and started[0].poll() is not None
    # the fallback is greedy: the bot's seat plays the hands as an all-greedy table does
    greedy = run_arena(["greedy"] * 4, deals=1, rules="mainstream")
    assert [r["policies"] for r in result.hands[0]] == [r["policies"] for r in greedy.hands[0]]


@pytest.mark.parametrize("mode", ["late", "bare"])
def test_late_answers_are_dropped_and_bare_integers_taken(mode):
    rs = ruleset_of_preset("mainstream")
    bot = BotPolicy(command(BOTS / "illegal_bot.py", mode), ruleset=rs)
    try:
        for obs, mask in decisions("mainstream", 10):
            assert bot(obs, mask) == int(np.flatnonzero(mask)[0])
        assert faulty(bot.faults()) == 0
        assert bot.faults()["stale"] == (10 if mode == "late" else 0)  # each late answer dropped, counted
    finally:
        bot.close()


def test_bad_hello_restarts_then_gives_up():
    bot = BotPolicy(command(BOTS / "illegal_bot.py", "badhello"), max_restarts=2)
    rows = decisions("mainstream", 5)
    greedy = GreedyAgent()
    assert [bot(o, m) for o, m in rows] == [greedy(o, m) for o, m in rows]
    faults = bot.faults()
    assert faults["bad_reply"] == 3 and faults["restarts"] == 2 and faults["gave_up"] == 2
    assert bot.proc is None


# ------------------------------------------------------------- construction
def test_missing_executable_is_refused_naming_it():
    with pytest.raises(ValueError, match="no-such-bot-exe"):
        make_policy("bot:no-such-bot-exe --fast")
    with pytest.raises(ValueError, match="no-such-bot-exe"):
        BotPolicy(["./no-such-bot-exe"])


@pytest.mark.parametrize("name", ["bot:", "bot:   "])
def test_empty_command_is_refused(name):
    with pytest.raises(ValueError, match="needs a command"):
        make_policy(name)


@pytest.mark.parametrize("fallback", ["greedy", "bot:python3 x.py", 3])
def test_bad_fallback_is_refused(fallback):
    """The fallback is a policy object the caller built (``make_policy`` builds greedy for ``bot:CMD``)."""
    with pytest.raises(ValueError, match="fallback is a policy object"):
        BotPolicy(command(EXAMPLE), fallback=fallback)
    with pytest.raises(ValueError, match="fallback is a policy object"):
        BotPolicy(command(EXAMPLE), fallback=BotPolicy(command(EXAMPLE)))


def test_make_policy_builds_a_bot_that_starts_at_its_first_decision():
    bot = make_policy("bot:" + command(EXAMPLE), seed=3, ruleset="changsha")
    assert isinstance(bot, BotPolicy) and bot.proc is None and bot.time_limit == botmod.TIME_LIMIT
    obs, mask = decisions("mainstream", 1)[0]
    assert mask[bot(obs, mask)]
    proc = bot.proc
    assert proc is not None and proc.poll() is None
    copy = pickle.loads(pickle.dumps(bot))  # a copy (a worker's) starts a bot of its own
    assert copy.proc is None and mask[copy(obs, mask)] and copy.proc.pid != proc.pid
    copy.close()
    bot.close()
    assert proc.poll() is not None and bot.proc is None


def test_play_page_seats_a_bot():
    from cnmahjong.training.server.seat import Table

    table = Table(["bot:" + command(EXAMPLE), "greedy", "greedy"], "hangzhou", seed=1)
    try:
        for _ in range(400):
            if table.game.done:
                break
            table.act(table.legal()[0])
        assert table.game.done and table.stalled is None
        assert table.policies[0].faults()["decisions"] > 0 and faulty(table.policies[0].faults()) == 0
    finally:
        table.policies[0].close()


# ------------------------------------------------- process trees (issue 36, 2)
TREE = BOTS / "tree_bot.py"


def marker() -> str:
    """A word no other process's command line holds: the test finds its bots by it."""
    return f"mark-{uuid.uuid4().hex}"


def marked(mark: str) -> list[int]:
    """The live processes with ``mark`` as one of their arguments (a tool whose argument merely
    contains it, ``bot:... MARK``, is not counted)."""
    pids = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if mark.encode() in args and stat[stat.rfind(")") + 2] != "Z":
            pids.append(int(entry.name))
    return pids


def wait_for(check, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def mark():
    """A marker, and whatever still runs with it killed after the test (so a failure leaves nothing)."""
    word = marker()
    yield word
    for pid in marked(word):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def test_a_bot_that_starts_a_helper_leaves_nothing_running(mark):
    """``sh -c 'helper & exec bot'``: the bot exits at the end of its input, its helper would
    live on unless the whole session is ended."""
    py = shlex.quote(sys.executable)
    line = f"{py} {shlex.quote(str(TREE))} sleep {mark} & exec {py} {shlex.quote(str(TREE))} play {mark}"
    result = run_arena(["bot:sh -c " + shlex.quote(line), "greedy", "greedy", "greedy"], deals=1, rules="mainstream")
    faults = result.faults[0]
    assert faults["decisions"] > 20 and faulty(faults) == 0
    assert wait_for(lambda: not marked(mark), 2), f"left running: {marked(mark)}"


def test_a_bot_that_forks_and_dies_is_a_crash_and_leaves_no_orphan(mark):
    """Each process forks a child (holding the output open) and exits at its 3rd decision: a
    crash, found at once (not after the time limit), and the child ended with it."""
    rs = ruleset_of_preset("mainstream")
    bot = BotPolicy(command(TREE, "forkdie", mark, "3"), ruleset=rs, time_limit=20, max_restarts=2)
    rows = decisions("mainstream", 12)
    greedy = GreedyAgent(ruleset=rs)
    start = time.monotonic()
    try:
        for obs, mask in rows:
            action = bot(obs, mask)
            assert mask[action]
            if bot.proc is None:  # stopped for its fault: nothing of it runs any more (SIGKILL lands at once)
                assert wait_for(lambda: marked(mark) == [], 2), marked(mark)
                assert action == greedy(obs, mask)
            else:
                assert wait_for(lambda: len(marked(mark)) == 2, 2), marked(mark)  # the bot and its child
    finally:
        bot.close()
    faults = bot.faults()
    assert faults["crash"] == 3 and faults["timeout"] == 0 and faults["restarts"] == 2
    assert faults["gave_up"] == len(rows) - 3 * 3
    assert time.monotonic() - start < 15  # no time limit of 20 s was waited out
    assert wait_for(lambda: marked(mark) == [], 2), marked(mark)


@pytest.mark.parametrize("tool, args", [
    ("arena", ["--deals", "400", "--workers", "1", "--policies", "BOT", "greedy", "greedy", "greedy"]),
    ("arena", ["--deals", "400", "--workers", "2", "--policies", "BOT", "greedy", "greedy", "greedy"]),
    ("league", ["--deals", "400", "--workers", "1", "--policies", "BOT", "greedy"]),
    ("server", ["--port", "0", "--opponents", "BOT", "greedy", "greedy"]),
])
def test_sigterm_ends_the_tool_and_its_bots(tool, args, mark):
    """SIGTERM to the arena (one or two worker processes), the league or the play server ends it
    and every bot it started, even a bot that ignores SIGTERM and the end of its input."""
    bot = "bot:" + command(TREE, "stubborn", mark)
    proc = subprocess.Popen([sys.executable, "-m", f"cnmahjong.training.{tool}",
                             *[bot if a == "BOT" else a for a in args]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
                            env=dict(os.environ, PYTHONFAULTHANDLER="1"))
    try:
        assert wait_for(lambda: marked(mark) or proc.poll() is not None, 120) and proc.poll() is None, \
            proc.stderr.read().decode()[-2000:]
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:  # say where it was: faulthandler's stacks on SIGABRT
            proc.send_signal(signal.SIGABRT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            pytest.fail(f"{tool} still running 60 s after SIGTERM; its stderr: "
                        f"{proc.stderr.read().decode()[-4000:]}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode != -signal.SIGTERM  # handled, not killed by it
    assert wait_for(lambda: not marked(mark), 5), f"left running: {marked(mark)}"


# ----------------------------------------------- fault accounting (issue 36, 8)
def test_a_bot_that_never_answers_its_hello_is_given_up_once_per_run(monkeypatch, started, mark):
    """Three chunks of deals: the restart budget holds over them all (it was per chunk: 3 x 4 starts)."""
    monkeypatch.setattr(botmod, "HELLO_TIME_LIMIT", 0.2)
    name = "bot:" + command(TREE, "noready", mark)
    result = run_arena([name, "greedy", "greedy", "greedy"], deals=12, rules="mainstream", tables=8)
    faults = result.faults[0]
    assert faults["timeout"] == botmod.MAX_RESTARTS + 1 and faults["restarts"] == botmod.MAX_RESTARTS
    assert faults["gave_up"] == faults["decisions"] - faults["timeout"] > 0
    assert len(started) == botmod.MAX_RESTARTS + 1
    assert wait_for(lambda: marked(mark) == [], 2), marked(mark)


def test_the_restart_budget_is_shared_by_the_worker_processes():
    """Two worker processes, six chunks: ``max_restarts`` restarts in the whole run."""
    name = "bot:" + command(BOTS / "failing_bot.py", "crash", "5")
    result = run_arena([name, "greedy", "greedy", "greedy"], deals=24, rules="mainstream", tables=8, workers=2)
    faults = result.faults[0]
    assert faults["restarts"] == botmod.MAX_RESTARTS
    # one first start per worker at most, then only the run's restarts
    assert botmod.MAX_RESTARTS + 1 <= faults["crash"] <= botmod.MAX_RESTARTS + 2
    # each process answers 4 decisions at most (a copy still running when the bot is given up
    # elsewhere gives up too); the fallback plays the rest
    answered = faults["decisions"] - faults["gave_up"] - faults["crash"]
    assert faults["gave_up"] > 0 and 0 < answered <= 4 * (faults["crash"] + 2)


def test_a_bot_answering_twice_stays_in_step(mark):
    """Each act is answered twice at once (bare integers, the first legal action, then the last):
    the second line waits in the pipe at the next act and is dropped, counted ``stale``."""
    rs = ruleset_of_preset("mainstream")
    bot = BotPolicy(command(TREE, "twice", mark), ruleset=rs)
    rows = decisions("mainstream", 10)
    try:
        assert [bot(o, m) for o, m in rows] == [int(np.flatnonzero(m)[0]) for _, m in rows]
    finally:
        bot.close()
    faults = bot.faults()
    assert faulty(faults) == 0 and faults["stale"] == len(rows) - 1
    assert "9 stale lines dropped" in fault_line(PolicyReport("bot", 0, 0, 0, {}, faults))


# ----------------------------------------- bots that keep state (issue 36, 10)
@pytest.mark.parametrize("rules", RULES)
def test_act_messages_name_the_hand_and_seat_and_bring_the_seats_events(rules, tmp_path):
    """The bot asks for the events: per hand, what it was sent is exactly the hand's log as its
    seat may see it, in order, each event once, up to its last decision; nothing concealed."""
    log = tmp_path / "messages.jsonl"
    name = "bot:" + command(TREE, "log", marker(), str(log))
    result = run_arena([name, "greedy", "greedy", "greedy"], deals=2, rules=rules, keep=[0, 1])
    assert faulty(result.faults[0]) == 0 and result.reports[0].bot_name == "logger"
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    assert messages[0]["type"] == "hello" and messages[0]["protocol"] == botmod.PROTOCOL
    acts = [m for m in messages if m["type"] == "act"]
    by_hand: dict[str, list] = {}
    for m in acts:
        by_hand.setdefault(m["hand"], []).append(m)
    assert set(by_hand) == {f"{seed}.{rot}" for seed in (0, 1) for rot in range(4)}
    for hand, sent in by_hand.items():
        seed, rot = map(int, hand.split("."))
        seat = rot  # policy 0 sits at seat (0 + rotation) % 4
        assert all(m["seat"] == seat for m in sent)
        full = result.hands[seed][rot]["saved"]["events"]
        got = [e for m in sent for e in m["events"]]
        seen = [x for j in range(len(full)) if (x := seat_event(full, j, seat, False)) is not None]
        assert got == seen[:len(got)]
        assert sum(e["type"] == "act" and e["seat"] == seat for e in got) == len(sent) - 1
        deal = got[0]
        assert deal["type"] == "deal" and "wall" not in deal and "seed" not in deal
        assert deal["hands"][seat] == full[0]["hands"][seat]
        assert [h is None for h in deal["hands"]] == [s != seat for s in range(4)]
        draws = [e for e in got if e["type"] == "draw"]
        assert draws and all(("tile" in e) == (e["seat"] == seat) for e in draws)


def test_seat_events_hold_back_open_window_answers_and_hide_concealed_kongs():
    deal = {"type": "deal", "dealer": 0, "seed": 5, "hands": [[1], [2], [3], [4]], "wall": [9, 9]}
    events = [deal, {"type": "draw", "seat": 0, "tile": 7}, {"type": "act", "seat": 0, "action": 7, "phase": "turn"},
              {"type": "discard", "seat": 0, "tile": 7}, {"type": "act", "seat": 1, "action": 99, "phase": "claim"}]
    seen, nxt = seat_events(events, 0, 2, over=False)  # seat 2 decides while the window is open
    assert [e["type"] for e in seen] == ["deal", "draw", "act", "discard"] and nxt == 4
    assert seen[0]["hands"] == [None, None, [3], None] and "tile" not in seen[1]
    events += [{"type": "act", "seat": 2, "action": 99, "phase": "claim"},
               {"type": "act", "seat": 3, "action": 99, "phase": "claim"},
               {"type": "draw", "seat": 1, "tile": 8}, {"type": "act", "seat": 1, "action": 200, "phase": "turn"},
               {"type": "meld", "seat": 1, "kind": "angang", "tiles": [8, 8, 8, 8]}]
    seen, nxt = seat_events(events, nxt, 2, over=False)  # resolved: the answers come, in order
    assert [(e["type"], e.get("seat")) for e in seen] == [("act", 1), ("act", 2), ("act", 3), ("draw", 1),
                                                          ("meld", 1)]
    assert "tile" not in seen[3] and seen[4]["tiles"] == [] and nxt == len(events)
    assert seat_events(events, 7, 1, over=False)[0][-1]["tiles"] == [8] * 4  # its own kong
    assert seat_events(events, 0, 2, over=True)[0] == events  # the hand over: everything


@pytest.mark.parametrize("given", ["", "x" * (botmod.MAX_NAME + 1), "tab\there", 5, " padded", None])
def test_a_bad_name_in_ready_is_a_bad_reply(given):
    bot = BotPolicy(command(BOTS / "illegal_bot.py", "name", json.dumps(given)), max_restarts=0)
    obs, mask = decisions("mainstream", 1)[0]
    bot(obs, mask)
    assert bot.faults()["bad_reply"] == 1 and bot.proc is None and "name" in bot.last_error


def test_a_good_name_names_the_bot():
    bot = BotPolicy(command(BOTS / "illegal_bot.py", "name", json.dumps("my bot 机器人")))
    try:
        for obs, mask in decisions("mainstream", 3):
            bot(obs, mask)
    finally:
        bot.close()
    assert bot.name == "my bot 机器人" and faulty(bot.faults()) == 0


@pytest.mark.parametrize("tool", ["arena", "league"])
@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "601", "1e3", "２", "soon"])
def test_bot_time_limit_out_of_range_exits_2_naming_the_option(tool, value, capsys):
    from cnmahjong.training.arena.cli import main as arena
    from cnmahjong.training.league.cli import main as league

    policies = ["--policies", "greedy", "random"] + (["greedy", "random"] if tool == "arena" else [])
    with pytest.raises(SystemExit) as e:
        (arena if tool == "arena" else league)([*policies, "--deals", "1", "--bot-time-limit", value])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--bot-time-limit" in err and "at most 600" in err


@pytest.mark.parametrize("tool", ["arena", "league"])
def test_bot_time_limit_reaches_the_bot(tool, tmp_path, capsys):
    from cnmahjong.training.arena.cli import main as arena
    from cnmahjong.training.league.cli import main as league

    log = tmp_path / "messages.jsonl"
    bot = "bot:" + command(TREE, "log", marker(), str(log))
    policies = ["--policies", bot, "greedy"] + (["greedy", "greedy"] if tool == "arena" else [])
    (arena if tool == "arena" else league)([*policies, "--deals", "2", "--workers", "1", "--bot-time-limit", "2.5"])
    hello = json.loads(log.read_text().splitlines()[0])
    assert hello["type"] == "hello" and hello["time_limit"] == 2.5
    if tool == "arena":  # the table names the bot by the name it gave
        assert "faults of logger (bot:" in capsys.readouterr().out


def test_the_bot_module_imports_no_policy_factory():
    """``agents/bot.py`` is handed its fallback: it imports nothing from ``cnmahjong.agents``'s
    ``__init__`` (which imports it for ``bot:CMD``), only sibling modules."""
    tree = ast.parse((ROOT / "agents" / "bot.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "cnmahjong.agents":
            assert all((ROOT / "agents" / f"{a.name}.py").exists() for a in node.names), ast.dump(node)
        if isinstance(node, ast.Import):
            assert all(a.name != "cnmahjong.agents" for a in node.names)


@pytest.mark.parametrize("seconds", [0, -1, float("nan"), 601, True])
def test_run_arena_refuses_a_bad_bot_time_limit(seconds):
    with pytest.raises(ValueError, match="time limit"):
        run_arena(["greedy", "greedy", "greedy", "greedy"], deals=1, rules="mainstream", bot_time_limit=seconds)

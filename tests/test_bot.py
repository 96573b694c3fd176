"""The bot protocol (``cnmahjong.agents.bot``): a program started as a subprocess plays over JSON
lines; one that hangs, dies or answers illegally is replaced for that decision by its fallback,
the arena finishes, and the faults are counted and reported. The bots: ``examples/bots`` (the
example) and ``tests/bots`` (the faulty ones)."""

import importlib.util
import pickle
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

from cnmahjong.agents import GreedyAgent, make_policy
from cnmahjong.agents import bot as botmod
from cnmahjong.agents.bot import FAULTS, BotPolicy
from cnmahjong.envs.core.ruleset import ruleset_of_preset
from cnmahjong.envs.vector import VectorEnv
from cnmahjong.training.arena import run_arena
from cnmahjong.training.arena.table import format_table

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
    """Through the pipe the bot plays exactly what its ``choose`` gives on the same message
    (so the fields it reads arrived whole), and only legal actions."""
    simple = _example_module()
    rs = ruleset_of_preset(rules)
    bot = BotPolicy(command(EXAMPLE), ruleset=rs)
    tiles = bot.hello_message(rs.encoding)["tiles"]
    try:
        for obs, mask in decisions(rules, 60):
            action = bot(obs, mask)
            legal = np.flatnonzero(mask).tolist()
            assert action in legal
            assert action == simple.choose(bot.act_message(0, obs, legal), tiles)
        assert faulty(bot.faults()) == 0 and bot.name == "simple_bot" and bot.view == "fields"
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
    bot = BotPolicy(command(BOTS / "illegal_bot.py", mode), ruleset=rs, fallback="greedy")
    greedy = GreedyAgent(ruleset=rs)
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


def test_bad_fallback_is_refused():
    with pytest.raises(ValueError, match="fallback"):
        BotPolicy(command(EXAMPLE), fallback="bot:" + command(EXAMPLE))
    with pytest.raises(ValueError, match="unknown policy"):
        BotPolicy(command(EXAMPLE), fallback="nonsense")


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

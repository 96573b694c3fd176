"""AgileRL 2.58 (its PettingZoo self-play DQN pattern): examples/agilerl_dqn.py trains on both
rulesets with every settlement reaching its seat, and our envs pass PettingZoo's api_test on the
PettingZoo AgileRL pins (1.26.1).

AgileRL pins pettingzoo and tensordict versions that the main venv cannot hold beside TorchRL, so
all of this runs in its own venv, ``.venv-agilerl``, which ``make test`` creates. Without it these
tests fail (they do not skip): a missing venv must not pass for a working integration.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV_PY = ROOT / ".venv-agilerl" / "bin" / "python"
RECIPE = ROOT / "examples" / "agilerl_dqn.py"
SETTLEMENT = re.compile(r"settlement check: (\d+) finished hands \((\d+) with payments\), (\d+) mismatched "
                        r"\(max \|return - settlement\| = ([^)]+)\)")

pytestmark = pytest.mark.slow


def venv_python() -> str:
    if not VENV_PY.exists():
        pytest.fail(f"{VENV_PY} is missing: `make test` creates the AgileRL venv (.venv-agilerl); "
                    "AgileRL pins pettingzoo 1.26 and tensordict 0.13, so it cannot share .venv")
    return str(VENV_PY)


def command(args: list[str], extra_env: dict[str, str] | None = None) -> dict:
    # quiet: cnmahjong warns at import that PettingZoo 1.26 has no pettingzoo.make registry
    env = {**os.environ, "PYTHONWARNINGS": "ignore", **(extra_env or {})}
    return {"args": [venv_python(), *args], "cwd": ROOT, "env": env, "text": True,
            "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}


def assert_settled(proc: subprocess.CompletedProcess) -> tuple[int, int]:
    """The recipe exited 0 and its settlement line says: hands finished, none mismatched."""
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    found = SETTLEMENT.findall(proc.stdout)
    assert len(found) == 1, out[-3000:]
    hands, paid, mismatched, worst = found[0]
    assert int(hands) >= 1 and int(mismatched) == 0 and float(worst) == 0.0, found[0]
    return int(hands), int(paid)


# rules -> (decisions, extra flags). Changsha explores throughout (epsilon 1): about one hand in
# eight then ends with payments, so the settlement check meets real ones. Hangzhou keeps the
# default schedule (greedy moves too); its hands under random play hardly ever pay anything.
# The relay toy and Sichuan 血战: winners leave mid-hand, their settlements checked all the same.
RUNS = {"mainstream": (2000, ["--eps-end", "1.0"]), "hangzhou": (600, []), "relay-norefund": (600, []),
        "sichuan": (600, [])}
PLUGIN = {"relay-norefund": {"CNMAHJONG_RULESETS": "tests.relay.ruleset:RELAY", "PYTHONPATH": str(ROOT)}}
"""The test ruleset whose winners leave mid-hand (``tests/relay``), registered in the recipe's process."""


@pytest.fixture(scope="module")
def recipe_runs():
    """Both recipe runs, started together: each pays AgileRL's import (~15 s) in its own process,
    so side by side the two cost little more than one."""
    procs = {rules: subprocess.Popen(**command([
        str(RECIPE), "--rules", rules, "--steps", str(steps), "--seed", "1", "--log-every", "500",
        # learning starts early and runs every 8 decisions: a short run still takes gradient steps
        "--learning-starts", "256", "--learn-step", "8", *extra], PLUGIN.get(rules)))
        for rules, (steps, extra) in RUNS.items()}
    yield procs
    for proc in procs.values():  # a failed test leaves no process behind
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("rules", list(RUNS))
def test_recipe_trains_and_every_settlement_reaches_its_seat(recipe_runs, rules):
    proc = recipe_runs[rules]
    try:
        stdout, stderr = proc.communicate(timeout=150)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"examples/agilerl_dqn.py --rules {rules} ran past 150 s")
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    hands, paid = assert_settled(done)
    assert hands >= RUNS[rules][0] // 200, stdout  # a hand is well under 200 decisions
    if rules == "mainstream":
        assert paid >= 1, stdout  # the check compared real payments, not only drawn hands
    updates = re.search(r"(\d+) learning steps", stdout)
    assert updates and int(updates.group(1)) > 0, stdout  # DQN.learn ran on these transitions


API_TEST = """
import warnings
warnings.simplefilter("ignore")
import pettingzoo, supersuit
from pettingzoo.test import api_test
from cnmahjong import changsha_mahjong_v0, hangzhou_mahjong_v0, sichuan_mahjong_v0
for module in (changsha_mahjong_v0, hangzhou_mahjong_v0, sichuan_mahjong_v0):
    api_test(module.env(), num_cycles=300)                               # dict obs, mask inside
    api_test(module.env(box=True), num_cycles=300)                       # planes; mask in infos
    api_test(supersuit.flatten_v0(module.env(box=True)), num_cycles=300)  # what the recipe plays
print("pettingzoo", pettingzoo.__version__)
"""


def test_api_test_passes_on_agilerls_pettingzoo():
    proc = subprocess.run(**command(["-c", API_TEST]), timeout=120)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert proc.stdout.count("Passed API test") == 9, proc.stdout
    assert "pettingzoo 1.26" in proc.stdout, proc.stdout  # the version AgileRL 2.58 pins


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))

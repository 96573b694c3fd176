"""examples/tianshou_dqn.py runs as the README prints it, and every finished hand's return is the
learning seat's settlement (the script's own settlement check)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("tianshou") is None,
                                reason="needs the tianshou extra")  # found, not imported: the script imports it

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = "examples/tianshou_dqn.py"
SETTLEMENT = re.compile(r"^settlement check: (\d+) finished hands, (\d+) mismatched "
                        r"\(max \|return - settlement\| = (\S+)\)$", re.MULTILINE)
EPOCH = re.compile(r"^epoch +(\d+)/(\d+) +steps +([\d,]+) +hands +(\d+) ", re.MULTILINE)


def run(command: list[str]) -> subprocess.CompletedProcess:
    """From the repository root. The environment is inherited: CNMAHJONG_PURE reaches the script
    only where the caller set it."""
    return subprocess.run(command, cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=600)


def run_example(*args: str) -> str:
    """The script as the README prints it (``python examples/tianshou_dqn.py ...``); it must exit 0."""
    proc = run([sys.executable, SCRIPT, *args])
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def settlement(out: str) -> tuple[int, int, float]:
    found = SETTLEMENT.findall(out)
    assert len(found) == 1, out
    hands, mismatched, worst = found[0]
    return int(hands), int(mismatched), float(worst)


def test_changsha_readme_command_learns_and_every_settlement_reaches_its_seat():
    out = run_example("--steps", "3000")  # the README's command
    epochs = EPOCH.findall(out)
    assert [(int(e), int(n)) for e, n, _, _ in epochs] == [(1, 3), (2, 3), (3, 3)], out
    assert int(epochs[-1][2].replace(",", "")) == 3000
    assert all(int(h) >= 1 for *_, h in epochs), out  # hands finish in every epoch
    hands, mismatched, worst = settlement(out)
    assert hands >= 1 and mismatched == 0 and worst <= 1e-9, out  # a float's rounding (ROUNDING)


def test_hangzhou_short_run_checks_settlements_and_saves_an_hz_checkpoint(tmp_path):
    from cnmahjong.agents.torch_policy import load_actor_critic

    path = tmp_path / "hz.pt"
    out = run_example("--steps", "600", "--rules", "hangzhou", "--learning-starts", "200",
                      "--epoch-steps", "300", "--test-hands", "4", "--save", str(path))
    assert "rules hangzhou: obs (4930,), actions 75" in out, out
    assert len(EPOCH.findall(out)) == 2, out
    hands, mismatched, worst = settlement(out)
    assert hands >= 1 and mismatched == 0 and worst <= 1e-9, out  # a float's rounding (ROUNDING)
    assert load_actor_critic(str(path)).encoder == "hz-v0"


BROKEN_SETTLEMENT = f"""
import runpy, sys
from cnmahjong.envs.integrations import tianshou
step = tianshou.SharedSeatEnv.step

def off_by_a_tenth(self, action):  # every finished hand's return 0.1 off its settlement
    out = step(self, action)
    if out[2]:
        ret, paid = self.finished[-1]
        self.finished[-1] = (ret + 0.1, paid)
    return out

tianshou.SharedSeatEnv.step = off_by_a_tenth
sys.argv = ["{SCRIPT}", "--steps", "100", "--learning-starts", "100", "--test-hands", "0", "--net-arch", "16"]
runpy.run_path("{SCRIPT}", run_name="__main__")
"""


def test_a_return_that_misses_its_settlement_fails_the_run():
    proc = run([sys.executable, "-c", BROKEN_SETTLEMENT])
    assert proc.returncode == 1, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    hands, mismatched, worst = settlement(proc.stdout)
    assert hands >= 1 and mismatched == hands and abs(worst - 0.1) < 1e-9, proc.stdout
    assert "settlement check FAILED" in proc.stderr

"""Distillation (``cnmahjong.training.distill``, issue: search then networks distilled from it): a tiny
run records the search player's positions in two worker processes and ends with a loadable
checkpoint; the positions file is plain arrays, checked before use, and reused only when it fits."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cnmahjong.training.distill import _init, load_positions, record_hands, train

TINY = {"algo": "distill", "rules": "mainstream", "teacher": "search:rollouts=2", "positions": 100, "num_workers": 2,
        "hands_per_chunk": 1, "arch": "mlp", "net_arch": [32], "epochs": 2, "holdout": 0.25}


def test_a_tiny_distillation_run_ends_with_a_loadable_checkpoint(tmp_path):
    from cnmahjong.agents import make_policy
    from cnmahjong.training.arena import run_arena

    final = train({**TINY, "run_dir": str(tmp_path)})
    lines = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert lines[0]["phase"] == "record" and lines[0]["positions"] >= 100
    assert lines[1]["phase"] == "imitation" and lines[1]["held_out"] > 0
    data = load_positions(tmp_path / "positions.npz", "cs-v0")
    assert data["teacher"] == "search:rollouts=2" and len(data["act"]) == lines[0]["positions"]
    assert (data["mask"].sum(axis=1) > 1).all()  # only decisions with a choice
    # the labels are the teacher's: the first hand recorded again in this process gives the same rows
    _init("mainstream", "search:rollouts=2")
    again = record_hands(int(data["hand"][0]), 1)
    rows = data["hand"] == data["hand"][0]
    for key in ("obs", "mask", "act", "ret"):
        assert np.array_equal(again[key], data[key][rows]), key
    policy = make_policy(f"ckpt:{final}", ruleset="changsha")
    result = run_arena([f"ckpt:{final}", "greedy", "greedy", "greedy"], deals=1, rules="mainstream", seed=1)
    assert sum(p["settlement"] for p in result.hands[0][0]["policies"]) == 0 and policy is not None


def test_a_positions_file_is_reused_only_when_it_fits(tmp_path, capsys):
    train({**TINY, "run_dir": str(tmp_path), "positions": 10})
    train({**TINY, "run_dir": str(tmp_path), "positions": 10})
    assert "reusing" in capsys.readouterr().out
    train({**TINY, "run_dir": str(tmp_path), "positions": 10, "teacher": "greedy"})
    assert "reusing" not in capsys.readouterr().out
    assert load_positions(tmp_path / "positions.npz", "cs-v0")["teacher"] == "greedy"


def test_bad_positions_files_are_refused_naming_the_field(tmp_path):
    n = 3
    good = {"obs": np.zeros((n, 119, 27), np.uint8), "mask": np.ones((n, 69), bool), "act": np.zeros(n, np.int64),
            "ret": np.zeros(n, np.float32), "hand": np.zeros(n, np.int64), "encoder": np.array("cs-v0"),
            "teacher": np.array("search"), "rules": np.array("mainstream")}
    from cnmahjong.envs.core.ruleset import get_ruleset

    good["mask"] = np.ones((n, get_ruleset("changsha").num_actions), bool)
    path = tmp_path / "p.npz"
    np.savez(path, **good)
    assert len(load_positions(path, "cs-v0")["act"]) == n
    cases = [({"encoder": np.array("hz-v0")}, "field 'encoder' is 'hz-v0'"),
             ({"act": np.zeros(n, np.int32)}, "field 'act' is int32"),
             ({"obs": np.zeros((n, 5, 27), np.uint8)}, "field 'obs'"),
             ({"ret": np.array([0, np.nan, 0], np.float32)}, "non-finite"),
             ({"mask": np.zeros_like(good["mask"])}, "outside its row's mask"),
             ({"teacher": np.array([1, 2])}, "field 'teacher'"),
             ({"rules": np.array(["a", "b"], dtype=object)}, "cannot be read as plain arrays")]
    for change, said in cases:
        np.savez(path, **{**good, **change})
        with pytest.raises(ValueError, match=said):
            load_positions(path, "cs-v0")
    del good["hand"]
    np.savez(path, **good)
    with pytest.raises(ValueError, match=r"lacks \['hand'\]"):
        load_positions(path, "cs-v0")
    path.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="cannot be read"):
        load_positions(path, "cs-v0")


def test_sigterm_stops_a_recording_and_its_workers(tmp_path):
    """SIGTERM to ``cnmahjong-train`` while two workers record: the run stops (status 130, its
    message) and no worker process is left running (they were orphaned before)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    cfg = tmp_path / "d.yaml"
    cfg.write_text(f"algo: distill\nrun_dir: {tmp_path / 'run'}\nrules: mainstream\nteacher: search\n"
                   "positions: 100000\nnum_workers: 2\nhands_per_chunk: 1\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "cnmahjong.training.train", "--config", str(cfg)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def children() -> list[int]:
        """The run's child processes, read from /proc (no pgrep needed)."""
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                        ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                if ppid == proc.pid:
                    found.append(int(entry))
        return found

    try:
        deadline = time.monotonic() + 120
        while len(children()) < 2 and time.monotonic() < deadline:  # the workers (and a resource tracker)
            time.sleep(0.5)
        workers = children()
        assert len(workers) >= 2, proc.stderr.read()[-2000:] if proc.poll() is not None else "no workers"
        time.sleep(2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130 and "stopped" in err, err[-2000:]
    deadline = time.monotonic() + 10
    alive = workers
    while alive and time.monotonic() < deadline:
        alive = [w for w in alive if os.path.exists(f"/proc/{w}") and "zombie" not in _state(w)]
        time.sleep(0.2)
    assert not alive, f"left running: {alive}"


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as f:
            return next((line for line in f if line.startswith("State:")), "").lower()
    except OSError:
        return "zombie"

"""The tools' own surfaces (issue 36, findings 3, 4 and 7): one Ctrl-C stops the arena and the
league with their worker processes, an output that is an input or another output (or has a
suffix its writer cannot write) is refused before any deal, and the counts and reads are bounded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cnmahjong.training import files
from cnmahjong.training.arena import cli as arena_cli
from cnmahjong.training.arena import core as arena_core
from cnmahjong.training.arena import versus
from cnmahjong.training.league import cli as league_cli
from cnmahjong.training.league import core as league_core
from cnmahjong.training.viewer.replay import main as replay_main

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ finding 3: one Ctrl-C
def _group(pgid: int) -> list[int]:
    """The live (not zombie) processes of a process group."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            pids.append(int(entry.name))
    return pids


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts processes through /proc")
@pytest.mark.parametrize("argv, started, to_group", [
    (["cnmahjong.training.arena", "--policies", "random", "random", "random", "random", "--deals", "20000"],
     b"deals ", True),  # Ctrl-C in a terminal: the whole foreground group gets it
    (["cnmahjong.training.league", "--policies", "random", "greedy", "--deals", "20000"],
     b"playing ", False),  # one SIGINT from a script or a notebook: the tool's process only
], ids=["arena-ctrl-c", "league-one-sigint"])
def test_one_sigint_stops_the_tool_and_its_workers(argv, started, to_group):
    # started as a foreground program is: SIGINT at its default (a shell's background job, as a
    # `make test &`, would hand it SIGINT ignored, and Python keeps that)
    proc = subprocess.Popen([sys.executable, "-m", *argv, "--workers", "2"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    err = bytearray()

    def read() -> None:
        for chunk in iter(lambda: proc.stderr.read1(4096), b""):
            err.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 90
        while not (started in err and len(_group(proc.pid)) >= 3):  # the tool and its two workers at play
            assert proc.poll() is None and time.monotonic() < deadline, bytes(err).decode(errors="replace")
            time.sleep(0.2)
        time.sleep(1.0)
        (os.killpg if to_group else os.kill)(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=10) == 130
        reader.join(timeout=5)
        assert b"interrupted: nothing written" in err
        deadline = time.monotonic() + 5
        while _group(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _group(proc.pid) == [], "worker processes left running"
    finally:
        if _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# ------------------------------------------------------------------ finding 4: outputs
@pytest.fixture()
def no_play(monkeypatch):
    """Any deal played fails the test: the refusals come first."""
    def refuse(*args, **kwargs):
        pytest.fail("a deal was played")
    monkeypatch.setattr(arena_cli, "run_arena", refuse)
    monkeypatch.setattr(league_core, "run_arena", refuse)
    monkeypatch.setattr(versus, "run_arena", refuse)


def _refused(main, argv, capsys) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    return capsys.readouterr().err


ARENA = ["--policies", "greedy", "greedy", "greedy", "greedy", "--deals", "2", "--workers", "1"]


def test_an_output_that_is_a_checkpoint_is_refused(tmp_path, capsys, no_play):
    model = tmp_path / "mine.json"  # a checkpoint named like a report: the suffix alone would not save it
    model.write_bytes(b"the trained model")
    (tmp_path / "link.json").symlink_to(model)
    for out in (model, tmp_path / "link.json", Path(os.path.relpath(model))):
        err = _refused(arena_cli.main, [*ARENA[:2], f"ckpt:{model}", *ARENA[3:], "--json", str(out)], capsys)
        assert f"--json {out} is the policy ckpt:{model}" in err
        err = _refused(versus.main, ["--candidate", f"ckpt:{model}", "--opponents", "greedy", "--deals", "2",
                                     "--json", str(out)], capsys)
        assert f"--json {out} is the policy ckpt:{model}" in err
        err = _refused(league_cli.main, ["--policies", "greedy", f"ckpt:{model}", "--json", str(out)], capsys)
        assert f"--json {out} is the policy ckpt:{model}" in err
    assert model.read_bytes() == b"the trained model"


def test_outputs_may_not_overwrite_each_other_or_the_league(tmp_path, capsys, no_play):
    hands = tmp_path / "hands"
    hands.mkdir()
    err = _refused(arena_cli.main, [*ARENA, "--json", str(hands / "deal0_rot2.json"), "--save-hands", str(hands)],
                   capsys)
    assert "--save-hands file deal0_rot2.json" in err and "is also --json" in err
    league = tmp_path / "league.png"  # a league file under a chart's name
    league.write_text("{}")
    err = _refused(league_cli.main, ["--league", str(league), "--policies", "greedy", "--png", str(league)], capsys)
    assert f"--png {league} is the --league file" in err
    err = _refused(league_cli.main, ["--league", str(league), "--policies", "greedy", "--json", str(league)], capsys)
    assert "leave --json out" in err
    assert league.read_text() == "{}" and sorted(p.name for p in tmp_path.iterdir()) == ["hands", "league.png"]


@pytest.mark.parametrize("flag, name", [("--png", "chart.json"), ("--png", "chart"), ("--json", "report.png"),
                                        ("--json", "model.pt")])
def test_an_output_named_with_a_suffix_its_writer_cannot_write_is_refused(tmp_path, capsys, no_play, flag, name):
    out = tmp_path / name
    err = _refused(arena_cli.main, [*ARENA, flag, str(out)], capsys)
    assert f"{flag} {out}: the file name must end in" in err
    err = _refused(league_cli.main, ["--policies", "greedy", "random", flag, str(out)], capsys)
    assert f"{flag} {out}: the file name must end in" in err
    assert not out.exists()


def test_a_chart_in_another_format_matplotlib_writes_is_still_allowed():
    assert {".png", ".svg", ".pdf"} <= set(files.image_suffixes())
    assert files.outputs_problem([("--png", "chart.svg", files.image_suffixes())]) is None


# ------------------------------------------------------------------ finding 7: bounds
@pytest.mark.parametrize("main, base", [
    (arena_cli.main, ARENA[:5]),
    (league_cli.main, ["--policies", "greedy", "random"]),
    (versus.main, ["--candidate", "greedy", "--opponents", "random"]),
], ids=["arena", "league", "versus"])
@pytest.mark.parametrize("option, value, message", [
    ("--workers", "100000", f"--workers 100000 is more than {files.MAX_WORKERS}"),
    ("--deals", str(10 ** 12), f"--deals {10 ** 12} is more than {files.MAX_DEALS:,}"),
])
def test_counts_above_the_bound_are_refused(capsys, no_play, main, base, option, value, message):
    assert message in _refused(main, [*base, option, value], capsys)


@pytest.mark.parametrize("deals, workers, processes", [(2, 8, []), (40, 8, [2]), (100, 3, [3])])
def test_never_more_worker_processes_than_chunks(monkeypatch, deals, workers, processes):
    """Chunks hold 32 deals: 2 deals are one chunk (no worker process at all), 40 two, 100 four."""
    asked = []

    def ordered_map(fn, items, n, init, setup):  # records the processes asked for, plays in-process
        asked.append(n)
        return map(fn, items)

    monkeypatch.setattr(arena_core, "ordered_map", ordered_map)
    monkeypatch.setattr(arena_core, "_play_chunk", lambda chunk: ([[{}] * 4 for _ in chunk[1]], [{}] * 4))
    arena_core.run_deals(["random"] * 4, deals, "mainstream", workers=workers, progress=False)
    assert asked == processes


def test_workers_above_the_cores_are_warned_about(capsys, monkeypatch):
    monkeypatch.setattr(files.os, "cpu_count", lambda: 1)
    arena_cli.main(["--policies", "random", "random", "random", "random", "--deals", "2", "--workers", "2"])
    assert "warning: --workers 2 is more than the 1 cores here" in capsys.readouterr().err


def test_the_viewer_reads_dev_zero_and_huge_files_bounded(tmp_path, capsys):
    from cnmahjong.training.viewer import frames

    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(frames.MAX_BYTES + 1)  # sparse: made at once
    for src in ("/dev/zero", str(big)):
        out = tmp_path / "hand.html"
        err = _refused(replay_main, [src, "-o", str(out)], capsys)
        assert f"larger than the limit of {frames.MAX_BYTES:,} bytes" in err and src in err
        assert not out.exists()

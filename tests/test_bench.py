"""``make bench``'s trainer row measures the trainer as a training run has it: the learner on every
core, whatever the bench's one-core rows set (``OMP_NUM_THREADS=1`` in ``training/bench``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import torch

import cnmahjong.training.selfplay_ppo as selfplay_ppo
from cnmahjong.training.bench.rates import trainer_rates


def test_the_trainer_row_learns_on_every_core_and_gives_the_threads_back(monkeypatch):
    seen = []

    def fake_train(cfg):  # the log train writes, two updates (the first is the warm-up, dropped)
        seen.append(torch.get_num_threads())
        row = {"collect_seconds": 1.0, "learn_seconds": 3.0, "env_decisions": 400,
               "learner_threads": torch.get_num_threads()}
        Path(cfg["run_dir"], "log.jsonl").write_text("\n".join(json.dumps(row) for _ in range(2)) + "\n")

    monkeypatch.setattr(selfplay_ppo, "train", fake_train)
    before = torch.get_num_threads()
    torch.set_num_threads(1)  # as the bench's one-core rows leave it
    try:
        rates = trainer_rates(0.01)
        assert torch.get_num_threads() == 1  # given back
    finally:
        torch.set_num_threads(before)
    assert seen == [os.cpu_count()]
    assert rates["learner threads"] == os.cpu_count()
    assert rates["end to end"] == 100.0 and rates["collection"] == 400.0 and rates["learning"] == 400 / 3


def test_the_riichienv_lines_give_each_ruleset_its_ratio_beside_its_target():
    from cnmahjong.envs.core.ruleset import rulesets
    from cnmahjong.training.bench.cli import RIICHIENV_ROW, riichienv_lines, uint8_row

    shipped = rulesets()
    rows = [(uint8_row(rs), 60_000.0 * (i + 1), 0) for i, rs in enumerate(shipped)] + [(RIICHIENV_ROW, 40_000.0, 0)]
    rows += [(uint8_row(rs, log=False), 90_000.0 * (i + 1), 0) for i, rs in enumerate(shipped)]
    lines = riichienv_lines(rows)
    assert len(lines) == 2 * len(shipped)  # with and without the event log, each ruleset's pair together
    for i, rs in enumerate(shipped):
        for line, ratio, log in ((lines[2 * i], 1.5 * (i + 1), ""), (lines[2 * i + 1], 2.25 * (i + 1), ", log=False")):
            assert line.startswith(f"{rs.title} VectorEnv uint8{log} over RiichiEnv, same rounds: {ratio:.2f}×")
            if rs.riichienv_ratio:
                flag = "ok" if ratio >= rs.riichienv_ratio else "BELOW TARGET"
                assert line.endswith(f"(target ≥ {rs.riichienv_ratio}×)  {flag}")
            else:
                assert "target" not in line
    assert any(rs.riichienv_ratio for rs in shipped)  # the targets are declared
    assert riichienv_lines(rows[:len(shipped)]) == [riichienv_lines([])[0]] and "not measured" in riichienv_lines([])[0]

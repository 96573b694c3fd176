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

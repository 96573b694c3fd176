"""Tianshou (2.x): DQN with the seats sharing one network; every settlement reaches its seat."""

from __future__ import annotations

import json

import numpy as np

from cnmahjong.agents import make_policy
from cnmahjong.envs.integrations.tianshou import QNet, SharedSeatEnv
from cnmahjong.training.train import main
from tests.test_training import legal_play


def test_tianshou_dqn_collects_updates_and_saves_an_arena_policy(tmp_path):
    cfg = tmp_path / "ts.yaml"
    cfg.write_text(f"""
algo: tianshou_dqn
run_dir: {tmp_path / 'run'}
total_timesteps: 2000
epoch_steps: 1000
collect_steps: 200
batch_size: 64
buffer_size: 5000
n_envs: 2
net_arch: [32]
reward_scale: 1.0
""")
    final = main(["--config", str(cfg)])  # collect + update epochs: no buffer error
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert log[-1]["hands"] >= 50
    assert max(r["settlement_mismatch"] for r in log) == 0.0  # each hand: the seat's return is its settlement
    legal_play(make_policy(f"ckpt:{final}"))


def test_shared_seat_env_keeps_one_info_layout_and_a_legal_mask():
    env = SharedSeatEnv(QNet([16]), reward_scale=1.0)
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        assert set(info) == {"seat"} and obs["obs"].shape == (119 * 27,) and obs["mask"].any()
        done = False
        while not done:
            legal = np.flatnonzero(obs["mask"])
            obs, _, done, _, info = env.step(int(legal[-1]))
            assert set(info) == {"seat"}
    assert len(env.finished) == 20 and all(r == p for r, p in env.finished)
    assert any(p != 0 for _, p in env.finished)


def test_tianshou_run_stops_within_one_collection_of_max_minutes(tmp_path):
    """``max_minutes`` is checked before every collection, not only between epochs: an epoch of a
    million steps is cut at the deadline (it used to run to its end)."""
    import time

    cfg = tmp_path / "ts.yaml"
    cfg.write_text(f"""
algo: tianshou_dqn
run_dir: {tmp_path / 'run'}
total_timesteps: 10000000
epoch_steps: 1000000
collect_steps: 64
batch_size: 32
buffer_size: 2000
n_envs: 1
net_arch: [16]
max_minutes: 0.05
""")
    start = time.time()
    final = main(["--config", str(cfg)])
    elapsed = time.time() - start
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert len(log) == 1 and 0 < log[0]["env_steps"] < 1_000_000  # one cut epoch, its steps counted
    assert elapsed < 60, f"a 3-second run took {elapsed:.0f} s"
    legal_play(make_policy(f"ckpt:{final}"))

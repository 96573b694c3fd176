"""The self-play trainer's transition store: rewards reach the right decision, GAE along each seat."""

import numpy as np
import pytest

from cnmahjong.training.selfplay_ppo import Rollout

SHAPE, A = (2, 3), 4


def add(store, table, seat, value):
    store.add(np.array([table]), np.array([seat]), np.zeros((1, *SHAPE), np.uint8), np.ones((1, A), np.int8),
              np.array([1]), np.array([0.0], np.float32), np.array([value], np.float32))


def pay(store, table, seat, amount, tables=2):
    r = np.zeros((tables, 4), np.float32)
    r[table, seat] = amount
    store.credit(r, np.ones((tables, 4), bool))


def test_rewards_go_to_the_open_decision_and_gae_follows_each_seat():
    s = Rollout(SHAPE, A, num_tables=2, capacity=2)  # grows as needed
    add(s, 0, 0, 0.5)       # id 0
    add(s, 0, 2, 0.25)      # id 1
    pay(s, 0, 2, 3.0)       # paid before seat 2's first decision: VectorEnv(defer_early_payments=True)
                            # delivers it at the step answering that decision (the envs' Ledger)
    add(s, 1, 0, 0.0)       # id 2, another table: not finished
    add(s, 0, 0, 1.0)       # id 3, seat 0's second decision
    pay(s, 0, 0, -2.0)      # to id 3
    pay(s, 0, 2, 1.0)       # to id 1
    s.end_hand(0)
    out = s.take_complete(gamma=0.5, lam=0.5)
    assert out["val"].tolist() == [0.5, 0.25, 1.0]
    # id 3: done; adv = r - v = -3.  id 0: r 0 + 0.5 * v(3) - v(0) + 0.5*0.5*adv(3) = 0 + 0.5 - 0.5 - 0.75
    # id 1: done; adv = (3 + 1) - 0.25
    assert out["adv"].tolist() == pytest.approx([-0.75, 3.75, -3.0])
    assert out["ret"].tolist() == pytest.approx([-0.25, 4.0, -2.0])
    assert s.n == 1 and s.last[1, 0] == 0 and s.last[0].tolist() == [-1] * 4  # table 1 kept, renumbered
    add(s, 1, 0, 2.0)
    pay(s, 1, 0, 5.0, tables=2)
    s.end_hand(1)
    out = s.take_complete(gamma=1.0, lam=1.0)
    assert out["adv"].tolist() == pytest.approx([0 + 2.0 - 0.0 + (5.0 - 2.0), 3.0])
    assert s.n == 0

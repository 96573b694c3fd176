"""The one reward path (``cnmahjong.envs.core.rewards.Ledger``): who is paid when, in the AEC env
and ``VectorEnv`` alike."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cnmahjong.envs.aec import aec_env
from cnmahjong.envs.core.rewards import Ledger
from cnmahjong.envs.vector import VectorEnv
from tests.test_vector import _finish_aec, by_table, drive_aec_rewards, random_actions


def test_payments_reach_decided_seats_at_once_and_undecided_ones_at_their_first_decision():
    ledger = Ledger(tables=2, scale=2.0, defer=True)
    assert ledger.pay(0, [0, 0, 0, 0]) is None  # nothing new
    ledger.decide(0, 1)
    due = ledger.pay(0, [6, -2, -2, -2])  # an opening win (起手胡) paid before seats 0, 2, 3 decided
    assert due == [0.0, -1.0, 0.0, 0.0]
    assert ledger.decide(0, 0) == 3.0  # its first decision brings it
    assert ledger.decide(0, 0) == 0.0  # once
    assert ledger.pay(1, [1, -1, 0, 0]) == [0.0] * 4  # table 1 is its own episode
    assert ledger.release(0) == [0.0, 0.0, -1.0, -1.0]  # the end: the rest
    assert ledger.pay(0, [6, -2, -2, -2]) is None
    ledger.start(0)
    assert ledger.paid[0] == [0] * 4 and ledger.decided[0] == [False] * 4


def test_without_deferral_every_payment_is_due_at_once():
    ledger = Ledger(scale=1.0, defer=False)
    assert ledger.pay(0, [3, -1, -1, -1]) == [3.0, -1.0, -1.0, -1.0]
    assert ledger.release() == [0.0] * 4


@given(st.lists(st.tuples(st.lists(st.integers(-50, 50), min_size=3, max_size=3),
                          st.sets(st.integers(0, 3))), min_size=1, max_size=12),
       st.booleans())
def test_every_seat_receives_exactly_what_it_was_paid(steps, defer):
    """Whatever the order of payments and first decisions, a seat's rewards sum to its total."""
    ledger = Ledger(defer=defer)
    totals = [0, 0, 0, 0]
    got = [0.0] * 4
    for three, deciders in steps:
        totals = [totals[s] + x for s, x in enumerate([*three, -sum(three)])]  # zero-sum payments
        for s, r in enumerate(ledger.pay(0, totals) or [0.0] * 4):
            got[s] += r
        for s in deciders:
            got[s] += ledger.decide(0, s)
    for s, r in enumerate(ledger.release()):
        got[s] += r
    assert got == [float(x) for x in totals]
    assert sum(got) == 0


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou"])
def test_vector_env_deferring_pays_each_window_what_the_aec_env_pays(ruleset):
    """``VectorEnv(defer_early_payments=True)``: at every step, each seat's reward equals the sum
    of the AEC env's (default, deferring) rewards over the same decisions."""
    venv = VectorEnv(num_tables=2, seed=3, ruleset=ruleset, defer_early_payments=True)
    batch = venv.reset()
    aecs = []
    for t in range(2):
        e = aec_env(ruleset)()
        e.reset(seed=venv.table_seeds[t])
        aecs.append(e)
    rng = np.random.default_rng(1)
    hands = nonzero = 0
    hu = aecs[0].RULESET.game.ACTIONS.HU
    while hands < 80:
        actions = random_actions(batch, rng)
        actions[batch.mask[:, hu] == 1] = hu  # win when it can: hands that pay
        chosen = by_table(batch, actions, len(aecs))
        batch = venv.step(actions)
        for t, aec in enumerate(aecs):
            got = drive_aec_rewards(aec, chosen[t])
            assert np.allclose(batch.rewards[t], got)
            nonzero += bool(got.any())
            if batch.hand_over[t]:
                _finish_aec(aec)
                aec.reset()
                hands += 1
    assert nonzero >= 2  # random discards seldom win: most hands are draws (流局)


def test_vector_env_holds_an_opening_win_until_the_seat_decides():
    """Changsha 起手胡 (§5): a seat that declares an opening win is paid by seats that have not
    decided yet; with deferral each payer's share reaches it at the step that answers its first
    decision (never earlier), and the hand still sums to zero."""
    from cnmahjong.envs.changsha import actions as A

    held_seen = 0
    for seed in range(300):
        plain = VectorEnv(num_tables=1, seed=seed)
        deferred = VectorEnv(num_tables=1, seed=seed, defer_early_payments=True)
        a, b = plain.reset(), deferred.reset()
        rng = np.random.default_rng(seed)
        owed = np.zeros(4)  # plain rewards of each seat before (and at) its first decision
        decided: set[int] = set()
        total = np.zeros(4)
        while True:
            acts = random_actions(b, rng)
            for i in range(len(b)):  # declare opening wins whenever offered
                declares = np.flatnonzero(b.mask[i, A.DECLARE:A.DICE_ONE])
                if declares.size:
                    acts[i] = A.DECLARE + int(declares[0])
            seats = set(b.seat.tolist())
            a, b = plain.step(acts), deferred.step(acts)
            assert np.array_equal(a.hand_over, b.hand_over)
            for s in range(4):
                if s in decided:
                    assert b.rewards[0, s] == pytest.approx(a.rewards[0, s])
                    continue
                owed[s] += a.rewards[0, s]
                if s in seats:  # its first decision
                    decided.add(s)
                    held_seen += owed[s] != a.rewards[0, s]
                    assert b.rewards[0, s] == pytest.approx(owed[s])
                elif not b.hand_over[0]:
                    assert b.rewards[0, s] == 0.0
            total += b.rewards[0]
            if b.hand_over[0]:
                break
        assert total.sum() == pytest.approx(0.0)
        if held_seen >= 3:
            break
    assert held_seen >= 3

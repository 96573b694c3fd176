"""``VectorEnv`` against the AEC env, row for row and reward for reward, for a ruleset whose seats
may leave mid-hand and whose windows may hold four seats (the relay, Sichuan)."""

from __future__ import annotations

import numpy as np

from tests.test_vector import random_actions


def drive(aec, chosen):
    """Step the AEC env through one table's rows (seat -> action), dead steps of seats that left
    included; return every seat's rewards summed over those steps."""
    got = np.zeros(4)
    left = dict(chosen)
    while left or (aec.agents and aec.terminations[aec.agent_selection] and not aec.game.done):
        agent = aec.agent_selection
        if aec.terminations[agent] and not aec.game.done:
            aec.step(None)
            continue
        aec.step(int(left.pop(aec.agent_name_mapping[agent])))
        got += [aec.rewards.get(f"player_{s}", 0.0) for s in range(4)]
    return got


def check_vector_parity(ruleset: str, hands_wanted: int, rules: str | None = None, tables: int = 8,
                        state_every: int = 7) -> int:
    """Play random legal actions through ``VectorEnv`` (uint8, with the state) and one AEC env per
    table until ``hands_wanted`` hands ended; assert every row's observation and mask (and every
    ``state_every``-th row's state) equal the AEC env's, each table's rewards equal the AEC env's
    over the same decisions, a hand's rewards its payments, and the event logs equal. Returns the
    batches in which one table had four rows."""
    from cnmahjong.envs.aec import aec_env
    from cnmahjong.envs.vector import VectorEnv

    venv = VectorEnv(num_tables=tables, seed=4, ruleset=ruleset, rules=rules, state=True, obs_dtype=np.uint8)
    batch = venv.reset()
    aecs = []
    for t in range(tables):
        e = aec_env(ruleset)(rules=rules)
        e.reset(seed=venv.table_seeds[t])
        aecs.append(e)
    rng = np.random.default_rng(0)
    hands = four_rows = 0
    totals = np.zeros((tables, 4))
    while hands < hands_wanted:
        four_rows += any((batch.table == t).sum() == 4 for t in range(tables))
        for i in range(len(batch)):
            aec = aecs[batch.table[i]]
            o = aec.observe(f"player_{batch.seat[i]}")
            assert np.array_equal(venv.encoding.to_float(batch.obs[i]), o["observation"])
            assert np.array_equal(batch.mask[i], o["action_mask"])
            if i % state_every == 0:
                assert np.array_equal(venv.state_layout.to_float(batch.state[i]), aec.state())
        actions = random_actions(batch, rng)
        chosen = [{} for _ in range(tables)]
        for i, a in enumerate(actions):
            chosen[batch.table[i]][int(batch.seat[i])] = a
        batch = venv.step(actions)
        for t, aec in enumerate(aecs):
            got = drive(aec, chosen[t]) if chosen[t] else np.zeros(4)
            assert np.allclose(batch.rewards[t], got)
            totals[t] += got
            if batch.hand_over[t]:
                assert np.allclose(totals[t], aec.game.result.payments)
                totals[t] = 0
                while aec.agents:
                    aec.step(None)
                aec.reset()
                hands += 1
            else:
                assert aec.game.events == venv.games[t].events
    return four_rows

"""One side of the compiled-vs-pure differential test: ``python tests/differential.py RULESET HANDS [SEED]``.

Plays ``HANDS`` hands on 32 tables of ``VectorEnv`` with seeded random legal actions and prints one
JSON object: how each hot module was imported, and per step a digest of everything the step gave
(observation rows, masks, table and seat of each row, rewards, hands over) followed, for each hand
that ended, by a digest of its whole event log and result. Run once with ``CNMAHJONG_PURE=1`` and
once without: equal digests mean the two paths played every step identically.
"""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np

from cnmahjong.envs.hotpath import status
from cnmahjong.envs.vector import VectorEnv


def digests(ruleset: str, hands: int, seed: int = 7, tables: int = 32) -> tuple[list[str], int]:
    """Per step the digest, and the hands played (at least ``hands``)."""
    venv = VectorEnv(num_tables=tables, seed=seed, obs_dtype=np.uint8, ruleset=ruleset)
    rng = np.random.default_rng(seed)
    batch = venv.reset()
    out = []
    while venv.hands_played < hands:
        actions = (rng.random(batch.mask.shape) * batch.mask).argmax(axis=1)
        games = list(venv.games)
        batch = venv.step(actions)
        h = hashlib.blake2b(digest_size=16)
        for array in (batch.obs, batch.mask, batch.table, batch.seat, batch.rewards, batch.hand_over):
            h.update(np.ascontiguousarray(array).tobytes())
        for t in np.flatnonzero(batch.hand_over):
            game = games[t]
            h.update(json.dumps([game.events, game.payments], sort_keys=True, default=repr).encode())
        out.append(h.hexdigest())
    return out, venv.hands_played


if __name__ == "__main__":
    ruleset, hands = sys.argv[1], int(sys.argv[2])
    steps, played = digests(ruleset, hands, int(sys.argv[3]) if len(sys.argv) > 3 else 7)
    print(json.dumps({"status": status(), "steps": steps, "hands": played}))

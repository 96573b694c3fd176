"""The long random soak: ``python tests/soak.py RULESET HANDS [--seed N]``.

Plays ``HANDS`` hands of a shipped ruleset with its fuzz test's biased random play and its
invariants checked after every step (``tests/test_<ruleset>_fuzz.py``: ``CONFIGS``, ``play``),
cycling through its option sets and dealers, every hundredth hand replayed from its event log.
Prints one JSON line: hands, steps, wins, seconds, and the first failure (seed and error) if any.
Too long for ``make test``; its result is committed with the command (docs/development.md).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cnmahjong.envs.core.ruleset import REGISTERED, get_ruleset  # noqa: E402

FUZZ = {"changsha": "tests.test_game_fuzz", "hangzhou": "tests.test_hangzhou_fuzz",
        "sichuan": "tests.test_sichuan_fuzz"}


def soak(ruleset: str, hands: int, seed: int = 0) -> dict[str, object]:
    fuzz = importlib.import_module(FUZZ[ruleset])
    game_class = get_ruleset(ruleset).game
    rng = random.Random(seed)
    start, steps, wins = time.time(), 0, 0
    for i in range(hands):
        hand_seed = seed * 1_000_003 + i
        try:
            g = game_class(fuzz.CONFIGS[i % len(fuzz.CONFIGS)], seed=hand_seed, dealer=i % 4)
            fuzz.play(g, rng)
            if i % 100 == 0:
                again = game_class.replay(g.events)
                assert again.events == g.events and again.result == g.result, "replay differs"
        except Exception:  # noqa: BLE001 - the soak reports the first failure with its seed
            return {"ruleset": ruleset, "hands": i, "failed_seed": hand_seed, "error": traceback.format_exc()}
        steps += sum(e["type"] == "act" for e in g.events)
        wins += len(g.result.winners)
    return {"ruleset": ruleset, "hands": hands, "steps": steps, "wins": wins, "seconds": round(time.time() - start),
            "failed_seed": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", choices=sorted(set(REGISTERED) & set(FUZZ)))
    parser.add_argument("hands", type=int)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.hands < 1:
        parser.error("HANDS must be at least 1")
    result = soak(args.ruleset, args.hands, args.seed)
    print(json.dumps(result))
    sys.exit(1 if result["failed_seed"] is not None else 0)


if __name__ == "__main__":
    main()

"""One policy against three copies of each opponent: the evaluation a shipped agent carries.

    python -m cnmahjong.training.arena.versus --rules hangzhou --candidate pretrained-hangzhou \\
        --opponents random greedy expert --deals 2000 --json agents/pretrained/hangzhou.eval.json

For each opponent it plays the duplicate arena (``run_arena``: every deal in 4 seat rotations)
with the candidate at one seat and the opponent at the other three, and reports the
candidate's mean per hand with its 95% interval, its win / deal-in rates and the ruleset's own
counts (Hangzhou 爆头, 飘). The JSON keeps each match's whole arena report and the command.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
from typing import Any

from cnmahjong.agents import make_policy
from cnmahjong.envs.core.ruleset import preset_names, ruleset_of_preset
from cnmahjong.training.arena.core import ArenaResult, default_rules, run_arena
from cnmahjong.training.arena.table import format_table
from cnmahjong.training.files import (
    JSON_SUFFIXES,
    count_problem,
    interrupted,
    outputs_problem,
    policy_files,
    workers_warning,
)


def versus(candidate: str, opponents: list[str], deals: int, rules: str, seed: int = 0, workers: int = 1,
           progress: bool = True) -> dict[str, ArenaResult]:
    """The candidate against 3 × each opponent: ``{opponent: the arena's result}``."""
    return {opp: run_arena([candidate, opp, opp, opp], deals, rules, seed, workers, progress=progress)
            for opp in opponents}


def summary_rows(matches: dict[str, ArenaResult]) -> list[dict[str, Any]]:
    """The candidate's line of each match (its report, the opponent named)."""
    return [{"opponent": opp, **result.reports[0].to_dict()} for opp, result in matches.items()]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--candidate", required=True, help="the policy evaluated (a make_policy name)")
    parser.add_argument("--opponents", nargs="+", required=True, metavar="POLICY",
                        help="each played as 3 copies against the candidate")
    parser.add_argument("--deals", type=int, default=2000, help="seeded deals per opponent (x4 rotations)")
    parser.add_argument("--rules", default=default_rules(), choices=sorted(preset_names()))
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--workers", type=int, default=min(2, mp.cpu_count()), help="processes")
    parser.add_argument("--json", help="write the evaluation here")
    args = parser.parse_args(argv)
    problem = count_problem(args.deals, args.seed, args.workers)
    if problem:
        parser.error(problem)
    problem = outputs_problem([("--json", args.json, JSON_SUFFIXES)], policy_files([args.candidate, *args.opponents]))
    if problem:
        parser.error(problem)
    warning = workers_warning(args.workers)
    if warning:
        print(warning, file=sys.stderr)
    ruleset = ruleset_of_preset(args.rules)
    for name in [args.candidate, *args.opponents]:  # every policy loads before a deal is played
        try:
            make_policy(name, ruleset=ruleset)
        except ValueError as e:
            parser.error(f"bad policy {name!r}: {e}")
    try:
        matches = versus(args.candidate, args.opponents, args.deals, args.rules, args.seed, args.workers)
    except KeyboardInterrupt:
        interrupted()
    for opp, result in matches.items():
        print(f"\n{args.candidate} vs 3 x {opp}")
        print(format_table(result.reports, result.deals, result.unit))
    out = {"candidate": args.candidate, "rules": args.rules, "deals": args.deals, "seed": args.seed,
           "command": "python -m cnmahjong.training.arena.versus " + " ".join(sys.argv[1:] if argv is None else argv),
           "summary": summary_rows(matches), "matches": {opp: r.to_dict() for opp, r in matches.items()}}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
        print(f"wrote {args.json}")
    return out


if __name__ == "__main__":  # spawned workers import this module as __mp_main__: they must not run it
    sys.argv[0] = "python -m cnmahjong.training.arena.versus"
    main()

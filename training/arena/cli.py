"""Evaluation arena: duplicate play with confidence intervals.

    python -m cnmahjong.training.arena --policies greedy random random random --deals 500 --json out.json
    python -m cnmahjong.training.arena --rules hangzhou --policies greedy random random random --deals 500

(``cnmahjong-arena`` and ``python -m cnmahjong.training.evaluate`` are the same command.)
Each seeded deal is played once per seating rotation (4 rotations), so every policy holds
every hand from every seat; luck of the deal cancels out. For each policy the arena reports
the mean settlement per hand with a 95% confidence interval (bootstrap over deals: a deal's
value is the policy's mean over its rotations), the win, self-draw, deal-in and big-win rates,
and the ruleset's own counts per hand. It prints a table and can write JSON, a PNG bar chart
and chosen deals' hands for the replay viewer.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
from pathlib import Path

from cnmahjong.agents import POLICY_NAMES, make_policy
from cnmahjong.agents.bot import TIME_LIMIT, time_limit_arg
from cnmahjong.envs.core.ruleset import preset_names, ruleset_of_preset
from cnmahjong.training.arena.core import ArenaResult, default_rules, run_arena
from cnmahjong.training.arena.plot import plot
from cnmahjong.training.arena.save import hand_names, save_hands, write_json
from cnmahjong.training.arena.table import format_table
from cnmahjong.training.files import (
    JSON_SUFFIXES,
    count_problem,
    image_suffixes,
    interrupted,
    outputs_problem,
    policy_files,
    workers_warning,
)
from cnmahjong.training.sigterm import sigterm_as_interrupt


def _parser() -> argparse.ArgumentParser:
    presets = preset_names()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--policies", nargs=4, required=True, metavar="POLICY",
                        help="four policies: " + ", ".join(POLICY_NAMES))
    parser.add_argument("--bot-time-limit", type=time_limit_arg, default=None, metavar="SECONDS",
                        help=f"seconds a bot (bot:CMD) has for each decision, > 0 and at most 600 "
                             f"(default {TIME_LIMIT:g})")
    parser.add_argument("--trust-zip", action="store_true",
                        help="allow SB3 .zip checkpoints (unpickling them can run code: only your own files)")
    parser.add_argument("--deals", type=int, default=500, help="number of seeded deals (x4 rotations)")
    parser.add_argument("--rules", default=default_rules(), choices=sorted(presets),
                        help="a rule preset: " + ", ".join(f"{p} ({rs})" for p, rs in presets.items()))
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--workers", type=int, default=min(2, mp.cpu_count()), help="processes")
    parser.add_argument("--json", help="write the report as JSON here")
    parser.add_argument("--png", help="write a bar chart with error bars here")
    parser.add_argument("--save-hands", metavar="DIR",
                        help="write the chosen deals' hands (every rotation) here, for the replay viewer")
    parser.add_argument("--save-deals", default=None, metavar="SEEDS",
                        help="comma-separated deal seeds to save (default: the first 4 deals)")
    return parser


def _save_seeds(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[int]:
    """The deal seeds ``--save-hands`` keeps, checked against the deals played."""
    if not args.save_hands:
        if args.save_deals:
            parser.error("--save-deals needs --save-hands DIR")
        return []
    if not Path(args.save_hands).is_dir():
        parser.error(f"--save-hands {args.save_hands}: not an existing folder")
    try:
        seeds = ([int(x) for x in args.save_deals.split(",")] if args.save_deals
                 else list(range(args.seed, args.seed + min(4, args.deals))))
    except ValueError:
        parser.error(f"--save-deals {args.save_deals!r}: give deal seeds separated by commas, e.g. 0,5,9")
    outside = [x for x in seeds if not args.seed <= x < args.seed + args.deals]
    if outside:
        parser.error(f"--save-deals {outside} are not among the deals played "
                     f"({args.seed}..{args.seed + args.deals - 1})")
    return seeds


def main(argv: list[str] | None = None) -> ArenaResult:
    """Check every argument (and load every policy) before a deal is played, then play and write."""
    parser = _parser()
    sigterm_as_interrupt()  # SIGTERM ends the run as Ctrl-C does: the workers and the bots end
    args = parser.parse_args(argv)
    problem = count_problem(args.deals, args.seed, args.workers)
    if problem:
        parser.error(problem)
    save_seeds = _save_seeds(parser, args)
    hands = [(f"--save-hands file {name}", str(Path(args.save_hands) / name), JSON_SUFFIXES)
             for name in hand_names(save_seeds)] if args.save_hands else []
    problem = outputs_problem([("--json", args.json, JSON_SUFFIXES),
                               ("--png", args.png, image_suffixes() if args.png else ()), *hands],
                              policy_files(args.policies))
    if problem:
        parser.error(problem)
    warning = workers_warning(args.workers)
    if warning:
        print(warning, file=sys.stderr)
    ruleset = ruleset_of_preset(args.rules)
    for name in args.policies:  # fail fast on a bad name, a missing, unreadable or foreign checkpoint
        try:
            make_policy(name, ruleset=ruleset, trust_pickles=args.trust_zip)
        except ValueError as e:
            parser.error(f"bad policy {name!r}: {e}")
    try:
        result = run_arena(args.policies, args.deals, args.rules, args.seed, args.workers, progress=True,
                           keep=save_seeds, trust_pickles=args.trust_zip, bot_time_limit=args.bot_time_limit)
    except KeyboardInterrupt:
        interrupted()
    print(format_table(result.reports, result.deals, result.unit))
    if args.json:
        print(f"wrote {write_json(result, args.json)}")
    if args.png:
        plot(result.reports, args.png, f"{' / '.join(args.policies)} ({args.deals} deals)")
        print(f"wrote {args.png}")
    if args.save_hands:
        written = save_hands(result, args.save_hands)
        print(f"wrote {len(written)} hands to {args.save_hands} (python -m cnmahjong.training.viewer "
              f"{args.save_hands}/deal{save_seeds[0]}_rot0.json -o hand.html)")
    return result

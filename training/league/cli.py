"""The league's command line: every argument and every policy checked before a deal is played.

    python -m cnmahjong.training.league --rules hangzhou --policies random greedy expert --deals 500 \\
        --json hz_league.json --png hz_league.png
    python -m cnmahjong.training.league --league hz_league.json --policies pretrained-hangzhou

A new league plays every pairing of ``--policies``. With ``--league FILE`` the file's league
is extended: its rules, deals and seed are kept (giving others is an error), only the pairings
of the new policies are played, and the file is written back (or to ``--json``).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
from functools import partial
from pathlib import Path

from cnmahjong.agents import POLICY_NAMES, make_policy
from cnmahjong.agents.bot import TIME_LIMIT, time_limit_arg
from cnmahjong.envs.core.ruleset import preset_names, ruleset_of_preset
from cnmahjong.training.arena.core import default_rules
from cnmahjong.training.files import (
    JSON_SUFFIXES,
    count_problem,
    image_suffixes,
    interrupted,
    output_path_problem,
    outputs_problem,
    policy_files,
    same_file,
    workers_warning,
)
from cnmahjong.training.league.core import League, Pair, play_pair
from cnmahjong.training.league.report import format_league, plot_league
from cnmahjong.training.league.store import Signature, read_league, save_league, signature
from cnmahjong.training.sigterm import sigterm_as_interrupt

DEALS = 500
"""Deals per pairing when a new league names none."""


def _parser() -> argparse.ArgumentParser:
    presets = preset_names()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--policies", nargs="+", required=True, metavar="POLICY",
                        help=f"policies to rank (or add): {', '.join(POLICY_NAMES)}")
    parser.add_argument("--league", metavar="FILE", help="an existing league JSON to extend")
    parser.add_argument("--rules", choices=sorted(presets), default=None,
                        help="a rule preset: " + ", ".join(f"{p} ({rs})" for p, rs in presets.items())
                        + f" (default {default_rules()})")
    parser.add_argument("--deals", type=int, default=None, help=f"seeded deals per pairing, x4 rotations "
                        f"(default {DEALS})")
    parser.add_argument("--seed", type=int, default=None, help="first deal seed (default 0)")
    parser.add_argument("--workers", type=int, default=min(2, mp.cpu_count()), help="processes")
    parser.add_argument("--bot-time-limit", type=time_limit_arg, default=None, metavar="SECONDS",
                        help=f"seconds a bot (bot:CMD) has for each decision, > 0 and at most 600 "
                             f"(default {TIME_LIMIT:g})")
    parser.add_argument("--trust-zip", action="store_true",
                        help="allow SB3 .zip checkpoints (unpickling them can run code: only your own files)")
    parser.add_argument("--json", help="write the league here (default: back to --league)")
    parser.add_argument("--png", help="write the ratings and pairwise chart here")
    return parser


def _existing(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[League, Signature]:
    """The league to extend (``--league``) and its file's state as read, or a new one (and the
    state of ``--json`` now); a set-up that disagrees is refused."""
    if not args.league:
        league = League(args.rules or default_rules(), DEALS if args.deals is None else args.deals,
                        0 if args.seed is None else args.seed)
        return league, signature(args.json) if args.json else None
    path = Path(args.league)
    if not path.is_file():
        parser.error(f"--league {args.league}: no such file")
    try:
        league, before = read_league(path, f"--league {args.league}")
    except ValueError as e:
        parser.error(str(e))
    for flag, given, kept in (("--rules", args.rules, league.rules), ("--deals", args.deals, league.deals),
                              ("--seed", args.seed, league.seed)):
        if given is not None and given != kept:
            parser.error(f"{flag} {given} disagrees with {args.league}, played with {flag} {kept}: "
                         f"a league's pairings all share its rules, deals and seed (leave {flag} out)")
    return league, before if not args.json else signature(args.json)


def main(argv: list[str] | None = None) -> League:
    parser = _parser()
    sigterm_as_interrupt()  # SIGTERM ends the run as Ctrl-C does: the workers and the bots end
    args = parser.parse_args(argv)
    problem = count_problem(args.deals, args.seed, args.workers)
    if problem:
        parser.error(problem)
    twice = sorted({p for p in args.policies if args.policies.count(p) > 1})
    if twice:
        parser.error(f"--policies names {', '.join(twice)} more than once: each policy plays the league once")
    if args.json and args.league and same_file(args.json, args.league):
        parser.error(f"--json {args.json} is the --league file: leave --json out, the league is written back to it")
    problem = outputs_problem([("--json", args.json, JSON_SUFFIXES),
                               ("--png", args.png, image_suffixes() if args.png else ())],
                              [("the --league file", args.league), *policy_files(args.policies)])
    if problem:
        parser.error(problem)
    league, before = _existing(parser, args)
    out = args.json or args.league
    problem = output_path_problem(out)
    if problem:
        parser.error(f"--league {out}: {problem}")
    warning = workers_warning(args.workers)
    if warning:
        print(warning, file=sys.stderr)
    ruleset = ruleset_of_preset(league.rules)
    new = [p for p in args.policies if p not in league.policies]
    for name in new:  # fail fast on a bad name, a missing, unreadable or foreign checkpoint
        try:
            make_policy(name, ruleset=ruleset, trust_pickles=args.trust_zip)
        except ValueError as e:
            parser.error(f"bad policy {name!r}: {e}")
    if len([*league.policies, *new]) < 2:
        parser.error("a league needs at least 2 policies")

    def progress(pair: Pair, k: int, of: int) -> None:
        print(f"  pairing {k}/{of}: {pair.a} vs {pair.b}: {pair.mean:+.3f} per hand per seat",
              file=sys.stderr, flush=True)

    def complete(merged: League) -> None:  # another run wrote the file: play what neither played
        print(f"{out} changed meanwhile: merged, playing {len(merged.missing([]))} more pairings", file=sys.stderr)
        merged.add([], workers=args.workers, trust_pickles=args.trust_zip, on_pair=progress, play=play)

    play = None if args.bot_time_limit is None else partial(play_pair, bot_time_limit=args.bot_time_limit)
    todo = league.missing(new)
    print(f"playing {len(todo)} pairings x {league.deals} deals ({league.rules})", file=sys.stderr)
    try:
        league.add(new, workers=args.workers, trust_pickles=args.trust_zip, on_pair=progress, play=play)
        if out:
            league = save_league(out, league, before, f"--json {out}" if args.json else f"--league {out}", complete)
    except KeyboardInterrupt:
        interrupted()
    except ValueError as e:
        print(format_league(league))
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    print(format_league(league))
    if out:
        print(f"wrote {out}")
    if args.png:
        plot_league(league, args.png)
        print(f"wrote {args.png}")
    return league

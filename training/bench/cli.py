"""Speed figures (``make bench``), one core, for every registered ruleset.

Rows: each ruleset's rules-core micro-benchmarks (its ``benchmarks`` module names them and
their targets); ≥ 400 random-play hands/s on each engine (random legal actions, every preset);
≥ 20,000 AEC decisions/s through each PettingZoo env with random masked actions, observation
and mask built every step; ``VectorEnv`` decisions (64 tables, observations and masks, random
masked actions drawn for the whole batch at once) of each ruleset, and for the default one
≥ 40,000 decisions/s in float32 and uint8, in pure Python, with the global state, and (with
``--wheel-python``) in the installed wheel.

Search rows (``training/bench/search.py``), per ruleset: worlds sampled per second, ``clone()``
against ``copy.deepcopy``, whole remaining hands played out per second by each rollout policy
(greedy, expert, random), and the search player's decisions per second at its default budget
(target ≥ 1: a second a decision). ``--search-only`` runs them alone.

``--trainer`` adds the self-play trainer's collection with 1 and 2 rollout workers on each
backend (local processes, Ray actors on a local Ray) and how it scales (2 workers over 1:
target ≥ 1.7×), its end-to-end PPO throughput on all cores for each backend (collection and
learning, ``configs/selfplay_ppo.yaml`` for one minute), and the arena's speed for a checkpoint
against three greedy players. ``--trainer-only`` runs the trainer's rows alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
from collections.abc import Callable
from typing import Any

from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, REGISTERED, rulesets
from cnmahjong.training.bench.rates import (
    RIICHIENV,
    aec_rate,
    arena_rate,
    collection_rates,
    engine_rate,
    installed_vector_rate,
    instructions_per_decision,
    parallel_ceiling,
    pass_rate,
    pure_vector_rate,
    riichienv_rate,
    trainer_rates,
    vector_rate,
    vector_steps,
)
from cnmahjong.training.bench.search import search_measures

Measure = tuple[tuple[str, ...], Callable[[], Any], tuple[int, ...]]
"""(names, a measure giving one value per name, targets); an engine measure gives hands and decisions."""


def measures(seconds: float, hands: int, wheel_python: str | None = None, search: bool = True,
             others: bool = True) -> list[Measure]:
    """Every one-core row, ruleset by ruleset (the registry's order); ``search``: with the search
    rows, ``others``: with the rest."""
    out: list[Measure] = [m for rs in rulesets() for m in search_measures(rs, seconds)] if search else []
    if not others:
        return out
    rng = random.Random(0)
    for rs in rulesets():
        bench = rs.core_bench
        for label, one_pass, target in bench(rng, hands) if bench else ():
            out.append(((f"{rs.title} {label}",), lambda p=one_pass: pass_rate(p, seconds), (target,)))
    for rs in rulesets():
        for preset in rs.presets:
            out.append(((f"{rs.title} engine random-play hands ({preset})", f"{rs.title} engine decisions ({preset})"),
                        lambda rs=rs, preset=preset: engine_rate(preset, seconds, rs), (400, 0)))
        out.append(((f"{rs.title} AEC env decisions (obs + mask)",), lambda rs=rs: aec_rate(seconds, rs), (20_000,)))
        out.append(((uint8_row(rs, log=False),), lambda rs=rs: vector_rate(seconds, "uint8", ruleset=rs, log=False),
                    (0,)))
        if rs.name != DEFAULT_RULESET:
            out.append(((uint8_row(rs),), lambda rs=rs: vector_rate(seconds, "uint8", ruleset=rs), (0,)))
            continue
        out += [
            ((f"{rs.title} VectorEnv decisions, float32 (64 tables)",), lambda: vector_rate(seconds), (40_000,)),
            ((uint8_row(rs),), lambda: vector_rate(seconds, "uint8"), (40_000,)),
            (("  the same, pure Python (CNMAHJONG_PURE=1)",), lambda: pure_vector_rate(seconds), (0,)),
            (("  the same with state=True (global state)",), lambda: vector_rate(seconds, "uint8", state=True), (0,)),
        ]
        if wheel_python:
            out.append((("  the same, installed wheel (fresh venv)",),
                        lambda: installed_vector_rate(wheel_python, seconds), (40_000,)))
    if importlib.util.find_spec("riichienv"):
        out.append(((RIICHIENV_ROW,), lambda: riichienv_rate(seconds), (0,)))
    return out


RIICHIENV_ROW = f"RiichiEnv decisions, random play, obs.encode() ({RIICHIENV}, Rust core)"


def uint8_row(rs: Any, log: bool = True) -> str:
    """The name of a ruleset's ``VectorEnv`` uint8 row (64 tables; the default ruleset's says so),
    ``log=False``: its tables without event logs."""
    return (f"{rs.title} VectorEnv decisions, uint8" + (" (64 tables)" if rs.name == DEFAULT_RULESET else "")
            + ("" if log else ", log=False"))


def riichienv_lines(rows: list[tuple[str, float, int]]) -> list[str]:
    """Each ruleset's ``VectorEnv`` uint8 decisions over RiichiEnv's, both from the same rounds,
    beside the ruleset's target (``Ruleset.riichienv_ratio``)."""
    values = {name: value for name, value, _ in rows}
    theirs = values.get(RIICHIENV_ROW)
    if theirs is None:
        return [f"RiichiEnv: not measured (not installed; make bench installs it: pip install {RIICHIENV!r})"]
    out = []
    for rs in rulesets():
        for log in (True, False):
            ours = values.get(uint8_row(rs, log))
            if ours is None:
                continue
            ratio, target = ours / theirs, rs.riichienv_ratio
            flag = f" (target ≥ {target}×)  {'ok' if ratio >= target else 'BELOW TARGET'}" if target else ""
            out.append(f"{rs.title} VectorEnv uint8{'' if log else ', log=False'} over RiichiEnv, same rounds: "
                       f"{ratio:.2f}×{flag}")
    return out


SCALING_TARGET = 1.7
"""Collection with 2 rollout workers over 1 (on 2 cores: each worker has a core of its own)."""
TRAINER_TARGET = 10_000
"""Self-play PPO end to end on 2 cores, decisions a second (the native-speed issue's target)."""
INSTRUCTIONS_TARGET = 30_000
"""Instructions of one compiled ``VectorEnv`` decision (uint8, 64 tables), the same issue's target:
about 2× RiichiEnv's Rust core with its encoder, measured beside it when the issue was filed."""
BACKENDS = ("processes", "ray")


def trainer_rows(seconds: float, minutes: float) -> tuple[list[tuple[str, float, int]], list[str]]:
    """The trainer's rows for each backend (collection with 1 and 2 workers, end to end), and the
    lines that give the collection's scaling from 1 to 2 workers."""
    rows: list[tuple[str, float, int]] = []
    lines = []
    backends = [b for b in BACKENDS if b != "ray" or importlib.util.find_spec("ray")]
    if len(backends) < len(BACKENDS):
        lines.append("backend ray: not measured (Ray is not installed: make install-train)")
    for backend in backends:
        ceiling = parallel_ceiling()  # measured beside each pair: a shared machine's load drifts
        one, two = collection_rates(backend, seconds)
        rows += [(f"self-play collection, 1 worker ({backend})", one, 0),
                 (f"self-play collection, 2 workers ({backend})", two, 0)]
        ratio = two / one
        flag = "ok" if ratio >= SCALING_TARGET else "BELOW TARGET"
        lines.append(f"collection scaling, 2 workers / 1 worker ({backend}): {ratio:.2f}× "
                     f"(target ≥ {SCALING_TARGET}×)  {flag}; this machine's ceiling at the time: {ceiling:.2f}× "
                     f"(two busy processes over one)")
    for backend in backends:
        rates = trainer_rates(minutes, backend)
        rows.append((f"self-play PPO end to end, 2 cores ({backend})", rates["end to end"], TRAINER_TARGET))
        rows.append(("  of which collection alone", rates["collection"], 0))
        rows.append((f"  of which learning alone ({rates['learner threads']} torch threads)", rates["learning"], 0))
        rows.append(("  collection share of the time (%)", 100 * rates["collect share"], 0))
    return rows, lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20000, help="distinct random hands")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3,
                        help="rounds of all one-core measures; each figure's best run is reported (as timeit "
                             "does: the others were slowed by other load on the machine)")
    parser.add_argument("--trainer", action="store_true",
                        help="also measure the self-play trainer (collection with 1 and 2 workers and end to end, per "
                             "backend) and the arena (about 5 minutes)")
    parser.add_argument("--search-only", action="store_true",
                        help="only the search rows: worlds, clone, rollouts per policy, search decisions")
    parser.add_argument("--trainer-only", action="store_true",
                        help="only the trainer's rows: collection with 1 and 2 workers and end to end, per backend")
    parser.add_argument("--collect-seconds", type=float, default=8.0,
                        help="collection time of each backend's 1- and 2-worker rows together (after a warm-up "
                             "rollout; the pools take turns)")
    parser.add_argument("--trainer-minutes", type=float, default=1.0,
                        help="length of each end-to-end trainer run")
    parser.add_argument("--wheel-python", metavar="PYTHON",
                        help="also measure VectorEnv (uint8) in this interpreter's installed package (make bench: "
                             "a fresh venv with the built wheel)")
    parser.add_argument("--vector-steps", type=int, metavar="N",
                        help="only run the fixed VectorEnv workload of N steps (for callgrind) and print its decisions")
    parser.add_argument("--ruleset", choices=sorted(REGISTERED), default=None,
                        help="--vector-steps and --instructions: this shipped ruleset only (default: the default "
                             "ruleset for --vector-steps, every shipped one for --instructions)")
    parser.add_argument("--no-log", action="store_true",
                        help="--vector-steps: tables that keep no event log (VectorEnv(log=False))")
    parser.add_argument("--instructions", action="store_true",
                        help="only count the instructions of one VectorEnv decision (uint8): compiled with and "
                             "without the event log, pure with it (valgrind's callgrind; about 8 minutes)")
    args = parser.parse_args(argv)
    if args.vector_steps is not None:
        print(f"decisions {vector_steps(args.vector_steps, ruleset=args.ruleset, log=not args.no_log)}")
        return
    if args.instructions:
        for name, pure, log in (("compiled", False, True), ("compiled, log=False", False, False),
                                ("pure Python", True, True)):
            for rs in ([args.ruleset] if args.ruleset else REGISTERED):
                count = instructions_per_decision(pure, ruleset=rs, log=log)
                target = "" if pure else (f"  (target ≤ {INSTRUCTIONS_TARGET:,}: "
                                          f"{'ok' if count <= INSTRUCTIONS_TARGET else 'BELOW TARGET'})")
                print(f"VectorEnv decision, uint8, {rs}, {name}: {count:,.0f} instructions{target}")
        return

    if args.trainer_only:
        rows, lines = trainer_rows(args.collect_seconds, args.trainer_minutes)
        print_rows(rows, lines)
        return
    rows_of = measures(args.seconds, args.hands, args.wheel_python, others=not args.search_only)
    # Rounds of every measure, the best of each kept: a slow spell of this shared machine, which
    # can outlast one measure's runs, then falls on one run of several measures rather than on
    # all runs of one.
    best: list[tuple[float, ...]] = [()] * len(rows_of)  # () is below every run
    for _ in range(args.repeats):
        for i, (_, measure, _) in enumerate(rows_of):
            value = measure()
            best[i] = max(best[i], value if isinstance(value, tuple) else (value,))
    rows = [(name, value, target) for (names, _, targets), values in zip(rows_of, best, strict=True)
            for name, value, target in zip(names, values, targets, strict=True)]
    lines = [] if args.search_only else riichienv_lines(rows)
    if args.trainer and not args.search_only:
        more, trainer_lines = trainer_rows(args.collect_seconds, args.trainer_minutes)
        rows += more
        lines += trainer_lines
        rows.append(("arena deals, checkpoint vs 3 greedy, 2 cores", arena_rate(400), 30))
    print_rows(rows, lines)


def print_rows(rows: list[tuple[str, float, int]], lines: list[str]) -> None:
    """The table (name, per second, target, ok or BELOW TARGET), then ``lines``."""
    from cnmahjong.envs.hotpath import status

    paths = list(status().values())
    print(f"hot path: {paths.count('compiled')} of {len(paths)} modules compiled (envs/hotpath.py)")
    width = max(40, *(len(name) + 2 for name, _, _ in rows))
    print(f"{'measure':<{width}}{'per second':>14}{'target':>12}")
    for name, value, target in rows:
        flag = "" if not target else "ok" if value >= target else "BELOW TARGET"
        shown = f"{value:,.1f}" if value < 100 else f"{value:,.0f}"
        print(f"{name:<{width}}{shown:>14}{f'{target:,}' if target else '':>12}  {flag}")
    for line in lines:
        print(line)

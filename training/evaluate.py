"""Evaluation arena: duplicate play with confidence intervals.

    python -m cnmahjong.training.evaluate --policies greedy random random random --deals 500 --json out.json

Each seeded deal is played once per seating rotation (4 rotations), so every
policy holds every hand from every seat; luck of the deal cancels out. For each
policy the arena reports the mean settlement per hand with a 95% confidence
interval (bootstrap over deals: a deal's value is the policy's mean over its
rotations), and the win, self-draw, deal-in and big-win rates, and per ruleset
海底 / 开杠 usage (Changsha) or 爆头 / 飘 (Hangzhou) per hand. It prints a table and
can write JSON and a PNG bar chart.

    python -m cnmahjong.training.evaluate --rules hangzhou --policies greedy random random random --deals 500
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cnmahjong.agents import make_policy
from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.core.ruleset import PRESETS, get_ruleset, ruleset_of_preset, ruleset_of_rules
from cnmahjong.envs.vector import VectorEnv

NUM_SEATS = 4
EXTRA_STATS = {"changsha": ("haidi_take", "kaigang"), "hangzhou": ("baotou", "piao")}
"""Per-hand counts of the ruleset's own moves, beside the common rates."""


@dataclass
class PolicyReport:
    """Arena results of one policy entry."""

    name: str
    mean: float
    ci_low: float
    ci_high: float
    rates: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "mean_settlement": self.mean, "ci95": [self.ci_low, self.ci_high],
                **self.rates}


# --------------------------------------------------------------------- playing
TABLES = 64
"""Hands in flight per process: the rows of one step go through each policy in one call."""


def _extra_counts(game: Any, ruleset: str) -> tuple[list[int], list[int], list[bool]]:
    """Per seat: the ruleset's two extra counts, and whether its win (if any) was big (Changsha: a
    big pattern; Hangzhou: a multiplier above ×1)."""
    first, second = [0] * NUM_SEATS, [0] * NUM_SEATS
    result = game.result
    if ruleset == "changsha":
        for e in game.events:
            if e["type"] == "act" and e["action"] == A.HAIDI_TAKE:
                first[e["seat"]] += 1
            elif e["type"] == "meld" and e.get("how") == "kaigang":
                second[e["seat"]] += 1
        return first, second, [result.he.get(s, 0) > 0 for s in range(NUM_SEATS)]
    for e in game.events:
        if e["type"] == "win" and "BAOTOU" in e["patterns"]:
            first[e["seat"]] += 1
        elif e["type"] == "discard" and e.get("piao"):
            second[e["seat"]] += 1
    return first, second, [result.exponent > 0] * NUM_SEATS


def hand_stats(game: Any, seat_of: Sequence[int], ruleset: str = "changsha") -> list[dict[str, Any]]:
    """Per policy index, the statistics of one finished hand (``seat_of[p]``: its seat)."""
    result = game.result
    first, second, big = _extra_counts(game, ruleset)
    names = EXTRA_STATS[ruleset]
    rows = []
    for s in seat_of:
        won = s in result.winners
        rows.append({
            "settlement": result.payments[s], "win": won, "self_draw": won and result.self_drawn,
            "deal_in": bool(result.winners) and result.payer == s, "big_win": won and big[s],
            names[0]: first[s], names[1]: second[s],
        })
    return rows


def _act(policy: Any, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A policy's actions for several rows: one batched call when it has ``act_batch``."""
    batched = getattr(policy, "act_batch", None)
    if batched is not None:
        return np.asarray(batched(obs, mask), dtype=np.int64)
    return np.array([int(policy(o, m)) for o, m in zip(obs, mask, strict=True)], dtype=np.int64)


def save_hand(game: Any, path: Path, seat_names: Sequence[str], tops: dict[int, list]) -> None:
    """The hand's events for ``cnmahjong.training.replay``, with the top actions a checkpoint player
    recorded (``tops``: per seat, (action, top) in decision order) keyed by act-event index."""
    queues = {s: list(rows) for s, rows in tops.items()}
    notes: dict[str, Any] = {}
    for i, e in enumerate(game.events):
        if e["type"] == "act" and queues.get(e["seat"]):
            action, top = queues[e["seat"]][0]
            if action == e["action"]:
                queues[e["seat"]].pop(0)
                notes[str(i)] = {"top": top}
    path.write_text(json.dumps({"events": game.events, "annotations": notes, "seats": list(seat_names)},
                               ensure_ascii=False), encoding="utf-8")


def play_deals(names: Sequence[str], seeds: Sequence[int], rules: dict[str, Any], tables: int = TABLES,
               policy_seed: int = 0, ruleset: str = "changsha", save_dir: str | None = None,
               save_seeds: Sequence[int] = (), trust_pickles: bool = False) -> list[list[dict[str, Any]]]:
    """Play every deal of ``seeds`` in all four rotations, ``tables`` hands at a time through
    ``VectorEnv``; per deal, per rotation, each policy's statistics. Deal ``s`` is the hand the
    AEC env deals after ``reset(seed=s)``. Hands of the deals in ``save_seeds`` are written to
    ``save_dir`` as ``deal{seed}_rot{rotation}.json`` (events and checkpoint players' top-3)."""
    save = set(save_seeds) if save_dir else set()
    tops: dict[int, dict[int, list]] = {}  # table -> seat -> [(action, top-3)] of the hand in play
    rs = get_ruleset(ruleset)
    config = rs.as_config(rules)
    policies = [make_policy(n, seed=policy_seed + i, ruleset=rs, trust_pickles=trust_pickles)
                for i, n in enumerate(names)]
    if "torch" in sys.modules:  # one arena process per core: torch's own threads would only contend
        sys.modules["torch"].set_num_threads(1)
    jobs = iter([(i, seed, rotation) for i, seed in enumerate(seeds) for rotation in range(NUM_SEATS)])
    job_of: dict[int, tuple[int, int, int]] = {}

    def next_hand(t: int) -> Any:
        job = next(jobs, None)
        if job is None:
            return None
        job_of[t] = job
        return rs.new_hand(config, np.random.default_rng(job[1]))

    venv = VectorEnv(num_tables=min(tables, 4 * len(seeds)), rules=config, hands=next_hand, ruleset=rs)
    out: list[list[dict[str, Any] | None]] = [[None] * NUM_SEATS for _ in seeds]
    batch = venv.reset()
    while len(batch):
        rotation = np.array([job_of[t][2] for t in batch.table.tolist()])
        index = (batch.seat - rotation) % NUM_SEATS  # policy p sits at seat (p + rotation) % 4
        actions = np.zeros(len(batch), dtype=np.int64)
        for p, policy in enumerate(policies):
            rows = np.flatnonzero(index == p)
            if len(rows):
                actions[rows] = _act(policy, batch.obs[rows], batch.mask[rows])
                if save and hasattr(policy, "top_actions"):
                    kept = [r for r in rows.tolist() if job_of[int(batch.table[r])][1] in save]
                    if kept:
                        for r, top in zip(kept, policy.top_actions(batch.obs[kept], batch.mask[kept]), strict=True):
                            t, s = int(batch.table[r]), int(batch.seat[r])
                            tops.setdefault(t, {}).setdefault(s, []).append((int(actions[r]), top))
        finished = {t: (venv.games[t], job_of[t]) for t in set(batch.table.tolist())}
        batch = venv.step(actions)
        for t in np.flatnonzero(batch.hand_over).tolist():
            game, (i, _, rot) = finished[t]
            seat_of = [(p + rot) % NUM_SEATS for p in range(NUM_SEATS)]
            deal = game.events[0]
            layout = json.dumps([deal["hands"], deal["wall"], deal["dealer"]]).encode()
            out[i][rot] = {"rotation": rot, "deal": hashlib.sha1(layout).hexdigest(),
                           "policies": hand_stats(game, seat_of, rs.name)}
            if job_of[t][1] in save:
                by_seat = [names[(s - rot) % NUM_SEATS] for s in range(NUM_SEATS)]
                save_hand(game, Path(save_dir) / f"deal{job_of[t][1]}_rot{rot}.json", by_seat, tops.get(t, {}))
            tops.pop(t, None)
    return out  # type: ignore[return-value]


_WORKER: dict[str, Any] = {}


def _init_worker(names: Sequence[str], rules: dict[str, Any], tables: int, ruleset: str = "changsha",
                 save_dir: str | None = None, save_seeds: Sequence[int] = (), trust_pickles: bool = False) -> None:
    _WORKER.update(names=list(names), rules=rules, tables=tables, ruleset=ruleset, save_dir=save_dir,
                   save_seeds=list(save_seeds), trust_pickles=trust_pickles)


def _play_chunk(chunk: tuple[int, list[int]]) -> list[list[dict[str, Any]]]:
    index, seeds = chunk
    return play_deals(_WORKER["names"], seeds, _WORKER["rules"], _WORKER["tables"], policy_seed=1000 * index,
                      ruleset=_WORKER["ruleset"], save_dir=_WORKER["save_dir"], save_seeds=_WORKER["save_seeds"],
                      trust_pickles=_WORKER["trust_pickles"])


def run_deals(names: Sequence[str], deals: int, rules: Any, seed: int = 0, workers: int = 1,
              progress: bool = True, tables: int = TABLES, save_dir: str | None = None,
              save_seeds: Sequence[int] = (), trust_pickles: bool = False) -> list[list[dict[str, Any]]]:
    """Play ``deals`` deals (seeds ``seed .. seed+deals-1``), every rotation; results in deal order.
    Deals are split into chunks played by ``workers`` processes, each batching ``tables`` hands."""
    if len(names) != NUM_SEATS:
        raise ValueError(f"the arena seats exactly 4 policies, got {len(names)}: {list(names)}")
    seeds = list(range(seed, seed + deals))
    size = max(tables // NUM_SEATS, 1) * 2
    chunks = list(enumerate(seeds[i:i + size] for i in range(0, deals, size)))
    results: list[list[dict[str, Any]]] = []
    start = time.time()
    ruleset = ruleset_of(rules)
    extra = (ruleset, save_dir, list(save_seeds), trust_pickles)
    _init_worker(names, rules.to_dict(), tables, *extra)
    pool = None
    if workers > 1 and len(chunks) > 1:
        pool = mp.get_context("spawn").Pool(workers, _init_worker, (list(names), rules.to_dict(), tables, *extra))
        iterator = pool.imap(_play_chunk, chunks)
    else:
        iterator = map(_play_chunk, chunks)
    try:
        for part in iterator:
            results.extend(part)
            if progress:
                rate = len(results) / max(time.time() - start, 1e-9)
                print(f"\r  deals {len(results)}/{deals}  ({rate:.1f}/s, {(deals - len(results)) / rate:.0f}s left)  ",
                      end="", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    if progress:
        print(file=sys.stderr)
    return results


# ------------------------------------------------------------------ statistics
def bootstrap_ci(values: np.ndarray, resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% percentile bootstrap interval of the mean."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(values), size=(resamples, len(values)))
    means = values[idx].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def summarise(names: Sequence[str], results: list[list[dict[str, Any]]]) -> list[PolicyReport]:
    reports = []
    for p, name in enumerate(names):
        per_deal = np.array([np.mean([rot["policies"][p]["settlement"] for rot in deal]) for deal in results],
                            dtype=float)
        hands = [rot["policies"][p] for deal in results for rot in deal]
        rates = {k: float(np.mean([h[k] for h in hands])) for k in hands[0] if k != "settlement"}
        rates = {f"{k}_rate" if k in ("win", "self_draw", "deal_in", "big_win") else f"{k}_per_hand": v
                 for k, v in rates.items()}
        low, high = bootstrap_ci(per_deal)
        label = name if list(names).count(name) == 1 else f"{name}#{p}"
        reports.append(PolicyReport(label, float(per_deal.mean()), low, high, rates))
    return reports


_HEADS = {"haidi_take": "海底", "kaigang": "开杠", "baotou": "爆头", "piao": "飘"}


def format_table(reports: Sequence[PolicyReport], deals: int, unit: str) -> str:
    extra = [k[:-len("_per_hand")] for k in reports[0].rates if k.endswith("_per_hand")]
    head = (f"{'policy':<28}{'mean/hand':>10}{'95% CI':>20}{'win':>7}{'self':>7}{'deal-in':>8}"
            f"{'big':>7}" + "".join(f"{_HEADS[k]:>6}" for k in extra))
    lines = [f"duplicate arena: {deals} deals x 4 rotations = {deals * 4} hands per policy ({unit})", head]
    for r in reports:
        ci = f"[{r.ci_low:+.2f}, {r.ci_high:+.2f}]"
        lines.append(
            f"{r.name[-28:]:<28}{r.mean:>+10.2f}{ci:>20}{r.rates['win_rate']:>7.1%}"
            f"{r.rates['self_draw_rate']:>7.1%}{r.rates['deal_in_rate']:>8.1%}{r.rates['big_win_rate']:>7.1%}"
            + "".join(f"{r.rates[k + '_per_hand']:>7.2f}" for k in extra))
    return "\n".join(lines)


def plot(reports: Sequence[PolicyReport], path: str, title: str) -> None:
    """Bar chart of mean settlement per hand with 95% CI error bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    means = [r.mean for r in reports]
    errors = [[r.mean - r.ci_low for r in reports], [r.ci_high - r.mean for r in reports]]
    colors = ["tab:green" if r.ci_low > 0 else "tab:red" if r.ci_high < 0 else "tab:gray" for r in reports]
    ax.bar(range(len(reports)), means, yerr=errors, capsize=6, color=colors)
    ax.set_xticks(range(len(reports)), [r.name[-24:] for r in reports], rotation=15)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("mean settlement per hand")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def ruleset_of(config: Any) -> str:
    """The ruleset a config object belongs to (``"changsha"`` or ``"hangzhou"``)."""
    return ruleset_of_rules(config).name


def evaluate(names: Sequence[str], deals: int, rules: Any = "mainstream", seed: int = 0,
             workers: int = 1, progress: bool = True, save_dir: str | None = None,
             save_seeds: Sequence[int] = (), trust_pickles: bool = False) -> dict[str, Any]:
    """Run the arena and return a JSON-ready report. ``rules``: a preset name of either ruleset
    (``mainstream``, ``classic``, ``hangzhou``) or a config object."""
    config = ruleset_of_preset(rules).as_config(rules) if isinstance(rules, str) else rules
    results = run_deals(names, deals, config, seed=seed, workers=workers, progress=progress, save_dir=save_dir,
                        save_seeds=save_seeds, trust_pickles=trust_pickles)
    reports = summarise(names, results)
    unit = "片" if getattr(config, "scoring", "points") == "zi" else "points"
    return {
        "policies": list(names), "deals": deals, "seed": seed, "rules": config.to_dict(), "unit": unit,
        "reports": [r.to_dict() for r in reports], "table": format_table(reports, deals, unit),
        "_reports": reports,
    }


def output_path_problem(path: str | None) -> str | None:
    """Why ``path`` cannot be written (checked before any deal is played), or None."""
    if path is None:
        return None
    p = Path(path)
    if p.is_dir():
        return "is a folder, give a file name"
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        return f"its folder {str(parent)!r} does not exist"
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        return "is not writable"
    return None


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--policies", nargs=4, required=True, metavar="POLICY",
                        help="four policies: random, greedy, pretrained or ckpt:PATH")
    parser.add_argument("--trust-zip", action="store_true",
                        help="allow SB3 .zip checkpoints (unpickling them can run code: only your own files)")
    parser.add_argument("--deals", type=int, default=500, help="number of seeded deals (x4 rotations)")
    parser.add_argument("--rules", default="mainstream", choices=sorted(PRESETS),
                        help="Changsha presets mainstream / classic, or hangzhou")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--workers", type=int, default=min(2, mp.cpu_count()), help="processes")
    parser.add_argument("--json", help="write the report as JSON here")
    parser.add_argument("--png", help="write a bar chart with error bars here")
    parser.add_argument("--save-hands", metavar="DIR",
                        help="write the chosen deals' hands (every rotation) here, for cnmahjong.training.replay")
    parser.add_argument("--save-deals", default=None, metavar="SEEDS",
                        help="comma-separated deal seeds to save (default: the first 4 deals)")
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals must be at least 2 (the confidence interval needs several deals)")
    if args.seed < 0:
        parser.error(f"--seed must be 0 or more, got {args.seed}")
    if args.workers < 1:
        parser.error(f"--workers must be 1 or more, got {args.workers}")
    for flag, path in (("--json", args.json), ("--png", args.png)):
        problem = output_path_problem(path)
        if problem:
            parser.error(f"{flag} {path}: {problem}")
    save_seeds: list[int] = []
    if args.save_hands:
        if not Path(args.save_hands).is_dir():
            parser.error(f"--save-hands {args.save_hands}: not an existing folder")
        try:
            save_seeds = ([int(x) for x in args.save_deals.split(",")] if args.save_deals
                          else list(range(args.seed, args.seed + min(4, args.deals))))
        except ValueError:
            parser.error(f"--save-deals {args.save_deals!r}: give deal seeds separated by commas, e.g. 0,5,9")
        outside = [x for x in save_seeds if not args.seed <= x < args.seed + args.deals]
        if outside:
            parser.error(f"--save-deals {outside} are not among the deals played "
                         f"({args.seed}..{args.seed + args.deals - 1})")
    elif args.save_deals:
        parser.error("--save-deals needs --save-hands DIR")
    ruleset = ruleset_of_preset(args.rules)
    for name in args.policies:  # fail fast on a bad name, a missing, unreadable or foreign checkpoint
        try:
            make_policy(name, ruleset=ruleset, trust_pickles=args.trust_zip)
        except ValueError as e:
            parser.error(f"bad policy {name!r}: {e}")
    report = evaluate(args.policies, args.deals, args.rules, args.seed, args.workers,
                      save_dir=args.save_hands, save_seeds=save_seeds, trust_pickles=args.trust_zip)
    print(report["table"])
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            public = {k: v for k, v in report.items() if not k.startswith("_")}
            json.dump(public, f, indent=2, ensure_ascii=False)
        print(f"wrote {args.json}")
    if args.png:
        plot(report["_reports"], args.png, f"{' / '.join(args.policies)} ({args.deals} deals)")
        print(f"wrote {args.png}")
    if args.save_hands:
        print(f"wrote {4 * len(save_seeds)} hands to {args.save_hands} "
              f"(python -m cnmahjong.training.replay {args.save_hands}/deal{save_seeds[0]}_rot0.json -o hand.html)")
    return report


if __name__ == "__main__":
    main()

"""The arena's core: seat-rotated duplicate deals, played in batches, as per-hand records and
per-policy reports. No argparse, no printing beyond an optional progress line, no files: the
table (``table``), the chart (``plot``), the JSON and saved hands (``save``) and the command
line (``cli``) are layers over ``run_arena``. A policy that counts faults (a bot, ``faults()``)
has its counts summed over the worker processes into its report.

Each seeded deal is played once per seating rotation (4 rotations), so every policy holds
every hand from every seat and the luck of the deal cancels out. Any registered ruleset plays:
its ``Ruleset`` gives the deal, the engine and the per-hand statistics.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from cnmahjong.agents import make_policy
from cnmahjong.agents.bot import BotRun, Where, run_for
from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, Ruleset, get_ruleset, ruleset_of_rules
from cnmahjong.envs.core.seats import NUM_SEATS
from cnmahjong.envs.core.worlds import SeatView
from cnmahjong.envs.vector import VectorEnv
from cnmahjong.training.arena.stats import PolicyReport, summarise
from cnmahjong.training.workers import ordered_map

TABLES = 64
"""Hands in flight per process: the rows of one step go through each policy in one call."""

HandRecord = dict[str, Any]
"""One hand of one deal in one rotation: ``seed``, ``rotation``, ``deal`` (a hash of the deal's
hands, wall and dealer: equal across rotations), ``policies`` (per policy index, its seat's
``Ruleset.hand_stats``) and, for the deals asked to be kept, ``saved`` (``events``,
``annotations``: a checkpoint player's top actions by act-event index, ``seats``: the policy
name at each seat), what ``save.save_hands`` writes."""


def default_rules() -> str:
    """The preset played when none is named: the default ruleset's default."""
    return get_ruleset(DEFAULT_RULESET).default_rules


def unit_of(ruleset: Ruleset, config: Any) -> str:
    """What a settlement counts in under ``config`` (片, points ...), as the ruleset says."""
    return ruleset.unit(config)


# --------------------------------------------------------------------- playing
def _act(policy: Any, obs: np.ndarray, mask: np.ndarray, where: Callable[[], list[Where]],
         views: Callable[[], list[SeatView]] = list) -> np.ndarray:
    """A policy's actions for several rows: one batched call when it has ``act_batch``; a policy
    that reads where it sits (``decide``: a bot) is told each row's hand, seat and events; one that
    searches (``act_view``) gets each row's ``SeatView`` (its legal actions and sampled worlds)."""
    batched = getattr(policy, "act_batch", None)
    if batched is not None:
        return np.asarray(batched(obs, mask), dtype=np.int64)
    act_view = getattr(policy, "act_view", None)
    if act_view is not None:
        return np.array([int(act_view(v)) for v in views()], dtype=np.int64)
    decide = getattr(policy, "decide", None)
    if decide is not None:
        return np.array([int(decide(o, m, w)) for o, m, w in zip(obs, mask, where(), strict=True)], dtype=np.int64)
    return np.array([int(policy(o, m)) for o, m in zip(obs, mask, strict=True)], dtype=np.int64)


def _wheres(batch: Any, rows: np.ndarray, job_of: dict[int, tuple[int, int, int]], games: Sequence[Any]) -> list[Where]:
    """Where each row's decision is made: its hand (``"<deal seed>.<rotation>"``), seat and event log."""
    return [Where(f"{job_of[t][1]}.{job_of[t][2]}", int(batch.seat[r]), games[t].events)
            for r in rows.tolist() for t in [int(batch.table[r])]]


def _views(batch: Any, rows: np.ndarray, games: Sequence[Any]) -> list[SeatView]:
    """Each row's seat view of its game: what a search policy may use of it."""
    return [SeatView(games[int(batch.table[r])], int(batch.seat[r])) for r in rows.tolist()]


def _annotations(events: list[dict[str, Any]], tops: dict[int, list]) -> dict[str, Any]:
    """The top actions a checkpoint player recorded (per seat, (action, top) in decision order)
    keyed by the index of the act event they belong to, as the viewer reads them."""
    queues = {s: list(rows) for s, rows in tops.items()}
    notes: dict[str, Any] = {}
    for i, e in enumerate(events):
        if e["type"] == "act" and queues.get(e["seat"]):
            action, top = queues[e["seat"]][0]
            if action == e["action"]:
                queues[e["seat"]].pop(0)
                notes[str(i)] = {"top": top}
    return notes


Faults = dict[str, int]
"""A policy's fault counts (``faults()``, as ``cnmahjong.agents.bot`` keeps them); empty for one that keeps none."""


def play_deals(names: Sequence[str], seeds: Sequence[int], rules: Any, tables: int = TABLES,
               policy_seed: int = 0, ruleset: str | Ruleset | None = None, keep: Sequence[int] = (),
               trust_pickles: bool = False) -> list[list[HandRecord]]:
    """Play every deal of ``seeds`` in all four rotations, ``tables`` hands at a time through
    ``VectorEnv``; per deal, per rotation, a ``HandRecord``. Deal ``s`` is the hand the AEC env
    deals after ``reset(seed=s)``. Policy ``p`` sits at seat ``(p + rotation) % 4``. The records
    of the deals in ``keep`` also hold the hand itself (``saved``). ``ruleset``: by default the
    one ``rules`` belongs to."""
    return _play_deals(names, seeds, rules, tables, policy_seed, ruleset, keep, trust_pickles)[0]


def _play_deals(names: Sequence[str], seeds: Sequence[int], rules: Any, tables: int = TABLES,
                policy_seed: int = 0, ruleset: str | Ruleset | None = None, keep: Sequence[int] = (),
                trust_pickles: bool = False,
                runs: Sequence[BotRun | None] = ()) -> tuple[list[list[HandRecord]], list[Faults]]:
    """``play_deals``, and each policy's fault counts (``_faults_of``). ``runs``: per policy, what
    its copies share over the whole run (a bot's restart budget, name and time limit)."""
    rs = ruleset_of_rules(rules) if ruleset is None else get_ruleset(ruleset)
    config = rs.as_config(rules)
    keep = set(keep)
    tops: dict[int, dict[int, list]] = {}  # table -> seat -> [(action, top-3)] of the hand in play
    policies = [make_policy(n, seed=policy_seed + i, ruleset=rs, trust_pickles=trust_pickles)
                for i, n in enumerate(names)]
    for policy, run in zip(policies, runs, strict=False):
        if run is not None and hasattr(policy, "share"):
            policy.share(run)
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
    out: list[list[HandRecord | None]] = [[None] * NUM_SEATS for _ in seeds]
    batch = venv.reset()
    while len(batch):
        rotation = np.array([job_of[t][2] for t in batch.table.tolist()])
        index = (batch.seat - rotation) % NUM_SEATS
        actions = np.zeros(len(batch), dtype=np.int64)
        for p, policy in enumerate(policies):
            rows = np.flatnonzero(index == p)
            if not len(rows):
                continue
            actions[rows] = _act(policy, batch.obs[rows], batch.mask[rows],
                                 partial(_wheres, batch, rows, job_of, venv.games),
                                 partial(_views, batch, rows, venv.games))
            if keep and hasattr(policy, "top_actions"):
                kept = [r for r in rows.tolist() if job_of[int(batch.table[r])][1] in keep]
                if kept:
                    for r, top in zip(kept, policy.top_actions(batch.obs[kept], batch.mask[kept]), strict=True):
                        t, s = int(batch.table[r]), int(batch.seat[r])
                        tops.setdefault(t, {}).setdefault(s, []).append((int(actions[r]), top))
        finished = {t: (venv.games[t], job_of[t]) for t in set(batch.table.tolist())}
        batch = venv.step(actions)
        for t in np.flatnonzero(batch.hand_over).tolist():
            game, (i, seed, rot) = finished[t]
            seat_of = [(p + rot) % NUM_SEATS for p in range(NUM_SEATS)]
            deal = game.events[0]
            layout = json.dumps([deal["hands"], deal["wall"], deal["dealer"]]).encode()
            stats = rs.hand_stats(game)
            record: HandRecord = {"seed": seed, "rotation": rot, "deal": hashlib.sha1(layout).hexdigest(),
                                  "policies": [stats[s] for s in seat_of]}
            if seed in keep:
                record["saved"] = {"events": game.events, "annotations": _annotations(game.events, tops.get(t, {})),
                                   "seats": [names[(s - rot) % NUM_SEATS] for s in range(NUM_SEATS)]}
            out[i][rot] = record
            tops.pop(t, None)
    return out, _faults_of(policies)  # type: ignore[return-value]


def _faults_of(policies: Sequence[Any]) -> list[Faults]:
    """Each policy's fault counts (``faults()``; empty for one that keeps none), and each one with a
    ``close()`` closed (a bot's process ends)."""
    faults = [dict(p.faults()) if hasattr(p, "faults") else {} for p in policies]
    for p in policies:
        if hasattr(p, "close"):
            p.close()
    return faults


_WORKER: dict[str, Any] = {}


def _init_worker(names: Sequence[str], rules: dict[str, Any], tables: int, ruleset: str,
                 keep: Sequence[int] = (), trust_pickles: bool = False, runs: Sequence[BotRun | None] = ()) -> None:
    _WORKER.update(names=list(names), rules=rules, tables=tables, ruleset=ruleset, keep=list(keep),
                   trust_pickles=trust_pickles, runs=list(runs))


def _play_chunk(chunk: tuple[int, list[int]]) -> tuple[list[list[HandRecord]], list[Faults]]:
    index, seeds = chunk
    w = _WORKER
    return _play_deals(w["names"], seeds, w["rules"], w["tables"], policy_seed=1000 * index, ruleset=w["ruleset"],
                       keep=w["keep"], trust_pickles=w["trust_pickles"], runs=w["runs"])


def _print_progress(done: int, total: int, seconds: float) -> None:
    rate = done / max(seconds, 1e-9)
    print(f"\r  deals {done}/{total}  ({rate:.1f}/s, {(total - done) / rate:.0f}s left)  ",
          end="", file=sys.stderr, flush=True)


def run_deals(names: Sequence[str], deals: int, rules: Any, seed: int = 0, workers: int = 1,
              progress: bool | Callable[[int, int, float], None] = True, tables: int = TABLES,
              keep: Sequence[int] = (), trust_pickles: bool = False) -> list[list[HandRecord]]:
    """Play ``deals`` deals (seeds ``seed .. seed+deals-1``), every rotation; records in deal order.
    Deals are split into chunks played by ``workers`` processes, each batching ``tables`` hands.
    ``progress``: True for a line on stderr, or ``progress(done, total, seconds)``."""
    return _run_deals(names, deals, rules, seed, workers, progress, tables, keep, trust_pickles)[0]


def _run_deals(names: Sequence[str], deals: int, rules: Any, seed: int = 0, workers: int = 1,
               progress: bool | Callable[[int, int, float], None] = True, tables: int = TABLES,
               keep: Sequence[int] = (), trust_pickles: bool = False,
               runs: Sequence[BotRun | None] | None = None) -> tuple[list[list[HandRecord]], list[Faults]]:
    """``run_deals``, and each policy's fault counts summed over the chunks. ``runs``: per policy,
    what its copies in every chunk and worker share (``BotRun``, None for a policy that shares
    nothing; None: made here, ``bot.run_for``)."""
    if len(names) != NUM_SEATS:
        raise ValueError(f"the arena seats exactly 4 policies, got {len(names)}: {list(names)}")
    rs = ruleset_of_rules(rules)
    config = rs.as_config(rules)
    report = _print_progress if progress is True else progress or None
    seeds = list(range(seed, seed + deals))
    size = max(tables // NUM_SEATS, 1) * 2
    chunks = list(enumerate(seeds[i:i + size] for i in range(0, deals, size)))
    runs = [run_for(n) for n in names] if runs is None else list(runs)
    setup = (list(names), config.to_dict(), tables, rs.name, list(keep), trust_pickles, runs)
    _init_worker(*setup)
    processes = min(workers, len(chunks))  # never more processes than work
    iterator = (ordered_map(_play_chunk, chunks, processes, _init_worker, setup) if processes > 1
                else map(_play_chunk, chunks))
    results: list[list[HandRecord]] = []
    faults: list[Faults] = [{} for _ in names]
    start = time.time()
    try:
        for part, counts in iterator:
            results.extend(part)
            for total, more in zip(faults, counts, strict=True):
                for kind, n in more.items():
                    total[kind] = total.get(kind, 0) + n
            if report:
                report(len(results), deals, time.time() - start)
    finally:  # Ctrl-C included: the workers end now, not after every chunk is played
        if hasattr(iterator, "close"):
            iterator.close()
    if report is _print_progress:
        print(file=sys.stderr)
    return results, faults


# ------------------------------------------------------------------ the result
@dataclass
class ArenaResult:
    """What an arena run found: its set-up, every hand's record and each policy's report."""

    names: list[str]
    deals: int
    seed: int
    ruleset: str
    rules: dict[str, Any]
    unit: str
    hands: list[list[HandRecord]] = field(repr=False)
    """Per deal, per rotation (``play_deals``)."""
    reports: list[PolicyReport]
    """Per policy, in seating order (``stats.summarise``), with its fault counts."""

    @property
    def faults(self) -> list[Faults]:
        """Per policy, its fault counts (``PolicyReport.faults``: empty for a policy that keeps none)."""
        return [r.faults for r in self.reports]

    def to_dict(self) -> dict[str, Any]:
        """The JSON report (the records left out: ``save.save_hands`` writes the kept hands)."""
        return {"policies": list(self.names), "deals": self.deals, "seed": self.seed, "ruleset": self.ruleset,
                "rules": self.rules, "unit": self.unit, "reports": [r.to_dict() for r in self.reports]}


def run_arena(names: Sequence[str], deals: int, rules: Any = None, seed: int = 0, workers: int = 1,
              progress: bool | Callable[[int, int, float], None] = False, tables: int = TABLES,
              keep: Sequence[int] = (), trust_pickles: bool = False,
              bot_time_limit: float | None = None) -> ArenaResult:
    """Play the duplicate arena and summarise it. ``rules``: a preset name of any registered
    ruleset, a config object or a dict of options (None: the default ruleset's default preset);
    ``keep``: deal seeds whose hands the records hold for saving; ``bot_time_limit``: seconds per
    decision of every bot (None: ``cnmahjong.agents.bot.TIME_LIMIT``)."""
    rules = default_rules() if rules is None else rules
    rs = ruleset_of_rules(rules)
    config = rs.as_config(rules)
    runs = [run_for(n, bot_time_limit) for n in names]
    hands, faults = _run_deals(names, deals, config, seed=seed, workers=workers, progress=progress, tables=tables,
                               keep=keep, trust_pickles=trust_pickles, runs=runs)
    reports = summarise(names, hands)
    for report, counts, run in zip(reports, faults, runs, strict=True):
        report.faults = counts
        report.bot_name = None if run is None else run.name
    return ArenaResult(list(names), deals, seed, rs.name, config.to_dict(), unit_of(rs, config), hands, reports)


def evaluate(names: Sequence[str], deals: int, rules: Any = None, seed: int = 0, workers: int = 1,
             progress: bool = True, trust_pickles: bool = False) -> dict[str, Any]:
    """``run_arena``'s JSON report (``ArenaResult.to_dict``): for callers that want plain data."""
    return run_arena(names, deals, rules, seed, workers, progress, trust_pickles=trust_pickles).to_dict()

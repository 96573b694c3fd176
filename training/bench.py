"""Speed figures (``make bench``), one core.

Targets: waits() ≥ 50,000 hands/s and complete-shape check ≥ 500,000 hands/s on
random hands (rules core); Hangzhou ``is_win`` ≥ 300,000 and ``waits`` ≥ 30,000
hands/s on random 14/13-tile hands with 0–3 财神 (count-vector forms the engine
uses); ≥ 400 random-play hands/s on the engine (random legal actions, both
presets); ≥ 20,000 AEC decisions/s through the PettingZoo env with random masked
actions, observation and mask built every step;
≥ 40,000 decisions/s through ``VectorEnv`` (64 tables, observations and masks,
random masked actions drawn for the whole batch at once).

``--trainer`` adds the end-to-end self-play PPO throughput on all cores
(collection and learning, ``configs/selfplay_ppo.yaml`` for one minute) and the
arena's speed for a checkpoint against three greedy players.
"""

from __future__ import annotations

import os

# One core: numpy's BLAS must not start worker threads that compete with the measured loop.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import contextlib
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from cnmahjong.envs.changsha.patterns import wait_mask
from cnmahjong.envs.core.ruleset import ruleset_of_preset
from cnmahjong.envs.core.shapes import is_standard
from cnmahjong.envs.core.tiles import NUM_KINDS, to_counts
from cnmahjong.envs.hangzhou.patterns import wait_mask_counts, win_counts

WALL = [k for k in range(27) for _ in range(4)]


def random_counts(rng: random.Random, n: int, count: int) -> list[list[int]]:
    """``count`` random ``n``-tile hands (as count vectors), half from one or two suits so that
    the fast paths and the decomposable paths are both exercised."""
    out = []
    for i in range(count):
        pool = WALL if i % 2 else [t for t in WALL if t // 9 in rng.sample(range(3), rng.randint(1, 2))]
        out.append(to_counts(rng.sample(pool, n)))
    return out


def random_hangzhou_counts(rng: random.Random, n: int, count: int) -> list[tuple[list[int], int]]:
    """``count`` random ``n``-tile Hangzhou hands as (physical counts over 34 kinds, indicator):
    hand ``i`` holds ``i % 4`` 财神; half draw their other tiles from one or two suits and the
    honours, so that near-complete hands are common too."""
    out = []
    for i in range(count):
        indicator = rng.randrange(NUM_KINDS)
        pool = [t for t in range(NUM_KINDS) if t != indicator for _ in range(4)]
        if i % 2:
            suits = rng.sample(range(3), rng.randint(1, 2))
            pool = [t for t in pool if t >= 27 or t // 9 in suits]
        tiles = [indicator] * (i % 4) + rng.sample(pool, n - i % 4)
        out.append((to_counts(tiles, NUM_KINDS), indicator))
    return out


def rate(fn: Callable[[Any], object], hands: Sequence[Any], min_time: float = 1.0) -> float:
    """Calls per second of ``fn`` over ``hands``, repeated for at least ``min_time`` seconds."""
    calls = 0
    start = time.perf_counter()
    while True:
        for h in hands:
            fn(h)
        calls += len(hands)
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return calls / elapsed


def engine_rate(preset: str, min_time: float) -> tuple[float, float]:
    """Random-play hands and decisions per second on the engine with one preset (of either ruleset)."""
    rs = ruleset_of_preset(preset)
    config = rs.as_config(preset)
    rng = random.Random(0)
    hands = steps = 0
    start = time.perf_counter()
    while True:
        g = rs.game(config, seed=hands)
        while not g.done:
            s = g.to_act[0]
            g.step(s, rng.choice(g.legal_actions(s)))
            steps += 1
        hands += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return hands / elapsed, steps / elapsed


def aec_rate(min_time: float, ruleset: str = "changsha") -> float:
    """Decisions per second through the AEC env: ``last()`` (observation + mask), a random
    legal action, ``step()``."""
    from cnmahjong.envs.aec import aec_env

    env = aec_env(ruleset)()
    rng = random.Random(0)
    decisions = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < min_time:
        env.reset(seed=hands)
        hands += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0].tolist()
            env.step(legal[int(rng.random() * len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def _vector_play(obs_dtype: str, tables: int = 64, ruleset: str = "changsha", state: bool = False) -> Iterator[int]:
    """Steps of ``VectorEnv`` with random legal actions for the whole batch in one numpy call:
    yields each step's decisions (rows, each with its observation and mask)."""
    import numpy as np

    from cnmahjong.envs.vector import VectorEnv

    venv = VectorEnv(num_tables=tables, seed=0, obs_dtype=np.dtype(obs_dtype), ruleset=ruleset, state=state)
    rng = np.random.default_rng(0)
    batch = venv.reset()
    while True:
        actions = (rng.random(batch.mask.shape) * batch.mask).argmax(axis=1)
        batch = venv.step(actions)
        yield len(actions)


def vector_rate(min_time: float, obs_dtype: str = "float32", tables: int = 64, ruleset: str = "changsha",
                state: bool = False) -> float:
    """Decisions per second through ``VectorEnv``: every row's observation and mask (and with
    ``state`` its table's global state), random legal actions for the whole batch in one numpy
    call, ``step()``."""
    play = _vector_play(obs_dtype, tables, ruleset, state)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < min_time:
        decisions += next(play)
    return decisions / (time.perf_counter() - start)


def vector_steps(steps: int, obs_dtype: str = "uint8") -> int:
    """A fixed ``VectorEnv`` workload for instruction counts: 64 tables, 20 warm-up steps, then
    ``steps`` steps of random legal actions; returns the decisions of those steps. Run it under
    ``valgrind --tool=callgrind`` with 0 and 150 steps: the difference of the instruction totals
    divided by the decisions is what one decision costs (the README's figures)."""
    play = _vector_play(obs_dtype)
    for _ in range(20):
        next(play)
    return sum(next(play) for _ in range(steps))


def instructions_per_decision(pure: bool, steps: int = 150) -> float:
    """Instructions one ``VectorEnv`` decision costs (``vector_steps`` under callgrind, 0 and
    ``steps`` steps), in the compiled or the pure-Python path: a measure independent of the load."""
    import re
    import shutil
    import subprocess
    import sys
    import tempfile

    from cnmahjong.envs.hotpath import PURE_ENV

    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    env = dict(os.environ, **{PURE_ENV: "1" if pure else "0"})
    totals, decisions = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in (0, steps):
            run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.{n}",
                                  sys.executable, "-m", "cnmahjong.training.bench", "--vector-steps", str(n)],
                                 env=env, capture_output=True, text=True, check=True)
            totals.append(int(re.search(r"Collected : (\d+)", run.stderr).group(1)))
            decisions = int(re.search(r"decisions (\d+)", run.stdout).group(1))
    return (totals[1] - totals[0]) / decisions


def _vector_rate_in(python: str, min_time: float, env: dict[str, str], cwd: str | None = None,
                    prelude: str = "") -> float:
    """``vector_rate`` (uint8) measured in a process of its own: ``python`` with ``env``."""
    import subprocess

    code = f"{prelude}from cnmahjong.training.bench import vector_rate; print(vector_rate({min_time!r}, 'uint8'))"
    out = subprocess.run([python, "-c", code], env=env, cwd=cwd, check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def pure_vector_rate(min_time: float) -> float:
    """``vector_rate`` (uint8) in a process that imports every hot module from its pure-Python source."""
    import sys

    from cnmahjong.envs.hotpath import PURE_ENV

    return _vector_rate_in(sys.executable, min_time, dict(os.environ, **{PURE_ENV: "1"}))


def installed_vector_rate(python: str, min_time: float) -> float:
    """``vector_rate`` (uint8) in another interpreter, e.g. a fresh venv with the wheel installed,
    run from ``/`` so that it imports the installed package, not this checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CNMAHJONG_PURE")}
    check = "import cnmahjong; assert cnmahjong.COMPILED, 'the installed package is not compiled'; "
    return _vector_rate_in(os.path.abspath(python), min_time, env, cwd="/", prelude=check)


def trainer_rates(minutes: float) -> dict[str, float]:
    """End-to-end self-play PPO (both cores): decisions per second, split into collection and learning."""
    import json
    import tempfile

    from cnmahjong.training.config import load
    from cnmahjong.training.selfplay_ppo import train

    cfg = load("selfplay_ppo")
    with tempfile.TemporaryDirectory() as tmp:
        cfg.update(run_dir=tmp, max_minutes=minutes, checkpoint_every_updates=10**6)
        with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):  # no progress line
            train(cfg)
        with open(f"{tmp}/log.jsonl", encoding="utf-8") as f:
            rows = [json.loads(line) for line in f][1:]  # the first update warms up
    collect = sum(r["collect_seconds"] for r in rows)
    learn = sum(r["learn_seconds"] for r in rows)
    decisions = sum(r["env_decisions"] for r in rows)
    return {"end to end": decisions / (collect + learn), "collection": decisions / collect,
            "learning": decisions / learn, "collect share": collect / (collect + learn)}


def arena_rate(deals: int) -> float:
    """Deals per second (each in 4 rotations) for a checkpoint against three greedy players, 2 processes
    (process start-up and torch's import included)."""
    import tempfile

    from cnmahjong.agents.torch_policy import ActorCritic, save_actor_critic
    from cnmahjong.training.evaluate import run_deals

    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/net.pt"
        save_actor_critic(ActorCritic([256], "conv"), path)
        start = time.perf_counter()
        mainstream = ruleset_of_preset("mainstream").as_config("mainstream")
        run_deals([f"ckpt:{path}", "greedy", "greedy", "greedy"], deals, mainstream, workers=2, progress=False)
        return deals / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20000, help="distinct random hands")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3,
                        help="rounds of all one-core measures; each figure's best run is reported (as timeit "
                             "does: the others were slowed by other load on the machine)")
    parser.add_argument("--trainer", action="store_true",
                        help="also measure the self-play trainer end to end and the arena (about 2 minutes)")
    parser.add_argument("--wheel-python", metavar="PYTHON",
                        help="also measure VectorEnv (uint8) in this interpreter's installed package (make bench: "
                             "a fresh venv with the built wheel)")
    parser.add_argument("--vector-steps", type=int, metavar="N",
                        help="only run the fixed VectorEnv workload of N steps (for callgrind) and print its decisions")
    parser.add_argument("--instructions", action="store_true",
                        help="only count the instructions of one VectorEnv decision (uint8), compiled and pure "
                             "(valgrind's callgrind; about 2 minutes)")
    args = parser.parse_args(argv)
    if args.vector_steps is not None:
        print(f"decisions {vector_steps(args.vector_steps)}")
        return
    if args.instructions:
        for name, pure in (("compiled", False), ("pure Python", True)):
            print(f"VectorEnv decision, uint8, {name}: {instructions_per_decision(pure):,.0f} instructions")
        return

    rng = random.Random(0)
    h14 = random_counts(rng, 14, args.hands)
    h13 = random_counts(rng, 13, args.hands)
    hz14 = random_hangzhou_counts(rng, 14, args.hands)
    hz13 = random_hangzhou_counts(rng, 13, args.hands)
    no_melds = [0] * 27
    secs = args.seconds
    # (names, measure giving one value per name, targets); an engine measure gives hands and decisions
    measures: list[tuple[tuple[str, ...], Callable[[], Any], tuple[int, ...]]] = [
        (("complete-shape check (14 tiles)",), lambda: rate(is_standard, h14, secs), (500_000,)),
        (("waits (13 tiles)",), lambda: rate(lambda c: wait_mask(c, no_melds, 0), h13, secs), (50_000,)),
        (("Hangzhou is_win (14 tiles, 0-3 财神)",), lambda: rate(lambda h: win_counts(h[0], h[1]), hz14, secs),
         (300_000,)),
        (("Hangzhou waits (13 tiles, 0-3 财神)",),
         lambda: rate(lambda h: wait_mask_counts(h[0], h[0], h[1]), hz13, secs), (30_000,)),
        *(((f"engine random-play hands ({preset})", f"engine decisions ({preset})"),
            lambda preset=preset: engine_rate(preset, secs), (400, 0)) for preset in ("mainstream", "classic")),
        (("AEC env decisions (obs + mask each step)",), lambda: aec_rate(secs), (20_000,)),
        (("Hangzhou engine random-play hands", "Hangzhou engine decisions"), lambda: engine_rate("hangzhou", secs),
         (400, 0)),
        (("Hangzhou AEC env decisions (obs + mask)",), lambda: aec_rate(secs, "hangzhou"), (20_000,)),
        (("Hangzhou VectorEnv decisions, uint8",), lambda: vector_rate(secs, "uint8", ruleset="hangzhou"), (0,)),
        (("VectorEnv decisions, float32 (64 tables)",), lambda: vector_rate(secs), (40_000,)),
        (("VectorEnv decisions, uint8 (64 tables)",), lambda: vector_rate(secs, "uint8"), (40_000,)),
        (("  the same, pure Python (CNMAHJONG_PURE=1)",), lambda: pure_vector_rate(secs), (0,)),
        (("  the same with state=True (global state)",), lambda: vector_rate(secs, "uint8", state=True), (0,)),
    ]
    if args.wheel_python:
        measures.append((("  the same, installed wheel (fresh venv)",),
                         lambda: installed_vector_rate(args.wheel_python, secs), (40_000,)))
    # Rounds of every measure, the best of each kept: a slow spell of this shared machine, which
    # can outlast one measure's runs, then falls on one run of several measures rather than on
    # all runs of one.
    best: list[tuple[float, ...]] = [()] * len(measures)  # () is below every run
    for _ in range(args.repeats):
        for i, (_, measure, _) in enumerate(measures):
            value = measure()
            best[i] = max(best[i], value if isinstance(value, tuple) else (value,))
    rows = [(name, value, target) for (names, _, targets), values in zip(measures, best, strict=True)
            for name, value, target in zip(names, values, targets, strict=True)]
    if args.trainer:
        rates = trainer_rates(1.0)
        rows.append(("self-play PPO end to end, 2 cores", rates["end to end"], 2_500))
        rows.append(("  of which collection alone", rates["collection"], 0))
        rows.append(("  of which learning alone", rates["learning"], 0))
        rows.append(("  collection share of the time (%)", 100 * rates["collect share"], 0))
        rows.append(("arena deals, checkpoint vs 3 greedy, 2 cores", arena_rate(400), 30))
    from cnmahjong.envs.hotpath import status

    paths = list(status().values())
    print(f"hot path: {paths.count('compiled')} of {len(paths)} modules compiled (envs/hotpath.py)")
    print(f"{'measure':<40}{'per second':>14}{'target':>12}")
    for name, value, target in rows:
        flag = "" if not target else "ok" if value >= target else "BELOW TARGET"
        print(f"{name:<40}{value:>14,.0f}{f'{target:,}' if target else '':>12}  {flag}")


if __name__ == "__main__":
    main()

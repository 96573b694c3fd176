"""The bench's measures: calls, hands and decisions per second of the rules cores, the engines,
the AEC envs and ``VectorEnv`` of every registered ruleset, the trainer and the arena; and the
instruction count of one ``VectorEnv`` decision. The command line is ``cli``."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, Ruleset, get_ruleset, ruleset_of_preset


def pass_rate(one_pass: Callable[[], int], min_time: float = 1.0) -> float:
    """Calls per second of ``one_pass`` (a pass over prepared inputs returning the calls it made),
    repeated for at least ``min_time`` seconds."""
    calls = 0
    start = time.perf_counter()
    while True:
        calls += one_pass()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return calls / elapsed


def engine_rate(preset: str, min_time: float, ruleset: str | Ruleset | None = None) -> tuple[float, float]:
    """Random-play hands and decisions per second on the engine with one preset (of any ruleset)."""
    rs = ruleset_of_preset(preset) if ruleset is None else get_ruleset(ruleset)
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


def aec_rate(min_time: float, ruleset: str | Ruleset = DEFAULT_RULESET) -> float:
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


def _vector_play(obs_dtype: str, tables: int = 64, ruleset: str | Ruleset = DEFAULT_RULESET,
                 state: bool = False, log: bool = True) -> Iterator[int]:
    """Steps of ``VectorEnv`` with random legal actions for the whole batch in one numpy call:
    yields each step's decisions (rows, each with its observation and mask). ``log=False``: the
    tables keep no event log (``VectorEnv(log=False)``, as the self-play trainer plays)."""
    import numpy as np

    from cnmahjong.envs.vector import VectorEnv

    venv = VectorEnv(num_tables=tables, seed=0, obs_dtype=np.dtype(obs_dtype), ruleset=ruleset, state=state, log=log)
    rng = np.random.default_rng(0)
    batch = venv.reset()
    while True:
        actions = (rng.random(batch.mask.shape) * batch.mask).argmax(axis=1)
        batch = venv.step(actions)
        yield len(actions)


def vector_rate(min_time: float, obs_dtype: str = "float32", tables: int = 64,
                ruleset: str | Ruleset = DEFAULT_RULESET, state: bool = False, log: bool = True) -> float:
    """Decisions per second through ``VectorEnv``: every row's observation and mask (and with
    ``state`` its table's global state), random legal actions for the whole batch in one numpy
    call, ``step()``; ``log=False``: tables without event logs."""
    play = _vector_play(obs_dtype, tables, ruleset, state, log)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < min_time:
        decisions += next(play)
    return decisions / (time.perf_counter() - start)


RIICHIENV = "riichienv==0.4.11"
"""The RiichiEnv the bench compares with (``pyproject.toml``'s ``compare`` extra, installed by
``make bench``): a pinned version, so that the ratio rows compare the same thing from run to run."""


def riichienv_rate(min_time: float) -> float:
    """Decisions per second of RiichiEnv (Japanese riichi mahjong on its Rust core) in random play,
    as the native-speed issue measured it beside ``VectorEnv``: every seat asked for a decision
    gets ``obs.encode()`` (its (74, 34) float32 features) and a uniform legal action, then
    ``env.step``; one hand (kyoku) after another, with its MJAI logging off (its faster mode:
    48,000 against 57,500 with the log, measured together here). ``ImportError`` without it."""
    from riichienv import RiichiEnv

    rng = random.Random(0)
    env = RiichiEnv(seed=0, skip_mjai_logging=True)
    observations = env.reset()
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < min_time:
        if env.done():
            observations = env.reset()
            continue
        actions = {}
        for seat, obs in observations.items():
            obs.encode()
            legal = obs.legal_actions()
            actions[seat] = legal[int(rng.random() * len(legal))]
        decisions += len(actions)
        observations = env.step(actions)
    return decisions / (time.perf_counter() - start)


def vector_steps(steps: int, obs_dtype: str = "uint8", ruleset: str | None = None, log: bool = True) -> int:
    """A fixed ``VectorEnv`` workload for instruction counts (``ruleset``, else the default one): 64 tables, 20
    warm-up steps, then ``steps`` steps of random legal actions; returns the decisions of those steps. Run it under
    ``valgrind --tool=callgrind`` with 0 and 150 steps: the difference of the instruction totals
    divided by the decisions is what one decision costs (the README's figures). ``log=False``: tables
    without event logs."""
    play = _vector_play(obs_dtype, ruleset=ruleset, log=log)
    for _ in range(20):
        next(play)
    return sum(next(play) for _ in range(steps))


def instructions_per_decision(pure: bool, steps: int = 150, ruleset: str = DEFAULT_RULESET,
                              log: bool = True) -> float:
    """Instructions one ``VectorEnv`` decision costs (``vector_steps`` under callgrind, 0 and
    ``steps`` steps), in the compiled or the pure-Python path, the tables with their event logs or
    (``log=False``) without: a measure independent of the load."""
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
                                  sys.executable, "-m", "cnmahjong.training.bench", "--vector-steps", str(n),
                                  "--ruleset", ruleset, *([] if log else ["--no-log"])],
                                 env=env, capture_output=True, text=True, check=True)
            totals.append(int(re.search(r"Collected : (\d+)", run.stderr).group(1)))
            decisions = int(re.search(r"decisions (\d+)", run.stdout).group(1))
    return (totals[1] - totals[0]) / decisions


def _vector_rate_in(python: str, min_time: float, env: dict[str, str], cwd: str | None = None,
                    prelude: str = "") -> float:
    """``vector_rate`` (uint8) measured in a process of its own: ``python`` with ``env``."""
    import subprocess

    code = (f"{prelude}from cnmahjong.training.bench.rates import vector_rate; "
            f"print(vector_rate({min_time!r}, 'uint8'))")
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


def _collect_rate(pool: Any, weights: dict, steps: int, seconds: float) -> float:
    """Env decisions per second of whole rollouts of ``pool`` for ``seconds`` (wall clock, transfers included)."""
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += pool.collect("ppo", steps, weights, None)["decisions"]
    return decisions / (time.perf_counter() - start)


def collection_rates(backend: str = "processes", seconds: float = 6.0, windows: int = 4) -> tuple[float, float]:
    """Env decisions per second of 1 and of 2 self-play rollout workers on ``backend``
    (``configs/selfplay_ppo.yaml``'s tables, steps and network; fixed weights sent every rollout
    as in training, no learning), after a warm-up rollout (start-up, the first deal). Both pools
    stand at once and take turns, ``windows`` windows each over ``seconds``, and each keeps its
    best window: a slow spell of a shared machine (one core's speed drifts by a quarter here
    from minute to minute) then falls on both alike, and only ever slows a window. The idle
    pool's workers wait for their next command and use no CPU. With one worker per core,
    2 over 1 is how the collection scales on this machine."""
    from cnmahjong.envs.integrations.networks import ActorCritic, cpu_weights
    from cnmahjong.training.config import load, parse
    from cnmahjong.training.selfplay_ppo import Args, Workers

    cfg = load("selfplay_ppo")
    cfg.update(backend=backend)
    args = parse(cfg, Args)
    encoder = args.encoder or ruleset_of_preset(args.rules).encoder_name
    weights = cpu_weights(ActorCritic(args.net_arch, args.arch, encoder=encoder))
    own_ray = False
    if backend == "ray":  # one Ray for both pools, a CPU for each of their 3 actors
        from cnmahjong.training.rollout_backends import connect_ray

        own_ray = connect_ray("local", None, 3)
    pools = []
    try:
        for n in (1, 2):
            pools.append(Workers(dataclasses.replace(args, num_workers=n)))
            pools[-1].collect("ppo", args.steps_per_rollout, weights, [])
        best = [0.0, 0.0]
        for _ in range(windows):
            for k, pool in enumerate(pools):
                best[k] = max(best[k], _collect_rate(pool, weights, args.steps_per_rollout, seconds / windows / 2))
        return best[0], best[1]
    finally:
        for pool in pools:
            pool.close()
        if own_ray:
            import ray

            ray.shutdown()


def _spin(seconds: float) -> float:
    """Iterations per second of a pure-Python loop: one busy core's worth of work."""
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10_000):
            n += 1
    return n / (time.perf_counter() - start)


def parallel_ceiling(seconds: float = 2.0) -> float:
    """What two busy processes get done together over what one does alone, on this machine now
    (pure-Python loops, no shared data): 2.0 on two free cores. The collection's 2-workers-over-1
    ratio cannot exceed it; a shared or throttled VM gives less."""
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(2) as pool:
        pool.map(_spin, [0.2, 0.2])  # both processes started and warm
        one = pool.apply(_spin, (seconds,))
        two = sum(pool.map(_spin, [seconds, seconds]))
        one = max(one, pool.apply(_spin, (seconds,)))  # a slow spell under one alone would inflate the ratio
    return two / one


def trainer_rates(minutes: float, backend: str = "processes") -> dict[str, float]:
    """End-to-end self-play PPO (both cores, the workers on ``backend``): decisions per second,
    split into collection and learning, and the learner's torch threads. The learner has a thread
    per core, as in a training run started from a shell: the bench's ``OMP_NUM_THREADS=1``
    (``bench/__init__``) is for its one-core rows and held the learner to one core while the
    workers' cores sat idle (collection and learning take turns; each worker keeps one thread)."""
    import json
    import tempfile

    import torch

    from cnmahjong.training.config import load
    from cnmahjong.training.selfplay_ppo import train

    cfg = load("selfplay_ppo")
    threads = torch.get_num_threads()
    torch.set_num_threads(os.cpu_count() or 1)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            cfg.update(run_dir=tmp, max_minutes=minutes, checkpoint_every_updates=10**6, backend=backend)
            with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):  # no progress line
                train(cfg)
            with open(f"{tmp}/log.jsonl", encoding="utf-8") as f:
                rows = [json.loads(line) for line in f][1:]  # the first update warms up
    finally:
        torch.set_num_threads(threads)
    collect = sum(r["collect_seconds"] for r in rows)
    learn = sum(r["learn_seconds"] for r in rows)
    decisions = sum(r["env_decisions"] for r in rows)
    return {"end to end": decisions / (collect + learn), "collection": decisions / collect,
            "learning": decisions / learn, "collect share": collect / (collect + learn),
            "learner threads": rows[-1]["learner_threads"]}


def arena_rate(deals: int) -> float:
    """Deals per second (each in 4 rotations) of the default ruleset for a checkpoint against three greedy
    players, 2 processes
    (process start-up and torch's import included)."""
    import tempfile

    from cnmahjong.envs.integrations.networks import ActorCritic, save_actor_critic
    from cnmahjong.training.arena import run_deals

    rs = get_ruleset(DEFAULT_RULESET)
    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/net.pt"
        save_actor_critic(ActorCritic([256], "conv", encoder=rs.encoder_name), path)
        start = time.perf_counter()
        run_deals([f"ckpt:{path}", "greedy", "greedy", "greedy"], deals, rs.default_rules, workers=2, progress=False)
        return deals / (time.perf_counter() - start)

"""The bench's search rows (``make bench``, ``--search-only``): per ruleset, on one core, worlds
sampled per second (``game.sample_world``), copies per second (``game.clone`` and, for scale,
``copy.deepcopy``), whole remaining hands played out per second by each rollout policy from
mid-hand positions, the search player's decisions per second at its default budget, and whole hands
per second dealt and played out by the rollout primitive (``envs.core.rollouts``) with each built-in
policy (rows beginning ``rollouts, random policy:``).

The rows that play hands measure a steady rate: the compiled shanten tables are warmed first
(``envs.core.shapes.warm_tables``: every entry made once per process, about 2.5 s, which a long
search or evaluation pays anyway as its hands meet them; the pure package has none to warm)."""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cnmahjong.envs.core.ruleset import Ruleset
from cnmahjong.envs.core.shapes import warm_tables

POSITIONS = 40
"""Mid-hand positions measured from (random play, 30 decisions into a hand)."""


def positions(rs: Ruleset, n: int = POSITIONS, depth: int = 30) -> list[tuple[Any, int]]:
    """``(game, seat to act)`` pairs, each ``depth`` random decisions into a fresh hand."""
    config = rs.as_config(rs.default_rules)
    r = random.Random(0)
    out: list[tuple[Any, int]] = []
    seed = 0
    while len(out) < n:
        game = rs.new_hand(config, np.random.default_rng(seed))
        seed += 1
        for _ in range(depth):
            s = game.to_act[0]
            game.step(s, r.choice(game.legal_actions(s)))
            if game.done:
                break
        if not game.done:
            out.append((game, game.to_act[0]))
    return out


def _rate(one: Callable[[Any, int, int], Any], cases: list[tuple[Any, int]], seconds: float) -> float:
    """Calls per second of ``one(game, seat, i)`` cycling over ``cases`` for ``seconds``."""
    calls = 0
    start = time.perf_counter()
    while True:
        game, seat = cases[calls % len(cases)]
        one(game, seat, calls)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed


def worlds_rate(rs: Ruleset, seconds: float) -> float:
    cases = positions(rs)
    rng = np.random.default_rng(0)
    return _rate(lambda g, s, i: g.sample_world(s, rng), cases, seconds)


def clone_rates(rs: Ruleset, seconds: float) -> tuple[float, float]:
    """(``clone()`` per second, ``copy.deepcopy`` per second) of mid-hand games."""
    cases = positions(rs)
    return (_rate(lambda g, s, i: g.clone(), cases, seconds),
            _rate(lambda g, s, i: copy.deepcopy(g), cases, seconds))


def rollout_rate(rs: Ruleset, policy: str, seconds: float) -> float:
    """Whole remaining hands per second played out by ``policy`` (every seat) from a sampled world."""
    from cnmahjong.agents.search import play_out, rollout_player

    cases = positions(rs)
    play = rollout_player(rs, policy)
    rng = np.random.default_rng(0)
    warm_tables()
    return _rate(lambda g, s, i: play_out(g.sample_world(s, rng), play, rng), cases, seconds)


ROLLOUT_TARGETS = {"random": 15_000, "first": 0, "greedy": 3_000}
"""Whole hands per second per core of the rollout primitive (``envs.core.rollouts``), by policy."""


def hands_rate(rs: Ruleset, policy: str, seconds: float) -> float:
    """Whole hands per second dealt and played to the end by the rollout primitive's ``policy``."""
    from cnmahjong.envs.core.rollouts import deal_and_play

    hands = 0
    warm_tables()
    start = time.perf_counter()
    while True:
        deal_and_play(rs, rs.default_rules, range(hands, hands + 16), policy, seed=hands)
        hands += 16
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands / elapsed


def search_rate(rs: Ruleset, seconds: float) -> float:
    """The search player's decisions per second at its default budget (positions with a choice)."""
    from cnmahjong.agents import make_policy
    from cnmahjong.envs.core.worlds import SeatView

    cases = [(g, s) for g, s in positions(rs, 3 * POSITIONS) if len(g.legal_actions(s)) > 1][:POSITIONS]
    policy = make_policy("search", seed=0, ruleset=rs)
    warm_tables()
    return _rate(lambda g, s, i: policy.act_view(SeatView(g, s)), cases, seconds)


def search_measures(rs: Ruleset, seconds: float) -> list[tuple[tuple[str, ...], Callable[[], Any], tuple[int, ...]]]:
    """The rows of one ruleset, as ``cli.measures`` lists them (names, measure, targets)."""
    t = rs.title
    return [
        ((f"{t} worlds sampled (sample_world)",), lambda: worlds_rate(rs, seconds), (0,)),
        ((f"{t} game clone()", f"{t}   copy.deepcopy, for scale"), lambda: clone_rates(rs, seconds), (0, 0)),
        *[((f"{t} rollouts (whole remaining hands), {p}",), lambda p=p: rollout_rate(rs, p, seconds), (0,))
          for p in ("greedy", "expert", "random")],
        ((f"{t} search decisions (default budget)",), lambda: search_rate(rs, max(seconds, 5.0)), (1,)),
        *[((f"rollouts, {p} policy: {t} whole hands (envs.core.rollouts)",), lambda p=p: hands_rate(rs, p, seconds),
           (target,)) for p, target in ROLLOUT_TARGETS.items()],
    ]

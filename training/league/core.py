"""The league's core: a duplicate round-robin of several policies and a rating fitted to it.

Every pair of policies (A, B) plays the same seeded deals in the duplicate arena seated
A, B, A, B (partners opposite), each deal in all four seat rotations, so each holds every hand
from every seat. At a zero-sum table the two A seats win what the two B seats lose, so one
number describes the pair: ``s(A, B)``, A's mean settlement per hand per seat (and
``s(B, A) = -s(A, B)``).

The rating is the least-squares fit of ``s(A, B) = r(A) - r(B)`` with the ratings summing to
zero; over a complete round-robin it is ``r(A) = (1/n) Σ_B s(A, B)``: what A wins per hand
against the field's average member, in the ruleset's unit (片, points). Its 95% interval is a
bootstrap over deals: every pair played the same deal seeds, so one resample of deal indices
is applied to every pair at once (shared luck stays shared).

A league is plain data (``League``), written as JSON (``to_dict``) and read back with every
field checked (``League.from_dict``): adding a policy plays only its pairings with the others.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cnmahjong.envs.core.ruleset import get_ruleset, preset_names, ruleset_of_preset
from cnmahjong.training.arena.core import NUM_SEATS, run_arena
from cnmahjong.training.arena.stats import RATES, rate_name
from cnmahjong.training.files import MAX_DEALS

FORMAT = "cnmahjong-league/1"
"""The JSON's ``format``: a file of another format is refused."""
RESAMPLES = 1000
"""Bootstrap resamples of the rating's interval."""


@dataclass
class Pair:
    """What one pairing found: A's per-deal value (its seats' mean settlement over the deal's
    rotations) and, per policy, the sum of its hands' statistics."""

    a: str
    b: str
    per_deal: list[float]
    """``s(a, b)`` per deal, in deal-seed order."""
    totals: dict[str, dict[str, float]]
    """Per policy (``a``, ``b``): ``hands`` and the sum over its hands of each ``hand_stats`` value."""
    faults: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per policy that reports them (a bot): its protocol faults in this pairing."""
    names: dict[str, str] = field(default_factory=dict)
    """Per bot that gave one in its ``ready``: its name (checked as the protocol checks it)."""

    @property
    def mean(self) -> float:
        return float(np.mean(self.per_deal))

    def to_dict(self) -> dict[str, Any]:
        out = {"a": self.a, "b": self.b, "mean": self.mean, "per_deal": [round(v, 6) for v in self.per_deal],
               "totals": self.totals}
        if self.faults:
            out["faults"] = self.faults
        if self.names:
            out["names"] = self.names
        return out


def play_pair(a: str, b: str, deals: int, rules: str, seed: int, workers: int = 1,
              progress: bool = False, trust_pickles: bool = False, bot_time_limit: float | None = None) -> Pair:
    """A and B seated A, B, A, B over ``deals`` seat-rotated duplicate deals (``run_arena``;
    ``bot_time_limit``: its bots' seconds per decision)."""
    result = run_arena([a, b, a, b], deals, rules, seed=seed, workers=workers, progress=progress,
                       trust_pickles=trust_pickles, bot_time_limit=bot_time_limit)
    per_deal = [float(np.mean([(rot["policies"][0]["settlement"] + rot["policies"][2]["settlement"]) / 2
                               for rot in deal])) for deal in result.hands]
    totals: dict[str, dict[str, float]] = {}
    for name, seats in ((a, (0, 2)), (b, (1, 3))):
        hands = [rot["policies"][p] for deal in result.hands for rot in deal for p in seats]
        sums = {k: float(sum(h[k] for h in hands)) for k in hands[0]}
        totals[name] = {"hands": len(hands), **sums}
    faults = {}
    for name, seats in ((a, (0, 2)), (b, (1, 3))):
        counts: dict[str, int] = {}
        for p in seats:  # the arena's faults: per seating position, a bot's counts by kind
            for kind, n in result.faults[p].items():
                counts[kind] = counts.get(kind, 0) + int(n)
        if counts:
            faults[name] = counts
    names = {}
    for name, seats in ((a, (0, 2)), (b, (1, 3))):
        given = next((result.reports[p].bot_name for p in seats if result.reports[p].bot_name), None)
        if given:
            names[name] = given
    return Pair(a, b, per_deal, totals, faults, names)


@dataclass
class Standing:
    """One policy's line of the league table."""

    policy: str
    rating: float
    ci_low: float
    ci_high: float
    versus: dict[str, float]
    """``s(policy, other)`` for every other policy."""
    rates: dict[str, float]
    """``win_rate`` ... (the arena's common rates) and the ruleset's own ``<stat>_per_hand``."""
    hands: int
    faults: dict[str, int] = field(default_factory=dict)
    bot_name: str | None = None
    """The name a bot gave in its ``ready``; None for other policies."""

    @property
    def label(self) -> str:
        """What the table calls it: a bot by its own name beside its policy, any other by its policy."""
        return f"{self.bot_name} ({self.policy})" if self.bot_name else self.policy

    def to_dict(self) -> dict[str, Any]:
        out = {"policy": self.policy, "rating": self.rating, "ci95": [self.ci_low, self.ci_high],
               "versus": self.versus, "hands": self.hands, **self.rates}
        if self.faults:
            out["faults"] = self.faults
        if self.bot_name:
            out["bot_name"] = self.bot_name
        return out


@dataclass
class League:
    """A round-robin's set-up and every pairing played (``pairs`` keyed by ``(a, b)`` in
    ``policies`` order)."""

    rules: str
    deals: int
    seed: int
    policies: list[str] = field(default_factory=list)
    pairs: dict[tuple[str, str], Pair] = field(default_factory=dict)

    @property
    def ruleset(self) -> str:
        return ruleset_of_preset(self.rules).name

    @property
    def unit(self) -> str:
        rs = get_ruleset(self.ruleset)
        return rs.unit(rs.as_config(self.rules))

    def missing(self, policies: Sequence[str]) -> list[tuple[str, str]]:
        """The pairings adding ``policies`` needs (none already played, none twice)."""
        order = list(dict.fromkeys([*self.policies, *policies]))
        return [(a, b) for a, b in itertools.combinations(order, 2) if (a, b) not in self.pairs]

    def add(self, policies: Sequence[str], workers: int = 1, trust_pickles: bool = False,
            on_pair: Callable[[Pair, int, int], None] | None = None,
            play: Callable[..., Pair] | None = None) -> list[Pair]:
        """Add ``policies`` (those not yet in the league) and play only the pairings missing;
        returns the pairs played. ``on_pair(pair, k, of)`` after each (a progress line); ``play``:
        what plays one pairing (``play_pair``)."""
        play = play or play_pair
        todo = self.missing(policies)
        played = []
        for k, (a, b) in enumerate(todo, 1):
            pair = play(a, b, self.deals, self.rules, self.seed, workers=workers, trust_pickles=trust_pickles)
            self.pairs[(a, b)] = pair
            played.append(pair)
            if on_pair:
                on_pair(pair, k, len(todo))
        self.policies = list(dict.fromkeys([*self.policies, *policies]))
        return played

    def s(self, a: str, b: str) -> float:
        """A's mean per hand per seat against B."""
        return self.pairs[(a, b)].mean if (a, b) in self.pairs else -self.pairs[(b, a)].mean

    def standings(self, resamples: int = RESAMPLES) -> list[Standing]:
        """The table, best rating first."""
        names = self.policies
        n = len(names)
        if n < 2:
            return []
        index = {p: i for i, p in enumerate(names)}
        pairs = list(self.pairs.values())
        values = np.array([p.per_deal for p in pairs])  # (pairs, deals)
        sign = np.zeros((n, len(pairs)))
        for j, p in enumerate(pairs):
            sign[index[p.a], j], sign[index[p.b], j] = 1.0, -1.0

        def ratings(means: np.ndarray) -> np.ndarray:  # r = (1/n) Σ_B s(A, B)
            return sign @ means / n

        rating = ratings(values.mean(axis=1))
        rng = np.random.default_rng(self.seed)
        boot = np.stack([ratings(values[:, rng.integers(0, values.shape[1], values.shape[1])].mean(axis=1))
                         for _ in range(resamples)])
        low, high = np.percentile(boot, [2.5, 97.5], axis=0)
        rows = []
        for i, name in enumerate(names):
            totals = [p.totals[name] for p in pairs if name in (p.a, p.b)]
            hands = int(sum(t["hands"] for t in totals))
            stats = [k for k in totals[0] if k not in ("hands", "settlement")]
            rates = {rate_name(k): sum(t[k] for t in totals) / hands for k in stats}
            faults: dict[str, int] = {}
            for p in pairs:
                for kind, c in p.faults.get(name, {}).items():
                    faults[kind] = faults.get(kind, 0) + c
            given = next((p.names[name] for p in pairs if name in p.names), None)
            rows.append(Standing(name, float(rating[i]), float(low[i]), float(high[i]),
                                 {o: self.s(name, o) for o in names if o != name}, rates, hands, faults, given))
        return sorted(rows, key=lambda r: -r.rating)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "ruleset": self.ruleset, "rules": self.rules, "unit": self.unit,
                "deals": self.deals, "seed": self.seed, "policies": list(self.policies),
                "table": [r.to_dict() for r in self.standings()],
                "pairs": [p.to_dict() for p in self.pairs.values()]}

    @classmethod
    def from_dict(cls, data: Any, where: str = "the league file") -> League:
        """A league read back from its JSON, every field checked (the file is untrusted): a
        problem raises ``ValueError`` naming the field and what is allowed. Its parts must agree:
        each pair's totals with its per-deal values, the two sides' settlements summing to zero,
        counts within what the hands allow, faults of known kinds within the decisions, and a
        stated ``mean``, ``table``, ``ruleset`` or ``unit`` with what the pairings give."""
        def need(ok: bool, what: str) -> None:
            if not ok:
                raise ValueError(f"{where}: {what}")

        need(isinstance(data, dict), f"expected a JSON object, got {type(data).__name__}")
        need(data.get("format") == FORMAT, f"'format' must be {FORMAT!r}, got {data.get('format')!r}")
        rules, deals, seed = data.get("rules"), data.get("deals"), data.get("seed")
        need(rules in preset_names(), f"'rules' {rules!r} is not a preset: allowed {', '.join(sorted(preset_names()))}")
        need(_is_int(deals) and 2 <= deals <= MAX_DEALS, f"'deals' must be an integer in 2..{MAX_DEALS}, got {deals!r}")
        need(_is_int(seed) and seed >= 0, f"'seed' must be a non-negative integer, got {seed!r}")
        policies = data.get("policies")
        need(isinstance(policies, list) and all(isinstance(p, str) and p for p in policies)
             and len(set(policies)) == len(policies), "'policies' must be a list of distinct policy names")
        league = cls(rules, deals, seed, list(policies))
        for key, computed in (("ruleset", league.ruleset), ("unit", league.unit)):
            need(key not in data or data[key] == computed,
                 f"'{key}' {data.get(key)!r} disagrees with 'rules' {rules!r}, whose {key} is {computed!r}")
        raw = data.get("pairs")
        need(isinstance(raw, list), "'pairs' must be a list")
        rs = get_ruleset(league.ruleset)
        for k, p in enumerate(raw):
            need(isinstance(p, dict), f"pairs[{k}] must be an object")
            pair = _read_pair(p, policies, deals, rs.stat_names, lambda ok, what, k=k: need(ok, f"pairs[{k}]: {what}"))
            need((pair.a, pair.b) not in league.pairs, f"pairs[{k}]: the pair {pair.a} / {pair.b} appears twice")
            league.pairs[(pair.a, pair.b)] = pair
        missing = [f"{a} / {b}" for a, b in itertools.combinations(policies, 2) if (a, b) not in league.pairs]
        need(not missing, f"pairings missing: {', '.join(missing)} (a league file holds every pairing)")
        if "table" in data:
            stated = data["table"]
            computed = [r.to_dict() for r in league.standings()]
            wrong = _disagreement(stated, json.loads(json.dumps(computed)), "table")
            need(wrong is None, f"{wrong} (the table is refitted from the pairings: correct it or leave it out)")
        return league


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    """A finite JSON number (an integer too large for a float is not one)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return False


HAND_LIMIT = 1e6
"""The largest size a per-deal value (a policy's mean settlement per hand) may have in a league
file: far above what a hand of any shipped ruleset pays (the committed leagues' largest is 16),
low enough that no sum or square of them overflows."""
COUNTS_PER_HAND = 144
"""A ruleset's own count (``stat_names``) is at most this per hand: no hand has more tiles to count."""
SLACK = 1e-5
"""How far a stated value may stray from the one computed from the file's other parts: per-deal
values are written to 6 decimals."""


def _read_pair(p: dict[str, Any], policies: list[str], deals: int, own: Sequence[str],
               need: Callable[[bool, str], None]) -> Pair:
    """One ``pairs`` entry of a league file, checked against itself (``League.from_dict``)."""
    a, b, per_deal, totals = p.get("a"), p.get("b"), p.get("per_deal"), p.get("totals")
    need(a in policies and b in policies and a != b and policies.index(a) < policies.index(b),
         f"'a' and 'b' must be two policies of 'policies', in its order, got {a!r}, {b!r}")
    need(isinstance(per_deal, list) and len(per_deal) == deals and all(_is_number(v) for v in per_deal),
         f"'per_deal' must hold {deals} finite numbers (one per deal)")
    big = max(per_deal, key=abs)
    need(abs(big) <= HAND_LIMIT, f"'per_deal' holds {big!r}: a hand pays at most {HAND_LIMIT:g} in size")
    mean = float(np.mean(per_deal))
    need("mean" not in p or (_is_number(p["mean"]) and abs(p["mean"] - mean) <= SLACK),
         f"'mean' {p.get('mean')!r} is not the mean of 'per_deal' ({mean!r})")
    hands = 2 * NUM_SEATS * deals
    keys = {"hands", "settlement", *RATES, *own}
    need(isinstance(totals, dict) and set(totals) == {a, b},
         f"'totals' must give the sums of {a} and of {b}, nothing else")
    for name, sign in ((a, 1.0), (b, -1.0)):
        t = totals[name]
        at = f"'totals' of {name}"
        need(isinstance(t, dict) and set(t) == keys, f"{at} must name exactly {', '.join(sorted(keys))}")
        need(_is_int(t["hands"]) and t["hands"] == hands, f"{at}: 'hands' must be {hands} (2 seats x 4 rotations "
             f"x {deals} deals), got {t['hands']!r}")
        need(all(_is_number(v) for v in t.values()), f"{at}: every sum must be a finite number")
        for key in keys - {"hands", "settlement"}:
            most = hands if key in RATES else hands * COUNTS_PER_HAND
            need(float(t[key]).is_integer() and 0 <= t[key] <= most,
                 f"{at}: '{key}' must be a whole count in 0..{most}, got {t[key]!r}")
        paid = sign * hands / deals * math.fsum(per_deal)  # each deal's value is the mean of 8 hands
        need(abs(t["settlement"] - paid) <= SLACK * hands,
             f"{at}: 'settlement' {t['settlement']!r} is not what 'per_deal' adds up to ({paid:.6g})")
    faults = p.get("faults", {})
    need(isinstance(faults, dict) and set(faults) <= {a, b}, f"'faults' must map {a} and/or {b} to fault counts")
    if faults:
        from cnmahjong.agents.bot import COUNTS, FAULTS  # what a bot's ``faults()`` counts, where one played

        kinds = COUNTS
    for name, counts in faults.items():
        at = f"'faults' of {name}"
        need(isinstance(counts, dict) and set(counts) <= set(kinds), f"{at} must count only {', '.join(kinds)}")
        need(all(_is_int(c) and c >= 0 for c in counts.values()), f"{at}: counts must be non-negative integers")
        played = sum(counts.get(kind, 0) for kind in FAULTS)
        need(played <= counts.get("decisions", 0),
             f"{at}: {played} faults is more than its {counts.get('decisions', 0)} decisions")
    names = p.get("names", {})
    need(isinstance(names, dict) and set(names) <= {a, b}, f"'names' must map {a} and/or {b} to a bot's name")
    if names:
        from cnmahjong.agents.bot import name_problem

        for name, given in names.items():
            problem = name_problem(given)
            need(problem is None, f"'names' of {name}: {problem}")
    return Pair(a, b, [float(v) for v in per_deal], totals, faults, names)


def _disagreement(stated: Any, computed: Any, at: str) -> str | None:
    """Where a stated part of a league file differs from the one computed (numbers within
    ``SLACK``), as ``'table[0].rating' is 31.5, the pairings give 1.1``; None where they agree."""
    if isinstance(computed, dict):
        if not isinstance(stated, dict) or set(stated) != set(computed):
            return f"'{at}' must name {', '.join(sorted(computed))}"
        return next((d for k in computed if (d := _disagreement(stated[k], computed[k], f"{at}.{k}"))), None)
    if isinstance(computed, list):
        if not isinstance(stated, list) or len(stated) != len(computed):
            return f"'{at}' must hold {len(computed)} entries"
        return next((d for i, (s, c) in enumerate(zip(stated, computed, strict=True))
                     if (d := _disagreement(s, c, f"{at}[{i}]"))), None)
    if _is_number(computed) and _is_number(stated) and abs(stated - computed) <= SLACK:
        return None
    if type(stated) is type(computed) and stated == computed:
        return None
    return f"'{at}' is {stated!r}, the pairings give {computed!r}"

"""The arena's statistics: per policy, the mean settlement per hand with a 95% bootstrap
confidence interval over deals, and its rates per hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

RATES = ("win", "self_draw", "deal_in", "big_win")
"""The statistics every ruleset's ``hand_stats`` gives as flags: reported as ``<name>_rate``; the
ruleset's own counts (``stat_names``) are reported as ``<name>_per_hand``."""


def rate_name(stat: str) -> str:
    """A report's key for the per-hand mean of ``hand_stats`` value ``stat`` (see ``RATES``)."""
    return f"{stat}_rate" if stat in RATES else f"{stat}_per_hand"


@dataclass
class PolicyReport:
    """Arena results of one policy entry."""

    name: str
    mean: float
    ci_low: float
    ci_high: float
    rates: dict[str, float]
    faults: dict[str, int] = field(default_factory=dict)
    """A bot's fault counts (``cnmahjong.agents.bot``: decisions its fallback played, by kind); empty
    for a policy that keeps none."""
    bot_name: str | None = None
    """The name a bot gave in its ``ready`` (checked: printable, short); None for other policies."""

    @property
    def label(self) -> str:
        """What the table calls it: a bot by its own name, any other policy by its policy name."""
        return self.bot_name or self.name

    def to_dict(self) -> dict[str, Any]:
        extra = {"faults": dict(self.faults)} if self.faults else {}
        if self.bot_name:
            extra["bot_name"] = self.bot_name
        return {"name": self.name, "mean_settlement": self.mean, "ci95": [self.ci_low, self.ci_high],
                **self.rates, **extra}


def bootstrap_ci(values: np.ndarray, resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% percentile bootstrap interval of the mean."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(values), size=(resamples, len(values)))
    means = values[idx].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def summarise(names: Sequence[str], results: list[list[dict[str, Any]]]) -> list[PolicyReport]:
    """One report per policy of the hand records (``core.play_deals``): a deal's value is the
    policy's mean over its rotations, so the interval is over deals, not hands."""
    reports = []
    for p, name in enumerate(names):
        per_deal = np.array([np.mean([rot["policies"][p]["settlement"] for rot in deal]) for deal in results],
                            dtype=float)
        hands = [rot["policies"][p] for deal in results for rot in deal]
        means = {k: float(np.mean([h[k] for h in hands])) for k in hands[0] if k != "settlement"}
        rates = {rate_name(k): v for k, v in means.items()}
        low, high = bootstrap_ci(per_deal)
        label = name if list(names).count(name) == 1 else f"{name}#{p}"
        reports.append(PolicyReport(label, float(per_deal.mean()), low, high, rates))
    return reports

"""The duplicate arena as a library: ``run_arena(names, deals, rules)`` plays seat-rotated
deals of any registered ruleset and returns an ``ArenaResult`` (every hand's record, each
policy's report with its 95% confidence interval).

Layers over it, each its own module: ``stats`` (bootstrap intervals, reports), ``table`` (the
printed table), ``plot`` (the PNG chart), ``save`` (the JSON report, the kept hands for the
viewer), ``cli`` (``python -m cnmahjong.training.arena``, ``cnmahjong-arena``).
"""

from __future__ import annotations

from cnmahjong.training.arena.core import (
    NUM_SEATS,
    TABLES,
    ArenaResult,
    HandRecord,
    default_rules,
    evaluate,
    play_deals,
    run_arena,
    run_deals,
    unit_of,
)
from cnmahjong.training.arena.stats import PolicyReport, bootstrap_ci, summarise

__all__ = ["NUM_SEATS", "TABLES", "ArenaResult", "HandRecord", "PolicyReport", "bootstrap_ci", "default_rules",
           "evaluate", "play_deals", "run_arena", "run_deals", "summarise", "unit_of"]

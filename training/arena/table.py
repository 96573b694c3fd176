"""The arena's printed table: one line per policy."""

from __future__ import annotations

from collections.abc import Sequence

from cnmahjong.agents.bot import FAULTS, STALE
from cnmahjong.training.arena.stats import PolicyReport


def format_table(reports: Sequence[PolicyReport], deals: int, unit: str) -> str:
    """Mean per hand, its 95% interval, the common rates, then the ruleset's own counts per hand
    (one column each, headed by its name); under the table a line per policy with fault counts (a bot)."""
    extra = [k[:-len("_per_hand")] for k in reports[0].rates if k.endswith("_per_hand")]
    widths = [max(7, len(k) + 1) for k in extra]
    head = (f"{'policy':<28}{'mean/hand':>10}{'95% CI':>20}{'win':>7}{'self':>7}{'deal-in':>8}{'big':>7}"
            + "".join(f"{k:>{w}}" for k, w in zip(extra, widths, strict=True)))
    lines = [f"duplicate arena: {deals} deals x 4 rotations = {deals * 4} hands per policy ({unit})", head]
    for r in reports:
        ci = f"[{r.ci_low:+.2f}, {r.ci_high:+.2f}]"
        lines.append(
            f"{r.label[-28:]:<28}{r.mean:>+10.2f}{ci:>20}{r.rates['win_rate']:>7.1%}"
            f"{r.rates['self_draw_rate']:>7.1%}{r.rates['deal_in_rate']:>8.1%}{r.rates['big_win_rate']:>7.1%}"
            + "".join(f"{r.rates[k + '_per_hand']:>{w}.2f}" for k, w in zip(extra, widths, strict=True)))
    lines += [fault_line(r) for r in reports if r.faults]
    return "\n".join(lines)


def fault_line(report: PolicyReport) -> str:
    """``faults of NAME: 3 of 1200 decisions played by the fallback (timeout 2, illegal 1), 1 restart``
    (and ``, 2 stale lines dropped`` when the bot wrote lines nobody asked for)."""
    counts = report.faults
    kinds = {k: counts[k] for k in FAULTS if counts.get(k)}
    detail = f" ({', '.join(f'{k} {n}' for k, n in kinds.items())})" if kinds else ""
    restarts, stale = counts.get("restarts", 0), counts.get(STALE, 0)
    dropped = f", {stale} stale line{'' if stale == 1 else 's'} dropped" if stale else ""
    who = report.name if report.bot_name is None else f"{report.bot_name} ({report.name})"
    return (f"faults of {who}: {sum(kinds.values())} of {counts.get('decisions', 0)} decisions played by "
            f"the fallback{detail}, {restarts} restart{'' if restarts == 1 else 's'}{dropped}")

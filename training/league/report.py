"""The league's printed table, its markdown (the README's) and its PNG chart."""

from __future__ import annotations

from collections.abc import Sequence

from cnmahjong.training.league.core import League, Standing

COMMON = (("win", "win_rate"), ("self", "self_draw_rate"), ("deal-in", "deal_in_rate"), ("big", "big_win_rate"))


def _extra(rows: Sequence[Standing]) -> list[str]:
    """The ruleset's own counts per hand (爆头, 飘 ...), by name."""
    return [k[:-len("_per_hand")] for k in rows[0].rates if k.endswith("_per_hand")] if rows else []


def format_league(league: League) -> str:
    """The standings (rating, interval, rates, faults) and the pairwise results, as text."""
    rows = league.standings()
    extra = _extra(rows)
    width = max([8, *(len(r.label[-48:]) + 1 for r in rows)])
    lines = [f"league: {len(league.policies)} policies, {league.rules}, {league.deals} deals x 4 rotations "
             f"per pairing (seated A B A B); rating = {league.unit} per hand against the field's average",
             f"{'policy':<{width}}{'rating':>8}{'95% CI':>18}" + "".join(f"{h:>8}" for h, _ in COMMON)
             + "".join(f"{k:>{max(8, len(k) + 1)}}" for k in extra)]
    for r in rows:
        lines.append(f"{r.label[-48:]:<{width}}{r.rating:>+8.2f}{f'[{r.ci_low:+.2f}, {r.ci_high:+.2f}]':>18}"
                     + "".join(f"{r.rates[k]:>8.1%}" for _, k in COMMON)
                     + "".join(f"{r.rates[k + '_per_hand']:>{max(8, len(k) + 1)}.3f}" for k in extra))
    names = [r.policy for r in rows]
    lines += ["", f"pairwise: row's {league.unit} per hand per seat against column"]
    lines.append(" " * width + "".join(f"{n[-10:]:>11}" for n in names))
    for a in names:
        lines.append(f"{a[-32:]:<{width}}" + "".join(f"{'—' if a == b else f'{league.s(a, b):+.2f}':>11}"
                                                      for b in names))
    faulty = [r for r in rows if r.faults]
    for r in faulty:
        lines.append(f"{r.label} protocol faults: " + ", ".join(f"{k} {v}" for k, v in r.faults.items()))
    return "\n".join(lines)


def markdown_league(league: League) -> str:
    """The standings as a markdown table (the README's league tables)."""
    rows = league.standings()
    extra = _extra(rows)
    head = ["policy", f"rating ({league.unit}/hand)", "95% CI", *(h for h, _ in COMMON), *extra]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        named = f"`{r.policy}`" + (f" ({r.bot_name})" if r.bot_name else "")
        cells = [named, f"{r.rating:+.2f}", f"[{r.ci_low:+.2f}, {r.ci_high:+.2f}]",
                 *(f"{r.rates[k]:.1%}" for _, k in COMMON), *(f"{r.rates[k + '_per_hand']:.3f}" for k in extra)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot_league(league: League, path: str) -> None:
    """Ratings with their intervals (left) and the pairwise matrix (right); matplotlib imported here only."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = league.standings()
    names = [r.policy for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    errors = [[r.rating - r.ci_low for r in rows], [r.ci_high - r.rating for r in rows]]
    colors = ["tab:green" if r.ci_low > 0 else "tab:red" if r.ci_high < 0 else "tab:gray" for r in rows]
    left.barh(range(len(rows)), [r.rating for r in rows], xerr=errors, capsize=5, color=colors)
    left.set_yticks(range(len(rows)), [n[-24:] for n in names])
    left.invert_yaxis()
    left.axvline(0, color="black", linewidth=0.8)
    left.set_xlabel("rating: settlement per hand against the field")  # ASCII: the unit (片) has no glyph
    matrix = [[0.0 if a == b else league.s(a, b) for b in names] for a in names]
    bound = max(1e-9, max(abs(v) for row in matrix for v in row))
    image = right.imshow(matrix, cmap="RdYlGn", vmin=-bound, vmax=bound)
    right.set_xticks(range(len(names)), [n[-24:] for n in names], rotation=30, ha="right", fontsize=8)
    right.set_yticks(range(len(names)), [n[-24:] for n in names], fontsize=8)
    for i, row in enumerate(matrix):
        for j, v in enumerate(row):
            if i != j:
                right.text(j, i, f"{v:+.2f}", ha="center", va="center", fontsize=8)
    right.set_title("row against column, per hand per seat")
    fig.colorbar(image, ax=right, shrink=0.8)
    fig.suptitle(f"league: {league.rules}, {league.deals} deals per pairing")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

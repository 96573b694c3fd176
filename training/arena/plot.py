"""The arena's chart: mean settlement per hand with 95% CI error bars (matplotlib, imported here only)."""

from __future__ import annotations

from collections.abc import Sequence

from cnmahjong.training.arena.stats import PolicyReport


def plot(reports: Sequence[PolicyReport], path: str, title: str) -> None:
    """A bar per policy: green when the whole interval is above 0, red below, grey across it."""
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

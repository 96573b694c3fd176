"""The league: a duplicate round-robin of any number of policies, a rating with its interval
per policy, the pairwise results, JSON and a PNG; a league file grows one policy at a time.

    python -m cnmahjong.training.league --rules mainstream --policies random greedy expert pretrained \\
        --deals 500 --json league.json --png league.png
    python -m cnmahjong.training.league --league league.json --policies ckpt:runs/mine/model.pt

(``cnmahjong-league`` is the same command.) ``core`` plays and fits, ``report`` prints and draws,
``cli`` is the command line.
"""

from __future__ import annotations

from cnmahjong.training.league.core import FORMAT, League, Pair, Standing, play_pair
from cnmahjong.training.league.report import format_league, markdown_league, plot_league

__all__ = ["FORMAT", "League", "Pair", "Standing", "format_league", "markdown_league", "play_pair", "plot_league"]

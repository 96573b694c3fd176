"""Changsha's per-hand statistics for the arena (``Ruleset.hand_stats``): the common ones of
``cnmahjong.envs.core.result.seat_stats`` and how often each seat took the 海底 tile (§7) and
made a 开杠 (§6.3)."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.game import ChangshaGame
from cnmahjong.envs.core.result import seat_stats

STAT_NAMES: tuple[str, ...] = ("haidi_take", "kaigang")
"""Per seat: 海底 tiles taken (要海底), 开杠 made (a claimed, concealed or added kong)."""


def hand_stats(game: ChangshaGame) -> list[dict[str, Any]]:
    """Per seat 0..3 of a finished hand: settlement, win, self_draw, deal_in, big_win (a 大胡),
    haidi_take and kaigang."""
    rows = seat_stats(game.result, STAT_NAMES)
    for e in game.events:  # the moves are in the log only: the state forgets them
        kind = e["type"]
        if kind == "act":
            if e["action"] == A.HAIDI_TAKE:
                rows[e["seat"]]["haidi_take"] += 1
        elif kind == "meld" and e["how"] == "kaigang":
            rows[e["seat"]]["kaigang"] += 1
    return rows

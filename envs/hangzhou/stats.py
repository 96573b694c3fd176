"""Hangzhou's per-hand statistics for the arena (``Ruleset.hand_stats``): the common ones of
``cnmahjong.envs.core.result.seat_stats``, the 爆头 win and the 飘 (财飘) each seat made (§3)."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.core.result import seat_stats
from cnmahjong.envs.hangzhou.game import HangzhouGame

STAT_NAMES: tuple[str, ...] = ("baotou", "piao")
"""Per seat: 爆头 wins (0 or 1 a hand), 飘 discards (a 财神 thrown from the 爆头-ready state)."""


def hand_stats(game: HangzhouGame) -> list[dict[str, Any]]:
    """Per seat 0..3 of a finished hand: settlement, win, self_draw, deal_in, big_win (above ×1),
    baotou and piao."""
    rows = seat_stats(game.result, STAT_NAMES)
    result = game.result
    assert result is not None
    for seat, patterns in result.patterns.items():
        rows[seat]["baotou"] = patterns.get("BAOTOU", 0)
    for e in game.events:  # a 飘 streak ends with the next plain discard: only the log keeps them all
        if e["type"] == "discard" and e.get("piao"):
            rows[e["seat"]]["piao"] += 1
    return rows

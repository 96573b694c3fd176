"""Sichuan's per-hand statistics for the arena (``Ruleset.hand_stats``): the common ones of
``cnmahjong.envs.core.result.seat_stats``, the kongs each seat made (刮风下雨, §6: each one paid at
once) and how each seat ended a hand that ran out (§7: 花猪, not ready). All are counts (the
league checks them as such); the money itself is in the settlement."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.core.result import seat_stats
from cnmahjong.envs.sichuan.game import SichuanGame

STAT_NAMES: tuple[str, ...] = ("kongs", "huazhu", "not_ready")
"""Per seat: kongs made (直杠, 暗杠, 补杠), caught as a 花猪 (0 or 1), caught not ready (查大叫, 0 or 1)."""


def hand_stats(game: SichuanGame) -> list[dict[str, Any]]:
    """Per seat 0..3 of a finished hand: settlement, win, self_draw, deal_in, big_win (a win of
    one fan or more), kongs, huazhu and not_ready."""
    result = game.result
    rows = seat_stats(result, STAT_NAMES)
    assert result is not None
    for s in range(len(rows)):
        rows[s]["kongs"] = sum(len(m.tiles) == 4 for m in game.melds[s])
    for seat, cls in result.extras["classes"].items():
        rows[int(seat)]["huazhu"] = int(cls == "huazhu")
        rows[int(seat)]["not_ready"] = int(cls == "not_ready")
    return rows

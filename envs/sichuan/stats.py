"""Sichuan's per-hand statistics for the arena (``Ruleset.hand_stats``): the common ones of
``cnmahjong.envs.core.result.seat_stats``, the kong money (刮风下雨, §6) and how each seat ended a
hand that ran out (§7: 花猪, not ready)."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.core.result import seat_stats
from cnmahjong.envs.sichuan.game import SichuanGame

STAT_NAMES: tuple[str, ...] = ("kong_money", "huazhu", "not_ready")
"""Per seat: net kong money (§6.1, 呼叫转移 and 退税 included), caught as a 花猪 (0 or 1), caught
not ready (查大叫, 0 or 1)."""

_KONG_REASONS = ("kong", "transfer", "tuishui")


def hand_stats(game: SichuanGame) -> list[dict[str, Any]]:
    """Per seat 0..3 of a finished hand: settlement, win, self_draw, deal_in, big_win (a win of
    one fan or more), kong_money, huazhu and not_ready."""
    result = game.result
    rows = seat_stats(result, STAT_NAMES)
    assert result is not None
    for x in result.transfers:
        if x.reason in _KONG_REASONS:
            rows[x.payer]["kong_money"] -= x.amount
            rows[x.payee]["kong_money"] += x.amount
    for seat, cls in result.extras["classes"].items():
        rows[int(seat)]["huazhu"] = int(cls == "huazhu")
        rows[int(seat)]["not_ready"] = int(cls == "not_ready")
    return rows

"""Text-table pieces every ruleset's renderer shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cnmahjong.envs.core.tiles import display


def action_lines(game: Any, last_action: tuple[int, int] | None, describe: Callable[[int], str]) -> list[str]:
    """The last action played and the tiles offered to claim right now (if any)."""
    lines = []
    if last_action is not None:
        seat, action = last_action
        lines.append(f"last action: seat {seat} {describe(action)}")
    if game.claim_tiles:
        lines.append(f"offered by seat {game.claim_from}: {display(game.claim_tiles, sort=False)}")
    return lines

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


def plain_render(game: Any, viewer: int | None = None, last_action: tuple[int, int] | None = None) -> str:
    """A ruleset's text table when it writes none of its own: phase, who acts, each seat's
    concealed tiles (only ``viewer``'s until the hand is over), river and payments so far."""
    lines = [f"phase: {game.phase}  to act: {game.to_act}  out: {list(game.seats_out)}"]
    rivers = getattr(game, "rivers", None)
    for s, counts in enumerate(game.hands):
        shown = game.done or s == viewer
        tiles = display([k for k, c in enumerate(counts) for _ in range(c)]) if shown else "(hidden)"
        river = f"  river {display(rivers[s], sort=False)}" if rivers is not None else ""
        lines.append(f"seat {s}: {tiles}{river}  paid {game.payments[s]:+d}")
    lines += action_lines(game, last_action, game.ACTIONS.describe)
    return "\n".join(lines)

"""Text rendering of a Changsha hand (the env's ``ansi`` and ``human`` modes).

Each seat's melds and discards, the viewer's concealed hand (every hand once
the hand is over), wall size, dealer and the last action, with Unicode tiles
and a plain-text fallback (``5p``) side by side.
"""

from __future__ import annotations

from cnmahjong.envs.changsha.actions import describe
from cnmahjong.envs.changsha.game import DONE, ChangshaGame
from cnmahjong.envs.core.render import action_lines
from cnmahjong.envs.core.tiles import display as _tiles
from cnmahjong.envs.core.tiles import format, from_counts


def render_text(game: ChangshaGame, viewer: int | None = None,
                last_action: tuple[int, int] | None = None) -> str:
    """A table of the hand as ``viewer`` may see it (all hands once the hand is over)."""
    lines = [f"Changsha mahjong  phase: {game.phase}  wall: {game.wall.remaining} tiles  "
             f"dealer: seat {game.dealer}  to act: {game.to_act}"]
    lines += action_lines(game, last_action, describe)
    if game.revealed:
        lines.append(f"face up: {_tiles(game.revealed, sort=False)}")
    for s in range(4):
        tags = []
        if s == game.dealer:
            tags.append("dealer")
        if game.locked[s]:
            tags.append("locked")
        if game.declared[s]:
            tags.append("declared " + "+".join(game.declared[s]))
        head = f"seat {s}" + (f" ({', '.join(tags)})" if tags else "")
        lines.append(head)
        if game.phase == DONE or s == viewer:
            lines.append(f"  hand    {_tiles(from_counts(game.hands[s]))}")
        else:
            shown = from_counts(game.shown[s])
            hidden = sum(game.hands[s]) - len(shown)
            lines.append(f"  hand    {hidden} hidden" + (f" + shown {_tiles(shown)}" if shown else ""))
        melds = "  ".join(f"{m.kind}:{format(m.tiles)}" for m in game.melds[s]) or "-"
        lines.append(f"  melds   {melds}")
        lines.append(f"  discards {_tiles(game.rivers[s], sort=False)}")
    if game.result is not None:
        r = game.result
        if r.winners:
            for w in r.winners:
                lines.append(f"winner seat {w}: {', '.join(r.patterns[w])} (合 {r.value[w]})")
            lines.append(f"birds {r.extras['birds']} on seats {r.extras['bird_seats']}")
        else:
            lines.append("drawn hand (流局)")
        lines.append(f"payments {list(r.payments)}")
    return "\n".join(lines)

"""Text rendering of a Hangzhou hand (the env's ``ansi`` and ``human`` modes).

The indicator and 财神, each seat's melds (another seat's concealed kong face down until it
is revealed) and discards, 飘 counts, the viewer's concealed hand (every hand once the hand
is over), wall size, dealer streak and the last action, Unicode tiles beside their text.
"""

from __future__ import annotations

from cnmahjong.envs.core.engine import DONE
from cnmahjong.envs.core.render import action_lines
from cnmahjong.envs.core.tiles import display, format, from_counts
from cnmahjong.envs.hangzhou.actions import describe
from cnmahjong.envs.hangzhou.game import HangzhouGame


def render_text(game: HangzhouGame, viewer: int | None = None,
                last_action: tuple[int, int] | None = None) -> str:
    """A table of the hand as ``viewer`` may see it (all hands once the hand is over)."""
    over = game.phase == DONE
    lines = [f"Hangzhou mahjong  phase: {game.phase}  wall: {game.wall.remaining} tiles  "
             f"dealer: seat {game.dealer} (level {game.streak})  to act: {game.to_act}",
             f"indicator {display([game.indicator])}: the other copies are 财神"]
    lines += action_lines(game, last_action, describe)
    for s in range(4):
        tags = ["dealer"] if s == game.dealer else []
        if game.piao[s]:
            tags.append(f"飘 ×{game.piao[s]}" + (" pending" if s in game.piao_pending else ""))
        lines.append(f"seat {s}" + (f" ({', '.join(tags)})" if tags else ""))
        if over or s == viewer:
            lines.append(f"  hand    {display(from_counts(game.hands[s]))}")
        else:
            lines.append(f"  hand    {sum(game.hands[s])} hidden")
        melds = "  ".join("angang:face down" if m.hidden and not over and s != viewer
                          else f"{m.kind}:{format(m.tiles)}" for m in game.melds[s]) or "-"
        lines.append(f"  melds   {melds}")
        lines.append(f"  discards {display(game.rivers[s], sort=False)}")
    r = game.result
    if r is not None:
        for w in r.winners:
            pats = ", ".join(f"{p}×{n}" if n > 1 else p for p, n in r.patterns[w].items()) or "平胡"
            how = "self-drawn" if w in r.self_drawn else f"on seat {r.won_from[w]}'s discard"
            lines.append(f"winner seat {w} {how}: {pats} (×{2 ** r.value[w]})")
        liable = r.extras["liable"]
        if liable["chengbao"] is not None or liable["fan"]:
            lines.append(f"承包 {liable['chengbao']}  反承包 {liable['fan']}")
        if not r.winners:
            lines.append("drawn hand (荒庄)")
        lines.append(f"payments {list(r.payments)}")
    return "\n".join(lines)

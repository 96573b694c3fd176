"""What the viewer and the play server show of a Hangzhou table beyond the common facts."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.core.ruleset import meld_tiles
from cnmahjong.envs.core.tiles import name
from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.patterns import chi_runs, natural_kind


def seat_tags(game: Any, seat: int) -> list[str]:
    """Dealer with its level (连庄 streak), and a seat's 飘 bets (piao ×n)."""
    tags = [f"dealer (level {game.streak})"] if seat == game.dealer else []
    if game.piao[seat]:
        tags.append(f"piao ×{game.piao[seat]}")  # 飘: Latin, as the tiles, for pages without CJK fonts
    return tags


def table_extras(game: Any) -> dict[str, Any]:
    """The indicator tile (翻财神) that names the wildcards."""
    return {"indicator": game.indicator}


def markers(game: Any) -> list[dict[str, Any]]:
    """The middle of the table: the indicator, whose other copies are the 财神 (wild: marked
    wherever they show), and the seats whose 飘 still restricts the others."""
    out: list[dict[str, Any]] = [{"id": "indicator", "label": "wild", "hint": "财神: the indicator's other copies",
                                  "tiles": [game.indicator], "marks": True}]
    if game.piao_pending:
        out.append({"id": "piao", "label": "piao pending", "hint": "飘: the others are restricted until its next turn",
                    "text": ", ".join(f"seat {s}" for s in game.piao_pending)})
    return out


def action_tiles(game: Any, action: int) -> list[int]:
    """The tiles a claim or kong button shows: a CHI's run, a PENG's three, a kong's four."""
    offered = game.claim_tiles
    t = offered[0] if len(offered) == 1 else None
    if t is not None and action in A.CHI_ACTIONS:  # the hand's tiles as the game takes them (白板 for the 财神's kind)
        run = next(((x, y) for b, x, y in chi_runs(game.indicator)[t] if b == action), None)
        return [] if run is None else sorted((*run, t), key=lambda x: natural_kind(x, game.indicator))
    return meld_tiles(game, action, peng=A.PENG, claim_kongs=(A.GANG_CLAIM,), own_kongs=range(A.GANG_SELF, A.HU))


def event_text(e: dict[str, Any]) -> str | None:
    """Hangzhou's own events in words: the indicator (翻财神), shown concealed kongs, a 飘 discard;
    None for the common ones."""
    kind, seat = e["type"], e.get("seat")
    if kind == "indicator":
        return f"indicator {name(e['tile'])}: its other copies are wild (财神)"
    if kind == "reveal":
        return f"seat {seat}'s concealed kongs are shown: {' '.join(name(t) for t in e.get('tiles', ()))}".rstrip(": ")
    if kind == "discard" and e.get("piao"):
        return f"seat {seat} discards {name(e['tile'])} (飘)"
    return None

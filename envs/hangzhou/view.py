"""What the viewer and the play server show of a Hangzhou table beyond the common facts."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.core.tiles import name


def seat_tags(game: Any, seat: int) -> list[str]:
    """Dealer with its level (连庄 streak), and a seat's 飘 bets (×n)."""
    tags = [f"dealer (level {game.streak})"] if seat == game.dealer else []
    if game.piao[seat]:
        tags.append(f"飘 ×{game.piao[seat]}")
    return tags


def table_extras(game: Any) -> dict[str, Any]:
    """The indicator tile (翻财神) that names the wildcards."""
    return {"indicator": game.indicator}


def event_text(e: dict[str, Any]) -> str | None:
    """Hangzhou's own events in words: the indicator (翻财神), shown concealed kongs, a 飘 discard;
    None for the common ones."""
    kind, seat = e["type"], e.get("seat")
    if kind == "indicator":
        return f"indicator {name(e['tile'])}: its other copies are wild (财神)"
    if kind == "reveal":
        return f"seat {seat}'s concealed kongs are shown"
    if kind == "discard" and e.get("piao"):
        return f"seat {seat} discards {name(e['tile'])} (飘)"
    return None

"""What the viewer and the play server show of a Hangzhou table beyond the common facts."""

from __future__ import annotations

from typing import Any


def seat_tags(game: Any, seat: int) -> list[str]:
    """Dealer with its level (连庄 streak), and a seat's 飘 bets (×n)."""
    tags = [f"dealer (level {game.streak})"] if seat == game.dealer else []
    if game.piao[seat]:
        tags.append(f"飘 ×{game.piao[seat]}")
    return tags


def table_extras(game: Any) -> dict[str, Any]:
    """The indicator tile (翻财神) that names the wildcards."""
    return {"indicator": game.indicator}

"""What the viewer and the play server show of a Changsha table beyond the common facts."""

from __future__ import annotations

from typing import Any


def seat_tags(game: Any, seat: int) -> list[str]:
    """Dealer, locked (报听 / a 开杠 seat that may only draw and discard), declared opening wins (起手胡)."""
    tags = ["dealer"] if seat == game.dealer else []
    if game.locked[seat]:
        tags.append("locked")
    if game.declared[seat]:
        tags.append("declared " + "+".join(game.declared[seat]))
    return tags


def table_extras(game: Any) -> dict[str, Any]:
    """The stacks (墩) left: they decide a 开杠's dice."""
    return {"stacks": game.wall.stacks_left()}

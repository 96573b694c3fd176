"""What the viewer and the play server show of a Changsha table beyond the common facts."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.core.ruleset import meld_tiles
from cnmahjong.envs.core.tiles import name


def seat_tags(game: Any, seat: int) -> list[str]:
    """Dealer, locked (报听 / a 开杠 seat that may only draw and discard), declared opening wins (起手胡)."""
    tags = ["dealer"] if seat == game.dealer else []
    if game.locked[seat]:
        tags.append("locked")
    if game.declared[seat]:
        tags.append("declared " + "+".join(game.declared[seat]))
    return tags


def table_extras(game: Any) -> dict[str, Any]:
    """The stacks (墩) left (they decide a 开杠's dice) and the tiles a 开杠 turned face up."""
    return {"stacks": game.wall.stacks_left(), "revealed": list(game.revealed)}


def markers(game: Any) -> list[dict[str, Any]]:
    """The middle of the table: stacks left, the last dice rolled, a 开杠's face-up tiles, the seat
    offered the 海底 tile, and the birds (扎鸟) once the hand is settled."""
    out: list[dict[str, Any]] = [{"id": "stacks", "label": "stacks", "hint": "墩 left",
                                  "text": str(game.wall.stacks_left())}]
    dice = next((e for e in reversed(game.events) if e["type"] == "dice"), None)
    if dice is not None:
        out.append({"id": "dice", "label": "dice",
                    "text": f"{' + '.join(map(str, dice['values']))} ({dice['purpose']}, seat {dice['seat']})"})
    if game.revealed:
        out.append({"id": "revealed", "label": "face up", "hint": "开杠 draws", "tiles": list(game.revealed)})
    if game.phase == "haidi":
        out.append({"id": "haidi", "label": "haidi offered to", "hint": "海底: the last tile",
                    "text": f"seat {game.to_act[0]}"})
    extras = game.result.extras if game.result is not None else {}
    if extras.get("birds"):
        out.append({"id": "birds", "label": "birds", "hint": "扎鸟",
                    "text": ", ".join(f"{v} → seat {s}" for v, s in zip(extras["birds"], extras["bird_seats"],
                                                                        strict=True))})
    return out


def action_tiles(game: Any, action: int) -> list[int]:
    """The tiles a claim or kong button shows: a CHI's run, a PENG's three, a kong's four."""
    offered = game.claim_tiles
    t = offered[0] if len(offered) == 1 else None
    if t is not None and action in A.CHI_ACTIONS:
        return list(A.chi_run(action, t))
    return meld_tiles(game, action, peng=A.PENG, claim_kongs=(A.BUZHANG_CLAIM, A.KAIGANG_CLAIM),
                      own_kongs=range(A.BUZHANG_SELF, A.HU))


def unit(config: Any) -> str:
    """片 under 片 scoring (§8), points otherwise."""
    return "片" if config.scoring == "zi" else "points"


_LINES = {
    "dice": "dice {values} ({purpose}) for seat {seat}",
    "kong_draw": "seat {seat} turns up {tiles} (dice total {total})",
    "declare": "seat {seat} declares {pattern} showing {tiles}: {payments}",
    "lock": "seat {seat} is locked (开杠 tiles not used)",
}


def event_text(e: dict[str, Any]) -> str | None:
    """Changsha's own events in words: dice, 开杠 draws, opening wins (起手胡), locks, the 海底,
    and a discard forced after a 开杠; None for the common ones."""
    kind, seat = e["type"], e.get("seat")
    if kind in _LINES:
        tiles = " ".join(map(name, e.get("tiles") or e.get("shown") or ()))
        return _LINES[kind].format(**{**e, "tiles": tiles})
    if kind == "haidi":
        return f"seat {seat} takes the 海底 tile {name(e['tile'])}" if e["take"] else f"seat {seat} declines the 海底"
    if kind == "discard" and e.get("forced"):
        return f"seat {seat} discards {name(e['tile'])} (forced)"
    return None

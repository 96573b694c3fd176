"""What the viewer and the play server show of a Sichuan table beyond the common facts: the voids
(定缺), the 换三张 direction, who has won and left (血战到底) and how, and the hand's own events
(the swap, kong money, 呼叫转移, the §7 exhaustion payments) in words."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.core.ruleset import meld_tiles
from cnmahjong.envs.core.tiles import SUITS, name
from cnmahjong.envs.sichuan import actions as A

_HOW = {"zimo": "self-drawn", "dianpao": "on a discard", "qianggang": "robbing a kong"}


def _win_of(game: Any, seat: int) -> dict[str, Any] | None:
    return next((e for e in game.events if e["type"] == "win" and e["seat"] == seat), None)


def seat_tags(game: Any, seat: int) -> list[str]:
    """Dealer, the void suit once the 定缺 window has closed (§2.2), and a winner's place and how
    it won (it has left the hand, §4)."""
    tags = ["dealer"] if seat == game.dealer else []
    if game.voids is not None:
        tags.append(f"void {SUITS[game.voids[seat]]}")
    if seat in game.out:
        win = _win_of(game, seat)
        how = _HOW.get(win["kind"], win["kind"]) if win else "won"
        tags.append(f"won #{game.out.index(seat) + 1} ({how}), out")
    return tags


def table_extras(game: Any) -> dict[str, Any]:
    """The 换三张 direction once drawn, and the seats out in the order they won."""
    return {"swap_direction": game.swap_direction, "out": list(game.out)}


def markers(game: Any) -> list[dict[str, Any]]:
    """The middle of the table: the swap direction, the voids, the winners in order."""
    out: list[dict[str, Any]] = []
    if game.swap_direction is not None:
        out.append({"id": "swap", "label": "swap", "hint": "换三张: each seat gave three tiles to its",
                    "text": game.swap_direction})
    if game.voids is not None:
        out.append({"id": "voids", "label": "voids", "hint": "定缺: the suit each seat must get rid of",
                    "text": " ".join(f"{s}:{SUITS[v]}" for s, v in enumerate(game.voids))})
    if game.out:
        out.append({"id": "out", "label": "won and left", "hint": "血战到底: the others play on",
                    "text": ", ".join(f"seat {s}" for s in game.out)})
    return out


def click_tile(game: Any, action: int) -> int | None:
    """A discard and a 换三张 pick are played by clicking the tile in one's hand."""
    if action < A.PENG:
        return action
    if A.SWAP <= action < A.VOID:
        return action - A.SWAP
    return None


def action_tiles(game: Any, action: int) -> list[int]:
    """The tiles a claim or kong button shows: a PENG's three, a kong's four."""
    return meld_tiles(game, action, peng=A.PENG, claim_kongs=(A.GANG_CLAIM,), own_kongs=range(A.GANG_SELF, A.HU))


def _transfers(e: dict[str, Any]) -> str:
    return ", ".join(f"seat {x['payer']} pays seat {x['payee']} {x['amount']} ({x['reason']})"
                     for x in e.get("transfers", ()))


def event_text(e: dict[str, Any]) -> str | None:
    """Sichuan's own events in words (the event as the viewer may see it: a swap shows only the
    tiles it gave and received, a winner's hand only when revealed); None for the common ones."""
    kind, seat = e["type"], e.get("seat")
    if kind == "swap":
        seen = "; ".join(f"seat {s} gives {' '.join(map(name, tiles))}" for s, tiles in enumerate(e["tiles"])
                         if tiles is not None)
        return f"换三张 to the {e['direction']}" + (f": {seen}" if seen else "")
    if kind == "void":
        return "定缺: " + ", ".join(f"seat {s} void {SUITS[v]}" for s, v in enumerate(e["voids"]))
    if kind == "win":
        tile = name(e["tile"]) if e.get("tile") is not None else "the dealt hand"
        how = "self-drawn" if e.get("payer") is None else f"from seat {e['payer']}"
        fan = f", {e['fan']} fan: " + ", ".join(f"{k}×{v}" for k, v in e["patterns"].items()) if "fan" in e else ""
        return f"seat {seat} wins on {tile} ({how}){fan} and leaves; {_transfers(e)}"
    if kind == "meld" and e.get("transfers"):
        src = "" if e.get("from") is None else f" from seat {e['from']}"
        return f"seat {seat} {e['kind']} {' '.join(map(name, e['tiles']))}{src}: {_transfers(e)}"
    if kind == "exhaust":
        classes = ", ".join(f"seat {s} {c}" for s, c in e["classes"].items())
        return f"wall empty: {classes or 'every seat out'}" + (f"; {_transfers(e)}" if e["transfers"] else "")
    return None

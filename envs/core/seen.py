"""What one seat may see of a hand's event log: the one filter the play page, the replay viewer's
seat view and the bot protocol's ``events`` share.

While the hand is on, a seat sees its own events whole and another seat's with the concealed
part taken out: the tile it drew, the tiles of a concealed kong (and the act that made one: its
action id names the tile), the deal's other hands, wall and seed (the seed deals the wall).
A choice in a claim window stays hidden until the window resolves (every seat answered), so
the others' answers at the end of the log are held back. Another seat's pick in a secret blind
window (a swap's tiles, ``TableGame.SECRET_PHASES``) shows without its action. The rulesets' own
events (dice, the indicator, declarations, ...) are public unless the ruleset's ``seat_view``
takes parts out (a swap event shows a seat only the tiles it gave and received). Once the hand
is over everything is shown.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def hidden(e: Event, viewer: int | None, over: bool) -> bool:
    """Whether ``e`` is another seat's event whose concealed part ``viewer`` may not see now."""
    return viewer is not None and e.get("seat") != viewer and not over


def hides_kong(events: list[Event], i: int, viewer: int | None, over: bool, game_class: Any = None) -> bool:
    """Whether act event ``i``, another seat's, made a concealed kong whose tile ``viewer`` may
    not see yet (Hangzhou §1: it lies face down; the action is told as "a concealed kong"): only
    where the ruleset lays concealed kongs face down (``kongs_face_down``)."""
    if viewer is None or over or events[i]["seat"] == viewer:
        return False
    if not _face_down(events, game_class):
        return False
    for e in events[i + 1:]:
        if e["type"] == "act":
            return False
        if e["type"] == "meld":  # the act's own meld: the first after it, of its seat
            return e["kind"] == "angang" and e["seat"] == events[i]["seat"]
    return False


def seat_event(events: list[Event], i: int, viewer: int, over: bool, game_class: Any = None) -> Event | None:
    """Event ``i`` in the log's own form as ``viewer`` may see it (a copy with the hidden parts
    taken out), or None when none of it may be seen (a concealed kong's act). ``game_class``
    (by default the one the deal event names) hides another seat's pick in a secret blind window
    (``SECRET_PHASES``: the act without its action) and shows the ruleset's own events through its
    ``seat_view`` (a swap event's other tiles taken out)."""
    e = events[i]
    kind = e["type"]
    if over:
        return dict(e)
    if game_class is None:
        game_class = _game_class(events)
    if kind == "deal":
        out = {k: v for k, v in e.items() if k not in ("wall", "seed")}
        out["hands"] = [h if s == viewer else None for s, h in enumerate(e["hands"])]
        return out
    if kind == "act" and hides_choice(e, game_class, viewer, over):
        return {k: v for k, v in e.items() if k != "action"}
    if not hidden(e, viewer, over):
        return game_class.seat_view(dict(e), viewer)
    if kind == "draw":
        return {k: v for k, v in e.items() if k != "tile"}
    if kind == "meld" and e.get("kind") == "angang" and _face_down(events, game_class):
        return {**e, "tiles": []}
    if kind == "act" and hides_kong(events, i, viewer, over, game_class):
        return None
    return game_class.seat_view(dict(e), viewer)


def _face_down(events: list[Event], game_class: Any) -> bool:
    """Whether the log's ruleset lays another seat's concealed kong face down (its deal's rules)."""
    cls = game_class if game_class is not None else _game_class(events)
    config = events[0].get("config") if events and events[0].get("type") == "deal" else None
    return cls.kongs_face_down(config if isinstance(config, dict) else {})


def _game_class(events: list[Event]) -> Any:
    """The game class of the ruleset the log's deal event names (a log naming none: the common
    rules alone, ``TableGame``'s: no secret window, every own event public)."""
    from cnmahjong.envs.core.engine import TableGame
    from cnmahjong.envs.core.ruleset import ruleset_of_events  # the registry needs nothing of this module

    return ruleset_of_events(events).game if events[0].get("ruleset") is not None else TableGame


def seat_events(events: list[Event], start: int, viewer: int, over: bool) -> tuple[list[Event], int]:
    """The events from index ``start`` as ``viewer`` may see them, and the index to start from
    next time: the others' answers to a claim window still open (the act events at the end of
    the log, from the first that is not ``viewer``'s) are held back for then; picks in a secret
    window are not (they show as hidden choices), so the viewer's own picks after them come."""
    end = len(events)
    cls = None if over or start >= end else _game_class(events)
    if not over:
        first = end
        while first > start and events[first - 1]["type"] == "act":
            first -= 1
        secret = cls.SECRET_PHASES if cls is not None else ()  # picks shown as hidden choices already
        end = next((j for j in range(first, end) if events[j]["seat"] != viewer
                    and events[j].get("phase") not in secret), end)
    cls = None if over or start >= end else cls
    seen = [x for j in range(start, end) if (x := seat_event(events, j, viewer, over, cls)) is not None]
    return seen, end


HIDDEN_CHOICE = "a hidden choice"
"""How a seat is told another seat's decision in a secret blind window (``TableGame.SECRET_PHASES``)."""


def hides_choice(e: Event, game_class: Any, viewer: int | None, over: bool) -> bool:
    """Whether act event ``e`` is another seat's pick in a secret blind window (a swap's tiles),
    which ``viewer`` may not see now."""
    return e.get("phase") in game_class.SECRET_PHASES and hidden(e, viewer, over)

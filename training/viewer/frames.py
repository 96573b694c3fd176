"""A played hand as frames: what a table shows after each decision, for the replay viewer and the
human seat's page (any registered ruleset: its ``Ruleset`` names the engine, the seat tags and
its own table facts).

``hand_frames(events)`` verifies the event log (``ReplayMismatchError`` / ``ValueError`` at the
first bad event, never a half-drawn page), then steps a fresh game through its decisions and
records after each one: every seat's hand (or only ``seat``'s until the hand is over), melds,
river, the wall, the phase, who acts next with their legal actions, the events of that step in
words, and the settlement at the end.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from cnmahjong.envs.core.engine import DONE, ReplayMismatchError
from cnmahjong.envs.core.ruleset import Ruleset, ruleset_of_events, rulesets
from cnmahjong.envs.core.seen import HIDDEN_CHOICE, hidden, hides_kong, seat_event
from cnmahjong.envs.core.tiles import from_counts, name
from cnmahjong.training.files import read_bounded

__all__ = ["ReplayMismatchError", "event_text", "hand_frames", "hides_kong", "load_hand", "ruleset_of_game",
           "snapshot"]


MAX_BYTES = 16 << 20
"""The largest events file the viewer reads (a hand's log with its annotations is well under 1 MiB):
more, ``/dev/zero`` say, is refused with this limit named, not read until memory runs out."""


def load_hand(path: str | Path) -> tuple[list[dict[str, Any]], dict[int, Any]]:
    """(events, annotations) from a file: a JSON list of events as the engines write them, or
    ``{"events": [...], "annotations": {"INDEX": {"top": [[action, p], ...]}}}`` where an index
    is that of an ``act`` event (checkpoint players record their top actions there)."""
    p = Path(path)
    text = read_bounded(p, MAX_BYTES, "the events file").decode("utf-8")  # a UnicodeDecodeError is a ValueError
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{str(p)!r} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}); "
                         f"expected the list of events a game writes (game.events)") from None
    except RecursionError:
        raise ValueError(f"{str(p)!r} nests JSON too deeply to be an event log: expected the list of "
                         f"events a game writes (game.events)") from None
    notes: dict[int, Any] = {}
    if isinstance(data, dict):
        if "events" not in data:
            raise ValueError(f"{str(p)!r} holds a JSON object without 'events': expected a list of events "
                             f"or {{'events': [...], 'annotations': {{...}}}}")
        raw_notes = data.get("annotations") or {}
        if not isinstance(raw_notes, dict):
            raise ValueError(f"{str(p)!r}: 'annotations' must map event indices to notes")
        notes = {}
        for k, v in raw_notes.items():
            if not (isinstance(k, str) and k.isdigit() and len(k) < 7):
                raise ValueError(f"{str(p)!r}: annotation key {k!r} is not the index of an event")
            notes[int(k)] = v
        data = data["events"]
    if not isinstance(data, list):
        raise ValueError(f"{str(p)!r} holds {type(data).__name__}, not a list of events")
    return data, notes


def _checked_top(index: int, note: Any, events: list[dict[str, Any]], num_actions: int) -> list | None:
    """An annotation's top actions as ``[[action, probability], ...]``, checked: the note belongs
    to an ``act`` event, each action is an int id, each probability a finite float in [0, 1]
    (NaN or Infinity would make a page the browser cannot read)."""
    where = f"annotation {index!r}"
    if type(index) is not int or not 0 <= index < len(events) or events[index].get("type") != "act":
        raise ValueError(f"{where}: not the index of an 'act' event of the log")
    if not isinstance(note, dict) or not isinstance(note.get("top", []), list):
        raise ValueError(f"{where}: expected {{'top': [[action, probability], ...]}}, got {note!r:.80}")
    top = note.get("top") or []
    out = []
    for item in top:
        if not (isinstance(item, list) and len(item) == 2):
            raise ValueError(f"{where}: each top entry is [action, probability], got {item!r:.80}")
        a, prob = item
        if type(a) is not int or not 0 <= a < num_actions:
            raise ValueError(f"{where}: action {a!r} is not an action id 0..{num_actions - 1}")
        if isinstance(prob, bool) or not isinstance(prob, (int, float)) or not math.isfinite(prob) \
                or not 0 <= prob <= 1:
            raise ValueError(f"{where}: probability {prob!r} of action {a} is not a finite number in [0, 1]")
        out.append([a, float(prob)])
    return out or None


def _tile(t: int) -> str:
    return name(t)



def event_text(e: dict[str, Any], describe: Any, viewer: int | None, over: bool,
               ruleset: Ruleset | None = None) -> str | None:
    """One event in words, hiding from ``viewer`` what its seat could not see (another seat's drawn
    tile, a concealed kong's tile) unless the hand is ``over``. The ruleset's own events (and its
    marks on a common one) are its ``Ruleset.event_text``'s to tell. None for the act events (the
    step's own action is shown apart) and the bookkeeping ones."""
    kind = e["type"]
    seat = e.get("seat")
    hide = hidden(e, viewer, over)  # the one seat-view rule (envs.core.seen)
    if ruleset is not None and ruleset.event_text is not None:
        own = ruleset.event_text(e)
        if own is not None:
            return own
    if kind == "draw":
        where = "" if e.get("source", "head") == "head" else f" from the {e['source']}"
        return f"seat {seat} draws {'a tile' if hide else _tile(e['tile'])}{where}"
    if kind == "discard":
        return f"seat {seat} discards {_tile(e['tile'])}"
    if kind == "meld":
        if e["kind"] == "angang" and hide:
            return f"seat {seat} makes a concealed kong"
        src = "" if e.get("from") is None else f" from seat {e['from']}"
        how = f" by {e['how']}" if e.get("how") else ""
        return f"seat {seat} {e['kind']} {' '.join(map(_tile, e['tiles']))}{src}{how}"
    if kind == "win":
        pats = e.get("patterns")
        pats = ", ".join(pats) if isinstance(pats, list) else ", ".join(f"{k}×{v}" for k, v in pats.items())
        payer = "self-drawn" if e.get("payer") is None else f"paid by seat {e['payer']}"
        return f"seat {seat} wins on {_tile(e['tile']) if e.get('tile') is not None else 'the dealt hand'} " \
               f"({payer}){': ' + pats if pats else ''}, payments {e['payments']}"
    if kind == "end":
        r = e["result"]
        return "hand over: " + ("drawn" if not r["winners"] else f"winners {r['winners']}") + \
            f", payments {r['payments']}"
    return None


def ruleset_of_game(game: Any) -> Ruleset:
    """The registered ruleset whose engine ``game`` is."""
    for rs in rulesets():
        if isinstance(game, rs.game):
            return rs
    raise TypeError(f"{type(game).__name__} is the engine of no registered ruleset")


def _last_moves(game: Any, viewer: int | None, over: bool) -> tuple[dict | None, dict | None]:
    """(drawn, last discard) for the table: the tile a seat drew and holds apart while it decides
    its turn (``tile`` None where ``viewer`` may not see it), and the latest discard while it still
    lies at the end of its river (not claimed, not won on)."""
    drawn = last = None
    claimed: set[int] = set()  # seats whose latest discard a later meld or win took
    tiles_moved = False
    for e in reversed(game.events):
        kind = e["type"]
        if kind == "draw" and not tiles_moved and e["seat"] in game.to_act:
            drawn = {"seat": e["seat"], "tile": None if hidden(e, viewer, over) else e["tile"]}
        if kind in ("draw", "discard", "meld", "pass", "deal"):
            tiles_moved = True
        if kind == "meld" and e.get("from") is not None:
            claimed.add(e["from"])
        elif kind == "win" and e.get("payer") is not None:
            claimed.add(e["payer"])
        elif kind == "discard":
            s, river = e["seat"], game.rivers[e["seat"]]
            if s not in claimed and river and river[-1] == e["tile"]:
                last = {"seat": s, "tile": e["tile"]}
            break
    return drawn, last


def _legal_entry(game: Any, rs: Ruleset, action: int) -> dict[str, Any]:
    """A legal action for the table: its name, the hand tile a click plays it with (None: a
    button), and the tiles its button shows (``Ruleset.click_tile``, ``action_tiles``)."""
    tile = rs.click_tile(game, action)
    shows = rs.action_tiles(game, action) if tile is None and rs.action_tiles is not None else []
    return {"action": action, "name": game.ACTIONS.describe(action), "tile": tile, "tiles": shows}


def _text(value: Any) -> str:
    return (", ".join(map(str, value)) or "none") if isinstance(value, (list, tuple)) else str(value)


def snapshot(game: Any, viewer: int | None = None, ruleset: Ruleset | None = None) -> dict[str, Any]:
    """The table now, as ``viewer`` may see it (everything once the hand is over, or with no viewer):
    the common facts of every engine, the ruleset's seat tags, its own table facts and its markers
    (``Ruleset.seat_tags``, ``table_extras``, ``markers``), the drawn tile and the last discard,
    and per acting seat its legal actions ``{"action", "name", "tile", "tiles"}`` (``tile``: the
    kind of the own hand's tile a click plays it with; None: a button showing ``tiles``)."""
    rs = ruleset_of_game(game) if ruleset is None else ruleset
    over = game.phase == DONE
    seats = []
    for s in range(4):
        visible = viewer is None or over or s == viewer
        melds = []
        for m in game.melds[s]:
            hidden_meld = m.hidden and not visible  # a meld laid face down (a concealed kong)
            melds.append({"kind": m.kind, "tiles": [] if hidden_meld else list(m.tiles), "hidden": hidden_meld})
        seats.append({
            "hand": from_counts(game.hands[s]) if visible else None,
            "hidden": sum(game.hands[s]),
            "melds": melds, "river": list(game.rivers[s]), "tags": rs.seat_tags(game, s),
        })
    legal = {}
    for s in game.to_act:
        if viewer is None or s == viewer:
            legal[str(s)] = [_legal_entry(game, rs, a) for a in game.legal_actions(s)]
    extras = rs.table_extras(game)
    markers = rs.markers(game) if rs.markers is not None else \
        [{"id": k, "label": k, "text": _text(v)} for k, v in extras.items()]
    drawn, last = _last_moves(game, viewer, over)
    frame: dict[str, Any] = {
        "phase": game.phase, "wall": game.wall.remaining, "to_act": list(game.to_act), "legal": legal,
        "seats": seats, "payments": list(game.payments), "offered": game.claim_tiles,
        "offered_by": game.claim_from, "revealed": [], "over": over, "viewer": viewer,
        "drawn": drawn, "last_discard": last, **extras, "markers": markers, "events": len(game.events),
    }
    if over and game.result is not None:
        frame["result"] = game.result.to_dict()
    return frame


def act_words(events: list[dict[str, Any]], i: int, viewer: int | None, over: bool, game_class: Any) -> str | None:
    """What act event ``i`` tells ``viewer`` (the one seat filter, ``envs.core.seen``): its action's
    name, "a hidden choice" (another seat's pick in a secret window), "a concealed kong", or None
    when the ruleset's ``seat_view`` hides it whole (another seat's declined claim)."""
    seen = events[i] if viewer is None else seat_event(events, i, viewer, over, game_class)
    if seen is None:
        return "a concealed kong" if hides_kong(events, i, viewer, over) else None
    return game_class.ACTIONS.describe(seen["action"]) if "action" in seen else HIDDEN_CHOICE


def _log(game: Any, start: int, viewer: int | None, over: bool, rs: Ruleset) -> list[str]:
    """The events from index ``start`` other than acts, in words, as ``viewer`` may see them."""
    events = game.events
    describe = game.ACTIONS.describe
    out = []
    for j in range(start, len(events)):
        if events[j]["type"] == "act":
            continue
        e = events[j] if viewer is None else seat_event(events, j, viewer, over, type(game))
        if e is not None and (text := event_text(e, describe, viewer, over, rs)) is not None:
            out.append(text)
    return out


def hand_frames(events: list[dict[str, Any]], seat: int | None = None,
                annotations: dict[int, Any] | None = None) -> dict[str, Any]:
    """Frames of a recorded hand (first the deal, then one per decision) and its title."""
    if not events or not isinstance(events[0], dict) or events[0].get("type") != "deal":
        raise ValueError("an event log starts with the 'deal' event")
    rs = ruleset_of_events(events)  # the deal event names the ruleset that wrote the log
    cls = rs.game
    ended = cls.replay(events)  # verified to the end before anything is drawn
    if not ended.done:
        raise ValueError(f"the log is truncated: it ends after event {len(events) - 1} "
                         f"({events[-1].get('type')!r}) while the hand is still being played")
    game = cls._from_deal(events[0])
    describe = cls.ACTIONS.describe
    annotations = {i: _checked_top(i, note, events, cls.ACTIONS.NUM_ACTIONS)
                   for i, note in (annotations or {}).items()}
    deal_text = _log(game, 0, seat, False, rs)
    frames = [{**snapshot(game, seat, rs), "action": None, "log": deal_text, "top": None}]
    for i, e in enumerate(events):
        if e["type"] != "act":
            continue
        start = len(game.events)
        game.step(e["seat"], e["action"])
        over = game.phase == DONE
        top = annotations.get(i)
        if top:
            top = [[a, p, describe(a)] for a, p in top]
        said = act_words(game.events, start, seat, over, cls)
        frames.append({**snapshot(game, seat, rs), "action": None if said is None else [e["seat"], said],
                       "log": _log(game, start + 1, seat, over, rs), "top": top})
    return {"title": f"{rs.title} mahjong, seed {events[0].get('seed')}, dealer seat {events[0]['dealer']}",
            "ruleset": rs.name, "frames": frames}

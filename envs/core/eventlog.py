"""The event log's frequent events kept as packed integers until somebody reads the log.

Why: every decision writes two or three events (the act, then a discard or a draw). As dicts
they were about a sixth of a compiled ``VectorEnv`` decision: each a dict of four keys made and
kept, and the log's surviving dicts made the cyclic collector run. Almost nobody reads the log
while a hand is played (the observations read the game's state), so a game writes into its
*tail* (``TableGame._log_tail``): a frequent event as one int (its form's index and up to three
small fields), the end event as its ``HandResult`` (frozen; its dict made on read, as the hand's
last event), any other event as its dict, in order. Reading ``game.events`` (a property) turns
the tail into dicts, appended to the log in order: the log a reader sees is exactly the list of
JSON-serialisable dicts it always was. A list kept from an earlier read is not brought up to date
by later steps: read ``game.events`` again.

The forms (``EventForm``): ``ACT`` (every ruleset's ``{"type": "act", "seat", "action",
"phase"}``) is form 0; a ruleset declares its own frequent events in its game class's
``EVENT_FORMS``, numbered from 1 in that order. A field holds an int in ``0..FIELD_MAX`` (a seat,
a tile, an action), or the index of its value among the field's choices (a phase, a draw's
source); a form's constants follow its fields in the dict, as the ruleset wrote them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cnmahjong.envs.core.result import HandResult

FORM_BITS = 4
"""Low bits of a packed event: its form's index (so at most 16 forms per game class)."""
FIELD_BITS = 12
"""Bits of each field above them (at most three fields)."""
FIELD_MAX = (1 << FIELD_BITS) - 1
ACT = 0
"""The act's form index, every ruleset's: ``pack(ACT, seat, action, phase index)``."""


class EventForm(NamedTuple):
    """One frequent event's dict: ``{"type": type, field: value..., constant: value...}``."""

    type: str
    fields: tuple[tuple[str, tuple[Any, ...] | None], ...]
    """``(key, choices)`` in key order: choices None for an int, else the values a code indexes."""
    constants: tuple[tuple[str, Any], ...] = ()
    """``(key, value)`` after the fields, the same in every event of the form."""


def event_form(type_: str, *fields: str | tuple[str, tuple[Any, ...]], **constants: Any) -> EventForm:
    """A form: each field a key (an int) or ``(key, choices)``; ``constants`` after them."""
    if len(fields) > 3:
        raise ValueError(f"an event form packs at most 3 fields, {type_!r} has {len(fields)}")
    return EventForm(type_, tuple((f, None) if isinstance(f, str) else (f[0], tuple(f[1])) for f in fields),
                     tuple(constants.items()))


_A, _B, _C = FORM_BITS, FORM_BITS + FIELD_BITS, FORM_BITS + 2 * FIELD_BITS
"""Where fields a, b, c start (compiled: C ints, eventlog.pxd; as Python three names looked up)."""


def pack(form: int, a: int = 0, b: int = 0, c: int = 0) -> int:
    """One event of form index ``form`` with fields ``a, b, c`` (each in ``0..FIELD_MAX``) as an int."""
    return form | a << _A | b << _B | c << _C


_FORMS: dict[type, tuple[EventForm, ...]] = {}
"""Game class -> its forms, ``ACT`` first (made on first read of a log: a compiled class cannot
have it set as a class attribute)."""


def forms_of(cls: Any) -> tuple[EventForm, ...]:
    """``cls``'s forms in index order: the act (its phase a choice of ``cls.PHASES``), then
    ``cls.EVENT_FORMS``."""
    found = _FORMS.get(cls)
    if found is None:
        act = event_form("act", "seat", "action", ("phase", cls.PHASES))
        found = _FORMS[cls] = (act, *cls.EVENT_FORMS)
        if len(found) > 1 << FORM_BITS:
            raise ValueError(f"{cls.__name__} declares {len(found) - 1} event forms: at most {(1 << FORM_BITS) - 1}")
    return found


def event_of(forms: tuple[EventForm, ...], record: Any) -> Any:
    """The dict of one tail entry: a packed int decoded by its form, a ``HandResult`` as the end
    event (``{"type": "end", "result": its to_dict()}``), a dict as it is."""
    if type(record) is not int:
        return {"type": "end", "result": record.to_dict()} if type(record) is HandResult else record
    form = forms[record & ((1 << FORM_BITS) - 1)]
    record >>= FORM_BITS
    event: dict[str, Any] = {"type": form.type}
    for key, choices in form.fields:
        code = record & FIELD_MAX
        event[key] = code if choices is None else choices[code]
        record >>= FIELD_BITS
    for key, value in form.constants:
        event[key] = value
    return event


def flush(cls: Any, tail: list[Any], log: list[dict[str, Any]]) -> None:
    """Append ``tail``'s events to ``log`` as dicts, in order, and empty ``tail``."""
    forms = forms_of(cls)
    log.extend([event_of(forms, r) for r in tail])
    tail.clear()


DISCARD = event_form("discard", "seat", "tile")
"""``{"type": "discard", "seat", "tile"}``: a ruleset lists it in its ``EVENT_FORMS``."""
DRAW_SOURCES = ("head", "tail")
DRAW = event_form("draw", "seat", "tile", ("source", DRAW_SOURCES))
"""``{"type": "draw", "seat", "tile", "source"}``, the source's code its index in ``DRAW_SOURCES``."""

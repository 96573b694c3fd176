"""Replay viewer: a played hand's event log as one self-contained HTML page.

    python -m cnmahjong.training.viewer EVENTS.json -o hand.html [--seat N]     # or cnmahjong-replay

``EVENTS.json`` is the list of events a game writes (``game.events``, any ruleset: its deal
event names it), or ``{"events": [...], "annotations": {...}}`` as the arena's ``--save-hands``
writes it (a checkpoint player's top actions with their probabilities beside its decisions).
The page shows the four hands (or, with ``--seat``, what that seat could see until the hand
ends), melds, rivers, the wall and the ruleset's own table facts (``Ruleset.table_extras``),
the acting seat and its legal actions at every step, and the settlement; step with the buttons, the arrow
keys, Home/End or the slider. A truncated or tampered log is refused with the first bad
event named (the engines' verified replay), never drawn half; so is a log that stops
before the hand is over, and annotations that are not action ids with probabilities in
[0, 1]. The output may not be the events file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cnmahjong.training.files import output_path_problem
from cnmahjong.training.viewer.frames import hand_frames, load_hand
from cnmahjong.training.viewer.html import replay_html


def write_replay(events: list, out: str | Path, seat: int | None = None, annotations: dict | None = None) -> Path:
    """Render ``events`` to ``out`` (verified first: a bad log raises before anything is written)."""
    page = replay_html(hand_frames(events, seat, annotations))
    out = Path(out)
    out.write_text(page, encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", help="events JSON (a list of events, or {'events': [...], 'annotations': ...})")
    parser.add_argument("-o", "--output", required=True, help="the HTML file to write")
    parser.add_argument("--seat", type=int, choices=range(4), help="show only what this seat could see")
    args = parser.parse_args(argv)
    problem = output_path_problem(args.output)
    if problem:
        parser.error(f"--output {args.output}: {problem}")
    out, src = Path(args.output), Path(args.events)
    if out.resolve() == src.resolve() or (out.exists() and src.exists() and out.samefile(src)):
        parser.error(f"--output {args.output} is the events file itself: give another file name")
    try:
        events, notes = load_hand(args.events)
        out = write_replay(events, args.output, args.seat, notes)
    except (ValueError, TypeError, KeyError) as e:
        print(f"error: {args.events}: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"wrote {out} ({sum(1 for e in events if e.get('type') == 'act')} decisions)")
    return out


if __name__ == "__main__":
    main()

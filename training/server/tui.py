"""The human seat in the terminal: the table as text, the legal actions numbered."""

from __future__ import annotations

from typing import Any

from cnmahjong.training.server.table import HUMAN, Table


def tui(table: Table, read: Any = input, write: Any = print) -> None:
    """The terminal version: the table as text, your legal actions numbered; type one number."""
    while True:
        game = table.game
        write(table.ruleset.render(game, HUMAN, None))
        write("\n".join(table.log[-8:]))
        if game.done:
            write(f"hand over: payments {list(game.result.payments)}")
            return
        if table.stalled:
            write(f"the hand cannot go on: {table.stalled}")
            return
        legal = table.legal()
        describe = game.ACTIONS.describe
        write("  ".join(f"[{i}] {describe(a)}" for i, a in enumerate(legal)))
        answer = read("your choice: ").strip()
        if answer in ("q", "quit"):
            return
        if not answer.isdigit() or int(answer) >= len(legal):
            write(f"type a number from 0 to {len(legal) - 1} (q quits)")
            continue
        table.act(legal[int(answer)])

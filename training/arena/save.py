"""What the arena writes: its JSON report and the kept deals' hands, for the replay viewer."""

from __future__ import annotations

import json
from pathlib import Path

from cnmahjong.training.arena.core import ArenaResult
from cnmahjong.training.arena.table import format_table


def report_json(result: ArenaResult) -> dict:
    """The report as the CLI's ``--json`` writes it: ``ArenaResult.to_dict`` and the printed table."""
    return {**result.to_dict(), "table": format_table(result.reports, result.deals, result.unit)}


def write_json(result: ArenaResult, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(json.dumps(report_json(result), indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def save_hands(result: ArenaResult, folder: str | Path) -> list[Path]:
    """Every kept hand (``run_arena(keep=...)``) as ``deal{seed}_rot{rotation}.json``: its events,
    the checkpoint players' top actions and the policy at each seat (the viewer's input)."""
    written = []
    for deal in result.hands:
        for record in deal:
            saved = record.get("saved")
            if saved is None:
                continue
            path = Path(folder) / f"deal{record['seed']}_rot{record['rotation']}.json"
            path.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
            written.append(path)
    return written

"""What the arena writes: its JSON report and the kept deals' hands, for the replay viewer."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from cnmahjong.training.arena.core import NUM_SEATS, ArenaResult
from cnmahjong.training.arena.table import format_table


def report_json(result: ArenaResult) -> dict:
    """The report as the CLI's ``--json`` writes it: ``ArenaResult.to_dict`` and the printed table."""
    return {**result.to_dict(), "table": format_table(result.reports, result.deals, result.unit)}


def write_json(result: ArenaResult, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(json.dumps(report_json(result), indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def hand_file(seed: int, rotation: int) -> str:
    """The file name ``save_hands`` gives one kept hand."""
    return f"deal{seed}_rot{rotation}.json"


def hand_names(seeds: Sequence[int]) -> list[str]:
    """Every file ``save_hands`` writes for these kept deal seeds (each in all rotations)."""
    return [hand_file(seed, rotation) for seed in seeds for rotation in range(NUM_SEATS)]


def save_hands(result: ArenaResult, folder: str | Path) -> list[Path]:
    """Every kept hand (``run_arena(keep=...)``) as ``deal{seed}_rot{rotation}.json``: its events,
    the checkpoint players' top actions and the policy at each seat (the viewer's input)."""
    written = []
    for deal in result.hands:
        for record in deal:
            saved = record.get("saved")
            if saved is None:
                continue
            path = Path(folder) / hand_file(record["seed"], record["rotation"])
            path.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
            written.append(path)
    return written

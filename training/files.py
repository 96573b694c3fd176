"""Output paths of the tools (arena, viewer), checked before any work is done."""

from __future__ import annotations

import os
from pathlib import Path


def output_path_problem(path: str | None) -> str | None:
    """Why ``path`` cannot be written (checked before any deal is played), or None."""
    if path is None:
        return None
    p = Path(path)
    if p.is_dir():
        return "is a folder, give a file name"
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        return f"its folder {str(parent)!r} does not exist"
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        return "is not writable"
    return None


def count_problem(deals: int | None, seed: int | None, workers: int) -> str | None:
    """Why the tools' ``--deals`` / ``--seed`` / ``--workers`` cannot be used (None: fine; a
    count left out, None, is not checked)."""
    if deals is not None and deals < 2:
        return "--deals must be at least 2 (the confidence interval needs several deals)"
    if seed is not None and seed < 0:
        return f"--seed must be 0 or more, got {seed}"
    if workers < 1:
        return f"--workers must be 1 or more, got {workers}"
    return None


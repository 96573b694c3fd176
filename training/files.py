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

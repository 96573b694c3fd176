"""``python -m cnmahjong.training.evaluate``: the arena's command line, kept at its old path
(the arena itself is ``cnmahjong.training.arena``)."""

from __future__ import annotations

from cnmahjong.training.arena.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    main()

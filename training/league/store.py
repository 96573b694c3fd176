"""League files on disk: read bounded and checked, written atomically, and merged when another
run wrote the file in the meantime (so two runs extending one league lose no pairing).

A run notes the file's state when it starts (``signature``). When it saves, under a lock on
the folder, an unchanged file is replaced whole (a temporary file and ``os.replace``); a
changed one is read back, checked, and merged with this run's league: the file's pairings are
kept, this run's are added, and the pairings neither run played (between the policies each
added) are played before the merged league is written.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from cnmahjong.training.files import read_bounded, write_atomic
from cnmahjong.training.league.core import League, Pair

MAX_BYTES = 256 << 20
"""The largest league file read (a league of 100,000 deals per pairing and 16 policies is ~150 MiB)."""

Signature = tuple[int, int, int, int] | None
"""A file's device, inode, size and modification time (None: no file): what tells that it changed."""


def signature(path: str | Path) -> Signature:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def read_league(path: str | Path, where: str) -> tuple[League, Signature]:
    """The league in ``path`` (bounded read, every field checked) and the file's signature as
    read; ``ValueError`` naming ``where`` and the problem."""
    before = signature(path)
    data = read_bounded(path, MAX_BYTES, "the league file")
    if signature(path) != before:
        raise ValueError(f"{where}: the file changed while it was read (another run writing it?): try again")
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as e:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ValueError(f"{where}: not a league JSON file ({e})") from None
    return League.from_dict(parsed, where=where), before


def merged(disk: League, ours: League, where: str) -> League:
    """``disk``'s league with ``ours``'s policies and pairings added (``disk``'s pairing kept where
    both played one); ``ValueError`` when the two do not share rules, deals and seed."""
    for key in ("rules", "deals", "seed"):
        if getattr(disk, key) != getattr(ours, key):
            raise ValueError(f"{where} was rewritten by another run with {key} {getattr(disk, key)!r}, this run "
                             f"played {key} {getattr(ours, key)!r}: the two cannot be merged")
    out = League(disk.rules, disk.deals, disk.seed, list(dict.fromkeys([*disk.policies, *ours.policies])),
                 dict(disk.pairs))
    order = {p: i for i, p in enumerate(out.policies)}
    for (a, b), pair in ours.pairs.items():
        if order[a] > order[b]:  # keyed in the merged order: s(b, a) = -s(a, b)
            a, b = b, a
            pair = Pair(a, b, [-v for v in pair.per_deal], pair.totals, pair.faults)
        out.pairs.setdefault((a, b), pair)
    return out


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """The folder locked against other league runs saving there (POSIX ``flock``; elsewhere none)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: the signature check alone
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def save_league(path: str | Path, league: League, before: Signature, where: str,
                complete: Callable[[League], object]) -> League:
    """Write ``league`` to ``path`` atomically, merged with what another run wrote there since
    ``before``; ``complete(league)`` plays a merged league's missing pairings. Returns what was
    written. ``ValueError`` (nothing written) when the file changed into something not mergeable."""
    path = Path(path)
    while True:
        with _locked(path.parent if str(path.parent) else Path(".")):
            now = signature(path)
            if now == before or now is None:  # unchanged, or removed: nothing to merge
                write_atomic(path, json.dumps(league.to_dict(), indent=1, ensure_ascii=False))
                return league
            try:
                disk, now = read_league(path, where)
            except ValueError as e:
                raise ValueError(f"{where} changed since this run read it and is no longer a league it can "
                                 f"merge with ({e}): not written") from None
        league, before = merged(disk, league, where), now
        if league.missing([]):
            complete(league)

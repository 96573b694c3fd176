"""The tools' (arena, league, viewer) checks of what they read and write, done before any work:
output paths, outputs that would overwrite an input or each other, counts and their bounds,
bounded reads of untrusted files and atomic writes."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NoReturn

MAX_DEALS = 100_000
"""The most ``--deals`` a tool plays in one run: every hand's record is held in memory (about
10 kB a deal), so more would end in a MemoryError hours in; run several seeds instead."""
MAX_WORKERS = 256
"""The most ``--workers`` a tool starts (and never more than its chunks of work)."""
JSON_SUFFIXES = (".json",)
"""What a ``--json`` output may be named."""


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
    if deals is not None and deals > MAX_DEALS:
        return (f"--deals {deals} is more than {MAX_DEALS:,} (every hand's record is kept in memory): "
                f"play several runs with other --seed values")
    if seed is not None and seed < 0:
        return f"--seed must be 0 or more, got {seed}"
    if workers < 1:
        return f"--workers must be 1 or more, got {workers}"
    if workers > MAX_WORKERS:
        return f"--workers {workers} is more than {MAX_WORKERS}: give at most {MAX_WORKERS}"
    return None


def workers_warning(workers: int) -> str | None:
    """A warning for ``--workers`` above this machine's cores (the processes would only contend), or None."""
    cores = os.cpu_count() or 1
    if workers <= cores:
        return None
    return f"warning: --workers {workers} is more than the {cores} cores here: the processes will contend"


def image_suffixes() -> tuple[str, ...]:
    """What a chart (``--png``) may be named: the formats matplotlib writes (imported here only)."""
    from matplotlib.backend_bases import FigureCanvasBase

    return tuple(sorted(f".{s}" for s in FigureCanvasBase.get_supported_filetypes()))


def policy_files(names: Iterable[str]) -> list[tuple[str, str]]:
    """The input files a list of policy names reads (``ckpt:PATH``), as ``(what, path)``."""
    return [(f"the policy {n}", n[len("ckpt:"):]) for n in names if n.startswith("ckpt:")]


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: real paths (symlinks resolved), or one inode (hard links)."""
    if Path(a).resolve() == Path(b).resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist yet
        return False


def outputs_problem(outputs: Sequence[tuple[str, str | None, Sequence[str]]],
                    inputs: Sequence[tuple[str, str | None]] = ()) -> str | None:
    """Why these outputs cannot be written, checked before any work: ``outputs`` are ``(flag,
    path or None, the suffixes its writer writes)``, ``inputs`` ``(what, path or None)``. An
    output named with another suffix, one that is an input or another output (real paths
    compared), or one that cannot be written is refused; None: fine."""
    given = [(flag, path, suffixes) for flag, path, suffixes in outputs if path is not None]
    for i, (flag, path, suffixes) in enumerate(given):
        problem = output_path_problem(path)
        if problem:
            return f"{flag} {path}: {problem}"
        if suffixes and Path(path).suffix.lower() not in suffixes:
            return f"{flag} {path}: the file name must end in {' or '.join(suffixes)} (what {flag} writes)"
        for what, source in inputs:
            if source is not None and same_file(path, source):
                return f"{flag} {path} is {what}: writing it would destroy an input, give another file name"
        for other, there, _ in given[:i]:
            if same_file(path, there):
                return f"{flag} {path} is also {other}: each output needs its own file name"
    return None


def read_bounded(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of an untrusted file, read at most ``limit`` bytes (so ``/dev/zero`` or a huge
    file cannot fill memory): ``ValueError`` naming the file and the limit when it holds more,
    or when it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise ValueError(f"cannot read {what} {str(path)!r}: {e.strerror or e}") from None
    if len(data) > limit:
        raise ValueError(f"{what} {str(path)!r} is larger than the limit of {limit:,} bytes")
    return data


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder and
    ``os.replace``: a reader sees the old file or the new one, never half of one."""
    path = Path(path)
    try:
        mode = path.stat().st_mode & 0o777  # an existing file keeps its permissions
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def interrupted() -> NoReturn:
    """What a tool does on Ctrl-C (its worker processes already ended): one line, exit status 130."""
    print("\ninterrupted: nothing written", file=sys.stderr)
    raise SystemExit(130)

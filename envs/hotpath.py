"""Which hot modules run compiled: the import rule that keeps pure Python the reference.

The rules engines, their shape tables, encoders and the vector env (``MODULES``)
may be compiled, unchanged, by Cython (``python -m envs.compile``, run by
``make``): an extension module lies beside each source and the build records
each source's hash in ``envs/_compiled.json``. Python imports an extension in
preference to its ``.py`` file; the finder installed here by ``envs/__init__.py``
sends a hot module to its pure-Python source instead when

- ``CNMAHJONG_PURE=1`` is set (the reference, for a comparison or a debugger);
- its source changed since its extension was built (a warning names the
  modules; ``make`` rebuilds them);
- it was never built (no C compiler: then the whole package is plain Python).

Both paths play every step identically (``tests/test_compiled.py``).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

MODULES = (
    "envs.core.tiles",
    "envs.core.checks",
    "envs.core.shapes",
    "envs.core.wild",
    "envs.core.wall",
    "envs.core.planes",
    "envs.core.engine",
    "envs.changsha.patterns",
    "envs.changsha.scoring",
    "envs.changsha.game",
    "envs.changsha.observation",
    "envs.hangzhou.patterns",
    "envs.hangzhou.scoring",
    "envs.hangzhou.game",
    "envs.hangzhou.observation",
    "envs.vector",
)
"""The hot path, compiled when a C compiler is there."""

ACCELERATED = ("envs.changsha._planes",)
"""Compiled twins (``.pyx``, no pure-Python source) of pure-Python code that falls back to itself
when the twin is not importable: ``_planes`` writes ``cs-v0`` observations with C loops."""

HOT = MODULES + ACCELERATED

PURE_ENV = "CNMAHJONG_PURE"
"""Environment variable: 1 imports every hot module from its pure-Python source."""

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "envs" / "_compiled.json"
"""Written by the build: {"cython": version, "directives": {...}, "modules": {module: sha256 of the
source it compiled}}."""


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".pyx" if module in ACCELERATED else ".py")


def source_hash(module: str) -> str:
    return hashlib.sha256(source_path(module).read_bytes()).hexdigest()


def read_manifest(path: Path = MANIFEST) -> dict[str, str]:
    """{module: source hash} of the last build; empty when nothing was built."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        warnings.warn(f"{path} is unreadable ({exc}); the hot modules run as pure Python", stacklevel=2)
        return {}
    modules = data.get("modules") if isinstance(data, dict) else None
    return modules if isinstance(modules, dict) else {}


def pure_requested(environ: Any = os.environ) -> bool:
    value = environ.get(PURE_ENV, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{PURE_ENV} must be 1 (pure-Python modules) or 0 / unset (compiled where built), "
                         f"got {value!r}")
    return value == "1"


def source_modules(built: dict[str, str], pure: bool) -> tuple[set[str], list[str]]:
    """(hot modules to import from source or, for ``ACCELERATED``, not at all; those among them
    whose build is stale)."""
    if pure:
        return set(HOT), []
    stale = [m for m in HOT if m in built and built[m] != source_hash(m)]
    return {m for m in HOT if m not in built} | set(stale), stale


class SourceFinder(importlib.abc.MetaPathFinder):
    """Imports the named modules from their ``.py`` source, ahead of any extension module; the
    named ``ACCELERATED`` twins are not imported at all (their callers fall back)."""

    def __init__(self, modules: set[str]) -> None:
        self.modules = modules

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name not in self.modules:
            return None
        if name in ACCELERATED:
            raise ModuleNotFoundError(f"{name} is not used: the pure-Python path runs", name=name)
        return importlib.util.spec_from_file_location(name, source_path(name))


def accelerated(name: str) -> Any:
    """The compiled twin ``name`` (one of ``ACCELERATED``) if it is built, fresh and not
    refused by ``CNMAHJONG_PURE=1``; None otherwise (the caller's pure-Python code runs)."""
    if name not in ACCELERATED:
        raise ValueError(f"{name} is not one of the accelerated modules {ACCELERATED}")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:  # not built, or refused by the finder
        return None
    except ImportError as exc:  # built, but it says it cannot serve
        warnings.warn(f"{name} is built but not used ({exc})", stacklevel=2)
        return None


def install_finder() -> None:
    """Apply the rule of the module docstring to this process (once)."""
    if any(isinstance(f, SourceFinder) for f in sys.meta_path):
        return
    modules, stale = source_modules(read_manifest(), pure_requested())
    if stale:
        warnings.warn(f"compiled copies older than their sources: {', '.join(stale)}; these run as pure "
                      f"Python (rebuild: make, or python -m envs.compile)", stacklevel=2)
    if modules:
        sys.meta_path.insert(0, SourceFinder(modules))


def status() -> dict[str, str]:
    """For each hot module, "compiled" or "pure" as this process imports it (for an accelerated
    twin: whether it is used)."""
    out = {}
    for m in MODULES:
        module = sys.modules.get(m) or importlib.import_module(m)
        out[m] = "pure" if (module.__file__ or "").endswith(".py") else "compiled"
    for m in ACCELERATED:
        out[m] = "pure" if accelerated(m) is None else "compiled"
    return out

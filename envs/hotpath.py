"""The compiled hot path: which modules may be compiled, and how to run without them.

The build backend (``setup.py``: setuptools ``ext_modules`` built by Cython) compiles the
modules of ``MODULES`` unchanged into extension modules that install beside their
``.py`` sources, and the twins (``ACCELERATED``) that have no ``.py``. Python imports an
extension in preference to its source, so a wheel, ``pip install .`` and ``pip install -e .``
all run compiled; where no C compiler was found the build skips the extensions and the
same package runs as pure Python. There is nothing to decide at import time.

``CNMAHJONG_PURE=1`` (read once, when ``cnmahjong`` is imported) imports every hot module
from its ``.py`` source instead and leaves the twins unused: the reference, for a debugger or
a comparison (``tests/test_compiled.py`` plays 20,000 hands per ruleset both ways, every step).
``compiled()`` says which path this process took.
"""

from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from typing import Any

CORE_MODULES = (
    "cnmahjong.envs.core.tiles",
    "cnmahjong.envs.core.checks",
    "cnmahjong.envs.core.shapes",
    "cnmahjong.envs.core.wild",
    "cnmahjong.envs.core.wall",
    "cnmahjong.envs.core.planes",
    "cnmahjong.envs.core.meld",
    "cnmahjong.envs.core.result",
    "cnmahjong.envs.core.eventlog",
    "cnmahjong.envs.core.engine",
    "cnmahjong.envs.core.rewards",
    "cnmahjong.envs.core.rollouts",
    "cnmahjong.envs.core.worlds",
    "cnmahjong.envs.core.limited_deal",
    "cnmahjong.envs.core.seat_facts",
    "cnmahjong.envs.vector",
)
"""The ruleset-neutral hot path; each shipped ruleset adds its own (below)."""

ENVS = Path(__file__).resolve().parent
"""This folder: ``cnmahjong.envs`` (read from source, so ``setup.py`` can use this module unimported)."""


def _literal(path: Path, names: tuple[str, ...]) -> dict[str, Any]:
    """Top-level ``NAME = literal`` assignments of a source file, read without importing it."""
    found: dict[str, Any] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) in names:
            found[node.targets[0].id] = ast.literal_eval(node.value)
        elif isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) in names and node.value:
            found[node.target.id] = ast.literal_eval(node.value)
    return found


def hot_lists(envs: Path = ENVS) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(MODULES, ACCELERATED)``: the core's, then each shipped ruleset's (``REGISTERED`` in
    ``core/ruleset.py``), as its package ``__init__`` declares them in ``HOT_MODULES`` and
    ``ACCELERATED`` (names inside the package)."""
    registered = _literal(envs / "core" / "ruleset.py", ("REGISTERED",))["REGISTERED"]
    modules, twins = list(CORE_MODULES), []
    for where in registered.values():
        package = where.partition(":")[0].rpartition(".")[0]
        if not package.startswith("cnmahjong.envs."):
            continue
        declared = _literal(envs.joinpath(*package.split(".")[2:], "__init__.py"), ("HOT_MODULES", "ACCELERATED"))
        modules += [f"{package}.{m}" for m in declared.get("HOT_MODULES", ())]
        twins += [f"{package}.{m}" for m in declared.get("ACCELERATED", ())]
    return tuple(modules), tuple(twins)


MODULES, ACCELERATED = hot_lists()
"""The hot path, compiled unchanged where a C compiler is there (``setup.py`` builds these), and the
compiled twins (``.pyx``, no pure-Python source) of pure-Python code that falls back to itself
when the twin is not importable (each ``_planes`` writes its ruleset's observations with C loops)."""

HOT = MODULES + ACCELERATED

PURE_ENV = "CNMAHJONG_PURE"
"""Environment variable: 1 imports every hot module from its pure-Python source."""


def pure_requested(environ: Any = os.environ) -> bool:
    value = environ.get(PURE_ENV, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{PURE_ENV} must be 1 (pure-Python modules) or 0 / unset (compiled where built), "
                         f"got {value!r}")
    return value == "1"


class SourceFinder(importlib.abc.MetaPathFinder):
    """``CNMAHJONG_PURE=1``: a hot module is imported from its ``.py`` source, ahead of its
    extension; a twin is not imported at all (its caller falls back)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name in ACCELERATED:
            raise ModuleNotFoundError(f"{name} is not used: {PURE_ENV}=1", name=name)
        if name not in MODULES:
            return None
        parent, _, leaf = name.rpartition(".")
        for folder in sys.modules[parent].__path__:  # the parent package is imported first
            source = Path(folder) / f"{leaf}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(name, source)
        return None


def install_pure_finder() -> None:
    """Apply ``CNMAHJONG_PURE`` to this process (called by ``cnmahjong/__init__.py``, once)."""
    if pure_requested() and not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())


def accelerated(name: str) -> Any:
    """The compiled twin ``name`` (one of ``ACCELERATED``) if it is built and not refused by
    ``CNMAHJONG_PURE=1``; None otherwise (the caller's pure-Python code runs)."""
    if name not in ACCELERATED:
        raise ValueError(f"{name} is not one of the accelerated modules {ACCELERATED}")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:  # not built, or refused
        return None
    except ImportError as exc:  # built, but it says it cannot serve (its layout check)
        warnings.warn(f"{name} is built but not used ({exc})", stacklevel=2)
        return None


def status() -> dict[str, str]:
    """For each hot module, "compiled" or "pure" as this process imports it (for a twin:
    whether it is used)."""
    out = {}
    for m in MODULES:
        module = sys.modules.get(m) or importlib.import_module(m)
        out[m] = "pure" if (module.__file__ or "").endswith(".py") else "compiled"
    for m in ACCELERATED:
        out[m] = "pure" if accelerated(m) is None else "compiled"
    return out


def compiled() -> bool:
    """Whether every hot module (and the twin) runs compiled in this process."""
    return all(how == "compiled" for how in status().values())

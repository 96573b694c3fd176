"""The compiled hot path, built by the build backend (setuptools ``ext_modules`` through Cython).

Everything else about the package is declared in ``pyproject.toml``; this file adds the
extension modules, the package list (discovered: every folder with an ``__init__.py`` under
the mapped roots) and ``link_tree`` (the package as a path entry, for static tools).
``pip install .``, ``pip install -e .`` and ``pip wheel .`` all build the extensions: the
modules of ``envs/hotpath.py``'s ``MODULES`` compiled unchanged, and its ``ACCELERATED`` twins
(``envs/<ruleset>/_planes.pyx``: each ruleset's planes in C loops). The
extensions are optional: where a C compiler is missing or fails, the build says so and goes on,
and the package runs as pure Python.

What Cython compiles is each source with its function annotations blanked out (same lines and
columns, so tracebacks name the real line): Cython reads some annotations as types even with
``annotation_typing=False`` (a float passed for an ``int`` argument is coerced; cython#7994),
which would let the compiled path accept what the pure one rejects. With no annotation to read
and no type inference, every value stays a Python object and both paths behave alike. The
blanked copies live in ``build/stripped`` and are rewritten only when their source changed, so
Cython's and setuptools' own timestamp checks rebuild exactly what is stale.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import sys
import tomllib
from pathlib import Path

from setuptools import Command, Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
STRIPPED = ROOT / "build" / "stripped"
DECLARED = ROOT / "build" / "declared"
"""The hot modules' ``.pxd`` files (C types for their ``.py``), staged under their module names
(``cnmahjong/envs/core/wall.pxd``): Cython finds a module's declarations, and a ``cimport``'s, by
name on its include path."""
DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,  # annotations are documentation, never C or exact types
    "infer_types": False,  # no inferred variable types either (they coerce, e.g. a float to an int)
    "binding": True,  # functions keep signatures and introspection
}
PACKAGE_DIRS: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "tool"]["setuptools"]["package-dir"]
"""Where each package lives in the repository (``pyproject.toml``'s package-dir, the one copy)."""


def discovered_packages() -> list[str]:
    """Every package of the wheel: each folder with an ``__init__.py`` under a mapped root of
    ``package-dir``, named as it imports. Discovered, never listed by hand: a folder left out of a
    list would import through the editable install and be missing from the wheel."""
    found = set()
    for package, folder in PACKAGE_DIRS.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            if "__pycache__" not in rel:
                found.add(".".join((package, *rel)))
    return sorted(found)


class LinkTree(Command):
    """``setup.py link_tree``: the package as a plain folder on the interpreter's path, for readers
    and static tools (an IDE, pyright, jedi) that cannot follow the editable install's import hook.
    ``build/link-tree/cnmahjong`` holds links to ``cnmahjong/``'s files and to each mapped folder
    (``envs``, ``agents``, ...), and a ``.pth`` file in site-packages names ``build/link-tree``.
    Folder links show new modules and the in-place extensions at once; only a new mapped root
    needs it run again (``make`` does, whenever pyproject.toml changes)."""

    description = "link the package tree into site-packages as a path entry (for static tools)"
    user_options: list = []
    TREE = ROOT / "build" / "link-tree"

    def initialize_options(self) -> None:
        pass

    def finalize_options(self) -> None:
        pass

    def run(self) -> None:
        import shutil
        import sysconfig

        shutil.rmtree(self.TREE, ignore_errors=True)
        for package, folder in sorted(PACKAGE_DIRS.items()):
            target = self.TREE.joinpath(*package.split("."))
            if package == "cnmahjong":  # a real folder: the mapped packages go inside it
                target.mkdir(parents=True)
                for f in (ROOT / folder).iterdir():
                    if f.suffix == ".py":
                        (target / f.name).symlink_to(f)
            else:
                target.symlink_to(ROOT / folder, target_is_directory=True)
        pth = Path(sysconfig.get_paths()["purelib"]) / "cnmahjong-link-tree.pth"
        pth.write_text(f"{self.TREE}\n", encoding="utf-8")


def hot_modules() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(MODULES, ACCELERATED)`` of ``envs/hotpath.py`` (the core's and each shipped ruleset's),
    loaded from its file: it needs only the standard library, not the package."""
    spec = importlib.util.spec_from_file_location("_cnmahjong_hotpath", source_of("cnmahjong.envs.hotpath", False))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MODULES, module.ACCELERATED


def source_of(module: str, twin: bool) -> Path:
    """The repository file of a hot module (``cnmahjong.envs.core.tiles`` -> ``envs/core/tiles.py``)."""
    inside = [p for p in PACKAGE_DIRS if module.startswith(p + ".")]
    if not inside:
        raise ValueError(f"{module} is outside {sorted(PACKAGE_DIRS)}")
    package = max(inside, key=len)  # the innermost mapped package
    rel = module[len(package) + 1:].split(".")
    return ROOT.joinpath(PACKAGE_DIRS[package], *rel).with_suffix(".pyx" if twin else ".py")


def strip_annotations(source: str, extension_types: frozenset[str] = frozenset()) -> str:
    """``source`` with every function's argument and return annotations, and every annotated
    assignment inside a function, blanked with spaces (lines and columns unchanged). Class
    bodies keep theirs (dataclasses read them), except those of ``extension_types`` (the classes
    the module's ``.pxd`` declares ``cdef class``): Cython would read ``NAME: T`` there as a new C
    attribute, which only the ``.pxd`` may declare."""
    data = bytearray(source.encode())  # ast columns count UTF-8 bytes
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == 10]

    def at(line: int, col: int) -> int:
        return starts[line - 1] + col

    def blank(a: int, b: int) -> None:
        """Spaces over data[a:b]; a line break inside goes on after a backslash (the annotation's
        brackets that held it together are gone)."""
        for i in range(a, b):
            if data[i] == 10:
                if i > a:
                    data[i - 1] = 92
            elif data[i] != 13 and not (data[i] == 92 and i + 1 < b and data[i + 1] == 10):
                data[i] = 32

    def visit(node: ast.AST, in_function: bool) -> None:
        """``in_function``: inside a function, or directly in an extension type's body."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                a = child.args
                for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg):
                    if arg is not None and arg.annotation is not None:
                        blank(at(arg.lineno, arg.col_offset) + len(arg.arg.encode()),
                              at(arg.end_lineno, arg.end_col_offset))
                if child.returns is not None:
                    r = child.returns
                    blank(data.rindex(b"->", 0, at(r.lineno, r.col_offset)), at(r.end_lineno, r.end_col_offset))
                visit(child, True)
            elif isinstance(child, ast.ClassDef):
                visit(child, child.name in extension_types and not in_function)
            elif isinstance(child, ast.AnnAssign) and in_function:
                end = at(child.annotation.end_lineno, child.annotation.end_col_offset)
                if child.value is None:  # a bare declaration does nothing at run time
                    start = at(child.lineno, child.col_offset)
                    blank(start, end)
                    data[start:start + 4] = b"pass"
                else:  # "x: T = v" -> "x    = v"
                    blank(at(child.target.end_lineno, child.target.end_col_offset), end)
            else:
                visit(child, in_function)

    visit(ast.parse(source), False)
    out = data.decode()
    ast.parse(out)  # still valid Python
    return out


EXTENSION_TYPE = re.compile(r"^cdef\s+class\s+(\w+)", re.MULTILINE)
"""A ``.pxd``'s extension types (``cdef class Name``)."""


def stage(module: str, twin: bool) -> str:
    """Write what Cython compiles for ``module`` under ``STRIPPED``, and its ``.pxd`` if it has one
    under ``DECLARED`` (each only when it changed, so that timestamps skip unchanged modules); its
    path relative to ``STRIPPED``."""
    source = source_of(module, twin)
    rel = source.relative_to(ROOT)
    target = STRIPPED / rel
    text = source.read_text(encoding="utf-8")
    declared = source.with_suffix(".pxd")  # C types augmenting the .py (pure-Python mode)
    if not twin:  # a .pyx twin is Cython code: its types are meant
        types = EXTENSION_TYPE.findall(declared.read_text(encoding="utf-8")) if declared.exists() else []
        text = strip_annotations(text, frozenset(types))
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    staged_pxd = DECLARED.joinpath(*module.split(".")).with_suffix(".pxd")  # found by the module's name
    if declared.exists():
        pxd = declared.read_text(encoding="utf-8")
        if not staged_pxd.exists() or staged_pxd.read_text(encoding="utf-8") != pxd:
            staged_pxd.parent.mkdir(parents=True, exist_ok=True)
            staged_pxd.write_text(pxd, encoding="utf-8")
            target.touch()  # Cython's timestamps do not see a .pxd found by name: the .py's do
    elif staged_pxd.exists():
        staged_pxd.unlink()
        target.touch()
    return str(rel)


def _declared_times() -> dict[str, int]:
    """The staged ``.pxd`` files and their modification times."""
    return {str(p): p.stat().st_mtime_ns for p in DECLARED.rglob("*.pxd")} if DECLARED.exists() else {}


NO_EXTENSIONS = "CNMAHJONG_NO_EXTENSIONS"
"""Environment variable: 1 builds no extension at all (a pure-Python package, as without a compiler)."""


def extensions_wanted(environ=os.environ) -> bool:
    value = environ.get(NO_EXTENSIONS, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{NO_EXTENSIONS} must be 1 or 0 (or unset), got {value!r}")
    return value != "1"


class OptionalBuildExt(build_ext):
    """Cythonize the staged sources, then compile them; a module that fails to compile (no C
    compiler, no Python headers) is left out with a message, and runs as pure Python."""

    def finalize_options(self) -> None:
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        self.distribution.ext_modules = self._cythonized()  # before the base class reads them
        super().finalize_options()

    def _cythonized(self) -> list[Extension]:
        """The hot modules' extensions, their staged sources turned into C (none without Cython)."""
        if not extensions_wanted():
            self._skip(f"{NO_EXTENSIONS}=1")
            return []
        try:
            from Cython.Build import cythonize
        except ImportError:
            self._skip("Cython is not installed")
            return []
        modules, twins = hot_modules()
        named = [(m, False) for m in modules] + [(m, True) for m in twins]
        declared = _declared_times()
        staged = [Extension(m, [stage(m, twin)]) for m, twin in named]
        if _declared_times() != declared:  # a .pxd changed: every module that may cimport it is made
            for ext in staged:  # again (Cython's timestamps do not follow a .pxd found by name)
                (STRIPPED / ext.sources[0]).touch()
        here = os.getcwd()
        os.chdir(STRIPPED)  # the C files name the sources by their repository paths, as tracebacks show
        try:
            out = cythonize(staged, compiler_directives=DIRECTIVES, quiet=True, include_path=[str(DECLARED)],
                            build_dir=str(ROOT / "build" / "cython"), nthreads=int(self.parallel or 1))
        finally:
            os.chdir(here)
        for ext in out:
            ext.sources = [s if os.path.isabs(s) else str(STRIPPED / s) for s in ext.sources]
        return out

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - any compiler failure leaves the pure package
            self._skip(f"{type(e).__name__}: {e}")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # noqa: BLE001
            self._skip(f"{ext.name}: {type(e).__name__}: {e}")

    def copy_extensions_to_source(self) -> None:
        """In place (editable installs): only the extensions that were built."""
        built = [e for e in self.extensions
                 if os.path.exists(os.path.join(self.build_lib, self.get_ext_filename(self.get_ext_fullname(e.name))))]
        self.extensions, every = built, self.extensions
        try:
            super().copy_extensions_to_source()
        finally:
            self.extensions = every

    def _skip(self, why: str) -> None:
        print(f"*** cnmahjong: compiled hot path not built ({why}); the engine runs as pure Python ***",
              file=sys.stderr)


if __name__ == "__main__":
    modules, twins = hot_modules()
    # the sources named here are what an sdist ships; build_ext compiles their staged copies
    setup(packages=discovered_packages(),
          ext_modules=[Extension(m, [str(source_of(m, t).relative_to(ROOT))])
                       for m, t in [(m, False) for m in modules] + [(m, True) for m in twins]],
          cmdclass={"build_ext": OptionalBuildExt, "link_tree": LinkTree})

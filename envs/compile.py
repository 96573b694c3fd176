"""Build (or remove) the compiled hot path: ``python -m envs.compile [--clean]``.

Cython compiles the modules of ``envs.hotpath.MODULES`` into extension modules
beside their sources and the build records each source's hash in the manifest.
The code compiled is the source itself with its function annotations blanked
out (same lines and columns, so tracebacks point at the real source): Cython
reads some annotations as types even with ``annotation_typing=False`` (a loop
variable over a ``tuple[int, ...]`` argument is coerced to ``int``; cython#7994),
which would let the compiled path accept what the pure one rejects. With no
annotation to read and no type inference, every value stays a Python object
and the two paths follow the same semantics. Unchanged modules are not
recompiled. A failed build leaves no manifest: every module then runs as pure
Python. Prints which path each module takes.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

from envs.hotpath import ACCELERATED, HOT, MANIFEST, ROOT, source_hash, source_path

DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,  # annotations are documentation, never C or exact types
    "infer_types": False,  # no inferred variable types either (they coerce, e.g. a float to an int)
    "binding": True,  # functions keep signatures and introspection
}
STRIPPED = ROOT / "build" / "stripped"
"""The sources as compiled (annotations blanked), under their package paths."""


def strip_annotations(source: str) -> str:
    """``source`` with every function's argument and return annotations, and every annotated
    assignment inside a function, blanked with spaces (lines and columns unchanged). Class
    bodies keep theirs (dataclasses read them)."""
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
                visit(child, False)
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


def _stage(module: str) -> str:
    """Write the module's stripped source under ``STRIPPED`` (only when it changed, so that
    Cython's timestamps skip unchanged modules); its path relative to ``STRIPPED``."""
    rel = source_path(module).relative_to(ROOT)
    target = STRIPPED / rel
    text = source_path(module).read_text(encoding="utf-8")
    if module not in ACCELERATED:  # a .pyx twin is Cython code: its types are meant
        text = strip_annotations(text)
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return str(rel)


def build() -> None:
    from Cython import __version__ as cython_version
    from Cython.Build import cythonize
    from setuptools import Extension
    from setuptools.dist import Distribution

    hashes = {m: source_hash(m) for m in HOT}
    try:  # other directives or another Cython: compile everything again
        last = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        last = {}
    force = last.get("cython") != cython_version or last.get("directives") != DIRECTIVES
    MANIFEST.unlink(missing_ok=True)
    extensions = [Extension(m, [_stage(m)]) for m in HOT]
    jobs = os.cpu_count() or 1
    os.chdir(STRIPPED)  # C files name the sources by their package paths, as tracebacks show them
    dist = Distribution({"name": "cnmahjong-hotpath", "ext_modules": cythonize(
        extensions, compiler_directives=DIRECTIVES, build_dir=str(ROOT / "build" / "cython"), quiet=True,
        nthreads=jobs, force=force)})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace, cmd.build_temp, cmd.parallel, cmd.force = True, str(ROOT / "build" / "temp"), jobs, force
    dist.run_command("build_ext")  # in place: beside the stripped copies
    for m in HOT:
        rel = source_path(m).relative_to(ROOT)
        for ext in (STRIPPED / rel).parent.glob(rel.stem + ".*.so"):
            os.replace(ext, ROOT / rel.parent / ext.name)
    manifest = {"cython": cython_version, "directives": DIRECTIVES, "modules": hashes}
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")


def clean() -> None:
    MANIFEST.unlink(missing_ok=True)
    for m in HOT:
        path = source_path(m)
        for ext in path.parent.glob(path.stem + ".*.so"):
            ext.unlink()


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--clean"]):
        raise SystemExit(f"usage: python -m envs.compile [--clean]; got {' '.join(args)!r}")
    clean() if args else build()
    # this process imported nothing hot; a fresh one reports what an import now takes
    report = "from envs.hotpath import status\nfor m, how in status().items(): print(f'{how:9s}{m}')"
    subprocess.run([sys.executable, "-c", report], check=True, cwd=ROOT)


if __name__ == "__main__":
    main()

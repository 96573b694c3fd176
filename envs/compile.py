"""Build (or remove) the compiled hot path: ``python -m envs.compile [--clean]``.

Cython compiles the modules of ``envs.hotpath.MODULES`` unchanged, with
directives that keep Python's semantics (annotations stay documentation, not C
types), into extension modules beside their sources, and then records each
source's hash in the manifest. Unchanged modules are not recompiled. A failed
build leaves no manifest: every module then runs as pure Python. Prints which
path each module takes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from envs.hotpath import MANIFEST, MODULES, ROOT, source_hash, source_path

DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,  # Python objects and Python semantics throughout
    "binding": True,  # functions keep signatures and introspection
}


def build() -> None:
    from Cython import __version__ as cython_version
    from Cython.Build import cythonize
    from setuptools import Extension
    from setuptools.dist import Distribution

    hashes = {m: source_hash(m) for m in MODULES}
    try:  # other directives or another Cython: compile everything again
        last = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        last = {}
    force = last.get("cython") != cython_version or last.get("directives") != DIRECTIVES
    MANIFEST.unlink(missing_ok=True)
    os.chdir(ROOT)
    jobs = os.cpu_count() or 1
    extensions = [Extension(m, [str(source_path(m).relative_to(ROOT))]) for m in MODULES]
    dist = Distribution({"name": "cnmahjong-hotpath", "ext_modules": cythonize(
        extensions, compiler_directives=DIRECTIVES, build_dir="build/cython", quiet=True, nthreads=jobs,
        force=force)})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace, cmd.build_temp, cmd.parallel, cmd.force = True, "build/temp", jobs, force
    dist.run_command("build_ext")
    manifest = {"cython": cython_version, "directives": DIRECTIVES, "modules": hashes}
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")


def clean() -> None:
    MANIFEST.unlink(missing_ok=True)
    for m in MODULES:
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
    subprocess.run([sys.executable, "-c", report], check=True)


if __name__ == "__main__":
    main()

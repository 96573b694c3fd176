"""The compiled hot path (``envs/hotpath.py``, ``envs/compile.py``) against the pure-Python reference.

DEVELOPERS.md: a compiled path is allowed only if a differential test shows identical results on every
step of at least 20,000 hands. Each ruleset's hands are played twice, in two processes, one importing
every hot module from its source (``CNMAHJONG_PURE=1``) and one the compiled extensions; every step's
observation rows, masks, rows, rewards and hands-over, and every finished hand's event log and
payments, must agree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from envs import hotpath

ROOT = Path(__file__).resolve().parent.parent


def _side(ruleset: str, hands: int, pure: bool) -> subprocess.Popen:
    env = dict(os.environ, **{hotpath.PURE_ENV: "1" if pure else "0"})
    return subprocess.Popen([sys.executable, str(ROOT / "tests" / "differential.py"), ruleset, str(hands)],
                            stdout=subprocess.PIPE, env=env, cwd=ROOT, text=True)


def _require_compiled() -> None:
    """The build is there and up to date (whatever this process imports: CNMAHJONG_PURE may be set)."""
    if not hotpath.source_modules(hotpath.read_manifest(), pure=False)[0]:
        return
    if not shutil.which(sysconfig.get_config_var("CC").split()[0]):
        pytest.skip("no C compiler on this machine: the package runs as pure Python only")
    pytest.fail("the hot path is not compiled or is stale: run `python -m envs.compile` (make does)")


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "hands"), [("changsha", 20_000), ("hangzhou", 10_000)])
def test_compiled_plays_every_step_like_pure_python(ruleset: str, hands: int) -> None:
    _require_compiled()
    pure, compiled = _side(ruleset, hands, pure=True), _side(ruleset, hands, pure=False)
    a, b = (json.loads(p.communicate()[0]) for p in (pure, compiled))
    assert pure.returncode == compiled.returncode == 0
    assert set(a["status"].values()) == {"pure"}
    assert set(b["status"].values()) == {"compiled"}, b["status"]
    first = next((i for i, (x, y) in enumerate(zip(a["steps"], b["steps"], strict=False)) if x != y), None)
    assert first is None, f"step {first} differs between the pure and the compiled path"
    assert len(a["steps"]) == len(b["steps"]) > hands  # several steps a hand, every one compared


def test_stale_or_missing_builds_run_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    built = {m: hotpath.source_hash(m) for m in hotpath.HOT}
    assert hotpath.source_modules(built, pure=False) == (set(), [])
    assert hotpath.source_modules(built, pure=True) == (set(hotpath.HOT), [])
    stale = dict(built, **{"envs.core.engine": "0" * 64})
    del stale["envs.vector"]
    assert hotpath.source_modules(stale, pure=False) == ({"envs.core.engine", "envs.vector"}, ["envs.core.engine"])
    # the finder warns with the stale module's name and sends it to its source
    monkeypatch.delenv(hotpath.PURE_ENV, raising=False)  # the rule for a normal run, whatever this one is
    monkeypatch.setattr(hotpath, "read_manifest", lambda: stale)
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, hotpath.SourceFinder)])
    with pytest.warns(UserWarning, match=r"older than their sources: envs\.core\.engine"):
        hotpath.install_finder()
    finder = sys.meta_path[0]
    assert isinstance(finder, hotpath.SourceFinder)
    spec = finder.find_spec("envs.core.engine")
    assert spec is not None and spec.origin.endswith("engine.py")
    assert finder.find_spec("envs.core.tiles") is None


def test_accelerated_twin_is_used_only_when_allowed() -> None:
    _require_compiled()
    code = ("from envs.hotpath import accelerated; import envs.changsha.observation as o; "
            "print(accelerated('envs.changsha._planes') is not None, o._compiled_planes is not None)")
    for pure, used in (("0", "True True"), ("1", "False False")):
        out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, CNMAHJONG_PURE=pure), cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
        assert out == used, (pure, out)
    finder = hotpath.SourceFinder({"envs.changsha._planes"})
    with pytest.raises(ModuleNotFoundError, match="pure-Python path runs"):
        finder.find_spec("envs.changsha._planes")
    with pytest.raises(ValueError, match="not one of the accelerated modules"):
        hotpath.accelerated("envs.core.engine")


def test_pure_switch_rejects_other_values() -> None:
    assert hotpath.pure_requested({}) is False
    assert hotpath.pure_requested({"CNMAHJONG_PURE": "1"}) is True
    with pytest.raises(ValueError, match="CNMAHJONG_PURE must be 1 .* got 'yes'"):
        hotpath.pure_requested({"CNMAHJONG_PURE": "yes"})


def test_unreadable_manifest_warns_and_runs_pure(tmp_path: Path) -> None:
    bad = tmp_path / "m.json"
    bad.write_text("{not json")
    with pytest.warns(UserWarning, match="unreadable"):
        assert hotpath.read_manifest(bad) == {}
    assert hotpath.read_manifest(tmp_path / "absent.json") == {}


def test_compiled_sources_have_no_function_annotations_for_cython_to_read() -> None:
    from envs.compile import strip_annotations

    source = '''from dataclasses import dataclass


@dataclass
class Meld:
    kind: str  # class bodies keep theirs: dataclasses read them
    tiles: tuple[int, ...] = ()


def f(a: int, *rest: float, key: "tuple[int, ...]" = (),
      **kw: dict[str, int]) -> list[
        int]:
    """牌 (non-ASCII before the annotations)."""
    n: int = len(rest)
    declared: int
    return [a, n]
'''
    out = strip_annotations(source)
    assert out.count("\\n") == source.count("\\n")
    assert [len(x) for x in out.split("\\n")] == [len(x) for x in source.split("\\n")]  # same columns
    assert "kind: str" in out and "tiles: tuple[int, ...] = ()" in out
    gap = " " * len(': "tuple[int, ...]"')
    assert "def f(a" + " " * len(": int") + ", *rest" + " " * len(": float") + ", key" + gap + " = ()," in out
    assert "float" not in out and "dict[" not in out and "->" not in out and "list[" not in out
    assert "\n    n" + " " * len(": int") + " = len(rest)\n    pass" + " " * len("ared: int") + "\n" in out
    namespace: dict = {}
    exec(compile(out, "stripped", "exec"), namespace)
    assert namespace["f"](1, 2.0, 3.0) == [1, 2]
    assert namespace["Meld"]("peng").tiles == ()

"""The house rules of the layout (README "Layout"), checked on the sources:

- the engines (every rules module of ``envs/core`` and of every registered ruleset) import no
  RL library, not even numpy: usable on their own for servers, analysis, puzzles;
- ``envs`` stands alone: nothing in it imports ``cnmahjong.agents`` or ``cnmahjong.training``;
- only a ruleset's own package (and the registry, ``envs/core/ruleset.py``) names a ruleset: no
  other module of the library spells a ruleset's name or preset as code, or imports a ruleset
  package directly.
"""

import ast
import re
from pathlib import Path

import pytest

from cnmahjong.envs.core.ruleset import REGISTERED, preset_names, rulesets

ROOT = Path(__file__).resolve().parent.parent
RULESET_DIRS = {rs.name: ROOT / "envs" / rs.name for rs in rulesets() if (ROOT / "envs" / rs.name).is_dir()}
ENV_FACING = {"env", "observation", "heuristic", "expert", "state", "benchmarks"}
"""Modules of ``envs/core`` and the ruleset packages that face an RL library (arrays, spaces):
numpy, gymnasium and pettingzoo allowed there. Every other module is engine."""
RL_LIBRARIES = {"gymnasium", "gym", "pettingzoo", "torch", "ray", "tianshou", "stable_baselines3", "sb3_contrib",
                "torchrl", "tensordict", "supersuit", "agilerl"}
ENGINE_FORBIDDEN = RL_LIBRARIES | {"numpy"}


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.py"))


def _facing(p: Path) -> bool:
    """An env-facing module by its name, or a version of one (``observation_v1``: another encoder)."""
    return p.stem.split("_")[0] in ENV_FACING


ENGINE = [p for folder in [ROOT / "envs" / "core", *RULESET_DIRS.values()] for p in _modules(folder)
          if not _facing(p)]
ENV_FACING_MODULES = [p for folder in [ROOT / "envs" / "core", *RULESET_DIRS.values()] for p in _modules(folder)
                      if _facing(p)]
LIBRARY = [p for top in ("envs", "agents", "training", "cnmahjong") for p in sorted((ROOT / top).rglob("*.py"))]
GENERIC = [p for p in LIBRARY if not any(d in p.parents for d in RULESET_DIRS.values())
           and p != ROOT / "envs" / "core" / "ruleset.py"]


def _imports(path: Path) -> set[str]:
    """Every module a source file imports (absolute names; relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise AssertionError(f"{path}: relative import; the project imports absolute names")
            if node.module:
                out.add(node.module)
                out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def test_the_lists_cover_every_ruleset_and_the_engine_core():
    assert set(RULESET_DIRS) == set(REGISTERED)
    names = {_rel(p) for p in ENGINE}
    assert {"envs/core/engine.py", "envs/core/wild.py", "envs/core/ruleset.py", "envs/core/rewards.py"} <= names
    for rs in RULESET_DIRS:
        assert {f"envs/{rs}/game.py", f"envs/{rs}/rules.py", f"envs/{rs}/patterns.py",
                f"envs/{rs}/scoring.py"} <= names


@pytest.mark.parametrize("path", ENGINE, ids=_rel)
def test_engine_module_imports_no_rl_library(path):
    top = {m.split(".")[0] for m in _imports(path)}
    assert not top & ENGINE_FORBIDDEN, f"{_rel(path)} imports {sorted(top & ENGINE_FORBIDDEN)}"


@pytest.mark.parametrize("path", ENV_FACING_MODULES, ids=_rel)
def test_env_facing_module_imports_no_learning_library(path):
    top = {m.split(".")[0] for m in _imports(path)}
    bad = top & (RL_LIBRARIES - {"gymnasium", "pettingzoo"})
    assert not bad, f"{_rel(path)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", sorted((ROOT / "envs").rglob("*.py")), ids=_rel)
def test_envs_imports_nothing_from_agents_or_training(path):
    bad = sorted(m for m in _imports(path) if m.split(".")[:2] in (["cnmahjong", "agents"], ["cnmahjong", "training"]))
    assert not bad, f"{_rel(path)} imports {bad}: envs stands alone"


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """String constants of a module that are code, not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
        if isinstance(node, (ast.Module, ast.ClassDef)):  # attribute docstrings: a string after an assignment
            for prev, nxt in zip(node.body, node.body[1:], strict=False):
                if isinstance(prev, (ast.Assign, ast.AnnAssign)) and isinstance(nxt, ast.Expr) \
                        and isinstance(nxt.value, ast.Constant):
                    docs.add(id(nxt.value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


@pytest.mark.parametrize("path", GENERIC, ids=_rel)
def test_generic_module_names_no_ruleset(path):
    """Only the registry and a ruleset's own package know it: no name, preset or import elsewhere."""
    words = set(RULESET_DIRS) | set(preset_names())
    spelled = [(line, s) for line, s in _code_strings(path)
               if any(w in s.lower().replace("-", "_").split("_") or s.lower() == w for w in words)]
    assert not spelled, f"{_rel(path)} names a ruleset as code: {spelled}"
    packages = {f"cnmahjong.envs.{name}" for name in RULESET_DIRS}
    imported = sorted(m for m in _imports(path) if any(m == p or m.startswith(p + ".") for p in packages))
    assert not imported, f"{_rel(path)} imports a ruleset package directly: {imported} (use the registry)"


def test_the_seat_count_has_one_home():
    """``NUM_SEATS`` is assigned in ``envs/core/seats.py`` alone; every other module imports it."""
    assigned = [_rel(p) for p in LIBRARY if re.search(r"^NUM_SEATS\s*[:=]", p.read_text(encoding="utf-8"), re.M)]
    assert assigned == ["envs/core/seats.py"]


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_a_rulesets_deal_travels_to_worker_processes(name):
    """RLlib's runners and SB3's subprocesses pickle the env, its ruleset's ``new_hand`` included:
    it must pickle by reference, compiled or not."""
    import pickle

    from cnmahjong.envs.core.ruleset import get_ruleset

    rs = get_ruleset(name)
    assert pickle.loads(pickle.dumps(rs.new_hand)) is rs.new_hand

"""The engine stays free of RL libraries (design: usable on its own for servers, analysis, puzzles)."""

import ast
from pathlib import Path

import pytest

ENGINE = ["envs/core/tiles.py", "envs/core/wall.py", "envs/core/shapes.py", "envs/changsha/rules.py",
          "envs/changsha/actions.py", "envs/changsha/patterns.py", "envs/changsha/scoring.py",
          "envs/changsha/game.py", "envs/core/checks.py", "envs/core/ruleset.py"]
FORBIDDEN = {"gymnasium", "gym", "pettingzoo", "torch", "numpy"}


@pytest.mark.parametrize("path", ENGINE)
def test_engine_module_imports_no_rl_library(path):
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN, f"{path} imports {sorted(imported & FORBIDDEN)}"

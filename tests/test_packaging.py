"""The package as a library: one import root (``cnmahjong``) that no user package can shadow,
configs that travel, registration on import, console scripts, an engine free of RL libraries.

The wheel itself (built by the backend, installed in a fresh venv outside the clone, compiled,
with PyPI's ``envs`` installed after it) is exercised by ``.ci/wheel_smoke.sh``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
THEIRS = {"envs": "from envs.core import nothing", "agents": "", "training": ""}
"""Names RL projects commonly give their own packages (the first with a subpackage of ours' name)."""


def _python(code: str, cwd: Path, **env: str) -> str:
    run = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                         env={**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, **env})
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def _user_packages(folder: Path) -> Path:
    """A user's own ``envs``, ``agents`` and ``training`` packages in ``folder``."""
    for name in THEIRS:
        (folder / name).mkdir(parents=True)
        (folder / name / "__init__.py").write_text(f"MINE = {name!r}\n")
    (folder / "envs" / "core").mkdir()
    (folder / "envs" / "core" / "__init__.py").write_text("NOTHING = 1\n")
    return folder


BOTH = ("import envs, agents, training, envs.core\n"
        "from cnmahjong.envs.changsha.game import ChangshaGame\n"
        "from cnmahjong.envs.hangzhou.game import HangzhouGame\n"
        "from cnmahjong.agents import make_policy\n"
        "from cnmahjong.training.config import load\n"
        "ChangshaGame(seed=1); HangzhouGame(seed=1); make_policy('greedy'); load('selfplay_ppo')\n"
        "print(envs.MINE, agents.MINE, training.MINE, envs.core.NOTHING)")


def test_a_user_project_with_its_own_envs_package_imports_both(tmp_path):
    project = _user_packages(tmp_path / "project")
    assert _python(BOTH, project) == "envs agents training 1"


def test_a_package_named_envs_installed_beside_ours_hides_nothing(tmp_path):
    """As PyPI's ``envs`` installed after ours: on the path, it neither hides nor is hidden."""
    site = _user_packages(tmp_path / "site")
    assert _python(BOTH, tmp_path, PYTHONPATH=str(site)) == "envs agents training 1"


def test_every_package_installs_under_cnmahjong():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "packages" not in config  # discovered by setup.py, never a hand list (see the wheel test)
    assert set(config["package-dir"]) == {"cnmahjong", "cnmahjong.envs", "cnmahjong.agents", "cnmahjong.training",
                                          "cnmahjong.configs"}
    for package, folder in config["package-dir"].items():
        assert (ROOT / folder / "__init__.py").is_file(), package


def test_configs_load_by_name_from_any_directory(tmp_path):
    out = _python("from cnmahjong.training.config import load, shipped_configs\n"
                  "names = sorted(shipped_configs())\n"
                  "print(names, load('selfplay_ppo')['algo'], load('configs/demo.yaml')['algo'], "
                  "load('tianshou_dqn.yaml')['algo'])", tmp_path)
    assert out == ("['changsha_distill', 'changsha_strong', 'changsha_v2', 'demo', 'hangzhou_distill', "
                   "'hangzhou_strong', 'ppo_maskable', 'rllib_ppo', 'selfplay_ppo', 'sichuan_strong', 'tianshou_dqn'] "
                   "selfplay_ppo selfplay_ppo tianshou_dqn")


def test_an_unknown_config_name_lists_the_shipped_ones(tmp_path):
    from cnmahjong.training.config import ConfigError, load

    shipped = "changsha_distill, changsha_strong, changsha_v2, demo"
    with pytest.raises(ConfigError, match=f"does not exist; the shipped configs are {shipped}"):
        load("selfplay_ppo_typo")
    with pytest.raises(ConfigError, match="does not exist"):
        load(tmp_path / "nope" / "selfplay_ppo.yaml")  # a path of another folder is only a path


def test_the_shipped_agent_and_its_evaluations_are_package_data():
    from importlib.resources import files

    folder = files("cnmahjong.agents") / "pretrained"
    for name in ("changsha", "hangzhou"):
        assert (folder / f"{name}.pt").is_file()
        assert (folder / f"{name}.eval.json").is_file()


@pytest.mark.parametrize("script, module", [
    ("cnmahjong-train", "cnmahjong.training.train"), ("cnmahjong-arena", "cnmahjong.training.arena"),
    ("cnmahjong-replay", "cnmahjong.training.viewer"), ("cnmahjong-play", "cnmahjong.training.server"),
    ("cnmahjong-bench", "cnmahjong.training.bench"), ("cnmahjong-league", "cnmahjong.training.league"),
])
def test_console_scripts_run_the_tools(script, module, monkeypatch, capsys):
    points = {e.name: e for e in importlib.metadata.entry_points(group="console_scripts")}
    assert script in points, sorted(points)
    monkeypatch.setattr(sys, "argv", [script, "--help"])
    with pytest.raises(SystemExit) as exit_:
        points[script].load()()
    assert exit_.value.code == 0
    assert f"usage: {script}" in capsys.readouterr().out
    assert points[script].value.startswith("cnmahjong.cli:")


def test_importing_the_package_registers_the_ids():
    import gymnasium
    import pettingzoo

    import cnmahjong

    for env_id in ("changsha_mahjong_v0", "hangzhou_mahjong_v0"):
        env = pettingzoo.make("aec", env_id)
        env.reset(seed=0)
        assert env.unwrapped.metadata["name"] == env_id
    for env_id, shape in (("cnmahjong/Changsha-v0", (119, 27)), ("cnmahjong/Hangzhou-v0", (145, 34))):
        obs, _ = gymnasium.make(env_id).reset(seed=0)
        assert obs.shape == shape
        vec = gymnasium.make_vec(env_id, num_envs=2)
        assert vec.reset(seed=0)[0].shape == (2, *shape)
    assert cnmahjong.changsha_mahjong_v0.raw_env().metadata["name"] == "changsha_mahjong_v0"


def test_the_engine_needs_no_rl_library(tmp_path):
    """With gymnasium, pettingzoo and torch unimportable the engines, the encoders and VectorEnv
    still play; the package root only skips registering ids."""
    code = ("import sys\n"
            "for name in ('gymnasium', 'pettingzoo', 'torch'): sys.modules[name] = None\n"
            "import numpy as np\n"
            "from cnmahjong.envs.vector import VectorEnv\n"
            "venv = VectorEnv(num_tables=2, ruleset='hangzhou', seed=0)\n"
            "batch, rng = venv.reset(), np.random.default_rng(0)\n"
            "while venv.hands_played < 4:\n"
            "    batch = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in batch.mask]))\n"
            "print(venv.hands_played)")
    assert _python(code, tmp_path) == "4"
    loaded = _python("import sys, cnmahjong.envs.vector, cnmahjong.envs.changsha.game\n"
                     "print(sorted(m for m in ('torch', 'ray', 'tianshou') if m in sys.modules))", tmp_path)
    assert loaded == "[]"


def test_a_pettingzoo_without_a_registry_is_told(tmp_path):
    fake = tmp_path / "pettingzoo"
    fake.mkdir()
    (fake / "__init__.py").write_text("__version__ = '1.24.3'\n")
    code = ("import warnings\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    import cnmahjong\n"
            "print([str(x.message) for x in w])")
    out = _python(code, tmp_path, PYTHONPATH=str(tmp_path))
    assert "PettingZoo 1.24.3 has no env registry" in out and "cnmahjong.changsha_mahjong_v0.env()" in out


def _tree_modules() -> set[str]:
    """Every module file under the mapped roots of pyproject's package-dir, as it imports."""
    dirs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    found = set()
    for package, folder in dirs.items():
        for f in (ROOT / folder).rglob("*.py"):
            rel = f.relative_to(ROOT / folder).with_suffix("").parts
            if "__pycache__" not in rel and not any(p.startswith(".") for p in rel):
                inner = [p for p in dirs if p != package and p.startswith(package + ".")
                         and f.is_relative_to(ROOT / dirs[p])]
                if not inner:  # a file under a nested mapped root is that root's
                    found.add(".".join((package, *rel)))
    return found


def test_the_wheel_holds_every_module_of_the_tree(tmp_path):
    """The wheel as the build backend makes it (no extensions, for speed) holds exactly the tree's
    modules: a package folder missing from the package list would be missing here."""
    import zipfile

    env = {**os.environ, "CNMAHJONG_NO_EXTENSIONS": "1"}
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                          "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    [wheel] = tmp_path.glob("cnmahjong-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    inside = {n[n.index("cnmahjong/"):-3].replace("/", ".") for n in names
              if n.endswith(".py") and "cnmahjong/" in n and ".dist-info" not in n}
    tree = _tree_modules()
    assert "cnmahjong.envs.core.seats" in tree and len(tree) > 100
    assert inside == tree, {"missing from the wheel": sorted(tree - inside), "not in the tree": sorted(inside - tree)}


def test_the_sdist_ships_every_source_the_build_compiles(tmp_path):
    """An install from the sdist compiles what a clone does: every hot module's ``.py``, each
    ``.pyx`` twin and every ``.pxd`` (the C types) are in it, as ``MANIFEST.in`` says; a twin left
    out would leave that install on the pure encoder, a ``.pxd`` left out untyped."""
    import tarfile

    run = subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(tmp_path),  # no stale
                          "sdist", "-d", str(tmp_path)], cwd=ROOT, capture_output=True, text=True)  # file list
    assert run.returncode == 0, run.stderr[-3000:]
    [sdist] = tmp_path.glob("cnmahjong-*.tar.gz")
    with tarfile.open(sdist) as tar:
        inside = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    spec = importlib.util.spec_from_file_location("_setup", ROOT / "setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    modules, twins = setup.hot_modules()
    sources = {str(setup.source_of(m, False).relative_to(ROOT)) for m in modules}
    sources |= {str(setup.source_of(m, True).relative_to(ROOT)) for m in twins}
    sources |= {str(p.relative_to(ROOT)) for p in (ROOT / "envs").rglob("*.pxd")}
    assert {f"envs/{r}/_planes.pyx" for r in ("changsha", "hangzhou", "sichuan")} <= sources
    assert "envs/core/engine.pxd" in sources
    assert not sources - inside, f"missing from the sdist: {sorted(sources - inside)}"


def test_a_package_folder_left_out_would_be_caught(tmp_path):
    """The discovery itself: every folder with an __init__.py under a mapped root, and only those."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_setup", ROOT / "setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    packages = setup.discovered_packages()
    folders = {".".join(m.split(".")[:-1]) for m in _tree_modules() if m.endswith("__init__")}
    assert set(packages) == folders and "cnmahjong.envs.core" in packages


def test_static_tools_find_the_package_as_a_plain_folder():
    """``make`` puts build/link-tree on the path (a .pth file): the modules resolve to real files
    there, which an IDE or a type checker follows without running setuptools' import hook."""
    code = ("import importlib.util, sysconfig, pathlib;"
            "pth = pathlib.Path(sysconfig.get_paths()['purelib']) / 'cnmahjong-link-tree.pth';"
            "print(pth.read_text().strip());"
            "print(importlib.util.find_spec('cnmahjong.envs.core.engine').origin)")
    tree, origin = _python(code, ROOT.parent).splitlines()
    assert Path(tree) == ROOT / "build" / "link-tree"
    assert origin.startswith(tree) and Path(origin).resolve().parent == ROOT / "envs" / "core"

"""The compiled hot path (``envs/hotpath.py``, built by ``setup.py``) against the pure-Python reference.

DEVELOPERS.md: a compiled path is allowed only if a differential test shows identical results on every
step of at least 20,000 hands. Each ruleset's hands are played twice, in two processes, one importing
every hot module from its source (``CNMAHJONG_PURE=1``) and one the compiled extensions; every step's
observation rows, masks, rows, rewards and hands-over, and every finished hand's event log and
payments, must agree.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from cnmahjong.envs import hotpath

ROOT = Path(__file__).resolve().parent.parent


def _side(ruleset: str, hands: int, pure: bool, seed: int) -> subprocess.Popen:
    env = dict(os.environ, **{hotpath.PURE_ENV: "1" if pure else "0"})
    return subprocess.Popen([sys.executable, str(ROOT / "tests" / "differential.py"), ruleset, str(hands), str(seed)],
                            stdout=subprocess.PIPE, env=env, cwd=ROOT, text=True)


def _load_setup():
    """``setup.py`` as a module (its ``setup()`` call runs only as a script)."""
    spec = importlib.util.spec_from_file_location("cnmahjong_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _require_compiled() -> None:
    """The build is there (whatever this process imports: CNMAHJONG_PURE may be set)."""
    code = "import json; from cnmahjong.envs.hotpath import status; print(json.dumps(status()))"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, CNMAHJONG_PURE="0"), cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    if set(json.loads(out).values()) == {"compiled"}:
        return
    if not shutil.which(sysconfig.get_config_var("CC").split()[0]):
        pytest.skip("no C compiler on this machine: the package runs as pure Python only")
    pytest.fail(f"the hot path is not compiled: run `make compiled` ({out})")


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "hands"), [("changsha", 20_000), ("hangzhou", 20_000), ("sichuan", 20_000)])
def test_compiled_plays_every_step_like_pure_python(ruleset: str, hands: int) -> None:
    """``hands`` hands in two seeded streams of half as many, each played by a pure and a compiled
    process (four at once: the cores stay busy while the slower pure side finishes)."""
    _require_compiled()
    streams = (7, 8)
    sides = {(seed, pure): _side(ruleset, hands // len(streams), pure, seed) for seed in streams
             for pure in (True, False)}
    out = {key: json.loads(p.communicate()[0]) for key, p in sides.items()}
    assert all(p.returncode == 0 for p in sides.values())
    played = 0
    for seed in streams:
        a, b = out[seed, True], out[seed, False]
        assert set(a["status"].values()) == {"pure"}
        assert set(b["status"].values()) == {"compiled"}, b["status"]
        first = next((i for i, (x, y) in enumerate(zip(a["steps"], b["steps"], strict=False)) if x != y), None)
        assert first is None, f"stream {seed}: step {first} differs between the pure and the compiled path"
        assert len(a["steps"]) == len(b["steps"]) > hands // len(streams)  # several steps a hand, all compared
        played += a["hands"]
    assert played >= hands


def test_the_build_compiles_exactly_the_hot_modules() -> None:
    """``setup.py`` reads the list of ``envs/hotpath.py`` (one copy) and finds each source."""
    setup = _load_setup()
    modules, twins = setup.hot_modules()
    assert modules == hotpath.MODULES and twins == hotpath.ACCELERATED
    for m in modules:
        assert setup.source_of(m, False).is_file(), m
    assert setup.source_of(hotpath.ACCELERATED[0], True).suffix == ".pyx"


def _staging_in(tmp_path, monkeypatch, name: str, text: str):
    """``setup.py`` staging into ``tmp_path`` (its ROOT, STRIPPED and DECLARED there), with the core
    module ``name``'s source written as ``text``: the module and the source's path."""
    setup = _load_setup()
    monkeypatch.setattr(setup, "ROOT", tmp_path)
    monkeypatch.setattr(setup, "STRIPPED", tmp_path / "build" / "stripped")
    monkeypatch.setattr(setup, "DECLARED", tmp_path / "build" / "declared")
    src = tmp_path / "envs" / "core" / f"{name}.py"
    src.parent.mkdir(parents=True)
    src.write_text(text)
    return setup, src


def test_a_changed_source_is_staged_again_so_the_backend_rebuilds_it(tmp_path, monkeypatch) -> None:
    """Staleness is the build backend's: a source whose stripped copy changed is newer than its C
    file, so Cython and setuptools rebuild it; an unchanged one is left alone (its time kept)."""
    setup, src = _staging_in(tmp_path, monkeypatch, "tiles", "def f(a: int) -> int:\n    return a\n")
    rel = setup.stage("cnmahjong.envs.core.tiles", False)
    staged = tmp_path / "build" / "stripped" / rel
    assert staged.read_text() == "def f(a     )       :\n    return a\n"
    os.utime(staged, (1, 1))
    setup.stage("cnmahjong.envs.core.tiles", False)
    assert staged.stat().st_mtime == 1  # unchanged: not rewritten, so not rebuilt
    src.write_text("def f(a: int) -> int:\n    return a + 1\n")
    setup.stage("cnmahjong.envs.core.tiles", False)
    assert staged.stat().st_mtime > 1 and "a + 1" in staged.read_text()


def test_a_modules_pxd_is_staged_by_its_name_and_a_change_to_it_rebuilds_the_module(tmp_path, monkeypatch) -> None:
    """A ``.pxd`` beside a hot module's source (its C types, Cython's pure-Python mode) is staged
    under the module's name, where Cython looks for it; Cython's timestamps do not see it there,
    so a changed, new or removed ``.pxd`` makes the staged ``.py`` newer, and the module is rebuilt."""
    setup, src = _staging_in(tmp_path, monkeypatch, "wall", "class Wall:\n    pass\n")
    rel = setup.stage("cnmahjong.envs.core.wall", False)
    staged = tmp_path / "build" / "stripped" / rel
    declared = tmp_path / "build" / "declared" / "cnmahjong" / "envs" / "core" / "wall.pxd"
    assert not declared.exists()
    for pxd in ("cdef class Wall:\n    cdef public int size\n", "cdef class Wall:\n    cdef public int n\n"):
        os.utime(staged, (1, 1))
        src.with_suffix(".pxd").write_text(pxd)
        setup.stage("cnmahjong.envs.core.wall", False)
        assert declared.read_text() == pxd and staged.stat().st_mtime > 1
    os.utime(staged, (1, 1))
    setup.stage("cnmahjong.envs.core.wall", False)
    assert staged.stat().st_mtime == 1  # nothing changed: not rebuilt
    src.with_suffix(".pxd").unlink()
    setup.stage("cnmahjong.envs.core.wall", False)
    assert not declared.exists() and staged.stat().st_mtime > 1


def test_the_wall_is_a_typed_class_when_compiled_and_copies_alike() -> None:
    """``envs/core/wall.pxd`` makes ``Wall`` an extension type with C attributes in the compiled
    build; its attributes stay public, so clones, pickles and the pure build see the same wall."""
    _require_compiled()
    code = ("import copy, json, pickle; from cnmahjong.envs.core.wall import Wall\n"
            "w = Wall(list(range(27)) * 4); w.draw_head(); w.draw_tail()\n"
            "out = [type(w).__flags__ & (1 << 9) == 0]\n"  # not a heap type: an extension type
            "for v in (pickle.loads(pickle.dumps(w)), copy.deepcopy(w)):\n"
            "    out.append([v.remaining, v.layout() == w.layout(), v.draw_head(), v.draw_tail(), w.remaining])\n"
            "print(json.dumps(out))")
    runs = {}
    for pure in ("0", "1"):
        done = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, CNMAHJONG_PURE=pure), cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        runs[pure] = json.loads(done.stdout)
    assert runs["0"][0] is True and runs["1"][0] is False
    assert runs["0"][1:] == runs["1"][1:] == [[106, True, 1, 26, 106]] * 2


def test_an_extension_types_class_annotations_are_blanked_for_cython(tmp_path, monkeypatch) -> None:
    """In a class the module's ``.pxd`` declares ``cdef class``, Cython would read ``NAME: T`` as a
    new C attribute (only the ``.pxd`` may declare them): staging blanks those annotations (values
    kept); other classes keep theirs (a dataclass reads them)."""
    source = ("class Game:\n    RULESET: str\n    SIZE: int = 3\n\n"
              "class Kong:\n    seat: int\n")
    setup, src = _staging_in(tmp_path, monkeypatch, "engine", source)
    src.with_suffix(".pxd").write_text("cdef class Game:\n    cdef public object phase\n")
    staged = tmp_path / "build" / "stripped" / setup.stage("cnmahjong.envs.core.engine", False)
    assert staged.read_text() == ("class Game:\n    pass        \n    SIZE      = 3\n\n"
                                  "class Kong:\n    seat: int\n")


GAME_COPIES = """
import copy, json, pickle, random
from cnmahjong.envs.core.engine import ClaimWindow, _facts_of, slot_names
from cnmahjong.envs.core.ruleset import get_ruleset
from cnmahjong.envs.core.rollouts import play_to_end
out = {"extension": {}, "copies": {}, "more_picks": {}, "window": {}}


def same(a, b):
    return a.getstate() == b.getstate() if isinstance(a, random.Random) else repr(a) == repr(b)


for name in ("changsha", "hangzhou", "sichuan"):
    for seed in range(5, 100):  # 30 decisions or more into a hand, a claim window open (copied too)
        game = get_ruleset(name).game(None, seed=seed)
        steps = 0
        while not game.done and (steps < 30 or not isinstance(game._window, ClaimWindow)):
            game.play_forced()
            if game.done:
                break
            seat = next(iter(game.pending))
            legal = game.pending[seat]
            game.step(seat, legal[-1] if steps < 30 else legal[0])
            steps += 1
        if not game.done:
            break
    out["window"][name] = type(game._window).__name__
    out["extension"][name] = [k.__name__ for k in type(game).__mro__ if k is not object and not k.__flags__ & (1 << 9)]
    out["more_picks"][name] = _facts_of(type(game))[2]
    names = slot_names(type(game))
    assert len(names) == len(set(names)), f"a slot declared twice along {type(game).__mro__}"
    rows = []
    for copied in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game), copy.copy(game), game.clone()):
        assert type(copied) is type(game)
        rows.append([same(getattr(copied, n, None), getattr(game, n, None)) for n in names])
        play_to_end(copied, lambda g, s, legal: legal[0])
        rows.append(copied.result.payments)
    play_to_end(game, lambda g, s, legal: legal[0])
    out["copies"][name] = [rows, list(game.result.payments)]
print(json.dumps(out))
"""


def test_the_game_classes_compile_to_extension_types_and_copy_whole() -> None:
    """``engine.pxd`` and each ruleset's ``game.pxd`` make ``TableGame`` and the ruleset's game class
    extension types (C slots, ``cpdef`` steps) in the compiled build (a ruleset without a ``.pxd``,
    as the test rulesets, stays a Python subclass). No slot is declared twice along the classes (a
    Python slot over a C one would split the state), and a pickle, a deep or shallow copy and
    ``clone()`` of a game with a claim window open (``Window`` and its subclasses are extension
    types too) carry every slot and play on exactly as the original does, compiled or pure."""
    _require_compiled()
    runs = {}
    for pure in ("0", "1"):
        done = subprocess.run([sys.executable, "-c", GAME_COPIES], env=dict(os.environ, CNMAHJONG_PURE=pure),
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        runs[pure] = json.loads(done.stdout)
    assert runs["0"]["extension"] == {name: [f"{name.capitalize()}Game", "TableGame"]
                                      for name in ("changsha", "hangzhou", "sichuan")}
    assert runs["1"]["extension"] == {"changsha": [], "hangzhou": [], "sichuan": []}
    assert runs["0"]["copies"] == runs["1"]["copies"]
    assert runs["0"]["window"] == runs["1"]["window"] == {"changsha": "_Window", "hangzhou": "ClaimWindow",
                                                          "sichuan": "ClaimWindow"}
    for run in runs.values():  # only Sichuan's 换三张 asks a seat for more picks in one window
        assert run["more_picks"] == {"changsha": False, "hangzhou": False, "sichuan": True}
    for rows, payments in runs["0"]["copies"].values():
        for same, copied_payments in zip(rows[::2], rows[1::2], strict=True):
            assert all(same) and copied_payments == payments


def test_no_extensions_build_a_pure_package(tmp_path) -> None:
    """``CNMAHJONG_NO_EXTENSIONS=1`` (and a missing compiler) leave the package pure Python."""
    setup = _load_setup()
    assert setup.extensions_wanted({}) is True
    assert setup.extensions_wanted({"CNMAHJONG_NO_EXTENSIONS": "1"}) is False
    with pytest.raises(ValueError, match="CNMAHJONG_NO_EXTENSIONS must be 1 or 0"):
        setup.extensions_wanted({"CNMAHJONG_NO_EXTENSIONS": "yes"})


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_accelerated_twin_is_used_only_when_allowed(ruleset: str) -> None:
    _require_compiled()
    code = (f"from cnmahjong.envs.hotpath import accelerated; import cnmahjong.envs.{ruleset}.observation as o; "
            f"print(accelerated('cnmahjong.envs.{ruleset}._planes') is not None, o._compiled_planes is not None, "
            "o._compiled_planes_into is not None)")
    for pure, used in (("0", "True True True"), ("1", "False False False")):
        out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, CNMAHJONG_PURE=pure), cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
        assert out == used, (pure, out)
    with pytest.raises(ModuleNotFoundError, match="CNMAHJONG_PURE=1"):
        hotpath.SourceFinder().find_spec(f"cnmahjong.envs.{ruleset}._planes")
    with pytest.raises(ValueError, match="not one of the accelerated modules"):
        hotpath.accelerated("cnmahjong.envs.core.engine")


def test_pure_switch_rejects_other_values() -> None:
    assert hotpath.pure_requested({}) is False
    assert hotpath.pure_requested({"CNMAHJONG_PURE": "1"}) is True
    with pytest.raises(ValueError, match="CNMAHJONG_PURE must be 1 .* got 'yes'"):
        hotpath.pure_requested({"CNMAHJONG_PURE": "yes"})


def test_pure_finder_imports_sources_and_the_flag_says_so() -> None:
    code = ("import cnmahjong, cnmahjong.envs.core.engine as e; "
            "print(cnmahjong.COMPILED, e.__file__.endswith('.py'))")
    for pure, said in (("1", "False True"), ("0", "True False")):
        out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, CNMAHJONG_PURE=pure), cwd="/",
                             capture_output=True, text=True, check=True).stdout.strip()
        if pure == "0":
            _require_compiled()
        assert out == said, (pure, out)


def test_compiled_sources_have_no_function_annotations_for_cython_to_read() -> None:
    strip_annotations = _load_setup().strip_annotations

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


@pytest.mark.slow
def test_without_a_c_compiler_the_build_succeeds_pure(tmp_path) -> None:
    """The extensions are optional: with a compiler that always fails the wheel still builds, says
    why, and holds every source and no extension module (so its package runs as pure Python)."""
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", ".git", "build", "dist", "runs", "*.so",
                                                             "__pycache__", ".hypothesis", "*.egg-info"))
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
                          "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True,
                         env=dict(os.environ, CC="/bin/false"))
    assert run.returncode == 0, run.stderr[-2000:]
    assert "compiled hot path not built (cnmahjong.envs.core.tiles: CompileError" in run.stdout + run.stderr
    wheel = next((tmp_path / "dist").glob("cnmahjong-*.whl"))
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    assert "cnmahjong/envs/core/tiles.py" in names and not [n for n in names if n.endswith(".so")]


_TWIN_VS_INCREMENTAL = """
import dataclasses, json, random, sys
import importlib
ruleset, hands = sys.argv[1], int(sys.argv[2])
o = importlib.import_module(f"cnmahjong.envs.{ruleset}.observation")
from cnmahjong.envs.core.ruleset import get_ruleset
twin = importlib.import_module(f"cnmahjong.envs.{ruleset}._planes")
assert o._compiled_planes is twin.planes
o._compiled_planes = o._compiled_planes_into = None  # the encoder's own (incremental) path from here on
game_class = get_ruleset(ruleset).game
greedy = importlib.import_module(f"cnmahjong.envs.{ruleset}.heuristic").heuristic_on_game
expert = importlib.import_module(f"cnmahjong.envs.{ruleset}.expert").expert
rng = random.Random(11)
ALTERNATE = {"pass_peng_lock": True, "reveal_angang_tile": False}
seen, states = set(), 0
for h in range(hands):
    seed = rng.getrandbits(63)
    game = game_class(seed=seed, dealer=h % 4)
    changes = {k: v for k, v in ALTERNATE.items() if hasattr(game.config, k)}
    if h % 2 and changes:  # every other hand with the options that show more (where the ruleset has them)
        game = game_class(dataclasses.replace(game.config, **changes), seed=seed, dealer=h % 4)
    encoder = o.Encoder()
    buf = bytearray(len(twin.planes(game, 0)) + 5)
    while game.phase != "done":
        for seat in range(4):
            want = encoder.planes(game, seat)
            twin.planes_into(game, seat, buf, 5)
            assert twin.planes(game, seat) == want == bytes(buf[5:]), (h, seat, game.phase)
            states += 1
        for s in range(4):  # what the hands reached (hidden kongs of others, 飘, 失碰, claims)
            if any(len(m.tiles) == 4 for m in game.melds[s]): seen.add("kong")
            if any(m.hidden for m in game.melds[s]): seen.add("hidden kong")
            if not getattr(game.config, "reveal_angang_tile", True) and any(m.kind == "angang" for m in game.melds[s]):
                seen.add("face-down kong")
            if getattr(game, "louhu", [0] * 4)[s]: seen.add("louhu")
            if getattr(game, "declared", [0] * 4)[s]: seen.add("declared")
            if getattr(game, "piao", [0] * 4)[s]: seen.add("piao")
            if getattr(game, "shipeng", [0] * 4)[s]: seen.add("shipeng")
            if getattr(game, "piao_pending", None): seen.add("piao pending")
            if getattr(game, "revealed", None): seen.add("revealed")
            if getattr(game, "threshold", [None] * 4)[s] is not None: seen.add("passed hu")
            if getattr(game, "peng_lock", [0] * 4)[s]: seen.add("peng lock")
            if getattr(game, "ledger", None): seen.add("kong money")
            if getattr(game, "_wins", None): seen.add("won")
            window = game._window
            if window is not None and window.kind == "swap" and window.picks: seen.add("picks")
        seat, actions = next(iter(game.pending.items()))
        if seat == 1:
            action = greedy(game, seat, actions)
        elif seat == 3:
            action = expert(encoder(game, seat), actions)
        else:
            action = rng.choice(actions)
        game.step(seat, action)
print(json.dumps({"states": states, "seen": sorted(seen)}))
"""


@pytest.mark.parametrize(("ruleset", "reached"), [
    ("changsha", {"kong", "louhu", "declared"}),
    ("hangzhou", {"kong", "hidden kong", "piao", "shipeng", "piao pending"}),
    ("sichuan", {"kong", "face-down kong", "passed hu", "peng lock", "kong money", "won", "picks"}),
])
def test_each_twin_writes_the_bytes_of_its_encoders_own_path(ruleset: str, reached: set[str]) -> None:
    """The compiled twin (``planes`` and ``planes_into`` at an offset) against the encoder's
    incremental path in the same compiled process, every seat at every step of 400 seeded hands
    (one seat greedy, one the expert, two random) that reach the rarer public states (kongs,
    others' hidden kongs, 飘, 失碰, 漏胡, 起手胡, 过胡, PENG locks, kong money, seats
    that won and left, 换三张 picks; every other hand with pass_peng_lock on and reveal_angang_tile off)."""
    _require_compiled()
    run = subprocess.run([sys.executable, "-c", _TWIN_VS_INCREMENTAL, ruleset, "400"], cwd=ROOT, text=True,
                         capture_output=True, env=dict(os.environ, CNMAHJONG_PURE="0"))
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert out["states"] > 400 * 4 * 40
    assert reached <= set(out["seen"]), out["seen"]


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou"])
def test_a_twin_refuses_counts_that_disagree_before_the_sums_could_overflow(ruleset: str) -> None:
    """The twins' UNSEEN planes come from per-kind sums of the count rows (``planes.pxd``'s
    ``seen_add``, ``unseen_into``): more than four copies of a kind seen is an error naming the kind,
    and a count past 15 in a row is refused before it could carry into the next kind's byte."""
    _require_compiled()
    import importlib

    import numpy as np

    twin = importlib.import_module(f"cnmahjong.envs.{ruleset}._planes")
    rs = importlib.import_module("cnmahjong.envs.core.ruleset").get_ruleset(ruleset)
    game = rs.new_hand(rs.as_config(rs.default_rules), np.random.default_rng(4))
    before = twin.planes(game, 0)
    k = next(t for t in range(len(game.hands[0])) if game.hands[0][t])  # a kind seat 0 holds
    copies = game.hands[0][k]
    game.river_counts[1][k] = 5 - copies  # one copy more than the four there are, in seat 1's river
    with pytest.raises(ValueError, match=f"kind {k}: 5 copies seen from seat 0"):
        twin.planes(game, 0)
    game.river_counts[1][k] = 16  # within a byte, but 16 rows of it would carry
    with pytest.raises(ValueError, match="a count row holds a count past 15"):
        twin.planes(game, 0)
    game.river_counts[1][k] = 0
    assert twin.planes(game, 0) == before


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_a_twin_reads_a_games_lists_checked_a_short_one_or_none_an_error(ruleset: str) -> None:
    """The twins index a game's per-seat lists as C lists (``_write``'s typed locals), bounds and
    None checked: a game whose lists a caller shortened or emptied is an error, never a read past
    the list (the slots are public, writable from Python)."""
    _require_compiled()
    import importlib

    import numpy as np

    twin = importlib.import_module(f"cnmahjong.envs.{ruleset}._planes")
    rs = importlib.import_module("cnmahjong.envs.core.ruleset").get_ruleset(ruleset)
    game = rs.new_hand(rs.as_config(rs.default_rules), np.random.default_rng(4))
    before = twin.planes(game, 2)
    melds, rivers = game.melds, game.rivers
    game.melds = melds[:2]  # seats 2 and 3 missing
    with pytest.raises(IndexError):
        twin.planes(game, 2)
    game.melds, game.rivers = melds, None
    with pytest.raises((TypeError, AttributeError)):
        twin.planes(game, 2)
    game.rivers = rivers
    assert twin.planes(game, 2) == before


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_a_twin_refuses_a_tile_kind_outside_its_row(ruleset: str) -> None:
    """A river tile past the last kind (or negative) is a ValueError naming it (``planes.pxd``'s
    ``kind_of``, its error raised out of line by ``bad_kind``), never a write outside the plane."""
    _require_compiled()
    import importlib

    import numpy as np

    twin = importlib.import_module(f"cnmahjong.envs.{ruleset}._planes")
    rs = importlib.import_module("cnmahjong.envs.core.ruleset").get_ruleset(ruleset)
    game = rs.new_hand(rs.as_config(rs.default_rules), np.random.default_rng(4))
    before = twin.planes(game, 0)
    n = game.NUM_KINDS
    for bad in (n, -1):
        game.rivers[1].append(bad)
        with pytest.raises(ValueError, match=f"tile kind {bad} outside 0..{n - 1}"):
            twin.planes(game, 0)
        game.rivers[1].pop()
    assert twin.planes(game, 0) == before


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_a_twin_reads_a_phase_by_its_value_and_refuses_one_it_does_not_know(ruleset: str) -> None:
    """The PHASE plane's index (``engine.label_index``, as the log's: the module's own string found
    by identity) is the same for an equal string that is another object, and a phase outside the
    ruleset's is a ValueError naming it, not a write past the group."""
    _require_compiled()
    import importlib

    import numpy as np

    twin = importlib.import_module(f"cnmahjong.envs.{ruleset}._planes")
    rs = importlib.import_module("cnmahjong.envs.core.ruleset").get_ruleset(ruleset)
    game = rs.new_hand(rs.as_config(rs.default_rules), np.random.default_rng(4))
    before, phase = twin.planes(game, 0), game.phase
    game.phase = "".join(list(phase))  # equal, another object
    assert game.phase is not phase and twin.planes(game, 0) == before
    game.phase = "bogus"
    with pytest.raises(ValueError, match="'bogus' is none of the labels"):
        twin.planes(game, 0)


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_a_twin_refuses_a_seat_or_a_game_before_it_clears_the_batch_row(ruleset: str) -> None:
    """``planes`` and ``planes_into`` of each twin (one ``envs.core.planes.Twin`` for the three) refuse
    a seat outside 0..3 and another ruleset's game before a byte of the caller's row is cleared."""
    _require_compiled()
    import importlib

    import numpy as np

    twin = importlib.import_module(f"cnmahjong.envs.{ruleset}._planes")
    rs = importlib.import_module("cnmahjong.envs.core.ruleset").get_ruleset(ruleset)
    game = rs.new_hand(rs.as_config(rs.default_rules), np.random.default_rng(4))
    size = len(twin.planes(game, 0))
    buf = bytearray(b"\x07" * (size + 3))
    for seat, error, words in ((-1, ValueError, "seat=-1 out of range: allowed 0..3"),
                               (4, ValueError, "seat=4 out of range: allowed 0..3"),
                               (1.5, TypeError, "seat must be an integer"),  # a C int argument took 1 before
                               (True, TypeError, "seat must be an integer, got the bool")):
        with pytest.raises(error, match=words):
            twin.planes(game, seat)
        with pytest.raises(error, match=words):
            twin.planes_into(game, seat, buf, 3)
        assert buf == bytearray(b"\x07" * (size + 3))
    other = "sichuan" if ruleset != "sichuan" else "changsha"  # another ruleset's game: refused by its class
    ors = importlib.import_module("cnmahjong.envs.core.ruleset").get_ruleset(other)
    foreign = ors.new_hand(ors.as_config(ors.default_rules), np.random.default_rng(4))
    with pytest.raises(TypeError, match=f"written from a {type(game).__name__}, got {type(foreign).__name__}"):
        twin.planes_into(foreign, 0, buf, 3)
    assert buf == bytearray(b"\x07" * (size + 3))
    twin.planes_into(game, 2, buf, 3)
    assert bytes(buf[3:]) == twin.planes(game, 2) and buf[:3] == b"\x07" * 3


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_a_twin_and_its_encoder_spec_pickle_by_reference(ruleset: str) -> None:
    """A ``Twin`` (a C function pointer inside) pickles as its module's name: unpickled it is that
    module's ``_twin`` itself, so an ``EncoderSpec`` naming it (``planes_into``) travels to worker
    processes as before; a module holding no twin is refused by name."""
    _require_compiled()
    import importlib
    import pickle

    from cnmahjong.envs.core.planes import twin_in

    twin = importlib.import_module(f"cnmahjong.envs.{ruleset}._planes")._twin
    assert pickle.loads(pickle.dumps(twin)) is twin
    spec = importlib.import_module("cnmahjong.envs.core.ruleset").get_ruleset(ruleset).encoding
    back = pickle.loads(pickle.dumps(spec))
    assert back == spec and back.planes_into.__self__ is twin
    with pytest.raises(TypeError, match="cnmahjong.envs.core.planes holds no planes twin"):
        twin_in("cnmahjong.envs.core.planes")


def test_zeroed_count_vectors_are_new_zeroed_bytearrays_of_any_size() -> None:
    """``engine.zeroed`` (compiled: copied from a zeroed C buffer up to 64 kinds) is
    ``bytearray(n)`` for every size, a new object each call; ``zero_counts`` gives one per seat,
    none shared, and a change to one leaves the buffer and the others zero."""
    from cnmahjong.envs.core.engine import NUM_SEATS, count_hands, zero_counts, zeroed

    for n in (0, 1, 27, 34, 64, 65, 200):
        a, b = zeroed(n), zeroed(n)
        assert type(a) is bytearray and a == bytearray(n) and a is not b
    rows = zero_counts(27)
    assert len(rows) == NUM_SEATS and len({id(r) for r in rows}) == NUM_SEATS
    rows[0][3] = 9
    assert rows[1] == bytearray(27) and zeroed(27) == bytearray(27) and zero_counts(27)[0] == bytearray(27)
    assert count_hands([[0, 0, 26], []], 27) == [bytearray([2] + [0] * 25 + [1]), bytearray(27)]

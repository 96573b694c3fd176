"""The typed hot path (Cython's pure-Python mode): the C declarations in the ``.py`` sources, the
stand-ins that let those sources run where Cython is not installed, and the typed functions
compiled against the same functions run as Python (without Cython) on random inputs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from cnmahjong.envs import hotpath
from cnmahjong.envs.core import no_cython
from tests.test_compiled import _load_setup, _require_compiled

ROOT = Path(__file__).resolve().parent.parent
FALLBACK = """try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython
"""


def _typed_sources() -> dict[str, str]:
    source_of = _load_setup().source_of
    found = {}
    for module in hotpath.MODULES:
        text = source_of(module, False).read_text(encoding="utf-8")
        if re.search(r"\bcython\.", text):
            found[module] = text
    return found


def test_the_typed_modules_are_hot_and_fall_back_to_the_stand_ins():
    """Declarations live only in compiled (hot) modules, each importing ``cython`` with the fallback."""
    typed = _typed_sources()
    assert {"cnmahjong.envs.core.wild", "cnmahjong.envs.changsha.patterns"} <= set(typed)
    for module, text in typed.items():
        assert FALLBACK in text, f"{module} uses cython.* without the fallback import"
    outside = [p for p in (ROOT / "envs").rglob("*.py") if "cython." in p.read_text(encoding="utf-8")
               and ".".join(("cnmahjong", *p.relative_to(ROOT).with_suffix("").parts)) not in typed
               and p.name != "no_cython.py"]
    assert not outside, f"C declarations in modules that are never compiled: {outside}"


def test_the_stand_ins_cover_every_name_the_sources_use():
    used = set()
    for text in _typed_sources().values():
        used |= set(re.findall(r"\bcython\.([A-Za-z_]+)", text))
    missing = sorted(n for n in used if not hasattr(no_cython, n))
    assert not missing, f"cnmahjong.envs.core.no_cython lacks {missing}"
    assert no_cython.locals(k=no_cython.int)(len) is len  # declarations change nothing as Python
    assert no_cython.cast(no_cython.longlong, 7) == 7


PROBE = r"""
import json, random, sys
from cnmahjong.envs import hotpath
from cnmahjong.envs.core import engine, shapes, wall, wild
from cnmahjong.envs.changsha import patterns

rng = random.Random(11)
out = {"status": hotpath.status(), "cython": "cython" in sys.modules and sys.modules["cython"] is not None, "rows": []}
for i in range(3000):
    c = [0] * 34
    for _ in range(rng.choice((1, 4, 7, 10, 13))):
        k = rng.randrange(34)
        if c[k] < 4:
            c[k] += 1
    b, w, m = bytes(c), rng.randrange(4), rng.randrange(3)
    s27 = c[:27]
    b27 = bytes(s27)
    melded = [0] * 27
    for _ in range(3 * rng.randrange(2)):
        melded[rng.choice((1, 4, 7, 10, 3))] += 1
    out["rows"].append([wild.shanten(b, w, m), wild.shanten_after_draw(b, w, m), wild.shanten_after_discard(b, w, m),
                        wild.seven_pairs_completions(b, w),
                        patterns.shanten_after_draw(s27, melded, m) if sum(s27) % 3 == 1 else None,
                        patterns.shanten_after_discard(s27, melded, m) if sum(s27) % 3 == 2 else None,
                        shapes._table_shanten(b27, m), shapes._table_shanten(b, m),
                        shapes._table_one_changed(b, m, 1) if shapes._in_tables(b, 34, 1) else None,
                        shapes._table_one_changed(b27, m, -1) if shapes._in_tables(b27, 27, -1) else None,
                        shapes._table_wait_mask(b27) if shapes._in_tables(b27, 27, 1) else None,
                        shapes.hand_wait_mask(b27, bytes(melded), m, 1 << 5, 1 << 6),
                        patterns.wait_mask(s27, melded, m), patterns._all_jiang(s27)])
    c2 = list(c)  # a 3n+2 hand (and a few over 14 tiles: the dict path) for the win and 爆头 tests
    for _ in range(rng.choice((1, 1, 1, 4))):
        k = rng.randrange(34)
        c2[k] += c2[k] < 4
    b2 = bytes(c2)
    out["rows"].append([wild.sets_need(b), wild.sets_need(b2), wild.standard_need(b2),
                        [wild.complete(b2, w2, pairs) for w2 in range(5) for pairs in (False, True)]])
for i in range(2000):  # dealt hands (§3.2's opening patterns), some crowded into few kinds so that each shows
    kinds = rng.sample(range(27), rng.choice((5, 8, 27)))
    c = [0] * 27
    while sum(c) < rng.choice((13, 14)):
        k = rng.choice(kinds)
        c[k] += c[k] < 4
    out["rows"].append(patterns.opening_present(c) + patterns.opening_present(bytearray(c)))
from cnmahjong.envs.core import planes
for i in range(500):  # thermometer planes of count rows, bytes and bytearray (every encoder's)
    row = bytes(rng.randrange(5) for _ in range(rng.choice((0, 27, 34, 42))))  # 42: past the C buffer
    tiles = [rng.randrange(27) for _ in range(rng.randrange(20))]
    out["rows"].append(f"{planes.therm4(row).hex()} {planes.therm2(bytearray(row)).hex()} "
                       f"{planes.therm(row, 1 + i % 4).hex()} {planes.therm_of_kinds(tiles, 27, 1 + i % 4).hex()} "
                       f"{planes.Rows(27).counts(tiles).hex()} "
                       f"{type(planes.therm4(bytearray(row))).__name__}")
for i in range(400):  # rows written in place (write_rows: an encoder's planes_into), refused alike
    rows = [bytes(rng.randrange(256) for _ in range(rng.randrange(40))) for _ in range(rng.randrange(7))]
    rows = [bytearray(r) if j % 2 else r for j, r in enumerate(rows)]
    size = sum(map(len, rows)) + (rng.choice((-1, 1)) if i % 5 == 0 else 0)
    buf = bytearray(b"\x07" * (max(size, 0) + 8))
    offset = rng.choice((0, 3, 8, 8, -1, len(buf)))
    try:
        planes.write_rows(tuple(rows) if i % 3 else rows, buf, offset, size)
        out["rows"].append(buf.hex())
    except ValueError as e:
        out["rows"].append(f"{e} {buf.hex()}")
for rows, buf in (([b"ab", "cd"], bytearray(4)), ([b"ab", [1, 2]], bytearray(4)), ([b"abcd"], bytes(4))):
    try:  # a row or a buffer of another type: a TypeError (its wording is the language's), nothing written
        planes.write_rows(rows, buf, 0, 4)
        out["rows"].append("accepted")
    except TypeError:
        out["rows"].append(f"TypeError {bytes(buf).hex()}")
from cnmahjong.envs.hangzhou import patterns as hz_patterns
for i in range(300):  # natural counts (§1 of Hangzhou) of a game's bytearray: the C copy
    c = bytearray(rng.randrange(5) for _ in range(34))
    out["rows"].append([[b.hex(), w] for b, w in (hz_patterns.natural(c, k) for k in range(34))])
for i in range(300):  # the seeded shuffle (§1), and a wall's tiles checked and read back
    tiles = wall.shuffled(random.Random(i), (27, 34)[i % 2])
    out["rows"].append([tiles, wall.Wall(tiles[i % 60:], len(tiles)).tiles(),
                        engine.count_hands([tiles[:13]], 34)[0].hex()])


class TiedKeys:  # a generator whose 64-bit keys repeat: the shuffle's sort keeps ties in index order
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def getrandbits(self, k):
        keys = [self.rng.randrange(3) << (62 * self.rng.randrange(2)) for _ in range(k // 64)]
        return int.from_bytes(b"".join(x.to_bytes(8, "little") for x in keys), "little")


out["rows"] += [wall.shuffled(TiedKeys(i), 27) for i in range(50)]
from cnmahjong.envs.core.ruleset import get_ruleset
for name in ("changsha", "hangzhou", "sichuan"):  # action masks (legal_mask_into's C loops) along random play
    rs = get_ruleset(name)
    for seed in range(20):
        game = rs.game(rs.as_config(rs.default_rules), seed=seed)
        while not game.done:
            seat = min(game.pending)
            out["rows"].append(game.legal_mask(seat).hex())
            legal = game.pending[seat]
            assert legal == sorted(legal), (name, legal)  # as legal_actions says: the mask's range check reads the ends
            game.step(seat, legal[rng.randrange(len(legal))])
for bad in ([1, 2, True], [0, 34], [-1], [0, "a"], [0, 2.0]):
    try:
        wall.Wall(bad)
        out["rows"].append("accepted")
    except (TypeError, ValueError) as e:
        out["rows"].append(f"{type(e).__name__}: {e}")
for bad in (bytes(33), bytes(35)):
    try:
        wild.shanten(bad, 0)
        out["rows"].append("accepted")
    except ValueError as e:
        out["rows"].append(str(e))
print(json.dumps(out))
"""

NO_CYTHON = "import sys; sys.modules['cython'] = None\n"
"""Makes ``import cython`` fail, as in an install without Cython."""


def _probe(pure: bool, without_cython: bool) -> dict:
    env = dict(os.environ, CNMAHJONG_PURE="1" if pure else "0")
    code = (NO_CYTHON if without_cython else "") + PROBE
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_typed_functions_compiled_equal_them_run_as_python_without_cython():
    """3,000 random hands through every typed function: the compiled build against the sources run
    as Python where ``import cython`` fails (the stand-ins), wrong lengths refused alike."""
    _require_compiled()
    plain = _probe(pure=True, without_cython=True)
    compiled = _probe(pure=False, without_cython=False)
    assert set(plain["status"].values()) == {"pure"} and not plain["cython"]
    assert set(compiled["status"].values()) == {"compiled"}
    assert plain["rows"] == compiled["rows"]
    assert plain["rows"][-2:] == ["natural counts must be 34 bytes, got 33", "natural counts must be 34 bytes, got 35"]
    assert all(r != "accepted" for r in plain["rows"][-7:-2])  # a bool, 34, -1, a str, a float: no tiles
    shown = {p for r in plain["rows"] if isinstance(r, list) and r and isinstance(r[0], str) for p in r}
    assert shown == {"SIXI", "BANBAN", "QUEYISE", "LIULIUSHUN", "SANTONG", "YIZHIHUA"}  # every pattern met

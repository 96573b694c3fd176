"""Channel tables (``envs/core/channels.py``): each encoder's declaration (its table on the ruleset's
documentation page is checked by tests/test_docs.py) lays its groups out end to end, gives the module
constants, agrees with the compiled twin's and the reference encoder's copies, and decodes real
observations back to what was encoded."""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cnmahjong.envs.changsha import observation as cs_obs
from cnmahjong.envs.changsha.env import raw_env as cs_env
from cnmahjong.envs.core.channels import (
    ChannelTable,
    EncoderSpec,
    Group,
    Value,
    layout_difference,
    layout_of,
    refuse_unless_written_for,
    repeat_kinds,
)
from cnmahjong.envs.hangzhou import observation as hz_obs
from cnmahjong.envs.hangzhou.env import raw_env as hz_env
from cnmahjong.envs.sichuan import observation as sc_obs

ROOT = Path(__file__).resolve().parents[1]
ENCODERS = [pytest.param(cs_obs, id="cs-v0"), pytest.param(hz_obs, id="hz-v0")]


@pytest.mark.parametrize("obs", ENCODERS)
def test_groups_are_contiguous_and_cover_the_shape(obs) -> None:
    table = obs.CHANNELS
    covered: list[str] = []
    for name, start, planes, blocks, _ in table.layout():
        assert start == len(covered), f"{name} starts at {start}, after {len(covered)} channels"
        blocks_seen = [table.slice(name, b) for b in range(blocks)]
        assert [(s.start, s.stop) for s in blocks_seen] == [(start + b * planes, start + (b + 1) * planes)
                                                          for b in range(blocks)]
        assert table.slice(name) == slice(start, start + planes * blocks)
        covered += [name] * (planes * blocks)
    assert len(covered) == table.size == obs.NUM_CHANNELS == obs.SHAPE[0]
    assert obs.SHAPE == (obs.NUM_CHANNELS, obs.NUM_KINDS)
    with pytest.raises(IndexError):
        table.slice("HAND", 1)


@pytest.mark.parametrize("obs", ENCODERS)
def test_module_constants_and_spec_follow_from_the_table(obs) -> None:
    for group in obs.CHANNELS:
        assert getattr(obs, group.name) == obs.CHANNELS.start(group.name), group.name
    spec = obs.ENCODING
    assert isinstance(spec, EncoderSpec)
    assert (spec.name, spec.channels, spec.shape) == (obs.ENCODER, obs.CHANNELS, obs.SHAPE)
    assert spec.encoder is obs.Encoder and spec.to_float is obs.planes_to_float
    assert obs.CHANNELS["RECENT_DISCARDS"].planes == obs.RECENT


TWINS = [pytest.param(cs_obs, "changsha", 27, id="cs-v0"), pytest.param(hz_obs, "hangzhou", 34, id="hz-v0"),
         pytest.param(sc_obs, "sichuan", 27, id="sc-v0")]
"""Each compiled twin ``envs/<ruleset>/_planes.pyx``: the encoder module it twins, its ruleset, kinds."""


def _written_for_of_the_twin(ruleset: str) -> tuple:
    """``WRITTEN_FOR`` of a ``_planes.pyx``, read from its source (the twin is not importable in pure mode)."""
    source = (ROOT / "envs" / ruleset / "_planes.pyx").read_text(encoding="utf-8")
    start = source.index("WRITTEN_FOR = (")
    end = source.index("\n)\n", start) + 2
    return ast.literal_eval(source[start:end].split("=", 1)[1].strip())


@pytest.mark.parametrize(("obs", "ruleset", "kinds"), TWINS)
def test_compiled_twin_was_written_for_the_declared_layout(obs, ruleset: str, kinds: int) -> None:
    written = layout_of(_written_for_of_the_twin(ruleset))
    assert layout_difference(obs.CHANNELS.layout(), written, "_planes.pyx") == ""
    assert kinds == obs.SHAPE[1]
    moved = ChannelTable((Group("HAND", 4, "hand", Value.THERMOMETER), *obs.CHANNELS.groups[2:]))
    diff = layout_difference(moved.layout(), written, "_planes.pyx")
    assert diff.startswith(f"group 1: the channel table has {moved.layout()[1]}")
    assert diff.endswith(f"_planes.pyx was written for {written[1]}")


def test_a_twin_refuses_other_kinds_or_groups_with_what_differs() -> None:
    written = _written_for_of_the_twin("hangzhou")
    refuse_unless_written_for(hz_obs.CHANNELS, 34, written, 34, "hz-v0", "_planes.pyx")  # the shipped pair
    with pytest.raises(ImportError, match="34 kinds a plane, _planes.pyx was written for 27"):
        refuse_unless_written_for(hz_obs.CHANNELS, 34, written, 27, "hz-v0", "_planes.pyx")
    with pytest.raises(ImportError, match=r"the hz-v0 layout changed since _planes.pyx was written \(group 20: "
                                          r"the channel table has None"):
        refuse_unless_written_for(ChannelTable(hz_obs.CHANNELS.groups[:-1]), 34, written, 34, "hz-v0", "_planes.pyx")


_REFUSE = """
import importlib, sys, types
fake = types.ModuleType("cnmahjong.envs.{ruleset}.observation")
sys.modules[fake.__name__] = fake  # before the package imports the real one (and the twin with it)
from cnmahjong.envs.core.channels import ChannelTable, Group, Value
fake.NUM_KINDS = fake.KINDS = {kinds}
fake.CHANNELS = ChannelTable((Group("HAND", 4, "h", Value.THERMOMETER), Group("EXTRA", 1, "x", Value.FLAG)))
import cnmahjong.envs.{ruleset} as package
package.observation = fake
try:
    importlib.import_module("cnmahjong.envs.{ruleset}._planes")
except ImportError as exc:
    print(exc)
"""


@pytest.mark.parametrize(("obs", "ruleset", "kinds"), TWINS)
def test_compiled_twin_refuses_a_layout_it_was_not_written_for(obs, ruleset: str, kinds: int) -> None:
    if not list((ROOT / "envs" / ruleset).glob("_planes.*.so")):
        pytest.skip("the twin is not built (pure install): nothing to refuse")
    env = {k: v for k, v in os.environ.items() if k != "CNMAHJONG_PURE"}
    out = subprocess.run([sys.executable, "-c", _REFUSE.format(ruleset=ruleset, kinds=kinds)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert (f"the {obs.ENCODER} layout changed since _planes.pyx was written (group 1: the channel table has "
            "('EXTRA'") in out, out


def test_reference_encoder_layout_is_the_declared_one() -> None:
    from tests import reference_encoder as ref

    assert cs_obs.CHANNELS.layout() == ref.LAYOUT
    assert ref.AT["NUM_CHANNELS"] == cs_obs.NUM_CHANNELS
    ref.check_layout()


def test_declarations_are_checked() -> None:
    with pytest.raises(ValueError, match="upper-case identifier"):
        Group("hand", 4, "hand", Value.THERMOMETER)
    with pytest.raises(ValueError, match="need ``per``"):
        Group("MELDS", 4, "melds", Value.THERMOMETER, 4)
    with pytest.raises(ValueError, match="one label per plane"):
        Group("PHASE", 3, "phase", Value.CHOICE, labels=("a", "b"))
    with pytest.raises(ValueError, match="is one plane"):
        Group("DRAWN", 2, "drawn", Value.FLAG)
    with pytest.raises(ValueError, match="has a scale"):
        Group("WALL", 1, "wall", Value.FRACTION)
    with pytest.raises(ValueError, match="declared twice"):
        ChannelTable((Group("HAND", 4, "a", Value.THERMOMETER), Group("HAND", 1, "b", Value.KINDS)))
    with pytest.raises(ValueError, match="119 channels"):
        EncoderSpec("x", cs_obs.CHANNELS, (118, 27), cs_obs.Encoder, cs_obs.planes_to_float)
    assert repeat_kinds([0, 2, 1]) == [1, 1, 2]


# ------------------------------------------------------------------ round trips on real observations
def _planes_of(group: Group, value, kinds: int) -> np.ndarray:
    """One block of ``group`` holding ``value``, written from the value kind's definition alone."""
    out = np.zeros((group.planes, kinds), dtype=np.float32)
    if group.value is Value.THERMOMETER:
        for level in range(group.planes):
            out[level] = [c > level for c in value]
    elif group.value is Value.KINDS:
        out[0, value] = 1
    elif group.value is Value.ONE_HOT:
        for plane, kind in enumerate([value] if group.planes == 1 else value):
            if kind is not None:
                out[plane, kind] = 1
    elif group.value is Value.CHOICE:
        out[group.labels.index(value)] = 1
    elif group.value is Value.FLAG:
        out[0] = value
    elif group.value is Value.LEVEL:
        out[:value] = 1
    else:
        out[0] = value / group.scale
    return out


def _check_round_trip(obs, game, seat: int, planes: np.ndarray) -> None:
    """Every group decodes to a value that, written back, is the observation's planes; the uint8
    planes decode alike; the ruleset's ``decode_*`` helpers say what the game holds."""
    table, kinds = obs.CHANNELS, obs.NUM_KINDS
    raw = np.frombuffer(obs.Encoder().planes(game, seat), dtype=np.uint8).reshape(obs.SHAPE)
    for group in table:
        whole = table.decode(planes, group.name)
        values = whole if group.blocks > 1 else [whole]
        assert len(values) == group.blocks
        for b, value in enumerate(values):
            assert table.decode(planes, group.name, b) == value
            np.testing.assert_array_equal(planes[table.slice(group.name, b)], _planes_of(group, value, kinds),
                                          err_msg=f"{group.name} block {b}: {value!r}")
        assert table.decode(raw, group.name) == whole, group.name
    rel = [(seat + r) % 4 for r in range(4)]
    assert obs.decode_hand(planes) == list(game.hands[seat])
    assert obs.decode_phase(planes) == game.phase
    own_turn = game.turn == seat and game.phase == "discard" and game.drawn is not None
    window = game._window
    if obs is cs_obs:
        assert obs.decode_melded(planes, 0) == list(game.melded[seat])
        assert [obs.decode_melded(planes, r) for r in range(4)] == [list(game.melded[s]) for s in rel]
        assert obs.decode_claim(planes) == sorted(game.claim_tiles)
        assert obs.decode_drawn(planes) == (game.drawn if own_turn else None)
        assert obs.decode_wall(planes) == game.wall.remaining
        seen = [sum(game.melded[s][k] + game.river_counts[s][k] + (game.shown[s][k] if s != seat else 0)
                    for s in range(4)) + game.hands[seat][k] + game.revealed.count(k) for k in range(kinds)]
        assert obs.decode_unseen(planes) == [4 - n for n in seen]
    else:
        assert obs.decode_indicator(planes) == game.indicator
        assert obs.decode_melded(planes, 0) == list(game.melded[seat])
        assert obs.decode_claim(planes) == (window.tiles[0] if window is not None else None)
        unseen = obs.decode_unseen(planes)
        assert all(0 <= n <= 4 - game.hands[seat][k] for k, n in enumerate(unseen))


@pytest.mark.parametrize(("obs", "make"), [pytest.param(cs_obs, cs_env, id="cs-v0"),
                                           pytest.param(hz_obs, hz_env, id="hz-v0")])
def test_decoding_round_trips_on_played_observations(obs, make) -> None:
    rng = random.Random(3)
    for seed in (0, 1):
        e = make()
        e.reset(seed=seed)
        for step, _agent in enumerate(e.agent_iter()):
            if step >= 120:
                break
            observation, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            game = e.unwrapped.game
            for name in e.possible_agents:
                planes = e.observe(name)["observation"]
                assert planes.dtype == np.float32 and planes.shape == obs.SHAPE
                _check_round_trip(obs, game, e.unwrapped.agent_name_mapping[name], planes)
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize("obs", [*ENCODERS, pytest.param(sc_obs, id="sc-v0")])
def test_an_encoder_takes_a_seat_by_the_same_rule_pure_or_compiled(obs) -> None:
    """``planes`` (and ``planes_into`` where an encoder has one) take the seat by one rule
    (``envs.core.planes.seat_arg``): an int or numpy integer in 0..3; a float, a bool or a seat out
    of range is refused with the same words whether the pure source or a compiled twin writes the
    planes (a twin's C int argument took 1.5 as 1, the pure encoders raised an IndexError or
    indexed with a float), and a batch row is left as it was."""
    from cnmahjong.envs.core.ruleset import get_ruleset

    rs = get_ruleset({cs_obs: "changsha", hz_obs: "hangzhou", sc_obs: "sichuan"}[obs])
    game = rs.new_hand(rs.as_config(rs.default_rules), np.random.default_rng(9))
    enc = obs.Encoder()
    want = enc.planes(game, 2)
    assert enc.planes(game, np.int64(2)) == want
    buf = bytearray(b"\x05" * (len(want) + 2))
    for seat, error, words in ((4, ValueError, "seat=4 out of range: allowed 0..3"),
                               (-1, ValueError, "seat=-1 out of range: allowed 0..3"),
                               (2.0, TypeError, "seat must be an integer .*got float 2.0"),
                               (True, TypeError, "seat must be an integer, got the bool True")):
        with pytest.raises(error, match=words):
            enc.planes(game, seat)
        if hasattr(enc, "planes_into"):
            with pytest.raises(error, match=words):
                enc.planes_into(game, seat, buf, 2)
            assert buf == bytearray(b"\x05" * (len(want) + 2))

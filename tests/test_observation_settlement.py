"""What a seat must see (issue 36, finding 9): every input of the settlement that a seat may know
decodes from its observation.

Each ruleset package declares, in its ``settlement_view`` module, the inputs its settlement reads
as a seat may know them (``INPUTS``), how each of its encoders shows them (``SHOWN``) and what an
encoder leaves out (``GAPS``). The tests here hold for every registered ruleset that declares one
(a new ruleset gets them by adding the module): the declaration covers each encoder and input,
some encoder has no gap, and in randomly played positions every input decodes, from every seat's
observation, to what the game holds. ``hz-v0``'s gaps are real: positions that differ only in a
doubling chain settle differently, give equal ``hz-v0`` planes and different ``hz-v1`` planes.
"""

from __future__ import annotations

import copy
import importlib
import random
from types import ModuleType

import numpy as np
import pytest

from cnmahjong.envs.core.ruleset import REGISTERED, Ruleset, get_ruleset, rulesets
from cnmahjong.envs.hangzhou import actions as HZ
from cnmahjong.envs.hangzhou import observation as hz_v0
from cnmahjong.envs.hangzhou import observation_v1 as hz_v1
from cnmahjong.envs.hangzhou.game import CLAIM, DISCARD
from cnmahjong.envs.hangzhou.rules import RuleConfig
from tests import test_channels
from tests.hz_scenario import discard, hz_game, k


def settlement_view(rs: Ruleset) -> ModuleType | None:
    """The ruleset's ``settlement_view`` module (beside its game module), or None if it has none."""
    name = rs.game.__module__.rpartition(".")[0] + ".settlement_view"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


VIEWS = [(rs, view) for rs in rulesets() if (view := settlement_view(rs)) is not None]
CASES = [pytest.param(rs, view, enc, id=enc.name) for rs, view in VIEWS for enc in rs.encodings]


def test_every_shipped_ruleset_declares_what_its_settlement_reads() -> None:
    assert sorted(rs.name for rs, _ in VIEWS if rs.name in REGISTERED) == sorted(REGISTERED)


@pytest.mark.parametrize(("rs", "view"), [pytest.param(rs, view, id=rs.name) for rs, view in VIEWS])
def test_declaration_covers_every_encoder_and_input(rs, view) -> None:
    names = {enc.name for enc in rs.encodings}
    assert set(view.SHOWN) == set(view.GAPS) == names
    for enc in names:
        shown, gaps = set(view.SHOWN[enc]), set(view.GAPS[enc])
        assert not shown & gaps, f"{enc}: {shown & gaps} both shown and a gap"
        assert shown | gaps == set(view.INPUTS), f"{enc}: {set(view.INPUTS) ^ (shown | gaps)}"
        assert all(isinstance(why, str) and why for why in view.GAPS[enc].values())
    assert any(not gaps for gaps in view.GAPS.values()), f"no {rs.name} encoder carries every input"


def _pick(rng: random.Random, legal: list[int], game) -> int:
    """A random legal action, leaning to claims and kongs, a win one time in four (hands that go
    on reach kong draws and the 海底) and, in Hangzhou, to 财神 discards (飘 need them)."""
    actions, indicator = game.ACTIONS, getattr(game, "indicator", None)
    if actions.HU in legal and rng.random() < 0.25:
        return actions.HU
    special = [a for a in legal if a >= game.NUM_KINDS and a not in (actions.HU, actions.PASS)]
    if special and rng.random() < 0.7:
        return rng.choice(special)
    if indicator in legal and rng.random() < 0.5:
        return indicator
    return rng.choice([a for a in legal if a != actions.HU] or legal)


def _check_position(view: ModuleType, enc, game, encoder, seen: dict[str, set[str]]) -> None:
    shown = view.SHOWN[enc.name]
    for seat in range(4):
        raw = np.frombuffer(encoder.planes(game, seat), dtype=np.uint8).reshape(enc.shape)
        planes = enc.to_float(raw)
        for name, decode in shown.items():
            want = view.INPUTS[name](game, seat)
            assert decode(planes) == want, f"{enc.name} seat {seat} {name}: {decode(planes)!r} != {want!r} ({game!r})"
            seen[name].add(repr(want))
        if seat == game.turn:  # the uint8 planes decode alike (one seat a position keeps the test fast)
            assert all(decode(raw) == decode(planes) for decode in shown.values())


def _play(rs: Ruleset, view: ModuleType, enc, hands: int, seed: int) -> dict[str, set[str]]:
    """Random hands; every position, every seat: each input decodes to the game's value."""
    rng = random.Random(seed)
    seen: dict[str, set[str]] = {name: set() for name in view.SHOWN[enc.name]}
    config = rs.as_config(rs.presets[0])
    for hand in range(hands):
        game = rs.new_hand(config, np.random.default_rng([seed, hand]))
        encoder = enc.encoder()
        while True:
            _check_position(view, enc, game, encoder, seen)
            if game.done:
                break
            seat = game.to_act[0]
            game.step(seat, _pick(rng, game.legal_actions(seat), game))
    return seen


@pytest.mark.parametrize(("rs", "view", "enc"), CASES)
def test_settlement_inputs_decode_from_every_seats_observation(rs, view, enc) -> None:
    seen = _play(rs, view, enc, hands=30, seed=36)
    varied = {name for name, values in seen.items() if len(values) > 1}
    # the inputs random play moves, each compared through at least two values (not a constant)
    assert varied >= set(view.SHOWN[enc.name]) - RARE.get(rs.name, set()), set(view.SHOWN[enc.name]) - varied


RARE = {"hangzhou": {"piao", "chain", "rules", "ready", "piao_pending", "streak"}, "changsha": {"in_the_air"},
        "sichuan": {"out", "won_tile"}}
"""Inputs random play leaves at one value. Hangzhou: a 飘 needs the 爆头-ready state, options and
streak are the deal's; ``test_hz_v1_decodes_a_chain_with_piao_and_a_bearer`` drives those through
scripted play. Changsha: tiles in the air (开杠 draws, a taken 海底) are compared where they come up,
but random play seldom leaves them up at a decision. Sichuan: a win needs a ready hand with no void
tile, which random play seldom makes; ``tests/test_sichuan_env.py`` decodes the OUT and WON_TILE
planes after scripted wins, several at once."""


# ------------------------------------------------------------------ Hangzhou: chains, 飘, bearers
DEALER = "1s4s7s2p5p8p3m6m9s1z2z3z4z6z"
READY_TWO_CAISHEN = "123m456m789m9p9p5z5z"
"""爆头-ready with an extra 财神 (indicator 5z: the 财神 is 5z)."""
SEAT2 = "2s5s8s4p7p1m4m6z7z1z2z3z4z"
SEAT3_9P = "3s6s9s5m8m9p7p4z4z6z6z7z7z"


def _piao_peng_piao(config: RuleConfig, streak: int, check) -> object:
    """Seat 1 飘s, PENGs seat 3's 9p with the 飘 pending (seat 3 becomes the bearer), 飘s again,
    and stands before its self-drawn 爆头 win on 6p (the play of ``test_hangzhou_piao_claim``);
    ``check(game)`` runs at every position."""
    g = hz_game([DEALER, READY_TWO_CAISHEN, SEAT2, SEAT3_9P], indicator="5z", head="5z 8s 1p 2s 3s 4s 6p",
                config=config, streak=streak)
    check(g)
    for seat, action in ((0, discard("9s")), (1, discard("5z")), (2, None), (3, discard("9p")), (1, HZ.PENG),
                         (1, discard("5z")), (2, None), (3, None), (0, None)):
        assert seat in g.to_act
        g.step(seat, g.drawn if action is None else action)
        check(g)
    assert g.to_act == [1] and g.drawn == k("6p") and g.phase == DISCARD
    return g


def test_hz_v1_decodes_a_chain_with_piao_and_a_bearer() -> None:
    view = settlement_view(get_ruleset("hangzhou"))
    enc = get_ruleset("hangzhou").encoding_named(hz_v1.ENCODER)
    seen: dict[str, set[str]] = {name: set() for name in view.SHOWN[enc.name]}
    for options in ((True, True, True), (False, False, True), (True, True, False)):
        config = RuleConfig(**dict(zip(hz_v1.RULE_OPTIONS, options, strict=True)))
        for streak in (1, 2):
            encoder = enc.encoder()
            g = _piao_peng_piao(config, streak, lambda g, e=encoder: _check_position(view, enc, g, e, seen))
            assert g.doublings[1] == [("piao", None), ("piao", 3)]
            g.step(1, HZ.HU)
            _check_position(view, enc, g, encoder, seen)
    assert {name for name, values in seen.items() if len(values) > 1} >= RARE["hangzhou"]
    assert repr([[("piao", None), ("piao", 2)], [], [], []]) in seen["chain"]  # seat 1's own: bearer 2 = seat 3
    assert repr([[], [("piao", None), ("piao", 3)], [], []]) in seen["chain"]  # seat 0's view of seat 1
    assert repr(True) in seen["ready"] and repr([0, 2, 0, 0]) in seen["piao"]


def test_hz_v1_round_trips_and_keeps_hz_v0s_channels() -> None:
    """``hz-v1`` decodes back to its planes and holds ``hz-v0``'s groups that it does not widen byte
    for byte (its table on the Hangzhou page: tests/test_docs.py)."""
    test_channels.test_groups_are_contiguous_and_cover_the_shape(hz_v1)
    test_channels.test_module_constants_and_spec_follow_from_the_table(hz_v1)
    widened = {"HIDDEN_KONGS", "PIAO", "CLAIMS"}

    def check(g) -> None:
        for seat in range(4):
            planes = hz_v1.encode(g, seat)
            test_channels._check_round_trip(hz_v1, g, seat, planes)
            old = hz_v0.encode(g, seat)
            for group in hz_v0.CHANNELS:
                if group.name not in widened:
                    np.testing.assert_array_equal(old[hz_v0.CHANNELS.slice(group.name)],
                                                  planes[hz_v1.CHANNELS.slice(group.name)], err_msg=group.name)

    _piao_peng_piao(RuleConfig(), 1, check)


def _settle(g, chain) -> tuple[int, ...]:
    """Payments of seat 1's 爆头 win on a copy of ``g`` whose seat 1 chain is ``chain``."""
    g = copy.deepcopy(g)
    g.doublings[1] = list(chain)
    g.step(1, HZ.HU)
    return g.result.payments


@pytest.mark.parametrize(("chain", "other"), [
    pytest.param([("piao", None), ("piao", 3)], [("piao", None), ("piao", None)], id="bearer"),
    pytest.param([("piao", None), ("piao", 3)], [("piao", None), ("piao", 3), ("kong", 3)], id="kong"),
])
def test_hz_v0_cannot_tell_chains_apart_that_hz_v1_does(chain, other) -> None:
    """Two positions alike but for seat 1's doubling chain (set by hand on a copy, the settlement's
    own input): the win pays differently, every seat's ``hz-v0`` planes are equal, its ``hz-v1``
    planes differ and decode each chain."""
    g = _piao_peng_piao(RuleConfig(), 1, lambda g: None)
    assert g.phase != CLAIM and g.doublings[1] == chain
    h = copy.deepcopy(g)
    h.doublings[1] = list(other)
    assert _settle(g, chain) != _settle(g, other)
    for seat in range(4):
        np.testing.assert_array_equal(hz_v0.encode(g, seat), hz_v0.encode(h, seat))
        a, b = hz_v1.encode(g, seat), hz_v1.encode(h, seat)
        assert not np.array_equal(a, b)
        rel = (1 - seat) % 4
        for game, planes in ((g, a), (h, b)):
            assert hz_v1.decode_chain(planes, rel) == [(kind, None if x is None else (x - seat) % 4)
                                                       for kind, x in game.doublings[1]]

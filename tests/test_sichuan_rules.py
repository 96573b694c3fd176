"""Sichuan ``RuleConfig`` (rules sichuan.md, Options) and the action table (design env.md, Sichuan)."""

from __future__ import annotations

import pytest

from cnmahjong.envs.sichuan import actions
from cnmahjong.envs.sichuan.rules import PRESETS, RuleConfig, as_config

DEFAULTS = dict(
    huan_san_zhang=True, huan_same_suit=True, huan_direction="random", cap_fan=3, base=1, zimo_bonus="di",
    dianganghua="zimo", call_transfer=True, call_transfer_scope="last_kong", pass_hu="higher_fan",
    pass_peng_lock=False, bugang_from_hand_pays=False, qiang_gang=True, tiandihu=True, jingoudiao=True,
    yaojiu_jiangdui=True, haidi=True, menqing_zhongzhang=False, huazhu_fan=None, tuishui=True,
    reveal_winner_hand=False, reveal_angang_tile=True,
)
"""Every option of the rule text's list, with its default (the first value named)."""


def test_every_option_with_its_default():
    """The options are exactly the rule text's, each at its default; one preset, the defaults."""
    assert PRESETS == ("sichuan",)
    assert RuleConfig().to_dict() == DEFAULTS
    assert RuleConfig.preset("sichuan") == RuleConfig() == as_config("sichuan") == as_config({})
    assert RuleConfig.option_names() == list(DEFAULTS)


@pytest.mark.parametrize("name,value", [
    ("huan_direction", "next"), ("huan_direction", "across"), ("huan_direction", "previous"),
    ("cap_fan", 4), ("cap_fan", 5), ("cap_fan", 6), ("base", 5), ("zimo_bonus", "fan"), ("zimo_bonus", "none"),
    ("dianganghua", "dianpao"), ("call_transfer_scope", "hand"), ("pass_hu", "until_draw"), ("pass_hu", "none"),
    ("huazhu_fan", 0), ("huazhu_fan", 7),
])
def test_every_allowed_value(name, value):
    assert getattr(RuleConfig.from_dict({name: value}), name) == value


@pytest.mark.parametrize("name", [n for n, v in DEFAULTS.items() if isinstance(v, bool)])
def test_bool_options_refuse_non_bools(name):
    assert getattr(RuleConfig(**{name: not DEFAULTS[name]}), name) is (not DEFAULTS[name])
    with pytest.raises(ValueError, match=f"{name}.*True or False"):
        RuleConfig(**{name: 1})


@pytest.mark.parametrize("name,value,allowed", [
    ("huan_direction", "left", "random"), ("huan_direction", None, "random"),
    ("cap_fan", 2, "3, 4, 5, 6 or None"), ("cap_fan", 7, "3, 4, 5, 6 or None"), ("cap_fan", 4.0, "3, 4"),
    ("cap_fan", True, "3, 4"), ("base", 0, "positive integer"), ("base", 1.5, "positive integer"),
    ("zimo_bonus", "double", "di"), ("dianganghua", "none", "zimo"), ("call_transfer_scope", "all", "last_kong"),
    ("pass_hu", "lock", "higher_fan"), ("huazhu_fan", -1, "integer >= 0"), ("huazhu_fan", "3", "integer >= 0"),
])
def test_bad_values_name_the_option_and_what_is_allowed(name, value, allowed):
    with pytest.raises(ValueError, match=rf"{name}.*allowed.*{allowed[:6]}"):
        RuleConfig.from_dict({name: value})


def test_huazhu_fan_required_without_a_cap():
    """§7: ``huazhu_fan`` defaults to ``cap_fan`` and must be given when there is no cap."""
    with pytest.raises(ValueError, match="huazhu_fan.*must be given when cap_fan is None"):
        RuleConfig(cap_fan=None)
    cfg = RuleConfig(cap_fan=None, huazhu_fan=4)
    assert (cfg.huazhu_exponent, cfg.tiandihu_fan) == (4, 5)
    assert (RuleConfig(cap_fan=5).huazhu_exponent, RuleConfig(cap_fan=5).tiandihu_fan) == (5, 5)
    assert RuleConfig(huazhu_fan=2).huazhu_exponent == 2


def test_unknown_option_and_preset():
    with pytest.raises(ValueError, match=r"unknown rule options \['capfan'\].*allowed"):
        RuleConfig.from_dict({"capfan": 4})
    with pytest.raises(ValueError, match="unknown rule preset 'chengdu'"):
        RuleConfig.preset("chengdu")
    with pytest.raises(TypeError, match="rules must be"):
        as_config(3)


def test_action_table():
    """Design env.md: Discrete(88) with the named ranges."""
    assert actions.NUM_ACTIONS == 88
    assert (actions.PENG, actions.GANG_CLAIM, actions.HU, actions.PASS) == (27, 28, 56, 57)
    assert [actions.discard(0), actions.discard(26)] == [0, 26]
    assert [actions.gang(0), actions.gang(26)] == [29, 55]
    assert [actions.swap(0), actions.swap(26)] == [58, 84]
    assert [actions.void(0), actions.void(1), actions.void(2)] == [85, 86, 87]
    names = [actions.describe(a) for a in range(actions.NUM_ACTIONS)]
    assert len(set(names)) == 88
    assert names[4] == "DISCARD 5m" and names[29 + 13] == "GANG 5s" and names[58 + 26] == "SWAP 9p"
    assert names[27:29] == ["PENG", "GANG discard"] and names[56:58] == ["HU", "PASS"]
    assert names[85:] == ["VOID 万 (m)", "VOID 条 (s)", "VOID 筒 (p)"]
    for bad in (-1, 88, True, 3.0):
        with pytest.raises(ValueError, match="allowed 0..87"):
            actions.describe(bad)

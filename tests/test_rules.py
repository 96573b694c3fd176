"""§10 presets and option validation."""

import pytest

from cnmahjong.envs.changsha.rules import OPENING_PATTERNS, RuleConfig, option_names


def test_mainstream_preset_section10():
    cfg = RuleConfig.preset("mainstream")
    assert cfg == RuleConfig()
    assert (cfg.kong_draw_count, cfg.bird_count, cfg.scoring) == (2, 2, "zi")
    assert cfg.opening_wins == OPENING_PATTERNS
    assert not cfg.big_win_stacking and not cfg.opening_win_stacking
    assert cfg.zimo_plus_one and cfg.quanqiuren and cfg.kong_dice_overflow == "tail"


def test_classic_preset_section10():
    cfg = RuleConfig.preset("classic")
    assert (cfg.kong_draw_count, cfg.bird_count, cfg.scoring) == (1, 1, "points")
    assert cfg.big_win_stacking and cfg.opening_win_stacking
    assert cfg.opening_wins == ("SIXI", "BANBAN", "QUEYISE", "LIULIUSHUN")
    assert not cfg.zimo_plus_one and not cfg.quanqiuren
    assert not cfg.quad_he  # 垛合子 values do not exist in points scoring


def test_overrides_and_round_trip():
    cfg = RuleConfig.preset("classic", cap_he=4)
    assert cfg.cap_he == 4
    assert RuleConfig.from_dict(cfg.to_dict()) == cfg
    assert RuleConfig.from_dict({"preset": "classic", "cap_he": 4}) == cfg
    assert cfg.replace(bird_count=2).bird_count == 2


@pytest.mark.parametrize(
    "options, fragment",
    [({"kong_draw_count": 3}, "kong_draw_count"), ({"bird_count": -1}, "bird_count"),
     ({"scoring": "yen"}, "'zi', 'points'"), ({"cap_he": 0}, "cap_he"),
     ({"zimo_plus_one": "yes"}, "True or False"), ({"kong_dice_overflow": "x"}, "tail"),
     ({"opening_wins": ("SIXI", "FOO")}, "SIXI"), ({"opening_wins": "SIXI"}, "tuple"),
     ({"birds": 2}, "unknown rule options \\['birds'\\]")],
)
def test_bad_options_say_what_is_allowed(options, fragment):
    with pytest.raises(ValueError, match=fragment):
        RuleConfig.preset("mainstream", **options)


def test_unknown_preset():
    with pytest.raises(ValueError, match="mainstream"):
        RuleConfig.preset("sichuan")


def test_configs_are_frozen_and_hashable():
    cfg = RuleConfig()
    with pytest.raises(AttributeError):
        cfg.bird_count = 1
    assert hash(cfg) == hash(RuleConfig.preset("mainstream"))
    assert "kong_on_haidi" in option_names()

"""Hangzhou (杭州麻将) as a ``Ruleset``: all the generic layers (envs, arena, viewer, trainers) know of it."""

from __future__ import annotations

from typing import Any

from cnmahjong.envs.core.ruleset import Encoding, Ruleset
from cnmahjong.envs.hangzhou import view
from cnmahjong.envs.hangzhou.actions import NUM_ACTIONS
from cnmahjong.envs.hangzhou.game import HangzhouGame, HangzhouMatch, new_hand
from cnmahjong.envs.hangzhou.heuristic import heuristic
from cnmahjong.envs.hangzhou.observation import ENCODER, SHAPE, Encoder, planes_to_float
from cnmahjong.envs.hangzhou.render import render_text
from cnmahjong.envs.hangzhou.rules import RuleConfig, as_config


def _hand_stats(game: Any) -> list[dict[str, Any]]:
    from cnmahjong.envs.hangzhou.stats import hand_stats

    return hand_stats(game)


HANGZHOU = Ruleset(
    name="hangzhou", title="Hangzhou", env_module="cnmahjong.envs.hangzhou.env", config_class=RuleConfig,
    as_config=as_config, new_hand=new_hand,
    encodings=(Encoding(ENCODER, SHAPE, Encoder, planes_to_float),),
    num_actions=NUM_ACTIONS, game=HangzhouGame, match=HangzhouMatch, render=render_text,
    hand_stats=_hand_stats, stat_names=("baotou", "piao"), heuristic=heuristic,
    seat_tags=view.seat_tags, table_extras=view.table_extras, scenario_keys=("streak",),
)

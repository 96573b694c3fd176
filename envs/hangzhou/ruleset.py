"""Hangzhou (杭州麻将) as a ``Ruleset``: all the generic layers (envs, arena, viewer, trainers) know of it."""

from __future__ import annotations

from cnmahjong.envs.core.ruleset import Ruleset
from cnmahjong.envs.hangzhou import benchmarks, stats, view
from cnmahjong.envs.hangzhou.actions import NUM_ACTIONS
from cnmahjong.envs.hangzhou.expert import expert
from cnmahjong.envs.hangzhou.game import HangzhouGame, HangzhouMatch, new_hand
from cnmahjong.envs.hangzhou.heuristic import heuristic
from cnmahjong.envs.hangzhou.observation import ENCODING
from cnmahjong.envs.hangzhou.observation_v1 import ENCODING as ENCODING_V1
from cnmahjong.envs.hangzhou.render import render_text
from cnmahjong.envs.hangzhou.rules import RuleConfig, as_config

HANGZHOU = Ruleset(
    name="hangzhou", title="Hangzhou", env_module="cnmahjong.envs.hangzhou.env", config_class=RuleConfig,
    as_config=as_config, new_hand=new_hand, encodings=(ENCODING, ENCODING_V1),
    num_actions=NUM_ACTIONS, game=HangzhouGame, match=HangzhouMatch, render=render_text,
    hand_stats=stats.hand_stats, stat_names=stats.STAT_NAMES, heuristic=heuristic, expert=expert,
    seat_tags=view.seat_tags,
    table_extras=view.table_extras, event_text=view.event_text, core_bench=benchmarks.core_bench,
    scenario_keys=("streak",),
)

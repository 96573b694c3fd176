"""Hangzhou (杭州麻将) as a ``Ruleset``: all the generic layers (envs, arena, viewer, trainers) know of it."""

from __future__ import annotations

from cnmahjong.envs.core.ruleset import Players, Ruleset, Stats, TableView
from cnmahjong.envs.hangzhou import benchmarks, stats, view
from cnmahjong.envs.hangzhou.expert import expert
from cnmahjong.envs.hangzhou.game import HangzhouGame, HangzhouMatch, new_hand
from cnmahjong.envs.hangzhou.heuristic import heuristic, heuristic_on_game
from cnmahjong.envs.hangzhou.observation import ENCODING
from cnmahjong.envs.hangzhou.observation_v1 import ENCODING as ENCODING_V1
from cnmahjong.envs.hangzhou.render import render_text
from cnmahjong.envs.hangzhou.rules import as_config

HANGZHOU = Ruleset(
    title="Hangzhou", game=HangzhouGame, match=HangzhouMatch, as_config=as_config, new_hand=new_hand,
    encodings=(ENCODING, ENCODING_V1), env_module="cnmahjong.envs.hangzhou.env",
    players=Players(heuristic=heuristic, heuristic_on_game=heuristic_on_game, expert=expert),
    view=TableView(render=render_text, seat_tags=view.seat_tags, table_extras=view.table_extras,
                   event_text=view.event_text, markers=view.markers,
                   action_tiles=view.action_tiles),
    stats=Stats(hand_stats=stats.hand_stats, stat_names=stats.STAT_NAMES),
    core_bench=benchmarks.core_bench, riichienv_ratio=benchmarks.RIICHIENV_RATIO,
)

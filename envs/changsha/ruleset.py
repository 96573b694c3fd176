"""Changsha (长沙麻将) as a ``Ruleset``: all the generic layers (envs, arena, viewer, trainers) know of it."""

from __future__ import annotations

from cnmahjong.envs.changsha import benchmarks, stats, view
from cnmahjong.envs.changsha.expert import expert
from cnmahjong.envs.changsha.game import ChangshaGame, ChangshaMatch, new_hand
from cnmahjong.envs.changsha.heuristic import heuristic, heuristic_on_game
from cnmahjong.envs.changsha.observation import ENCODING
from cnmahjong.envs.changsha.render import render_text
from cnmahjong.envs.changsha.rules import as_config
from cnmahjong.envs.core.ruleset import Players, Ruleset, Stats, TableView

CHANGSHA = Ruleset(
    title="Changsha", game=ChangshaGame, match=ChangshaMatch, as_config=as_config, new_hand=new_hand,
    encodings=(ENCODING,), env_module="cnmahjong.envs.changsha.env",
    players=Players(heuristic=heuristic, heuristic_on_game=heuristic_on_game, expert=expert),
    view=TableView(render=render_text, seat_tags=view.seat_tags, table_extras=view.table_extras,
                   event_text=view.event_text, markers=view.markers,
                   action_tiles=view.action_tiles),
    stats=Stats(hand_stats=stats.hand_stats, stat_names=stats.STAT_NAMES, unit=view.unit),
    core_bench=benchmarks.core_bench, riichienv_ratio=benchmarks.RIICHIENV_RATIO,
)

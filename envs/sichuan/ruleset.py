"""Sichuan 血战到底 as a ``Ruleset``: all the generic layers (envs, arena, viewer, trainers) know of it."""

from __future__ import annotations

from cnmahjong.envs.core.ruleset import Players, Ruleset, Stats, TableView
from cnmahjong.envs.sichuan import benchmarks, stats, view
from cnmahjong.envs.sichuan.expert import expert
from cnmahjong.envs.sichuan.game import SichuanGame, SichuanMatch, new_hand
from cnmahjong.envs.sichuan.heuristic import heuristic, heuristic_on_game
from cnmahjong.envs.sichuan.observation import ENCODING
from cnmahjong.envs.sichuan.rules import as_config

SICHUAN = Ruleset(
    title="Sichuan", game=SichuanGame, match=SichuanMatch, as_config=as_config, new_hand=new_hand,
    encodings=(ENCODING,), env_module="cnmahjong.envs.sichuan.env",
    players=Players(heuristic=heuristic, heuristic_on_game=heuristic_on_game, expert=expert,
                    search_options="confirm=16"),
    view=TableView(seat_tags=view.seat_tags, table_extras=view.table_extras, event_text=view.event_text,
                   markers=view.markers, click_tile=view.click_tile, action_tiles=view.action_tiles),
    stats=Stats(hand_stats=stats.hand_stats, stat_names=stats.STAT_NAMES),
    core_bench=benchmarks.core_bench, riichienv_ratio=benchmarks.RIICHIENV_RATIO,
)

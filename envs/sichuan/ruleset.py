"""Sichuan 血战到底 as a ``Ruleset``: all the generic layers (envs, arena, viewer, trainers) know of it."""

from __future__ import annotations

from cnmahjong.envs.core.ruleset import Players, Ruleset
from cnmahjong.envs.sichuan.game import SichuanGame, SichuanMatch, new_hand
from cnmahjong.envs.sichuan.heuristic import heuristic
from cnmahjong.envs.sichuan.observation import ENCODING
from cnmahjong.envs.sichuan.rules import as_config

SICHUAN = Ruleset(
    title="Sichuan", game=SichuanGame, match=SichuanMatch, as_config=as_config, new_hand=new_hand,
    encodings=(ENCODING,), env_module="cnmahjong.envs.sichuan.env", players=Players(heuristic=heuristic),
)

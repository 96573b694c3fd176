"""Hangzhou as a ``Ruleset`` for the shared AEC env, ``cnmahjong.envs.vector`` and the trainers."""

from __future__ import annotations

from cnmahjong.envs.core.ruleset import Ruleset
from cnmahjong.envs.hangzhou.actions import NUM_ACTIONS
from cnmahjong.envs.hangzhou.game import HangzhouGame, HangzhouMatch, new_hand
from cnmahjong.envs.hangzhou.observation import ENCODER, SHAPE, Encoder, planes_to_float
from cnmahjong.envs.hangzhou.render import render_text
from cnmahjong.envs.hangzhou.rules import as_config

HANGZHOU = Ruleset(
    name="hangzhou", as_config=as_config, new_hand=new_hand, encoder=Encoder, encoder_name=ENCODER,
    shape=SHAPE, num_actions=NUM_ACTIONS, to_float=planes_to_float, game=HangzhouGame, match=HangzhouMatch,
    render=render_text, default_rules="hangzhou", scenario_keys=("streak",),
)

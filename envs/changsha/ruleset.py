"""Changsha as a ``Ruleset`` for the batched runner (``cnmahjong.envs.vector``) and the trainers."""

from __future__ import annotations

from cnmahjong.envs.changsha.actions import NUM_ACTIONS
from cnmahjong.envs.changsha.game import ChangshaGame, ChangshaMatch, new_hand
from cnmahjong.envs.changsha.observation import (
    ENCODER,
    SHAPE,
    Encoder,
    planes_to_float,
)
from cnmahjong.envs.changsha.render import render_text
from cnmahjong.envs.changsha.rules import as_config
from cnmahjong.envs.core.ruleset import Ruleset

CHANGSHA = Ruleset(
    name="changsha", as_config=as_config, new_hand=new_hand, encoder=Encoder, encoder_name=ENCODER,
    shape=SHAPE, num_actions=NUM_ACTIONS,
    to_float=planes_to_float, game=ChangshaGame, match=ChangshaMatch, render=render_text,
    default_rules="mainstream", scenario_keys=("dice",),
)

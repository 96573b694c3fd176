"""``Ruleset``: what a batched or generic runner needs to know of one regional game.

Each ruleset package (``envs/changsha``, later ``envs/hangzhou``) describes
itself with one ``Ruleset``; ``cnmahjong.envs.vector.VectorEnv`` and the trainers take any
of them, so they hold no ruleset-specific code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

RULESETS = {"changsha": "cnmahjong.envs.changsha.ruleset:CHANGSHA",
            "hangzhou": "cnmahjong.envs.hangzhou.ruleset:HANGZHOU"}
"""Ruleset name -> where its ``Ruleset`` lives (imported on first use)."""
PRESETS = {"mainstream": "changsha", "classic": "changsha", "hangzhou": "hangzhou"}
"""Every rule preset by name, and the ruleset it belongs to (the CLIs' ``--rules``)."""
ENCODERS = {"cs-v0": "changsha", "hz-v0": "hangzhou"}
"""Observation encoder name -> its ruleset (checkpoints record the encoder they learned on)."""


@dataclass(frozen=True)
class Ruleset:
    """The pieces of one ruleset a runner uses (the engine's own API does the rest)."""

    name: str
    """Short name (``"changsha"``), as ``VectorEnv(ruleset=...)`` takes it."""
    as_config: Callable[[Any], Any]
    """``rules`` argument (preset name, config object or dict) -> the ruleset's config."""
    new_hand: Callable[[Any, Any], Any]
    """``(config, numpy Generator)`` -> a new game; the AEC env deals the same way."""
    encoder: Callable[[], Any]
    """A fresh incremental encoder with ``planes(game, seat) -> bytes``: uint8 planes, the
    channels of fractions (wall size) holding the counts they are made from."""
    encoder_name: str
    shape: tuple[int, int]
    """Observation planes (channels, kinds)."""
    num_actions: int
    to_float: Callable[..., Any]
    """``to_float(uint8 planes, out=None)`` -> the float32 observation, bit for bit the AEC env's."""
    game: Any
    """The game class (``from_scenario``, ``replay``)."""
    match: Any
    """The match class: ``match(config, hands, seed=...)``."""
    render: Callable[..., str]
    """``render(game, viewer, last_action)`` -> the text table of the ``ansi`` render mode."""
    default_rules: str
    """The preset an env uses when ``rules`` is not given."""
    scenario_keys: tuple[str, ...] = ()
    """Scenario keys beyond ``hands``, ``wall`` and ``dealer`` (Changsha ``dice``)."""


def get_ruleset(name: str | Ruleset) -> Ruleset:
    """A ``Ruleset`` by name (``"changsha"``, ``"hangzhou"``), or the object itself."""
    if isinstance(name, Ruleset):
        return name
    if name not in RULESETS:
        raise ValueError(f"unknown ruleset {name!r}: allowed {sorted(RULESETS)}")
    module, attr = RULESETS[name].split(":")
    return getattr(importlib.import_module(module), attr)


def ruleset_of_preset(preset: str) -> Ruleset:
    """The ruleset a preset name belongs to (``"classic"`` -> Changsha, ``"hangzhou"`` -> Hangzhou)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown rules {preset!r}: allowed {sorted(PRESETS)}")
    return get_ruleset(PRESETS[preset])


def ruleset_of_encoder(encoder: str) -> Ruleset:
    """The ruleset whose observations an encoder name describes."""
    if encoder not in ENCODERS:
        raise ValueError(f"unknown observation encoder {encoder!r}: allowed {sorted(ENCODERS)}")
    return get_ruleset(ENCODERS[encoder])


def ruleset_of_rules(rules: Any) -> Ruleset:
    """The ruleset a ``rules`` argument belongs to: a preset name, a config object, or a dict of
    options (its ``preset`` key, else the ruleset whose options it names; Changsha when empty)."""
    if rules is None:
        return get_ruleset("changsha")
    if isinstance(rules, str):
        return ruleset_of_preset(rules)
    if isinstance(rules, Mapping):
        if "preset" in rules:
            return ruleset_of_preset(rules["preset"])
        for name in RULESETS:
            rs = get_ruleset(name)
            if rules and set(rules) <= set(rs.game.CONFIG.option_names()):
                return rs
        return get_ruleset("changsha")
    package = next((part for part in type(rules).__module__.split(".") if part in RULESETS), None)
    if package is not None:  # a config object of cnmahjong.envs.<ruleset>.rules
        return get_ruleset(package)
    raise TypeError(f"rules must be a preset name {sorted(PRESETS)}, a RuleConfig or a dict, "
                    f"got {type(rules).__name__}")

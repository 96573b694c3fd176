"""``Ruleset``: everything the generic layers need to know of one regional game, and the one
registry that finds them.

A ruleset package (``envs/changsha``, ``envs/hangzhou``, or one of your own anywhere on the
path) describes itself with one ``Ruleset`` object; the AEC env, ``VectorEnv``, the arena,
the viewer, the play server and the trainers take any of them and hold no ruleset-specific
code. Adding a ruleset is its folder plus one registration: a line in ``REGISTERED`` for the
ones shipped here; for one that lives elsewhere, ``register(ruleset)`` at run time, or the
environment variable ``CNMAHJONG_RULESETS="pkg.module:ATTR,..."``, which every process started
from this one (arena workers, trainer workers, Ray actors on this machine) reads too. The test
ruleset under ``tests/toy`` plugs in that way.

This module is the only place outside the ruleset packages that names them.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cnmahjong.envs.core.channels import EncoderSpec
from cnmahjong.envs.core.render import plain_render
from cnmahjong.envs.core.result import seat_stats

REGISTERED: dict[str, str] = {
    "changsha": "cnmahjong.envs.changsha.ruleset:CHANGSHA",
    "hangzhou": "cnmahjong.envs.hangzhou.ruleset:HANGZHOU",
    "sichuan": "cnmahjong.envs.sichuan.ruleset:SICHUAN",
}
"""The shipped rulesets: name -> ``module:attribute`` of its ``Ruleset`` (imported on first use)."""

DEFAULT_RULESET = "changsha"
"""What a runner plays when it is given no rules at all."""

PLUGINS_ENV = "CNMAHJONG_RULESETS"
"""Environment variable: comma-separated ``module:attribute`` of more rulesets, registered on first use."""

_loaded: dict[str, Ruleset] = {}
_extra: dict[str, Ruleset] = {}  # register()ed at run time, in registration order
_plugins_read = ""  # the value of PLUGINS_ENV last registered


def _dealer_tag(game: Any, seat: int) -> list[str]:
    return ["dealer"] if seat == game.dealer else []


def _no_extras(game: Any) -> dict[str, Any]:
    return {}


def _discard_tile(game: Any, action: int) -> int | None:
    """Every engine numbers its discards 0..NUM_KINDS-1 by the tile they throw."""
    return action if action < game.NUM_KINDS else None


def _points(config: Any) -> str:
    return "points"


def _seat_stats(game: Any) -> list[dict[str, Any]]:
    return seat_stats(game.result)


def meld_tiles(game: Any, action: int, *, peng: int, claim_kongs: tuple[int, ...], own_kongs: range) -> list[int]:
    """The tiles a PENG button shows (three of the tile offered), a claimed kong's and an own kong's
    (four): the part of ``TableView.action_tiles`` every ruleset shares. ``own_kongs``: the action
    ids of the own kongs, blocks of one id per tile kind in kind order."""
    offered = game.claim_tiles
    t = offered[0] if len(offered) == 1 else None
    if t is not None and action == peng:
        return [t] * 3
    if t is not None and action in claim_kongs:
        return [t] * 4
    if action in own_kongs:
        return [(action - own_kongs.start) % game.NUM_KINDS] * 4
    return []


@dataclass(frozen=True)
class TableView:
    """How the tools show a table of the ruleset: the ``ansi`` text, the replay viewer and the
    play page. Every field has a default a new ruleset may keep."""

    render: Callable[..., str] = plain_render
    """``render(game, viewer, last_action)`` -> the text table of the ``ansi`` render mode."""
    seat_tags: Callable[[Any, int], list[str]] = _dealer_tag
    """``(game, seat)`` -> short labels of the seat for the viewer (dealer, locked, 飘, out …)."""
    table_extras: Callable[[Any], dict[str, Any]] = _no_extras
    """A game -> the ruleset's own public table facts for the viewer (indicator tile, stacks left …)."""
    event_text: Callable[[dict[str, Any]], str | None] | None = None
    """An event of the log -> its line in the viewer and the play server, for the ruleset's own
    events and marks (None: the common wording of draw, discard, meld, win and end)."""
    markers: Callable[[Any], list[dict[str, Any]]] | None = None
    """A game -> the ruleset's own markers in the middle of the table, public facts only, each
    ``{"id", "label", "hint"?, "text"?, "tiles"?, "marks"?}`` (label and text in Latin letters, as
    the tiles, so pages read without CJK fonts; ``hint``: its tooltip; ``marks``: tiles of those
    kinds are marked wherever they show, e.g. the 财神). None: one per ``table_extras`` entry."""
    click_tile: Callable[[Any, int], int | None] = _discard_tile
    """``(game, legal action)`` -> the kind whose tile in the seat's own hand a click plays this
    action with (a discard, a pick to pass on), None for the actions shown as buttons."""
    action_tiles: Callable[[Any, int], list[int]] | None = None
    """``(game, legal action)`` -> the tiles its button shows beside its name (a CHI's run, a
    kong's four); None: names only."""


@dataclass(frozen=True)
class Stats:
    """What the arena and the league count per hand, and in what unit."""

    hand_stats: Callable[[Any], list[dict[str, Any]]] = _seat_stats
    """A finished hand -> per seat: settlement, win, self_draw, deal_in, big_win and ``stat_names``."""
    stat_names: tuple[str, ...] = ()
    """The ruleset's own per-hand counts among ``hand_stats`` (the arena's and league's columns)."""
    unit: Callable[[Any], str] = _points
    """A config -> the unit its settlements count in (tables, reports: Changsha 片 or points)."""


@dataclass(frozen=True)
class Players:
    """The ruleset's rule-based players, each ``player(observation planes, legal actions) -> action``."""

    heuristic: Callable[[Any, list[int]], int]
    """The greedy player (``GreedyAgent``, the bots' fallback, the trainer's opponents)."""
    heuristic_on_game: Callable[[Any, int, list[int]], int] | None = None
    """``(game, seat, legal) -> action``: the greedy player's choice for ``seat`` read from the game
    itself instead of its observation planes (the same facts, the same choice: the rollouts and the
    search's play-outs use it, skipping the encoder); None: they encode the observation."""
    expert: Callable[[Any, list[int]], int] | None = None
    """The stronger player (``make_policy("expert")``: defence, value, the ruleset's own bets), where
    it has one; None: ``ExpertAgent`` refuses it, naming the rulesets that have one."""
    search_options: str = ""
    """The search player's defaults for this ruleset, as search options (``"confirm=16"``): what
    was measured to play it well (docs/search.md); an option the caller names wins."""


@dataclass(frozen=True)
class Ruleset:
    """What the generic layers need of one ruleset beyond its game class's own API.

    A ruleset writes: its game and match classes, how a ``rules`` argument becomes a config, how a
    new hand is dealt, its encoders, its players; the rest has defaults. Every fact lives once:
    the name, the action count, the config class, the default preset and the scenario keys are
    read from the game class (``RULESET``, ``ACTIONS``, ``CONFIG``, ``SCENARIO_KEYS``)."""

    title: str
    """For people: ``"Changsha"`` (tables, page titles)."""
    game: Any
    """The game class (``TableGame``): ``from_scenario``, ``replay``, ``ACTIONS``, ``PHASES`` …"""
    match: Any
    """The match class: ``match(config, hands, seed=...)``."""
    as_config: Callable[[Any], Any]
    """``rules`` argument (preset name, config object or dict) -> the ruleset's config."""
    new_hand: Callable[[Any, Any], Any]
    """``(config, numpy Generator)`` -> a new game; the AEC env deals the same way."""
    encodings: tuple[EncoderSpec, ...]
    """Its observation encoders (each a channel table and its encoder, ``cnmahjong.envs.core.channels``);
    the first is the one its envs use unless told otherwise."""
    players: Players
    view: TableView = TableView()
    stats: Stats = Stats()
    env_module: str | None = None
    """A module that defines its AEC env class as ``raw_env`` (shipped rulesets: ``….env``, so
    instances pickle by reference); None: ``cnmahjong.envs.aec.aec_env`` makes one."""
    core_bench: Callable[..., Any] | None = None
    """``make bench``'s rules-core rows of this ruleset, where it has any: ``core_bench(rng, hands)``
    -> ``[(label, one_pass, target)]``, ``one_pass()`` running once over the prepared hands and
    returning the calls it made (the bench times it)."""
    riichienv_ratio: float = 0.0
    """``make bench``'s target for this ruleset's ``VectorEnv`` decisions (uint8, 64 tables) over
    RiichiEnv's (random play with ``obs.encode()``) measured in the same run; 0: none, the ratio
    is printed alone."""

    # ---- facts of the game class
    @property
    def name(self) -> str:
        """Short name (``"changsha"``), as ``VectorEnv(ruleset=...)`` takes it and event logs carry it."""
        return self.game.RULESET

    @property
    def num_actions(self) -> int:
        return self.game.ACTIONS.NUM_ACTIONS

    @property
    def config_class(self) -> Any:
        """Its ``RuleConfig`` (``PRESETS``, ``option_names()``): how a ``rules`` argument is recognised."""
        return self.game.CONFIG

    @property
    def scenario_keys(self) -> tuple[str, ...]:
        """Scenario keys beyond ``hands``, ``wall`` and ``dealer`` (Changsha ``dice``, Hangzhou ``streak``)."""
        return (*self.game.DEAL_KEYS, *self.game.SCENARIO_KEYS)

    @property
    def max_to_act(self) -> int:
        """The most seats that decide at once (``VectorEnv``'s rows per table)."""
        return self.game.MAX_TO_ACT

    # ---- read-through shortcuts to the groups
    @property
    def render(self) -> Callable[..., str]:
        return self.view.render

    @property
    def seat_tags(self) -> Callable[[Any, int], list[str]]:
        return self.view.seat_tags

    @property
    def table_extras(self) -> Callable[[Any], dict[str, Any]]:
        return self.view.table_extras

    @property
    def event_text(self) -> Callable[[dict[str, Any]], str | None] | None:
        return self.view.event_text

    @property
    def markers(self) -> Callable[[Any], list[dict[str, Any]]] | None:
        return self.view.markers

    @property
    def click_tile(self) -> Callable[[Any, int], int | None]:
        return self.view.click_tile

    @property
    def action_tiles(self) -> Callable[[Any, int], list[int]] | None:
        return self.view.action_tiles

    @property
    def hand_stats(self) -> Callable[[Any], list[dict[str, Any]]]:
        return self.stats.hand_stats

    @property
    def stat_names(self) -> tuple[str, ...]:
        return self.stats.stat_names

    @property
    def unit(self) -> Callable[[Any], str]:
        return self.stats.unit

    @property
    def heuristic(self) -> Callable[[Any, list[int]], int]:
        return self.players.heuristic

    @property
    def expert(self) -> Callable[[Any, list[int]], int] | None:
        return self.players.expert

    @property
    def env_name(self) -> str:
        """The PettingZoo id of its AEC env (``"changsha_mahjong_v0"``)."""
        return env_id(self.name)

    # the default encoding's pieces, as most callers want them
    @property
    def encoding(self) -> EncoderSpec:
        return self.encodings[0]

    @property
    def encoder(self) -> Callable[[], Any]:
        return self.encodings[0].encoder

    @property
    def encoder_name(self) -> str:
        return self.encodings[0].name

    @property
    def shape(self) -> tuple[int, int]:
        return self.encodings[0].shape

    @property
    def to_float(self) -> Callable[..., Any]:
        return self.encodings[0].to_float

    @property
    def presets(self) -> tuple[str, ...]:
        return tuple(self.config_class.PRESETS)

    @property
    def default_rules(self) -> str:
        """The preset an env uses when ``rules`` is not given (the config's first, as the game's)."""
        return self.game.CONFIG.PRESETS[0]

    def encoding_named(self, name: str) -> EncoderSpec:
        for enc in self.encodings:
            if enc.name == name:
                return enc
        raise ValueError(f"the {self.name} ruleset has no encoder {name!r}: allowed "
                         f"{[e.name for e in self.encodings]}")


# ------------------------------------------------------------------ registry
def env_id(name: str) -> str:
    """A ruleset's PettingZoo id (``"changsha_mahjong_v0"``) and Gymnasium id
    (``"cnmahjong/Changsha-v0"``) follow from its name: ``import cnmahjong`` registers them
    without importing the ruleset."""
    return f"{name}_mahjong_v0"


def gym_id(name: str) -> str:
    return f"cnmahjong/{name.capitalize()}-v0"


def register(ruleset: Ruleset | str, name: str | None = None) -> Ruleset:
    """Add a ruleset found outside ``REGISTERED``: the object, or ``"module:attribute"``. Its
    name, presets and encoder names must be new."""
    rs = _load(ruleset) if isinstance(ruleset, str) else ruleset
    if not isinstance(rs, Ruleset):
        raise TypeError(f"register() takes a Ruleset or 'module:attribute', got {type(rs).__name__}")
    if name is not None and name != rs.name:
        raise ValueError(f"register({name!r}): the ruleset calls itself {rs.name!r}")
    if rs.name in REGISTERED or rs.name in _extra:
        if _extra.get(rs.name) is rs:
            return rs
        raise ValueError(f"a ruleset named {rs.name!r} is registered already")
    known_presets, known_encoders = preset_names(), encoder_names()
    clash = sorted(set(rs.presets) & set(known_presets)) + sorted({e.name for e in rs.encodings} & set(known_encoders))
    if clash:
        raise ValueError(f"ruleset {rs.name!r} reuses the names {clash} of registered rulesets")
    _extra[rs.name] = rs
    return rs


def unregister(name: str) -> None:
    """Remove a ``register()``ed ruleset (tests clean up with it); the shipped ones stay. The
    environment variable is read again on the next look-up (setting it again registers again)."""
    global _plugins_read
    if name not in _extra:
        raise ValueError(f"{name!r} was not register()ed: registered at run time {sorted(_extra)}")
    del _extra[name]
    _plugins_read = ""


def _load(where: str) -> Ruleset:
    module, _, attr = where.partition(":")
    return getattr(importlib.import_module(module), attr)


def _read_plugins() -> None:
    """Register the rulesets ``CNMAHJONG_RULESETS`` names (once per value of the variable)."""
    global _plugins_read
    value = os.environ.get(PLUGINS_ENV, "")
    if value == _plugins_read:
        return
    _plugins_read = value
    for where in filter(None, (w.strip() for w in value.split(","))):
        if ":" not in where:
            raise ValueError(f"{PLUGINS_ENV}: {where!r} is not 'module:attribute' (entries are comma-separated)")
        rs = _load(where)
        if _extra.get(getattr(rs, "name", None)) is not rs:
            register(rs)


def ruleset_names() -> tuple[str, ...]:
    """Every registered ruleset's name, shipped ones first."""
    _read_plugins()
    return (*REGISTERED, *_extra)


def get_ruleset(name: str | Ruleset) -> Ruleset:
    """A ``Ruleset`` by name, or the object itself."""
    if isinstance(name, Ruleset):
        return name
    if name not in REGISTERED:
        _read_plugins()
    if name in _extra:
        return _extra[name]
    if name not in REGISTERED:
        raise ValueError(f"unknown ruleset {name!r}: allowed {sorted(ruleset_names())}")
    rs = _loaded.get(name)
    if rs is None:
        rs = _loaded[name] = _load(REGISTERED[name])
    return rs


def rulesets() -> tuple[Ruleset, ...]:
    """Every registered ruleset (imports the shipped ones)."""
    return tuple(get_ruleset(n) for n in ruleset_names())


def preset_names() -> dict[str, str]:
    """Every rule preset by name -> the ruleset it belongs to (the CLIs' ``--rules`` choices)."""
    return {p: rs.name for rs in rulesets() for p in rs.presets}


def encoder_names() -> dict[str, str]:
    """Every observation encoder by name -> its ruleset."""
    return {e.name: rs.name for rs in rulesets() for e in rs.encodings}


def ruleset_of_preset(preset: str) -> Ruleset:
    """The ruleset a preset name belongs to (``"classic"`` -> Changsha, ``"hangzhou"`` -> Hangzhou)."""
    presets = preset_names()
    if preset not in presets:
        raise ValueError(f"unknown rules {preset!r}: allowed {sorted(presets)}")
    return get_ruleset(presets[preset])


def ruleset_of_encoder(encoder: str) -> Ruleset:
    """The ruleset whose observations an encoder name describes."""
    encoders = encoder_names()
    if encoder not in encoders:
        raise ValueError(f"unknown observation encoder {encoder!r}: allowed {sorted(encoders)}")
    return get_ruleset(encoders[encoder])


def encoding_of(encoder: str) -> EncoderSpec:
    """An encoder by name, whichever ruleset holds it."""
    return ruleset_of_encoder(encoder).encoding_named(encoder)


def encoding_of_shape(shape: Sequence[int]) -> EncoderSpec:
    """The one encoder whose planes have this shape (a policy that sees only its observation)."""
    found = [e for rs in rulesets() for e in rs.encodings if e.shape == tuple(shape)]
    if len(found) != 1:
        what = f"ambiguous between {[e.name for e in found]}" if found else "no known encoder's"
        raise ValueError(f"observation shape {tuple(shape)} is {what}: name the ruleset "
                         f"(encoders: {encoder_names()})")
    return found[0]


def ruleset_of_rules(rules: Any) -> Ruleset:
    """The ruleset a ``rules`` argument belongs to: a preset name, a config object, or a dict of
    options (its ``preset`` key, else the ruleset whose options it names; the default when empty)."""
    if rules is None:
        return get_ruleset(DEFAULT_RULESET)
    if isinstance(rules, str):
        return ruleset_of_preset(rules)
    if isinstance(rules, Mapping):
        if "preset" in rules:
            return ruleset_of_preset(rules["preset"])
        if rules:
            for rs in rulesets():
                if set(rules) <= set(rs.config_class.option_names()):
                    return rs
        return get_ruleset(DEFAULT_RULESET)
    for rs in rulesets():
        if isinstance(rules, rs.config_class):
            return rs
    raise TypeError(f"rules must be a preset name {sorted(preset_names())}, a RuleConfig or a dict, "
                    f"got {type(rules).__name__}")


def ruleset_of_events(events: Sequence[Mapping[str, Any]]) -> Ruleset:
    """The ruleset an event log was played under: its deal event (the first) names it."""
    if not events or not isinstance(events[0], Mapping):
        raise ValueError("an event log is a non-empty list whose first event is the deal")
    name = events[0].get("ruleset")
    if name is None:
        raise ValueError(f"the deal event names no ruleset (key 'ruleset': one of {sorted(ruleset_names())}); "
                         f"logs written before the key existed: add it to the first event")
    if not isinstance(name, str):
        raise ValueError(f"the deal event's 'ruleset' must be a string, got {type(name).__name__}")
    return get_ruleset(name)


def __getattr__(name: str) -> Any:
    """The registry's former constants, kept for callers of 0.2: ``PRESETS`` (preset -> ruleset),
    ``ENCODERS`` (encoder -> ruleset), ``RULESETS`` (name -> where)."""
    if name == "PRESETS":
        return preset_names()
    if name == "ENCODERS":
        return encoder_names()
    if name == "RULESETS":
        return {**REGISTERED, **{n: rs for n, rs in _extra.items()}}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""YAML run configs, validated: a bad key or value stops with a message naming it and what is allowed.

Each trainer declares its hyper-parameters in its own file, as a dataclass ``Args`` whose
fields (``hp(...)``) carry their defaults and what is allowed (a range, choices, a check); an
``Args.check()``, where there is one, adds the rules between fields. A YAML config names the trainer (``algo``) and
overrides some of its fields; ``validate`` checks every key and value against that trainer's
``Args`` and fills in the rest.
"""

from __future__ import annotations

import contextlib
import dataclasses
import ipaddress
import math
import os
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar


class ConfigError(ValueError):
    """A run config with an unknown key or a bad value."""


class Range:
    """A numeric range with its description: ``Range(0, 1, low_open=True)`` is ``0 < x ≤ 1``."""

    def __init__(self, low: float | None = None, high: float | None = None, *, low_open: bool = False) -> None:
        self.low, self.high, self.low_open = low, high, low_open

    def ok(self, x: float) -> bool:
        if not math.isfinite(x):
            return False
        if self.low is not None and (x <= self.low if self.low_open else x < self.low):
            return False
        return self.high is None or x <= self.high

    def __str__(self) -> str:
        lo = "" if self.low is None else f"{self.low:g} {'<' if self.low_open else '≤'} "
        hi = "" if self.high is None else f" ≤ {self.high:g}"
        return f"{lo}x{hi}" + (" (finite)" if self.high is None else "")


POSITIVE = Range(0, low_open=True)
AT_LEAST_1 = Range(1)
NON_NEGATIVE = Range(0)
UNIT = Range(0, 1)
WEIGHT = Range(0, 1e6)
"""A relative weight (of a kind of hand, say): bounded so that a sum of them stays finite."""


def hp(default: Any = dataclasses.MISSING, *, factory: Callable[[], Any] | None = None, within: Range | None = None,
       choices: Sequence[str] | Callable[[], Sequence[str]] | None = None,
       check: Callable[[str, Any], None] | None = None) -> Any:
    """A hyper-parameter field of a trainer's ``Args``: its default (or ``factory`` for a list or a
    default found at run time), and what a config may set it to: a range (``within``), ``choices`` (a
    callable for choices known at run time only), or a ``check(key, value)`` raising ``ConfigError``.
    The field's type (``int``, ``float``, ``bool``, ``str``, ``list[...]``, ``... | None``) is checked too."""
    metadata = {"within": within, "choices": choices, "check": check}
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


# -- what the trainers' fields share -----------------------------------------------------------
def default_rules() -> str:
    """The rules a run plays unless told: the default ruleset's default preset."""
    from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, get_ruleset

    return get_ruleset(DEFAULT_RULESET).default_rules


def rule_presets() -> list[str]:
    """Every registered ruleset's presets: the choices of ``rules``."""
    from cnmahjong.envs.core.ruleset import preset_names

    return list(preset_names())


def layer_widths(key: str, value: list[Any]) -> None:
    """Hidden layers within the checkpoint loader's limits (``networks.MAX_LAYERS`` and
    ``MAX_WIDTH``, their one home): a trainer never makes a model its own loader refuses."""
    from cnmahjong.envs.integrations.networks import MAX_LAYERS, MAX_WIDTH

    if not 1 <= len(value) <= MAX_LAYERS or not all(type(w) is int and 1 <= w <= MAX_WIDTH for w in value):
        raise ConfigError(f"bad value {value!r} for {key!r}: a list of 1 to {MAX_LAYERS} layer widths, "
                          f"each an integer 1..{MAX_WIDTH} (what a checkpoint may describe)")


def run_folder(key: str, value: str) -> None:
    """A folder the run can make or write into: not a file, nor below one."""
    path = Path(value or ".")
    if path.exists() and not path.is_dir():
        raise ConfigError(f"bad value {value!r} for {key!r}: it is a file, not a folder: give a folder for the run")
    parent = next((p for p in (path, *path.parents) if p.exists()), Path("."))
    if not parent.is_dir():
        raise ConfigError(f"bad value {value!r} for {key!r}: {str(parent)!r} is a file, so no folder can be made "
                          f"below it: give a folder for the run")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(f"bad value {value!r} for {key!r}: {str(parent)!r} is not writable")


_HOSTNAME = re.compile(r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*", re.ASCII)
_PORT = re.compile(r"[0-9]{1,5}", re.ASCII)


def _host_ok(host: str) -> bool:
    """An IPv4 literal, a bracketed IPv6 literal or an ASCII host name (no scheme, path or user)."""
    if host.startswith("[") and host.endswith("]"):
        return ip_literal_ok(host[1:-1], version=6)
    if re.fullmatch(r"[0-9.]+", host, re.ASCII):
        return ip_literal_ok(host, version=4)
    return _HOSTNAME.fullmatch(host) is not None


def ip_literal_ok(text: str, version: int | None = None) -> bool:
    """An IP address literal (ASCII digits only) that names one host: not 0.0.0.0, ::, nor multicast."""
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return False
    return text.isascii() and (version is None or ip.version == version) and not ip.is_unspecified \
        and not ip.is_multicast


def ray_address(key: str, value: str) -> None:
    """``local``, ``auto`` or ``HOST:PORT`` (a cluster's head, as ``ray start --head`` prints it):
    ASCII digits, a host name or an IP literal, no URL."""
    host, _, port = value.rpartition(":")
    if value in ("local", "auto") or (_host_ok(host) and _PORT.fullmatch(port) and 0 < int(port) < 65536):
        return
    raise ConfigError(f"bad value {value!r} for {key!r}: allowed 'local' (a Ray of its own on this machine), "
                      f"'auto' (the cluster this machine's node is in) or HOST:PORT (a cluster's head: a host "
                      f"name or IP address, a port 1..65535 in ASCII digits; no URL)")


def node_ip(key: str, value: str) -> None:
    """This machine's node address in a Ray cluster: an IP address literal."""
    if not ip_literal_ok(value):
        raise ConfigError(f"bad value {value!r} for {key!r}: an IP address literal of this machine "
                          f"(such as 127.0.0.1 or 10.0.0.5; not a host name, 0.0.0.0 or a multicast address)")


def policy_names(key: str, value: list[Any]) -> None:
    if not value or not all(isinstance(n, str) for n in value):
        raise ConfigError(f"bad value {value!r} for {key!r}: a non-empty list of policy names")


# -- the trainers ------------------------------------------------------------------------------
SCHEMAS: dict[str, str] = {
    "distill": "cnmahjong.training.distill",
    "maskable_ppo": "cnmahjong.training.maskable_ppo",
    "selfplay_ppo": "cnmahjong.training.selfplay_ppo",
    "rllib_ppo": "cnmahjong.training.rllib_ppo",
    "tianshou_dqn": "cnmahjong.training.tianshou_dqn",
}
"""``algo`` -> the trainer module: its ``Args`` (the hyper-parameters) and ``train(cfg)``."""


def trainer(algo: str) -> Any:
    """The trainer module of ``algo`` (imported on first use: each needs its own libraries)."""
    import importlib

    return importlib.import_module(SCHEMAS[algo])


def args_class(algo: str) -> type:
    """The dataclass of ``algo``'s hyper-parameters."""
    return trainer(algo).Args


def _types(hint: Any) -> tuple[tuple[type, ...], bool]:
    """The classes a field's type hint allows, and whether it allows None."""
    members = typing.get_args(hint) if typing.get_origin(hint) in (types.UnionType, typing.Union) else (hint,)
    classes = tuple(typing.get_origin(m) or m for m in members if m is not type(None))
    return classes, type(None) in members


def _type_name(classes: tuple[type, ...]) -> str:
    return " or ".join("number" if t is float else t.__name__ for t in classes)


def _check(key: str, value: Any, hint: Any, meta: Mapping[str, Any]) -> Any:
    """Check one value against its field; return it (ints given for a float field become floats)."""
    classes, nullable = _types(hint)
    if value is None and nullable:
        return value
    choices = meta.get("choices")
    if choices is not None:
        allowed = list(choices() if callable(choices) else choices)
        if not isinstance(value, str) or value not in allowed:
            raise ConfigError(f"bad value {value!r} for {key!r}: allowed {allowed}")
        return value
    rng = meta.get("within")
    if float in classes and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if isinstance(value, bool) and bool not in classes or not isinstance(value, classes):
        raise ConfigError(f"bad value {value!r} for {key!r}: expected {_type_name(classes)}"
                          + (f" with {rng}" if rng else ""))
    if isinstance(value, list):
        value = _check_items(key, value, hint)
    if rng is not None and not rng.ok(value):
        raise ConfigError(f"bad value {value!r} for {key!r}: allowed {rng}")
    if meta.get("check") is not None:
        meta["check"](key, value)
    return value


def _check_items(key: str, value: list[Any], hint: Any) -> list[Any]:
    """A list field's items, each of the type its hint names (``list[str]``: every item a string)."""
    members = typing.get_args(hint) if typing.get_origin(hint) in (types.UnionType, typing.Union) else (hint,)
    item = next((typing.get_args(m)[0] for m in members if typing.get_origin(m) is list and typing.get_args(m)),
                None)
    if item is None:
        return value
    out = []
    for x in value:
        if item is float and type(x) is int:
            x = float(x)
        if type(x) is bool and item is not bool or not isinstance(x, item):
            raise ConfigError(f"bad value {value!r} for {key!r}: expected a list of {_type_name((item,))}s, "
                              f"got {x!r} ({type(x).__name__})")
        out.append(x)
    return out


def validate(raw: dict[str, Any]) -> dict[str, Any]:
    """Check a config mapping against its trainer's ``Args`` and fill in the defaults: the
    config only overrides what the trainer declares."""
    if not isinstance(raw, dict):
        raise ConfigError(f"a config is a mapping of keys to values, got {type(raw).__name__}")
    algo = raw.get("algo")
    if not isinstance(algo, str) or algo not in SCHEMAS:
        raise ConfigError(f"'algo' must be one of {list(SCHEMAS)}, got {algo!r}")
    cls = args_class(algo)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise ConfigError(f"unknown config keys {unknown} for algo {algo!r}: allowed {sorted(fields)}")
    hints = typing.get_type_hints(cls)
    args = cls(**{k: _check(k, raw[k], hints[k], f.metadata) for k, f in fields.items() if k in raw})
    if hasattr(args, "check"):  # the trainer's rules between fields
        args.check()
    return dataclasses.asdict(args)


A = TypeVar("A")


def parse(cfg: Mapping[str, Any] | A, cls: type[A]) -> A:
    """A trainer's ``Args``, validated, from a config mapping (``algo`` the trainer's own unless
    given) or from ``Args`` made in code."""
    raw = dataclasses.asdict(cfg) if isinstance(cfg, cls) else dict(cfg)  # type: ignore[call-overload]
    return cls(**validate({"algo": cls.algo, **raw}))  # type: ignore[attr-defined]


def parse_override(item: str) -> tuple[str, Any]:
    """``KEY=VALUE`` from ``--set``; the value is read as YAML, and a number YAML leaves as text
    (``3e-4``: YAML 1.1 wants ``3.0e-4``) is read as a float."""
    import yaml

    if "=" not in item:
        raise ConfigError(f"--set takes KEY=VALUE, got {item!r}")
    key, text = item.split("=", 1)
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(f"--set {key}: cannot read {text!r} as a value ({e})") from None
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)
    return key.strip(), value


def shipped_configs() -> dict[str, Path]:
    """The run configs shipped with the package (``cnmahjong.configs``), by name."""
    from importlib.resources import files

    folder = Path(str(files("cnmahjong.configs")))
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def resolve(name_or_path: str | Path) -> Path:
    """A config file: a path that exists, or the name of a shipped config (``selfplay_ppo`` or
    ``selfplay_ppo.yaml``, also ``configs/selfplay_ppo.yaml`` from any directory)."""
    path = Path(name_or_path)
    if path.exists():
        return path
    shipped = shipped_configs()
    key = path.name[:-5] if path.name.endswith(".yaml") else path.name
    if (path.parent == Path(".") or path.parent == Path("configs")) and key in shipped:
        return shipped[key]
    raise ConfigError(f"config file {str(path)!r} does not exist; the shipped configs are "
                      f"{', '.join(shipped)} (give a name or a path)")


def load(path: str | Path) -> dict[str, Any]:
    """Read and validate a YAML config file, given by path or by a shipped config's name."""
    import yaml

    path = resolve(path)
    if not path.is_file():
        raise ConfigError(f"config {str(path)!r} is not a file: give a YAML file such as configs/selfplay_ppo.yaml")
    try:
        with path.open(encoding="utf-8") as f:
            raw = yaml.safe_load(f)
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not valid YAML ({e})") from None
    if raw is None:
        raise ConfigError(f"{path}: the config is empty: it needs at least 'algo'")
    try:
        return validate(raw)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None

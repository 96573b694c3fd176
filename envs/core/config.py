"""Rule-option machinery shared by every ruleset's ``RuleConfig`` (presets, dicts, checks).

A ruleset's config is a frozen dataclass whose fields are its options (plus an
``extra`` field that catches unknown names, so the error can list the allowed
ones); it inherits ``RuleOptions`` and names its presets. Validation of each
option stays in the ruleset's ``__post_init__``, written with ``check`` and
``is_int``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, TypeVar

C = TypeVar("C", bound="RuleOptions")


def is_int(x: Any) -> bool:
    """A real integer: bools and integral floats (``2.0``) are not option integers."""
    return isinstance(x, int) and not isinstance(x, bool)


def check(ok: bool, name: str, value: Any, allowed: Any) -> None:
    """Raise ``ValueError`` naming the option, the value and what is allowed, unless ``ok``."""
    if not ok:
        raise ValueError(f"bad value {value!r} for rule option {name!r}: allowed {allowed}")


def check_bools(config: Any, *names: str) -> None:
    """Every named option of ``config`` is True or False."""
    for name in names:
        check(isinstance(getattr(config, name), bool), name, getattr(config, name), "True or False")


class RuleOptions:
    """Constructors and views for a frozen dataclass of rule options (see the module doc)."""

    PRESETS: tuple[str, ...] = ()
    """Preset names; the first is the default."""

    @classmethod
    def preset_options(cls, name: str) -> dict[str, Any]:
        """The options a preset changes from the defaults (override per ruleset)."""
        return {}

    @classmethod
    def option_names(cls) -> list[str]:
        """Names of every rule option."""
        return [f.name for f in dataclasses.fields(cls) if f.name != "extra"]  # type: ignore[arg-type]

    def check_no_extra(self) -> None:
        """Unknown option names (gathered by ``from_dict``) are an error listing the allowed ones."""
        extra = getattr(self, "extra", None)
        if extra:
            raise ValueError(f"unknown rule options {sorted(extra)}: allowed {self.option_names()}")

    @classmethod
    def preset(cls: type[C], name: str | None = None, **overrides: Any) -> C:
        """A named preset, optionally with some options changed."""
        name = cls.PRESETS[0] if name is None else name
        if "preset" in overrides:
            raise ValueError(f"RuleConfig.preset({name!r}) got a second preset "
                             f"{overrides['preset']!r}: name one preset")
        if name not in cls.PRESETS:
            raise ValueError(f"unknown rule preset {name!r}: allowed {cls.PRESETS}")
        return cls.from_dict({**cls.preset_options(name), **overrides})

    @classmethod
    def from_dict(cls: type[C], options: Mapping[str, Any]) -> C:
        """Build from a mapping (e.g. YAML); a ``preset`` key selects the base preset."""
        if not isinstance(options, Mapping):
            raise TypeError(f"rule options must be a mapping of option names to values, "
                            f"got {type(options).__name__}: allowed keys {cls.option_names()} and 'preset'")
        options = dict(options)
        if "preset" in options:
            return cls.preset(options.pop("preset"), **options)
        known = set(cls.option_names())
        unknown = {k: v for k, v in options.items() if k not in known}
        kwargs = {k: cls.convert(k, v) for k, v in options.items() if k in known}
        return cls(**kwargs, extra=unknown)  # type: ignore[call-arg]

    @classmethod
    def convert(cls, name: str, value: Any) -> Any:
        """YAML-friendly conversion of one option value (e.g. a list to a tuple)."""
        return value

    def replace(self: C, **changes: Any) -> C:
        """A copy with some options changed (validated like the constructor)."""
        return type(self).from_dict({**self.to_dict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the options (JSON-serialisable; used by event logs). A fresh dict each
        call, copied from one built once (every deal logs its config): its tuples as new lists."""
        plain, tuples = self._plain
        out = plain.copy()
        for k in tuples:
            out[k] = list(out[k])
        return out

    @functools.cached_property
    def _plain(self) -> tuple[dict[str, Any], tuple[str, ...]]:
        """(the options by name, the names whose value is a tuple)."""
        plain = {name: getattr(self, name) for name in self.option_names()}
        return plain, tuple(k for k, v in plain.items() if isinstance(v, tuple))


def as_config(cls: type[C], rules: str | C | Mapping[str, Any]) -> C:
    """What the envs take as ``rules``: a preset name, a config object or a dict of options."""
    if isinstance(rules, cls):
        return rules
    if isinstance(rules, str):
        return cls.preset(rules)
    if isinstance(rules, Mapping):
        return cls.from_dict(rules)
    raise TypeError(f"rules must be a preset name {cls.PRESETS}, a RuleConfig or a dict, "
                    f"got {type(rules).__name__}")

"""Argument checks shared by every public entry point (engines, envs, configs).

Each check names the argument, what it got and what is allowed, and converts
accepted values to plain Python types (a numpy integer becomes an ``int``, so
event logs stay JSON). ``bool`` is never accepted as an integer, nor an
integer as a ``bool``: ``step(True)`` does not mean action 1.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping, Set
from typing import Any


def int_arg(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a plain ``int`` (Python or numpy integer, not bool) within ``low..high``.

    A non-integer raises ``TypeError``, an integer out of range ``ValueError``.
    """
    if type(value) is not int:
        if isinstance(value, bool) or type(value).__name__ == "bool_":
            raise TypeError(f"{name} must be an integer, got the bool {value!r}")
        try:
            value = operator.index(value)
        except TypeError:
            raise TypeError(f"{name} must be an integer (int or numpy integer), "
                            f"got {type(value).__name__} {value!r}") from None
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            allowed = f"{low} or more"
        elif low is None:
            allowed = f"{high} or less"
        else:
            allowed = f"{low}..{high}"
        raise ValueError(f"{name}={value} out of range: allowed {allowed}")
    return value


def bool_arg(value: Any, name: str) -> bool:
    """``value`` if it is a ``bool`` (or numpy bool); an int or a string is an error."""
    if isinstance(value, bool):
        return value
    if type(value).__name__ == "bool_":
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")


def seed_arg(seed: Any, name: str = "seed") -> int | None:
    """A seed: None or a non-negative integer (numpy integers accepted)."""
    if seed is None:
        return None
    return int_arg(seed, name, low=0)


def positive_float_arg(value: Any, name: str) -> float:
    """A finite number > 0 (int or float, not bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) and type(value).__module__ != "numpy":
        raise TypeError(f"{name} must be a positive number, got {type(value).__name__} {value!r}")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a positive number, got {type(value).__name__} {value!r}") from None
    if not math.isfinite(x) or x <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return x


def sequence_arg(value: Any, name: str) -> list[Any]:
    """An ordered collection (list, tuple, range, numpy array) as a list; sets, dicts,
    strings, None and scalars are errors (their order or meaning is not a sequence)."""
    if isinstance(value, (str, bytes, Mapping, Set)) or value is None \
            or not hasattr(value, "__len__") or not hasattr(value, "__getitem__"):
        raise TypeError(f"{name} must be a list or tuple, got {type(value).__name__} {value!r}")
    return list(value)

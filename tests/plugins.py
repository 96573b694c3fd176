"""A ruleset plugged in at run time, as a user outside the library would: ``CNMAHJONG_RULESETS``
(which the worker processes of the arena and the trainer inherit), undone afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from cnmahjong.envs.core import ruleset as registry
from cnmahjong.envs.core.ruleset import Ruleset


@contextmanager
def plugged_in(where: str) -> Iterator[Ruleset]:
    """Register ``where`` (``"module:ATTR"``) through the environment variable; yield the ruleset;
    unregister it and restore the variable afterwards."""
    mp = pytest.MonkeyPatch()
    mp.setenv(registry.PLUGINS_ENV, where)
    module, _, attr = where.partition(":")
    name = getattr(__import__(module, fromlist=[attr]), attr).name
    try:
        yield registry.get_ruleset(name)
    finally:
        mp.undo()
        registry.unregister(name)

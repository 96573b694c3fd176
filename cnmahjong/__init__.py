"""cnmahjong: Chinese regional mahjong for reinforcement learning — Changsha (长沙麻将) and
Hangzhou (杭州麻将), exact to their rule texts.

One import root, whatever else is installed or lies in your working directory:

- ``cnmahjong.envs``: the engines (``cnmahjong.envs.changsha``, ``cnmahjong.envs.hangzhou``,
  shared machinery in ``cnmahjong.envs.core``), the PettingZoo envs, ``VectorEnv``,
  the single-agent Gymnasium wrapper and the library integrations;
- ``cnmahjong.agents``: policies (random, greedy, checkpoints, the shipped agent);
- ``cnmahjong.training``: trainers, the arena, the replay viewer, the human seat, the bench;
- ``cnmahjong.configs``: run configs (``--config selfplay_ppo``) as package data.

The short names: ``cnmahjong.<ruleset>_mahjong_v0`` (``changsha``, ``hangzhou``, ``sichuan``: modules
with ``env()`` and ``raw_env``, as PettingZoo's own), ``cnmahjong.VectorEnv``,
``cnmahjong.make_policy``. ``cnmahjong.COMPILED`` says whether the compiled hot path runs.

Importing the package registers each shipped ruleset's PettingZoo id (``changsha_mahjong_v0``,
``hangzhou_mahjong_v0``, ``sichuan_mahjong_v0``; ``pettingzoo.make``, PettingZoo ≥ 1.27) and
Gymnasium id (``cnmahjong/Changsha-v0``, ``cnmahjong/Hangzhou-v0``, ``cnmahjong/Sichuan-v0``:
``SingleAgentEnv``, one learning seat against random opponents; ``gymnasium.make`` and
``gymnasium.make_vec``). The engine modules
themselves import no gymnasium, pettingzoo or torch.
"""

from __future__ import annotations

import importlib
from typing import Any

from cnmahjong.envs.hotpath import install_pure_finder

__version__ = "0.2.0"

install_pure_finder()  # CNMAHJONG_PURE=1: every hot module from its .py source

from cnmahjong.envs.core.ruleset import REGISTERED, env_id, gym_id  # noqa: E402 - after the finder

PETTINGZOO_IDS = {env_id(n): "cnmahjong.envs.aec:make_env" for n in REGISTERED}
"""PettingZoo id -> entry point (the AEC env with PettingZoo's standard wrappers; ``ruleset=`` the id's)."""
GYMNASIUM_IDS = {gym_id(n): {"ruleset": n} for n in REGISTERED}
"""Gymnasium id -> ``SingleAgentEnv`` keyword arguments (any may be overridden in ``make``)."""
SINGLE_AGENT_ENTRY = "cnmahjong.envs.wrappers:SingleAgentEnv"

_LAZY = {
    "VectorEnv": ("cnmahjong.envs.vector", "VectorEnv"),
    "SingleAgentEnv": ("cnmahjong.envs.wrappers", "SingleAgentEnv"),
    "make_policy": ("cnmahjong.agents", "make_policy"),
}
_ENV_MODULES = {env_id(n): n for n in REGISTERED}
"""``cnmahjong.changsha_mahjong_v0``: the ruleset's env module (``env()``, ``raw_env``)."""


def _register() -> None:
    """The ids of the module docstring; a PettingZoo without a registry is told once."""
    try:
        import gymnasium
    except ImportError:  # the engines alone need neither library
        gymnasium = None
    if gymnasium is not None:
        for env_id, kwargs in GYMNASIUM_IDS.items():
            if env_id not in gymnasium.registry:
                gymnasium.register(id=env_id, entry_point=SINGLE_AGENT_ENTRY, kwargs=kwargs)
    try:
        import pettingzoo
    except ImportError:
        return
    if not hasattr(pettingzoo, "aec_registry"):
        import warnings

        warnings.warn(f"PettingZoo {getattr(pettingzoo, '__version__', '?')} has no env registry (it came with "
                      f"1.27): pettingzoo.make({next(iter(PETTINGZOO_IDS))!r}) is not available; use "
                      + " and ".join(f"cnmahjong.{i}.env()" for i in PETTINGZOO_IDS), stacklevel=3)
        return
    for pz_id, entry_point in PETTINGZOO_IDS.items():
        if pz_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", pz_id, entry_point=entry_point, kwargs={"ruleset": _ENV_MODULES[pz_id]})


_register()


def __getattr__(name: str) -> Any:
    """The short names, imported on first use (``import cnmahjong`` stays light)."""
    if name == "COMPILED":
        from cnmahjong.envs.hotpath import compiled

        return compiled()
    if name in _ENV_MODULES:
        from cnmahjong.envs.core.ruleset import get_ruleset

        return importlib.import_module(get_ruleset(_ENV_MODULES[name]).env_module)
    if name in _LAZY:
        module, attr = _LAZY[name]
        found = importlib.import_module(module)
        return found if attr is None else getattr(found, attr)
    raise AttributeError(f"module 'cnmahjong' has no attribute {name!r}")


__all__ = ["COMPILED", "GYMNASIUM_IDS", "PETTINGZOO_IDS", "SingleAgentEnv", "VectorEnv", "__version__",
           *_ENV_MODULES, "make_policy"]

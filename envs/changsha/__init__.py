"""Changsha mahjong (长沙麻将): rules core, engine and the PettingZoo environment.

``from envs.changsha import env, raw_env`` gives the AEC environment
``changsha_mahjong_v0`` (and registers it with PettingZoo). The engine modules
(``rules``, ``patterns``, ``scoring``, ``game``) import no RL library and work
without PettingZoo installed.
"""

try:
    from envs.changsha.env import env, raw_env
except ImportError:  # pragma: no cover - the engine alone, without gymnasium/pettingzoo
    pass

__all__ = ["env", "raw_env"]

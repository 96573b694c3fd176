"""Sichuan mahjong 血战到底 (rules ``shared/rules/sichuan.md``): rules core, engine and the
PettingZoo environment.

``from cnmahjong.envs.sichuan import env, raw_env`` gives the AEC environment
``sichuan_mahjong_v0`` (``import cnmahjong`` registers its id with PettingZoo and
``cnmahjong/Sichuan-v0`` with Gymnasium). The engine modules (``rules``, ``actions``,
``patterns``, ``scoring``, ``game``) import no RL library and work without PettingZoo installed.
"""

import contextlib

HOT_MODULES = ('patterns', 'scoring', 'game', 'observation', 'heuristic', 'expert')
"""Its modules on the compiled hot path (``cnmahjong.envs.hotpath`` reads this, unimported)."""
ACCELERATED = ('_planes',)
"""Compiled twins without a ``.py`` (``_planes``: ``sc-v0`` planes in C loops)."""

with contextlib.suppress(ImportError):  # the engine alone works without gymnasium/pettingzoo
    from cnmahjong.envs.sichuan.env import env, raw_env

__all__ = ["env", "raw_env"]

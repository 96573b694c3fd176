"""Hangzhou mahjong (杭州麻将): rules core, engine and the PettingZoo environment.

``from cnmahjong.envs.hangzhou import env, raw_env`` gives the AEC environment
``hangzhou_mahjong_v0``. The engine modules (``rules``, ``patterns``, ``scoring``,
``game``) import no RL library and work without PettingZoo installed.
"""

import contextlib

HOT_MODULES = ('patterns', 'scoring', 'game', 'observation', 'heuristic', 'expert')
"""Its modules on the compiled hot path (``cnmahjong.envs.hotpath`` reads this, unimported)."""
ACCELERATED = ('_planes',)
"""Compiled twins without a ``.py`` (``_planes``: ``hz-v0`` planes in C loops)."""

with contextlib.suppress(ImportError):  # the engine alone works without gymnasium/pettingzoo
    from cnmahjong.envs.hangzhou.env import env, raw_env

__all__ = ["env", "raw_env"]

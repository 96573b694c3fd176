# C types for rollouts.py (pure-Python mode, as ``engine.pxd``): the play loop holds the game as
# the engine's extension type, so ``play_forced`` and ``step`` are C calls through its method table.
from cnmahjong.envs.core.engine cimport TableGame

# C types for vector.py (pure-Python mode, as ``core/rollouts.pxd``): ``step`` and ``_gather`` hold
# each table's game as the engine's extension type, so its ``pending`` is a C field and ``step``,
# ``play_forced`` and ``legal_mask_into`` are C calls through its method table.
from cnmahjong.envs.core.engine cimport TableGame
from cnmahjong.envs.core.planes cimport Twin

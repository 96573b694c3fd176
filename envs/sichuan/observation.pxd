# C types for observation.py (pure-Python mode, as ``game.pxd``): the encoder reads the game's
# public C slots as struct fields (``@cython.locals(game=SichuanGame)``), not by attribute lookup.
from cnmahjong.envs.sichuan.game cimport SichuanGame
from cnmahjong.envs.core.planes cimport therm, therm4, therm_of_kinds

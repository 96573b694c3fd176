# C types for observation.py (pure-Python mode, as ``game.pxd``): the encoder reads the game's
# public C slots as struct fields (``@cython.locals(game=HangzhouGame)``), not by attribute lookup.
from cnmahjong.envs.hangzhou.game cimport HangzhouGame
from cnmahjong.envs.core.planes cimport therm4

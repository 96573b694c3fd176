# C calls for worlds.py (pure-Python mode, as ``shapes.pxd``): ``unseen_row``, asked at every
# tied greedy discard, reads its count rows with the shapes' own C helper, not through a Python call.
from cnmahjong.envs.core.shapes cimport count_bytes
from cnmahjong.envs.core.tiles cimport counts_copy
from cnmahjong.envs.core.meld cimport Meld  # its fields read as C struct members

# asked at every tied greedy discard, as a C call from the fact reader (seat_facts.pxd cimports it)
cpdef bytearray unseen_row(game, int seat)
cdef dict _UNSEEN_HOOKS  # typed: its .get is a C dict lookup

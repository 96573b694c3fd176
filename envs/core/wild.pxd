# C types for wild.py (pure-Python mode, as ``shapes.pxd``): the table path of its win and 爆头
# tests reads the group contents with the shape tables' own C helpers (``shapes.pxd``).
from cnmahjong.envs.core.shapes cimport _group_index, _in_tables

cpdef bint complete(b, int w, bint seven_pairs) except -1
cpdef int sets_need(b) except? -1
cpdef int pairs_need(b) except? -1

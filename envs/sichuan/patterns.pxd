# C signatures for patterns.py (pure-Python mode, as ``envs/core/shapes.pxd``): its wait mask calls
# the shape functions in C.
from cnmahjong.envs.core.shapes cimport count_bytes, hand_wait_mask

# C signatures the greedy player calls (pure-Python mode, as ``envs/core/shapes.pxd``): its shanten
# questions, asked a few hundred times a hand, are C calls into the wildcard tables and the
# natural counts; the ``.py`` keeps the plain imports, which the pure package runs.
from cnmahjong.envs.core.shapes cimport count_bytes, counts_for, lowest_held, lowest_of, new_row
from cnmahjong.envs.core.wild cimport shanten, shanten_after_discard, shanten_after_draw_row
from cnmahjong.envs.hangzhou.patterns cimport natural

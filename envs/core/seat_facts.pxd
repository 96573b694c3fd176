# C types for seat_facts.py (pure-Python mode, as ``engine.pxd``): the fact reader is an extension
# type whose facts are ``cpdef`` methods, and a ruleset's reader is one too (declared in its
# ``heuristic.pxd``), so a greedy player that types its facts as its reader asks each fact with a C
# call, not an attribute lookup and an interpreted call; the game's slots are read as C struct members.
from cnmahjong.envs.core.engine cimport TableGame
from cnmahjong.envs.core.tiles cimport counts_copy
from cnmahjong.envs.core.worlds cimport unseen_row


cdef class SeatFacts:
    cdef public object obs
    cdef public TableGame game
    cdef public object seat
    cpdef phase(self)
    cpdef hand(self)
    cpdef unseen(self)

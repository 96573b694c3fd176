# C types for seat_facts.py (pure-Python mode, as ``engine.pxd``): both fact readers are extension
# types whose facts are ``cpdef`` methods, so a greedy player's questions (several a decision) cost
# a method call, not an attribute lookup and an interpreted call; ``OnGame`` reads its game's slots
# as C struct members. A ruleset's reader subclasses one of them (a Python class, its own facts).
from cnmahjong.envs.core.engine cimport TableGame


cdef class Observed:
    cdef public object obs
    cpdef phase(self)
    cpdef hand(self)
    cpdef unseen(self)


cdef class OnGame:
    cdef public TableGame game
    cdef public object seat
    cpdef phase(self)
    cpdef hand(self)
    cpdef unseen(self)

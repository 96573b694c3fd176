"""Thin adapters between the environments and RL libraries.

``observations.ObservationOptions`` reshapes observations for libraries with
fixed expectations (flat vectors, uint8 planes, RLlib's key names). Adapters
that need a library import it lazily, so the envs never depend on one.
"""

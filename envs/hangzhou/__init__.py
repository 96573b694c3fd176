"""Hangzhou mahjong (杭州麻将): rules core (``rules``, ``patterns``, ``scoring``).

Pure functions over physical kinds 0–33 (honours included); no RL library is
imported. The engine and the PettingZoo env build on these.
"""

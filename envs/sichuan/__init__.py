"""Sichuan mahjong 血战到底 (rules ``shared/rules/sichuan.md``): the third ruleset, in progress.

Not registered yet (``envs/core/ruleset.py``): the rules core (``rules``, ``actions``,
``patterns``, ``scoring``) is here; the engine, env and players follow.
"""

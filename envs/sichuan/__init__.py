"""Sichuan mahjong 血战到底 (rules ``shared/rules/sichuan.md``): the third ruleset, in progress.

Here: the rules core (``rules``, ``actions``, ``patterns``, ``scoring``), the engine (``game``),
the encoder ``sc-v0`` (``observation``), the greedy player (``heuristic``) and the ``Ruleset``
record (``ruleset.SICHUAN``). Not registered yet (``envs/core/ruleset.py``): it plugs in at run
time with ``CNMAHJONG_RULESETS=cnmahjong.envs.sichuan.ruleset:SICHUAN``.
"""

"""Trainers, and the tools beside them, each its own module group; none knows a ruleset (the
registry, ``cnmahjong.envs.core.ruleset``, tells them what they need).

Trainers, one file each with its hyper-parameters (``Args``): ``maskable_ppo``, ``selfplay_ppo``,
``rllib_ppo``, ``tianshou_dqn``; ``train`` (the command line), ``config`` (YAML configs checked
against the trainer's ``Args``), ``demo`` (``make demo``).

Tools: ``arena`` (the duplicate arena as a library, and its CLI; ``evaluate`` is that CLI at its
old path), ``viewer`` (the replay viewer), ``server`` (the human seat), ``bench`` (speed
figures); ``files`` (their output paths, checked first).
"""

"""Policies: callables ``policy(observation, action_mask) -> action`` with an optional ``reset()``.

``make_policy(name)`` builds one from its command-line name: ``random``,
``greedy``, ``pretrained`` (the shipped agent) or ``ckpt:path/to/model.pt``
(a trained checkpoint; both need torch). Checkpoints are read as weights only; an
SB3 ``.zip`` needs ``trust_pickles=True`` (it unpickles code).
"""

from __future__ import annotations

from pathlib import Path

from cnmahjong.agents.greedy import GreedyAgent
from cnmahjong.envs.policy import RandomAgent, reset_policy

POLICY_NAMES = ("random", "greedy", "pretrained", "ckpt:PATH")
PRETRAINED = Path(__file__).parent / "pretrained" / "changsha_strong.pt"
"""The shipped agent (``configs/changsha_strong.yaml``; how it was made: README)."""


def make_policy(name: str, seed: int | None = None, ruleset=None, trust_pickles: bool = False):
    """A policy from its name: ``random``, ``greedy``, ``pretrained`` or ``ckpt:PATH``.

    ``ruleset`` (name or ``Ruleset``): the rules it is to play; a checkpoint of another ruleset
    is refused now, naming the file and both encoders. ``trust_pickles``: allow an SB3 ``.zip``
    (unpickling it can run code)."""
    if not isinstance(name, str):
        raise ValueError(f"a policy name is a string, got {type(name).__name__} {name!r}: "
                         f"allowed {', '.join(POLICY_NAMES)}")
    if name == "random":
        return RandomAgent(seed=seed)
    if name == "greedy":
        return GreedyAgent(ruleset=ruleset)
    if name == "pretrained":
        if not PRETRAINED.exists():
            raise ValueError(f"the shipped agent {PRETRAINED} is missing from this checkout")
        return TorchPolicyLoader(str(PRETRAINED), ruleset=ruleset)
    if name.startswith("ckpt:"):
        return TorchPolicyLoader(name[len("ckpt:"):], ruleset=ruleset, trust_pickles=trust_pickles)
    raise ValueError(f"unknown policy {name!r}: allowed {', '.join(POLICY_NAMES)}")


def TorchPolicyLoader(path: str, deterministic: bool = True, ruleset=None,  # noqa: N802 - reads as a class
                      trust_pickles: bool = False):
    """``TorchPolicy(path, ...)``, imported only when needed (torch is an optional dependency)."""
    from cnmahjong.agents.torch_policy import TorchPolicy

    return TorchPolicy(path, deterministic=deterministic, ruleset=ruleset, trust_pickles=trust_pickles)


__all__ = ["GreedyAgent", "RandomAgent", "TorchPolicyLoader", "make_policy", "reset_policy", "POLICY_NAMES"]

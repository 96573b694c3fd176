"""Policies: callables ``policy(observation, action_mask) -> action`` with an optional ``reset()``.

``make_policy(name)`` builds one from its command-line name: ``random``,
``greedy``, ``pretrained`` (the shipped agent) or ``ckpt:path/to/model.pt``
(a trained checkpoint; both need torch). Checkpoints are read as weights only; an
SB3 ``.zip`` needs ``trust_pickles=True`` (it unpickles code).
"""

from __future__ import annotations

from pathlib import Path

from cnmahjong.agents.greedy import GreedyAgent
from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, get_ruleset
from cnmahjong.envs.policy import RandomAgent, reset_policy

POLICY_NAMES = ("random", "greedy", "pretrained", "ckpt:PATH")
SHIPPED = Path(__file__).parent / "pretrained"
"""The shipped agents, one per ruleset that has one: ``<ruleset>_strong.pt`` (how each was made: README)."""
PRETRAINED = SHIPPED / f"{DEFAULT_RULESET}_strong.pt"
"""The default ruleset's shipped agent."""


def pretrained_path(ruleset=None) -> Path:
    """The shipped agent of ``ruleset`` (name or ``Ruleset``; the default when None), or the default
    ruleset's where that one has none (then refused by its encoder, naming both)."""
    own = SHIPPED / f"{get_ruleset(ruleset or DEFAULT_RULESET).name}_strong.pt"
    return own if own.exists() else PRETRAINED


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
        path = pretrained_path(ruleset)
        if not path.exists():
            raise ValueError(f"the shipped agent {path} is missing from this checkout")
        return TorchPolicyLoader(str(path), ruleset=ruleset)
    if name.startswith("ckpt:"):
        return TorchPolicyLoader(name[len("ckpt:"):], ruleset=ruleset, trust_pickles=trust_pickles)
    raise ValueError(f"unknown policy {name!r}: allowed {', '.join(POLICY_NAMES)}")


def TorchPolicyLoader(path: str, deterministic: bool = True, ruleset=None,  # noqa: N802 - reads as a class
                      trust_pickles: bool = False):
    """``TorchPolicy(path, ...)``, imported only when needed (torch is an optional dependency)."""
    from cnmahjong.agents.torch_policy import TorchPolicy

    return TorchPolicy(path, deterministic=deterministic, ruleset=ruleset, trust_pickles=trust_pickles)


__all__ = ["GreedyAgent", "RandomAgent", "TorchPolicyLoader", "make_policy", "reset_policy", "POLICY_NAMES",
           "PRETRAINED", "pretrained_path"]

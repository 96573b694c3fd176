"""Policies: callables ``policy(observation, action_mask) -> action`` with an optional ``reset()``.

``make_policy(name)`` builds one from its command-line name: ``random``,
``greedy`` (the simple baseline), ``expert`` (the stronger rule-based player), ``search`` or
``search:rollouts=200,policy=expert`` (Monte Carlo search over worlds its seat cannot tell from the
real one, ``cnmahjong.agents.search``; it needs its seat's view of the game, which the arena gives),
``pretrained`` (the ruleset's shipped agent), ``pretrained-<name>`` (a shipped agent by name)
``ckpt:path/to/model.pt`` (a trained checkpoint; the last three need torch) or ``bot:CMD`` (an
outside program speaking the JSON-lines protocol of ``cnmahjong.agents.bot``). Checkpoints are read
as weights only; an SB3 ``.zip`` needs ``trust_pickles=True`` (it unpickles code).
"""

from __future__ import annotations

from pathlib import Path

from cnmahjong.agents.greedy import ExpertAgent, GreedyAgent, RuleAgent
from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, get_ruleset
from cnmahjong.envs.policy import RandomAgent, reset_policy

POLICY_NAMES = ("random", "greedy", "expert", "search", "search:KEY=VALUE,...", "pretrained", "pretrained-NAME",
                "ckpt:PATH", "bot:CMD")
SHIPPED = Path(__file__).parent / "pretrained"
"""The shipped agents: ``<name>.pt``, loaded as ``pretrained-<name>``; a ruleset's own is
``<ruleset>.pt`` (``pretrained`` with that ruleset). Each has its config and eval JSON beside it
(``<name>.yaml``, ``<name>.eval.json``); how each was made: README."""
PRETRAINED = SHIPPED / f"{DEFAULT_RULESET}.pt"
"""The default ruleset's shipped agent."""


def shipped_names(ruleset=None) -> list[str]:
    """The shipped agents' names (``pretrained-<name>``); with ``ruleset``, only those that play
    it (their checkpoint's encoder is one of the ruleset's: loaded and checked, needs torch)."""
    names = sorted(p.stem for p in SHIPPED.glob("*.pt"))
    if ruleset is None:
        return names
    plays = []
    for name in names:
        try:
            TorchPolicyLoader(str(SHIPPED / f"{name}.pt"), ruleset=ruleset)
        except ValueError:
            continue
        plays.append(name)
    return plays


def shipped_path(name: str) -> Path:
    """The file of the shipped agent ``pretrained-<name>``, refused (listing the shipped ones) when
    there is none. Configs name shipped checkpoints this way, so they travel with the package."""
    stem = name[len("pretrained-"):] if name.startswith("pretrained-") else None
    if stem not in shipped_names():
        raise ValueError(f"no shipped agent {name!r}: shipped are "
                         f"{', '.join('pretrained-' + n for n in shipped_names())}")
    return SHIPPED / f"{stem}.pt"


def pretrained_path(ruleset=None) -> Path:
    """The shipped agent of ``ruleset`` (name or ``Ruleset``; the default when None)."""
    name = get_ruleset(ruleset or DEFAULT_RULESET).name
    path = SHIPPED / f"{name}.pt"
    if not path.exists():
        raise ValueError(f"the {name} ruleset has no shipped agent: shipped are "
                         f"{', '.join('pretrained-' + n for n in shipped_names())}")
    return path


def make_policy(name: str, seed: int | None = None, ruleset=None, trust_pickles: bool = False):
    """A policy from its name: ``random``, ``greedy``, ``expert``, ``pretrained`` (the ruleset's
    shipped agent), ``pretrained-<name>`` (a shipped agent by name), ``ckpt:PATH`` or ``bot:CMD``
    (a program playing over stdin/stdout, ``cnmahjong.agents.bot``; ``greedy`` plays its failed decisions).

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
    if name == "expert":
        return ExpertAgent(ruleset=ruleset)
    if name == "search" or name.startswith("search:"):
        from cnmahjong.agents.search import make_search

        return make_search(name[len("search:"):], seed, ruleset)
    if name == "pretrained":
        return TorchPolicyLoader(str(pretrained_path(ruleset)), ruleset=ruleset)
    if name.startswith("pretrained-"):
        return TorchPolicyLoader(str(shipped_path(name)), ruleset=ruleset)
    if name.startswith("ckpt:"):
        return TorchPolicyLoader(name[len("ckpt:"):], ruleset=ruleset, trust_pickles=trust_pickles)
    if name.startswith("bot:"):
        from cnmahjong.agents.bot import BotPolicy

        return BotPolicy(name[len("bot:"):], ruleset=ruleset, fallback=GreedyAgent(ruleset=ruleset))
    raise ValueError(f"unknown policy {name!r}: allowed {', '.join(POLICY_NAMES)}")


def TorchPolicyLoader(path: str, deterministic: bool = True, ruleset=None,  # noqa: N802 - reads as a class
                      trust_pickles: bool = False):
    """``TorchPolicy(path, ...)``, imported only when needed (torch is an optional dependency)."""
    from cnmahjong.agents.torch_policy import TorchPolicy

    return TorchPolicy(path, deterministic=deterministic, ruleset=ruleset, trust_pickles=trust_pickles)


__all__ = ["ExpertAgent", "GreedyAgent", "POLICY_NAMES", "PRETRAINED", "RandomAgent", "RuleAgent", "SHIPPED",
           "TorchPolicyLoader", "make_policy", "pretrained_path", "reset_policy", "shipped_names", "shipped_path"]

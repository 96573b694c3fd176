"""PettingZoo AEC environment ``hangzhou_mahjong_v0`` on the Hangzhou engine.

```python
from cnmahjong.envs.hangzhou import env
table = env(rules={"liability": True})         # "hangzhou", a RuleConfig or a dict of options
table.reset(seed=0)
for seat in table.agent_iter():
    observation, reward, done, cut, info = table.last()
    legal = observation["action_mask"]
    table.step(None if done or cut else table.action_space(seat).sample(legal))
```

Agents ``player_0..player_3`` (seat i). Actions: ``Discrete(75)`` (``actions.py``).
Observations: ``{"observation": float32 (145, 34), "action_mask": int8 (75,)}`` from the
``hz-v0`` encoder (``observation.py``, channel table there and in the README): another
seat's concealed kong shows as a count, its tile only once revealed. Rewards are the
settlement of ``scoring.py`` (承包 included) reaching every seat; the protocol (masks,
infos, scenarios, matches with the §5 streak rule, ``defer_early_payments``) is the one
``cnmahjong.envs.aec`` gives every ruleset (numeric infos, ``box=True``, ``state()`` of
shape (663, 34)). A scenario takes ``hands``, ``wall`` (``wall[0]`` the
indicator), ``dealer`` and ``streak``.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from cnmahjong.envs.aec import aec_env, make_env
from cnmahjong.envs.hangzhou.ruleset import HANGZHOU

ENV_ID = HANGZHOU.env_name
raw_env = aec_env(HANGZHOU, module=__name__)
"""The AEC environment class (PettingZoo's ``raw_env``: no wrappers)."""


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (as the classic envs use them)."""
    return make_env(HANGZHOU, **kwargs)

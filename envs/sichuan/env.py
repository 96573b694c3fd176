"""PettingZoo AEC environment ``sichuan_mahjong_v0`` on the Sichuan 血战到底 engine.

```python
from cnmahjong.envs.sichuan import env
table = env(rules={"zimo_bonus": "fan"})       # "sichuan", a RuleConfig or a dict of options
table.reset(seed=0)
for seat in table.agent_iter():
    observation, reward, done, cut, info = table.last()
    legal = observation["action_mask"]
    table.step(None if done or cut else table.action_space(seat).sample(legal))
```

Agents ``player_0..player_3`` (seat i). Actions: ``Discrete(88)`` (``actions.py``: discards,
the three 换三张 picks one at a time, the 定缺 suit, claims, kongs, HU, PASS). Observations:
``{"observation": float32 (158, 27), "action_mask": int8 (88,)}`` from the ``sc-v0`` encoder
(``observation.py``, channel table there and in the docs). A winner leaves (血战到底): it is
terminated in the step that settles it, with everything paid to it in that step as its reward
(its win, a 呼叫转移); nothing is paid to or by it afterwards, so its summed rewards are its
``result.payments``. The others play on; at the end every remaining seat terminates. The
protocol (masks, infos, scenarios, matches with the §1 dealer rule) is the one
``cnmahjong.envs.aec`` gives every ruleset. A scenario takes ``hands``, ``wall``, ``dealer``
and ``swap_direction``.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from cnmahjong.envs.aec import aec_env, make_env
from cnmahjong.envs.sichuan.ruleset import SICHUAN

ENV_ID = SICHUAN.env_name
raw_env = aec_env(SICHUAN, module=__name__)
"""The AEC environment class (PettingZoo's ``raw_env``: no wrappers)."""


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (as the classic envs use them)."""
    return make_env(SICHUAN, **kwargs)

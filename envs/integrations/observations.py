"""``ObservationOptions``: the env's observations as a library expects them.

```python
from cnmahjong.envs.changsha import env
from cnmahjong.envs.integrations.observations import ObservationOptions
e = ObservationOptions(env(), flat=True, dtype="uint8", obs_key="observations")
# observe(agent) -> {"observations": uint8 (3213,), "action_mask": int8 (99,)}
```

- ``flat=True``: the planes as one ``(C·K,)`` vector (RLlib's masking modules
  and MLPs over a flat Box).
- ``dtype="uint8"``: planes as bytes (4× smaller replay buffers; Tianshou copies
  every observation), exactly as the ruleset's encoder makes them: the wall (and
  Changsha's stack) planes then hold counts (the ruleset's ``to_float`` gives the
  float planes back); every other channel is 0/1 in both dtypes.
- ``obs_key``: the name of the planes in the dict (RLlib: ``"observations"``);
  the mask keeps the key ``"action_mask"``.

On an env made with ``box=True`` (the mask in the infos) the observation stays a bare ``Box``
(``obs_key`` does not apply). Spaces follow the options; rewards, infos and actions pass through
unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper

DTYPES = ("float32", "uint8")
MAX_COUNT = 136
"""Bound of the uint8 planes: the count planes never exceed the tiles of a wall."""


class ObservationOptions(BaseWrapper):
    """Reshape / retype / rename the observation dict of an AEC env (see the module docstring)."""

    def __init__(self, env: Any, flat: bool = False, dtype: str = "float32", obs_key: str = "observation") -> None:
        super().__init__(env)
        if dtype not in DTYPES:
            raise ValueError(f"dtype {dtype!r}: allowed {DTYPES}")
        if not isinstance(obs_key, str) or not obs_key or obs_key == "action_mask":
            raise ValueError(f"obs_key must be a non-empty name other than 'action_mask', got {obs_key!r}")
        if not isinstance(flat, bool):
            raise TypeError(f"flat must be True or False, got {flat!r}")
        self.flat, self.dtype, self.obs_key = flat, np.dtype(dtype), obs_key
        inner = env.observation_space(env.possible_agents[0])
        self.box = isinstance(inner, spaces.Box)
        planes = inner if self.box else inner["observation"]
        shape = (int(np.prod(planes.shape)),) if flat else planes.shape
        high = MAX_COUNT if self.dtype == np.uint8 else 1.0
        box = spaces.Box(0, high, shape, dtype=self.dtype)
        space = box if self.box else spaces.Dict({obs_key: box, "action_mask": inner["action_mask"]})
        self._spaces = {a: space for a in env.possible_agents}
        self._plane_shape = planes.shape

    def observation_space(self, agent: str) -> spaces.Space:
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        obs = self.env.observe(agent)
        planes = obs if self.box else obs["observation"]
        if self.dtype == np.uint8:
            raw = self.env.unwrapped
            if raw.game is None:
                planes = planes.astype(np.uint8)
            else:  # the encoder's own bytes: counts where the float planes hold fractions
                seat = raw.agent_name_mapping[agent]
                planes = np.frombuffer(raw._encode.planes(raw.game, seat), dtype=np.uint8).reshape(planes.shape).copy()
        if self.flat:
            planes = planes.reshape(-1)
        return planes if self.box else {self.obs_key: planes, "action_mask": obs["action_mask"]}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.env.agent_selection
        _, reward, term, trunc, info = self.env.last(observe=False)
        return (self.observe(agent) if observe else None), reward, term, trunc, info

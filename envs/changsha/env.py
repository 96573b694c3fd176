"""PettingZoo AEC environment ``changsha_mahjong_v0`` on the Changsha engine.

```python
from cnmahjong.envs.changsha import env
e = env(rules="mainstream")
e.reset(seed=0)
for agent in e.agent_iter():
    obs, reward, termination, truncation, info = e.last()
    action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
    e.step(action)
```

- Agents ``player_0..player_3`` (seat i). Actions: ``Discrete(99)``, the table
  of ``actions.py``. Observations: ``{"observation": float32 (119, 27),
  "action_mask": int8 (99,)}`` from ``observation.encode`` (encoder ``cs-v0``);
  the mask of a seat not to act is all zeros.
- Only seats with a real choice act: with ``auto_single_actions=True``
  (default) a decision with one legal action is played by the engine.
  Simultaneous decisions (claims on a discard, robbing a kong, wins on
  forced discards) are asked seat by seat, each seeing nothing of the others'
  choices.
- Reward: each seat's settlement (片 or points) credited at the step it is
  paid (opening wins mid-hand, the rest at the end), divided by
  ``reward_scale``; a hand's rewards sum to zero and reach every seat. With
  ``defer_early_payments=True`` (default) a payment made before a seat's first
  decision of the episode (an opening win declared before its first turn) is
  credited as the reward of that first decision (it arrives with the seat's
  next ``last()``), or at the end if the seat never decides: libraries that
  drop a reward given before an agent's first action (RLlib keeps it as a
  "hanging" reward that is never trained on) lose nothing.
- ``action_space(agent).sample()`` without a mask draws a legal action of that
  agent now (random rollouts and env checkers stay legal).
- ``infos[agent]`` is ``{"phase": int}`` at every step, numbers only in one fixed layout
  (TorchRL and replay buffers stack them): the phase's index in ``env.phase_names``.
  ``infos="text"`` gives the phase's name; with it ``result_in_infos=True`` adds a
  ``"result"`` key: ``""`` until the end, then the result (and a match's scores) as a JSON
  string. The hand's result is always ``env.unwrapped.game.result``.
- ``box=True``: the observation is the planes' ``Box`` alone and the mask is
  ``infos[agent]["action_mask"]`` (SuperSuit's observation wrappers need a ``Box``).
- ``state()`` / ``state_space``: the global state for centralised critics
  (``cnmahjong.envs.core.state``), float32 (557, 27).
- An illegal action raises ``IllegalActionError``: never a silent pass.
- ``hands_per_episode=N`` plays a match of N hands with the §9 dealer rule.
- ``reset(options={"scenario": {...}})`` starts from a scenario as
  ``ChangshaGame.from_scenario`` takes it (keys ``hands``, ``wall``, ``dealer``,
  ``dice``).
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from cnmahjong.envs.aec import aec_env, make_env
from cnmahjong.envs.changsha.ruleset import CHANGSHA

ENV_ID = CHANGSHA.env_name
raw_env = aec_env(CHANGSHA, module=__name__)
"""The AEC environment class (PettingZoo's ``raw_env``: no wrappers)."""


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (as the classic envs use them)."""
    return make_env(CHANGSHA, **kwargs)

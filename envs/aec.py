"""The PettingZoo AEC environment every ruleset shares (``changsha_mahjong_v0``,
``hangzhou_mahjong_v0``): one hand (or a match) per episode, seats ``player_0..player_3``.

- Actions: the ruleset's ``Discrete`` table. Observations: ``{"observation": float32
  planes, "action_mask": int8}`` from the ruleset's encoder; the mask of a seat not to act
  is all zeros.
- Only seats with a real choice act: with ``auto_single_actions=True`` (default) a
  decision with one legal action is played by the engine. Simultaneous decisions (claims
  on a discard) are asked seat by seat, each seeing nothing of the others' choices.
- Reward (``cnmahjong.envs.core.rewards.Ledger``, shared with ``VectorEnv``): each seat's
  settlement credited at the step it is paid, divided by ``reward_scale``; a hand's rewards sum
  to zero and reach every seat. With
  ``defer_early_payments=True`` (default) a payment made before a seat's first decision of
  the episode is credited as the reward of that first decision (or at the end if the seat
  never decides): libraries that drop a reward given before an agent's first action (RLlib
  keeps it as a "hanging" reward that is never trained on) lose nothing.
- ``action_space(agent).sample()`` without a mask draws a legal action of that agent now.
- ``infos[agent]`` is ``{"phase": int}`` at every step, one fixed layout of numbers only (TorchRL
  and every library that stacks infos into tensors): the phase's index in ``env.phase_names``
  (the ruleset's ``game.PHASES``). ``infos="text"`` gives ``{"phase": str}`` instead, and then
  ``result_in_infos=True`` adds a ``"result"`` key: ``""`` until the end, then the result (and a
  match's scores) as a JSON string.
- ``box=True``: the observation is the ``Box`` of planes alone and the mask travels in
  ``infos[agent]["action_mask"]`` (PettingZoo's other convention; SuperSuit's observation
  wrappers take only a ``Box``).
- ``state()`` / ``state_space``: the whole table from nobody's point of view, for centralised
  critics (``cnmahjong.envs.core.state``: every seat's observation, the wall in order, the
  dice ahead); it never enters an observation.
- An illegal action raises ``IllegalActionError``: never a silent pass.
- ``encoder="name"``: observations from another of the ruleset's named encoders (checkpoints
  record theirs); the ruleset's first by default.
- ``hands_per_episode=N`` plays a match of N hands with the ruleset's dealer rule.
- ``reset(options={"scenario": {...}})`` starts from a scenario as the game's
  ``from_scenario`` takes it (keys ``hands``, ``wall``, ``dealer`` and the ruleset's own).
"""

from __future__ import annotations

import importlib
import json
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cnmahjong.envs.core.checks import bool_arg, int_arg, positive_float_arg, seed_arg
from cnmahjong.envs.core.engine import NUM_SEATS, IllegalActionError
from cnmahjong.envs.core.rewards import Ledger
from cnmahjong.envs.core.ruleset import Ruleset, get_ruleset
from cnmahjong.envs.core.state import state_layout
from cnmahjong.envs.spaces import LegalDiscrete


def wrap(e: AECEnv) -> AECEnv:
    """PettingZoo's standard wrappers, as the classic envs use them."""
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class MahjongAECEnv(AECEnv):
    """One ruleset's game as an AEC environment (see the module docstring); a ruleset's
    ``raw_env`` sets ``RULESET`` and ``metadata``."""

    RULESET: Ruleset
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, rules: Any = None,
                 render_mode: str | None = None, reward_scale: float = 1.0,
                 auto_single_actions: bool = True, hands_per_episode: int = 1,
                 defer_early_payments: bool = True, result_in_infos: bool = False,
                 infos: str = "numeric", box: bool = False, encoder: str | None = None,
                 departed: str = "remove") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: allowed {self.metadata['render_modes']} or None")
        self.reward_scale = positive_float_arg(reward_scale, "reward_scale")
        self.hands_per_episode = int_arg(hands_per_episode, "hands_per_episode", low=1)
        self.auto_single_actions = bool_arg(auto_single_actions, "auto_single_actions")
        self.defer_early_payments = bool_arg(defer_early_payments, "defer_early_payments")
        self.result_in_infos = bool_arg(result_in_infos, "result_in_infos")
        if infos not in INFO_FORMATS:
            raise ValueError(f"infos={infos!r}: allowed {INFO_FORMATS}")
        if self.result_in_infos and infos != "text":
            raise ValueError("result_in_infos=True adds the result as a JSON string: pass infos='text' with it "
                             "(the default infos='numeric' holds numbers only)")
        self.info_format = infos
        if departed not in DEPARTED:
            raise ValueError(f"departed={departed!r}: allowed {DEPARTED}")
        self.departed = departed
        """What happens to an agent whose account closed mid-hand: see ``DEPARTED``."""
        self.box = bool_arg(box, "box")
        rs = self.RULESET
        self.config = rs.as_config(rs.default_rules if rules is None else rules)
        self.render_mode = render_mode
        self.encoding = rs.encoding if encoder is None else rs.encoding_named(encoder)
        """The observation encoder (``encoder=``: any of the ruleset's by name; its first by default)."""
        self.encoder = self.encoding.name
        self._encode = self.encoding.encoder()
        self.possible_agents = [f"player_{i}" for i in range(NUM_SEATS)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: LegalDiscrete(rs.num_actions, _MaskOf(self, i))
                              for i, a in enumerate(self.possible_agents)}
        planes = spaces.Box(0.0, 1.0, self.encoding.shape, dtype=np.float32)
        obs_space = planes if self.box else spaces.Dict({
            "observation": planes,
            "action_mask": spaces.Box(0, 1, (rs.num_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.phase_names: tuple[str, ...] = rs.game.PHASES
        """``infos[agent]["phase"]`` (numeric infos) is an index into this table."""
        self._phase_code = {p: i for i, p in enumerate(self.phase_names)}
        self._state = state_layout(rs, self.encoding)
        self._ledger = Ledger(1, NUM_SEATS, self.reward_scale, self.defer_early_payments)
        """Who is paid when (``cnmahjong.envs.core.rewards``): the rewards of every step."""
        self._rewarded = False
        self.state_space = spaces.Box(0.0, 1.0, self._state.shape, dtype=np.float32)
        self.game: Any = None
        self.match: Any = None
        self._seed_rng = np.random.default_rng()
        self.last_action: tuple[int, int] | None = None
        self._phase_infos: dict[str, dict[str, dict[str, Any]]] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------- reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        rs = self.RULESET
        seed = seed_arg(seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"reset options must be a dict (e.g. {{'scenario': {{...}}}}), "
                            f"got {type(options).__name__}")
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        options = options or {}
        unknown = set(options) - {"scenario"}
        if unknown:  # PettingZoo's api_test passes arbitrary options, so warn rather than raise
            warnings.warn(f"ignoring unknown reset options {sorted(unknown)}: allowed ['scenario']",
                          stacklevel=2)
        if "scenario" in options:
            if self.hands_per_episode != 1:
                raise ValueError("a scenario is one hand: use hands_per_episode=1")
            sc = options["scenario"]
            extra = rs.scenario_keys
            if not isinstance(sc, dict):
                raise TypeError(f"the scenario must be a dict with keys hands, wall (dealer, "
                                f"{', '.join(extra)}), got {type(sc).__name__}")
            allowed = {"hands", "wall", "dealer", *extra}
            if set(sc) - allowed or "hands" not in sc or "wall" not in sc:
                raise ValueError(f"a scenario takes the keys {sorted(allowed)} ('hands' and 'wall' required; "
                                 f"give wall='' for an empty wall), got {sorted(sc)}")
            game = rs.game.from_scenario(sc["hands"], sc["wall"], dealer=sc.get("dealer", 0), config=self.config,
                                         seed=int(self._seed_rng.integers(2**63)),
                                         **{k: sc[k] for k in extra if k in sc})
            self.match = None
            self.game = game
        elif self.hands_per_episode > 1:
            self.match = rs.match(self.config, self.hands_per_episode,
                                  seed=int(self._seed_rng.integers(2**63)))
            self.game = self.match.game
        else:
            self.match = None
            self.game = rs.new_hand(self.config, self._seed_rng)
        self.agents = self.possible_agents[:]
        self._leaving: list[str] = []  # agents terminated mid-hand, in settlement order, not yet removed
        self._resume: str | None = None  # the agent to act once they are removed
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._ledger.start()
        self._rewarded = False
        self.last_action = None
        self._advance()

    # ------------------------------------------------------------------ step
    def step(self, action: int | None) -> None:
        if self.game is None:
            raise IllegalActionError("step() before reset(): call reset() first")
        if not self.agents:
            raise IllegalActionError("step() after the episode ended (every agent is done): call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must choose an action: None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        seat = self.agent_name_mapping[agent]
        self._play(seat, action)
        self._advance()
        if not self._ledger.decided[0][seat]:  # its first decision: early payments become its reward
            self._deliver(seat, self._ledger.decide(0, seat))
        if self.render_mode == "human":
            self.render()

    def _play(self, seat: int, action: int) -> None:
        """Apply one decision (the game checks its legality first)."""
        if self.match is not None:
            self.match.step(seat, action)
            self.game = self.match.game
        else:
            self.game.step(seat, action)
        self.last_action = (seat, int(action))

    def _advance(self) -> None:
        """Play forced decisions, credit new payments, pick the next agent or end.

        This runs once per decision, so it touches only what changed: rewards when a
        payment was made, infos when the phase changed.
        """
        if self.auto_single_actions:
            played = (self.match or self.game).play_forced()
            if played is not None:
                self.last_action = played
                self.game = self.match.game if self.match is not None else self.game
        game = self.game
        self._credit()
        if game.done and (self.match is None or self.match.done):
            for a in self.agents:
                self.terminations[a] = True
            for s, held in enumerate(self._ledger.release()):
                self._deliver(s, held)
            self.infos = self._final_infos()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[next(iter(game.pending))]
            self.infos = self._masked_infos(game.phase) if self.box else self._shared_infos(game.phase)
            if self.match is None and game.seats_settled:
                self._terminate_settled(game.seats_settled)

    def _terminate_settled(self, settled: tuple[int, ...]) -> None:
        """Seats whose account closed mid-hand (``game.seats_settled``: a 血战 winner) end their
        episode now: terminated, everything held back for them delivered, selected next (in
        settlement order) for their dead step, which removes them; the others play on."""
        agents = self.possible_agents
        new = [agents[s] for s in settled if agents[s] in self.agents and not self.terminations[agents[s]]]
        if not new:
            return
        for a in new:
            self.terminations[a] = True
            self._deliver(self.agent_name_mapping[a], self._ledger.decide(0, self.agent_name_mapping[a]))
        done = self._phase_value("done")
        self.infos = {a: dict(info) for a, info in self.infos.items()}  # its own dicts: dead steps remove keys
        for a in new:
            self.infos[a]["phase"] = done
        if self.departed == "stay":  # never selected again; removed with the others when the hand ends
            return
        if not self._leaving:
            self._resume = self.agent_selection
        self._leaving += new
        self.agent_selection = self._leaving[0]

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's dead step (the agent is removed), with the agents that left mid-hand
        selected in settlement order and play resuming where it was once they are gone. The action
        is ignored: None by PettingZoo's convention, but TorchRL's wrapper steps a done agent with
        the placeholder its policy wrote, and a hand must not stop on that."""
        agent = self.agent_selection
        for d in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del d[agent]
        self.agents.remove(agent)
        if agent in self._leaving:
            self._leaving.remove(agent)
        if self._leaving:
            self.agent_selection = self._leaving[0]
        elif self._resume is not None and not self.game.done:
            self.agent_selection, self._resume = self._resume, None
        else:
            dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
            if dead:
                self.agent_selection = dead[0]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False

    def _phase_value(self, phase: str) -> int | str:
        return phase if self.info_format == "text" else self._phase_code[phase]

    def _shared_infos(self, phase: str) -> dict[str, dict[str, Any]]:
        """``{"phase": ...}`` per agent: one mapping per phase, made once per env (the agents' dicts
        are shared between steps of one phase, as PettingZoo's classic envs do)."""
        infos = self._phase_infos.get(phase)
        if infos is None:
            extra = {"result": ""} if self.result_in_infos else {}
            value = self._phase_value(phase)
            infos = self._phase_infos[phase] = {a: {"phase": value, **extra} for a in self.possible_agents}
        if len(self.agents) < NUM_SEATS:  # some agents left mid-hand: the live ones only
            return {a: dict(infos[a]) for a in self.agents}
        return infos

    def _masked_infos(self, phase: str) -> dict[str, dict[str, Any]]:
        """``box=True``: each agent's own mask beside the phase, made anew at every step."""
        value = self._phase_value(phase)
        infos = {a: {"phase": value, "action_mask": self._mask(self.agent_name_mapping[a])} for a in self.agents}
        if self.result_in_infos:
            for info in infos.values():
                info["result"] = ""
        return infos

    def _mask(self, seat: int) -> np.ndarray:
        if self.game is None:
            return np.zeros(self.RULESET.num_actions, dtype=np.int8)
        return np.frombuffer(self.game.legal_mask(seat), dtype=np.int8)

    def _final_infos(self) -> dict[str, dict[str, Any]]:
        """The phase ``done`` per agent (with a zero mask when ``box``), and the result as JSON
        when ``result_in_infos``."""
        if self.box:  # the masks are all zeros now: the box view's layout, kept to the end
            infos = self._masked_infos("done")
        else:
            done = self._phase_value("done")
            infos = {a: {"phase": done} for a in self.agents}
        if self.result_in_infos:
            result = self.game.result.to_dict() if self.game.result is not None else {}
            if self.match is not None:
                result["scores"] = list(self.match.scores)
            text = json.dumps(result, ensure_ascii=False)
            for info in infos.values():
                info["result"] = text
        return infos

    def _deliver(self, seat: int, amount: float) -> None:
        """Add a held-back payment to this step's reward of ``seat`` (its first decision, or the end)."""
        if amount:
            a = self.possible_agents[seat]
            if not self._rewarded:  # this step credited nothing else: start from zero
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._rewarded = True
            self.rewards[a] += amount
            self._cumulative_rewards[a] += amount

    def _credit(self) -> None:
        """Rewards of this step: the payments made since the last credit (the ledger holds back a
        seat's share until its first decision), added to the cumulative rewards. A step without
        payments costs one list comparison."""
        if self.match is not None:
            totals = [self.match.scores[s] + (0 if self.game.done else self.game.payments[s])
                      for s in range(NUM_SEATS)]
        else:
            totals = self.game.payments
        due = self._ledger.pay(0, totals)
        if due is None:
            if self._rewarded:
                self._rewarded = False
                self.rewards = dict.fromkeys(self.agents, 0.0)
            return
        if len(self.agents) < NUM_SEATS:
            gone = [s for s, a in enumerate(self.possible_agents) if a not in self.agents and due[s]]
            if gone:
                raise RuntimeError(f"seats {gone} were paid after their account closed (they were settled: "
                                   f"{type(self.game).__name__}.seats_settled must not list a seat that a later "
                                   f"payment concerns)")
            due = [due[self.agent_name_mapping[a]] for a in self.agents]
            self.rewards = dict(zip(self.agents, due, strict=True))
        else:
            self.rewards = dict(zip(self.possible_agents, due, strict=True))
        self._rewarded = True
        self._accumulate_rewards()

    # ----------------------------------------------------------- observation
    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        seat = self.agent_name_mapping[agent]
        if self.game is None:
            planes = np.zeros(self.encoding.shape, dtype=np.float32)
        else:
            planes = self._encode(self.game, seat)
        if self.box:
            return planes
        return {"observation": planes, "action_mask": self._mask(seat)}

    def state(self) -> np.ndarray:
        """The global state (``state_space``): every seat's observation, the wall in order and the
        dice ahead, float32 planes (channel table in ``cnmahjong.envs.core.state``)."""
        layout = self._state
        if self.game is None:
            return np.zeros(layout.shape, dtype=np.float32)
        u8 = np.frombuffer(layout.planes(self.game, self._encode), dtype=np.uint8).reshape(layout.shape)
        return layout.to_float(u8)

    # ---------------------------------------------------------------- render
    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        if self.game is None:
            text = "(no hand: call reset())"
        else:
            viewer = self.game.to_act[0] if self.game.to_act else None
            text = self.RULESET.render(self.game, viewer, self.last_action)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


DEPARTED = ("remove", "stay")
"""``departed=``: an agent whose account closed mid-hand (``game.seats_settled``, a 血战 winner) is
terminated in that step with everything paid to it, then either selected next for its dead step,
which removes it from ``agents`` (``"remove"``, PettingZoo's way), or kept in ``agents``, never
selected again, until the hand ends (``"stay"``: for TorchRL's ``PettingZooWrapper``, which
observes every possible agent at every step)."""

INFO_FORMATS = ("numeric", "text")
"""``infos=``: numbers only (the phase's index in ``phase_names``), or the phase's name."""


class _MaskOf:
    """The current action mask of one seat (for ``LegalDiscrete``; a class, so the env pickles)."""

    def __init__(self, env: MahjongAECEnv, seat: int) -> None:
        self.env, self.seat = env, seat

    def __call__(self) -> np.ndarray:
        return self.env._mask(self.seat)


_ENV_CLASSES: dict[str, type[MahjongAECEnv]] = {}


def aec_env(ruleset: str | Ruleset, module: str | None = None) -> type[MahjongAECEnv]:
    """The ``raw_env`` class of a ruleset (by name or object), made once per ruleset.

    ``module``: the module the class is to belong to (a shipped ruleset's ``env`` module, so
    instances pickle by reference); by default this one, under the name ``raw_env_<ruleset>``."""
    rs = get_ruleset(ruleset)
    cls = _ENV_CLASSES.get(rs.name)
    if cls is None and module is None and rs.env_module is not None:
        return importlib.import_module(rs.env_module).raw_env
    if cls is None:
        qualname = "raw_env" if module else f"raw_env_{rs.name}"
        cls = type(qualname, (MahjongAECEnv,), {
            "RULESET": rs, "__module__": module or __name__, "__qualname__": qualname,
            "metadata": {"name": rs.env_name, "render_modes": ["human", "ansi"], "is_parallelizable": False},
            "__doc__": f"{rs.title} mahjong as an AEC environment (``cnmahjong.envs.aec``). ``rules``: a preset "
                       f"({', '.join(rs.presets)}; default {rs.default_rules}), a RuleConfig or a dict of options.",
        })
        _ENV_CLASSES[rs.name] = cls
        if module is None:
            globals()[qualname] = cls
    return cls


def make_env(ruleset: str | Ruleset, **kwargs: Any) -> AECEnv:
    """A ruleset's environment with PettingZoo's standard wrappers (as the classic envs use them)."""
    return wrap(aec_env(ruleset)(**kwargs))

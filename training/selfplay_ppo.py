"""Self-play PPO on the batched ``VectorEnv``, in one readable file (CleanRL style).

Every hyper-parameter is a field of ``Args`` below, with its default and what is allowed; a
YAML config (``configs/selfplay_ppo.yaml``, ``configs/changsha_strong.yaml``) overrides some of
them. The loop:

1. **Workers** (``num_workers``, one per core: local processes, or with ``backend: ray``
   Ray actors on any node of a cluster, ``rollout_backends``) each run a ``VectorEnv``
   of ``tables_per_worker`` tables and a copy of the network. At each vector
   step every pending decision is one row; the rows of each policy go through
   that policy in one forward pass. Every hand seats a mix drawn from the pool:
   the learner at all four seats (self-play, weight ``selfplay_weight``), or
   ``learner_seats`` learner seats against ``GreedyAgent`` (``greedy_weight``),
   ``ExpertAgent`` (``expert_weight``), uniformly random play (``random_weight``),
   a fixed checkpoint such as a shipped agent (``opponent_checkpoints``,
   ``checkpoint_weight``) or a frozen snapshot of the learner (``snapshot_weight``).
2. A **transition** is one learner decision. Its reward is everything that seat
   was paid until its next decision (payments before its first decision of a
   hand go to that first decision), so every settlement reaches every seat.
   A hand's transitions are sent to the learner once the hand is over, with GAE
   advantages along each seat's own decisions; hands still running at the end
   of a rollout are finished in the next one (their log-probabilities are kept,
   so PPO's ratio stays exact).
3. The **learner** (main process, on ``device``: ``auto`` takes CUDA when torch sees it) runs
   PPO's clipped objective, value loss and entropy bonus over shuffled minibatches and sends
   the new weights back (CPU copies; with Ray one object in its store per rollout, read by
   every worker). Checkpoints hold CPU tensors whatever the device.

``run_dir/log.jsonl`` has a line per update: the decisions, collection and learning seconds,
the end-to-end rates, every worker's node and decisions per second, the hands finished and
``settlement_mismatch`` (the largest gap between a learner seat's return and its settlement,
0 when every payment reached it), the settlements against each opponent kind and the losses.

Optional **imitation warm start** (``bc_decisions`` > 0): the workers first play
hands of four ``bc_teacher`` players (``greedy`` or ``expert``) recording every
decision; the network is trained to predict the teacher's action (cross-entropy
on masked logits) and the return (value head), then PPO continues from there.

Reward is the settlement divided by ``reward_scale``; no shaping.
"""

from __future__ import annotations

import importlib.util
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from cnmahjong.envs.core.ruleset import encoder_names, encoding_of, ruleset_of_preset
from cnmahjong.envs.integrations.networks import ActorCritic, cpu_weights, load_actor_critic, save_actor_critic
from cnmahjong.envs.vector import VectorEnv
from cnmahjong.training.config import (
    AT_LEAST_1,
    NON_NEGATIVE,
    POSITIVE,
    UNIT,
    WEIGHT,
    ConfigError,
    Range,
    default_rules,
    hp,
    layer_widths,
    node_ip,
    parse,
    ray_address,
    rule_presets,
    run_folder,
)
from cnmahjong.training.rollout_backends import Backend, ProcessWorkers, RayWorkers, find_ray_head


@dataclass(frozen=True)
class Args:
    """The hyper-parameters (a config's keys), their defaults and what is allowed."""

    algo: str = hp("selfplay_ppo", choices=("selfplay_ppo",))
    run_dir: str = hp("runs/train", check=run_folder)
    rules: str = hp(factory=default_rules, choices=rule_presets)  # a preset of any registered ruleset
    encoder: str | None = hp(None)  # one of the ruleset's observation encoders by name (None: its first)
    seed: int = hp(0, within=NON_NEGATIVE)
    device: str = hp("cpu", choices=("cpu", "cuda", "auto"))  # the learner's; workers run on the CPU
    # -- the run's length
    total_timesteps: int = hp(200_000, within=AT_LEAST_1)  # learner decisions
    max_minutes: float | None = hp(None, within=POSITIVE)  # stop early (None: run to total_timesteps)
    # -- the network
    arch: str = hp("mlp", choices=("mlp", "conv"))  # conv: 1-D convolutions over each suit's kinds
    net_arch: list[int] = hp(factory=lambda: [256, 256], check=layer_widths)
    init_checkpoint: str | None = hp(None)  # start from a self-play .pt checkpoint (a path or pretrained-NAME)
    # -- collection
    num_workers: int = hp(2, within=AT_LEAST_1)  # rollout workers, one per core
    backend: str = hp("processes", choices=("processes", "ray"))  # where they run: local processes or Ray actors
    address: str = hp("local", check=ray_address)  # backend ray: local (a Ray of its own), auto or HOST:PORT
    node_ip_address: str | None = hp(None, check=node_ip)  # backend ray: this machine's node, an IP address
    #                                                        (None: Ray's own pick; 127.0.0.1 for a local Ray)
    tables_per_worker: int = hp(64, within=AT_LEAST_1)  # VectorEnv tables per worker: rows of one forward pass
    steps_per_rollout: int = hp(32, within=AT_LEAST_1)  # vector steps per worker between updates
    reward_scale: float = hp(10.0, within=POSITIVE)  # settlements are divided by this
    # -- who sits at the table: hand kinds drawn by weight
    selfplay_weight: float = hp(1.0, within=WEIGHT)  # the learner at all four seats
    greedy_weight: float = hp(0.0, within=WEIGHT)  # learner_seats learner seats against GreedyAgent
    expert_weight: float = hp(0.0, within=WEIGHT)  # ... against ExpertAgent
    random_weight: float = hp(0.0, within=WEIGHT)  # ... against uniformly random play
    snapshot_weight: float = hp(0.0, within=WEIGHT)  # ... against a frozen snapshot of the learner
    checkpoint_weight: float = hp(0.0, within=WEIGHT)  # ... against one of opponent_checkpoints
    opponent_checkpoints: list[str] = hp(factory=list)  # fixed opponents: .pt paths or pretrained-NAME
    learner_seats: int = hp(1, within=Range(1, 3))
    snapshot_every_updates: int = hp(10, within=AT_LEAST_1)
    max_snapshots: int = hp(5, within=AT_LEAST_1)
    # -- imitation warm start
    bc_decisions: int = hp(0, within=NON_NEGATIVE)  # teacher decisions to imitate first (0: none)
    bc_teacher: str = hp("greedy", choices=("greedy", "expert"))  # the rule-based player imitated
    bc_epochs: int = hp(2, within=AT_LEAST_1)
    bc_learning_rate: float = hp(1e-3, within=POSITIVE)
    # -- PPO
    learning_rate: float = hp(3e-4, within=POSITIVE)
    gamma: float = hp(0.99, within=Range(0, 1, low_open=True))
    gae_lambda: float = hp(0.95, within=UNIT)
    clip_range: float = hp(0.2, within=POSITIVE)
    ent_coef: float = hp(0.01, within=NON_NEGATIVE)
    vf_coef: float = hp(0.5, within=NON_NEGATIVE)
    max_grad_norm: float = hp(0.5, within=POSITIVE)
    n_epochs: int = hp(4, within=AT_LEAST_1)
    batch_size: int = hp(256, within=AT_LEAST_1)
    checkpoint_every_updates: int = hp(20, within=AT_LEAST_1)

    def check(self) -> None:
        """The rules between fields, and what lies outside the config, all before the run folder
        is made: some kind of hand is played; every checkpoint loads (weights only, as the run
        will load it) and reads the learner's observations; CUDA is there if asked for; a Ray
        cluster named by ``address`` answers."""
        if sum(w for _, w in self.hand_kinds()) <= 0:
            raise ConfigError(f"{', '.join(repr(k + '_weight') for k, _ in self.hand_kinds())} are all 0: "
                              "at least one kind of hand must be played")
        if self.checkpoint_weight and not self.opponent_checkpoints:
            raise ConfigError("'checkpoint_weight' is above 0 but 'opponent_checkpoints' is empty: name the files")
        rs = ruleset_of_preset(self.rules)
        own = [e.name for e in rs.encodings]
        if self.encoder is not None and self.encoder not in own:
            raise ConfigError(f"bad value {self.encoder!r} for 'encoder': the rules {self.rules!r} have {own}")
        if self.encoder not in (None, own[0]) and (self.greedy_weight or self.expert_weight or self.bc_decisions):
            raise ConfigError(f"the rule-based players read {own[0]!r} observations: with 'encoder' "
                              f"{self.encoder!r} set 'greedy_weight', 'expert_weight' and 'bc_decisions' to 0")
        if rs.expert is None and (self.expert_weight or (self.bc_decisions and self.bc_teacher == "expert")):
            raise ConfigError(f"the {rs.name} ruleset has no expert player: set 'expert_weight' to 0 and "
                              f"'bc_teacher' to 'greedy'")
        if self.device == "cuda" and not torch.cuda.is_available():
            raise ConfigError("'device' is 'cuda' but torch sees no CUDA device: use 'cpu' or 'auto'")
        if self.backend == "ray" and importlib.util.find_spec("ray") is None:
            raise ConfigError("'backend: ray' needs Ray: pip install \"ray>=2.40\" (or the rllib extra, "
                              "pip install -e \".[rllib]\")")
        if self.backend == "processes" and (self.address != "local" or self.node_ip_address is not None):
            raise ConfigError("'address' and 'node_ip_address' are for 'backend: ray': the process backend "
                              "runs its workers on this machine")
        if self.init_checkpoint is not None:
            load_checkpoint(self.init_checkpoint, "init_checkpoint", self.learner_encoder())
        for p in self.opponent_checkpoints:
            load_checkpoint(p, "opponent_checkpoints", self.learner_encoder())
        if self.backend == "ray" and self.address != "local":
            try:
                find_ray_head(self.address)
            except ConnectionError as e:
                raise ConfigError(f"bad value {self.address!r} for 'address': {e}") from None

    def learner_encoder(self) -> str:
        """The encoder whose observations the learner reads (``encoder``, else the rules' first)."""
        return self.encoder or ruleset_of_preset(self.rules).encoder_name

    def hand_kinds(self) -> list[tuple[str, float]]:
        """The kinds of hand and their weights, in ``_draw_roles``'s order."""
        return [("selfplay", self.selfplay_weight), ("greedy", self.greedy_weight), ("expert", self.expert_weight),
                ("random", self.random_weight), ("checkpoint", self.checkpoint_weight),
                ("snapshot", self.snapshot_weight)]


def checkpoint_file(name: str, key: str) -> Path:
    """A config's checkpoint: a file path, or ``pretrained-NAME`` (a shipped agent, found in the
    installed package); refused with the key and what is allowed when neither."""
    if name.startswith("pretrained-"):
        from cnmahjong.agents import shipped_path

        try:
            return shipped_path(name)
        except ValueError as exc:
            raise ConfigError(f"bad value {name!r} for {key!r}: {exc}") from None
    if not Path(name).is_file():
        raise ConfigError(f"bad value {name!r} for {key!r}: no such file (a .pt path or pretrained-NAME)")
    return Path(name)


def load_checkpoint(name: str, key: str, encoder: str, device: str = "cpu") -> ActorCritic:
    """A config's checkpoint loaded as every use of it loads it (weights only: no code runs),
    reading ``encoder``'s observations; a file that does not load, or one of other rules, is a
    ``ConfigError`` naming the key."""
    try:
        net = load_actor_critic(str(checkpoint_file(name, key)), device)
    except ValueError as e:
        raise ConfigError(f"bad value {name!r} for {key!r}: {e}") from None
    if net.encoder != encoder:
        names = encoder_names()
        raise ConfigError(f"bad value {name!r} for {key!r}: it reads encoder {net.encoder!r} ({names[net.encoder]}) "
                          f"observations, the learner {encoder!r} ({names[encoder]})")
    return net


LEARNER, GREEDY, EXPERT, RANDOM = 0, 1, 2, 3  # seat roles; network k (checkpoints, then snapshots): NETS + k
NETS = 4
RULE_PLAYERS = {GREEDY: "greedy", EXPERT: "expert"}


# ------------------------------------------------------------------ storage
class Rollout:
    """Transitions of one worker, growing arrays; hands finish in any order."""

    def __init__(self, shape: tuple[int, int], num_actions: int, num_tables: int, capacity: int = 4096) -> None:
        self.n = 0
        self.arrays = {
            "obs": np.zeros((capacity, *shape), np.uint8), "mask": np.zeros((capacity, num_actions), np.int8),
            "act": np.zeros(capacity, np.int64), "logp": np.zeros(capacity, np.float32),
            "val": np.zeros(capacity, np.float32), "rew": np.zeros(capacity, np.float32),
            "done": np.zeros(capacity, bool), "next": np.full(capacity, -1, np.int64),
            "complete": np.zeros(capacity, bool),
        }
        self.last = np.full((num_tables, 4), -1, np.int64)  # open transition of each seat
        self.hand_ids: list[list[int]] = [[] for _ in range(num_tables)]

    def add(self, tables: np.ndarray, seats: np.ndarray, obs: np.ndarray, mask: np.ndarray, act: np.ndarray,
            logp: np.ndarray, val: np.ndarray) -> None:
        k = len(tables)
        if self.n + k > len(self.arrays["act"]):
            for name, arr in self.arrays.items():
                grown = np.zeros((2 * len(arr) + k, *arr.shape[1:]), arr.dtype)
                if name == "next":
                    grown[:] = -1
                grown[:self.n] = arr[:self.n]
                self.arrays[name] = grown
        a, i0 = self.arrays, self.n
        ids = np.arange(i0, i0 + k)
        a["obs"][ids], a["mask"][ids], a["act"][ids] = obs, mask, act
        a["logp"][ids], a["val"][ids] = logp, val
        a["rew"][ids] = 0
        a["done"][ids] = False
        a["complete"][ids] = False
        a["next"][ids] = -1
        prev = self.last[tables, seats]
        linked = prev >= 0
        a["next"][prev[linked]] = ids[linked]
        self.last[tables, seats] = ids
        for t, i in zip(tables.tolist(), ids.tolist(), strict=True):
            self.hand_ids[t].append(i)
        self.n += k

    def credit(self, rewards: np.ndarray, recorded: np.ndarray) -> None:
        """Add this step's rewards to each recorded seat's open transition. The VectorEnv defers a
        payment made before a seat's first decision to the step that answers it
        (``defer_early_payments``, the envs' one reward path), so every payment finds its transition."""
        for t, s in zip(*np.nonzero(rewards * recorded), strict=True):
            i = self.last[t, s]
            if i >= 0:
                self.arrays["rew"][i] += rewards[t, s]

    def end_hand(self, t: int) -> None:
        a = self.arrays
        for s in range(4):
            if self.last[t, s] >= 0:
                a["done"][self.last[t, s]] = True
        a["complete"][self.hand_ids[t]] = True
        self.last[t] = -1
        self.hand_ids[t] = []

    def take_complete(self, gamma: float, lam: float) -> dict[str, np.ndarray]:
        """GAE over the finished hands; returns their transitions and keeps the rest."""
        a, n = self.arrays, self.n
        done_ids = np.flatnonzero(a["complete"][:n])
        adv = np.zeros(n, np.float32)
        rew, val, nxt, done = a["rew"], a["val"], a["next"], a["done"]
        for i in done_ids[::-1].tolist():  # a seat's next decision always has a larger id
            if done[i]:
                adv[i] = rew[i] - val[i]
            else:
                j = nxt[i]
                adv[i] = rew[i] + gamma * val[j] - val[i] + gamma * lam * adv[j]
        out = {k: a[k][done_ids].copy() for k in ("obs", "mask", "act", "logp", "val")}
        out["adv"] = adv[done_ids]
        out["ret"] = out["adv"] + out["val"]
        keep = np.flatnonzero(~a["complete"][:n])
        remap = np.full(n + 1, -1, np.int64)  # index n stands for -1
        remap[keep] = np.arange(len(keep))
        for arr in a.values():
            arr[:len(keep)] = arr[keep]
        a["next"][:len(keep)] = remap[a["next"][:len(keep)]]
        self.last = remap[self.last]
        self.hand_ids = [[int(remap[i]) for i in ids] for ids in self.hand_ids]
        self.n = len(keep)
        return out


# ------------------------------------------------------------------ workers
def _to_float(net: ActorCritic, obs_u8: np.ndarray) -> np.ndarray:
    """The float planes of ``net``'s encoder from the uint8 rows ``VectorEnv`` gives."""
    return encoding_of(net.encoder).to_float(obs_u8)


def _policy_actions(net: ActorCritic, obs_u8: np.ndarray, mask: np.ndarray, rng: np.random.Generator,
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sampled actions, their log-probabilities and the values, one forward pass."""
    with torch.no_grad():
        logits, value = net(torch.from_numpy(_to_float(net, obs_u8)), torch.from_numpy(mask))
        logp_all = torch.log_softmax(logits, dim=-1).numpy()
    u = rng.random(len(mask))[:, None]
    act = np.minimum((np.exp(logp_all).cumsum(axis=1) < u).sum(axis=1), mask.shape[1] - 1)
    act = np.where(mask[np.arange(len(act)), act] == 1, act, logp_all.argmax(axis=1))  # rounding guard
    return act, logp_all[np.arange(len(act)), act], value.numpy()


def _draw_roles(args: Args, rng: np.random.Generator, snapshots: int) -> np.ndarray:
    """Seat roles of a new hand: all learner, or learner seats against one kind of opponent."""
    weights = np.array([w for _, w in args.hand_kinds()])
    weights[-1] *= bool(snapshots)
    if not weights.any():  # only snapshots asked for, none made yet: self-play meanwhile
        return np.zeros(4, np.int64)
    kind = rng.choice(len(weights), p=weights / weights.sum())
    if kind == 0:
        return np.zeros(4, np.int64)
    fixed = len(args.opponent_checkpoints)
    opponent = (GREEDY, EXPERT, RANDOM, NETS + int(rng.integers(max(fixed, 1))),
                NETS + fixed + int(rng.integers(max(snapshots, 1))))[kind - 1]
    roles = np.full(4, opponent, np.int64)
    roles[rng.choice(4, args.learner_seats, replace=False)] = LEARNER
    return roles


class RolloutWorker:
    """One rollout worker: a ``VectorEnv``, the learner's network and the opponents, playing
    ``steps`` vector steps per command. Every backend (``rollout_backends``: a local process or
    a Ray actor) runs this same object, so the seeds (``seed`` and the worker's index) fix its
    data whatever the backend."""

    def __init__(self, args: Args, worker_id: int) -> None:
        torch.set_num_threads(1)
        from cnmahjong.agents.greedy import ExpertAgent, GreedyAgent

        self.args = args
        self.rng = rng = np.random.default_rng([args.seed, worker_id])
        torch.manual_seed(args.seed * 1000 + worker_id)
        self.rs = rs = ruleset_of_preset(args.rules)
        self.venv = venv = VectorEnv(args.tables_per_worker, args.rules, seed=int(rng.integers(2**63)),
                                     obs_dtype=np.uint8, reward_scale=args.reward_scale, ruleset=rs,
                                     encoder=args.encoder, defer_early_payments=True,
                                     log=not rs.game.PLAYS_WITHOUT_LOG)  # nothing here reads the log
        self.enc = enc = venv.encoding
        self.net = ActorCritic(args.net_arch, args.arch, encoder=enc.name)
        self.fixed = [load_checkpoint(p, "opponent_checkpoints", enc.name) for p in args.opponent_checkpoints]
        self.snapshots: list[ActorCritic] = []
        self.rule_players = {GREEDY: GreedyAgent(rs)}
        if rs.expert is not None:
            self.rule_players[EXPERT] = ExpertAgent(rs)
        self.teacher = GREEDY if args.bc_teacher == "greedy" else EXPERT
        self.batch: Any = None
        self.store: Rollout | None = None
        self.mode: str | None = None  # the first command deals (``mode`` changes from None)
        self.roles = np.zeros((venv.num_tables, 4), np.int64)
        self.returns = np.zeros((venv.num_tables, 4), np.float32)
        self.stats: list[tuple[int, float]] = []  # per finished hand and learner seat: (opponent role, return)

    def _new_roles(self) -> np.ndarray:
        if self.mode == "bc":
            return np.full(4, self.teacher)
        return _draw_roles(self.args, self.rng, len(self.snapshots))

    def _load(self, weights: dict | None, snapshots: list | None) -> None:
        if weights is not None:
            self.net.load_state_dict(weights)
        if snapshots is not None:
            self.snapshots = []
            for w in snapshots:
                s = ActorCritic(self.args.net_arch, self.args.arch, encoder=self.enc.name)
                s.load_state_dict(w)
                self.snapshots.append(s)

    def run(self, cmd: str, steps: int, weights: dict | None, snapshots: list | None) -> dict[str, Any]:
        """``steps`` vector steps of ``cmd`` (``ppo``, or ``bc``: four teachers recorded); the
        finished hands' transitions with their advantages, the decisions played, the seconds it
        took, per learner seat its opponent and return, and how far any recorded seat's return was
        from its settlement (``settlement_mismatch``, in the ruleset's unit: 0 when every payment
        arrived, up to float32 rounding)."""
        self._load(weights, snapshots)
        if cmd != self.mode:  # switching between imitation and PPO: start fresh hands
            self._deal(cmd)
        t0 = time.perf_counter()
        decisions = hands = 0
        mismatch = 0.0
        for _ in range(steps):
            actions = self._act(self.batch)
            decisions += len(actions)
            games = list(self.venv.games)  # a finished hand's game, which step() replaces by the next deal
            self.batch = self.venv.step(actions)
            finished, gap = self._settle(self.batch, games)
            hands += finished
            mismatch = max(mismatch, gap)
        lam = 1.0 if self.mode == "bc" else self.args.gae_lambda
        data: dict[str, Any] = self.store.take_complete(self.args.gamma, lam)
        data.update(decisions=decisions, seconds=time.perf_counter() - t0, stats=self.stats, hands=hands,
                    settlement_mismatch=mismatch)
        self.stats = []
        return data

    def _deal(self, mode: str) -> None:
        """Fresh hands at every table for ``mode``, with an empty store."""
        self.mode = mode
        self.store = Rollout(self.enc.shape, self.rs.num_actions, self.venv.num_tables)
        self.batch = self.venv.reset(seed=int(self.rng.integers(2**63)))
        for t in range(self.venv.num_tables):
            self.roles[t] = self._new_roles()
        self.returns[:] = 0

    def _act(self, batch: Any) -> np.ndarray:
        """Every row's action, each policy's rows in one call; the recorded rows go to the store."""
        rng, store, bc = self.rng, self.store, self.mode == "bc"
        row_roles = self.roles[batch.table, batch.seat]
        actions = np.zeros(len(batch), np.int64)
        learner = np.flatnonzero(row_roles == LEARNER)
        if len(learner):
            obs, mask = batch.obs[learner], batch.mask[learner]
            act, logp, val = _policy_actions(self.net, obs, mask, rng)
            actions[learner] = act
            store.add(batch.table[learner], batch.seat[learner], obs, mask, act, logp, val)
        rows = np.flatnonzero(row_roles == RANDOM)
        if len(rows):
            actions[rows] = (rng.random((len(rows), self.rs.num_actions)) * batch.mask[rows]).argmax(axis=1)
        for k, other in enumerate(self.fixed + self.snapshots):
            rows = np.flatnonzero(row_roles == NETS + k)
            if len(rows):
                actions[rows] = _policy_actions(other, batch.obs[rows], batch.mask[rows], rng)[0]
        for role, player in self.rule_players.items():
            rows = np.flatnonzero(row_roles == role)
            if not len(rows):
                continue
            floats = self.enc.to_float(batch.obs[rows])
            act = np.array([player(o, m) for o, m in zip(floats, batch.mask[rows], strict=True)], np.int64)
            actions[rows] = act
            if bc:
                store.add(batch.table[rows], batch.seat[rows], batch.obs[rows], batch.mask[rows], act,
                          np.zeros(len(rows), np.float32), np.zeros(len(rows), np.float32))
        return actions

    def _settle(self, batch: Any, games: list[Any]) -> tuple[int, float]:
        """Credit the step's rewards to the recorded seats and close the hands that ended (``games``:
        each table's game before the step); returns the hands ended and the largest gap between a
        recorded seat's return and its settlement."""
        roles, returns, store = self.roles, self.returns, self.store
        recorded = (roles == self.teacher) if self.mode == "bc" else (roles == LEARNER)
        if batch.rewards.any():
            store.credit(batch.rewards, recorded)
            returns += batch.rewards * recorded
        ended = np.flatnonzero(batch.hand_over).tolist()
        gap = 0.0
        for t in ended:
            store.end_hand(t)
            opponent = int(roles[t].max())
            paid = games[t].result.payments
            for s in np.flatnonzero(recorded[t]).tolist():
                self.stats.append((opponent, float(returns[t, s])))
                gap = max(gap, abs(float(returns[t, s]) * self.args.reward_scale - paid[s]))
            returns[t] = 0
            roles[t] = self._new_roles()
        return len(ended), gap


ARRAYS = ("obs", "mask", "act", "logp", "val", "adv", "ret")


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The workers' parts of one rollout as one batch, in worker order; ``workers``: each worker's
    node, host and decisions per second (its own collection time)."""
    out: dict[str, Any] = {k: np.concatenate([p[k] for p in parts]) for k in ARRAYS}
    out["decisions"] = sum(p["decisions"] for p in parts)
    out["seconds"] = max(p["seconds"] for p in parts)
    out["stats"] = [s for p in parts for s in p["stats"]]
    out["hands"] = sum(p["hands"] for p in parts)
    out["settlement_mismatch"] = max(p["settlement_mismatch"] for p in parts)
    out["workers"] = [{"node": p["node"], "host": p["host"], "pid": p["pid"], "decisions": p["decisions"],
                       "decisions_per_second": p["decisions"] / max(p["seconds"], 1e-9)} for p in parts]
    return out


class Workers:
    """The rollout workers on the configured backend (``backend``): ``collect`` returns one merged rollout."""

    def __init__(self, args: Args) -> None:
        # a checkpoint path as every worker sees it, whatever its working directory (on a cluster the
        # file must be at that path on every node; pretrained-NAME is found in each node's package)
        paths = [p if p.startswith("pretrained-") else str(Path(p).resolve()) for p in args.opponent_checkpoints]
        args = replace(args, opponent_checkpoints=paths)
        fargs = [(args, i) for i in range(args.num_workers)]
        self.backend: Backend = (RayWorkers(RolloutWorker, fargs, args.address, args.node_ip_address)
                                 if args.backend == "ray" else ProcessWorkers(RolloutWorker, fargs))

    def collect(self, cmd: str, steps: int, weights: dict | None, snapshots: list | None) -> dict[str, Any]:
        return merge(self.backend.collect(cmd, steps, weights, snapshots))

    def close(self) -> None:
        self.backend.close()


# ------------------------------------------------------------------ learning
def _minibatches(n: int, size: int, rng: np.random.Generator):
    perm = rng.permutation(n)
    for start in range(0, n, size):
        yield torch.from_numpy(perm[start:start + size])


def _tensors(data: dict[str, np.ndarray], idx: torch.Tensor, device: str, to_float: Any,
             ) -> tuple[torch.Tensor, torch.Tensor]:
    i = idx.numpy()
    obs = torch.from_numpy(to_float(data["obs"][i])).to(device)
    return obs, torch.from_numpy(data["mask"][i]).to(device)


def imitation(net: ActorCritic, opt: torch.optim.Optimizer, data: dict[str, np.ndarray], epochs: int,
              batch_size: int, vf_coef: float, max_grad_norm: float, rng: np.random.Generator,
              device: str, keep: ActorCritic | None = None, keep_coef: float = 0.0) -> dict[str, float]:
    """Behaviour cloning: cross-entropy to the recorded actions, value regression to returns
    (the imitation warm start here, and ``cnmahjong.training.distill``). With ``keep`` (a frozen
    network) and ``keep_coef`` > 0, plus ``keep_coef`` × KL(keep's policy ‖ the net's) over the
    legal actions: a fine-tune that learns where the labels differ without drifting elsewhere."""
    act, ret = torch.from_numpy(data["act"]), torch.from_numpy(data["ret"])
    stats = {}
    for _ in range(epochs):
        correct = total = 0
        for mb in _minibatches(len(act), batch_size, rng):
            obs, mask = _tensors(data, mb, device, encoding_of(net.encoder).to_float)
            logits, value = net(obs, mask)
            a = act[mb].to(device)
            ce = nn.functional.cross_entropy(logits, a)
            v_loss = 0.5 * ((value - ret[mb].to(device)) ** 2).mean()
            loss = ce + vf_coef * v_loss
            if keep is not None and keep_coef:
                with torch.no_grad():
                    old = torch.log_softmax(keep(obs, mask)[0], dim=-1)
                new = torch.log_softmax(logits, dim=-1)
                legal = mask != 0
                kl = torch.where(legal, old.exp() * (old - new), torch.zeros_like(new)).sum(-1).mean()
                loss = loss + keep_coef * kl
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_grad_norm)
            opt.step()
            correct += int((logits.argmax(-1) == a).sum())
            total += len(mb)
        stats = {"bc_cross_entropy": ce.item(), "bc_value_loss": v_loss.item(), "bc_accuracy": correct / total}
    return stats


def ppo_update(net: ActorCritic, opt: torch.optim.Optimizer, data: dict[str, np.ndarray], args: Args,
               rng: np.random.Generator, device: str) -> dict[str, float]:
    """PPO epochs over shuffled minibatches; returns the last minibatch's losses."""
    act, old_logp = torch.from_numpy(data["act"]), torch.from_numpy(data["logp"])
    adv_all, ret = torch.from_numpy(data["adv"]), torch.from_numpy(data["ret"])
    stats: dict[str, float] = {}
    for _ in range(args.n_epochs):
        for mb in _minibatches(len(act), args.batch_size, rng):
            obs, mask = _tensors(data, mb, device, encoding_of(net.encoder).to_float)
            logits, value = net(obs, mask)
            dist = torch.distributions.Categorical(logits=logits)
            logp = dist.log_prob(act[mb].to(device))
            ratio = torch.exp(logp - old_logp[mb].to(device))
            adv = adv_all[mb].to(device)
            adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(mb) > 1 else adv
            clipped = torch.clamp(ratio, 1 - args.clip_range, 1 + args.clip_range)
            pg = -torch.min(ratio * adv, clipped * adv).mean()
            v_loss = 0.5 * ((value - ret[mb].to(device)) ** 2).mean()
            entropy = dist.entropy().mean()
            loss = pg + args.vf_coef * v_loss - args.ent_coef * entropy
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
            opt.step()
            stats = {"policy_loss": pg.item(), "value_loss": v_loss.item(), "entropy": entropy.item()}
    return stats


def _summary(stats: list[tuple[int, float]], reward_scale: float, fixed: int) -> dict[str, float]:
    """Mean settlement per hand of a learner seat, by opponent kind (in the ruleset's unit, unscaled)."""
    out = {}
    for name, pick in (("selfplay", lambda r: r == LEARNER), ("vs_greedy", lambda r: r == GREEDY),
                       ("vs_expert", lambda r: r == EXPERT), ("vs_random", lambda r: r == RANDOM),
                       ("vs_checkpoint", lambda r: NETS <= r < NETS + fixed),
                       ("vs_snapshot", lambda r: r >= NETS + fixed)):
        vals = [v for r, v in stats if pick(r)]
        if vals:
            out[f"settlement_{name}"] = float(np.mean(vals)) * reward_scale
            out[f"hands_{name}"] = len(vals)
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def train(cfg: Mapping[str, Any] | Args) -> Path:
    """Imitation warm start (optional), then PPO until ``total_timesteps`` learner decisions or
    ``max_minutes``; returns the final checkpoint. ``cfg``: a config mapping (validated here) or ``Args``."""
    args = parse(cfg, Args)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    device = args.device if args.device != "auto" else "cuda" if torch.cuda.is_available() else "cpu"
    if args.init_checkpoint:
        net = load_checkpoint(args.init_checkpoint, "init_checkpoint", args.learner_encoder(), device)
        net.train()
    else:
        net = ActorCritic(args.net_arch, args.arch, encoder=args.learner_encoder()).to(device)
    args = replace(args, net_arch=list(net.net_arch), arch=net.arch, encoder=net.encoder)
    run_dir = Path(args.run_dir)  # made once everything above has been checked
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    opt = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
    start = time.time()
    deadline = None if args.max_minutes is None else start + 60 * args.max_minutes
    log = (run_dir / "log.jsonl").open("w", encoding="utf-8")
    workers = Workers(args)
    try:
        if args.bc_decisions:
            parts = []
            collected = 0
            steps = max(1, args.steps_per_rollout)
            while collected < args.bc_decisions:
                part = workers.collect("bc", steps, None, None)
                parts.append(part)
                collected += len(part["act"])
                print(f"\rimitation data: {collected:,}/{args.bc_decisions:,} {args.bc_teacher} decisions", end="",
                      flush=True)
            data = {k: np.concatenate([p[k] for p in parts]) for k in ("obs", "mask", "act", "ret")}
            del parts
            bc_opt = torch.optim.Adam(net.parameters(), lr=args.bc_learning_rate, eps=1e-5)
            stats = imitation(net, bc_opt, data, args.bc_epochs, args.batch_size, args.vf_coef, args.max_grad_norm,
                              rng, device)
            del data
            print(f"\nimitation: {stats}")
            log.write(json.dumps({"phase": "imitation", "decisions": collected, "minutes": (time.time() - start) / 60,
                                  **stats}) + "\n")
            save_actor_critic(net, run_dir / "checkpoints" / "imitation.pt")
        learner_decisions = updates = 0
        snapshots: list[dict[str, torch.Tensor]] = []
        send_snapshots = True
        while learner_decisions < args.total_timesteps and (deadline is None or time.time() < deadline):
            t0 = time.perf_counter()
            data = workers.collect("ppo", args.steps_per_rollout, cpu_weights(net),
                                   snapshots if send_snapshots else None)
            send_snapshots = False
            t1 = time.perf_counter()
            if len(data["act"]):
                stats = ppo_update(net, opt, data, args, rng, device)
            else:
                stats = {}
            t2 = time.perf_counter()
            updates += 1
            learner_decisions += len(data["act"])
            record = {"phase": "ppo", "update": updates, "learner_decisions": learner_decisions,
                      "env_decisions": data["decisions"], "collect_seconds": t1 - t0, "learn_seconds": t2 - t1,
                      "learner_threads": torch.get_num_threads(),
                      "decisions_per_second": (len(data["act"])) / max(t2 - t0, 1e-9),
                      "minutes": (time.time() - start) / 60,
                      "env_decisions_per_second": data["decisions"] / max(t2 - t0, 1e-9),  # end to end
                      "collect_decisions_per_second": data["decisions"] / max(t1 - t0, 1e-9),
                      "hands": data["hands"], "settlement_mismatch": data["settlement_mismatch"],
                      "backend": args.backend, "workers": data["workers"],
                      **_summary(data["stats"], args.reward_scale, len(args.opponent_checkpoints)),
                      **stats}
            log.write(json.dumps(record) + "\n")
            log.flush()
            left = "" if deadline is None else f"  {max(0.0, deadline - time.time()) / 60:.1f} min left"
            vs = "".join(f"  vs {k} {record[f'settlement_vs_{k}']:+.2f}" for k in ("greedy", "expert", "checkpoint")
                         if f"settlement_vs_{k}" in record)
            nodes = {w["node"] for w in data["workers"]}
            where = f"{_plural(len(data['workers']), 'worker')} on {_plural(len(nodes), 'node')}"
            print(f"\rupdate {updates}  learner decisions {learner_decisions:,}/{args.total_timesteps:,}"
                  f"  {record['decisions_per_second']:,.0f}/s  {where}" + vs + left + "   ", end="", flush=True)
            if updates % args.snapshot_every_updates == 0:
                snapshots = (snapshots + [cpu_weights(net)])[-args.max_snapshots:]
                send_snapshots = True
            if updates % args.checkpoint_every_updates == 0:
                save_actor_critic(net, run_dir / "checkpoints" / f"model_{learner_decisions}.pt")
        print()
    finally:
        workers.close()
        log.close()
    return save_actor_critic(net, run_dir / "model.pt")

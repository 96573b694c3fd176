"""Self-play PPO on the batched ``VectorEnv``, in one readable file (CleanRL style).

Every hyper-parameter comes from the YAML config (``configs/selfplay_ppo.yaml``,
``configs/changsha_strong.yaml``). The loop:

1. **Workers** (``num_workers`` processes, one per core) each run a ``VectorEnv``
   of ``tables_per_worker`` tables and a copy of the network. At each vector
   step every pending decision is one row; the rows of each policy go through
   that policy in one forward pass. Every hand seats a mix drawn from the pool:
   the learner at all four seats (self-play, weight ``selfplay_weight``), or
   ``learner_seats`` learner seats against ``GreedyAgent`` (``greedy_weight``),
   uniformly random play (``random_weight``) or a frozen snapshot of the learner
   (``snapshot_weight``).
2. A **transition** is one learner decision. Its reward is everything that seat
   was paid until its next decision (payments before its first decision of a
   hand go to that first decision), so every settlement reaches every seat.
   A hand's transitions are sent to the learner once the hand is over, with GAE
   advantages along each seat's own decisions; hands still running at the end
   of a rollout are finished in the next one (their log-probabilities are kept,
   so PPO's ratio stays exact).
3. The **learner** (main process) runs PPO's clipped objective, value loss and
   entropy bonus over shuffled minibatches and sends the new weights back.

Optional **imitation warm start** (``bc_decisions`` > 0): the workers first play
greedy-vs-greedy hands recording every decision; the network is trained to
predict the greedy action (cross-entropy on masked logits) and the return
(value head), then PPO continues from there.

Reward is the settlement divided by ``reward_scale``; no shaping.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from cnmahjong.agents.torch_policy import ActorCritic, cpu_weights, load_actor_critic, save_actor_critic
from cnmahjong.envs.core.ruleset import ruleset_of_encoder, ruleset_of_preset
from cnmahjong.envs.vector import VectorEnv

LEARNER, GREEDY, RANDOM = 0, 1, 2  # seat roles; snapshot k plays as role 3 + k
SNAPSHOT = 3


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
        self.carry = np.zeros((num_tables, 4), np.float32)  # paid before the seat's first decision
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
        a["rew"][ids] = self.carry[tables, seats]
        self.carry[tables, seats] = 0
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
        """Add this step's payments to each recorded seat's open transition (or its carry)."""
        for t, s in zip(*np.nonzero(rewards * recorded), strict=True):
            i = self.last[t, s]
            if i >= 0:
                self.arrays["rew"][i] += rewards[t, s]
            else:
                self.carry[t, s] += rewards[t, s]

    def end_hand(self, t: int) -> None:
        a = self.arrays
        for s in range(4):
            if self.last[t, s] >= 0:
                a["done"][self.last[t, s]] = True
        a["complete"][self.hand_ids[t]] = True
        self.last[t] = -1
        self.carry[t] = 0
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
    return ruleset_of_encoder(net.encoder).to_float(obs_u8)


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


def _draw_roles(cfg: dict[str, Any], rng: np.random.Generator, snapshots: int) -> np.ndarray:
    """Seat roles of a new hand: all learner, or learner seats against greedy or a snapshot."""
    weights = np.array([cfg["selfplay_weight"], cfg["greedy_weight"], cfg["random_weight"],
                        cfg["snapshot_weight"] if snapshots else 0.0])
    if not weights.any():  # only snapshots asked for, none made yet: self-play meanwhile
        return np.zeros(4, np.int64)
    kind = rng.choice(4, p=weights / weights.sum())
    if kind == 0:
        return np.zeros(4, np.int64)
    opponent = (GREEDY, RANDOM, SNAPSHOT + int(rng.integers(max(snapshots, 1))))[kind - 1]
    roles = np.full(4, opponent, np.int64)
    roles[rng.choice(4, cfg["learner_seats"], replace=False)] = LEARNER
    return roles


def _worker(conn: Any, cfg: dict[str, Any], worker_id: int) -> None:
    torch.set_num_threads(1)
    from cnmahjong.agents.greedy import GreedyAgent

    rng = np.random.default_rng([cfg["seed"], worker_id])
    torch.manual_seed(cfg["seed"] * 1000 + worker_id)
    rs = ruleset_of_preset(cfg["rules"])
    venv = VectorEnv(cfg["tables_per_worker"], cfg["rules"], seed=int(rng.integers(2**63)), obs_dtype=np.uint8,
                     reward_scale=cfg["reward_scale"], ruleset=rs)
    net = ActorCritic(cfg["net_arch"], cfg["arch"], encoder=rs.encoder_name)
    snapshots: list[ActorCritic] = []
    greedy = GreedyAgent()
    batch = store = mode = None  # the first command deals (``mode`` changes from None)
    roles = np.zeros((venv.num_tables, 4), np.int64)

    def new_roles() -> np.ndarray:
        return np.full(4, GREEDY) if mode == "bc" else _draw_roles(cfg, rng, len(snapshots))

    stats: list[tuple[int, float]] = []  # per finished hand and learner seat: (opponent role, return)
    returns = np.zeros((venv.num_tables, 4), np.float32)
    while True:
        msg = conn.recv()
        if msg["cmd"] == "stop":
            return
        if msg.get("weights") is not None:
            net.load_state_dict(msg["weights"])
        if msg.get("snapshots") is not None:
            snapshots = []
            for w in msg["snapshots"]:
                s = ActorCritic(cfg["net_arch"], cfg["arch"], encoder=rs.encoder_name)
                s.load_state_dict(w)
                snapshots.append(s)
        if msg["cmd"] != mode:  # switching between imitation and PPO: start fresh hands
            mode = msg["cmd"]
            store = Rollout(rs.shape, rs.num_actions, venv.num_tables)
            batch = venv.reset(seed=int(rng.integers(2**63)))
            for t in range(venv.num_tables):
                roles[t] = new_roles()
            returns[:] = 0
        t0 = time.perf_counter()
        decisions = 0
        for _ in range(msg["steps"]):
            row_roles = roles[batch.table, batch.seat]
            actions = np.zeros(len(batch), np.int64)
            learner = np.flatnonzero(row_roles == LEARNER)
            if len(learner):
                obs, mask = batch.obs[learner], batch.mask[learner]
                act, logp, val = _policy_actions(net, obs, mask, rng)
                actions[learner] = act
                store.add(batch.table[learner], batch.seat[learner], obs, mask, act, logp, val)
            rows = np.flatnonzero(row_roles == RANDOM)
            if len(rows):
                actions[rows] = (rng.random((len(rows), rs.num_actions)) * batch.mask[rows]).argmax(axis=1)
            for k, snap in enumerate(snapshots):
                rows = np.flatnonzero(row_roles == SNAPSHOT + k)
                if len(rows):
                    actions[rows] = _policy_actions(snap, batch.obs[rows], batch.mask[rows], rng)[0]
            rows = np.flatnonzero(row_roles == GREEDY)
            if len(rows):
                floats = rs.to_float(batch.obs[rows])
                act = np.array([greedy(o, m) for o, m in zip(floats, batch.mask[rows], strict=True)], np.int64)
                actions[rows] = act
                if mode == "bc":
                    store.add(batch.table[rows], batch.seat[rows], batch.obs[rows], batch.mask[rows], act,
                              np.zeros(len(rows), np.float32), np.zeros(len(rows), np.float32))
            decisions += len(batch)
            batch = venv.step(actions)
            recorded = (roles == GREEDY) if mode == "bc" else (roles == LEARNER)
            if batch.rewards.any():
                store.credit(batch.rewards, recorded)
                returns += batch.rewards * recorded
            for t in np.flatnonzero(batch.hand_over).tolist():
                store.end_hand(t)
                opponent = int(roles[t].max())
                for s in np.flatnonzero(recorded[t]).tolist():
                    stats.append((opponent, float(returns[t, s])))
                returns[t] = 0
                roles[t] = new_roles()
        data = store.take_complete(cfg["gamma"], 1.0 if mode == "bc" else cfg["gae_lambda"])
        data["decisions"] = decisions
        data["seconds"] = time.perf_counter() - t0
        data["stats"] = stats
        stats = []
        conn.send(data)


class Workers:
    """The rollout processes and their pipes."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        ctx = mp.get_context("spawn")
        self.conns = []
        self.procs = []
        for i in range(cfg["num_workers"]):
            parent, child = ctx.Pipe()
            p = ctx.Process(target=_worker, args=(child, cfg, i), daemon=True)
            p.start()
            child.close()  # the worker holds the other end: its death ends our recv() at once
            self.conns.append(parent)
            self.procs.append(p)

    def collect(self, cmd: str, steps: int, weights: dict | None, snapshots: list | None) -> dict[str, Any]:
        try:
            for c in self.conns:
                c.send({"cmd": cmd, "steps": steps, "weights": weights, "snapshots": snapshots})
            parts = [c.recv() for c in self.conns]
        except (EOFError, BrokenPipeError, ConnectionResetError):
            raise RuntimeError("a rollout worker died (its traceback is printed above)") from None
        out = {k: np.concatenate([p[k] for p in parts]) for k in ("obs", "mask", "act", "logp", "val", "adv", "ret")}
        out["decisions"] = sum(p["decisions"] for p in parts)
        out["seconds"] = max(p["seconds"] for p in parts)
        out["stats"] = [s for p in parts for s in p["stats"]]
        return out

    def close(self) -> None:
        for c, p in zip(self.conns, self.procs, strict=True):
            if p.is_alive():
                c.send({"cmd": "stop"})
        for p in self.procs:
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()


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


def imitation(net: ActorCritic, opt: torch.optim.Optimizer, data: dict[str, np.ndarray], cfg: dict[str, Any],
              rng: np.random.Generator, device: str) -> dict[str, float]:
    """Behaviour cloning: cross-entropy to the recorded actions, value regression to returns."""
    act, ret = torch.from_numpy(data["act"]), torch.from_numpy(data["ret"])
    stats = {}
    for _ in range(cfg["bc_epochs"]):
        correct = total = 0
        for mb in _minibatches(len(act), cfg["batch_size"], rng):
            obs, mask = _tensors(data, mb, device, ruleset_of_encoder(net.encoder).to_float)
            logits, value = net(obs, mask)
            a = act[mb].to(device)
            ce = nn.functional.cross_entropy(logits, a)
            v_loss = 0.5 * ((value - ret[mb].to(device)) ** 2).mean()
            loss = ce + cfg["vf_coef"] * v_loss
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), cfg["max_grad_norm"])
            opt.step()
            correct += int((logits.argmax(-1) == a).sum())
            total += len(mb)
        stats = {"bc_cross_entropy": ce.item(), "bc_value_loss": v_loss.item(), "bc_accuracy": correct / total}
    return stats


def ppo_update(net: ActorCritic, opt: torch.optim.Optimizer, data: dict[str, np.ndarray], cfg: dict[str, Any],
               rng: np.random.Generator, device: str) -> dict[str, float]:
    """PPO epochs over shuffled minibatches; returns the last minibatch's losses."""
    act, old_logp = torch.from_numpy(data["act"]), torch.from_numpy(data["logp"])
    adv_all, ret = torch.from_numpy(data["adv"]), torch.from_numpy(data["ret"])
    stats: dict[str, float] = {}
    for _ in range(cfg["n_epochs"]):
        for mb in _minibatches(len(act), cfg["batch_size"], rng):
            obs, mask = _tensors(data, mb, device, ruleset_of_encoder(net.encoder).to_float)
            logits, value = net(obs, mask)
            dist = torch.distributions.Categorical(logits=logits)
            logp = dist.log_prob(act[mb].to(device))
            ratio = torch.exp(logp - old_logp[mb].to(device))
            adv = adv_all[mb].to(device)
            adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(mb) > 1 else adv
            clipped = torch.clamp(ratio, 1 - cfg["clip_range"], 1 + cfg["clip_range"])
            pg = -torch.min(ratio * adv, clipped * adv).mean()
            v_loss = 0.5 * ((value - ret[mb].to(device)) ** 2).mean()
            entropy = dist.entropy().mean()
            loss = pg + cfg["vf_coef"] * v_loss - cfg["ent_coef"] * entropy
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), cfg["max_grad_norm"])
            opt.step()
            stats = {"policy_loss": pg.item(), "value_loss": v_loss.item(), "entropy": entropy.item()}
    return stats


def _summary(stats: list[tuple[int, float]], reward_scale: float) -> dict[str, float]:
    """Mean settlement per hand of a learner seat, by opponent kind (in 片, unscaled)."""
    out = {}
    for name, pick in (("selfplay", lambda r: r == LEARNER), ("vs_greedy", lambda r: r == GREEDY),
                       ("vs_random", lambda r: r == RANDOM), ("vs_snapshot", lambda r: r >= SNAPSHOT)):
        vals = [v for r, v in stats if pick(r)]
        if vals:
            out[f"settlement_{name}"] = float(np.mean(vals)) * reward_scale
            out[f"hands_{name}"] = len(vals)
    return out


def train(cfg: dict[str, Any]) -> Path:
    """Imitation warm start (optional), then PPO until ``total_timesteps`` learner decisions or
    ``max_minutes``; returns the final checkpoint."""
    torch.manual_seed(cfg["seed"])
    rng = np.random.default_rng(cfg["seed"])
    device = cfg["device"]
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    elif device == "cuda" and not torch.cuda.is_available():
        raise ValueError("device: cuda, but torch sees no CUDA device (use cpu or auto)")
    run_dir = Path(cfg["run_dir"])
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    if cfg["init_checkpoint"]:
        net = load_actor_critic(cfg["init_checkpoint"], device)
        net.train()
    else:
        net = ActorCritic(cfg["net_arch"], cfg["arch"], encoder=ruleset_of_preset(cfg["rules"]).encoder_name).to(device)
    if net.encoder != ruleset_of_preset(cfg["rules"]).encoder_name:
        raise ValueError(f"init_checkpoint {cfg['init_checkpoint']!r} was trained on {net.encoder!r}, "
                         f"rules {cfg['rules']!r} use {ruleset_of_preset(cfg['rules']).encoder_name!r}")
    cfg = {**cfg, "net_arch": net.net_arch, "arch": net.arch}
    opt = torch.optim.Adam(net.parameters(), lr=cfg["learning_rate"], eps=1e-5)
    start = time.time()
    deadline = None if cfg["max_minutes"] is None else start + 60 * cfg["max_minutes"]
    log = (run_dir / "log.jsonl").open("w", encoding="utf-8")
    workers = Workers(cfg)
    try:
        if cfg["bc_decisions"]:
            parts = []
            collected = 0
            steps = max(1, cfg["steps_per_rollout"])
            while collected < cfg["bc_decisions"]:
                part = workers.collect("bc", steps, None, None)
                parts.append(part)
                collected += len(part["act"])
                print(f"\rimitation data: {collected:,}/{cfg['bc_decisions']:,} greedy decisions", end="", flush=True)
            data = {k: np.concatenate([p[k] for p in parts]) for k in ("obs", "mask", "act", "ret")}
            del parts
            bc_opt = torch.optim.Adam(net.parameters(), lr=cfg["bc_learning_rate"], eps=1e-5)
            stats = imitation(net, bc_opt, data, cfg, rng, device)
            del data
            print(f"\nimitation: {stats}")
            log.write(json.dumps({"phase": "imitation", "decisions": collected, "minutes": (time.time() - start) / 60,
                                  **stats}) + "\n")
            save_actor_critic(net, run_dir / "checkpoints" / "imitation.pt")
        learner_decisions = updates = 0
        snapshots: list[dict[str, torch.Tensor]] = []
        send_snapshots = True
        while learner_decisions < cfg["total_timesteps"] and (deadline is None or time.time() < deadline):
            t0 = time.perf_counter()
            data = workers.collect("ppo", cfg["steps_per_rollout"], cpu_weights(net),
                                   snapshots if send_snapshots else None)
            send_snapshots = False
            t1 = time.perf_counter()
            if len(data["act"]):
                stats = ppo_update(net, opt, data, cfg, rng, device)
            else:
                stats = {}
            t2 = time.perf_counter()
            updates += 1
            learner_decisions += len(data["act"])
            record = {"phase": "ppo", "update": updates, "learner_decisions": learner_decisions,
                      "env_decisions": data["decisions"], "collect_seconds": t1 - t0, "learn_seconds": t2 - t1,
                      "decisions_per_second": (len(data["act"])) / max(t2 - t0, 1e-9),
                      "minutes": (time.time() - start) / 60, **_summary(data["stats"], cfg["reward_scale"]),
                      **stats}
            log.write(json.dumps(record) + "\n")
            log.flush()
            left = "" if deadline is None else f"  {max(0.0, deadline - time.time()) / 60:.1f} min left"
            vs = record.get("settlement_vs_greedy")
            print(f"\rupdate {updates}  learner decisions {learner_decisions:,}/{cfg['total_timesteps']:,}"
                  f"  {record['decisions_per_second']:,.0f}/s" + (f"  vs greedy {vs:+.2f}" if vs is not None else "")
                  + left + "   ", end="", flush=True)
            if updates % cfg["snapshot_every_updates"] == 0:
                snapshots = (snapshots + [cpu_weights(net)])[-cfg["max_snapshots"]:]
                send_snapshots = True
            if updates % cfg["checkpoint_every_updates"] == 0:
                save_actor_critic(net, run_dir / "checkpoints" / f"model_{learner_decisions}.pt")
        print()
    finally:
        workers.close()
        log.close()
    return save_actor_critic(net, run_dir / "model.pt")

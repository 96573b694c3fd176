"""Self-play PPO in one readable file: one network shared by all four seats (parameter sharing).

Every hyper-parameter comes from the YAML config (``configs/selfplay_ppo.yaml``).
The loop, in the style of CleanRL:

1. play ``episodes_per_update`` hands through the AEC env, every seat acting
   with the current network (masked logits, sampled actions);
2. a transition is one decision of one seat; its reward is everything that
   seat was paid until its next decision (the AEC ``last()`` reward), so
   settlements reach the seat that dealt in too; the last decision of each
   seat in a hand is terminal;
3. advantages by GAE along each seat's own decisions; PPO's clipped
   objective, value loss and entropy bonus over shuffled minibatches.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.torch_policy import ActorCritic
from envs.changsha.env import raw_env
from envs.changsha.observation import ENCODER


def collect(env: Any, net: ActorCritic, episodes: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Play ``episodes`` hands; return flat arrays of transitions with GAE inputs per seat."""
    obs_l, mask_l, act_l, logp_l, val_l, rew_l, done_l, seq_l = [], [], [], [], [], [], [], []
    seq_id = 0
    for _ in range(episodes):
        env.reset(seed=int(rng.integers(2**31)))
        pending: dict[str, int] = {}  # agent -> index of its last transition, awaiting its reward
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if agent in pending:
                rew_l[pending[agent]] += reward
            if term or trunc:
                if agent in pending:
                    done_l[pending.pop(agent)] = 1.0
                env.step(None)
                continue
            with torch.no_grad():
                device = next(net.parameters()).device
                o = torch.as_tensor(obs["observation"], device=device).unsqueeze(0)
                m = torch.as_tensor(obs["action_mask"], device=device).unsqueeze(0)
                logits, value = net(o, m)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            pending[agent] = len(obs_l)
            obs_l.append(obs["observation"])
            mask_l.append(obs["action_mask"])
            act_l.append(int(action))
            logp_l.append(float(dist.log_prob(action)))
            val_l.append(float(value))
            rew_l.append(0.0)
            done_l.append(0.0)
            seq_l.append(seq_id * 4 + env.agent_name_mapping[agent])
            env.step(int(action))
        seq_id += 1
    return {
        "obs": np.array(obs_l, dtype=np.float32), "mask": np.array(mask_l, dtype=np.int8),
        "act": np.array(act_l), "logp": np.array(logp_l, dtype=np.float32),
        "val": np.array(val_l, dtype=np.float32), "rew": np.array(rew_l, dtype=np.float32),
        "done": np.array(done_l, dtype=np.float32), "seq": np.array(seq_l),
    }


def gae(batch: dict[str, np.ndarray], gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns along each seat's own decisions (``seq`` = hand x seat)."""
    adv = np.zeros_like(batch["rew"])
    for s in np.unique(batch["seq"]):
        idx = np.flatnonzero(batch["seq"] == s)
        last = 0.0
        for j in range(len(idx) - 1, -1, -1):
            i = idx[j]
            next_value = 0.0 if batch["done"][i] or j == len(idx) - 1 else batch["val"][idx[j + 1]]
            delta = batch["rew"][i] + gamma * next_value - batch["val"][i]
            last = delta + gamma * lam * (0.0 if batch["done"][i] else last)
            adv[i] = last
    return adv, adv + batch["val"]


def update(net: ActorCritic, opt: torch.optim.Optimizer, batch: dict[str, np.ndarray], adv: np.ndarray,
           ret: np.ndarray, cfg: dict[str, Any], rng: np.random.Generator) -> dict[str, float]:
    """PPO epochs over shuffled minibatches; returns the last minibatch's losses."""
    n = len(adv)
    device = next(net.parameters()).device
    t = {k: torch.as_tensor(v, device=device) for k, v in batch.items() if k in ("obs", "mask", "act", "logp")}
    adv_t, ret_t = torch.as_tensor(adv, device=device), torch.as_tensor(ret, device=device)
    stats: dict[str, float] = {}
    for _ in range(cfg["n_epochs"]):
        perm = rng.permutation(n)
        for start in range(0, n, cfg["batch_size"]):
            mb = torch.as_tensor(perm[start:start + cfg["batch_size"]], device=device)
            logits, value = net(t["obs"][mb], t["mask"][mb])
            dist = torch.distributions.Categorical(logits=logits)
            logp = dist.log_prob(t["act"][mb])
            ratio = torch.exp(logp - t["logp"][mb])
            a = adv_t[mb]
            a = (a - a.mean()) / (a.std() + 1e-8) if len(mb) > 1 else a
            clipped = torch.clamp(ratio, 1 - cfg["clip_range"], 1 + cfg["clip_range"])
            pg = -torch.min(ratio * a, clipped * a).mean()
            v_loss = 0.5 * ((value - ret_t[mb]) ** 2).mean()
            entropy = dist.entropy().mean()
            loss = pg + cfg["vf_coef"] * v_loss - cfg["ent_coef"] * entropy
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), cfg["max_grad_norm"])
            opt.step()
            stats = {"policy_loss": pg.item(), "value_loss": v_loss.item(), "entropy": entropy.item()}
    return stats


def save(net: ActorCritic, path: Path) -> None:
    weights = {k: v.cpu() for k, v in net.state_dict().items()}
    torch.save({"state_dict": weights, "net_arch": net.net_arch, "encoder": ENCODER}, path)


def train(cfg: dict[str, Any]) -> Path:
    """Self-play PPO until ``total_timesteps`` decisions or ``max_minutes``; returns the final checkpoint."""
    torch.manual_seed(cfg["seed"])
    rng = np.random.default_rng(cfg["seed"])
    device = cfg["device"]
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    elif device == "cuda" and not torch.cuda.is_available():
        raise ValueError("device: cuda, but torch sees no CUDA device (use cpu or auto)")
    run_dir = Path(cfg["run_dir"])
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    env = raw_env(rules=cfg["rules"], reward_scale=cfg["reward_scale"])
    net = ActorCritic(cfg["net_arch"]).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=cfg["learning_rate"], eps=1e-5)
    deadline = None if cfg["max_minutes"] is None else time.time() + 60 * cfg["max_minutes"]
    steps = updates = 0
    log = (run_dir / "log.jsonl").open("w", encoding="utf-8")
    while steps < cfg["total_timesteps"] and (deadline is None or time.time() < deadline):
        batch = collect(env, net, cfg["episodes_per_update"], rng)
        adv, ret = gae(batch, cfg["gamma"], cfg["gae_lambda"])
        stats = update(net, opt, batch, adv, ret, cfg, rng)
        steps += len(adv)
        updates += 1
        record = {"update": updates, "decisions": steps, "mean_reward": float(batch["rew"].mean()), **stats}
        log.write(json.dumps(record) + "\n")
        log.flush()
        print(f"\rupdate {updates}  decisions {steps:,}/{cfg['total_timesteps']:,}  "
              f"entropy {stats.get('entropy', 0):.3f}", end="", flush=True)
        if updates % cfg["checkpoint_every_updates"] == 0:
            save(net, run_dir / "checkpoints" / f"model_{steps}.pt")
    print()
    log.close()
    final = run_dir / "model.pt"
    save(net, final)
    return final

"""PPO on Chinese mahjong with TorchRL's PettingZooWrapper, one network shared by the four seats.

A single-file, CleanRL-style example: every hyper-parameter is a flag below and the loop (collect
whole hands, per-seat GAE, clipped PPO epochs) is written out here. Run it from the repository root:

    python examples/torchrl_ppo.py --steps 3000                      # Changsha (mainstream rules)
    python examples/torchrl_ppo.py --steps 3000 --rules hangzhou     # Hangzhou
    python examples/torchrl_ppo.py --steps 3000 --critic state       # centralised critic (return_state)

The env is TorchRL's own wrapper with no glue, as its docs give it for AEC envs:

    PettingZooWrapper(env=env(), use_mask=True, group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)

One group ``"agents"`` holds the four seats stacked (shape 4), so one network serves them all.
At every step only one seat acts: ``("agents", "mask")`` is True for it alone, and the loss is
taken on those entries only. ``("agents", "action_mask")`` is the acting seat's legal actions
(all True for the others); the policy samples from ``MaskedCategorical``.

How the settlement reaches every seat: the wrapper reports EVERY seat's reward at every step,
``("next", "agents", "reward")`` of shape (4, 1), not only the acting seat's. A hand is usually
settled on one seat's move (a discard won on, a self-drawn win, the last tile): the three other
seats are paid on a step where they do not act. Each seat's transitions are therefore its own
decision sequence: decision k of a seat earns everything the seat was paid from that decision up
to its next one (the last decision: up to the end of the hand), and GAE runs over that sequence
(``per_seat_transitions``). The script checks it at the end: for every finished hand and seat,
the rewards GAE trained on must sum to exactly the seat's settlement / reward_scale, else it
exits with status 1.

``--critic state`` uses TorchRL's ``return_state=True``: the critic reads the global state
(``env.state()``: every seat's hand, the wall, the dice; float32 (557, 27) Changsha, (663, 34)
Hangzhou) and outputs one value per seat; the actor still sees only its own observation.

Keep ``--threads 1`` (the default) on a small machine: the network is small, and torch's default
of one thread per core only adds contention with the game (0 leaves torch's default).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings

import torch
from tensordict import TensorDict
from torch import nn
from torchrl.envs import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType
from torchrl.modules import MaskedCategorical
from torchrl.objectives.value.functional import generalized_advantage_estimate

from cnmahjong.envs.aec import aec_env, wrap
from cnmahjong.envs.core.ruleset import PRESETS, ruleset_of_preset

SEATS = 4
warnings.filterwarnings("ignore", "PettingZoo in TorchRL is tested")  # it warns for any version but 1.24.3


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--rules", default="mainstream", choices=sorted(PRESETS),
                   help="Changsha presets (mainstream, classic) or the Hangzhou ruleset")
    p.add_argument("--steps", type=int, default=20_000, help="env steps (decisions of the acting seats) in all")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch.set_num_threads (0: torch's default)")
    p.add_argument("--critic", default="obs", choices=["obs", "state"],
                   help="value head on the seat's observation, or a centralised critic on env.state()")
    p.add_argument("--reward-scale", type=float, default=8.0,
                   help="settlements are divided by this (a power of two keeps every reward exact in "
                        "float32, so the settlement check can ask for exactly 0)")
    p.add_argument("--hidden", type=int, default=256, help="hidden layer size")
    # PPO
    p.add_argument("--batch-steps", type=int, default=512, help="env steps per update (whole hands)")
    p.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    p.add_argument("--minibatch", type=int, default=128)
    p.add_argument("--lr", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=0.99, help="discount per decision of the seat")
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    args = p.parse_args(argv)
    if args.reward_scale <= 0 or math.frexp(args.reward_scale)[0] != 0.5:
        p.error(f"--reward-scale must be a power of two (1, 2, 4, 8, 0.5 ...), got {args.reward_scale:g}")
    return args


def make_env(rules: str, reward_scale: float, return_state: bool, seed: int) -> tuple[PettingZooWrapper, object]:
    """The PettingZoo AEC env (with PettingZoo's standard wrappers) in TorchRL's wrapper, no glue;
    and the cnmahjong env inside (its ``game.result.payments`` is the settlement of the hand)."""
    pz = wrap(aec_env(ruleset_of_preset(rules).name)(rules=rules, reward_scale=reward_scale))
    env = PettingZooWrapper(env=pz, use_mask=True, return_state=return_state, seed=seed,
                            group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)  # one group "agents": the 4 seats
    return env, pz.unwrapped


def layer(n_in: int, n_out: int, std: float = math.sqrt(2)) -> nn.Linear:
    lin = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.zeros_(lin.bias)
    return lin


class ActorCritic(nn.Module):
    """Masked policy over the seat's own planes; the value from the same body (``--critic obs``) or
    from the global state, one output per seat (``--critic state``)."""

    def __init__(self, obs_shape: torch.Size, n_actions: int, hidden: int,
                 state_shape: torch.Size | None = None) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Flatten(-2), layer(obs_shape.numel(), hidden), nn.ReLU(),
                                  layer(hidden, hidden), nn.ReLU())
        self.actor = layer(hidden, n_actions, std=0.01)
        if state_shape is None:
            self.critic, self.head = None, layer(hidden, 1, std=1.0)
        else:
            self.critic = nn.Sequential(nn.Flatten(-2), layer(state_shape.numel(), hidden), nn.ReLU(),
                                        layer(hidden, SEATS, std=1.0))

    def forward(self, obs: torch.Tensor, action_mask: torch.Tensor, seat: torch.Tensor,
                state: torch.Tensor | None = None) -> tuple[MaskedCategorical, torch.Tensor]:
        h = self.body(obs)
        dist = MaskedCategorical(logits=self.actor(h), mask=action_mask)
        if self.critic is None:
            value = self.head(h).squeeze(-1)
        else:
            value = self.critic(state).gather(-1, seat.unsqueeze(-1)).squeeze(-1)
        return dist, value


def rollout_policy(model: ActorCritic):
    """The rollout's policy: every seat's action, log-prob and value at once (the env plays only the
    acting seat's action; the others are masked out of the loss)."""
    seats = torch.arange(SEATS)

    @torch.no_grad()
    def policy(td: TensorDict) -> TensorDict:
        g = td["agents"]
        state = td["state"].expand(SEATS, *td["state"].shape) if "state" in td else None
        dist, value = model(g["observation", "observation"], g["action_mask"], seats, state)
        action = dist.sample()
        g["action"], g["log_prob"], g["value"] = action, dist.log_prob(action), value
        return td

    return policy


def per_seat_transitions(hand: TensorDict) -> tuple[list[dict[str, torch.Tensor]], list[float], int]:
    """Cut one finished hand's rollout (shape [T], all four seats at every step) into each seat's own
    decision sequence. Decision k of a seat earns the seat's rewards of every step from it to the
    seat's next decision, whoever acts on those steps; the seat's first decision also takes anything
    before it. Returns the sequences, per seat the sum of the rewards its sequence holds, and how
    many seats were paid on a step where another seat acted (what a per-step, acting-seat-only
    reward would lose)."""
    acting = hand["agents", "mask"]  # [T, 4]: True for the seat that acts at step t
    reward = hand["next", "agents", "reward"][..., 0]  # [T, 4]: every seat's reward at every step
    out, returns = [], []
    off_turn = int(((reward != 0) & ~acting).any(0).sum())
    for seat in range(SEATS):
        steps = acting[:, seat].nonzero().squeeze(-1)
        if len(steps) == 0:  # the seat never chose (every move forced): nothing to train on
            returns.append(float(reward[:, seat].double().sum()))
            continue
        segment = (acting[:, seat].long().cumsum(0) - 1).clamp(min=0)  # step t -> the seat's decision
        r = torch.zeros(len(steps), dtype=torch.float64).index_add_(0, segment, reward[:, seat].double())
        returns.append(float(r.sum()))
        a = hand["agents"][steps, seat]
        out.append({
            "obs": a["observation", "observation"], "action_mask": a["action_mask"], "action": a["action"],
            "log_prob": a["log_prob"], "value": a["value"], "reward": r.float(),
            "seat": torch.full((len(steps),), seat),
            "state": hand["state"][steps] if "state" in hand else None,
        })
    return out, returns, off_turn


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    env, game_env = make_env(args.rules, args.reward_scale, args.critic == "state", args.seed)
    spec = env.observation_spec
    obs_shape = spec["agents", "observation", "observation"].shape[1:]
    n_actions = spec["agents", "action_mask"].shape[-1]
    model = ActorCritic(obs_shape, n_actions, args.hidden,
                        spec["state"].shape if args.critic == "state" else None)
    optim = torch.optim.Adam(model.parameters(), lr=args.lr, eps=1e-5)
    policy = rollout_policy(model)
    print(f"rules {args.rules}: obs {tuple(obs_shape)}, actions {n_actions}, critic {args.critic}, "
          f"torch threads {torch.get_num_threads()}")

    steps = hands = paid_hands = paid_off_turn = 0
    worst = 0.0  # max |seat return - settlement / reward_scale| over finished hands
    start = time.time()
    while steps < args.steps:
        # --- collect whole hands (each rollout resets the env and stops when the hand is over)
        batch, batch_steps, collect_start = [], 0, time.time()
        while batch_steps < min(args.batch_steps, args.steps - steps):
            hand = env.rollout(10_000, policy, break_when_any_done=True)
            assert hand["next", "done"][-1].item(), "the hand did not finish"
            seqs, returns, off_turn = per_seat_transitions(hand)
            settlement = [p / args.reward_scale for p in game_env.game.result.payments]
            paid_hands += any(settlement)
            paid_off_turn += off_turn
            worst = max([worst] + [abs(r - s) for r, s in zip(returns, settlement, strict=True)])
            batch += seqs
            batch_steps += hand.shape[0]
            hands += 1
        steps += batch_steps
        collect_time = time.time() - collect_start

        # --- GAE over each seat's decision sequence (the last decision of a hand is terminal)
        data = {k: torch.cat([s[k] for s in batch]) for k in batch[0] if batch[0][k] is not None}
        done = torch.cat([torch.arange(len(s["reward"])) == len(s["reward"]) - 1 for s in batch])
        value = data["value"].unsqueeze(-1)
        next_value = torch.cat([value[1:], torch.zeros(1, 1)]) * ~done.unsqueeze(-1)
        adv, target = generalized_advantage_estimate(args.gamma, args.gae_lambda, value, next_value,
                                                     data["reward"].unsqueeze(-1), done.unsqueeze(-1))
        data["advantage"], data["target"] = adv.squeeze(-1), target.squeeze(-1)

        # --- PPO epochs on the acting seats' decisions only
        n = len(data["action"])
        for _ in range(args.epochs):
            for idx in torch.randperm(n).split(args.minibatch):
                mb = {k: v[idx] for k, v in data.items()}
                dist, v = model(mb["obs"], mb["action_mask"], mb["seat"], mb.get("state"))
                ratio = (dist.log_prob(mb["action"]) - mb["log_prob"]).exp()
                a = mb["advantage"]
                a = (a - a.mean()) / (a.std() + 1e-8) if len(a) > 1 else a
                pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                v_loss = 0.5 * (v - mb["target"]).pow(2).mean()
                entropy = dist.entropy().mean()
                loss = pg_loss + args.vf_coef * v_loss - args.ent_coef * entropy
                optim.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                optim.step()
        print(f"steps {steps:7,d}  hands {hands:5d} ({paid_hands} paid)  pg {pg_loss.item():+.4f}  "
              f"value {v_loss.item():.4f}  entropy {entropy.item():.3f}  "
              f"collect {batch_steps / collect_time:6.1f} steps/s", flush=True)

    elapsed = time.time() - start
    print(f"{steps:,} env steps, {hands} hands in {elapsed:.1f} s: {steps / elapsed:.1f} steps/s")
    # --- settlement check: each seat's rewards in its GAE sequence sum to its settlement / scale
    print(f"settlement check: {hands} finished hands ({paid_hands} with payments; {paid_off_turn} seat "
          f"payments on another seat's move), max |seat return - settlement| = {worst:g}")
    if hands == 0 or worst != 0:
        print("settlement check FAILED" + ("" if hands else ": no hand finished (raise --steps)"), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

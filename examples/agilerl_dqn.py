"""DQN self-play on Chinese mahjong with AgileRL 2.58, one network shared by the four seats.

A single-file, CleanRL-style recipe following AgileRL's PettingZoo self-play DQN pattern (its
Connect Four tutorial, ``tutorials/PettingZoo/agilerl_dqn_curriculum.py``): an AEC loop over
``env.agent_iter()``, ``DQN.get_action(obs, epsilon, action_mask)``, one ``Transition`` per
decision into a ``ReplayBuffer``, ``DQN.learn(memory.sample(batch_size))`` every ``learn_step``
steps. No population, mutations or curriculum here: one agent plays every seat. AgileRL pins
PettingZoo 1.26, so it lives in its own venv (``make test`` creates ``.venv-agilerl``):

    .venv-agilerl/bin/python examples/agilerl_dqn.py --steps 3000                   # Changsha
    .venv-agilerl/bin/python examples/agilerl_dqn.py --steps 3000 --rules hangzhou  # Hangzhou

(By hand: torch==2.13.0, then ``agilerl==2.58.0 peft==0.21.0 transformers==5.14.1``: AgileRL's
``import agilerl.algorithms`` needs peft and transformers, which it lists only under its LLM
extras; then this checkout with ``pip install -e .``.) Importing AgileRL takes about 15 s;
then, with the defaults and one thread, about 150 (Changsha) and 120 (Hangzhou) decisions/s.

The glue, and why:

- ``supersuit.flatten_v0(env(box=True))``: AgileRL builds an MLP for a 2-D ``Box`` but never
  flattens it in the forward pass, so the (C, K) planes go in flat. ``box=True`` makes the
  observation a plain ``Box`` (SuperSuit's wrappers take only that) and moves the mask to
  ``infos[agent]["action_mask"]``, which is exactly how ``get_action`` wants it: separately.
- One pending ``(obs, action)`` per seat. With four seats and claims, the seat that acts next
  is not "the other player", so a seat's transition is closed at its own next ``last()``.

How the rewards reach every seat: the env credits each payment at the step it is paid, often
on another seat's move (a discard won on, a self-drawn win), and PettingZoo sums a seat's
rewards until it acts again. So the reward ``last()`` hands a seat at its next decision (or
at the end of the hand, when every seat is stepped once more with ``None``) is everything it
was paid since its previous decision, and that is the reward of its previous transition. The
script checks it: for every finished hand, each seat's return (the sum of its transitions'
rewards) must equal its settlement ``game.result.payments / reward_scale``, up to float
rounding (1e-9), else it exits with status 1. (A seat that never decides in a hand, every move
of it forced, gets its settlement at the end with no transition to carry it: it counts in the
return and is reported apart. A payment before a seat's first decision is held by the env
until that decision, so it lands in the seat's first transition.)

AgileRL's DQN computes its target as the max over all actions of the next state (it takes no
next-state mask); this recipe keeps AgileRL's update as it is.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import supersuit as ss
import torch
from agilerl.algorithms.dqn import DQN
from agilerl.components.data import Transition
from agilerl.components.replay_buffer import ReplayBuffer

from cnmahjong.envs.aec import make_env
from cnmahjong.envs.core.ruleset import preset_names, ruleset_of_preset

TOLERANCE = 1e-9  # rewards are payments / reward_scale: sums of them round


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    # the run
    p.add_argument("--rules", default="mainstream", choices=sorted(preset_names()),
                   help="rule preset of any registered ruleset")
    p.add_argument("--steps", type=int, default=20_000,
                   help="decisions to play (all seats together); the last hand is played to its end")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch.set_num_threads (1 on a 2-core machine)")
    p.add_argument("--reward-scale", type=float, default=10.0, help="settlements are divided by this")
    # network (AgileRL's MLP encoder + head)
    p.add_argument("--encoder", type=int, nargs="+", default=[128], help="encoder hidden layer sizes")
    p.add_argument("--head", type=int, nargs="+", default=[64], help="Q-head hidden layer sizes")
    # DQN
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--tau", type=float, default=0.01, help="soft target update per learning step")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--buffer-size", type=int, default=10_000,
                   help="transitions kept (each holds obs and next_obs as float32: 10k Changsha = 257 MB)")
    p.add_argument("--learn-step", type=int, default=4, help="decisions between learning steps")
    p.add_argument("--learning-starts", type=int, default=512, help="transitions in the buffer before learning")
    # epsilon-greedy: linear from --eps-start to --eps-end over --exploration-fraction of the steps
    p.add_argument("--eps-start", type=float, default=1.0)
    p.add_argument("--eps-end", type=float, default=0.05)
    p.add_argument("--exploration-fraction", type=float, default=0.5)
    p.add_argument("--log-every", type=int, default=1000, help="decisions between stats lines")
    return p.parse_args(argv)


def linear_schedule(start: float, end: float, duration: float, t: int) -> float:
    return max(end, start + (end - start) * t / max(duration, 1.0))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)  # AgileRL's epsilon-greedy and buffer sampling draw from torch

    # --- the env: flat planes (AgileRL's MLP input), the mask in infos
    ruleset = ruleset_of_preset(args.rules).name
    env = ss.flatten_v0(make_env(ruleset, rules=args.rules, box=True, reward_scale=args.reward_scale))
    env.reset(seed=args.seed)
    seats = env.possible_agents
    observation_space, action_space = env.observation_space(seats[0]), env.action_space(seats[0])
    print(f"rules {args.rules}: obs {observation_space.shape}, actions {action_space.n}, "
          f"one DQN for the {len(seats)} seats")

    # --- one DQN for every seat (self-play) and its replay buffer
    agent = DQN(observation_space, action_space,
                net_config={"encoder_config": {"hidden_size": args.encoder},
                            "head_config": {"hidden_size": args.head}},
                batch_size=args.batch_size, lr=args.lr, learn_step=args.learn_step,
                gamma=args.gamma, tau=args.tau, double=True)
    memory = ReplayBuffer(max_size=args.buffer_size)

    step, hands, updates, loss = 0, 0, 0, float("nan")
    worst, mismatched, paid, unassigned = 0.0, 0, 0, 0
    recent: list[float] = []  # |seat return| of the hands since the last stats line (the stakes)
    start = last_log = time.time()
    while step < args.steps:  # one hand per episode; a hand is always played to its end
        if hands:
            env.reset()  # the env's own generator, seeded by the first reset, deals the next hand
        pending: dict[str, tuple[np.ndarray, int] | None] = dict.fromkeys(seats)
        returns = dict.fromkeys(seats, 0.0)
        for seat in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            done = termination or truncation
            # reward: all this seat was paid since its previous decision, other seats' moves included
            if pending[seat] is not None:
                prev_obs, prev_action = pending[seat]
                memory.add(Transition(obs=prev_obs[None], action=np.array([prev_action]),
                                      reward=np.array([reward]), next_obs=obs[None],
                                      done=np.array([done]), batch_size=[1]).to_tensordict())
                pending[seat] = None
            elif reward:  # a seat with no decision in the hand: no transition can carry it
                unassigned += 1
            returns[seat] += reward
            if done:
                env.step(None)
                continue

            epsilon = linear_schedule(args.eps_start, args.eps_end, args.exploration_fraction * args.steps, step)
            action = int(agent.get_action(obs, epsilon, info["action_mask"])[0])
            env.step(action)
            pending[seat] = (obs, action)
            step += 1

            if step % agent.learn_step == 0 and len(memory) >= max(args.learning_starts, agent.batch_size):
                loss = agent.learn(memory.sample(agent.batch_size))
                updates += 1

            if step % args.log_every == 0:
                now = time.time()
                stake = float(np.mean(recent)) if recent else float("nan")
                print(f"step {step:7,d}  hands {hands:5d}  |seat return| {stake:6.3f}  "
                      f"loss {loss:8.4f}  eps {epsilon:.3f}  buffer {len(memory):6d}  "
                      f"{args.log_every / (now - last_log):6.1f} steps/s", flush=True)
                recent, last_log = [], now

        # --- the hand is over: every seat's return must be its settlement
        payments = np.asarray(env.unwrapped.game.result.payments, dtype=float) / args.reward_scale
        errors = [abs(returns[a] - payments[i]) for i, a in enumerate(seats)]
        worst = max(worst, *errors)
        mismatched += max(errors) > TOLERANCE
        paid += bool(payments.any())
        recent += [abs(r) for r in returns.values()]
        hands += 1

    elapsed = time.time() - start
    print(f"{step:,} decisions, {hands} hands in {elapsed:.1f} s: {step / elapsed:.1f} steps/s; "
          f"{updates} learning steps (batch {agent.batch_size}), last loss {loss:.4f}")
    if unassigned:
        print(f"{unassigned} seat-hands paid without a decision of their own (no transition to carry it)")
    print(f"settlement check: {hands} finished hands ({paid} with payments), {mismatched} mismatched "
          f"(max |return - settlement| = {round(worst, 9):g})")
    if not hands or mismatched:
        print("settlement check FAILED" + ("" if hands else ": no hand finished (raise --steps)"), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

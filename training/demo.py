"""``make demo``: the main job, in under 15 minutes on 2 cores.

1. evaluates GreedyAgent against three RandomAgents in the duplicate arena;
2. trains MaskablePPO for a few minutes (``configs/demo.yaml``) against random
   and greedy opponents;
3. evaluates the trained policy against random and against greedy players;
4. leaves in ``runs/demo/``: the result tables (``results.txt``, ``*.json``),
   the charts (``*.png``), the checkpoint (``model.zip``) and one hand played
   by the trained agent, rendered as text (``hand.txt``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

from agents import GreedyAgent, TorchPolicyLoader
from agents.play import play_episode
from envs.changsha.actions import describe
from envs.changsha.env import raw_env
from envs.changsha.observation import decode_hand
from envs.core.tiles import format, from_counts
from training import evaluate as arena
from training.config import load


def decode_hand_tiles(observation) -> list[int]:
    return from_counts(decode_hand(observation))


def play_one_hand(model: Path, out: Path, seed: int = 7) -> None:
    """One hand: the trained agent in seat 0 against three greedy players, every decision logged."""
    policy = TorchPolicyLoader(str(model))
    greedy = GreedyAgent()
    env = raw_env(render_mode="ansi")
    lines = ["One hand of Changsha mahjong: the trained agent is seat 0 (player_0), seats 1-3 are greedy.", ""]

    def log(seat: int, obs: dict, action: int) -> None:
        who = "trained" if seat == 0 else "greedy"
        hand = f"  hand {format(decode_hand_tiles(obs['observation']))}" if seat == 0 else ""
        lines.append(f"seat {seat} ({who}) in {env.game.phase}: {describe(action)}{hand}")

    play_episode(env, [policy, greedy, greedy, greedy], seed=seed, on_decision=log)
    lines += ["", env.render()]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def run_arena(policies: list[str], deals: int, name: str, out_dir: Path, workers: int) -> str:
    print(f"\n== {name}: {' / '.join(policies)}, {deals} deals")
    report = arena.evaluate(policies, deals, "mainstream", seed=10_000, workers=workers)
    print(report["table"])
    (out_dir / f"{name}.json").write_text(json.dumps({k: v for k, v in report.items() if not k.startswith("_")},
                                                     indent=2, ensure_ascii=False), encoding="utf-8")
    arena.plot(report["_reports"], str(out_dir / f"{name}.png"), f"{name} ({deals} deals)")
    return report["table"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=None, help="training minutes (default: configs/demo.yaml)")
    parser.add_argument("--deals", type=int, default=300, help="arena deals per evaluation")
    parser.add_argument("--out", default="runs/demo", help="output folder")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    start = time.time()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tables = [run_arena(["greedy", "random", "random", "random"], args.deals, "greedy_vs_random", out, args.workers)]

    cfg = load("configs/demo.yaml")
    cfg["run_dir"] = str(out / "train")
    if args.minutes is not None:
        cfg["max_minutes"] = args.minutes
    print(f"\n== training MaskablePPO for {cfg['max_minutes']} minutes on {cfg['n_envs']} processes")
    from training.maskable_ppo import train

    final = train(cfg)
    model = out / "model.zip"
    shutil.copy(final, model)
    ckpt = f"ckpt:{model}"
    tables.append(run_arena([ckpt, "random", "random", "random"], args.deals, "trained_vs_random", out, args.workers))
    tables.append(run_arena([ckpt, "greedy", "greedy", "greedy"], args.deals, "trained_vs_greedy", out, args.workers))
    (out / "results.txt").write_text("\n\n".join(tables) + "\n", encoding="utf-8")
    play_one_hand(model, out / "hand.txt")
    print(f"\nDone in {(time.time() - start) / 60:.1f} minutes. Outputs in {out}/:")
    for name in ("results.txt", "greedy_vs_random.png", "trained_vs_random.png", "trained_vs_greedy.png",
                 "model.zip", "hand.txt", "train/tb"):
        print(f"  {out / name}")


if __name__ == "__main__":
    main()

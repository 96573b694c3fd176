"""``make demo``: the main job, in under 15 minutes on 2 cores.

1. plays a short league (duplicate round-robin) of the ruleset's shipped policies: random,
   greedy, expert and every shipped agent of the ruleset, with each one's rating and interval;
2. evaluates the shipped agent (``make_policy("pretrained")``) against three
   GreedyAgents and three ExpertAgents, with its 95% confidence intervals, the search player
   (``SEARCH``: sampled worlds, anchored on the shipped agent, a small budget) in a short arena
   against three GreedyAgents, and each other ruleset's shipped agent against three ExpertAgents
   of its ruleset;
3. trains self-play PPO on the vector env for a few minutes from scratch
   (``configs/demo.yaml``) and draws its learning curve: mean settlement per
   hand against random and greedy players versus learner decisions;
4. leaves in ``runs/demo/``: the result tables (``results.txt``, ``*.json``),
   the charts (``*.png``, ``learning_curve.png``), the short run's checkpoint
   (``train/model.pt``) and one hand played by the shipped agent against three
   greedy players, rendered as text (``hand.txt``) and as a replay page
   (``hand.html``: step through it in any browser, the agent's top-3 actions beside its
   decisions), and one hand of each other ruleset's shipped agent against its experts
   (``hand_<ruleset>.txt`` / ``.html``);
5. photographs the table in headless Chromium at 1280×800 (when ``chromium``, ``chromedriver`` and
   selenium are there; otherwise it says the screenshots were skipped): the play page mid-hand
   (``table_play.png``) and the replay of ``hand.html`` at its end (``table_replay.png``).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import threading
import time
from pathlib import Path
from typing import Any

from cnmahjong.agents import SHIPPED, make_policy, shipped_names
from cnmahjong.agents.play import play_episode
from cnmahjong.envs.aec import aec_env
from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, Ruleset, get_ruleset, rulesets
from cnmahjong.envs.core.tiles import format, from_counts
from cnmahjong.training.arena import run_arena
from cnmahjong.training.arena.plot import plot
from cnmahjong.training.arena.save import write_json
from cnmahjong.training.arena.table import format_table
from cnmahjong.training.config import load
from cnmahjong.training.league import League, format_league, plot_league
from cnmahjong.training.viewer.replay import write_replay

RULESET = get_ruleset(DEFAULT_RULESET)
"""What the demo plays (the registry's default ruleset, its default preset)."""
SEARCH = "search:anchor=pretrained,top=3,rollouts=16"
"""The demo's search player: half the default budget, so its short arena takes about a minute."""


def play_one_hand(policy_name: str, out: Path, seed: int = 7, ruleset: Ruleset = RULESET,
                  opponent: str = "greedy") -> Path:
    """One hand: the agent in seat 0 against three ``opponent`` players, every decision logged to
    ``out`` as text, and the hand as a replay page beside it (``.html``, with the agent's top-3
    actions and their probabilities at each of its decisions). Returns the page."""
    policy = make_policy(policy_name, ruleset=ruleset)
    greedy = make_policy(opponent, ruleset=ruleset)
    env = aec_env(ruleset)(render_mode="ansi")
    describe = ruleset.game.ACTIONS.describe
    lines = [f"One hand of {ruleset.title} mahjong: {policy_name} is seat 0 (player_0), seats 1-3 are {opponent}.",
             ""]
    notes: dict[int, dict] = {}

    def log(seat: int, obs: dict, action: int) -> None:
        who = policy_name if seat == 0 else opponent
        hand = f"  hand {format(from_counts(env.game.hands[0]))}" if seat == 0 else ""  # what seat 0 holds
        lines.append(f"seat {seat} ({who}) in {env.game.phase}: {describe(action)}{hand}")
        if seat == 0 and hasattr(policy, "top_actions"):  # the act event about to be logged
            notes[len(env.game.events)] = {"top": policy.top_actions(obs["observation"][None],
                                                                     obs["action_mask"][None])[0]}

    play_episode(env, [policy, greedy, greedy, greedy], seed=seed, on_decision=log)
    lines += ["", env.render()]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return write_replay(env.game.events, out.with_suffix(".html"), annotations=notes)


def _chromium(width: int, height: int) -> tuple[Any, str | None]:
    """A headless Chromium through selenium, or (None, why not)."""
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver:
        return None, "chromium and chromedriver are not installed (make browser installs them)"
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None, "selenium is not installed (the dev extra)"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    try:
        return webdriver.Chrome(service=Service(driver), options=options), None
    except Exception as e:  # noqa: BLE001 - a browser that does not start only costs the pictures
        return None, f"Chromium did not start: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def screenshots(out: Path, replay_page: Path, seed: int = 7, size: tuple[int, int] = (1280, 800)) -> list[Path]:
    """The play page mid-hand (seat 0 clicks its way through a few decisions, stopping once a
    claim button shows or after ten) and ``replay_page`` at its last step, as PNGs in ``out``;
    none, said on stdout, where no browser is at hand."""
    from cnmahjong.training.server.seat import Table, serve

    browser, why = _chromium(*size)
    if browser is None:
        print(f"screenshots skipped: {why}")
        return []
    table = Table(["greedy", "greedy", "greedy"], RULESET.default_rules, seed=seed)
    server = serve(table, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    rng = random.Random(seed)
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        for decision in range(60):
            page = _settled(browser, table)
            if page["over"]:
                browser.find_element("id", "new").click()
                continue
            if decision >= 10 or (decision >= 6 and page["claims"]):
                break
            choices = page["claims"] or page["tiles"]
            browser.find_element("css selector", f'button.act[data-action="{rng.choice(choices)}"]').click()
        browser.execute_script("document.activeElement.blur()")
        play_png, replay_png = out / "table_play.png", out / "table_replay.png"
        browser.save_screenshot(str(play_png))
        browser.get(replay_page.resolve().as_uri())
        browser.find_element("id", "last").click()
        browser.save_screenshot(str(replay_png))
    finally:
        browser.quit()
        server.shutdown()
        server.server_close()
    return [play_png, replay_png]


def _settled(browser: Any, table: Any, timeout: float = 20.0) -> dict[str, Any]:
    """The play page once it shows the table's state: over, and the actions it offers."""
    end = time.time() + timeout
    while time.time() < end:
        with table.lock:
            n = len(table.game.events)
        page = browser.execute_script("""
            const t = document.getElementById('table');
            const acts = sel => [...document.querySelectorAll(sel)].map(b => +b.dataset.action);
            return {events: t && t.dataset.events ? +t.dataset.events : -1, over: !!document.getElementById('over'),
                    claims: acts('button.act.claim'), tiles: acts('.hand button.act:not(:disabled)')};""")
        if page["events"] == n and (page["over"] or page["claims"] or page["tiles"]):
            return page
        time.sleep(0.05)
    raise TimeoutError("the play page did not show the table within the time")


def learning_curve(log_path: Path, png: Path, unit: str = "points") -> str:
    """Mean settlement per hand of the learner against each opponent kind, per update (smoothed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    rows = [json.loads(line) for line in log_path.read_text().splitlines()]
    rows = [r for r in rows if r.get("phase") == "ppo"]
    fig, ax = plt.subplots(figsize=(7, 4))
    summary = []
    for key, label in (("vs_random", "vs 3 random"), ("vs_greedy", "vs 3 greedy")):
        pts = [(r["learner_decisions"], r[f"settlement_{key}"], r[f"hands_{key}"]) for r in rows
               if f"settlement_{key}" in r]
        if not pts:
            continue
        x, y, w = (np.array(v, dtype=float) for v in zip(*pts, strict=True))
        k = max(1, len(x) // 15)  # hand-weighted moving average over k updates
        smooth = np.convolve(y * w, np.ones(k), "valid") / np.convolve(w, np.ones(k), "valid")
        ax.plot(x[k - 1:], smooth, label=label)
        summary.append(f"{label}: first {smooth[0]:+.2f}, last {smooth[-1]:+.2f} {unit}/hand")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("learner decisions")
    ax.set_ylabel("mean settlement per hand")
    ax.set_title("self-play PPO from scratch (make demo)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return "learning curve (" + "; ".join(summary) + ")"


def arena(policies: list[str], deals: int, name: str, out_dir: Path, workers: int,
          ruleset: Ruleset = RULESET) -> tuple[str, str]:
    """One duplicate arena of a ruleset's default rules: its table (printed, returned with the unit),
    JSON and chart."""
    print(f"\n== {name}: {' / '.join(policies)}, {deals} deals ({ruleset.title})")
    result = run_arena(policies, deals, ruleset.default_rules, seed=10_000, workers=workers, progress=True)
    table = format_table(result.reports, result.deals, result.unit)
    print(table)
    write_json(result, out_dir / f"{name}.json")
    plot(result.reports, str(out_dir / f"{name}.png"), f"{name} ({deals} deals)")
    return table, result.unit


def league(deals: int, out_dir: Path, workers: int, ruleset: Ruleset = RULESET) -> str:
    """The league of a ruleset's shipped policies (random, greedy, expert, its shipped agents):
    its table (printed and returned), JSON and chart."""
    policies = ["random", "greedy", *(["expert"] if ruleset.expert else []),
                *(f"pretrained-{n}" for n in shipped_names(ruleset))]
    print(f"\n== league: {' / '.join(policies)}, {deals} deals per pairing ({ruleset.title})")
    lg = League(ruleset.default_rules, deals, seed=10_000)
    lg.add(policies, workers=workers, on_pair=lambda p, k, of: print(f"  pairing {k}/{of}: {p.a} vs {p.b} "
                                                                      f"{p.mean:+.2f}", flush=True))
    table = format_league(lg)
    print(table)
    (out_dir / "league.json").write_text(json.dumps(lg.to_dict(), indent=1, ensure_ascii=False), encoding="utf-8")
    plot_league(lg, str(out_dir / "league.png"))
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=None, help="training minutes (default: configs/demo.yaml)")
    parser.add_argument("--deals", type=int, default=1000, help="arena deals per evaluation")
    parser.add_argument("--league-deals", type=int, default=100, help="deals per pairing of the league")
    parser.add_argument("--other-deals", type=int, default=300,
                        help="arena deals of each other ruleset's shipped agent against its experts")
    parser.add_argument("--search-deals", type=int, default=24,
                        help="arena deals of the search player (at a small budget) against three GreedyAgents")
    parser.add_argument("--out", default="runs/demo", help="output folder")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    start = time.time()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tables = [league(args.league_deals, out, args.workers)]
    results = [arena(["pretrained", opp, opp, opp], args.deals, f"pretrained_vs_{opp}", out, args.workers)
               for opp in ("greedy", "expert")]
    tables += [table for table, _ in results]
    unit = results[0][1]
    if args.search_deals:  # the search player on sampled worlds, anchored on the shipped agent
        tables.append(arena([SEARCH, "greedy", "greedy", "greedy"], args.search_deals, "search_vs_greedy", out,
                            args.workers)[0])
    others = [rs for rs in rulesets() if rs is not RULESET and (SHIPPED / f"{rs.name}.pt").exists()]
    for rs in others:  # each other ruleset's shipped agent against its experts, and one of its hands
        tables.append(arena(["pretrained", "expert", "expert", "expert"], args.other_deals,
                            f"pretrained_vs_expert_{rs.name}", out, args.workers, rs)[0])

    cfg = load("demo")
    cfg["run_dir"] = str(out / "train")
    if args.minutes is not None:
        cfg["max_minutes"] = args.minutes
    print(f"\n== self-play PPO from scratch for {cfg['max_minutes']} minutes on {cfg['num_workers']} processes")
    from cnmahjong.training.selfplay_ppo import train

    train(cfg)
    tables.append(learning_curve(out / "train" / "log.jsonl", out / "learning_curve.png", unit))
    print(tables[-1])
    (out / "results.txt").write_text("\n\n".join(tables) + "\n", encoding="utf-8")
    play_one_hand("pretrained", out / "hand.txt")
    for rs in others:
        play_one_hand("pretrained", out / f"hand_{rs.name}.txt", ruleset=rs, opponent="expert")
    pictures = screenshots(out, out / "hand.html")
    print(f"\nDone in {(time.time() - start) / 60:.1f} minutes. Outputs in {out}/:")
    for name in ("results.txt", "league.png", "pretrained_vs_greedy.png", "pretrained_vs_expert.png",
                 "learning_curve.png", "train/model.pt", "hand.txt", "hand.html",
                 *(f"hand_{rs.name}.html" for rs in others)):
        print(f"  {out / name}")
    for png in pictures:
        print(f"  {png}")


if __name__ == "__main__":
    main()

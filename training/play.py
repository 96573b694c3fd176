"""Sit at the table: you play seat 0 against any policies the arena accepts.

    python -m training.play --opponents greedy greedy ckpt:runs/train/model.pt [--rules hangzhou]
    python -m training.play --opponents greedy greedy greedy --tui     # in the terminal

The browser mode serves one page on http://127.0.0.1:PORT (this machine only, standard
library ``http.server``): your hand, melds, rivers and the others' as you may see them, and a
button for each action, enabled only when legal. The server checks every action again: an
illegal one is refused with a message and changes nothing. When the hand ends the page shows
the settlement and links the hand's replay (``training.replay``'s page, every hand revealed).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from agents import make_policy, reset_policy
from envs.aec import aec_env
from envs.core.checks import int_arg
from envs.core.engine import IllegalActionError
from envs.core.ruleset import PRESETS, ruleset_of_preset
from training.frames import event_text, hand_frames, snapshot
from training.html import play_html, replay_html

HUMAN = 0


class Table:
    """One hand at a time: the human at seat 0, ``opponents`` at seats 1–3 (policy names as the
    arena takes them). ``act`` plays the human's action, then the others until the human must
    decide again or the hand ends."""

    def __init__(self, opponents: Sequence[str], rules: str = "mainstream", seed: int | None = None) -> None:
        if len(opponents) != 3:
            raise ValueError(f"three opponents sit at seats 1-3, got {len(opponents)}: {list(opponents)}")
        self.ruleset = ruleset_of_preset(rules)
        self.env = aec_env(self.ruleset.name)(rules=rules)
        self.policies = [make_policy(name, seed=i) for i, name in enumerate(opponents)]
        self.rng = np.random.default_rng(seed)
        self.lock = threading.Lock()
        self.log: list[str] = []
        self.new_hand()

    @property
    def game(self) -> Any:
        return self.env.game

    def new_hand(self) -> None:
        for p in self.policies:
            reset_policy(p, int(self.rng.integers(2**31)))
        self.env.reset(seed=int(self.rng.integers(2**31)))
        self._read = 0
        self.log = []
        self._others()

    def legal(self) -> list[int]:
        """The human's legal actions now (empty while the hand is over)."""
        return self.game.legal_actions(HUMAN) if not self.game.done else []

    def act(self, action: Any) -> None:
        """The human's action; an illegal one raises ``IllegalActionError`` and changes nothing."""
        action = int_arg(action, "action")
        if self.game.done:
            raise IllegalActionError("the hand is over: start a new hand")
        legal = self.legal()
        if action not in legal:
            describe = self.game.ACTIONS.describe
            try:
                what = describe(action)
            except ValueError:
                what = "no action"
            raise IllegalActionError(f"{action} ({what}) is not legal now; legal: "
                                     + ", ".join(describe(a) for a in legal))
        self.env.step(action)
        self._others()

    def _others(self) -> None:
        env = self.env
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            seat = env.agent_name_mapping[agent]
            if seat == HUMAN:
                break
            obs = env.observe(agent)
            env.step(int(self.policies[seat - 1](obs["observation"], obs["action_mask"])))
        describe = self.game.ACTIONS.describe
        events = self.game.events
        over = self.game.done
        for e in events[self._read:]:
            if e["type"] == "act":
                if e["action"] >= self.game.NUM_KINDS:  # a discard is told by its own event
                    self.log.append(f"seat {e['seat']}: {describe(e['action'])}")
            elif (text := event_text(e, describe, HUMAN, over)) is not None:
                self.log.append(text)
        self._read = len(events)

    def state(self) -> dict[str, Any]:
        """What the page shows: the table from seat 0, the recent events, the action buttons."""
        describe = self.game.ACTIONS.describe
        legal = self.legal()
        frame = snapshot(self.game, HUMAN)
        hand = self.game.hands[HUMAN]
        actions = self.game.ACTIONS
        # a button per held kind (its discard) and for HU and PASS, enabled only when legal, and
        # one for every other legal action (claims, kongs, ...)
        shown = set(legal) | {actions.HU, actions.PASS} | {t for t in range(self.game.NUM_KINDS) if hand[t]}
        return {"frame": frame, "log": self.log[-14:], "actions": legal,
                "all_actions": {a: describe(a) for a in sorted(shown)}}

    def replay_page(self) -> str:
        return replay_html(hand_frames(self.game.events))


def make_handler(table: Table) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _send(self, code: int, body: str | bytes, kind: str = "application/json") -> None:
            data = body.encode("utf-8") if isinstance(body, str) else body
            self.send_response(code)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def _json(self, code: int, data: Any) -> None:
            self._send(code, json.dumps(data, ensure_ascii=False))

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            with table.lock:
                if self.path == "/":
                    self._send(200, play_html(), "text/html")
                elif self.path == "/state":
                    self._json(200, table.state())
                elif self.path == "/replay":
                    self._send(200, table.replay_page(), "text/html")
                else:
                    self._json(404, {"error": f"no page {self.path}: try / or /state"})

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            with table.lock:
                if self.path == "/new":
                    table.new_hand()
                    self._json(200, table.state())
                    return
                if self.path != "/act":
                    self._json(404, {"error": f"no action endpoint {self.path}: POST /act or /new"})
                    return
                try:
                    body = json.loads(raw or b"{}")
                    if not isinstance(body, dict) or "action" not in body:
                        raise ValueError('send {"action": ID}')
                    table.act(body["action"])
                except (ValueError, TypeError, IllegalActionError) as e:
                    self._json(400, {"error": f"refused: {e}"})
                    return
                self._json(200, table.state())

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet server
            pass

    return Handler


def serve(table: Table, port: int = 8765) -> ThreadingHTTPServer:
    """A server on 127.0.0.1 (this machine only); ``port=0`` takes a free one."""
    return ThreadingHTTPServer(("127.0.0.1", port), make_handler(table))


def tui(table: Table, read: Any = input, write: Any = print) -> None:
    """The terminal version: the table as text, your legal actions numbered; type one number."""
    while True:
        game = table.game
        write(table.ruleset.render(game, HUMAN, None))
        write("\n".join(table.log[-8:]))
        if game.done:
            write(f"hand over: payments {list(game.result.payments)}")
            return
        legal = table.legal()
        describe = game.ACTIONS.describe
        write("  ".join(f"[{i}] {describe(a)}" for i, a in enumerate(legal)))
        answer = read("your choice: ").strip()
        if answer in ("q", "quit"):
            return
        if not answer.isdigit() or int(answer) >= len(legal):
            write(f"type a number from 0 to {len(legal) - 1} (q quits)")
            continue
        table.act(legal[int(answer)])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opponents", nargs=3, default=["greedy", "greedy", "greedy"], metavar="POLICY",
                        help="seats 1-3: random, greedy, pretrained or ckpt:PATH")
    parser.add_argument("--rules", default="mainstream", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=None, help="deal seed stream (default: random)")
    parser.add_argument("--port", type=int, default=8765, help="local port (0: any free one)")
    parser.add_argument("--tui", action="store_true", help="play in the terminal instead of the browser")
    args = parser.parse_args(argv)
    try:
        table = Table(args.opponents, args.rules, args.seed)
    except ValueError as e:
        parser.error(str(e))
    if args.tui:
        tui(table)
        return
    server = serve(table, args.port)
    print(f"your seat is open at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("bye", file=sys.stderr)
    finally:
        server.server_close()


if __name__ == "__main__":
    main()

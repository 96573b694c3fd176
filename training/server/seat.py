"""Sit at the table: you play seat 0 against any policies the arena accepts.

    python -m cnmahjong.training.server --opponents greedy greedy ckpt:runs/train/model.pt [--rules PRESET]
    python -m cnmahjong.training.server --opponents greedy greedy greedy --tui     # in the terminal
    cnmahjong-play ...                                                            # the same

The browser mode serves one page on http://127.0.0.1:PORT (this machine only, standard
library ``http.server``): your hand, melds, rivers and the others' as you may see them, and a
button for each action, enabled only when legal. The server checks every action again: an
illegal one is refused with a message and changes nothing. When the hand ends the page shows
the settlement and links the hand's replay (the replay viewer's page, every hand revealed);
before that ``/replay`` answers 409, so no page shows another seat's concealed tiles early.

What the server accepts, and what it refuses: ``training/server/httpd.py``. Any registered
ruleset plays (``--rules``: any preset).
"""

from __future__ import annotations

import argparse
import re
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cnmahjong.agents import make_policy, reset_policy
from cnmahjong.agents.bot import Where
from cnmahjong.envs.aec import aec_env
from cnmahjong.envs.core.checks import int_arg
from cnmahjong.envs.core.engine import IllegalActionError
from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, get_ruleset, preset_names, ruleset_of_preset
from cnmahjong.training.sigterm import sigterm_as_interrupt
from cnmahjong.training.viewer.frames import event_text, hand_frames, hides_kong, snapshot
from cnmahjong.training.viewer.html import replay_html

HUMAN = 0
REPLAY_CLOSED = "the replay opens when the hand is over"


class Table:
    """One hand at a time: the human at seat 0, ``opponents`` at seats 1–3 (policy names as the
    arena takes them). ``act`` plays the human's action, then the others until the human must
    decide again or the hand ends. An opponent that fails stops the hand: ``stalled`` says who
    and why until the next ``new_hand``."""

    def __init__(self, opponents: Sequence[str], rules: str | None = None, seed: int | None = None,
                 trust_pickles: bool = False) -> None:
        rules = get_ruleset(DEFAULT_RULESET).default_rules if rules is None else rules
        if len(opponents) != 3:
            raise ValueError(f"three opponents sit at seats 1-3, got {len(opponents)}: {list(opponents)}")
        self.rules = rules
        self.ruleset = ruleset_of_preset(rules)
        self.env = aec_env(self.ruleset.name)(rules=rules)
        self.names = list(opponents)
        self.policies = [make_policy(name, seed=i, ruleset=self.ruleset.name, trust_pickles=trust_pickles)
                         for i, name in enumerate(opponents)]
        self._probe()
        self.rng = np.random.default_rng(seed)
        self.lock = threading.Lock()
        self.log: list[str] = []
        self.stalled: str | None = None
        self.hands_dealt = 0
        """Hands dealt so far: the current hand's number (a bot's ``hand``)."""
        self.new_hand()

    @property
    def game(self) -> Any:
        return self.env.game

    def _probe(self) -> None:
        """Let every opponent make one decision in a throwaway hand, so one that cannot play these
        rules (wrong encoder, an illegal answer, a crash) stops the start, not your first hand."""
        env = aec_env(self.ruleset.name)(rules=self.rules)
        waiting = {1, 2, 3}
        for deal in range(8):  # a hand rarely ends before every seat decided; then deal again
            env.reset(seed=deal)
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                seat = env.agent_name_mapping[agent]
                if term or trunc:
                    env.step(None)
                elif seat == HUMAN:
                    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
                else:
                    try:
                        env.step(_decide(self.policies[seat - 1], obs, Where(f"probe {deal}", seat, env.game.events)))
                    except Exception as e:  # noqa: BLE001 - any failure of a foreign policy is reported
                        raise ValueError(f"opponent {seat} ({self.names[seat - 1]}) cannot play {self.rules}: "
                                         f"{type(e).__name__}: {e}") from e
                    waiting.discard(seat)
                    if not waiting:
                        return

    def new_hand(self, scenario: dict[str, Any] | None = None) -> None:
        """Deal the next hand (or ``scenario``, as the env's ``reset`` takes it) and play the
        opponents up to the human's first decision."""
        for p in self.policies:
            reset_policy(p, int(self.rng.integers(2**31)))
        seed = int(self.rng.integers(2**31))
        self.env.reset(seed=seed, options=None if scenario is None else {"scenario": scenario})
        self.hands_dealt += 1
        self._read = 0
        self.log = []
        self.stalled = None
        self._others()

    def legal(self) -> list[int]:
        """The human's legal actions now (empty while the hand is over, stalled or another's turn)."""
        env = self.env
        if self.game.done or self.stalled or not env.agents or env.agent_name_mapping[env.agent_selection] != HUMAN:
            return []
        return self.game.legal_actions(HUMAN)

    def act(self, action: Any) -> None:
        """The human's action; an illegal one raises ``IllegalActionError`` (``TypeError`` or
        ``ValueError`` for a non-action) and changes nothing. A legal one is played, then the
        opponents: if one fails, ``stalled`` says so (the human's action stays played)."""
        action = int_arg(action, "action", 0, self.game.ACTIONS.NUM_ACTIONS - 1)
        if self.game.done:
            raise IllegalActionError("the hand is over: start a new hand")
        if self.stalled:
            raise IllegalActionError(f"{self.stalled}; start a new hand")
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
        """Play the opponents until the human decides or the hand ends; then log what happened."""
        env = self.env
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            seat = env.agent_name_mapping[agent]
            if seat == HUMAN:
                break
            try:
                where = Where(str(self.hands_dealt), seat, self.game.events)
                env.step(_decide(self.policies[seat - 1], env.observe(agent), where))
            except Exception as e:  # noqa: BLE001 - a foreign policy's failure is reported, not fatal
                self.stalled = f"opponent seat {seat} ({self.names[seat - 1]}) failed: {type(e).__name__}: {e}"
                break
        self._log_new_events()

    def _log_new_events(self) -> None:
        """The events since the last call in words, as seat 0 may see them."""
        describe = self.game.ACTIONS.describe
        events = self.game.events
        over = self.game.done
        for i in range(self._read, len(events)):
            e = events[i]
            if e["type"] == "act":
                if e["action"] >= self.game.NUM_KINDS:  # a discard is told by its own event
                    said = "a concealed kong" if hides_kong(events, i, HUMAN, over) else describe(e["action"])
                    self.log.append(f"seat {e['seat']}: {said}")
            elif (text := event_text(e, describe, HUMAN, over, self.ruleset)) is not None:
                self.log.append(text)
        self._read = len(events)

    def state(self) -> dict[str, Any]:
        """What the page shows: the table from seat 0, the recent events, the action buttons."""
        describe = self.game.ACTIONS.describe
        legal = self.legal()
        frame = snapshot(self.game, HUMAN, self.ruleset)
        hand = self.game.hands[HUMAN]
        actions = self.game.ACTIONS
        # a button per held kind (its discard) and for HU and PASS, enabled only when legal, and
        # one for every other legal action (claims, kongs, ...)
        shown = set(legal) | {actions.HU, actions.PASS} | {t for t in range(self.game.NUM_KINDS) if hand[t]}
        return {"frame": frame, "log": self.log[-14:], "actions": legal,
                "all_actions": {a: describe(a) for a in sorted(shown)}, "stalled": self.stalled}

    def replay_page(self) -> str:
        """The hand's replay, every hand revealed: only once the hand is over."""
        if not self.game.done:
            raise IllegalActionError(REPLAY_CLOSED)
        return replay_html(hand_frames(self.game.events))


def _decide(policy: Callable[..., Any], obs: dict[str, np.ndarray], where: Where) -> int:
    """A policy's action for ``obs`` as an int (the env refuses an illegal one); a policy that
    reads where it sits (``decide``: a bot) is told the hand, its seat and the events."""
    decide = getattr(policy, "decide", None)
    if decide is not None:
        return int(decide(obs["observation"], obs["action_mask"], where))
    return int(policy(obs["observation"], obs["action_mask"]))


def serve(table: Table, port: int = 8765, client_timeout: float = 10.0) -> Any:
    """The table's server on 127.0.0.1 (``cnmahjong.training.server.httpd``); ``port=0`` takes a free one.
    A client that stalls for ``client_timeout`` seconds mid-request is dropped."""
    from cnmahjong.training.server.httpd import SeatServer

    return SeatServer(table, port, client_timeout)


def tui(table: Table, read: Any = input, write: Any = print) -> None:
    """The terminal version: the table as text, your legal actions numbered; type one number."""
    while True:
        game = table.game
        write(table.ruleset.render(game, HUMAN, None))
        write("\n".join(table.log[-8:]))
        if game.done:
            write(f"hand over: payments {list(game.result.payments)}")
            return
        if table.stalled:
            write(f"the hand cannot go on: {table.stalled}")
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


def _port(text: str) -> int:
    """``--port``: 0..65535 (0: any free one)."""
    if not re.fullmatch(r"[0-9]{1,5}", text.strip()) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0: any free one), got {text!r}")
    return int(text)


def _seed(text: str) -> int:
    """``--seed``: a non-negative integer."""
    if not re.fullmatch(r"[0-9]+", text.strip()):
        raise argparse.ArgumentTypeError(f"a seed is an integer 0 or more, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opponents", nargs=3, default=["greedy", "greedy", "greedy"], metavar="POLICY",
                        help="seats 1-3: random, greedy, expert, pretrained, pretrained-NAME or ckpt:PATH")
    parser.add_argument("--rules", default=get_ruleset(DEFAULT_RULESET).default_rules, choices=sorted(preset_names()),
                        help="a rule preset of any registered ruleset")
    parser.add_argument("--seed", type=_seed, default=None, help="deal seed stream, 0 or more (default: random)")
    parser.add_argument("--port", type=_port, default=8765, help="local port 0..65535 (0: any free one)")
    parser.add_argument("--tui", action="store_true", help="play in the terminal instead of the browser")
    parser.add_argument("--trust-zip", action="store_true",
                        help="allow SB3 .zip opponents (unpickling them can run code: only your own files)")
    args = parser.parse_args(argv)
    sigterm_as_interrupt()  # SIGTERM ends the server as Ctrl-C does, and the bots with it
    try:
        table = Table(args.opponents, args.rules, args.seed, trust_pickles=args.trust_zip)
    except ValueError as e:
        parser.error(str(e))
    if args.tui:
        tui(table)
        return
    try:
        server = serve(table, args.port)
    except OSError as e:
        parser.error(f"cannot listen on 127.0.0.1:{args.port}: {e.strerror or e}")
    print(f"your seat is open at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("bye", file=sys.stderr)
    finally:
        server.server_close()


if __name__ == "__main__":
    main()

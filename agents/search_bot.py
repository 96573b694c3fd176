"""The search player behind the bot protocol: ``python -m cnmahjong.agents.search_bot [SPEC]``.

    cnmahjong-arena --policies "bot:python -m cnmahjong.agents.search_bot search:rollouts=16" greedy greedy greedy

A bot sees its seat's events, never the game (``cnmahjong.agents.bot``). This one asks for them
(``"events": true``), keeps a game rebuilt from them per hand (``cnmahjong.envs.core.shadow``:
a game its seat cannot tell from the real one) and answers each decision with the search
player's choice on it (``SPEC``, ``search`` by default: any ``search:...`` the arena takes). Its
worlds are those the search would draw on the real game, so it plays as the search does in
process. Each decision is seeded from the hand and the decision's number (the same hand, the
same play), and its search is capped at ``BUDGET_SHARE`` of the protocol's time limit unless the
spec sets ``ms``, its rebuild at ``REBUILD_SHARE``. Where the events cannot be rebuilt (not a
hand these rules can play, or not in time) it plays
the ruleset's rule-based player on the observation's planes and counts it (``fallbacks``).
"""

from __future__ import annotations

import json
import random
import sys
import time
import zlib
from collections.abc import Iterator
from typing import Any, TextIO

import numpy as np

from cnmahjong.agents.search import SearchPolicy, make_search
from cnmahjong.envs.core.rollouts import seat_player
from cnmahjong.envs.core.ruleset import get_ruleset
from cnmahjong.envs.core.seen import seat_events
from cnmahjong.envs.core.shadow import Shadow, ShadowError
from cnmahjong.envs.core.worlds import SeatView

HANDS_KEPT = 64
"""Hands whose rebuilt games the bot keeps (the arena plays many at once; old ones are over)."""
BUDGET_SHARE = 0.6
"""Share of the time limit the search may spend (the rest: rebuilding, the pipe)."""
REBUILD_SHARE = 0.25
"""Share of the time limit the rebuild may spend; past it the hand is the rule-based player's."""


class SearchBot:
    """The bot's state: the search player, a ``Shadow`` per (hand, seat) and the fallback count."""

    def __init__(self, spec: str, ruleset: str, time_limit: float | None) -> None:
        options = spec[len("search:"):] if spec.startswith("search:") else "" if spec == "search" else None
        if options is None:
            raise ValueError(f"the search bot plays a search spec (search or search:KEY=VALUE,...), got {spec!r}")
        self.ruleset = get_ruleset(ruleset)
        self.policy: SearchPolicy = make_search(options, 0, self.ruleset.name)
        if time_limit and not self.policy.ms:
            self.policy.ms = max(1, int(time_limit * 1000 * BUDGET_SHARE))
        self.rebuild_seconds = time_limit * REBUILD_SHARE if time_limit else None
        self.shadows: dict[tuple[str, int], tuple[Shadow | None, int]] = {}
        self.fallbacks = 0

    def answer(self, message: dict[str, Any]) -> int:
        """The action for one act message."""
        legal, hand, seat = message["legal"], message.get("hand"), message.get("seat")
        if hand is None or seat is None:
            return self._fallback(message)
        key = (str(hand), int(seat))
        found = self.shadows.pop(key, None)
        events = message.get("events") or []
        if found is None or (events and events[0].get("type") == "deal"):  # a new hand, or a restart
            found = (Shadow(self.ruleset, key[1], np.random.default_rng(zlib.crc32(key[0].encode()))), 0)
        shadow, n = found
        self.shadows[key] = (shadow, n + 1)
        while len(self.shadows) > HANDS_KEPT:
            self.shadows.pop(next(iter(self.shadows)))
        if shadow is None:  # this hand's events could not be rebuilt: the rule-based player plays it out
            return self._fallback(message)
        try:
            shadow.feed(events, self.rebuild_seconds)
            game = shadow.game
        except ShadowError:
            self.shadows[key] = (None, n + 1)
            return self._fallback(message)
        if sorted(game.legal_actions(key[1])) != sorted(legal):
            return self._fallback(message)
        self.policy.reset(decision_seed(key[0], key[1], n))
        return self.policy.act_view(SeatView(game, key[1]))

    def _fallback(self, message: dict[str, Any]) -> int:
        self.fallbacks += 1
        obs = np.asarray(message["obs"], dtype=np.float32)
        return int(self.ruleset.heuristic(obs, list(message["legal"])))


def decision_seed(hand: str, seat: int, n: int) -> int:
    """The search's seed at the ``n``-th decision of ``seat`` at ``hand``."""
    return zlib.crc32(f"{hand}/{seat}/{n}".encode())


def seat_decisions(name: str, hands: int, share: float = 0.4) -> Iterator[tuple[int, Any, int, list[dict[str, Any]]]]:
    """(hand, real game, seat, the seat's events since its last one) at a share of one seat's
    decisions with a choice (seat ``hand % 4``), the hands played by greedy players: what a bot at
    that seat is sent."""
    rs = get_ruleset(name)
    config = rs.as_config(rs.default_rules)
    play = seat_player(rs, "greedy")
    for h in range(hands):
        game = rs.new_hand(config, np.random.default_rng(h))
        seat, start, r = h % 4, 0, random.Random(h)
        while not game.done:
            game.play_forced()
            if game.done:
                break
            if seat in game.pending and len(game.pending[seat]) > 1 and r.random() < share:
                new, start = seat_events(game.events, start, seat, game.done)
                yield h, game, seat, new
            s = next(iter(game.pending))
            game.step(s, play(game, s, game.legal_actions(s)))


def measure(name: str, hands: int) -> str:
    """The shadow's cost on ``seat_decisions``: seconds a decision, hands it could not rebuild."""
    rs = get_ruleset(name)
    shadows: dict[int, Shadow] = {}
    broken: set[int] = set()
    times = []
    for h, _, seat, new in seat_decisions(name, hands):
        if h in broken:
            continue
        shadow = shadows.setdefault(h, Shadow(rs, seat, np.random.default_rng(h)))
        t = time.perf_counter()
        try:
            shadow.feed(new)
        except ShadowError:
            broken.add(h)
        times.append(time.perf_counter() - t)
    times.sort()
    return (f"{name}: {len(times)} decisions of {hands} hands, {len(broken)} hands not rebuilt; seconds a decision: "
            f"median {times[len(times) // 2]:.3f}, 95th percentile {times[int(0.95 * len(times))]:.3f}, "
            f"max {times[-1]:.3f}")


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Speak the protocol on ``stdin`` and ``stdout`` until the input closes (``--measure RULESET
    HANDS``: print the shadow's cost instead)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--measure"]:
        if len(args) != 3 or not args[2].isdigit() or not 1 <= int(args[2]) <= 10_000:
            stdout.write("usage: --measure RULESET HANDS (HANDS an integer 1..10000)\n")
            return 2
        try:
            name = get_ruleset(args[1]).name
        except ValueError as err:
            stdout.write(f"{err}\n")
            return 2
        stdout.write(measure(name, int(args[2])) + "\n")
        return 0
    spec = args[0] if args else "search"
    bot: SearchBot | None = None
    for line in stdin:
        message = json.loads(line)
        if message.get("type") == "hello":
            bot = SearchBot(spec, message["ruleset"], message.get("time_limit"))
            reply: Any = {"type": "ready", "name": f"search bot ({spec})"[:40], "view": "planes", "events": True}
        elif message.get("type") == "act" and bot is not None:
            reply = {"id": message["id"], "action": bot.answer(message)}
        else:
            continue
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

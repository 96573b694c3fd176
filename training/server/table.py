"""The human seat's session: one hand at a time, the human at seat 0 and three policies at the
others (any the arena accepts), what the page and the terminal show of it. The web server
(``httpd``), the terminal seat (``tui``) and the command line (``cli``) drive it; it knows
none of them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cnmahjong.agents import make_policy, reset_policy
from cnmahjong.agents.bot import Where
from cnmahjong.envs.aec import aec_env
from cnmahjong.envs.core.checks import int_arg
from cnmahjong.envs.core.engine import IllegalActionError
from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, get_ruleset, ruleset_of_preset
from cnmahjong.envs.core.seen import HIDDEN_CHOICE, seat_events
from cnmahjong.envs.core.worlds import SeatView
from cnmahjong.training.viewer.frames import event_text, hand_frames, snapshot
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
                        env.step(_decide(self.policies[seat - 1], obs, Where(f"probe {deal}", seat, env.game.events),
                                         SeatView(env.game, seat)))
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
                env.step(_decide(self.policies[seat - 1], env.observe(agent), where, SeatView(self.game, seat)))
            except Exception as e:  # noqa: BLE001 - a foreign policy's failure is reported, not fatal
                self.stalled = f"opponent seat {seat} ({self.names[seat - 1]}) failed: {type(e).__name__}: {e}"
                break
        self._log_new_events()

    def _log_new_events(self) -> None:
        """The events since the last call in words, as seat 0 may see them."""
        describe = self.game.ACTIONS.describe
        over = self.game.done
        seen, self._read = seat_events(self.game.events, self._read, HUMAN, over)  # the one seat filter
        for e in seen:
            if e["type"] != "act":
                if (text := event_text(e, describe, HUMAN, over, self.ruleset)) is not None:
                    self.log.append(text)
            elif "action" not in e:  # another seat's pick in a secret window
                self.log.append(f"seat {e['seat']}: {HIDDEN_CHOICE}")
            elif e["action"] >= self.game.NUM_KINDS:  # a discard is told by its own event
                self.log.append(f"seat {e['seat']}: {describe(e['action'])}")

    def state(self) -> dict[str, Any]:
        """What the page shows: the table from seat 0 (its legal actions with their names and click
        tiles in the frame), the recent events, and the actions the server takes now."""
        return {"frame": snapshot(self.game, HUMAN, self.ruleset), "log": self.log[-14:], "actions": self.legal(),
                "stalled": self.stalled}

    def replay_page(self) -> str:
        """The hand's replay, every hand revealed: only once the hand is over."""
        if not self.game.done:
            raise IllegalActionError(REPLAY_CLOSED)
        return replay_html(hand_frames(self.game.events))


def _decide(policy: Callable[..., Any], obs: dict[str, np.ndarray], where: Where, view: SeatView) -> int:
    """A policy's action for ``obs`` as an int (the env refuses an illegal one); a policy that
    reads where it sits (``decide``: a bot) is told the hand, its seat and the events; one that
    searches (``act_view``: the search player) gets its seat's view (legal actions, sampled worlds)."""
    act_view = getattr(policy, "act_view", None)
    if act_view is not None:
        return int(act_view(view))
    decide = getattr(policy, "decide", None)
    if decide is not None:
        return int(decide(obs["observation"], obs["action_mask"], where))
    return int(policy(obs["observation"], obs["action_mask"]))

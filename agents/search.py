"""The search player (``make_policy("search")``, ``"search:rollouts=200,policy=expert"``), any ruleset.

At a decision with more than one legal action it draws worlds consistent with what its seat
knows (``SeatView.sample_world``: never the real game's hidden tiles), plays every candidate
action forward to the end of the hand in each world with a fast rollout policy (every seat
played by it), and keeps the action with the best mean settlement for its seat: determinized
("perfect-information") Monte Carlo, the first step of ISMCTS.

- The candidates share each round's worlds (paired comparisons: the luck of the draw cancels
  out), and the budget is spent by sequential halving: every candidate gets the first round's
  worlds, the better half the next round's, and so on.
- The default choice is the ``anchor``'s (by default the ruleset's expert player, or the rollout
  policy's own choice where a ruleset has no expert; ``anchor=pretrained`` a network's): another
  action replaces it only when its paired
  mean beats the default's by more than ``margin`` standard errors (search noise alone never makes
  it play worse than its anchor by much). An anchored search is a policy-improvement step on the
  anchor: what ``cnmahjong.training.distill`` teaches a network back.
- ``rollouts``: play-outs per decision (the budget; deterministic for a seed), ``ms``: an optional
  wall-clock cap per decision, checked after each world (one play-out per candidate, so a
  decision may overrun it by one world; timing then decides how much is searched, so choices
  stop being reproducible); ``policy``: ``greedy`` (default: the fastest that plays sensibly), ``expert``
  or ``random``; ``margin``; ``anchor``: ``expert`` (default), ``greedy``, ``pretrained``,
  ``pretrained-NAME``, ``ckpt:PATH`` (a network reads its own encoder's planes of the seat's
  observation) or ``rollout`` (the rollout policy's choice); ``top``: with a network anchor, only its
  ``top`` most probable actions are candidates (0, the default: every legal action), so the budget
  goes to the few that matter; ``confirm``: before replacing the default, play it and the best
  action in this many fresh worlds and replace it only if they confirm the gain (0, the default:
  decide on the worlds that chose the best, whose luck favours it: the winner's curse); ``own``:
  who plays the searching seat's own later decisions in a play-out, ``rollout`` (the default: the
  rollout policy, as every other seat) or ``anchor`` (its anchor, a network's forward passes
  batched over all the play-outs of a round). A play-out then values an action as the anchor
  would go on to play it, so the search is a policy-improvement step on the anchor itself rather
  than on the rollout policy (Tesauro and Galperin's rollouts).

It reads a ``SeatView`` (its legal actions and worlds), never the game: the arena and the
play page hand it one (``act_view``). Given only an observation (``policy(obs, mask)``) it refuses.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cnmahjong.envs.core.rollouts import play_to_end, reads_log, seat_player
from cnmahjong.envs.core.ruleset import Ruleset, get_ruleset
from cnmahjong.envs.core.worlds import SeatView

DEFAULTS = {"rollouts": 32, "ms": 0, "policy": "greedy", "margin": 2.0, "anchor": "expert", "top": 0, "confirm": 0,
            "own": "rollout"}
"""The default budget: 32 play-outs a decision, under a second on one core (``make bench``'s search
rows measure it). A ruleset may set its own defaults over these (``Players.search_options``:
Sichuan's ``confirm=16``)."""
ROLLOUT_POLICIES = ("greedy", "expert", "random")
ANCHORS = ("expert", "greedy", "pretrained", "rollout")
OWN = ("rollout", "anchor")
"""Who plays the searching seat's own later decisions in a play-out: the rollout policy, or the anchor."""
"""Whose choice the search keeps unless another is clearly better (besides ``pretrained-NAME``, ``ckpt:PATH``)."""


def parse_options(text: str) -> dict[str, Any]:
    """``"rollouts=200,policy=expert"`` -> options, every key and value checked: an unknown key or
    a bad value raises ``ValueError`` naming it and what is allowed."""
    opts: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if key not in DEFAULTS:
            raise ValueError(f"search option {key!r} is unknown: allowed {', '.join(DEFAULTS)} "
                             f"(e.g. search:rollouts=200,policy=expert)")
        if not eq:
            raise ValueError(f"search option {key!r} needs a value: {key}=...")
        opts[key] = _option(key, value.strip())
    return opts


def _option(key: str, value: str) -> Any:
    if key == "anchor":
        if value not in ANCHORS and not value.startswith(("pretrained-", "ckpt:")):
            raise ValueError(f"search option anchor={value!r}: allowed {', '.join(ANCHORS)}, pretrained-NAME "
                             f"or ckpt:PATH")
        return value
    if key == "own":
        if value not in OWN:
            raise ValueError(f"search option own={value!r}: allowed {', '.join(OWN)}")
        return value
    if key == "policy":
        if value not in ROLLOUT_POLICIES:
            raise ValueError(f"search option policy={value!r}: allowed {', '.join(ROLLOUT_POLICIES)}")
        return value
    if key == "margin":
        try:
            margin = float(value)
        except ValueError:
            margin = math.nan
        if not math.isfinite(margin) or margin < 0:
            raise ValueError(f"search option margin={value!r}: allowed a number >= 0")
        return margin
    low = 1 if key == "rollouts" else 0  # ms, top, confirm: 0 means none
    if not value.isdigit() or int(value) < low or int(value) > 1_000_000:
        raise ValueError(f"search option {key}={value!r}: allowed an integer {low}..1000000"
                         + {"ms": " (0: no time cap)", "top": " (0: every legal action)",
                            "confirm": " (0: no fresh worlds)"}.get(key, ""))
    return int(value)


def rollout_player(ruleset: Ruleset, name: str) -> Callable[[Any, int, np.random.Generator], int]:
    """``play(game, seat, rng) -> action`` of a rollout policy: the ruleset's greedy or expert player
    (``envs.core.rollouts.seat_player``: the greedy one reads the seat's facts from the game), or a
    uniform random legal action."""
    if name == "random":
        return lambda game, seat, rng: (lambda legal: legal[int(rng.integers(len(legal)))])(game.legal_actions(seat))
    choose = seat_player(ruleset, name)
    return lambda game, seat, rng: choose(game, seat, game.legal_actions(seat))


def play_out(game: Any, play: Callable[[Any, int, np.random.Generator], int], rng: np.random.Generator) -> Any:
    """Play ``game`` to its end, every seat by ``play`` (single choices played at once); its result.
    The loop is the rollout primitive's (``envs.core.rollouts.play_to_end``)."""
    play_to_end(game, lambda g, seat, legal: play(g, seat, rng))
    return game.result


def _play_each(world: Any, seat: int, actions: list[int], play: Callable[[Any, int, np.random.Generator], int],
               rng: np.random.Generator, totals: dict[int, list[float]], log: bool = True) -> None:
    """Play every action of ``actions`` in its own copy of ``world`` to the end; each one's settlement
    for ``seat`` goes to ``totals[action]`` (paired: the same world for every action). ``log=False``:
    copies without the event log, for a ``play`` that reads none (``envs.core.rollouts.reads_log``)."""
    for a in actions:
        g = world.clone(log)
        g.step(seat, a)
        totals[a].append(play_out(g, play, rng).payments[seat])


def play_out_own(games: list[Any], seat: int, play: Callable[[Any, int, np.random.Generator], int],
                 rng: np.random.Generator, own: Callable[[list[Any]], list[int]]) -> list[int]:
    """Play every game of ``games`` to its end in place, in lockstep: ``seat``'s choices by
    ``own(games_waiting) -> actions`` (one call for all the games waiting on that seat: a network's
    batch), every other seat's by ``play``; ``seat``'s settlement in each game."""
    waiting = list(games)
    while waiting:
        ready = []
        for g in waiting:
            while True:
                g.play_forced()
                pending = g.pending
                if not pending:
                    break
                other = next((s for s in pending if s != seat), None)
                if other is None:  # only the searching seat is asked: it waits for the batch
                    ready.append(g)
                    break
                g.step(other, play(g, other, rng))
        if ready:
            for g, a in zip(ready, own(ready), strict=True):
                g.step(seat, a)
        waiting = ready
    return [g.result.payments[seat] for g in games]


class SearchPolicy:
    """Determinized Monte Carlo search over sampled worlds; see the module docstring."""

    def __init__(self, ruleset: str | Ruleset | None = None, seed: int | None = None, rollouts: int = 32,
                 ms: int = 0, policy: str = "greedy", margin: float = 2.0, anchor: str = "expert",
                 top: int = 0, confirm: int = 0, own: str = "rollout") -> None:
        self.ruleset = None if ruleset is None else get_ruleset(ruleset)
        self.rollouts, self.ms, self.policy, self.margin, self.top = rollouts, ms, policy, margin, top
        self.confirm = confirm
        self.anchor = anchor
        if own not in OWN:
            raise ValueError(f"search option own={own!r}: allowed {', '.join(OWN)}")
        if own == "anchor" and anchor == "rollout":
            raise ValueError("search option own=anchor needs an anchor (anchor=expert, pretrained, ...), "
                             "not anchor=rollout")
        self.own = own
        self._anchors: dict[str, Any] = {}
        self._players: dict[str, Any] = {}
        self.reset(seed)
        self.decisions = 0
        self.played = 0
        """Play-outs made so far (``make bench`` reads it)."""
        if self.ruleset is not None:  # built now, so a checkpoint of other rules is refused before any deal
            self._anchor_of(self.ruleset.name)

    def _anchor_of(self, ruleset_name: str) -> Any:
        """The anchor policy for a ruleset; None: the rollout policy's choice (no anchor, or the
        default ``expert`` where the ruleset has none)."""
        if ruleset_name not in self._anchors:
            from cnmahjong.agents import make_policy

            rs = self.ruleset if self.ruleset is not None else get_ruleset(ruleset_name)
            none = self.anchor == "rollout" or (self.anchor == "expert" and rs.expert is None)
            self._anchors[ruleset_name] = None if none else make_policy(self.anchor, ruleset=rs.name)
        return self._anchors[ruleset_name]

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(0 if seed is None else seed)

    def __call__(self, observation: Any, action_mask: Any) -> int:
        raise TypeError("the search player needs its seat's view of the game (act_view(SeatView(game, seat))), "
                        "not only an observation: the arena and the play page give it one")

    def _player(self, ruleset_name: str) -> tuple[Any, bool]:
        """The rollout player for a ruleset, and whether it reads the event log (the play-outs of
        one that does not are copies without one)."""
        found = self._players.get(ruleset_name)
        if found is None:
            rs = self.ruleset if self.ruleset is not None else get_ruleset(ruleset_name)
            found = self._players[ruleset_name] = (rollout_player(rs, self.policy), reads_log(rs, self.policy))
        return found

    def act_view(self, view: SeatView) -> int:
        """The action for ``view``'s seat: see the module docstring."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} is not to act: the search player has nothing to choose")
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        rng = self._rng
        play = self._player(view.ruleset)[0]
        seat = view.seat
        start = time.perf_counter()
        first = view.sample_world(rng)
        anchor = self._anchor_of(view.ruleset)
        if anchor is None:
            default, alive = play(first, seat, rng), list(legal)
        else:
            default, alive = self._anchored(anchor, first, seat, legal, view.ruleset)
            if len(alive) == 1:  # nothing else worth a play-out
                return default
        totals: dict[int, list[float]] = {a: [] for a in legal}  # per action, its settlement in each world
        budget = self.rollouts
        world = first
        late = False
        while budget >= len(alive) and not late:
            rounds = max(1, math.ceil(math.log2(len(alive))))  # this one included
            left = max(1, budget // (len(alive) * rounds))
            while left:  # world by world; with own=anchor the round's worlds at once (one batch)
                n = 1 if self.own == "rollout" else left
                worlds = [world] if world is not None else []
                worlds += [view.sample_world(rng) for _ in range(n - len(worlds))]
                self._play_round(worlds, seat, alive, play, rng, totals, view.ruleset)
                budget -= n * len(alive)
                left -= n
                world = None
                late = bool(self.ms) and (time.perf_counter() - start) * 1000 > self.ms
                if late:
                    break
            if len(alive) > 2:  # the better half (and the default) goes on
                alive.sort(key=lambda a: -float(np.mean(totals[a])))
                keep = alive[:max(2, len(alive) // 2)]
                alive = keep if default in keep else [*keep, default]
        self.played += sum(map(len, totals.values()))
        choice = self._choose(alive, totals, default)
        if choice == default or not self.confirm:
            return choice
        fresh: dict[int, list[float]] = {default: [], choice: []}
        worlds = [view.sample_world(rng) for _ in range(self.confirm)]
        self._play_round(worlds, seat, [default, choice], play, rng, fresh, view.ruleset)
        self.played += 2 * self.confirm
        return self._choose([default, choice], fresh, default)

    def _play_round(self, worlds: list[Any], seat: int, actions: list[int], play: Any, rng: np.random.Generator,
                    totals: dict[int, list[float]], ruleset_name: str) -> None:
        """Every action of ``actions`` played out in a copy of each world (paired); ``seat``'s
        settlements appended to ``totals``, world by world. With ``own=anchor`` the seat's own later
        choices are its anchor's, for all these play-outs at once (``play_out_own``)."""
        anchor = self._anchor_of(ruleset_name) if self.own == "anchor" else None
        if anchor is None:
            log = self._player(ruleset_name)[1]
            for world in worlds:
                _play_each(world, seat, actions, play, rng, totals, log)
            return
        games = []
        for world in worlds:
            for a in actions:
                g = world.clone()
                g.step(seat, a)
                games.append(g)
        pays = play_out_own(games, seat, play, rng, self._own_chooser(anchor, seat, ruleset_name))
        for i, pay in enumerate(pays):
            totals[actions[i % len(actions)]].append(pay)

    def _encoding_of(self, anchor: Any, ruleset_name: str) -> Any:
        """The encoding the anchor reads: a network's own, else the ruleset's default."""
        rs = self.ruleset if self.ruleset is not None else get_ruleset(ruleset_name)
        name = getattr(anchor, "encoder", None)
        return rs.encoding_named(name) if isinstance(name, str) else rs.encoding

    def _own_chooser(self, anchor: Any, seat: int, ruleset_name: str) -> Callable[[list[Any]], list[int]]:
        """``choose(games) -> actions``: the anchor's choices for ``seat`` in many games, a network's in
        one forward pass; an incremental encoder per game (each is asked again and again)."""
        rs = self.ruleset if self.ruleset is not None else get_ruleset(ruleset_name)
        encoding = self._encoding_of(anchor, ruleset_name)
        shape = encoding.shape
        encoders: dict[int, tuple[Any, Any]] = {}
        batch = getattr(anchor, "act_batch", None)

        def choose(games: list[Any]) -> list[int]:
            rows, masks = [], np.zeros((len(games), rs.num_actions), dtype=bool)
            for i, g in enumerate(games):
                found = encoders.get(id(g))
                if found is None or found[0] is not g:
                    found = encoders[id(g)] = (g, encoding.encoder())
                rows.append(found[1].planes(g, seat))
                masks[i, g.legal_actions(seat)] = True
            obs = encoding.to_float(np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(len(games), *shape))
            if batch is not None:
                return [int(a) for a in batch(obs, masks)]
            return [int(anchor(o, m)) for o, m in zip(obs, masks, strict=True)]

        return choose

    def _anchored(self, anchor: Any, world: Any, seat: int, legal: list[int],
                  ruleset_name: str) -> tuple[int, list[int]]:
        """The anchor's choice, on the seat's observation (the world shows the seat what the real
        game does), and the candidates: with ``top`` and a network anchor its most probable actions."""
        rs = self.ruleset if self.ruleset is not None else get_ruleset(ruleset_name)
        encoding = self._encoding_of(anchor, ruleset_name)
        mask = np.zeros(rs.num_actions, dtype=bool)
        mask[legal] = True
        obs = encoding.encoder()(world, seat)
        choice = int(anchor(obs, mask))
        if choice not in legal:
            raise ValueError(f"search anchor {self.anchor!r} chose {choice}, not legal here: {legal}")
        ranked = getattr(anchor, "top_actions", None)
        if not self.top or ranked is None:
            return choice, list(legal)
        best = [a for a, _ in ranked(obs[None], mask[None], self.top)[0]]
        return choice, sorted({choice, *best})

    def _choose(self, alive: list[int], totals: dict[int, list[float]], default: int) -> int:
        """The best surviving action by mean, unless its paired gain over the default is within
        ``margin`` standard errors (then the default)."""
        if not totals[default]:  # a budget below the candidates: nothing was played
            return default
        best = max(alive, key=lambda a: (np.mean(totals[a]), a == default))
        if best == default or default not in alive:
            return best
        n = min(len(totals[best]), len(totals[default]))
        diff = np.asarray(totals[best][-n:], dtype=float) - np.asarray(totals[default][-n:], dtype=float)
        if n < 2:
            return default
        se = diff.std(ddof=1) / math.sqrt(n)
        return best if diff.mean() > self.margin * se and diff.mean() > 0 else default


def make_search(options: str, seed: int | None, ruleset: Any) -> SearchPolicy:
    """``make_policy("search[:key=value,...]")``: the defaults, then the ruleset's own (when made for
    one), then ``options``."""
    own = parse_options(get_ruleset(ruleset).players.search_options) if ruleset is not None else {}
    opts = {**DEFAULTS, **own, **parse_options(options)}
    return SearchPolicy(ruleset=ruleset, seed=seed, **opts)

"""Rollouts: many hands, or the rest of many positions, played to the end in one call, every seat
by a built-in policy, their settlements returned: the primitive a search player and an evaluator
need (``agents.search`` plays its worlds out through here).

A hot module: the build backend compiles it with the engine, so the loop runs in C and calls the
compiled engine directly; the pure package runs the same source. Policies:

- ``random``: a uniform legal action, ``legal[int(rng.random() * len(legal))]`` from one
  ``random.Random(seed)`` per call, the games played in order (the same seed, the same play);
- ``first``: the first (lowest) legal action;
- ``greedy``: the ruleset's rule-based player, reading the seat's facts from the game
  (``Players.heuristic_on_game``; the same choices as on its observation).

With ``log=False`` the games keep no event log from where they stand (``TableGame.events`` is
None): the same play and settlements without the event dicts (about a sixth of a random hand),
for play-outs nobody reads back; ``deal_and_play``'s hands never keep one. Refused where the
policy reads the log (``reads_log``: a player on observations may).

A decision with one legal action is played as the engine's ``play_forced`` plays it (no draw of
the random policy), as the envs and the search do. Python's cyclic garbage collector is paused
while the hands are played (and left as it was): a hand makes hundreds of event dicts and lists,
none of them garbage, and the collector's passes over them cost about 8% of a random hand.
The greedy players' shanten tables fill as hands meet new suit contents; a long run may make them
all at once first (``envs.core.shapes.warm_tables``, as ``make bench`` does).
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.core.engine import TableGame
from cnmahjong.envs.core.ruleset import get_ruleset

POLICIES = ("random", "first", "greedy")


def _chooser(name: str, seed: int) -> tuple[Callable[[Any, int, list[int]], int] | None, Callable[[], float] | None]:
    """``(choose, draw)`` of a built-in policy, one of them None: ``choose(game, seat, legal) ->
    action``, or for the random policy its generator's draw (``play_to_end`` makes the choice)."""
    if name == "random":
        return None, random.Random(seed).random
    if name == "first":
        return (lambda game, seat, legal: legal[0]), None
    if name == "greedy":
        players: dict[str, Callable[[Any, int, list[int]], int]] = {}

        def choose_greedy(game: Any, seat: int, legal: list[int]) -> int:
            play = players.get(game.RULESET)
            if play is None:
                play = players[game.RULESET] = seat_player(get_ruleset(game.RULESET), "greedy")
            return play(game, seat, legal)

        return choose_greedy, None
    raise ValueError(f"rollout policy {name!r} is unknown: allowed {', '.join(POLICIES)}")


def seat_player(ruleset: Any, name: str) -> Callable[[Any, int, list[int]], int]:
    """``choose(game, seat, legal) -> action`` of the ruleset's ``greedy`` or ``expert`` player: the
    greedy player on the game's own facts where the ruleset reads them there
    (``Players.heuristic_on_game``: no planes encoded), else the player on the seat's observation
    (an incremental encoder per game, one game at a time). Refused: a ruleset without that player."""
    if name == "greedy" and ruleset.players.heuristic_on_game is not None:
        return ruleset.players.heuristic_on_game
    play = ruleset.heuristic if name == "greedy" else ruleset.expert if name == "expert" else None
    if play is None:
        raise ValueError(f"the {ruleset.name} ruleset has no {name} player for rollouts")
    new_encoder = ruleset.encoder
    encoders: dict[int, tuple[Any, Any]] = {}

    def choose(game: Any, seat: int, legal: list[int]) -> int:
        found = encoders.get(id(game))
        if found is None or found[0] is not game:
            encoders.clear()  # the games are played one after another
            found = encoders[id(game)] = (game, new_encoder())
        return play(found[1](game, seat), legal)

    return choose


def reads_log(ruleset: Any, name: str) -> bool:
    """Whether the built-in player ``name`` of ``ruleset`` may read a game's event log: random and
    first never do, greedy on the game's facts (``heuristic_on_game``) does not; a player on the
    seat's observation may (an encoder may read the log)."""
    if name in ("random", "first"):
        return False
    return not (name == "greedy" and ruleset.players.heuristic_on_game is not None)


@cython.locals(game=TableGame, pending=dict, legal=list, acts=list, r=cython.double, i=cython.Py_ssize_t)
def play_to_end(game: Any, choose: Callable[[Any, int, list[int]], int] | None,
                draw: Callable[[], float] | None = None) -> None:
    """Play ``game`` (a ``TableGame``) to its end in place, every seat by ``choose`` (single choices
    played at once, in ``play_forced``'s order: the first seat of ``pending`` with one legal action,
    before any seat with a choice); compiled, the engine's methods are C calls. With ``draw``
    instead (the random policy's generator: ``_chooser``; ``choose`` then unused) each choice is
    ``legal[int(draw() * len(legal))]``, made here without copying the legal actions."""
    while True:
        pending = game.pending
        if not pending:
            return
        seat = -1
        legal = None
        for s, acts in pending.items():  # compiled: PyDict_Next, no lookup
            if len(acts) == 1:  # a forced decision (play_forced's): played before any choice
                seat = s
                legal = acts
                break
            if legal is None:  # the first seat to act, unless a later one is forced
                seat = s
                legal = acts
        if len(legal) == 1:
            game._take(seat, legal[0])  # one of the seat's pending actions: step's checks hold
        elif draw is not None:  # the index a C integer compiled: the draw's float truncated, as int() does
            r = draw()
            i = int(r * len(legal))
            game._take(seat, legal[i])
        else:
            game.step(seat, choose(game, seat, list(legal)))


def rollouts(games: Sequence[Any], policy: str = "random", seed: int = 0, log: bool = True) -> list[list[int]]:
    """Play every game of ``games`` to its end in place (each one's rest of the hand), every seat
    by the built-in ``policy``; their settlements, one list of the four seats' payments per game
    (``games[i].result.payments``; ``numpy.array`` of it is the ``(n, 4)`` table; the engine
    imports no numpy). ``seed`` seeds the random policy. Games already over are left as they are.
    ``log=False``: the games drop their event logs and play on without one (module docstring).
    Refused before any play: an unknown policy, an entry that is not a game, ``log`` not a bool,
    ``log=False`` with a policy that reads the log, or for a game class that does not declare
    ``PLAYS_WITHOUT_LOG`` (nor a game already without its log)."""
    choose, draw = _chooser(policy, seed)
    if type(log) is not bool:
        raise TypeError(f"log must be True or False, got {log!r}")
    for i, game in enumerate(games):
        if not isinstance(game, TableGame):
            raise TypeError(f"games[{i}] is {type(game).__name__}, not a game (a ruleset's TableGame)")
        if not log and reads_log(get_ruleset(game.RULESET), policy):
            raise ValueError(f"games[{i}]: the {policy} player of the {game.RULESET} ruleset reads the event "
                             f"log; play it with log=True")
        if (not log or game.events is None) and not type(game).PLAYS_WITHOUT_LOG:
            raise ValueError(f"games[{i}]: {type(game).__name__} does not play without its event log "
                             f"(TableGame.PLAYS_WITHOUT_LOG); play it with log=True and its log kept")
    return _play_all(games, choose, log, draw)


def deal_and_play(ruleset: Any, rules: Any, seeds: Sequence[int], policy: str = "random",
                  seed: int = 0) -> list[list[int]]:
    """Whole hands: deal one per seed (``ruleset.game(config, seed=s)``) and play each to its end,
    as ``rollouts`` does; the settlements, one row per seed (``make bench``'s rollout rows). The
    games are nobody else's: dealt without an event log (``log=False``, the deal event never made)
    where the policy reads none and the class ``PLAYS_WITHOUT_LOG``."""
    rs = get_ruleset(ruleset)
    config = rs.as_config(rules)
    choose, draw = _chooser(policy, seed)
    if reads_log(rs, policy) or not rs.game.PLAYS_WITHOUT_LOG:
        return _play_all((rs.game(config, seed=s) for s in seeds), choose, True, draw)
    return _play_all((rs.game(config, seed=s, log=False) for s in seeds), choose, True, draw)  # no deal event made


def _play_all(games: Iterable[Any], choose: Callable[[Any, int, list[int]], int] | None,
              log: bool = True, draw: Callable[[], float] | None = None) -> list[list[int]]:
    """Play each game to its end, the collector paused (see the module docstring); the payments.
    ``log=False``: each game's log dropped first; ``draw``: ``play_to_end``'s."""
    out = []
    collecting = gc.isenabled()
    gc.disable()
    try:
        for game in games:
            if not log:
                game.events = None
            play_to_end(game, choose, draw)
            out.append(list(game.result.payments))
    finally:
        if collecting:
            gc.enable()
    return out

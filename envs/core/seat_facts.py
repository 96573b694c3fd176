"""What a rule-based player reads of its seat, from one of two sources: the seat's observation
planes (``obs``, decoded by the ruleset's channel table), or the game itself (``game`` and
``seat``: the rollouts and the search's play-outs, where encoding planes only to decode them again
was a fifth of a greedy play-out). One class reads both, so that a compiled player's questions are
C calls on one extension type (``seat_facts.pxd``). A ruleset's player subclasses it with the facts
it reads beyond these (each also read both ways); ``tests/test_greedy_on_game.py`` checks that the
two sources agree at every decision of random hands, and so do the choices."""

from __future__ import annotations

from typing import Any, ClassVar

from cnmahjong.envs.core.tiles import counts_copy
from cnmahjong.envs.core.worlds import unseen_row


class SeatFacts:
    """The facts of ``seat``: decoded from ``obs`` by ``CHANNELS`` (the ruleset's channel table,
    set by its subclass) when ``game`` is None, else read from ``game`` (only what that seat's
    observation encodes)."""

    __slots__ = ("obs", "game", "seat")
    CHANNELS: ClassVar[Any]

    def __init__(self, obs: Any = None, game: Any = None, seat: int = 0) -> None:
        self.obs, self.game, self.seat = obs, game, seat

    def phase(self) -> str:
        if self.game is None:
            return self.CHANNELS.decode(self.obs, "PHASE")
        return self.game.phase

    def hand(self) -> list[int] | bytearray:
        """The seat's concealed counts (from the game a ``bytearray`` copy, the decoded list's
        values, which the shape functions read without converting)."""
        if self.game is None:
            return self.CHANNELS.decode(self.obs, "HAND")
        return counts_copy(self.game.hands[self.seat])

    def unseen(self) -> list[int] | bytearray:
        """Copies of each kind the seat cannot see (from the game ``worlds.unseen_row``: the decoded
        list's values as a ``bytearray``, which the 进张 loops read through a C pointer)."""
        if self.game is None:
            return self.CHANNELS.decode(self.obs, "UNSEEN")
        return unseen_row(self.game, self.seat)

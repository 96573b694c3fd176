"""What a rule-based player reads of its seat, two ways: decoded from the seat's observation planes
(``Observed``), or read from the game itself (``OnGame``: the rollouts and the search's play-outs,
where encoding planes only to decode them again was a fifth of a greedy play-out). A ruleset's
player subclasses both with the facts it reads beyond these; ``tests/test_greedy_on_game.py``
checks that the two agree at every decision of random hands, and so do the choices."""

from __future__ import annotations

from typing import Any, ClassVar

from cnmahjong.envs.core.tiles import counts_copy
from cnmahjong.envs.core.worlds import unseen_row


class Observed:
    """Facts decoded from an observation by the ruleset's channel table (``CHANNELS``, set by its
    subclass, which adds the facts its player reads beyond these)."""

    __slots__ = ("obs",)
    CHANNELS: ClassVar[Any]

    def __init__(self, obs: Any) -> None:
        self.obs = obs

    def phase(self) -> str:
        return self.CHANNELS.decode(self.obs, "PHASE")

    def hand(self) -> list[int]:
        """The seat's concealed counts."""
        return self.CHANNELS.decode(self.obs, "HAND")

    def unseen(self) -> list[int]:
        """Copies of each kind the seat cannot see."""
        return self.CHANNELS.decode(self.obs, "UNSEEN")


class OnGame:
    """The same facts of ``seat`` read from ``game``: only what that seat's observation encodes."""

    __slots__ = ("game", "seat")

    def __init__(self, game: Any, seat: int) -> None:
        self.game, self.seat = game, seat

    def phase(self) -> str:
        return self.game.phase

    def hand(self) -> bytearray:
        """The seat's concealed counts: a copy as a ``bytearray`` (the observation's decoded list
        holds the same values), which the shape functions read without converting."""
        return counts_copy(self.game.hands[self.seat])

    def unseen(self) -> bytearray:
        """Copies of each kind the seat cannot see (``worlds.unseen_row``: the decoded list's values
        as a ``bytearray``, which the 进张 loops read through a C pointer)."""
        return unseen_row(self.game, self.seat)

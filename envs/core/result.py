"""``HandResult``: how a hand ended, in one shape for every ruleset.

Generic code (the envs' infos, the arena, the viewer, match loops) reads one type whatever the
ruleset: per-seat payments, the winners (several allowed), every payment as a transfer from a
payer to a payee, and per winner its patterns, its size and how it won. Nothing assumes one payer
or that all seats stop at once: a ruleset where winners leave mid-hand and others pay over time
(Sichuan 血战到底) fills the same fields. What only one ruleset has (Changsha's birds 扎鸟 and
opening wins 起手胡, Hangzhou's liability 承包) goes in ``extras``, JSON values only.

A result is built once per hand, when it ends; ``to_dict`` is what the ``end`` event, the envs'
infos and the viewer carry (JSON-safe, seat keys as strings) and ``from_dict`` reads it back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cnmahjong.envs.core.seats import NUM_SEATS

WIN = "win"
"""The reason of a transfer that settles a regular win (胡)."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """``amount`` (positive) paid by seat ``payer`` to seat ``payee``, for ``reason``: ``WIN`` for
    a win's settlement, or a ruleset's label (Changsha ``opening:SIXI`` for an opening win 起手胡,
    Hangzhou ``chengbao`` / ``fan`` / ``borne`` for a liable seat's payment 承包)."""

    payer: int
    payee: int
    amount: int
    reason: str = WIN

    def to_dict(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount, "reason": self.reason}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Transfer:
        return cls(int(d["payer"]), int(d["payee"]), int(d["amount"]), str(d["reason"]))


def win_transfers(winner: int, net: Sequence[int], reason: str = WIN,
                  reasons: Mapping[int, str] | None = None) -> list[Transfer]:
    """The transfers of one settlement with a single payee, given as per-seat ``net`` amounts (the
    winner's positive, each payer's negative): one per paying seat, in seat order, for ``reason``
    unless ``reasons`` names another for that payer."""
    return [Transfer(s, winner, -v, reason if reasons is None else reasons.get(s, reason))
            for s, v in enumerate(net) if s != winner and v < 0]


@dataclass(frozen=True)
class HandResult:
    """How a hand ended. Per-winner fields are keyed by the winner's seat.

    ``value`` is the size of a win in the ruleset's own unit, 0 for its plain win: Changsha's 合
    count (0 for 平胡, a big win 大胡 at least 1), Hangzhou's exponent ``e`` of the ×2**e
    multiplier (0 for a ×1 win)."""

    ruleset: str
    """The ruleset that played the hand (``"changsha"``, ``"hangzhou"``)."""
    payments: tuple[int, ...]
    """Net per seat over the whole hand (opening wins included); sums to zero."""
    winners: tuple[int, ...]
    """Seats that won, in the order their wins were settled; empty for a drawn hand (流局 / 荒庄)."""
    self_drawn: tuple[int, ...]
    """The winners that won on a tile they drew themselves (自摸), in ``winners`` order."""
    won_from: dict[int, int]
    """Per winner on another seat's tile (点炮): that seat (the discarder, the kong robbed 抢杠,
    the 海底 taker 海底炮)."""
    winning_tiles: dict[int, int | None]
    """Per winner, its winning tile; None where none was drawn or claimed (Hangzhou: the
    dealer's dealt 14)."""
    patterns: dict[int, dict[str, int]]
    """Per winner, its patterns in the ruleset's ids with how many times each counts (Changsha 1
    each; Hangzhou CAIPIAO 飘 count, GANGKAI kongs, HAOHUA quads)."""
    value: dict[int, int]
    """Per winner, the win's size (see the class docstring)."""
    transfers: tuple[Transfer, ...]
    """Every payment of the hand in order; per seat they add up to ``payments``."""
    next_dealer: int
    """The dealer of the next hand by the ruleset's dealer rule."""
    extras: dict[str, Any] = field(default_factory=dict)
    """The ruleset's own facts, JSON values only (lists, not tuples): Changsha ``birds``,
    ``bird_seats``, ``opening``; Hangzhou ``liable``."""

    @property
    def drawn(self) -> bool:
        """True for a drawn hand (流局 / 荒庄): nobody won."""
        return not self.winners

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: seat keys as strings, tuples as lists."""
        return {
            "ruleset": self.ruleset, "payments": list(self.payments), "winners": list(self.winners),
            "self_drawn": list(self.self_drawn),
            "won_from": {str(k): v for k, v in self.won_from.items()},
            "winning_tiles": {str(k): v for k, v in self.winning_tiles.items()},
            "patterns": {str(k): dict(v) for k, v in self.patterns.items()},
            "value": {str(k): v for k, v in self.value.items()},
            "transfers": [t.to_dict() for t in self.transfers], "next_dealer": self.next_dealer,
            "extras": _json_copy(self.extras),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HandResult:
        """The result ``to_dict`` gave (e.g. read back from an ``end`` event)."""
        return cls(
            ruleset=str(d["ruleset"]), payments=tuple(d["payments"]), winners=tuple(d["winners"]),
            self_drawn=tuple(d["self_drawn"]), won_from=_seat_keys(d["won_from"]),
            winning_tiles=_seat_keys(d["winning_tiles"]),
            patterns={int(k): dict(v) for k, v in d["patterns"].items()}, value=_seat_keys(d["value"]),
            transfers=tuple(Transfer.from_dict(t) for t in d["transfers"]), next_dealer=int(d["next_dealer"]),
            extras=_json_copy(d.get("extras", {})),
        )


def _seat_keys(d: Mapping[str, Any]) -> dict[int, Any]:
    return {int(k): v for k, v in d.items()}


def _json_copy(v: Any) -> Any:
    """A deep copy of JSON values (a result's dict never shares lists with the result)."""
    if isinstance(v, dict):
        return {str(k): _json_copy(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_copy(x) for x in v]
    return v


def seat_stats(result: HandResult | None, extra: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Per seat 0..3, the arena's ruleset-independent statistics of a finished hand: its
    ``settlement``, whether it won (``win``), won self-drawn (``self_draw``, 自摸), paid a win on
    its own tile (``deal_in``, 点炮) and won big (``big_win``: a ``value`` above 0), then each
    name of ``extra`` at 0 for the ruleset's own counts (its ``stats`` module adds them)."""
    if result is None:
        raise ValueError("the hand is not over: its statistics need its result")
    dealt_in = set(result.won_from.values())
    return [{"settlement": result.payments[s], "win": s in result.winners, "self_draw": s in result.self_drawn,
             "deal_in": s in dealt_in, "big_win": result.value.get(s, 0) > 0, **dict.fromkeys(extra, 0)}
            for s in range(NUM_SEATS)]

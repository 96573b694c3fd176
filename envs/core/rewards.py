"""``Ledger``: who is paid when — the one place that turns the engine's running payments into
per-seat rewards with the documented timing.

The engines keep, per hand, what each seat has been paid so far (``game.payments``: opening
wins mid-hand, the settlement at the end; zero-sum). A runner turns that into rewards:

- every payment reaches every seat, at the step it is made, divided by ``scale``, so a hand's
  rewards sum to its settlement (and to zero over the table);
- with ``defer=True``, a payment made before a seat's first decision of the episode is held
  back and delivered with that first decision (``decide``), or when the episode ends
  (``release``) if the seat never decides: libraries that drop a reward given before an
  agent's first observation (RLlib's "hanging" reward) lose nothing.

The AEC env, ``VectorEnv``, the single-agent wrapper (through the AEC env) and the self-play
trainer (through ``VectorEnv``) all use it; it reads only the totals it is given, so a ruleset
where seats leave mid-hand or pay over time needs nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence


class Ledger:
    """Payments already credited and rewards held back, per table (episode stream) and seat."""

    __slots__ = ("scale", "defer", "seats", "paid", "held", "decided")

    def __init__(self, tables: int = 1, seats: int = 4, scale: float = 1.0, defer: bool = True) -> None:
        self.scale = float(scale)
        self.defer = bool(defer)
        self.seats = seats
        self.paid: list[list[int]] = [[0] * seats for _ in range(tables)]
        """Per table: the totals credited so far (compare ``game.payments`` with it: equal means nothing new)."""
        self.held: list[list[float]] = [[0.0] * seats for _ in range(tables)]
        self.decided: list[list[bool]] = [[not self.defer] * seats for _ in range(tables)]

    def start(self, t: int = 0) -> None:
        """A new episode at table ``t``: nothing paid, nothing held, nobody has decided."""
        n = self.seats
        self.paid[t] = [0] * n
        self.held[t] = [0.0] * n
        self.decided[t] = [not self.defer] * n

    def pay(self, t: int, totals: Sequence[int]) -> list[float] | None:
        """The episode's totals now -> the rewards due now per seat (scaled); None when nothing
        new was paid. A seat that has not decided yet has its share held back."""
        paid = self.paid[t]
        if (totals if type(totals) is list else list(totals)) == paid:
            return None
        scale, decided, held = self.scale, self.decided[t], self.held[t]
        due = [0.0] * self.seats
        for s in range(self.seats):
            delta = (totals[s] - paid[s]) / scale
            if decided[s]:
                due[s] = delta
            else:
                held[s] += delta
        self.paid[t] = list(totals)
        return due

    def decide(self, t: int, seat: int) -> float:
        """``seat`` makes a decision: what was held back for it, due now (0.0 after its first)."""
        if self.decided[t][seat]:
            return 0.0
        self.decided[t][seat] = True
        amount, self.held[t][seat] = self.held[t][seat], 0.0
        return amount

    def release(self, t: int = 0) -> list[float]:
        """The episode ends: everything still held back, due now, per seat."""
        due = self.held[t]
        self.held[t] = [0.0] * self.seats
        self.decided[t] = [True] * self.seats
        return due

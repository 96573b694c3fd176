"""Settlement of Changsha wins (rules §8) as pure functions.

Every win settles pair by pair between the winner and each payer: the
discarder alone on a discard win (robbing and 海底炮 included), all three
others on a self-drawn win (opening wins, 补张 wins, 杠上开花, 海底捞月 and
天胡 included). Amounts are 片 (``scoring="zi"``, §8.2) or points
(``scoring="points"``, §8.4); every settlement sums to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cnmahjong.envs.changsha.rules import RuleConfig
from cnmahjong.envs.core.seats import NUM_SEATS


# ---------------------------------------------------------------- birds §8.1
def bird_value(tile: int) -> int:
    """A bird tile's value: its rank 1–9."""
    return tile % 9 + 1


def bird_seat(value: int, dealer: int) -> int:
    """Seat a bird of rank or die value ``value`` lands on: 1,5,9 the dealer, 2,6 his next
    player, 3,7 opposite, 4,8 previous (§8.1)."""
    if not 1 <= value <= 9:
        raise ValueError(f"bird value {value} out of range: allowed 1..9 (tile rank or die)")
    return (dealer + value - 1) % NUM_SEATS


def bird_tiles(head: Sequence[int], bird_count: int, winning_tile: int, haidi_win: bool) -> list[int]:
    """The bird tiles of a win (§8.1).

    ``head`` holds the next ``bird_count`` tiles at the head of the wall, or
    fewer when the wall holds fewer (``Wall.peek_head``). The 海底 tile alone
    left counts as every bird; a win on the 海底 tile makes that tile every
    bird; an otherwise empty wall makes the winning tile every bird.
    """
    if bird_count == 0:
        return []
    if haidi_win or not head:
        return [winning_tile] * bird_count
    if len(head) < bird_count:  # only the 海底 tile is left (bird_count is at most 2)
        return [head[0]] * bird_count
    return list(head[:bird_count])


def bird_factor(bird_seats: Sequence[int], winner: int, payer: int) -> int:
    """``1 + n`` where n counts birds on the winner or the payer (§8.1)."""
    return 1 + sum(1 for s in bird_seats if s in (winner, payer))


# -------------------------------------------------------- pair amounts §8.2/§8.4
def pair_amount(
    config: RuleConfig,
    dealer: int,
    winner: int,
    payer: int,
    *,
    big: bool,
    he: int,
    self_drawn: bool,
    factor: int,
) -> int:
    """What ``payer`` pays ``winner`` for one win (never negative).

    ``he`` is the win's 合 count (ignored for a small win); ``factor`` the
    pair's bird factor.
    """
    dealer_involved = dealer in (winner, payer)
    units = 1
    if big:
        units = he * factor if config.cap_he is None else min(he * factor, config.cap_he)
    if config.scoring == "zi":
        bonus = 1 if dealer_involved else 0
        amount = units * (6 + bonus) if big else (1 + bonus) * factor
        if self_drawn and config.zimo_plus_one:
            amount += 1
        return amount
    # points (§8.4): the table cell times units; the +10 dealer extra applies per unit.
    if self_drawn:
        if winner == dealer or payer == dealer:
            cell = 40 if big else 20
        else:
            cell = 30 if big else 10
    else:
        cell = (60 if big else 10) + (10 if dealer_involved else 0)
    return units * cell if big else cell * factor


@dataclass(frozen=True, slots=True)
class Settlement:
    """One win's settlement: who paid whom and how much."""

    winner: int
    payers: tuple[int, ...]
    payments: tuple[int, ...]
    """Per seat, winner positive, payers negative; sums to zero."""
    factors: tuple[int, ...]
    """Bird factor per payer, in ``payers`` order."""


def settle(
    config: RuleConfig,
    dealer: int,
    winner: int,
    payers: Iterable[int],
    *,
    big: bool,
    he: int,
    self_drawn: bool,
    bird_seats: Sequence[int],
) -> Settlement:
    """Settle one win between ``winner`` and each payer."""
    payers = tuple(payers)
    if winner in payers or not payers or any(not 0 <= p < NUM_SEATS for p in (winner, *payers)):
        raise ValueError(f"bad settlement seats: winner {winner}, payers {payers}")
    payments = [0] * NUM_SEATS
    factors = []
    for p in payers:
        f = bird_factor(bird_seats, winner, p)
        amount = pair_amount(config, dealer, winner, p, big=big, he=he,
                             self_drawn=self_drawn, factor=f)
        payments[p] -= amount
        payments[winner] += amount
        factors.append(f)
    return Settlement(winner, payers, tuple(payments), tuple(factors))


def others(seat: int) -> tuple[int, ...]:
    """The three payers of a self-drawn win by ``seat``."""
    return tuple(s for s in range(NUM_SEATS) if s != seat)


def total(settlements: Iterable[Settlement]) -> list[int]:
    """Per-seat sum of several settlements (e.g. several winners on one discard, 通炮)."""
    out = [0] * NUM_SEATS
    for s in settlements:
        for i, v in enumerate(s.payments):
            out[i] += v
    return out

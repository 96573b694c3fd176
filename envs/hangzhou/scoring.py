"""Hangzhou settlement: the §4 exponent, the §5 base table and §6 承包 (liability).

Pure functions over seats 0–3; the engine describes a win and gets net points
per seat (zero-sum). ``claims[a][b]`` counts the claims (CHI, PENG, 明杠 on a
discard; an added kong 加杠 is no new claim) seat ``a`` made on seat ``b``'s
discards this hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from cnmahjong.envs.core.checks import bool_arg, int_arg, sequence_arg

LEVELS = (1, 2, 3)
"""Dealer streak levels (§5): 1 平庄, 2 二连庄, 3 三连庄 or more."""
DEALER_SELF_DRAW = {1: 2, 2: 4, 3: 8}
"""What the dealer pays on a self-drawn win (each seat pays it when the dealer wins)."""
NON_DEALER_PAYS = 1
"""What a non-dealer pays on another non-dealer's self-drawn win."""
DISCARD_WIN = 8
"""What the discarder pays on a discard win (放冲, level 3 only)."""
LIABILITY_CLAIMS = 3
"""Claims on one player's discards that make 承包 / 反承包 (§6)."""


def exponent(*, qidui: bool = False, qing: bool = False, quads: int = 0, baotou: bool = False,
             piao: int = 0, kongs: int = 0) -> int:
    """§4: the exponent e of the multiplier ``2**e`` of a described win.

    七对子 1, 清七对 +1, each quad inside the seven pairs +1, 爆头 1, each 飘 of the current
    streak +1 (in an 爆头 win only), each kong since the winner's last non-飘 discard +1."""
    for name, v in (("quads", quads), ("piao", piao), ("kongs", kongs)):
        int_arg(v, name, low=0)
    qidui, qing, baotou = bool_arg(qidui, "qidui"), bool_arg(qing, "qing"), bool_arg(baotou, "baotou")
    if (qing or quads) and not qidui:
        raise ValueError("qing and quads describe seven pairs: pass qidui=True with them")
    if qing and quads:
        raise ValueError("清七对 has no quad (§4 decision): qing=True takes quads=0")
    e = kongs
    if qidui:
        e += 1 + bool(qing) + quads
    if baotou:
        e += 1 + piao
    return e


def _seat(value: object, name: str) -> int:
    return int_arg(value, name, low=0, high=3)


def base_amounts(level: int, dealer: int, winner: int, discarder: int | None = None) -> list[int]:
    """§5: what each seat pays the winner at multiplier 1 (the winner's own entry is 0).

    A discard win (放冲) exists only at level 3 and only between the dealer and a non-dealer."""
    level = int_arg(level, "level", low=1, high=3)
    dealer, winner = _seat(dealer, "dealer"), _seat(winner, "winner")
    pay = [0, 0, 0, 0]
    if discarder is not None:
        discarder = _seat(discarder, "discarder")
        if discarder == winner:
            raise ValueError(f"discarder {discarder} is the winner: a self-drawn win takes discarder=None")
        if level != 3:
            raise ValueError(f"a discard win needs the dealer on 三连庄 (level 3), got level {level} (§3)")
        if dealer not in (winner, discarder):
            raise ValueError(f"discard win between two non-dealers ({discarder} -> {winner}): "
                             f"only dealer <-> non-dealer (§3)")
        pay[discarder] = DISCARD_WIN
        return pay
    for s in range(4):
        if s != winner:
            pay[s] = DEALER_SELF_DRAW[level] if dealer in (s, winner) else NON_DEALER_PAYS
    return pay


def _claims_arg(claims: object) -> list[list[int]]:
    rows = sequence_arg(claims, "claims")
    if len(rows) != 4:
        raise ValueError(f"claims must be 4 rows (claims[a][b]: claims seat a made on seat b), got {len(rows)}")
    out = []
    for a, row in enumerate(rows):
        if type(row) is not list:
            row = sequence_arg(row, f"claims[{a}]")
        if len(row) != 4:
            raise ValueError(f"claims[{a}] must hold 4 counts, got {len(row)}")
        # a count that is a plain int of 0 or more is kept as it is; any other is checked (and
        # converted) with its name, which is only written out then (a game's win asks this once)
        out.append([v if type(v) is int and v >= 0 else int_arg(v, f"claims[{a}][{b}]", low=0)
                    for b, v in enumerate(row)])
        if out[a][a]:
            raise ValueError(f"claims[{a}][{a}]={out[a][a]}: nobody claims his own discard")
    return out


def liable_seats(winner: int, claims: object) -> tuple[int | None, tuple[int, ...]]:
    """§6: (the 承包 seat or None, the 反承包 seats) of a win.

    承包: the winner made 3+ claims on that seat's discards. **[decision]** If he did so on
    several seats, the one he claimed from most is liable, ties going to the first in turn order
    after the winner (the text names one liable player). 反承包: every seat that made 3+ claims
    on the winner's discards."""
    winner = _seat(winner, "winner")
    c = _claims_arg(claims)
    order = [(winner + i) % 4 for i in range(1, 4)]
    liable = [s for s in order if c[winner][s] >= LIABILITY_CLAIMS]
    chengbao = max(liable, key=lambda s: c[winner][s]) if liable else None  # max keeps the first of ties
    return chengbao, tuple(s for s in order if c[s][winner] >= LIABILITY_CLAIMS)


def settle(level: int, dealer: int, winner: int, exponent: int, discarder: int | None = None,
           claims: object = None, liability: bool = True) -> list[int]:
    """Net points per seat of a win (zero-sum), §5 amounts times ``2**exponent`` with §6 承包.

    Income = what all payers would pay without liability. 承包: the liable seat pays the income
    alone; 反承包: each such seat pays 2 × the income; both: each his share (挑扁担), added up
    when one seat is both. On a discard win the discarder pays his amount and the liable seat
    the same again, a 反承包 seat 2 × it again (§6 decisions)."""
    liability = bool_arg(liability, "liability")
    amounts = base_amounts(level, dealer, winner, discarder)
    e = int_arg(exponent, "exponent", low=0)
    pay = [a << e for a in amounts]
    income = sum(pay)
    if liability and claims is not None:
        chengbao, fan = liable_seats(winner, claims)
        if chengbao is not None or fan:
            if discarder is None:
                pay = [0, 0, 0, 0]
            if chengbao is not None:
                pay[chengbao] += income
            for s in fan:
                pay[s] += 2 * income
    net = [-p for p in pay]
    net[winner] = sum(pay)
    return net


def piao_claim_split(level: int, dealer: int, winner: int, exponent: int, bearers: Sequence[int],
                     discarder: int | None = None) -> list[int]:
    """§6 后半场承包: net points when the last ``len(bearers)`` doublings of ``exponent`` (in the
    order they happened) are borne by ``bearers`` (for each, the seat of the winner's latest claim
    made while he had a 飘 count, before that doubling). Every payer pays as if those doublings had
    not happened; each bearer pays what his doubling adds to every payer's amount. The engine calls
    this only where 承包 and 反承包 do not apply."""
    amounts = base_amounts(level, dealer, winner, discarder)
    e = int_arg(exponent, "exponent", low=0)
    borne = [_seat(b, f"bearers[{i}]") for i, b in enumerate(sequence_arg(bearers, "bearers"))]
    if len(borne) > e:
        raise ValueError(f"{len(borne)} borne doublings exceed the exponent {e}")
    if winner in borne:
        raise ValueError(f"the winner ({winner}) cannot bear his own doublings")
    e0 = e - len(borne)
    pay = [a << e0 for a in amounts]
    total = sum(amounts)
    for i, s in enumerate(borne):
        pay[s] += total << (e0 + i)  # doubling i raises every payer's amount by 2**(e0+i) each
    net = [-p for p in pay]
    net[winner] = sum(pay)
    return net

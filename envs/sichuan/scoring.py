"""Sichuan payments (rules §1 dealer, §5 value, §6 payments during the hand, §7 exhaustion): pure
functions over seats 0–3 that return ``Transfer`` records (payer, payee, amount, reason).

Every payment is a transfer between two seats (§8), so any list of them is zero-sum; ``net``
adds them up per seat. Kong money is paid when the kong takes effect and stays on a **kong
ledger** of ``KongEntry`` records (§6.1) until 呼叫转移 (§6.3) or 退税 (§7) closes it. Callers
pass ``remaining``: the seats that have not won this hand, the only ones that pay or are paid
(§4: a winner's account closes with his win).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from cnmahjong.envs.core.checks import int_arg
from cnmahjong.envs.core.meld import ANGANG, JIAGANG, MINGGANG, Meld
from cnmahjong.envs.core.result import WIN, Transfer
from cnmahjong.envs.core.seats import NUM_SEATS
from cnmahjong.envs.sichuan.patterns import holds_void, max_wait_fan
from cnmahjong.envs.sichuan.rules import RuleConfig

KONG, TRANSFER, HUAZHU, DAJIAO, TUISHUI = "kong", "transfer", "huazhu", "dajiao", "tuishui"
"""Transfer reasons (design env.md, ``result.transfers``): 刮风下雨, 呼叫转移, 查花猪, 查大叫, 退税;
a win's payment (加底 included) is the core's ``WIN``."""
HUAZHU_CLASS, READY, NOT_READY = "huazhu", "ready", "not_ready"
"""§7: the classes of a remaining player at exhaustion."""
KONG_UNITS = {MINGGANG: 2, ANGANG: 2, JIAGANG: 1}
"""§6.1: kong money in ``base`` units: 直杠 2 from the discarder, 暗杠 2 from each, 补杠 1 from each."""


@dataclass(frozen=True, slots=True)
class KongEntry:
    """One open entry of the kong ledger (§6.1): ``payer`` paid ``amount`` to ``owner`` for the
    owner's kong number ``kong`` (the engine numbers a hand's kongs 0, 1, … as they take effect)."""

    kong: int
    payer: int
    owner: int
    amount: int

    def transfer(self) -> Transfer:
        """The payment this entry records."""
        return Transfer(self.payer, self.owner, self.amount, KONG)


def _seat(value: object, name: str) -> int:
    return int_arg(value, name, low=0, high=NUM_SEATS - 1)


def _seats(values: Iterable[object], name: str) -> list[int]:
    out = [_seat(v, name) for v in values]
    if len(set(out)) != len(out):
        raise ValueError(f"{name} {out} names a seat twice")
    return out


def value(fan: int, config: RuleConfig) -> int:
    """§5: ``V(F) = base × 2**min(F, cap_fan)`` (``base × 2**F`` with no cap)."""
    return _value(int_arg(fan, "fan", low=0), config)


def _value(fan: int, config: RuleConfig) -> int:
    """``value`` past its check: ``fan`` an int, 0 or more."""
    cap = config.cap_fan
    return config.base * 2 ** (fan if cap is None else min(fan, cap))


def net(transfers: Iterable[Transfer]) -> list[int]:
    """Net per seat of some transfers (§8: they sum to zero)."""
    out = [0] * NUM_SEATS
    for t in transfers:
        out[t.payer] -= t.amount
        out[t.payee] += t.amount
    return out


# ------------------------------------------------------------------ §6.2 win payments
def win_payments(winner: int, fan: int, config: RuleConfig, *, remaining: Sequence[int],
                 payer: int | None = None, tiandihu: bool = False,
                 zhigang_discarder: int | None = None) -> list[Transfer]:
    """§6.2: what one win is paid, ``W = V(F)``.

    ``payer`` None is a self-draw (自摸): each remaining seat other than the winner pays ``W``,
    plus ``base`` under 加底 (``zimo_bonus = "di"``) unless it is a 天胡 / 地胡. Otherwise the
    ``payer`` (the discarder of 点炮, the kong player of 抢杠) alone pays ``W``. A self-drawn
    杠上开花 whose last kong was a 直杠 (点杠花) names that kong's discarder as
    ``zhigang_discarder``: under ``dianganghua = "dianpao"`` he alone pays ``W``, no 加底."""
    winner = _seat(winner, "winner")
    rest = _seats(remaining, "remaining")
    if winner not in rest:
        raise ValueError(f"winner {winner} is not among the remaining seats {rest}")
    w = value(fan, config)
    if payer is not None:
        payer = _seat(payer, "payer")
        if payer == winner or payer not in rest:
            raise ValueError(f"payer {payer}: allowed a remaining seat other than the winner {winner}")
        return [Transfer(payer, winner, w, WIN)]
    if zhigang_discarder is not None and config.dianganghua == "dianpao":
        return win_payments(winner, fan, config, remaining=rest, payer=zhigang_discarder)
    bonus = config.base if config.zimo_bonus == "di" and not tiandihu else 0
    return [Transfer(s, winner, w + bonus, WIN) for s in rest if s != winner]


# ------------------------------------------------------------------ §6.1 kong money
def kong_money(kong: int, owner: int, kind: str, config: RuleConfig, *, remaining: Sequence[int],
               discarder: int | None = None, drawn_this_turn: bool = True) -> list[KongEntry]:
    """§6.1 刮风下雨, paid when the kong takes effect: a 直杠 (``minggang``) 2 × base from its
    ``discarder``; a 暗杠 (``angang``) 2 × base from each remaining seat but the owner; a 补杠
    (``jiagang``) 1 × base from each, or nothing for a 转手杠 (§3: the added tile was not
    ``drawn_this_turn``) unless ``bugang_from_hand_pays``."""
    owner = _seat(owner, "owner")
    rest = _seats(remaining, "remaining")
    if kind not in KONG_UNITS:
        raise ValueError(f"kong kind {kind!r}: allowed {tuple(KONG_UNITS)}")
    amount = KONG_UNITS[kind] * config.base
    if kind == MINGGANG:
        if discarder is None or _seat(discarder, "discarder") == owner or discarder not in rest:
            raise ValueError(f"a 直杠 needs its discarder, a remaining seat other than the owner {owner}: "
                             f"got {discarder!r}")
        return [KongEntry(kong, discarder, owner, amount)]
    if kind == JIAGANG and not drawn_this_turn and not config.bugang_from_hand_pays:
        return []
    return [KongEntry(kong, s, owner, amount) for s in rest if s != owner]


# ------------------------------------------------------------------ §6.3 呼叫转移
def call_transfer(kong_player: int, last_kong: int, winners: Sequence[int], ledger: Sequence[KongEntry],
                  config: RuleConfig) -> tuple[list[Transfer], list[KongEntry]]:
    """§6.3 呼叫转移 on a 杠上炮: the kong player pays each winner of that discard ``K``, the amount
    his open ledger entries show for his kong ``last_kong`` (every open entry he owns under
    ``call_transfer_scope = "hand"``). Returns the transfers and the entries they close (none
    with ``call_transfer`` off)."""
    kong_player = _seat(kong_player, "kong_player")
    ws = _seats(winners, "winners")
    if not config.call_transfer:
        return [], []
    closed = [e for e in ledger if e.owner == kong_player
              and (config.call_transfer_scope == "hand" or e.kong == last_kong)]
    k = sum(e.amount for e in closed)
    return ([Transfer(kong_player, w, k, TRANSFER) for w in ws] if k else []), closed


# ------------------------------------------------------------------ §7 exhaustion
def exhaustion_class(concealed: Sequence[int], melds: Sequence[Meld], void: int,
                     config: RuleConfig, waits: int | None = None) -> tuple[str, int | None]:
    """§7: a remaining player's class at exhaustion, and for a ready one his ``Fmax`` (查大叫):
    ``huazhu`` while he holds a tile of his declared void, else ``ready`` with some wait (§4, D3),
    else ``not_ready``. ``waits``: as ``max_wait_fan``'s."""
    if holds_void(concealed, void):
        return HUAZHU_CLASS, None
    fmax = max_wait_fan(concealed, melds, void, config, waits)
    return (NOT_READY, None) if fmax is None else (READY, fmax)


def exhaustion_payments(classes: Mapping[int, str], dajiao_fan: Mapping[int, int], ledger: Sequence[KongEntry],
                        config: RuleConfig) -> list[Transfer]:
    """§7 at exhaustion, among the remaining seats (the keys of ``classes``):

    1. 查花猪: each 花猪 pays each remaining non-花猪 ``base × 2**huazhu_fan``;
    2. 查大叫: each not-ready seat pays each ready seat ``V(Fmax)`` (``dajiao_fan``; a 花猪 pays none);
    3. 退税 (``tuishui``): each not-ready seat and 花猪 returns each open ledger entry he owns to its
       payer when that payer is remaining (not to a seat that has won).
    """
    rest = sorted(_seats(classes, "classes"))
    for s in rest:
        if classes[s] not in (HUAZHU_CLASS, READY, NOT_READY):
            raise ValueError(f"class {classes[s]!r} of seat {s}: allowed {(HUAZHU_CLASS, READY, NOT_READY)}")
    ready = [s for s in rest if classes[s] == READY]
    if sorted(dajiao_fan) != ready:
        raise ValueError(f"dajiao_fan must give the Fmax of exactly the ready seats {ready}, got {sorted(dajiao_fan)}")
    fans = {r: int_arg(dajiao_fan[r], "fan", low=0) for r in ready}
    return _exhaustion_payments({s: classes[s] for s in rest}, fans, ledger, config)


def _exhaustion_payments(classes: dict[int, str], dajiao_fan: dict[int, int], ledger: Sequence[KongEntry],
                         config: RuleConfig) -> list[Transfer]:
    """``exhaustion_payments`` past its checks (the game's own classes and Fmax: ``classes`` keyed
    by the remaining seats in ascending order, ``dajiao_fan`` ints for exactly its ready seats)."""
    huazhu = []
    not_ready = []
    ready = []
    for s, c in classes.items():
        if c == READY:
            ready.append(s)
        elif c == NOT_READY:
            not_ready.append(s)
        else:
            huazhu.append(s)
    out = []
    if huazhu:
        fine = config.base * 2 ** config.huazhu_exponent
        out += [Transfer(h, s, fine, HUAZHU) for h in huazhu for s in classes if classes[s] != HUAZHU_CLASS]
    if not_ready:
        out += [Transfer(n, r, _value(dajiao_fan[r], config), DAJIAO) for n in not_ready for r in ready]
    if config.tuishui and (huazhu or not_ready):
        out += [Transfer(e.owner, e.payer, e.amount, TUISHUI) for e in ledger
                if (e.owner in huazhu or e.owner in not_ready) and e.payer in classes]
    return out


# ------------------------------------------------------------------ §1 dealer
def next_dealer(dealer: int, first_winners: Sequence[int] = (), first_payer: int | None = None) -> int:
    """§1 首胡者坐庄: the seat of the hand's first win; with several winners of that first discard
    or 补杠, its discarder (the kong player, ``first_payer``); with no win the dealer stays."""
    dealer = _seat(dealer, "dealer")
    ws = _seats(first_winners, "first_winners")
    if not ws:
        return dealer
    if len(ws) == 1:
        return ws[0]
    if first_payer is None:
        raise ValueError(f"several first winners {ws} need their discarder (first_payer)")
    return _seat(first_payer, "first_payer")

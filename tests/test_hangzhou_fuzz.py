"""Random Hangzhou hands (rules §1–§6) never crash and keep every invariant.

After every step: 136 tiles accounted for (indicator included), hand sizes 3n+1
(3n+2 on turn), the mask equals the legal actions, windows ask only seats with a
choice, payments zero-sum, no 财神 in any meld; at the end the event log replays
to the identical game.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import compress

import pytest

from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.game import CLAIM, DISCARD, HangzhouGame
from cnmahjong.envs.hangzhou.patterns import natural_kind
from cnmahjong.envs.hangzhou.rules import RuleConfig

CONFIGS = [RuleConfig(), RuleConfig(claim_limits=False, liability=False, piao_claim_liability=False)]


def choose(rng: random.Random, g: HangzhouGame, seat: int) -> int:
    """Random legal play biased towards the rare paths: wins, 飘, claims, kongs; discards
    usually drop the least connected tile so hands get ready."""
    acts = g.legal_actions(seat)
    k = g.indicator
    if g.phase == DISCARD and g.ready_before() and g.hands[seat][k] >= 2 and rng.random() < 0.6:
        return k  # 财飘: an extra 财神 thrown instead of winning (or after a claim, §3), the 爆头 kept
    if A.HU in acts and rng.random() < 0.9:
        return A.HU
    claims = [a for a in acts if A.CHI_LOW <= a < A.HU]
    if claims and rng.random() < (0.9 if g.piao[seat] else 0.2 if seat % 2 == 0 else 0.6):
        return rng.choice(claims)
    discards = [a for a in acts if a < A.CHI_LOW]
    if k in discards and g.ready_before() and rng.random() < 0.7:
        return k  # 爆头-ready before the draw or claim: the 财神 discard is a 飘
    pairs_mode = seat % 2 == 0 and not g.melds[seat]  # half the seats play for seven pairs
    if len(discards) > 1 and rng.random() < 0.85:
        h = g.hands[seat]
        nat = [natural_kind(t, k) for t in range(34)]
        held = [0] * 34  # tiles held per natural kind, the 财神 left out
        for u in range(34):
            if u != k:
                held[nat[u]] += h[u]

        def keep(t: int) -> float:
            if t == k:
                return 99.0  # keep the 财神
            n = nat[t]  # suited neighbours within two of its natural kind
            near = sum(held[m] for m in range(n - 2, n + 3) if m != n and m >= 0 and m // 9 == n // 9) if n < 27 else 0
            if pairs_mode:
                return (5 if h[t] >= 2 else 0) + rng.random()
            return 3 * h[t] + near + rng.random()

        return min(discards, key=keep)
    return rng.choice(acts)


def piao_after_claim(g: HangzhouGame) -> bool:
    """A 飘 on a turn that began with the player's own CHI or PENG (§3, amended) was played."""
    began: dict[int, str] = {}
    for e in g.events:
        if e["type"] in ("draw", "meld"):
            began[e["seat"]] = "claim" if e["type"] == "meld" and e.get("from") is not None else e["type"]
        elif e["type"] == "discard" and e.get("piao") and began.get(e["seat"]) == "claim":
            return True
    return False


ACTION_IDS = range(A.NUM_ACTIONS)


def check_state(g: HangzhouGame) -> None:
    assert g.tiles_accounted() == 136
    assert sum(g.payments) == 0
    k = g.indicator
    assert all(k not in m.tiles for ms in g.melds for m in ms)
    if g.done:
        return
    for s in range(4):
        size = sum(g.hands[s]) + 3 * len(g.melds[s])
        assert size == (14 if g.phase == DISCARD and s == g.turn else 13), (s, size, g.phase)
        assert list(compress(ACTION_IDS, g.legal_mask(s))) == g.legal_actions(s)
    for s in g.to_act:
        acts = g.legal_actions(s)
        assert acts == sorted(set(acts))
        if g.phase == CLAIM:
            assert A.PASS in acts and len(acts) >= 2
            assert g.claim_tiles != [k]  # a 财神 is never claimed


def play(g: HangzhouGame, rng: random.Random, check: bool = True) -> None:
    while not g.done:
        s = rng.choice(g.to_act)
        g.step(s, choose(rng, g, s))
        if check:
            check_state(g)


def test_same_seed_and_actions_same_game():
    a, b = HangzhouGame(seed=99, streak=3), HangzhouGame(seed=99, streak=3)
    play(a, random.Random(5), check=False)
    play(b, random.Random(5), check=False)
    assert a.events == b.events and a.result == b.result


def test_rejected_actions_change_nothing():
    rng = random.Random(4)
    for seed in range(30):
        g = HangzhouGame(seed=seed, streak=1 + seed % 3)
        for _ in range(rng.randrange(1, 60)):
            if g.done:
                break
            s = rng.choice(g.to_act)
            g.step(s, choose(rng, g, s))
        if g.done:
            continue
        s = g.to_act[0]
        illegal = [a for a in range(A.NUM_ACTIONS) if a not in g.legal_actions(s)]
        n = len(g.events)
        with pytest.raises(ValueError):
            g.step(s, rng.choice(illegal))
        assert len(g.events) == n


@pytest.mark.slow
def test_fuzz_five_thousand_hands():
    """5,000 random hands across streak levels and options, invariants after every step; one in
    twenty replayed from its event log."""
    rng = random.Random(2026)
    seen: Counter[str] = Counter()
    for i in range(5_000):
        g = HangzhouGame(CONFIGS[i % 2], seed=i, dealer=i % 4, streak=1 + i % 3)
        play(g, rng)
        r = g.result
        for pats in r.patterns.values():
            seen.update(pats)
        seen["WON"] += bool(r.winners)
        seen["DISCARD_WIN"] += bool(r.winners) and not r.self_drawn
        seen["CHENGBAO"] += r.extras["liable"]["chengbao"] is not None
        seen["BORNE"] += bool(r.extras["liable"]["borne"])
        seen["PIAO_AFTER_CLAIM"] += piao_after_claim(g)
        if i % 20 == 0:
            again = HangzhouGame.replay(g.events)
            assert again.events == g.events and again.result == r
    # the biased play reaches the rare paths, so the fuzz covers them
    for p in ("WON", "DISCARD_WIN", "BAOTOU", "CAIPIAO", "GANGKAI", "QIDUI", "HAOHUA", "CHENGBAO", "PIAO_AFTER_CLAIM"):
        assert seen[p] > 0, (p, seen)

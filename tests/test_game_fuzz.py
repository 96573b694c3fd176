"""Property tests of the engine: random play never crashes and keeps every invariant.

Invariants after every step: all tiles accounted for (§1's 108), hand sizes
3n+1 (3n+2 for the seat on its turn), windows only ask seats with a real
choice, payments zero-sum; at the end ``replay(events)`` reproduces the game.
"""

import random
from itertools import compress
from operator import le

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.game import DISCARD, DONE, OPENING, ChangshaGame, ChangshaMatch, IllegalActionError
from cnmahjong.envs.changsha.patterns import wait_mask
from cnmahjong.envs.changsha.rules import RuleConfig

CONFIGS = [
    RuleConfig.preset("mainstream"),
    RuleConfig.preset("classic"),
    RuleConfig.preset("mainstream", big_win_stacking=True, cap_he=6, opening_win_stacking=True,
                      kong_dice_overflow="head", kong_dice_choice=False, kong_on_haidi=False),
]
WINDOWS = ("claim", "rob", "kong_discard", "haidi_discard")


def choose(rng: random.Random, acts: list[int], g: ChangshaGame | None = None, seat: int = 0) -> int:
    """Random legal play biased towards the rare paths: wins, kongs, the 海底, declarations.

    With the game given, discards usually drop the least connected tile, so hands
    get ready and the ready-only paths (开杠, 杠上开花, 抢杠) are reached often.
    """
    if A.HU in acts and rng.random() < 0.8:
        return A.HU
    special = [a for a in acts if A.PENG <= a < A.HU or a >= A.DECLARE or a == A.HAIDI_TAKE]
    if special and rng.random() < 0.6:
        return rng.choice(special)
    discards = [a for a in acts if a < 27]
    if g is not None and seat == g.dealer and not any(g.rivers) and not any(g.melds) and discards:
        # the dealer's first discard: often one another seat waits on, so 地胡 gets reached
        waits = 0
        for o in range(4):
            if o != seat:
                waits |= wait_mask(g.hands[o], g.melded[o], 0)
        targets = [a for a in discards if waits >> a & 1]
        if targets and rng.random() < 0.5:
            return rng.choice(targets)
    if g is not None and len(discards) > 1 and rng.random() < 0.85:
        h = g.hands[seat]

        def keep(t: int) -> float:
            near = sum(h[u] / abs(u - t) for u in range(t - 2, t + 3)
                       if u != t and 0 <= u < 27 and u // 9 == t // 9)
            return 3 * h[t] + near + rng.random()

        return min(discards, key=keep)
    return rng.choice(acts)


ACTION_IDS = range(A.NUM_ACTIONS)


def check_state(g: ChangshaGame, total: int) -> None:
    assert g.tiles_accounted() == total
    assert sum(g.payments) == 0
    # tiles shown by opening wins are a part of the concealed hand
    assert all(all(map(le, g.shown[s], g.hands[s])) for s in range(4))
    if g.phase == DONE:
        return
    for s in range(4):
        size = sum(g.hands[s]) + 3 * len(g.melds[s])
        on_turn = g.phase in (DISCARD, OPENING) and s == g.turn
        assert size == (14 if on_turn else 13), (s, size, g.phase)
    assert g.to_act
    for s in range(4):  # the mask (what the env shows) says exactly the legal actions
        assert list(compress(ACTION_IDS, g.legal_mask(s))) == g.legal_actions(s)
    for s in g.to_act:
        acts = g.legal_actions(s)
        assert acts == sorted(set(acts)) and all(0 <= a < A.NUM_ACTIONS for a in acts)
        if g.phase in WINDOWS:
            assert A.PASS in acts and len(acts) >= 2  # a seat with nothing to decide is not asked


def play(g: ChangshaGame, rng: random.Random, check: bool = True) -> None:
    total = g.tiles_accounted()
    while not g.done:
        s = rng.choice(g.to_act)
        g.step(s, choose(rng, g.legal_actions(s), g, s))
        if check:
            check_state(g, total)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_random_hands_keep_invariants_and_replay(seed, cfg, dealer, play_seed):
    g = ChangshaGame(CONFIGS[cfg], seed=seed, dealer=dealer)
    play(g, random.Random(play_seed))
    r = g.result
    assert sum(r.payments) == 0 and 0 <= r.next_dealer < 4
    assert set(r.patterns) == set(r.winners)
    again = ChangshaGame.replay(g.events)
    assert again.events == g.events and again.result == r


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2), st.integers(0, 2**32 - 1))
def test_every_offered_action_is_accepted_and_others_rejected(seed, cfg, play_seed):
    rng = random.Random(play_seed)
    g = ChangshaGame(CONFIGS[cfg], seed=seed)
    stop = rng.randrange(1, 80)
    while not g.done and stop:
        stop -= 1
        s = rng.choice(g.to_act)
        g.step(s, choose(rng, g.legal_actions(s), g, s))
    if g.done:
        return
    for s in g.to_act:
        for a in g.legal_actions(s):
            clone = ChangshaGame.replay(g.events)
            clone.step(s, a)  # the mask never offers an action step rejects
        illegal = [a for a in range(A.NUM_ACTIONS) if a not in g.legal_actions(s)]
        n = len(g.events)
        with pytest.raises(IllegalActionError):
            g.step(s, rng.choice(illegal))
        assert len(g.events) == n  # a rejected action changes nothing
    idle = [s for s in range(4) if s not in g.to_act]
    if idle:
        with pytest.raises(IllegalActionError, match="not to act"):
            g.step(idle[0], A.PASS)


def test_same_seed_and_actions_same_game():
    a = ChangshaGame(seed=99)
    b = ChangshaGame(seed=99)
    play(a, random.Random(5), check=False)
    play(b, random.Random(5), check=False)
    assert a.events == b.events and a.result == b.result


@pytest.mark.slow
def test_fuzz_five_thousand_hands_both_presets():
    """5,000 random hands across the presets, invariants after every step (the compiled
    differential, ``tests/test_compiled.py``, plays 20,000 more, every step compared)."""
    rng = random.Random(2026)
    seen: dict[str, int] = {}
    for i in range(5_000):
        g = ChangshaGame(CONFIGS[i % 3], seed=i, dealer=i % 4)
        play(g, rng)
        for pats in g.result.patterns.values():
            for p in pats:
                seen[p] = seen.get(p, 0) + 1
        if i % 50 == 0:
            again = ChangshaGame.replay(g.events)
            assert again.result == g.result
    # the biased random play reaches the rare patterns, so the fuzz covers their paths
    for p in ("PINGHU", "PENGPENG", "QIXIAODUI", "QINGYISE", "GANGSHANG_KAIHUA", "GANGSHANG_PAO",
              "QIANGGANG", "HAIDI_LAOYUE", "HAIDI_PAO", "QUANQIUREN", "DIHU"):
        assert seen.get(p, 0) > 0, (p, seen)


# -------------------------------------------------------------- matches §9
def test_match_runs_hands_with_dealer_rule_and_cumulative_scores_section9():
    m = ChangshaMatch(RuleConfig.preset("mainstream"), hands=6, seed=3, dealer=1)
    rng = random.Random(0)
    while not m.done:
        s = rng.choice(m.to_act)
        m.step(s, choose(rng, m.legal_actions(s), m.game, s))
    assert len(m.results) == 6 and m.dealers[0] == 1
    for prev, nxt in zip(m.results, m.dealers[1:], strict=False):
        assert nxt == prev.next_dealer
    assert m.scores == [sum(r.payments[s] for r in m.results) for s in range(4)]
    assert sum(m.scores) == 0
    with pytest.raises(IllegalActionError, match="match is over"):
        m.step(0, A.PASS)


def test_match_validation():
    with pytest.raises(ValueError, match="hands=0 out of range"):
        ChangshaMatch(hands=0)

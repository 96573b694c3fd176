"""The core ``HandResult`` both rulesets fill, the core ``Meld``, the ruleset name in every deal event,
and the arena's per-hand statistics (``envs/<ruleset>/stats.py``)."""

from __future__ import annotations

import copy
import dataclasses
import functools
import itertools
import json
import pickle
import random

import pytest

from cnmahjong.envs.changsha import actions as CA
from cnmahjong.envs.changsha import stats as cs_stats
from cnmahjong.envs.changsha.game import RULESET as CHANGSHA
from cnmahjong.envs.changsha.game import ChangshaGame, ChangshaMatch
from cnmahjong.envs.changsha.patterns import shanten
from cnmahjong.envs.core import wild
from cnmahjong.envs.core.meld import ANGANG, CHI, JIAGANG, PENG, Meld, kong_possible
from cnmahjong.envs.core.result import WIN, HandResult, Transfer, seat_stats, win_transfers
from cnmahjong.envs.hangzhou import actions as HA
from cnmahjong.envs.hangzhou import stats as hz_stats
from cnmahjong.envs.hangzhou.game import RULESET as HANGZHOU
from cnmahjong.envs.hangzhou.game import HangzhouGame, HangzhouMatch
from cnmahjong.envs.hangzhou.patterns import natural
from tests.scenario import READY_22P, READY_55P, answer, to_seat1_discard

HANDS = 200
CS_CONFIGS = [ChangshaGame.CONFIG.preset("mainstream"), ChangshaGame.CONFIG.preset("classic")]


def _play(game, rng: random.Random):
    """Seeded play that wins whenever it can, discards to lower its shanten and claims or kongs
    at random a third of the time: many wins of every kind, kongs, 海底."""
    hu = game.ACTIONS.HU
    while not game.done:
        s = game.to_act[0]
        legal = game.legal_actions(s)
        discards = [a for a in legal if a < game.NUM_KINDS]
        if hu in legal:
            a = hu
        elif not discards or (len(discards) < len(legal) and rng.random() < 0.35):
            a = rng.choice([a for a in legal if a >= game.NUM_KINDS])
        else:
            left = [_shanten(game, s, t) for t in discards]
            a = rng.choice([t for t, n in zip(discards, left, strict=True) if n == min(left)])
        game.step(s, a)
    return game


def _shanten(game, s: int, t: int) -> int:
    """The seat's shanten after discarding ``t``."""
    h = bytearray(game.hands[s])
    h[t] -= 1
    if isinstance(game, HangzhouGame):
        return wild.shanten(*natural(h, game.indicator), len(game.melds[s]))
    return shanten(h, game.melded[s], len(game.melds[s]))


@functools.cache
def _changsha_hands(n: int = HANDS) -> tuple[ChangshaGame, ...]:
    """``n`` finished hands, played once for every test here (they only read them)."""
    rng = random.Random(22)
    return tuple(_play(ChangshaGame(CS_CONFIGS[i % 2], seed=1000 + i, dealer=i % 4), rng) for i in range(n))


@functools.cache
def _hangzhou_hands(n: int = HANDS) -> tuple[HangzhouGame, ...]:
    rng = random.Random(22)
    return tuple(_play(HangzhouGame(seed=2000 + i, dealer=i % 4, streak=1 + i % 3), rng) for i in range(n))


def _check(result: HandResult) -> None:
    """What every result of every ruleset holds."""
    net = [0] * 4
    for t in result.transfers:
        assert t.amount > 0 and t.payer != t.payee, t
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    assert tuple(net) == result.payments and sum(result.payments) == 0
    winners = set(result.winners)
    assert len(winners) == len(result.winners)
    assert set(result.winning_tiles) == set(result.patterns) == set(result.value) == winners
    assert set(result.self_drawn) | set(result.won_from) == winners  # every win is self-drawn or on a tile
    assert not set(result.self_drawn) & set(result.won_from)
    assert all(w != p for w, p in result.won_from.items())
    assert all(t.payee in winners for t in result.transfers if t.reason == WIN)
    assert result.drawn == (not winners) and 0 <= result.next_dealer < 4
    for pats in result.patterns.values():
        assert all(isinstance(p, str) and isinstance(n, int) and n >= 1 for p, n in pats.items())


def _round_trip(game) -> None:
    r = game.result
    d = r.to_dict()
    text = json.dumps(d)  # JSON-safe as it is
    assert HandResult.from_dict(json.loads(text)) == r
    assert HandResult.from_dict(d) == r
    assert all(isinstance(k, str) for name in ("won_from", "winning_tiles", "patterns", "value") for k in d[name])
    assert game.events[-1] == {"type": "end", "result": d}  # the log's last event carries it
    assert d["payments"] == list(r.payments) and d["winners"] == list(r.winners)  # what the viewer reads


# ------------------------------------------------------------------ HandResult
@pytest.mark.parametrize("hands", [_changsha_hands, _hangzhou_hands], ids=["changsha", "hangzhou"])
def test_results_of_both_rulesets_hold_the_invariants_and_round_trip(hands) -> None:
    seen = {"won": 0, "drawn": 0, "self_drawn": 0, "on_a_tile": 0}
    for g in hands():
        r = g.result
        _check(r)
        _round_trip(g)
        assert r.ruleset == g.RULESET == g.events[0]["ruleset"]
        seen["won"] += bool(r.winners)
        seen["drawn"] += r.drawn
        seen["self_drawn"] += bool(r.self_drawn)
        seen["on_a_tile"] += bool(r.won_from)
    assert all(seen.values()), seen


def test_changsha_fills_the_core_fields_from_its_win_events() -> None:
    """Per win event: the same seat, tile, payer, patterns (in order) and 合 (``value``)."""
    for g in _changsha_hands()[:100]:
        r = g.result
        wins = [e for e in g.events if e["type"] == "win"]
        assert [e["seat"] for e in wins] == list(r.winners)
        for e in wins:
            s = e["seat"]
            assert list(r.patterns[s]) == e["patterns"] and set(r.patterns[s].values()) == {1}
            assert r.value[s] == e["he"] and r.winning_tiles[s] == e["tile"]
            assert r.won_from.get(s) == e["payer"] and (s in r.self_drawn) == (e["payer"] is None)
        openings = [e for e in g.events if e["type"] == "declare"]
        assert [d["pattern"] for d in r.extras["opening"]] == [e["pattern"] for e in openings]
        assert [t.reason for t in r.transfers if t.reason != WIN] == [
            "opening:" + e["pattern"] for e in openings for p in e["payments"] if p < 0]
        assert len(r.extras["birds"]) == len(r.extras["bird_seats"]) == (g.config.bird_count if r.winners else 0)


def test_changsha_several_winners_on_one_discard_each_paid_by_the_discarder() -> None:
    g = to_seat1_discard({2: READY_22P, 3: READY_55P}, wall="9s2s6s")
    answer(g, {2: CA.HU, 3: CA.HU})
    r = g.result
    assert r.winners == (2, 3) and r.won_from == {2: 1, 3: 1} and r.self_drawn == ()
    assert r.transfers == (Transfer(1, 2, 3), Transfer(1, 3, 3))
    _check(r)
    _round_trip(g)
    assert [row["deal_in"] for row in cs_stats.hand_stats(g)] == [False, True, False, False]


def test_hangzhou_fills_the_core_fields_from_its_win_event() -> None:
    for g in _hangzhou_hands()[:100]:
        r = g.result
        wins = [e for e in g.events if e["type"] == "win"]
        assert [e["seat"] for e in wins] == list(r.winners)
        for e in wins:
            s = e["seat"]
            assert r.patterns[s] == e["patterns"] and r.value[s] == e["exponent"]
            assert r.winning_tiles[s] == e["tile"] and r.won_from.get(s) == e["payer"]
            assert r.extras["liable"] == e["liable"]
            liable = {e["liable"]["chengbao"], *e["liable"]["fan"], *e["liable"]["borne"]} - {None}
            for t in r.transfers:
                assert t.reason == WIN or t.payer in liable


def test_transfers_of_a_settlement() -> None:
    assert win_transfers(2, [-3, -1, 4, 0]) == [Transfer(0, 2, 3), Transfer(1, 2, 1)]
    assert win_transfers(0, [6, -2, -2, -2], "opening:SIXI") == [Transfer(s, 0, 2, "opening:SIXI") for s in (1, 2, 3)]
    assert win_transfers(1, [0, 16, -16, 0], reasons={2: "chengbao"}) == [Transfer(2, 1, 16, "chengbao")]


def test_from_dict_reads_what_to_dict_wrote() -> None:
    r = HandResult(ruleset="x", payments=(3, -3, 0, 0), winners=(0,), self_drawn=(), won_from={0: 1},
                   winning_tiles={0: None}, patterns={0: {"A": 2}}, value={0: 1},
                   transfers=(Transfer(1, 0, 3),), next_dealer=0, extras={"note": [1, {"k": None}]})
    d = r.to_dict()
    assert d == {"ruleset": "x", "payments": [3, -3, 0, 0], "winners": [0], "self_drawn": [], "won_from": {"0": 1},
                 "winning_tiles": {"0": None}, "patterns": {"0": {"A": 2}}, "value": {"0": 1},
                 "transfers": [{"payer": 1, "payee": 0, "amount": 3, "reason": "win"}], "next_dealer": 0,
                 "extras": {"note": [1, {"k": None}]}}
    d["extras"]["note"].append(2)  # the dict shares nothing with the result
    assert r.extras == {"note": [1, {"k": None}]}
    assert HandResult.from_dict(r.to_dict()) == r and not r.drawn


def test_matches_add_up_core_results() -> None:
    for match in (ChangshaMatch(hands=3, seed=5), HangzhouMatch(hands=3, seed=5)):
        rng = random.Random(1)
        while not match.done:
            s = match.to_act[0]
            match.step(s, rng.choice(match.legal_actions(s)))
        assert all(isinstance(r, HandResult) for r in match.results)
        assert match.scores == [sum(r.payments[s] for r in match.results) for s in range(4)]


# ------------------------------------------------------------ the deal event
def test_every_deal_event_names_its_ruleset_and_replay_refuses_another() -> None:
    cs, hz = ChangshaGame(seed=1), HangzhouGame(seed=1)
    assert (cs.events[0]["ruleset"], hz.events[0]["ruleset"]) == (CHANGSHA, HANGZHOU) == ("changsha", "hangzhou")
    assert ChangshaGame.from_scenario(*_scenario(), dice=[1]).events[0]["ruleset"] == "changsha"
    events = [dict(cs.events[0], ruleset="hangzhou")]
    with pytest.raises(ValueError, match="'hangzhou' ruleset"):
        ChangshaGame.replay(events)
    with pytest.raises(ValueError, match="'changsha' ruleset"):
        HangzhouGame.replay([dict(hz.events[0], ruleset="changsha")])


def _scenario():
    g = ChangshaGame(seed=9)
    return [sorted(t for t in range(27) for _ in range(h[t])) for h in g.hands], g.wall.tiles()


# --------------------------------------------------------------------- melds
def test_one_meld_type_for_both_rulesets() -> None:
    m = Meld(PENG, (3, 3, 3), 2)
    assert (m.kind, m.tiles, m.from_seat, m.hidden) == (PENG, (3, 3, 3), 2, False)
    assert not hasattr(m, "__dict__")  # slotted: the engines make and read them on the hot path
    assert m.exposed and not m.is_kong and Meld(ANGANG, (5,) * 4, hidden=True).is_kong
    assert not Meld(ANGANG, (5,) * 4).exposed and Meld(JIAGANG, (30,) * 4, 1).exposed  # honours: Hangzhou
    assert Meld(CHI, (3, 5, 33)).tiles == (3, 5, 33)  # Hangzhou: the 白板 plays the indicator kind (§1)
    for kind, tiles in ((CHI, (7, 8, 9)), (CHI, (3, 4, 33, 5)), (CHI, (3, 7, 33)), (CHI, (27, 28, 29)),
                        (PENG, (1, 1, 2)), (ANGANG, (1, 1, 1)), (PENG, (34, 34, 34))):
        with pytest.raises(ValueError):
            Meld(kind, tiles)
    with pytest.raises(ValueError, match="meld kind"):
        Meld("pong", (1, 1, 1))


def test_a_meld_is_an_immutable_value() -> None:
    """Compared, hashed, pickled and copied by value; no field can be set or deleted (it was a
    frozen dataclass: the same errors); ``replace`` makes a checked new one."""
    m = Meld(PENG, (3, 3, 3), 2)
    assert m == Meld(PENG, (3, 3, 3), 2) and hash(m) == hash(Meld(PENG, (3, 3, 3), 2))
    assert m != Meld(PENG, (3, 3, 3), 1) and m != Meld(PENG, (3, 3, 3), 2, hidden=True)
    assert m != (PENG, (3, 3, 3), 2, False) and len({m, Meld(PENG, (3, 3, 3), 2), Meld(PENG, (4, 4, 4))}) == 2
    assert pickle.loads(pickle.dumps(m)) == m and copy.deepcopy(m) == m
    assert repr(m) == "Meld(kind='peng', tiles=(3, 3, 3), from_seat=2, hidden=False)"
    for name in ("kind", "tiles", "from_seat", "hidden"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(m, name, None)
        with pytest.raises(AttributeError):
            delattr(m, name)
    assert m.replace(hidden=True) == Meld(PENG, (3, 3, 3), 2, True)
    assert m.replace(tiles=(7, 7, 7)) == Meld(PENG, (7, 7, 7), 2)
    with pytest.raises(ValueError, match="do not form a peng"):
        m.replace(tiles=(7, 7, 8))


def test_meld_shapes_agree_with_brute_force() -> None:
    """Every kind and tile triple or quadruple of kinds near the suit edges and the 白板: accepted
    exactly when it is a PENG or kong of one kind, or a CHI that is a run of one suit with at most
    one place filled by the 白板 (kind 33)."""
    kinds = [0, 1, 2, 3, 7, 8, 9, 10, 17, 18, 26, 27, 30, 33]

    def run(t):
        if len(t) != 3 or len(set(t)) != 3:
            return False
        suited = sorted(k for k in t if k < 27)
        if len(suited) == 2 and 33 in t:
            return suited[0] // 9 == suited[1] // 9 and suited[1] - suited[0] <= 2
        return len(suited) == 3 and suited[0] // 9 == suited[2] // 9 and suited[2] - suited[0] == 2

    for kind in (CHI, PENG, JIAGANG, ANGANG):
        for n in (3, 4):
            for t in itertools.product(kinds, repeat=n):
                want = run(t) if kind == CHI else len(t) == (3 if kind == PENG else 4) and len(set(t)) == 1
                try:
                    Meld(kind, t)
                    made = True
                except ValueError:
                    made = False
                assert made == want, (kind, t)


def test_kong_possible_is_a_kind_four_held_or_held_beside_three_melded() -> None:
    """``kong_possible``, the pre-check of every ruleset's turn before its kong offer (§6 of each
    rule text: 暗杠 of four held, 加杠 on a PENG): exactly a kind held four times, or held beside
    three melded, on random count vectors of 27 and 34 kinds (``melded`` as long or longer);
    ``melded`` shorter than the hand is refused by name, whichever build runs."""
    rng = random.Random(5)
    for _ in range(3000):
        n = rng.choice((27, 34))
        hand = bytearray(rng.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(n))
        melded = bytearray(rng.choice((0, 0, 0, 1, 3, 4)) for _ in range(n + rng.choice((0, 0, 7))))
        want = any(c == 4 or (c and m == 3) for c, m in zip(hand, melded, strict=False))
        assert kong_possible(hand, melded) is want, (list(hand), list(melded))
    with pytest.raises(ValueError, match="melded has 27 counts, the hand 34: allowed as many or more"):
        kong_possible(bytearray(34), bytearray(27))


def test_both_games_make_core_melds() -> None:
    kinds = set()
    for g in [*_changsha_hands()[:60], *_hangzhou_hands()[:60]]:
        for melds in g.melds:
            for m in melds:
                assert type(m) is Meld
                kinds.add(m.kind)
                assert (m.from_seat is None) == (m.kind == ANGANG)
    assert {CHI, PENG} <= kinds


# ---------------------------------------------------------------- statistics
def _oracle(game, extras: dict[str, list[int]]) -> list[dict]:
    """The statistics as the arena computed them before the core result, from the win events."""
    wins = {e["seat"]: e for e in game.events if e["type"] == "win"}
    payments = game.events[-1]["result"]["payments"]
    rows = []
    for s in range(4):
        e = wins.get(s)
        rows.append({"settlement": payments[s], "win": e is not None,
                     "self_draw": e is not None and e["payer"] is None,
                     "deal_in": any(w["payer"] == s for w in wins.values()),
                     "big_win": e is not None and e.get("he", e.get("exponent")) > 0,
                     **{name: counts[s] for name, counts in extras.items()}})
    return rows


def test_changsha_stats_match_the_arena_figures() -> None:
    assert cs_stats.STAT_NAMES == ("haidi_take", "kaigang")
    totals = dict.fromkeys(["win", "self_draw", "deal_in", "big_win", "haidi_take", "kaigang"], 0)
    for g in _changsha_hands():
        haidi, kaigang = [0] * 4, [0] * 4
        for e in g.events:
            if e["type"] == "haidi" and e["take"]:
                haidi[e["seat"]] += 1
            elif e["type"] == "meld" and e["how"] == "kaigang":
                kaigang[e["seat"]] += 1
        rows = cs_stats.hand_stats(g)
        assert rows == _oracle(g, {"haidi_take": haidi, "kaigang": kaigang})
        assert [row["settlement"] for row in rows] == list(g.result.payments)
        assert [list(row) for row in rows] == [["settlement", "win", "self_draw", "deal_in", "big_win",
                                                 *cs_stats.STAT_NAMES]] * 4
        for row in rows:
            for k in totals:
                totals[k] += row[k]
    assert all(totals.values()), totals


def test_hangzhou_stats_match_the_arena_figures() -> None:
    assert hz_stats.STAT_NAMES == ("baotou", "piao")
    totals = dict.fromkeys(["win", "self_draw", "deal_in", "big_win"], 0)  # 爆头 and 飘: a scenario below
    for g in _hangzhou_hands():
        baotou, piao = [0] * 4, [0] * 4
        for e in g.events:
            if e["type"] == "win" and "BAOTOU" in e["patterns"]:
                baotou[e["seat"]] += 1
            elif e["type"] == "discard" and e.get("piao"):
                piao[e["seat"]] += 1
        rows = hz_stats.hand_stats(g)
        assert rows == _oracle(g, {"baotou": baotou, "piao": piao})
        assert [row["settlement"] for row in rows] == list(g.result.payments)
        for row in rows:
            for k in totals:
                totals[k] += row[k]
    assert all(totals.values()), totals


def test_stats_of_a_hand_in_play_are_an_error() -> None:
    with pytest.raises(ValueError, match="not over"):
        cs_stats.hand_stats(ChangshaGame(seed=1))
    with pytest.raises(ValueError, match="not over"):
        seat_stats(HangzhouGame(seed=1).result)


def test_a_piao_counts_for_its_seat() -> None:
    """飘 are rare in random play: a scenario's (``tests/test_hangzhou_piao_claim.py``)."""
    from tests.test_hangzhou_piao_claim import play_piao_peng_piao

    g = play_piao_peng_piao(True)
    rows = hz_stats.hand_stats(g)
    assert rows[1]["piao"] == 2 and rows[1]["baotou"] == 1 and rows[1]["win"] and rows[1]["big_win"]
    assert [r["piao"] for r in rows] == [0, 2, 0, 0]
    assert HA.HU in {e.get("action") for e in g.events}

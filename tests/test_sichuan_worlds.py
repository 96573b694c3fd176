"""Sichuan worlds keep what play has revealed (rules §2, §3 D1/D3, §9): a seat that discarded
outside its void held none of it then; a winner holds none; the receiver of a seat's 换三张 tiles
still holds those it has not shown. Checked against the rules restated here from the public
events, over random positions, and against rejection sampling (draw freely, keep the worlds that
keep the rules) at real positions: the exact sampler must follow the same law."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
from scipy.stats import chi2_contingency

from cnmahjong.envs.core.worlds import unseen_counts
from cnmahjong.envs.sichuan.game import OFFSET
from tests.test_worlds import positions


def _void_bound(events: list[dict], s: int, v: int) -> int | None:
    """§3 D1 from the public events: at seat ``s``'s last discard outside its void ``v`` it held
    none; since then it drew some tiles and discarded some void tiles."""
    draws = void_out = 0
    for e in reversed(events):
        if e["type"] == "void":
            return None
        if e.get("seat") != s:
            continue
        if e["type"] == "draw":
            draws += 1
        elif e["type"] == "discard":
            if e["tile"] // 9 != v:
                return draws - void_out
            void_out += 1
    return None


def _swap_floor(game, seat: int, t: int) -> int:
    """§9: the copies of ``t`` that ``seat`` passed and its receiver has not shown since."""
    r = (seat + OFFSET[game.swap_direction]) % 4
    shown = sum(e["type"] == "discard" and e["seat"] == r and e["tile"] == t for e in game.events)
    shown += sum(len(m.tiles) - (m.from_seat is not None) for m in game.melds[r] if m.tiles[0] == t)
    return game.passed[seat].count(t) - shown


def _breaks(game, seat: int, hands: list) -> str | None:
    """Why ``hands`` (the other seats' concealed tiles) cannot be what ``seat`` faces in ``game``."""
    for o in range(4):
        if o == seat:
            continue
        if game.voids is not None:
            v = game.voids[o]
            held = sum(hands[o][9 * v:9 * v + 9])
            if o in game.out and held:
                return f"winner {o} holds {held} tiles of his void (D3)"
            bound = _void_bound(game.events, o, v)
            if bound is not None and held > bound:
                return f"seat {o} holds {held} void tiles, D1 allows {bound}"
        if game.swap_direction is not None and o == (seat + OFFSET[game.swap_direction]) % 4:
            for t in set(game.passed[seat]):
                if hands[o][t] < _swap_floor(game, seat, t):
                    return f"receiver {o} holds {hands[o][t]} of {t}, fewer than passed and not shown (§9)"
    return None


def test_worlds_keep_d1_d3_and_the_swap_over_random_positions():
    r = random.Random(4)
    checked = limited = 0
    for game, seat in positions("sichuan", hands=12, seed=11):
        if game.done or any(m.hidden for ms in game.melds for m in ms):
            continue
        world = game.sample_world(seat, np.random.default_rng(r.getrandbits(32)))
        why = _breaks(game, seat, world.hands)
        assert why is None, why
        checked += 1
        limited += bool(game._world_limits(seat, (seat + 1) % 4))
    assert checked > 1000 and limited > checked // 4, (checked, limited)


def _free_hands(game, seat: int, rng) -> list:
    """The other hands dealt from the unseen tiles with no regard to play (the old sampler)."""
    unseen = unseen_counts(game, seat)
    tiles = [t for t, n in enumerate(unseen) for _ in range(n)]
    tiles = [tiles[i] for i in rng.permutation(len(tiles))]
    hands, at = [None] * 4, 0
    for o in range(4):
        if o != seat:
            n = sum(game.hands[o])
            hands[o] = bytearray(27)
            for t in tiles[at:at + n]:
                hands[o][t] += 1
            at += n
    return hands


def _mild_positions(count: int):
    """Real positions where play has revealed something that binds (a D1 cap or a swap floor)
    and a free deal keeps it often enough for rejection to be a reference."""
    rng = np.random.default_rng(0)
    found = 0
    for game, seat in positions("sichuan", hands=40, seed=23):
        if game.done or game.voids is None or any(m.hidden for ms in game.melds for m in ms):
            continue
        if not any(game._world_limits(seat, o) for o in range(4) if o != seat):
            continue
        free = [_free_hands(game, seat, rng) for _ in range(200)]
        kept = sum(_breaks(game, seat, h) is None for h in free)
        if 10 <= kept <= 150:  # binding, and about 5% or more kept
            yield game, seat
            found += 1
            if found == count:
                return


def _stats(game, seat: int, hands: list) -> tuple[tuple, ...]:
    """Two views of the other hands: each one's tiles of its void suit (what D1 and D3 bound),
    and each one's tiles of the suit of ``seat``'s passed tiles (what the swap floors bound)."""
    others = [o for o in range(4) if o != seat]
    u = game.passed[seat][0] // 9
    return (tuple(sum(hands[o][9 * game.voids[o]:9 * game.voids[o] + 9]) for o in others),
            tuple(sum(hands[o][9 * u:9 * u + 9]) for o in others))


def _same_law(a: Counter, b: Counter, n: int) -> float:
    cells = [k for k in set(a) | set(b) if a[k] + b[k] >= 20]
    rows = [[c[k] for k in cells] + [n - sum(c[k] for k in cells)] for c in (a, b)]
    if rows[0][-1] + rows[1][-1] == 0:
        rows = [row[:-1] for row in rows]
    assert len(rows[0]) >= 3, "too few outcomes to compare"
    return chi2_contingency(rows).pvalue


def test_worlds_follow_the_rejection_law_at_real_positions():
    """At real positions with a binding D1 cap or swap floor: the exact sampler's worlds and
    freely dealt hands that keep the rules give the same law of the other hands' suit counts."""
    n = 1500
    tested = 0
    for game, seat in _mild_positions(3):
        rng = np.random.default_rng(1)
        exact = [Counter(), Counter()]
        for _ in range(n):
            for c, x in zip(exact, _stats(game, seat, game.sample_world(seat, rng).hands), strict=True):
                c[x] += 1
        kept = [Counter(), Counter()]
        while sum(kept[0].values()) < n:
            h = _free_hands(game, seat, rng)
            if _breaks(game, seat, h) is None:
                for c, x in zip(kept, _stats(game, seat, h), strict=True):
                    c[x] += 1
        for a, b in zip(exact, kept, strict=True):
            assert _same_law(a, b, n) > 1e-4, (game.phase, seat, a, b)
        tested += 1
    assert tested == 3


def test_a_face_down_angang_is_redrawn_only_where_its_kind_is_hidden():
    """§ reveal_angang_tile: with the option on, another seat's 暗杠 is public and every world keeps
    its kind; with it off, the kind is unseen (``Meld.hidden``), so worlds draw it among the kinds
    all unseen outside the owner's void (D2): a world never keeps the real kind by reading it."""
    from cnmahjong.envs.core.meld import ANGANG
    from cnmahjong.envs.core.tiles import COPIES
    from cnmahjong.envs.sichuan.rules import RuleConfig
    from tests.test_sichuan_env import random_game

    varied = 0
    for reveal in (True, False):
        found = 0
        for seed in range(600):
            g = random_game(seed, 0, RuleConfig(reveal_angang_tile=reveal))
            r = random.Random(seed)
            while not g.done and not any(m.kind == ANGANG for ms in g.melds for m in ms):
                s = g.to_act[0]
                legal = g.legal_actions(s)
                kongs = [a for a in legal if a >= g.NUM_KINDS]
                g.step(s, r.choice(kongs) if kongs and r.random() < 0.8 else r.choice(legal))
            if g.done:
                continue
            s, m = next((s, m) for s in range(4) for m in g.melds[s] if m.kind == ANGANG)
            assert m.hidden == (not reveal)
            viewer = (s + 1) % 4
            unseen = unseen_counts(g, viewer)
            kinds = {g.sample_world(viewer, np.random.default_rng(k)).melds[s][g.melds[s].index(m)].tiles[0]
                     for k in range(16)}
            if reveal:
                assert kinds == {m.tiles[0]}
            else:
                void = g.voids[s] if g.voids is not None else None
                eligible = {k for k, n in enumerate(unseen) if n == COPIES and k // 9 != void}
                assert kinds <= eligible, (kinds, eligible)
                varied += len(kinds) > 1  # (a kind the swap's receiver must hold is out too: §9)
            found += 1
            if found >= 6:
                break
        assert found >= 6, (reveal, found)
    assert varied >= 3, varied

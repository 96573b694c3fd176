"""Helpers for scenario tests (§11): build a position from a few named hands, answer windows."""

from __future__ import annotations

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.game import CLAIM, HAIDI_DISCARD, KONG_DISCARD, ROB, ChangshaGame
from cnmahjong.envs.changsha.rules import RuleConfig
from cnmahjong.envs.core.tiles import parse

DEALER_5M = "5m9m147s147p9s9p28s36p"
"""A dealer hand with no pair or run that can throw 5m or 9m first."""

NO_OPENING = RuleConfig.preset("mainstream", opening_wins=())
"""Mainstream rules without opening wins, so test hands need not avoid them."""

# Filler hands: ranks 1, 4, 7, 9 of each suit plus a 5 hold no pair, no run and no opening win.
_FILLER_ORDER = parse("147m147s147p9m9s9p5m5s5p") + parse("369m369s369p2m2s2p8m8s8p")


def build(hands: dict[int, str], wall: str, dealer: int = 0, dice=(), config=NO_OPENING,
          filler_wall: int = 0, tail: str = "") -> ChangshaGame:
    """A scenario with the given hands; other seats get filler tiles.

    ``wall`` lists the head of the undealt wall; ``filler_wall`` more tiles from
    what is left are appended behind it, then ``tail`` (the last tiles, for 补张).
    """
    counts = [4] * 27
    fixed = {s: parse(h) for s, h in hands.items()}
    w = parse(wall)
    tail_tiles = parse(tail)
    for t in tail_tiles +  [t for h in fixed.values() for t in h] + w:
        counts[t] -= 1
        assert counts[t] >= 0, f"scenario uses a fifth copy of kind {t}"
    full = []
    for s in range(4):
        if s in fixed:
            full.append(fixed[s])
            continue
        need = 14 if s == dealer else 13
        h = []
        for t in _FILLER_ORDER + list(range(27)):
            if len(h) == need:
                break
            if counts[t] and t not in h:
                counts[t] -= 1
                h.append(t)
        assert len(h) == need, "not enough distinct tiles left for a filler hand"
        full.append(h)
    rest = [t for t in range(27) for _ in range(counts[t])]
    rest = rest[::7] + [t for i, t in enumerate(rest) if i % 7]  # spread kinds out
    return ChangshaGame.from_scenario(full, w + rest[:filler_wall] + tail_tiles, dealer, dice, config)


def answer(game: ChangshaGame, choices: dict[int, int]) -> None:
    """Answer every seat now to act: the given action, PASS for the rest of a window."""
    seats = game.to_act
    assert set(choices) <= set(seats), f"seats {sorted(choices)} not all to act; to act {seats}"
    for s in seats:
        game.step(s, choices.get(s, A.PASS))


def t(text: str) -> int:
    """Kind of one tile, e.g. t('5p')."""
    (k,) = parse(text)
    return k


S1 = "5m123s456s789p22m6p"  # seat 1 draws the wall's first tile, then throws 5m
READY_22P = "34m678m234s22p678p"  # waits 2m/5m, real 将 22p: 平胡 on 5m
READY_55P = "34m678m567s55p789p"  # waits 2m/5m, real 将 55p


def to_seat1_discard(hands: dict[int, str], wall: str = "9s", **kw) -> ChangshaGame:
    """Build, let the (filler) dealer throw 9m, and have seat 1 throw 5m after its draw."""
    g = build({1: S1, **hands}, wall, filler_wall=kw.pop("filler_wall", 20), **kw)
    g.step(0, t("9m"))
    pass_claims(g)
    assert g.to_act == [1]
    g.step(1, t("5m"))
    return g


def pass_claims(g: ChangshaGame) -> None:
    """PASS for every seat of an open claim/rob window (nothing if no window is open)."""
    if g.phase in (CLAIM, ROB, KONG_DISCARD, HAIDI_DISCARD):
        answer(g, {})


def discard_drawn(g: ChangshaGame) -> None:
    """The seat to act throws the tile it drew; open windows are passed."""
    (s,) = g.to_act
    g.step(s, g.drawn)
    pass_claims(g)

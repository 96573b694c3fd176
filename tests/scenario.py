"""Helpers for scenario tests (§11): build a position from a few named hands, answer windows."""

from __future__ import annotations

from envs.changsha import actions as A
from envs.changsha.game import ChangshaGame
from envs.changsha.rules import RuleConfig
from envs.core.tiles import parse

NO_OPENING = RuleConfig.preset("mainstream", opening_wins=())
"""Mainstream rules without opening wins, so test hands need not avoid them."""

# Filler hands: ranks 1, 4, 7, 9 of each suit plus a 5 hold no pair, no run and no opening win.
_FILLER_ORDER = parse("147m147s147p9m9s9p5m5s5p") + parse("369m369s369p2m2s2p8m8s8p")


def build(hands: dict[int, str], wall: str, dealer: int = 0, dice=(), config=NO_OPENING,
          filler_wall: int = 0) -> ChangshaGame:
    """A scenario with the given hands; other seats get filler tiles.

    ``wall`` lists the head of the undealt wall; ``filler_wall`` more tiles from
    what is left are appended behind it (at the tail side).
    """
    counts = [4] * 27
    fixed = {s: parse(h) for s, h in hands.items()}
    w = parse(wall)
    for t in [t for h in fixed.values() for t in h] + w:
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
    return ChangshaGame.from_scenario(full, w + rest[:filler_wall], dealer, dice, config)


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

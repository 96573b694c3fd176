"""Hangzhou scenario helper: hands, the indicator, the next head draws and kong replacements are
given; the rest of the wall is filled with the unused copies, so tile counts always add up."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cnmahjong.envs.core.tiles import parse
from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.game import HangzhouGame
from cnmahjong.envs.hangzhou.rules import RuleConfig


def T(text: str) -> list[int]:
    return parse(text, honours=True)


def k(text: str) -> int:
    (t,) = T(text)
    return t


def hz_game(hands: Sequence[str], indicator: str, head: str = "", tail: str = "", dealer: int = 0,
            streak: int = 1, filler: str | None = None, config: RuleConfig | None = None,
            wall_size: int | None = None) -> HangzhouGame:
    """A scenario: ``head`` are the draws after the indicator in order, ``tail`` the kong
    replacements in order (first replacement first). Unused copies fill the middle of the wall
    (``filler`` first when given); ``wall_size`` cuts the wall to that many tiles (indicator
    included) from the head, the tail replacements kept at the end."""
    hs = [T(h) for h in hands]
    head_t, tail_t, ind = T(head), T(tail), k(indicator)
    used = Counter(t for h in hs for t in h) + Counter(head_t) + Counter(tail_t) + Counter([ind])
    first = T(filler) if filler else []
    used_first = Counter(first)
    rest = [t for t in range(34) for _ in range(4 - used[t] - used_first[t])]
    middle = first + rest
    # tail draws take the top of the last stack (wall[-2]) then its bottom (wall[-1]), and so on
    if len(tail_t) % 2:
        tail_t = [*tail_t, middle.pop()]
    end: list[int] = []
    for i in range(0, len(tail_t), 2):
        end = [tail_t[i], tail_t[i + 1], *end]
    wall = [ind, *head_t, *middle, *end]
    if wall_size is not None:
        wall = wall[:wall_size - len(end)] + end
    return HangzhouGame.from_scenario(hs, wall, dealer=dealer, streak=streak, config=config)


def discard(t: str) -> int:
    return A.DISCARD + k(t)

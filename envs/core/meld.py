"""``Meld``: one exposed or concealed set (面子) of a seat, the same type for every ruleset.

The engines make one whenever a seat claims or kongs, and read ``kind`` and ``tiles`` on every
turn, so it is a small slotted, frozen dataclass (compiled unchanged by Cython with the hot
path). ``tiles`` are physical kinds: a Hangzhou 白板 (kind 33) standing for the indicator
kind keeps its own kind there.
"""

from __future__ import annotations

from dataclasses import dataclass

from cnmahjong.envs.core.tiles import NUM_KINDS, NUM_SUITED_KINDS, check_kind, format

# Meld kinds (面子): 吃 CHI, 碰 PENG, 明杠 (a kong on a discard), 加杠 (a fourth added to a
# PENG), 暗杠 (a concealed kong of four held).
CHI, PENG, MINGGANG, JIAGANG, ANGANG = "chi", "peng", "minggang", "jiagang", "angang"
MELD_KINDS = (CHI, PENG, MINGGANG, JIAGANG, ANGANG)
KONG_KINDS = (MINGGANG, JIAGANG, ANGANG)

WHITE = 33
"""白板: in Hangzhou it may stand for the indicator kind inside a run (§1), so a CHI holding it
is a run of the two other tiles' suit with one gap."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A set a seat has shown or kongs: ``kind`` one of ``MELD_KINDS``, ``tiles`` its kinds.

    ``from_seat``: the discarder of a claimed meld (CHI, PENG, 明杠; an added kong keeps its
    PENG's), None for a seat's own kong. ``hidden``: a concealed kong the other seats cannot see
    yet (Hangzhou §1: until its owner's next turn; Sichuan with ``reveal_angang_tile`` off: the
    whole hand); Changsha shows every kong (§6)."""

    kind: str
    tiles: tuple[int, ...]
    from_seat: int | None = None
    hidden: bool = False

    def __post_init__(self) -> None:
        """A meld that cannot exist is refused here, whoever makes it (a scenario, a test)."""
        if self.kind not in MELD_KINDS:
            raise ValueError(f"unknown meld kind {self.kind!r}: allowed {MELD_KINDS}")
        t = self.tiles
        for k in t:
            check_kind(k, NUM_KINDS)
        if not _shape_ok(self.kind, t):
            raise ValueError(f"tiles {format(t)} do not form a {self.kind} meld")

    @property
    def exposed(self) -> bool:
        """Everything but a concealed kong (暗杠) counts as exposed (Changsha 全求人, §4)."""
        return self.kind != ANGANG

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS


def _shape_ok(kind: str, t: tuple[int, ...]) -> bool:
    """Three equal tiles for a PENG, four for a kong; a CHI is a run of one suit, where a 白板
    may fill any one place of the run (it plays the indicator kind, Hangzhou §1)."""
    if kind != CHI:
        return len(t) == (3 if kind == PENG else 4) and len(set(t)) == 1
    if len(t) != 3 or len(set(t)) != 3:
        return False
    suited = sorted(k for k in t if k < NUM_SUITED_KINDS)
    if len(suited) == 3:
        return suited[0] // 9 == suited[2] // 9 and suited[2] - suited[0] == 2
    return len(suited) == 2 and WHITE in t and suited[0] // 9 == suited[1] // 9 and suited[1] - suited[0] <= 2

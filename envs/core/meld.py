"""``Meld``: one exposed or concealed set (面子) of a seat, the same type for every ruleset.

The engines make one whenever a seat claims or kongs, and read ``kind`` and ``tiles`` on every
turn, so it is a small slotted, immutable value: compiled, an extension type (``meld.pxd``) made
by a C constructor; as Python, a slotted class. It was a frozen dataclass, whose generated
``__init__`` stays Python bytecode even in the compiled build (about 12,000 instructions a meld,
6% of a random Changsha hand). ``tiles`` are physical kinds: a Hangzhou 白板 (kind 33) standing
for the indicator kind keeps its own kind there.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from dataclasses import FrozenInstanceError
from itertools import compress
from typing import Any

from cnmahjong.envs.core.tiles import NUM_KINDS, check_kind, format

# Meld kinds (面子): 吃 CHI, 碰 PENG, 明杠 (a kong on a discard), 加杠 (a fourth added to a
# PENG), 暗杠 (a concealed kong of four held).
CHI, PENG, MINGGANG, JIAGANG, ANGANG = "chi", "peng", "minggang", "jiagang", "angang"
MELD_KINDS = (CHI, PENG, MINGGANG, JIAGANG, ANGANG)
KONG_KINDS = (MINGGANG, JIAGANG, ANGANG)

WHITE = 33
"""白板: in Hangzhou it may stand for the indicator kind inside a run (§1), so a CHI holding it
is a run of the two other tiles' suit with one gap."""

_set = object.__setattr__


class Meld:
    """A set a seat has shown or kongs: ``kind`` one of ``MELD_KINDS``, ``tiles`` its kinds.

    ``from_seat``: the discarder of a claimed meld (CHI, PENG, 明杠; an added kong keeps its
    PENG's), None for a seat's own kong. ``hidden``: a concealed kong the other seats cannot see
    yet (Hangzhou §1: until its owner's next turn; Sichuan with ``reveal_angang_tile`` off: the
    whole hand); Changsha shows every kong (§6). Immutable, compared and hashed by value."""

    __slots__ = ("kind", "tiles", "from_seat", "hidden")
    kind: str
    tiles: tuple[int, ...]
    from_seat: int | None
    hidden: bool

    def __init__(self, kind: str, tiles: tuple[int, ...], from_seat: int | None = None,
                 hidden: bool = False) -> None:
        """A meld that cannot exist is refused here, whoever makes it (a scenario, a test)."""
        if kind not in MELD_KINDS:
            raise ValueError(f"unknown meld kind {kind!r}: allowed {MELD_KINDS}")
        for k in tiles:  # compiled, a C call (tiles.pxd, cimported by meld.pxd)
            check_kind(k, NUM_KINDS)
        if not _shape_ok(kind, tiles):
            raise ValueError(f"tiles {format(tiles)} do not form a {kind} meld")
        if cython.compiled:  # C fields, read-only from Python
            self.kind, self.tiles, self.from_seat, self.hidden = kind, tiles, from_seat, hidden
        else:  # past the refusing __setattr__ below
            _set(self, "kind", kind)
            _set(self, "tiles", tiles)
            _set(self, "from_seat", from_seat)
            _set(self, "hidden", hidden)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: a Meld is immutable")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: a Meld is immutable")

    def _fields(self) -> tuple[Any, ...]:
        return (self.kind, self.tiles, self.from_seat, self.hidden)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Meld:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Meld(kind={self.kind!r}, tiles={self.tiles!r}, from_seat={self.from_seat!r}, "
                f"hidden={self.hidden!r})")

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        """Pickled as its constructor call: the same in the compiled and the pure package."""
        return (Meld, self._fields())

    def replace(self, tiles: tuple[int, ...] | None = None, hidden: bool | None = None) -> Meld:
        """This meld with other ``tiles`` or ``hidden`` (checked as a new meld)."""
        return Meld(self.kind, self.tiles if tiles is None else tiles, self.from_seat,
                    self.hidden if hidden is None else hidden)

    @property
    def exposed(self) -> bool:
        """Everything but a concealed kong (暗杠) counts as exposed (Changsha 全求人, §4)."""
        return self.kind != ANGANG

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS


def _shape_ok(kind: str, t: tuple[int, ...]) -> bool:
    """Three equal tiles for a PENG, four for a kong; a CHI is a run of one suit, where a 白板
    may fill any one place of the run (it plays the indicator kind, Hangzhou §1). ``t``'s kinds
    are checked already (ints below ``NUM_KINDS``)."""
    n = len(t)
    if kind != CHI:  # one kind n times (a C loop compiled: no tuple method called)
        if n != (3 if kind == PENG else 4):
            return False
        a = t[0]
        for i in range(1, n):  # noqa: SIM110 - a C loop (a generator would not be typed)
            if t[i] != a:
                return False
        return True
    if n != 3:
        return False
    if t[0] == t[1] or t[0] == t[2] or t[1] == t[2]:
        return False
    lo, hi, suited = 34, -1, 0  # NUM_KINDS (literals for C here: no Python int made)
    for i in range(3):
        k = t[i]
        if k < 27:  # NUM_SUITED_KINDS
            suited += 1
            if k < lo:
                lo = k
            if k > hi:
                hi = k
        elif k != 33:  # WHITE
            return False
    if suited == 3:
        return lo // 9 == hi // 9 and hi - lo == 2
    return suited == 2 and lo // 9 == hi // 9 and hi - lo <= 2


def kong_possible(hand: bytearray, melded: bytearray) -> bool:
    """Whether a seat on its turn may have a kong to offer: a kind held four times (暗杠), or one
    held beside three melded (加杠 on its PENG; three CHIs through a kind also meld three, where the
    caller's own look at the melds finds no PENG). Most turns have no kong: no 4 in the hand and no
    3 in ``melded`` (at least as long as the hand) says so in two scans; else the kinds melded three
    times are looked at in the hand (compiled, each found by memchr), which spares the caller the
    look at every meld."""
    n = len(hand)
    if len(melded) < n:
        raise ValueError(f"melded has {len(melded)} counts, the hand {n}: allowed as many or more")
    if not cython.compiled:  # as Python, builtins: the scan for a 4, then the kinds melded three times
        if 4 in hand:
            return True
        if 3 not in melded:  # no PENG (most turns): no kind to look at
            return False
        for t in compress(range(n), map((3).__eq__, melded)):  # noqa: SIM110 - no generator (cpdef)
            if hand[t]:
                return True
        return False
    p = hand  # C pointers (meld.pxd): libc's memchr scans as ``in`` does
    q = melded
    if memchr(p, 4, n) != cython.NULL:  # noqa: F821 - C only
        return True
    t = 0  # each kind melded three times found by memchr (a PENG or two: no pass over every kind)
    while t < n:
        r = memchr(q + t, 3, n - t)  # noqa: F821
        if r == cython.NULL:
            return False
        t = cython.cast("const unsigned char *", r) - q
        if p[t]:
            return True
        t += 1
    return False

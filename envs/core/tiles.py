"""Tile kinds, text form and glyphs (rules §1).

A tile is an ``int`` kind: ``m1..m9 = 0..8`` (万 characters), ``s1..s9 = 9..17``
(条/索 bamboo), ``p1..p9 = 18..26`` (筒/饼 dots). Kinds 27–33 are the honours
used by Hangzhou (``1z..7z``: 东南西北 winds, 中发白 dragons); Changsha uses
only the 27 suited kinds. The physical copies of a kind are indistinguishable,
so hands are lists of kinds or count vectors indexed by kind.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.core.checks import sequence_arg

NUM_SUITED_KINDS = 27
"""Kinds of Changsha mahjong (three suits, ranks 1–9)."""
NUM_KINDS = 34
"""All kinds including the honours 27–33 (Hangzhou)."""
COPIES = 4

SUITS = "msp"
"""Suit letters in kind order: 万 m, 条 s, 筒 p; honours use ``z``."""
SUIT_NAMES = ("万", "条", "筒")

_GLYPH_BASE = (0x1F007, 0x1F010, 0x1F019)  # 🀇 one of characters, 🀐 one of bamboo, 🀙 one of dots
# Honours 1z..7z: East, South, West, North, Red (中), Green (发), White (白).
_HONOUR_GLYPHS = ("\U0001F000", "\U0001F001", "\U0001F002", "\U0001F003",
                  "\U0001F004", "\U0001F005", "\U0001F006")

JIANG_KINDS = frozenset(k for k in range(NUM_SUITED_KINDS) if k % 9 in (1, 4, 7))
"""将 tiles: every suited tile of rank 2, 5 or 8 (§1)."""


def kind(suit: str, rank: int) -> int:
    """Kind number of ``rank`` (1–9, or 1–7 for ``z``) in suit ``m``/``s``/``p``/``z``."""
    if suit == "z":
        if not 1 <= rank <= 7:
            raise ValueError(f"honour rank {rank} out of range: allowed 1z..7z")
        return NUM_SUITED_KINDS + rank - 1
    if suit not in SUITS:
        raise ValueError(f"unknown suit {suit!r}: allowed m, s, p (and z for honours)")
    if not 1 <= rank <= 9:
        raise ValueError(f"rank {rank} out of range: allowed 1..9")
    return SUITS.index(suit) * 9 + rank - 1


def rank(k: int) -> int:
    """Rank 1–9 of a suited kind (1–7 for an honour)."""
    return k % 9 + 1 if k < NUM_SUITED_KINDS else k - NUM_SUITED_KINDS + 1


def suit(k: int) -> int:
    """Suit index 0 (m), 1 (s), 2 (p); 3 for honours."""
    return min(k // 9, 3)


def is_jiang(k: int) -> bool:
    """True for a 将 tile (rank 2, 5 or 8, §1)."""
    return k in JIANG_KINDS


def parse(text: str, *, max_copies: int = COPIES, honours: bool = False) -> list[int]:
    """Parse ``"123m456s789p"`` (digits, then their suit letter) into kinds.

    Spaces are ignored. Raises ``ValueError`` naming the offending part for a
    digit 0, an unknown letter, digits without a suit, honours when
    ``honours`` is False, or more than ``max_copies`` copies of one kind
    (set ``max_copies`` higher to parse arbitrary multisets).
    """
    if not isinstance(text, str):
        raise TypeError(f"parse() takes a string like '123m456s', got {type(text).__name__}")
    tiles: list[int] = []
    digits: list[str] = []
    allowed = "m, s, p" + (", z" if honours else "")
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch.isdigit():
            digits.append(ch)
            continue
        if ch in SUITS or (ch == "z" and honours):
            if not digits:
                raise ValueError(f"suit letter {ch!r} at position {pos} of {text!r} has no digits")
            for d in digits:
                r = int(d)
                limit = 7 if ch == "z" else 9
                if not 1 <= r <= limit:
                    raise ValueError(
                        f"bad tile {d}{ch!r} in {text!r}: ranks run 1..{limit}"
                    )
                tiles.append(kind(ch, r))
            digits = []
            continue
        raise ValueError(
            f"unexpected character {ch!r} at position {pos} of {text!r}: "
            f"use digits followed by a suit letter ({allowed})"
        )
    if digits:
        raise ValueError(f"digits {''.join(digits)!r} at the end of {text!r} have no suit letter")
    counts: dict[int, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
        if counts[t] > max_copies:
            raise ValueError(
                f"{text!r} holds {counts[t]} copies of {format([t])}: at most {max_copies} exist"
            )
    return tiles


def format(tiles: Iterable[int], *, sort: bool = True) -> str:  # noqa: A001 - public name per design
    """Text form of kinds: ``[0, 1, 2, 9] -> "123m1s"``; sorted by kind unless ``sort=False``."""
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run_suit: str | None = None
    for t in seq:
        check_kind(t, NUM_KINDS)
        s = "z" if t >= NUM_SUITED_KINDS else SUITS[t // 9]
        if run_suit is not None and s != run_suit:
            out.append(run_suit)
        out.append(str(rank(t)))
        run_suit = s
    if run_suit is not None:
        out.append(run_suit)
    return "".join(out)


def name(t: int) -> str:
    """Two-character text form of one kind, e.g. ``"5p"``."""
    return format([t])


def glyph(t: int) -> str:
    """Unicode mahjong glyph of one kind (🀇…🀡, honours 🀀…🀆)."""
    check_kind(t, NUM_KINDS)
    if t >= NUM_SUITED_KINDS:
        return _HONOUR_GLYPHS[t - NUM_SUITED_KINDS]
    return chr(_GLYPH_BASE[t // 9] + t % 9)


def glyphs(tiles: Iterable[int], *, sort: bool = True) -> str:
    """Unicode glyphs of several kinds, sorted unless ``sort=False``."""
    return "".join(glyph(t) for t in (sorted(tiles) if sort else tiles))


def display(tiles: list[int], sort: bool = True) -> str:
    """Glyphs then text (renderers); unsorted tiles (a river, in order) are named one by one."""
    if not tiles:
        return "-"
    text = format(tiles) if sort else " ".join(name(t) for t in tiles)
    return f"{glyphs(tiles, sort=sort)}  {text}"


def check_kind(t: int, num_kinds: int = NUM_SUITED_KINDS) -> int:
    """Return ``t`` if it is a valid kind below ``num_kinds``, else raise ``ValueError``."""
    if type(t) is int and 0 <= t < num_kinds:  # the common case: no operator lookup (every meld checks its tiles)
        return t
    try:
        k = operator.index(t)
    except TypeError:
        raise ValueError(f"tile kind {t!r} is not an integer: allowed 0..{num_kinds - 1}") from None
    if isinstance(t, bool) or not 0 <= k < num_kinds:
        raise ValueError(f"tile kind {t!r} out of range: allowed 0..{num_kinds - 1}")
    return k


def to_counts(tiles: Iterable[int], num_kinds: int = NUM_SUITED_KINDS) -> list[int]:
    """Count vector (length ``num_kinds``) of a list of kinds; raises on a bad kind or a 5th copy."""
    counts = [0] * num_kinds
    for t in tiles:
        t = check_kind(t, num_kinds)
        counts[t] += 1
        if counts[t] > COPIES:
            raise ValueError(f"more than {COPIES} copies of {name(t)}: no fifth copy exists")
    return counts


def from_counts(counts: Sequence[int]) -> list[int]:
    """Sorted list of kinds from a count vector."""
    return [t for t, c in enumerate(counts) for _ in range(c)]


def tiles_arg(tiles: str | Sequence[int], what: str = "tiles", honours: bool = False) -> list[int]:
    """Accept either tile text (with ``1z..7z`` when ``honours``) or a sequence of kinds (the
    public APIs take both).

    Sets, dicts, None and scalars are rejected with a ``TypeError`` naming ``what``:
    a hand is a multiset and a wall an order, which neither a set nor a dict keeps."""
    if isinstance(tiles, str):
        return parse(tiles, honours=honours)
    return [check_kind(t, NUM_KINDS) for t in sequence_arg(tiles, what)]


@cython.locals(size=cython.int, k=cython.Py_ssize_t, p=cython.p_uchar)
def melds_of(hand: Sequence[int]) -> int:
    """How many melds a concealed hand of counts stands beside: 14 (or 13) tiles less 3 per meld."""
    if cython.compiled and (type(hand) is bytearray or type(hand) is bytes):  # a game's counts: a C loop
        p = hand  # (the builtin sum iterates them as Python ints)
        size = 0
        for k in range(len(hand)):
            size += p[k]
    else:
        size = sum(hand)
    return (14 - size) // 3 if size % 3 == 2 else (13 - size) // 3


def counts_copy(counts: Sequence[int]) -> bytearray:
    """A ``bytearray`` copy of the count vector ``counts`` (a game's row): sliced when it is one
    (``bytearray()`` of a bytearray is a type call, several times the slice)."""
    return counts[:] if type(counts) is bytearray else bytearray(counts)

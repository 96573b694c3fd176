"""Changsha patterns: waits (§2), opening-hand wins (§3.2), small and big wins (§3–§4).

Pure functions over kinds; no game state. The engine calls the count-vector
forms (``wait_mask``, ``classify``); the friendlier forms take tile text or
lists of kinds and are the public hand-evaluator API.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.changsha.rules import OPENING_PATTERNS, RuleConfig
from cnmahjong.envs.core.checks import bool_arg, int_arg
from cnmahjong.envs.core.meld import ANGANG, CHI, MINGGANG, PENG, Meld
from cnmahjong.envs.core.meld import JIAGANG as JIAGANG  # re-exported with the other kinds
from cnmahjong.envs.core.shapes import (
    JIANG_KIND_MASK,
    count_bytes,
    hand_wait_mask,
    is_all_triplets,
    is_seven_pairs,
    mask_kinds,
    new_row,
    row_values,
    seven_pairs_shanten,
    shanten_one_changed_row,
    standard_pair_mask,
    standard_shanten,
)
from cnmahjong.envs.core.tiles import NUM_SUITED_KINDS, format, tiles_arg, to_counts

# The meld type (面子) and its kinds are the core's (``cnmahjong.envs.core.meld``, shared with
# Hangzhou), imported here for this module's public API. Every kong is shown face up in Changsha
# (§6), but a concealed kong (暗杠) still differs for 全求人 and 豪华将将胡.

SMALL_PATTERNS = ("PINGHU",)
BIG_PATTERNS = (
    "PENGPENG", "JIANGJIANG", "QINGYISE", "QIXIAODUI", "LONGQIDUI", "HAOHUA_JIANGJIANG",
    "QUANQIUREN", "TIANHU", "DIHU", "HAIDI_LAOYUE", "HAIDI_PAO", "GANGSHANG_KAIHUA",
    "QIANGGANG", "GANGSHANG_PAO",
)
ALL_JIANG_KINDS = frozenset(mask_kinds(JIANG_KIND_MASK))


def as_meld(m: Meld | Sequence[int] | str) -> Meld:
    """Accept a ``Meld`` or plain kinds/text: 3 equal = PENG, a run = CHI, 4 equal = 明杠."""
    if isinstance(m, Meld):
        return m
    tiles = tuple(sorted(tiles_arg(m)))
    if len(tiles) == 4:
        return Meld(MINGGANG, tiles)
    if len(tiles) == 3 and len(set(tiles)) == 1:
        return Meld(PENG, tiles)
    return Meld(CHI, tiles)


def meld_counts(melds: Iterable[Meld]) -> list[int]:
    """Count vector of all tiles in melds."""
    c = [0] * NUM_SUITED_KINDS
    for m in melds:
        for t in m.tiles:
            c[t] += 1
    return c


# --------------------------------------------------------------------- waits
def wait_mask(c: Sequence[int], melded: Sequence[int], num_melds: int) -> int:
    """Waits (§2) as a kind bitmask: standard (any pair), seven pairs, all-将.

    ``c`` is the 3n+1 concealed count vector, ``melded`` the counts of tiles
    in melds (kongs included). A kind of which the player holds all four
    copies, concealed or melded, is never a wait.
    """
    b = count_bytes(c)
    m = count_bytes(melded)
    return hand_wait_mask(b, m, num_melds, JIANG_KIND_MASK if _all_jiang(b) and _all_jiang(m) else 0)


_JIANG = bytes(1 if k % 9 in (1, 4, 7) else 0 for k in range(NUM_SUITED_KINDS))
"""1 for each kind of rank 2, 5 or 8 (将)."""

_NOT_JIANG_0, _NOT_JIANG_1, _NOT_JIANG_2 = (
    int.from_bytes(bytes(0 if _JIANG[k] else 0xFF for k in range(8 * w, 8 * w + 8)), "little") for w in range(3))
"""Kinds 0-7, 8-15 and 16-23 outside 将, a byte 0xFF each, as the compiled build reads counts: eight
kinds in one 64-bit word (C constants there, patterns.pxd)."""


@cython.ccall
@cython.locals(k=cython.int, n=cython.int, p=cython.p_uchar, j=cython.p_uchar, word=cython.ulonglong,
               outside=cython.ulonglong, start=cython.int)
def _all_jiang(c: Sequence[int]) -> bool:
    """Every tile counted in ``c`` has rank 2, 5 or 8 (a kind past the suits never has)."""
    b = count_bytes(c)
    n = len(b)
    jiang = _JIANG  # held by a local while read through a C pointer
    p = b
    j = jiang
    start = 0
    if cython.compiled and n >= 24:  # compiled: kinds 0-23 eight at a time
        outside = word = 0
        for k in range(3):
            memcpy(cython.address(word), p + 8 * k, 8)  # noqa: F821 - C only (patterns.pxd): an unaligned load
            outside |= word & (_NOT_JIANG_0 if k == 0 else _NOT_JIANG_1 if k == 1 else _NOT_JIANG_2)
        if outside:
            return False
        start = 24
    for k in range(start, n):  # noqa: SIM110 - a C loop (a generator would not be typed)
        if p[k] and (k >= 27 or not j[k]):  # NUM_SUITED_KINDS (a literal for the C loop)
            return False
    return True


def waits(concealed: str | Iterable[int], melds: Iterable[Meld | Sequence[int] | str] = ()) -> set[int]:
    """Kinds that complete ``concealed`` (3n+1 tiles) with ``melds`` into any §2 shape.

    Waits ignore real/false 将: a false-将 wait may still not be a legal win
    (see ``classify``). Raises ``ValueError`` for a bad tile count or a fifth copy.
    """
    tiles = tiles_arg(concealed)
    ms = [as_meld(m) for m in melds]
    if len(tiles) % 3 != 1 or len(tiles) + 3 * len(ms) != 13:
        raise ValueError(
            f"waits() needs 13 tiles counting 3 per meld: got {len(tiles)} concealed "
            f"and {len(ms)} melds"
        )
    c = to_counts(tiles)
    melded = meld_counts(ms)
    _check_copies(c, melded)
    return set(mask_kinds(wait_mask(c, melded, len(ms))))


@cython.locals(best=cython.int, s=cython.int)
def shanten(c: Sequence[int], melded: Sequence[int], num_melds: int) -> int:
    """Shanten (向听数) over the three §2 shapes: 0 = ready, -1 = complete.

    ``c``: concealed counts (13 or 14 tiles counting 3 per meld); ``melded``:
    counts of tiles in melds; false 将 allowed, as in ``waits``. Compiled, a C call from the greedy
    player, and its shapes' shanten C calls too (patterns.pxd).
    """
    best = standard_shanten(c, num_melds)
    if num_melds == 0:
        s = seven_pairs_shanten(c)
        if s < best:
            best = s
    if _all_jiang(melded):
        n = sum(c)
        non_jiang = n - (c[1] + c[4] + c[7] + c[10] + c[13] + c[16] + c[19] + c[22] + c[25])
        best = min(best, non_jiang - (1 if n % 3 == 2 else 0))
    return best


def shanten_after_draw(c: Sequence[int], melded: Sequence[int], num_melds: int) -> list[int]:
    """``shanten(c + one tile of kind k, melded, num_melds)`` for every kind k at once (9 where
    ``c`` holds all four copies): what a draw of each kind would make of the hand (进张)."""
    return _shanten_one_changed(c, melded, num_melds, +1)


def shanten_after_discard(c: Sequence[int], melded: Sequence[int], num_melds: int) -> list[int]:
    """``shanten(c - one tile of kind k, melded, num_melds)`` for every kind k at once (9 for
    kinds not held): what each discard would leave."""
    return _shanten_one_changed(c, melded, num_melds, -1)


@cython.ccall
def _shanten_one_changed(c: Sequence[int], melded: Sequence[int], num_melds: int, delta: int) -> list[int]:
    """``shanten`` over the three §2 shapes with one tile of each kind added or removed."""
    row = new_row(NUM_SUITED_KINDS)
    shanten_changed_row(c, melded, num_melds, delta, row)
    return row_values(row, NUM_SUITED_KINDS)


@cython.locals(k=cython.int, x=cython.int, n=cython.int, v=cython.int, o=cython.int, non_jiang=cython.int,
               all_jiang=cython.int, jiang=cython.longlong, p=cython.p_uchar, m=cython.p_uchar,
               out=cython.p_uchar, start=cython.int, word=cython.ulonglong, mword=cython.ulonglong,
               mask=cython.ulonglong, outside=cython.ulonglong)  # the arguments: patterns.pxd
def shanten_changed_row(c: Sequence[int], melded: Sequence[int], num_melds: int, delta: int, row: bytearray) -> None:
    """``shanten`` over the three §2 shapes with one tile of each kind added (``delta`` +1) or
    removed (-1), as a row written into ``row`` (``shapes.row_values``: each value plus one): the
    greedy player's 进张 count reads it without a list between."""
    counts, melded_counts = count_bytes(c), count_bytes(melded)  # a game's bytearrays as they are
    if len(counts) != NUM_SUITED_KINDS or len(melded_counts) != NUM_SUITED_KINDS:  # read through C pointers below
        raise ValueError(f"counts must hold {NUM_SUITED_KINDS} kinds, got {len(counts)} and {len(melded_counts)}")
    shanten_one_changed_row(counts, num_melds, delta, row)  # standard and seven pairs (a C call, patterns.pxd)
    out = row
    p, m = counts, melded_counts
    jiang = JIANG_KIND_MASK  # 27 bits: a C integer in the compiled build
    n = non_jiang = 0
    all_jiang = 1
    start = 0
    if cython.compiled:  # kinds 0-23 eight at a time (64-bit words, _byte_sum), the last three below
        outside = word = mword = 0
        for k in range(3):
            memcpy(cython.address(word), p + 8 * k, 8)  # noqa: F821 - C only (patterns.pxd): an unaligned load
            memcpy(cython.address(mword), m + 8 * k, 8)  # noqa: F821
            mask = _NOT_JIANG_0 if k == 0 else _NOT_JIANG_1 if k == 1 else _NOT_JIANG_2
            n += _byte_sum(word)  # noqa: F821 - C only (shapes.pxd, cimported by patterns.pxd)
            non_jiang += _byte_sum(word & mask)  # noqa: F821
            outside |= mword & mask
        all_jiang = 0 if outside else 1
        start = 27 if outside else 24  # a meld outside 将: the loop's own break
    for k in range(start, NUM_SUITED_KINDS):  # one pass: the hand's tiles, those outside 将, a meld outside 将
        n += p[k]
        if not jiang >> k & 1:
            if m[k]:  # a meld outside ranks 2, 5, 8: no all-将 hand
                all_jiang = 0
                break
            non_jiang += p[k]
    non_jiang -= 1 if (n + delta) % 3 == 2 else 0
    # all 将: every tile outside ranks 2, 5, 8 is one exchange (no row value is above 10)
    if all_jiang and non_jiang + (delta if delta < 0 else 0) + 1 < 10:
        for k in range(NUM_SUITED_KINDS):
            x = p[k] + delta
            if 0 <= x <= 4:
                v = non_jiang + (0 if jiang >> k & 1 else delta) + 1  # the shanten plus one
                o = out[k]
                if v < o:
                    out[k] = v


def is_ready(concealed: str | Iterable[int], melds: Iterable[Meld | Sequence[int] | str] = ()) -> bool:
    """Ready (听牌, §2): at least one wait."""
    return bool(waits(concealed, melds))


def _check_copies(c: Sequence[int], melded: Sequence[int]) -> None:
    for k in range(NUM_SUITED_KINDS):
        if c[k] + melded[k] > 4:
            raise ValueError(f"{c[k] + melded[k]} copies of {format([k])} in hand and melds: at most 4")


# ------------------------------------------------------- opening wins §3.2
def opening_patterns(hand: str | Iterable[int]) -> set[str]:
    """The §3.2 opening-hand patterns present in a dealt hand (13 or 14 tiles)."""
    return set(opening_present(_dealt_counts(hand)))


_AT_LEAST = [bytes(1 if x >= n else 0 for x in range(256)) for n in range(5)]  # byte tables: count >= n


def opening_present(c: Sequence[int]) -> list[str]:
    """Opening patterns (§3.2) present in dealt counts ``c``, in action-table order (fast path:
    byte tricks that run in C as Python; compiled, ``_opening_present_c`` counts in one C loop)."""
    b = bytes(c)
    if cython.compiled and len(b) == 27:  # NUM_SUITED_KINDS
        return _opening_present_c(b)
    suits = (sum(b[0:9]), sum(b[9:18]), sum(b[18:27]))
    out = []
    if 4 in b:
        out.append("SIXI")
    if b[1] + b[4] + b[7] + b[10] + b[13] + b[16] + b[19] + b[22] + b[25] == 0:
        out.append("BANBAN")
    if 0 in suits:
        out.append("QUEYISE")
    if b.translate(_AT_LEAST[3]).count(1) >= 2:  # two triplets
        out.append("LIULIUSHUN")
    pairs = b.translate(_AT_LEAST[2])  # 1 where a pair is held; a rank paired in all three suits:
    if int.from_bytes(pairs[0:9], "little") & int.from_bytes(pairs[9:18], "little") \
            & int.from_bytes(pairs[18:27], "little"):
        out.append("SANTONG")
    if (suits[0] == 1 and b[4]) or (suits[1] == 1 and b[13]) or (suits[2] == 1 and b[22]):
        out.append("YIZHIHUA")
    return out



@cython.cfunc
@cython.locals(p=cython.p_uchar, k=cython.int, n=cython.int, s0=cython.int, s1=cython.int, s2=cython.int,
               four=cython.bint, triplets=cython.int, mid=cython.int, santong=cython.bint, out=list)
def _opening_present_c(b: bytes) -> list:
    """``opening_present`` of 27 counts, counted in one C loop (the same patterns, in the same order:
    ``tests/test_typed.py`` compares the two)."""
    p = b
    s0 = s1 = s2 = triplets = mid = 0
    four = santong = False
    for k in range(27):
        n = p[k]
        if k < 9:
            s0 += n
        elif k < 18:
            s1 += n
        else:
            s2 += n
        if n == 4:
            four = True
        if n >= 3:
            triplets += 1
        if k % 3 == 1:  # ranks 2, 5 and 8
            mid += n
        if k < 9 and n >= 2 and p[k + 9] >= 2 and p[k + 18] >= 2:
            santong = True
    out = []
    if four:
        out.append("SIXI")
    if mid == 0:
        out.append("BANBAN")
    if s0 == 0 or s1 == 0 or s2 == 0:
        out.append("QUEYISE")
    if triplets >= 2:
        out.append("LIULIUSHUN")
    if santong:
        out.append("SANTONG")
    if (s0 == 1 and p[4]) or (s1 == 1 and p[13]) or (s2 == 1 and p[22]):
        out.append("YIZHIHUA")
    return out


def opening_shown(hand: str | Iterable[int], pattern: str) -> list[int]:
    """The tiles a declaration of ``pattern`` shows (§3.2 table); raises if absent."""
    c = _dealt_counts(hand)
    if pattern not in OPENING_PATTERNS:
        raise ValueError(f"unknown opening pattern {pattern!r}: allowed {OPENING_PATTERNS}")
    shown = _opening_shown(c, pattern)
    if shown is None:
        raise ValueError(f"hand {format(tiles_arg(hand))} has no {pattern}")
    return shown


def _dealt_counts(hand: str | Iterable[int]) -> list[int]:
    tiles = tiles_arg(hand)
    if len(tiles) not in (13, 14):
        raise ValueError(f"a dealt hand has 13 or 14 tiles, got {len(tiles)}")
    return to_counts(tiles)


def _opening_shown(c: Sequence[int], pattern: str) -> list[int] | None:
    """Shown tiles of one opening pattern in counts ``c``, or None when absent.

    Where a pattern occurs more than once the lowest kinds are shown; it still
    counts once (§3.2 [decision]).
    """
    whole = [k for k in range(NUM_SUITED_KINDS) for _ in range(c[k])]
    suit_sizes = [sum(c[9 * s:9 * s + 9]) for s in range(3)]
    if pattern == "SIXI":
        quads = [k for k in range(NUM_SUITED_KINDS) if c[k] == 4]
        return [quads[0]] * 4 if quads else None
    if pattern == "BANBAN":
        return whole if not any(c[k] for k in ALL_JIANG_KINDS) else None
    if pattern == "QUEYISE":
        return whole if 0 in suit_sizes else None
    if pattern == "LIULIUSHUN":
        trips = [k for k in range(NUM_SUITED_KINDS) if c[k] >= 3]
        return [trips[0]] * 3 + [trips[1]] * 3 if len(trips) >= 2 else None
    if pattern == "SANTONG":
        for r in range(9):
            if all(c[9 * s + r] >= 2 for s in range(3)):
                return [9 * s + r for s in range(3) for _ in range(2)]
        return None
    if pattern == "YIZHIHUA":
        for s in range(3):
            if suit_sizes[s] == 1 and c[9 * s + 4] == 1:
                return whole
        return None
    raise ValueError(f"unknown opening pattern {pattern!r}: allowed {OPENING_PATTERNS}")


# ------------------------------------------------------ win classification
@dataclass(frozen=True, slots=True)
class WinContext:
    """How the winning tile arrived (§4 situation patterns).

    ``haidi``: the winning tile is the 海底 tile (self-drawn: 海底捞月, else
    海底炮). ``kong_draw``: it comes from a 开杠 dice draw (self-drawn:
    杠上开花, else 杠上炮), and ``kong_draw_wins`` says how many of the drawn
    tiles win for this player (1 or 2). ``robbing_kong``: 抢杠 of an open
    开杠 (robbing a 补张 is an ordinary discard win, §6.2).
    """

    self_drawn: bool = False
    haidi: bool = False
    kong_draw: bool = False
    kong_draw_wins: int = 1
    robbing_kong: bool = False
    tianhu: bool = False
    dihu: bool = False

    def __post_init__(self) -> None:
        for name in ("self_drawn", "haidi", "kong_draw", "robbing_kong", "tianhu", "dihu"):
            bool_arg(getattr(self, name), name)
        int_arg(self.kong_draw_wins, "kong_draw_wins", low=1, high=2)
        if self.robbing_kong and self.self_drawn:
            raise ValueError("robbing a kong (抢杠) is a win on another player's tile, not self-drawn")
        if self.tianhu and (not self.self_drawn or self.dihu):
            raise ValueError("天胡 is the dealer's self-drawn win on his dealt tiles")
        if self.dihu and self.self_drawn:
            raise ValueError("地胡 is a win on the dealer's first discard, not self-drawn")


@dataclass(frozen=True, slots=True)
class Win:
    """A legal win: its patterns (§3–§4 ids), 合 count and whether it is big."""

    patterns: tuple[str, ...]
    he: int
    big: bool


def classify(
    c: Sequence[int],
    melds: Sequence[Meld],
    winning_tile: int,
    ctx: WinContext,
    config: RuleConfig,
) -> Win | None:
    """Classify 14 tiles (``c`` concealed counts including the winning tile, plus melds).

    Returns None when the shape is incomplete, or complete only with a false
    将 and no big pattern (§4: not a win).
    """
    pair_mask = standard_pair_mask(c)
    seven = not melds and is_seven_pairs(c)
    melded = meld_counts(melds)
    all_jiang = _all_jiang(c) and _all_jiang(melded)
    if not (pair_mask or seven or all_jiang):
        return None
    big: list[tuple[str, int]] = []  # (pattern, 合 under stacking)
    quad_he = config.quad_he
    if pair_mask and all(m.kind != CHI for m in melds) and is_all_triplets(c):
        big.append(("PENGPENG", 1))
    if all_jiang:
        k = sum(1 for m in melds if m.kind == ANGANG) + sum(
            1 for t in ALL_JIANG_KINDS
            if c[t] == 4 and (ctx.self_drawn or t != winning_tile)
        )
        big.append(("HAOHUA_JIANGJIANG", k + 1) if quad_he and k else ("JIANGJIANG", 1))
    suits = {t // 9 for t in range(NUM_SUITED_KINDS) if c[t] or melded[t]}
    if len(suits) == 1:
        big.append(("QINGYISE", 1))
    if seven:
        k = sum(1 for x in c if x == 4)
        big.append(("LONGQIDUI", k + 1) if quad_he and k else ("QIXIAODUI", 1))
    if (config.quanqiuren and len(melds) == 4 and all(m.exposed for m in melds)
            and (not ctx.self_drawn or config.quanqiuren_self_draw)):
        big.append(("QUANQIUREN", 1))
    if ctx.tianhu:
        big.append(("TIANHU", 1))
    if ctx.dihu:
        big.append(("DIHU", 1))
    if ctx.haidi:
        big.append(("HAIDI_LAOYUE" if ctx.self_drawn else "HAIDI_PAO", 1))
    if ctx.kong_draw:
        big.append(("GANGSHANG_KAIHUA" if ctx.self_drawn else "GANGSHANG_PAO", ctx.kong_draw_wins))
    if ctx.robbing_kong:
        big.append(("QIANGGANG", 1))
    if big:
        he = sum(v for _, v in big) if config.big_win_stacking else 1
        return Win(tuple(p for p, _ in big), he, True)
    if pair_mask & JIANG_KIND_MASK:
        return Win(("PINGHU",), 0, False)
    return None


def classify_win(
    concealed: str | Iterable[int],
    melds: Iterable[Meld | Sequence[int] | str] = (),
    winning_tile: int | str | None = None,
    ctx: WinContext | None = None,
    config: RuleConfig | None = None,
) -> Win | None:
    """Public form of ``classify``: ``concealed`` holds the 14 − 3·melds tiles, winning tile included.

    ``winning_tile`` defaults to the last tile of ``concealed``.
    """
    tiles = tiles_arg(concealed)
    ms = [as_meld(m) for m in melds]
    if len(tiles) + 3 * len(ms) != 14:
        raise ValueError(
            f"a winning hand has 14 tiles counting 3 per meld: got {len(tiles)} concealed "
            f"and {len(ms)} melds"
        )
    if winning_tile is None:
        winning_tile = tiles[-1]
    elif isinstance(winning_tile, str):
        (winning_tile,) = tiles_arg(winning_tile)
    if winning_tile not in tiles:
        raise ValueError(f"winning tile {format([winning_tile])} is not among {format(tiles)}")
    c = to_counts(tiles)
    _check_copies(c, meld_counts(ms))
    return classify(c, ms, winning_tile, ctx or WinContext(), config or RuleConfig())

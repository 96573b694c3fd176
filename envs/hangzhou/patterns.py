"""Hangzhou hand evaluator: 财神 wildcards, the 白板 stand-in, 爆头 and the reading of a win.

Rules §1 and §3 of ``shared/rules/hangzhou.md``. Tiles are physical kinds
0–33 everywhere (a 白板 is kind 33 even where it plays the indicator kind). The
turned-up indicator kind ``K`` decides the rest (§1):

- the three other copies of ``K`` are 财神 (wildcards); the four 白板 play kind
  ``K`` (白板代替财神牌) in every set, pair and wait;
- **[decision]** when ``K`` is 白板 itself, the other 白板 are the 财神 and
  nothing substitutes.

``natural(counts, K)`` turns physical counts into the natural counts and the
number of 财神 that ``cnmahjong.envs.core.wild`` analyses; the public functions below take
tile text or kinds, the ``*_counts`` forms take count vectors (the engine's).
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cnmahjong.envs.core import wild
from cnmahjong.envs.core.checks import bool_arg
from cnmahjong.envs.core.tiles import COPIES, NUM_KINDS, NUM_SUITED_KINDS, check_kind, format, parse
from cnmahjong.envs.core.wild import complete, sets_need
from cnmahjong.envs.hangzhou import actions as A
from cnmahjong.envs.hangzhou.scoring import exponent

WHITE = 33
"""白板 (7z), the stand-in for the indicator kind (§1)."""


def _tiles(tiles: str | Iterable[int], what: str) -> list[int]:
    """Tile text (honours allowed) or kinds, checked."""
    if isinstance(tiles, str):
        return parse(tiles, honours=True)
    if tiles is None or isinstance(tiles, (bytes, dict, set, frozenset)) or not hasattr(tiles, "__iter__"):
        raise TypeError(f"{what} must be tile text like '123m5z' or a list of kinds 0..33, "
                        f"got {type(tiles).__name__} {tiles!r}")
    return [check_kind(t, NUM_KINDS) for t in tiles]


def check_indicator(indicator: object) -> int:
    """The indicator kind (0..33) or a ``ValueError``/``TypeError`` naming it."""
    if indicator is None or isinstance(indicator, bool):
        raise TypeError(f"indicator must be a tile kind 0..33 (the turned-up tile), got {indicator!r}")
    return check_kind(indicator, NUM_KINDS)  # type: ignore[arg-type]


def natural_kind(t: int, indicator: int) -> int:
    """The kind a physical non-财神 tile plays: a 白板 plays the indicator kind (§1)."""
    return indicator if t == WHITE and indicator != WHITE else t


_NATURAL = bytearray(NUM_KINDS)
"""``win_counts``' natural counts, written again at each compiled call (never handed out)."""


def in_play(t: int, indicator: int) -> int:
    """Copies of physical kind ``t`` in play: 3 for the indicator kind (one is turned up)."""
    return COPIES - 1 if t == indicator else COPIES


def _natural_into(q: Any, p: Any, indicator: int) -> None:
    """``natural``'s counts of the 34 physical counts at C pointer ``p``, written at ``q`` (compiled
    only): copied whole, then as ``natural``'s Python lines: the indicator kind plays the 白板's
    count, the 白板 (kind 33: WHITE) none (both lines clear it when the indicator is 白板)."""
    memcpy(q, p, 34)  # noqa: F821 - C only (patterns.pxd)
    q[indicator] = p[33]
    q[33] = 0


def natural(counts: Sequence[int], indicator: int) -> tuple[bytes, int]:
    """(natural counts as 34 bytes, number of 财神) of physical counts ``counts`` (§1). Compiled,
    a game's count vector (34 bytes) is copied in a C buffer and made bytes once (patterns.pxd)."""
    if cython.compiled and (type(counts) is bytearray or type(counts) is bytes) and len(counts) == 34 \
            and 0 <= indicator < 34:  # NUM_KINDS (literals for C)
        p = counts  # buf: patterns.pxd's C buffer (this branch runs compiled only)
        _natural_into(buf, p, indicator)  # noqa: F821
        return buf[:34], p[indicator]  # noqa: F821
    b = bytearray(counts)
    w = b[indicator]
    b[indicator] = b[WHITE]  # when the indicator is 白板 both lines clear it
    b[WHITE] = 0
    return bytes(b), w


# ----------------------------------------------------------------------- melds
def meld_tiles(meld: object, indicator: int) -> tuple[int, ...]:
    """A meld (CHI run, PENG or kong) as sorted physical kinds, checked against the rules: no 财神
    in any meld (§2), and its tiles, 白板 playing the indicator kind, form a run of one suit, a
    triplet or four of a kind."""
    if hasattr(meld, "tiles"):  # a Meld object
        meld = meld.tiles
    tiles = tuple(sorted(_tiles(meld, "meld")))
    if indicator in tiles:
        raise ValueError(f"meld {format(tiles)} holds a 财神 ({format([indicator])}): a 财神 never "
                         "joins a meld (§2)")
    nat = sorted(natural_kind(t, indicator) for t in tiles)
    same = len(set(nat)) == 1
    run = (len(nat) == 3 and nat[2] < NUM_SUITED_KINDS and nat[0] // 9 == nat[2] // 9
           and nat == list(range(nat[0], nat[0] + 3)))
    if not ((len(nat) in (3, 4) and same) or run):
        raise ValueError(f"meld {format(tiles)} is not a run, triplet or kong"
                         + (f" (白板 playing {format([indicator])})" if WHITE in tiles else ""))
    return tiles


def _hand(concealed: str | Iterable[int], melds: Iterable[str | Sequence[int]], indicator: object,
          size: int) -> tuple[list[int], list[int], int, int]:
    """Checked (concealed counts, held counts incl. melds, meld count, indicator)."""
    k = check_indicator(indicator)
    tiles = _tiles(concealed, "concealed")
    if melds is None or isinstance(melds, str):
        raise TypeError(f"melds must be a list of melds (each tile text or kinds), got {melds!r}")
    ms = [meld_tiles(m, k) for m in melds]
    if len(tiles) + 3 * len(ms) != size:
        raise ValueError(f"a hand here has {size} tiles counting 3 per meld: got {len(tiles)} concealed "
                         f"and {len(ms)} melds")
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    held = list(c)
    for m in ms:
        for t in m:
            held[t] += 1
    for t in range(NUM_KINDS):
        if held[t] > in_play(t, k):
            raise ValueError(f"{held[t]} copies of {format([t])} held: only {in_play(t, k)} are in play"
                             + (" (one is the turned-up indicator)" if t == k else ""))
    return c, held, len(ms), k


@lru_cache(maxsize=NUM_KINDS)
def chi_runs(indicator: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per physical discard t: (CHI action, physical kinds of the two hand tiles) of every run
    it can complete, the 白板 standing for the indicator kind (a 财神 discard is never claimed)."""
    table = []
    for t in range(NUM_KINDS):
        n = natural_kind(t, indicator)
        runs = []
        if n < NUM_SUITED_KINDS and t != indicator:
            r = n % 9
            for a in A.CHI_ACTIONS:
                lo, hi = A.chi_offsets(a)
                if 0 <= r + lo <= 8 and 0 <= r + hi <= 8:
                    runs.append((a, _plays(n + lo, indicator), _plays(n + hi, indicator)))
        table.append(tuple(runs))
    return tuple(table)


def _plays(n: int, indicator: int) -> int:
    """The physical kind that plays natural kind ``n`` in a meld: the 白板 for the indicator kind."""
    return WHITE if n == indicator and indicator != WHITE else n


# ------------------------------------------------------------ count-vector forms
def win_counts(c: Sequence[int], indicator: int, melds: int = 0) -> bool:
    """§3: the physical concealed counts ``c`` (3n+2 tiles) with ``melds`` melds are a win:
    standard form, or seven pairs when there are no melds. Compiled, a game's count vector's
    natural counts are written into one module buffer (``_NATURAL``, patterns.pxd) and tested
    there, where ``natural`` makes a bytes object and a tuple at every turn of a hand."""
    if cython.compiled and type(c) is bytearray and len(c) == 34 and 0 <= indicator < 34:  # NUM_KINDS
        p = c
        q = _NATURAL
        _natural_into(q, p, indicator)
        return complete(_NATURAL, p[indicator], not melds)
    b, w = natural(c, indicator)
    return complete(b, w, not melds)


def wait_mask_counts(c: Sequence[int], held: Sequence[int], indicator: int, melds: int = 0) -> int:
    """Waits (physical kinds, bitmask) of the 3n+1 concealed counts ``c``; ``held`` counts the
    player's tiles in hand and melds: a kind of which he holds every copy in play is no wait."""
    b, w = natural(c, indicator)
    nat = wild.standard_completions(b, w)
    joker = wild.standard_need(b) <= w + 1
    if not melds:
        nat |= wild.seven_pairs_completions(b, w)
        joker = joker or wild.is_seven_pairs(b, w + 1)
    mask = nat & ~((1 << indicator) | (1 << WHITE))
    if indicator != WHITE and nat >> indicator & 1:
        mask |= 1 << WHITE  # the kind the 白板 plays
    if joker:
        mask |= 1 << indicator
    m = mask
    while m:
        low = m & -m
        t = low.bit_length() - 1
        if held[t] >= in_play(t, indicator):
            mask ^= low
        m ^= low
    return mask


def baotou_counts(c: Sequence[int], indicator: int, melds: int = 0) -> tuple[bool, bool]:
    """爆头 readiness (§3) of the 13-tile hand ``c`` (3n+1 concealed): (by sets, by six pairs).
    One 财神 is taken out; the rest, other 财神 still wild, must be complete sets (four with the
    melds) or, without melds, six pairs."""
    b, w = natural(c, indicator)
    if w == 0:
        return False, False
    sets = sets_need(b) <= w - 1
    pairs = not melds and sum(b) + w == 13 and wild.pairs_need(b) <= w - 1
    return sets, pairs


# ------------------------------------------------------------------ readings
@dataclass(frozen=True, slots=True)
class WinReading:
    """One way to read a winning hand (§3, §4): seven pairs or standard, 爆头 or not."""

    qidui: bool = False
    """七对子."""
    qing: bool = False
    """清七对: seven pairs with no 财神 and no quad (§4 decision)."""
    quads: int = 0
    """Quads inside the seven pairs (豪华), four identical non-财神 tiles."""
    baotou: bool = False
    """爆头: self-drawn from the 爆头-ready state."""


def readings_counts(c: Sequence[int], indicator: int, melds: int = 0, drawn: int | None = None,
                    self_drawn: bool = True) -> list[WinReading]:
    """Every reading of the 14-tile win ``c`` (empty if it is no win). ``drawn`` is the physical
    tile just drawn (the 爆头 test looks at the hand before it); a discard win is never 爆头."""
    b, w = natural(c, indicator)
    out: list[WinReading] = []
    std = wild.standard_need(b) <= w
    qd = not melds and wild.is_seven_pairs(b, w)
    quads = b.count(4) if qd else 0
    if std:
        out.append(WinReading())
    if qd:
        out.append(WinReading(qidui=True, qing=w == 0 and quads == 0, quads=quads))
    if self_drawn and drawn is not None and (std or qd):
        before = list(c)
        before[drawn] -= 1
        by_sets, by_pairs = baotou_counts(before, indicator, melds)
        if by_sets:
            out.append(WinReading(baotou=True))
        if by_pairs:
            out.append(WinReading(qidui=True, quads=quads, baotou=True))
    return out


def exponent_of(r: WinReading, piao: int = 0, kongs: int = 0) -> int:
    """The §4 exponent of a reading: e summed over the table (飘 count only in a 爆头 win)."""
    return exponent(qidui=r.qidui, qing=r.qing, quads=r.quads, baotou=r.baotou, piao=piao, kongs=kongs)


def best_reading_counts(c: Sequence[int], indicator: int, melds: int = 0, drawn: int | None = None,
                        self_drawn: bool = True, piao: int = 0, kongs: int = 0) -> tuple[WinReading, int] | None:
    """The reading with the highest multiplier (§3) and its exponent, or None if no win."""
    rs = readings_counts(c, indicator, melds, drawn, self_drawn)
    if not rs:
        return None
    best = max(rs, key=lambda r: exponent_of(r, piao, kongs))
    return best, exponent_of(best, piao, kongs)


# ------------------------------------------------------------------ public API
def is_win(concealed: str | Iterable[int], melds: Iterable[str | Sequence[int]] = (), *,
           indicator: int) -> bool:
    """§3: 14 tiles counting 3 per meld form a standard hand or seven pairs, 财神 wild."""
    c, _, n, k = _hand(concealed, melds, indicator, 14)
    return win_counts(c, k, n)


def waits(concealed13: str | Iterable[int], melds: Iterable[str | Sequence[int]] = (), *,
          indicator: int) -> set[int]:
    """Physical kinds whose draw completes the hand (§1), a 财神 draw included; kinds of which
    every copy in play is held (in hand and melds) are left out."""
    c, held, n, k = _hand(concealed13, melds, indicator, 13)
    mask = wait_mask_counts(c, held, k, n)
    return {t for t in range(NUM_KINDS) if mask >> t & 1}


def baotou_ready(concealed13: str | Iterable[int], melds: Iterable[str | Sequence[int]] = (), *,
                 indicator: int) -> bool:
    """§3: with one 财神 taken out, the hand is complete sets or six pairs: any draw wins."""
    c, _, n, k = _hand(concealed13, melds, indicator, 13)
    return any(baotou_counts(c, k, n))


def best_reading(concealed: str | Iterable[int], melds: Iterable[str | Sequence[int]] = (), *,
                 indicator: int, drawn: int | None = None, self_drawn: bool = True, piao: int = 0,
                 kongs: int = 0) -> tuple[WinReading, int] | None:
    """The highest-multiplier reading of a 14-tile win and its §4 exponent (None: no win).
    ``drawn``: the tile just drawn (needed for 爆头), which must be in ``concealed``."""
    self_drawn = bool_arg(self_drawn, "self_drawn")
    c, _, n, k = _hand(concealed, melds, indicator, 14)
    if drawn is not None and not c[check_kind(drawn, NUM_KINDS)]:
        raise ValueError(f"drawn tile {format([drawn])} is not in the hand")
    for name, v in (("piao", piao), ("kongs", kongs)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name}={v!r}: allowed a non-negative integer")
    return best_reading_counts(c, k, n, drawn, self_drawn, piao, kongs)

"""Sichuan shapes, waits and fan (rules §2 D3, §4, §5, §7's waits): pure functions over kinds.

Shapes are Changsha's standard shape (four sets and a pair, read from the core suit tables,
``envs/core/shapes.py``) and 七对, with the void suit (D3): no winning hand holds a concealed
tile of the winner's void. The fan items of §5 are computed for every reading of the hand and
the best one reported. Count-vector forms (``win_shape``, ``wait_mask``, ``reading``,
``max_wait_fan``) serve the engine; ``is_win``, ``waits`` and ``best_reading`` take tile text
or lists of kinds.

Only two §5 items depend on how the concealed tiles are cut into sets: DUIDUI (every set a
triplet) and DAIYAOJIU (every set and the pair hold a 1 or a 9). Both have a closed form (a
triplet cut exists iff the counts are triplets and one pair; a 1-or-9 cut is forced, since a
2 or a 3 can then only sit in a 123 run), so the readings to compare are few: seven pairs, the
triplet cut, the 1-or-9 cut, and any standard cut.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from cnmahjong.envs.core.checks import bool_arg
from cnmahjong.envs.core.meld import ANGANG, CHI, MINGGANG, PENG, Meld
from cnmahjong.envs.core.shapes import (
    count_bytes,
    hand_wait_mask,
    is_all_triplets,
    is_seven_pairs,
    is_standard,
    mask_kinds,
)
from cnmahjong.envs.core.tiles import COPIES, NUM_SUITED_KINDS, check_kind, format, tiles_arg, to_counts
from cnmahjong.envs.sichuan.rules import RuleConfig

SUIT_LEN = 9
FAN = {"PINGHU": 0, "DUIDUI": 1, "QIDUI": 2, "QINGYISE": 2, "JINGOU": 1, "JIANGDUI": 2, "DAIYAOJIU": 2,
       "GEN": 1, "GANGKAI": 1, "GANGPAO": 1, "QIANGGANG": 1, "HAIDI": 1, "ZIMO": 1, "MENQING": 1,
       "ZHONGZHANG": 1}
"""§5: fan per item (GEN per 根). TIANHU and DIHU score ``RuleConfig.tiandihu_fan`` alone."""
HAND_ITEMS = ("DUIDUI", "QIDUI", "QINGYISE", "JINGOU", "JIANGDUI", "DAIYAOJIU")
"""§5: the items whose absence makes a win a PINGHU."""
PATTERN_ORDER = ("PINGHU", *HAND_ITEMS, "GEN", "GANGKAI", "GANGPAO", "QIANGGANG", "HAIDI", "ZIMO",
                 "MENQING", "ZHONGZHANG", "TIANHU", "DIHU")
"""Every pattern id a reading may report, in the order it lists them."""

_JIANG_RANKS = (1, 4, 7)  # ranks 2, 5, 8 as 0-based ranks
_TERMINAL_RANKS = (0, 8)
_TERMINAL_MASK = sum(1 << r for r in _TERMINAL_RANKS)  # the same ranks as bits (``reading``'s C loop)


@cython.locals(v=cython.int)
def suit_mask(void: int | None) -> int:
    """The kinds of suit ``void`` (0 m, 1 s, 2 p) as a bitmask; 0 for None."""
    if void is None:
        return 0
    v = void  # a C int, compiled: the mask made in C (SUIT_LEN as literals)
    if not 0 <= v < 3:
        raise ValueError(f"void suit {void!r}: allowed 0 (m), 1 (s), 2 (p) or None")
    return 0x1FF << (9 * v)


@cython.locals(v=cython.int, k=cython.int, p=cython.p_uchar)
def holds_void(c: Sequence[int], void: int | None) -> bool:
    """D1/D3/§7 花猪: the concealed counts ``c`` hold a tile of suit ``void``."""
    if void is None:
        return False
    if cython.compiled and type(c) is bytearray and len(c) == 27 and (void == 0 or void == 1 or void == 2):
        v = void  # a game's count vector (NUM_SUITED_KINDS: a literal, the check in C): read through
        p = c  # a C pointer, its length and the suit checked
        for k in range(9 * v, 9 * v + 9):  # noqa: SIM110 - a C loop (SUIT_LEN as literals)
            if p[k]:
                return True
        return False
    return any(c[SUIT_LEN * void:SUIT_LEN * void + SUIT_LEN])


# ------------------------------------------------------------------ shapes (§4, D3)
def win_shape(c: Sequence[int], num_melds: int, void: int | None = None) -> bool:
    """§4 with D3: the concealed counts ``c`` (winning tile included, 14 − 3·melds tiles) make
    four sets and a pair with the melds, or 七对 (no melds), and hold no tile of ``void``."""
    if holds_void(c, void):
        return False
    return is_standard(c) or (num_melds == 0 and is_seven_pairs(c))


def wait_mask(c: Sequence[int], melded: Sequence[int], num_melds: int, void: int | None = None) -> int:
    """§7 waits as a kind bitmask: kinds whose addition to the 13 − 3·melds concealed counts ``c``
    is a win (D3 included: none while ``c`` holds a void tile, never a void kind). A kind the
    player holds all four copies of, concealed or in ``melded`` (counts of his meld tiles), is
    no wait."""
    if holds_void(c, void):
        return 0
    return hand_wait_mask(count_bytes(c), count_bytes(melded), num_melds, 0, suit_mask(void))


# ------------------------------------------------------------------ readings (§5)
@dataclass(frozen=True, slots=True)
class WinContext:
    """How the winning tile came (§4), for the situational items of §5.

    ``self_drawn`` 自摸 (replacement draws and the dealer's first turn included); ``gangkai``
    杠上开花 (a self-draw on a replacement tile) and ``dianganghua`` when its last kong was a 直杠
    (点杠花, §6.2); ``gangpao`` 杠上炮; ``qianggang`` 抢杠; ``haidi`` the 海底 tile or a discard made
    on an empty wall; ``tianhu`` / ``dihu`` as §4 defines them."""

    self_drawn: bool = False
    gangkai: bool = False
    dianganghua: bool = False
    gangpao: bool = False
    qianggang: bool = False
    haidi: bool = False
    tianhu: bool = False
    dihu: bool = False

    def __post_init__(self) -> None:
        for name in ("self_drawn", "gangkai", "dianganghua", "gangpao", "qianggang", "haidi", "tianhu", "dihu"):
            bool_arg(getattr(self, name), name)
        if self.gangkai and not self.self_drawn:
            raise ValueError("gangkai (杠上开花) is a self-draw on a replacement tile: pass self_drawn=True")
        if self.dianganghua and not self.gangkai:
            raise ValueError("dianganghua (点杠花) is a 杠上开花: pass gangkai=True with it")
        if self.self_drawn and (self.gangpao or self.qianggang):
            raise ValueError("gangpao (杠上炮) and qianggang (抢杠) are wins on another seat's tile, "
                             "not self-drawn")
        if self.gangpao and self.qianggang:
            raise ValueError("a win is on a discard (gangpao) or on an added kong tile (qianggang), not both")
        if self.tianhu and (not self.self_drawn or self.dihu or self.gangkai):
            raise ValueError("天胡 (tianhu) is the dealer's self-drawn win on his first turn, before any kong")


PLAIN_DISCARD = WinContext()
"""§7 查大叫: a wait scored as an ordinary discard win."""


@dataclass(frozen=True, slots=True)
class Reading:
    """The reported reading of a win (§5): its uncapped ``fan`` F and its items as
    ``{id: count}`` (GEN: its number of 根; the others 1; PINGHU when no hand item applies)."""

    fan: int
    patterns: dict[str, int]


@cython.locals(k=cython.int, t=cython.int, suits=cython.int, gen=cython.int, middle=cython.bint,
               concealed=cython.bint, terminal=cython.int, p=cython.p_uchar, kinds=list)
def reading(c: Sequence[int], melds: Sequence[Meld], winning_tile: int, ctx: WinContext,
            config: RuleConfig, void: int | None = None) -> Reading | None:
    """The best reading (§5) of concealed counts ``c`` (winning tile included) and ``melds``, or
    None when they are not a win (§4, D3). ``winning_tile`` is in ``c``; no §5 item depends on
    which copy it is (every copy of a kind counts for 根, the winning tile included)."""
    if not win_shape(c, len(melds), void):
        return None
    if config.tiandihu and (ctx.tianhu or ctx.dihu):
        return Reading(config.tiandihu_fan, {"TIANHU" if ctx.tianhu else "DIHU": 1})
    total = bytearray(c)  # every tile of the hand, its melds' added (read through a C pointer)
    if len(total) != NUM_SUITED_KINDS:
        raise ValueError(f"counts must hold {NUM_SUITED_KINDS} kinds, got {len(total)}")
    concealed = True  # every meld a 暗杠 (门清)
    for m in melds:  # loops over typed names, not comprehensions: C loops in the compiled build
        concealed = concealed and m.kind == ANGANG
        for t in m.tiles:
            total[t] += 1
    p = total
    kinds = []
    suits = gen = 0
    middle = True  # no 1 or 9 (中张)
    terminal = _TERMINAL_MASK  # a C int: its bits tested in C
    for k in range(NUM_SUITED_KINDS):
        if p[k]:
            kinds.append(k)
            suits |= 1 << k // SUIT_LEN
            gen += p[k] == COPIES  # 根: every copy of a kind held
            middle = middle and not terminal >> k % SUIT_LEN & 1
    common: dict[str, int] = {}
    if suits == 1 or suits == 2 or suits == 4:  # one suit
        common["QINGYISE"] = 1
    if gen:
        common["GEN"] = gen
    if ctx.gangkai:
        common["GANGKAI"] = 1
    if ctx.gangpao:
        common["GANGPAO"] = 1
    if ctx.qianggang:
        common["QIANGGANG"] = 1
    if ctx.haidi and config.haidi:
        common["HAIDI"] = 1
    if ctx.self_drawn and config.zimo_bonus == "fan" and not (ctx.dianganghua and config.dianganghua == "dianpao"):
        common["ZIMO"] = 1
    if config.menqing_zhongzhang:
        if concealed:
            common["MENQING"] = 1
        if middle:
            common["ZHONGZHANG"] = 1
    best: dict[str, int] | None = None
    best_fan = -1
    for items in _shape_readings(c, melds, kinds, config):
        patterns = _listed({**items, **common})
        fan = 0
        for item, n in patterns.items():  # a loop, not sum(genexpr): compiled, no generator per reading
            fan += FAN[item] * n
        if fan > best_fan:  # ties keep the earlier: seven pairs first (§5)
            best, best_fan = patterns, fan
    return None if best is None else Reading(best_fan, best)  # one frozen dataclass made, the best


def _shape_readings(c: Sequence[int], melds: Sequence[Meld], kinds: Sequence[int],
                    config: RuleConfig) -> list[dict[str, int]]:
    """The shape items of each reading of a complete hand: seven pairs first, then the standard
    cuts (all triplets, every set with a 1 or a 9, any other)."""
    out: list[dict[str, int]] = []
    if not melds and is_seven_pairs(c):
        out.append({"QIDUI": 1})
    if not is_standard(c):
        return out
    jingou = {"JINGOU": 1} if config.jingoudiao and len(melds) == 4 else {}
    out.append(dict(jingou))
    triplets = is_all_triplets(c)
    yaojiu = config.yaojiu_jiangdui and _yaojiu_cut(c, melds)
    if triplets:
        items = {"DUIDUI": 1, **jingou}
        if config.yaojiu_jiangdui and all(k % SUIT_LEN in _JIANG_RANKS for k in kinds):
            items["JIANGDUI"] = 1
        if config.yaojiu_jiangdui and all(k % SUIT_LEN in _TERMINAL_RANKS for k in kinds):
            items["DAIYAOJIU"] = 1  # a triplet cut of 1s and 9s is also a 1-or-9 cut
        out.append(items)
    if yaojiu:
        out.append({"DAIYAOJIU": 1, **jingou})
    return out


def _yaojiu_cut(c: Sequence[int], melds: Sequence[Meld]) -> bool:
    """DAIYAOJIU's cut exists: every meld is of a 1 or a 9, and per suit the 2s and 3s are
    123 runs (so as many of each), likewise 8s and 7s in 789 runs, no 4, 5 or 6, and what is
    left of the 1s and 9s is triplets and exactly one pair."""
    if any(m.tiles[0] % SUIT_LEN not in _TERMINAL_RANKS for m in melds):
        return False
    pairs = 0
    for s in range(0, NUM_SUITED_KINDS, SUIT_LEN):
        v = c[s:s + SUIT_LEN]
        if v[3] or v[4] or v[5] or v[1] != v[2] or v[7] != v[6]:
            return False
        for rest in (v[0] - v[1], v[8] - v[7]):
            if rest not in (0, 2, 3):
                return False
            pairs += rest == 2
    return pairs == 1


def _listed(items: dict[str, int]) -> dict[str, int]:
    """A reading's items: PINGHU added when no hand item applies, listed in ``PATTERN_ORDER``."""
    plain = True  # loops, not any(genexpr) and a comprehension: compiled, no generator per reading
    for item in HAND_ITEMS:
        if item in items:
            plain = False
            break
    if plain:
        items["PINGHU"] = 1
    listed = {}
    for item in PATTERN_ORDER:
        if item in items:
            listed[item] = items[item]
    return listed


def max_wait_fan(c: Sequence[int], melds: Sequence[Meld], void: int | None, config: RuleConfig,
                 waits: int | None = None) -> int | None:
    """§7 查大叫: the best F over the waits of the 13 − 3·melds concealed counts ``c``, each scored
    as an ordinary discard win (no situational item); None when he has no wait. ``waits``: their
    ``wait_mask`` where the caller keeps it (the game does: ``SichuanGame._wait``), else made here."""
    if waits is None:
        waits = wait_mask(c, meld_counts(melds), len(melds), void)
    best = None
    for t in mask_kinds(waits):
        w = list(c)
        w[t] += 1
        r = reading(w, melds, t, PLAIN_DISCARD, config, void)
        if r is not None and (best is None or r.fan > best):
            best = r.fan
    return best


def meld_counts(melds: Iterable[Meld]) -> list[int]:
    """Counts of the tiles in ``melds`` over the 27 kinds."""
    return to_counts((t for m in melds for t in m.tiles), NUM_SUITED_KINDS)


# ------------------------------------------------------------------ public forms
def to_meld(m: Meld | Sequence[int] | str) -> Meld:
    """A ``Meld`` as given, or from tiles: three equal a PENG, four equal a 直杠 (``minggang``;
    pass a ``Meld`` for a 暗杠 or 补杠). Sichuan has no CHI (§3) and no honours (§1)."""
    if isinstance(m, Meld):
        meld = m
    else:
        tiles = tuple(tiles_arg(m, "meld"))
        if len(set(tiles)) != 1 or len(tiles) not in (3, 4):
            raise ValueError(f"meld {format(tiles)}: allowed three or four equal tiles (Sichuan has no CHI, §3)")
        meld = Meld(PENG if len(tiles) == 3 else MINGGANG, tiles)
    if meld.kind == CHI or meld.tiles[0] >= NUM_SUITED_KINDS:
        raise ValueError(f"meld {format(meld.tiles)}: allowed a PENG or a kong of a suited tile "
                         f"(no CHI, §3; no honours, §1)")
    return meld


def _void_arg(void: int | str | None) -> int | None:
    """A void suit: None, 0/1/2, or the letter m/s/p."""
    if void is None:
        return None
    if isinstance(void, str) and len(void) == 1 and void in "msp":
        return "msp".index(void)
    if type(void) is int and void in (0, 1, 2):
        return void
    raise ValueError(f"void={void!r}: allowed None, 0 (m), 1 (s), 2 (p) or the letter 'm', 's', 'p'")


def _hand(concealed: str | Iterable[int], melds: Iterable[Meld | Sequence[int] | str], size: int,
          what: str) -> tuple[list[int], list[Meld]]:
    """Concealed counts and melds of a public call, checked: ``size`` tiles counting 3 per meld,
    suited kinds only, no fifth copy."""
    tiles = tiles_arg(concealed)
    ms = [to_meld(m) for m in melds]
    if len(tiles) + 3 * len(ms) != size or len(ms) > 4:
        raise ValueError(f"{what} needs {size} tiles counting 3 per meld: got {len(tiles)} concealed "
                         f"and {len(ms)} melds")
    c = to_counts(tiles, NUM_SUITED_KINDS)
    melded = meld_counts(ms)
    for k in range(NUM_SUITED_KINDS):
        if c[k] + melded[k] > COPIES:
            raise ValueError(f"{c[k] + melded[k]} copies of {format([k])} in hand and melds: at most {COPIES}")
    return c, ms


def is_win(concealed: str | Iterable[int], melds: Iterable[Meld | Sequence[int] | str] = (),
           void: int | str | None = None) -> bool:
    """§4 with D3: the 14 − 3·melds concealed tiles (winning tile included) and ``melds`` win."""
    c, ms = _hand(concealed, melds, 14, "is_win()")
    return win_shape(c, len(ms), _void_arg(void))


def waits(concealed: str | Iterable[int], melds: Iterable[Meld | Sequence[int] | str] = (),
          void: int | str | None = None) -> set[int]:
    """§7: kinds that complete the 13 − 3·melds concealed tiles into a win (D3 included), no kind
    of which all four copies are held."""
    c, ms = _hand(concealed, melds, 13, "waits()")
    return set(mask_kinds(wait_mask(c, meld_counts(ms), len(ms), _void_arg(void))))


def best_reading(concealed: str | Iterable[int], melds: Iterable[Meld | Sequence[int] | str] = (),
                 winning_tile: int | str | None = None, context: WinContext | None = None,
                 config: RuleConfig | None = None, *, void: int | str | None = None) -> Reading:
    """§5: the reported reading of a win: ``concealed`` holds the 14 − 3·melds tiles, the winning
    tile included (by default its last tile). Raises ``ValueError`` when the tiles do not win."""
    c, ms = _hand(concealed, melds, 14, "best_reading()")
    if winning_tile is None:
        winning_tile = tiles_arg(concealed)[-1]
    elif isinstance(winning_tile, str):
        (winning_tile,) = tiles_arg(winning_tile)
    if not c[check_kind(winning_tile)]:
        raise ValueError(f"winning tile {format([winning_tile])} is not among the concealed tiles")
    if context is not None and not isinstance(context, WinContext):
        raise TypeError(f"context must be a WinContext, got {type(context).__name__}")
    if config is not None and not isinstance(config, RuleConfig):
        raise TypeError(f"config must be a sichuan RuleConfig, got {type(config).__name__}")
    r = reading(c, ms, winning_tile, context or WinContext(), config or RuleConfig(), _void_arg(void))
    if r is None:
        raise ValueError(f"{format(tiles_arg(concealed))} with melds "
                         f"{[format(m.tiles) for m in ms]} is not a win (§4, D3)")
    return r

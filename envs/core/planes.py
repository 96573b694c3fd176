"""Byte-level building blocks of observation planes, shared by every ruleset's encoder.

Planes are made as uint8 bytes: ``counts.translate(THERM[l])`` is the thermometer plane
"count > l" of a count row, in C; an encoder joins its rows with one ``bytes.join`` and
converts them to float32 with one numpy call.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

import importlib
from itertools import product
from operator import itemgetter

from cnmahjong.envs.core.channels import ChannelTable, refuse_unless_written_for
from cnmahjong.envs.core.checks import int_arg
from cnmahjong.envs.core.seats import NUM_SEATS

THERM = [bytes(1 if c > level else 0 for c in range(256)) for level in range(4)]
"""``row.translate(THERM[l])``: 1 where the count exceeds ``l``."""


def therm4(row: bytes) -> bytes:
    """The four thermometer planes (count ≥ 1, ≥ 2, ≥ 3, 4) of a count row (bytes or bytearray)."""
    if cython.compiled:
        return _therm(row, 4)
    return b"".join(map(row.translate, THERM))


def therm2(row: bytes) -> bytes:
    """The first two thermometer planes (count ≥ 1, ≥ 2) of a count row (bytes or bytearray); as
    Python its own two translates (``therm``'s check and join cost a pure Changsha claim window)."""
    if cython.compiled:
        return _therm(row, 2)
    return row.translate(THERM[0]) + row.translate(THERM[1])


def therm(row: bytes, levels: int) -> bytes:
    """The first ``levels`` (1..4) thermometer planes of a count row (bytes or bytearray)."""
    if not 1 <= levels <= 4:
        raise ValueError(f"levels must be 1..4, got {levels!r}")
    if cython.compiled:
        return _therm(row, levels)
    return b"".join([row.translate(THERM[level]) for level in range(levels)])


def count_row(tiles: list[int], num_kinds: int) -> bytearray:
    """The count row of ``tiles``, a list of kinds ``0..num_kinds-1`` (compiled: a C loop, indices
    and counts still checked)."""
    c = bytearray(num_kinds)
    for t in tiles:
        c[t] += 1
    return c


def therm_of_kinds(tiles: list[int], num_kinds: int, levels: int) -> bytes:
    """``therm`` of the count row of ``tiles``, a list of kinds ``0..num_kinds-1``."""
    return therm(count_row(tiles, num_kinds), levels)


THERM_BYTES = 4 * 34
"""The most bytes ``_therm`` writes in its C buffer (four planes of 34 kinds; a literal in planes.pxd)."""


def _therm(row: bytes, levels: int) -> bytes:
    """The first ``levels`` thermometer planes of ``row`` in one C loop, written in a C buffer and
    made bytes once (compiled only, its C types in planes.pxd: as Python, ``translate`` runs in C
    already; when compiled, the translates, the join, or a ``bytearray`` made and copied are
    Python calls). A row longer than the buffer (no shipped ruleset has one) takes the translates."""
    n = len(row)
    if levels * n > THERM_BYTES:
        return b"".join([row.translate(THERM[lv]) for lv in range(levels)])
    p = row  # a bytes or bytearray row (anything else: TypeError)
    if not cython.compiled:  # planes.pxd's C buffer, as a bytearray
        buf = bytearray(THERM_BYTES)
    for k in range(n):
        c = p[k]
        for lv in range(levels):
            buf[lv * n + k] = c > lv
    return bytes(buf[:levels * n]) if not cython.compiled else buf[:levels * n]


def write_rows(rows: list[bytes] | tuple[bytes, ...], buf: bytearray, offset: int, size: int) -> None:
    """Write ``rows`` (bytes or bytearray) one after another into ``buf`` from ``offset``: what
    ``b"".join(rows)`` makes, copied in place without being made (an encoder's ``planes_into``:
    a batch's row written where it goes). Refused before anything is written: rows that are not
    ``size`` bytes together, a row neither bytes nor bytearray, a place outside the buffer."""
    if offset < 0 or offset + size > len(buf):
        raise ValueError(f"a row of {size} bytes at offset {offset} does not fit a buffer of {len(buf)} bytes")
    if not cython.compiled:  # the join, copied once through a memoryview
        row = b"".join(rows)
        if len(row) != size:
            raise ValueError(f"the rows make {len(row)} bytes, the encoding has {size}")
        memoryview(buf)[offset:offset + size] = row
        return
    total = 0
    for r in rows:  # exact types: their sizes and pointers are C macros below
        if type(r) is bytes:
            total += len(cython.cast(bytes, r))
        elif type(r) is bytearray:
            total += len(cython.cast(bytearray, r))
        else:
            raise TypeError(f"a row must be bytes or bytearray, got {type(r).__name__}")
    if total != size:
        raise ValueError(f"the rows make {total} bytes, the encoding has {size}")
    out = buf
    for r in rows:
        if type(r) is bytes:
            b = cython.cast(bytes, r)
            n = len(b)
            p = b
        else:
            a = cython.cast(bytearray, r)
            n = len(a)
            p = a
        memcpy(out + offset, p, n)  # noqa: F821 - libc's, cimported in planes.pxd (compiled only)
        offset += n


SEAT_ORDER = [tuple((seat + r) % 4 for r in range(4)) for seat in range(4)]
"""Per observing seat, the absolute seats in its relative order: self, next, opposite, previous."""
ROTATE = [itemgetter(*order) for order in SEAT_ORDER]
"""``ROTATE[seat](per_seat)``: a per-seat list in ``seat``'s relative order, picked in C."""


def split_public_log(batch: list[int]) -> tuple[list[tuple[int, int]], set[int] | tuple[()]]:
    """A batch of a game's ``public_log`` codes as (discards to patch, slots to re-read).

    A code below 16 names a slot whose row changed (read it again from the game); a code
    ``4 + s + 16 * (t + 1)`` is tile ``t`` joining seat ``s``'s river, patched in place unless
    its slot is re-read in the same batch anyway (the game's current row covers it). The usual
    batch, one discard, is answered without the comprehensions (the slots then an empty tuple)."""
    if len(batch) == 1 and batch[0] >= 16:
        code = batch[0]
        return [(code & 3, (code >> 4) - 1)], ()
    full = {code for code in batch if code < 16}
    return [(code & 3, (code >> 4) - 1) for code in batch if code >= 16 and code & 15 not in full], full


class Rows:
    """Constant rows and blocks for planes over ``num_kinds`` kinds."""

    def __init__(self, num_kinds: int, max_count: int = 136) -> None:
        n = num_kinds
        self.zero = bytes(n)
        self.ones = bytes([1]) * n
        self.onehot = [bytes(1 if k == t else 0 for k in range(n)) for t in range(n)]
        """``onehot[t]``: the row with a 1 at kind ``t``."""
        self.pad = [self.zero * i for i in range(41)]
        """``pad[i]``: ``i`` zero rows."""
        self.seat = [b"".join(self.ones if r == i else self.zero for r in range(4)) for i in range(4)]
        """``seat[r]``: four whole planes, the ``r``-th set (a relative seat)."""
        self.flags = {bits: b"".join(self.ones if b else self.zero for b in bits)
                      for bits in product((0, 1), repeat=4)}
        """``flags[(a, b, c, d)]``: four whole planes set where the flag is."""
        self.count = [bytes([c]) * n for c in range(max_count + 1)]
        """``count[c]``: a whole plane holding ``c``."""

    def counts(self, tiles: list[int]) -> bytes:
        """The count row of a list of kinds."""
        return bytes(count_row(tiles, len(self.zero)))


class HandRows:
    """Per seat, the own-hand rows of its last observation (bytes, thermometer planes, counts
    packed 8 bits a kind), rebuilt only when the hand changed since."""

    __slots__ = ("_rows",)

    def __init__(self) -> None:
        self._rows: list[tuple[bytes, bytes, int] | None] = [None] * 4

    def get(self, seat: int, hand: bytearray) -> tuple[bytes, bytes, int]:
        rows = self._rows[seat]
        if rows is None or rows[0] != hand:
            h = bytes(hand)
            rows = self._rows[seat] = (h, therm4(h), int.from_bytes(h, "little"))
        return rows


def seat_arg(seat: object) -> int:
    """The seat an observation is written for: an int (or numpy integer, not a bool) in 0..3, else
    ``checks.int_arg``'s error naming it, before a byte is written (every encoder and twin)."""
    if type(seat) is int and 0 <= seat < NUM_SEATS:  # the common case: no call
        return seat
    return int_arg(seat, "seat", 0, NUM_SEATS - 1)


def bad_kind(t: object, n: int) -> int:
    """The error of a twin's ``kind_of`` (planes.pxd) for a tile kind outside 0..n-1: raised out of
    line, so that the check inlines."""
    raise ValueError(f"tile kind {t!r} outside 0..{n - 1}")


def bad_wall(remaining: int, top: int) -> int:
    """The error of a twin's ``wall_into`` (planes.pxd) for a wall count outside 0..top."""
    raise ValueError(f"wall of {remaining} tiles: outside 0..{top}")


class Twin:
    """A ruleset's compiled planes writer (its ``_planes.pyx``'s ``_write``, a C function, planes.pxd)
    as the two entry points its encoder calls: ``planes(game, seat)``, the observation as bytes, and
    ``planes_into(game, seat, buf, offset)``, written over a batch's row in place (``VectorEnv``).
    One copy for every twin: the game is checked to be the twin's class before the writer reads it
    as that type (C fields, unchecked), the seat (``seat_arg``) and the row (``planes_into_row``)
    before a byte is written. Made by ``twin_of`` in the twin's module; compiled only
    (the pure package has no twins)."""

    def planes(self, game: object, seat: int) -> bytes:
        """The observation of ``seat`` as uint8 bytes, as the encoder's ``planes``."""
        return planes_of(self.write, self._checked(game), seat_arg(seat), self.size)  # noqa: F821 - planes.pxd, compiled only

    def planes_into(self, game: object, seat: int, buf: bytearray, offset: int) -> None:
        """``planes(game, seat)`` written over ``buf[offset:offset + size]``."""
        planes_into_row(self.write, self._checked(game), seat_arg(seat), buf, offset, self.size)  # noqa: F821 - as above

    def __call__(self, game: object, seat: int, buf: bytearray, offset: int) -> None:
        """``planes_into``: a twin is a batch's row writer as an encoder's bound method is (``VectorEnv``
        keeps the twin itself and calls ``planes_into`` in C)."""
        self.planes_into(game, seat, buf, offset)

    def __reduce__(self) -> tuple:
        return twin_in, (self.module,)

    def _checked(self, game: object) -> object:
        if not isinstance(game, self.game):
            raise TypeError(f"these planes are written from a {self.game.__name__}, got {type(game).__name__}")
        return game


def twin_of(write: object, game: type, table: ChannelTable, kinds: int,
            written_for: tuple[tuple[str, int, int, str], ...], written_kinds: int, encoder: str, module: str) -> Twin:
    """The ``Twin`` of the writer ``write`` for games of class ``game``, made as ``_twin`` of the
    module named ``module`` (where a pickled twin is found again), its rows the ``encoder``'s
    ``table`` of ``kinds`` a plane: refused first (ImportError, the pure encoder serves) unless that
    table lays out the groups the writer was ``written_for`` over ``written_kinds``
    (``channels.refuse_unless_written_for``; called before the module reads any offset)."""
    refuse_unless_written_for(table, kinds, written_for, written_kinds, encoder, module.rpartition(".")[2] + ".pyx")
    twin = Twin()
    twin.write = write  # C fields (planes.pxd), one by one: a C function pointer is no Python value
    twin.game = game
    twin.size = table.size * kinds
    twin.module = module
    return twin


def twin_in(module: str) -> Twin:
    """The ``Twin`` the module named ``module`` made (its ``_twin``): a pickled twin's way back, by
    reference (its C function pointer is no value to pickle)."""
    twin = getattr(importlib.import_module(module), "_twin", None)
    if not isinstance(twin, Twin):
        raise TypeError(f"{module} holds no planes twin (_twin)")
    return twin

# C signatures of planes.py's row builders (pure-Python mode, as ``shapes.pxd``): an encoder that
# cimports them calls them in C, not through a Python call.
cimport cython
from libc.string cimport memcpy

@cython.locals(n=Py_ssize_t, k=Py_ssize_t, lv=int, c=int, p="const unsigned char *", buf="unsigned char[136]")
cdef bytes _therm(row, int levels)
cpdef bytes therm4(row)
cpdef bytes therm(row, int levels)
@cython.locals(c=bytearray, t=Py_ssize_t)
cpdef bytearray count_row(tiles, Py_ssize_t num_kinds)
cpdef bytes therm_of_kinds(tiles, int num_kinds, int levels)
@cython.locals(total=Py_ssize_t, n=Py_ssize_t, out="unsigned char *", p="const unsigned char *", r=object, b=bytes,
               a=bytearray)
cpdef write_rows(rows, bytearray buf, Py_ssize_t offset, Py_ssize_t size)
@cython.locals(code=Py_ssize_t)
cpdef tuple split_public_log(list batch)
cpdef int seat_arg(seat) except -1


# C helpers for the compiled twins (``envs/<ruleset>/_planes.pyx``): planes written straight into a
# row of ``n`` kinds a plane, the row zeroed first. Inline: each twin compiles its own copy of one source.
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_CheckExact, PyByteArray_GET_SIZE
from libc.stdint cimport uint64_t
from libc.string cimport memset

from cnmahjong.envs.core.meld cimport Meld


cdef inline void therm_into(unsigned char* out, int channel, int levels, const unsigned char* counts,
                            int n) noexcept:
    """Planes "count > l" for l < ``levels`` (at most 4) of a count row of ``n`` kinds, from plane
    ``channel`` on. Eight kinds a step in a 64-bit word (the compiler leaves the byte loop scalar):
    per byte x, ``((x & 0x7F) + 0x7F - l) | x`` has its top bit set exactly when x > l (no carry
    crosses a byte: at most 0x7F + 0x7F). Rows past 40 kinds take the byte loop."""
    cdef int k, l, w, words = (n + 7) >> 3
    cdef uint64_t row[5]
    cdef uint64_t bits[5]
    cdef uint64_t x
    if n > 40:
        for l in range(levels):
            for k in range(n):
                out[(channel + l) * n + k] = counts[k] > l
        return
    memset(row, 0, sizeof(row))
    memcpy(row, counts, n)
    for l in range(levels):
        for w in range(words):
            x = row[w]
            bits[w] = ((((x & 0x7F7F7F7F7F7F7F7FULL) + (0x7F7F7F7F7F7F7F7FULL - 0x0101010101010101ULL * l)) | x)
                       >> 7) & 0x0101010101010101ULL
        memcpy(out + (channel + l) * n, bits, n)


cdef inline int seen_add(uint64_t* seen, const unsigned char* row, int n) except -1:
    """Add a count row of ``n`` (at most 40) kinds to ``seen``, five words of per-kind sums (one
    byte a kind, zeroed by the caller), eight kinds an addition. A count past 15 is an error: the
    sums of up to 15 rows then stay within their bytes."""
    cdef uint64_t words[5]
    cdef int w
    memset(words, 0, sizeof(words))
    memcpy(words, row, n)
    for w in range((n + 7) >> 3):
        if words[w] & 0xF0F0F0F0F0F0F0F0ULL:
            raise ValueError(f"a count row holds a count past 15: {bytes(row[:n])!r}")
        seen[w] += words[w]
    return 0


cdef inline int unseen_into(unsigned char* out, int channel, const uint64_t* seen, int n, int seat) except -1:
    """The UNSEEN thermometer planes from plane ``channel``: 4 less the copies ``seen`` (``seen_add``'s
    sums) of each of ``n`` kinds, eight a word (no borrow: each sum is checked at most 4 first, the
    top bit of ``((x & 0x7F) + 0x7B) | x`` set exactly when x > 4)."""
    cdef uint64_t unseen[5]
    cdef uint64_t x
    cdef int w, k
    cdef const unsigned char* sums = <const unsigned char*> seen
    for w in range((n + 7) >> 3):
        x = seen[w]
        if (((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7B7B7B7B7B7B7B7BULL) | x) & 0x8080808080808080ULL:
            for k in range(n):
                if sums[k] > 4:
                    raise ValueError(f"kind {k}: {sums[k]} copies seen from seat {seat}: the game's counts disagree")
        unseen[w] = 0x0404040404040404ULL - x
    therm_into(out, channel, 4, <const unsigned char*> unseen, n)
    return 0


cdef inline void level_into(unsigned char* out, int channel, int levels, int value, int n) noexcept:
    """Whole planes "value > l" for l < ``levels`` (a LEVEL group's block)."""
    cdef int l
    for l in range(levels if value > levels else value):
        memset(out + (channel + l) * n, 1, n)


cdef inline void plane_into(unsigned char* out, int channel, unsigned char value, int n) noexcept:
    """A whole plane holding ``value``."""
    memset(out + channel * n, value, n)


cdef inline void zero_row(unsigned char* out, Py_ssize_t size) noexcept:
    """``memset(out, 0, size)`` in pieces of 1 KiB: glibc clears 2 KiB or more with ``rep stosb``,
    which callgrind counts as one instruction a byte (a twin's whole row, thousands) where vector
    stores count ~100; the same work either way, measured the same by the clock."""
    cdef Py_ssize_t i
    for i in range(0, size, 1024):
        memset(out + i, 0, 1024 if size - i > 1024 else size - i)


cdef inline const unsigned char* count_bytes(object row, Py_ssize_t n) except NULL:
    """The bytes of a game's count row (a bytearray of ``n`` counts; anything else an error, never a
    read past its end)."""
    if not PyByteArray_CheckExact(row) or PyByteArray_GET_SIZE(row) != n:
        raise TypeError(f"a count row must be a bytearray of {n} counts, got {row!r}")
    return <const unsigned char*> PyByteArray_AS_STRING(row)


cdef inline int kind_of(object t, int n) except -1:
    """A tile kind as an index: 0..n-1, anything else an error (never a write out of the row). The
    error is raised out of line (``bad_kind``), so that the check itself inlines into each loop."""
    cdef int k = t
    if 0 <= k < n:
        return k
    return bad_kind(t, n)


cdef int bad_kind(object t, int n) except -1


cdef inline int wall_into(unsigned char* out, int channel, int remaining, int top, int n) except -1:
    """The WALL plane: the tiles left in the wall (0..``top``, the most the ruleset's wall and a
    byte hold) in each of its bytes; anything else an error (``bad_wall``, raised out of line)."""
    if 0 <= remaining <= top:
        plane_into(out, channel, <unsigned char> remaining, n)
        return 0
    return bad_wall(remaining, top)


cdef int bad_wall(int remaining, int top) except -1


cdef inline unsigned char* row_at(bytearray buf, Py_ssize_t offset, Py_ssize_t size) except NULL:
    """The ``size`` bytes of ``buf`` from ``offset`` (a batch's observation row), zeroed; an error
    before anything is written where they do not fit."""
    if not 0 <= offset <= PyByteArray_GET_SIZE(buf) - size:
        raise ValueError(f"an observation row needs {size} bytes from offset {offset}: "
                         f"the bytearray has {PyByteArray_GET_SIZE(buf)}")
    cdef unsigned char* out = <unsigned char*> PyByteArray_AS_STRING(buf) + offset
    zero_row(out, size)
    return out


ctypedef int (*write_planes)(object game, int seat, unsigned char* out) except -1
"""A twin's writer: the planes of ``seat`` (0..3, checked by ``Twin``: ``seat_arg``)
into the zero row at ``out`` (``Twin`` checks the game's class first)."""


@cython.final
@cython.auto_pickle(False)  # a C function pointer: pickled by reference (its module's ``_twin``: Twin.__reduce__)
cdef class Twin:
    cdef write_planes write
    cdef type game
    cdef Py_ssize_t size
    cdef str module
    cpdef bytes planes(self, game, seat)
    cpdef planes_into(self, game, seat, bytearray buf, Py_ssize_t offset)
    cdef object _checked(self, game)


@cython.locals(twin=Twin)
cdef Twin twin_of(write_planes write, type game, object table, int kinds, tuple written_for, int written_kinds,
                  str encoder, str module)


cdef inline bytes planes_of(write_planes write, object game, int seat, Py_ssize_t size):
    """A twin's ``planes``: its row as bytes (a new bytearray is zero already: not cleared again)."""
    cdef bytearray buf = bytearray(size)
    write(game, seat, <unsigned char*> PyByteArray_AS_STRING(buf))
    return bytes(buf)


cdef inline int planes_into_row(write_planes write, object game, int seat, bytearray buf, Py_ssize_t offset,
                                Py_ssize_t size) except -1:
    """A twin's ``planes_into``: its row written over ``buf[offset:offset + size]``; a bad seat or
    offset is refused before the row is cleared (the seat is checked by the ``Twin``: ``seat_arg``)."""
    return write(game, seat, row_at(buf, offset, size))


cdef inline int level_of(object value, int top) except -1:
    """A LEVEL block's count (claims, 飘, a 过胡 threshold), capped at ``top``; negative is an error."""
    cdef long v = value
    if v < 0:
        raise ValueError(f"a count of {v} cannot be a level")
    return top if v > top else v


cdef inline int recent_into(unsigned char* out, int channel, int planes, list river, int n) except -1:
    """One-hot planes of a river's ``planes`` newest tiles, newest first (no negative index: the
    twins compile without wraparound)."""
    cdef Py_ssize_t i, size = len(river)
    for i in range(planes if size > planes else size):
        out[(channel + i) * n + kind_of(river[size - 1 - i], n)] = 1
    return 0


cdef inline int kinds_into(unsigned char* out, int channel, object mask, int n) except -1:
    """The plane of a kind bitmask (漏胡, 失碰, PENG locks): 1 at each kind it names."""
    cdef unsigned long long bits = mask
    cdef int k
    if bits >> n:
        raise ValueError(f"kind mask {bits:#x} names kinds past {n - 1}")
    for k in range(n):
        out[channel * n + k] = (bits >> k) & 1
    return 0


cdef inline void therm_add(unsigned char* out, int channel, int levels, int k, unsigned char* row, int n) noexcept:
    """One more copy of kind ``k`` counted in ``row`` and its thermometer plane set as it is counted
    (the (c + 1)th copy sets plane ``channel + c``, below ``levels``; the planes zero already)."""
    cdef int c = row[k]
    if c < levels:
        out[(channel + c) * n + k] = 1
    row[k] = c + 1


cdef inline int melds_into(unsigned char* out, int melds_plane, int kongs_plane, int hidden_plane, list melds,
                           bint other, unsigned char* row, int n) except -1:
    """A seat's melds as a seat sees them: the count row of their shown tiles into ``row`` (``n``
    bytes, the caller's: Hangzhou adds it to the tiles seen), its thermometer planes from
    ``melds_plane``, each shown kong's kind on ``kongs_plane``, and the two levels of its hidden
    kongs from ``hidden_plane``. Another seat's (``other``) hidden kongs (``Meld.hidden``: 暗杠 face
    down) are only counted; a seat's own are shown."""
    cdef int hidden = 0
    cdef Meld m
    memset(row, 0, n)
    if not melds:  # no planes to write: the row is zero already
        return 0
    for m in melds:
        if other and m.hidden:
            hidden += 1
            continue
        for x in m.tiles:
            therm_add(out, melds_plane, 4, kind_of(x, n), row, n)
        if len(m.tiles) == 4:
            out[kongs_plane * n + kind_of(m.tiles[0], n)] = 1
    level_into(out, hidden_plane, 2, hidden, n)
    return 0

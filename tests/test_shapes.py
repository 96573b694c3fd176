"""§2 hand shapes: the table-driven checker against a brute-force search."""

import random

import pytest
from hypothesis import given, settings

from cnmahjong.envs.core import shapes
from cnmahjong.envs.core.tiles import parse, to_counts
from tests import brute
from tests.strategies import hands


def c(text):
    return to_counts(parse(text))


def test_standard_with_any_pair_section2():
    assert shapes.is_standard(c("123m456s789p11122p"))
    assert shapes.is_standard(c("11m"))
    assert not shapes.is_standard(c("123m456s789p11124p"))


def test_four_sets_without_a_pair_is_not_complete():
    # RLCard accepted four melds without a pair: 12 tiles never make a 14-tile shape.
    assert not shapes.is_standard(c("123m456s789p111p"))
    assert not shapes.is_standard(c("111222333444m"))


def test_pair_taken_from_a_triplet():
    # RLCard rejected pairs that come out of a triplet: 111m 23m -> 11m + 123m.
    assert shapes.is_standard(c("11123m"))
    assert shapes.standard_pair_mask(c("11123m")) == 1 << 0


def test_pair_mask_lists_every_possible_pair():
    mask = shapes.standard_pair_mask(c("11123444m"))  # 11 + 123 + 444, or 111 + 234 + 44
    assert shapes.mask_kinds(mask) == [0, 3]


def test_seven_pairs_quads_count_as_two_pairs_section2():
    assert shapes.is_seven_pairs(c("1111m22m33m44m55m66m"))
    assert not shapes.is_seven_pairs(c("111m22m33m44m55m667m"))


def test_seven_pairs_check_reads_a_count_vector_as_a_list_section2():
    """``is_seven_pairs`` and ``seven_pairs_shanten`` on bytes or a bytearray (C loops when compiled)
    say what they say on the same counts as a list, on seven-pairs hands (quads among them) and on
    random ones."""
    rng = random.Random(13)
    pairs = 0
    for i in range(4000):
        if i % 2:
            quads = rng.choice((0, 0, 1, 2, 3))  # a quad is two of the seven pairs
            counts = [0] * 27
            for j, k in enumerate(rng.sample(range(27), 7 - quads)):
                counts[k] = 4 if j < quads else 2
        else:
            counts = list(_hand(rng, rng.choice((13, 14)), 27))
        want = sum(counts) == 14 and all(x % 2 == 0 for x in counts)
        assert shapes.is_seven_pairs(bytearray(counts)) == shapes.is_seven_pairs(bytes(counts)) \
            == shapes.is_seven_pairs(counts) == want, counts
        left = 6 - min(7, sum(x // 2 for x in counts))  # its shanten: pairs held, a quad two
        assert shapes.seven_pairs_shanten(bytearray(counts)) == shapes.seven_pairs_shanten(bytes(counts)) \
            == shapes.seven_pairs_shanten(counts) == left, counts
        assert (left == -1) == want
        pairs += want
    assert pairs > 1000


def test_seven_pairs_wait():
    assert shapes.mask_kinds(shapes.seven_pairs_wait_mask(c("11m22m33m44m55m66m7m"))) == [6]
    assert shapes.mask_kinds(shapes.seven_pairs_wait_mask(c("1111m22m33m44m55m7m"))) == [6]
    assert shapes.seven_pairs_wait_mask(c("11m22m33m44m55m6m7m8m")) == 0


@settings(max_examples=400)
@given(hands(14, max_suits=2))
def test_complete_check_agrees_with_brute_force(tiles):
    counts = to_counts(tiles)
    pairs = brute.standard_pairs(counts)
    assert shapes.is_standard(counts) == bool(pairs)
    assert set(shapes.mask_kinds(shapes.standard_pair_mask(counts))) == pairs


@settings(max_examples=400)
@given(hands(13, max_suits=2))
def test_standard_waits_agree_with_brute_force(tiles):
    counts = to_counts(tiles)
    expect = {t for t in range(27) if counts[t] < 4
              and brute.standard_pairs([x + (k == t) for k, x in enumerate(counts)])}
    assert set(shapes.mask_kinds(shapes.standard_wait_mask(counts))) == expect


def test_table_holds_every_single_suit_complete_hand():
    rng = random.Random(7)
    for _ in range(3000):
        # random single-suit 14-tile hands built from sets: always complete
        counts = [0] * 27
        while sum(counts) < 12:
            r = rng.randrange(16)
            if r < 7:
                ks = [r, r + 1, r + 2]
            else:
                ks = [r - 7] * 3
            if all(counts[k] + ks.count(k) <= 4 for k in ks):
                for k in ks:
                    counts[k] += 1
        p = rng.choice([k for k in range(9) if counts[k] <= 2])
        counts[p] += 2
        assert shapes.is_standard(counts)
        assert p in shapes.mask_kinds(shapes.standard_pair_mask(counts))


# ------------------------------------------------------------------ shanten
def test_shanten_examples():
    assert shapes.standard_shanten(c("123m456s789p11122p")) == -1
    assert shapes.standard_shanten(c("123m456s789p1112p")) == 0
    assert shapes.standard_shanten(c("159m159s159p1357m")) >= 5
    assert shapes.standard_shanten(c("1m1m"), melds=4) == -1
    assert shapes.seven_pairs_shanten(c("1111m22m33m44m55m66m")) == -1
    assert shapes.seven_pairs_shanten(c("11m22m33m44m55m66m7m")) == 0


@settings(max_examples=300)
@given(hands(13, max_suits=2))
def test_shanten_zero_iff_ready(tiles):
    counts = to_counts(tiles)
    ready = any(brute.standard_pairs([x + (k == t) for k, x in enumerate(counts)])
                for t in range(27) if counts[t] < 4)
    s = shapes.standard_shanten(counts)
    assert (s == 0) == ready or (s == 0 and not ready and any(x == 4 for x in counts))


@settings(max_examples=200)
@given(hands(14, max_suits=3))
def test_shanten_of_14_is_best_discard(tiles):
    counts = to_counts(tiles)
    s14 = shapes.standard_shanten(counts)
    assert (s14 == -1) == bool(brute.standard_pairs(counts))
    best = min(shapes.standard_shanten([x - (k == t) for k, x in enumerate(counts)])
               for t in range(27) if counts[t])
    assert best == max(s14, 0)  # a complete hand (-1) is ready (0) after any discard


# ------------------------------------------------------------ shanten tables (compiled path)
def _hand(rng, n, kinds):
    wall = [k for k in range(kinds) for _ in range(4)]
    rng.shuffle(wall)
    counts = [0] * kinds
    for k in wall[:n]:
        counts[k] += 1
    return bytes(counts)


def test_table_entries_are_the_pareto_sets_read_per_head_and_sets():
    """Each suit entry (made from ``_cuts`` by the entries of what each cut leaves) holds, for head
    h and s sets, one more than the most partial sets of a Pareto triple with head h and at least
    s sets, read here from ``_suit_blocks`` itself; the honours' from ``honour_blocks``."""
    rng = random.Random(3)
    tables = shapes._tables()
    checked = 0
    for _ in range(3000):
        key = bytes(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(key) > 14:
            continue
        blocks = shapes._suit_blocks(key)
        at = shapes._entry(key, 0, 9, tables[0])
        want = [max((t + 1 for m, t, p in blocks if p == h and m >= s), default=0) for h in (0, 1) for s in range(5)]
        assert list(tables[0][at: at + 10]) == want, list(key)
        checked += 1
    for key in [bytes(rng.randrange(5) for _ in range(7)) for _ in range(300)]:
        blocks = shapes._BLOCK_SETS[shapes.honour_blocks(key)]
        at = shapes._entry(key, 0, 7, tables[1])
        want = [max((t + 1 for m, t, p in blocks if p == h and m >= s), default=0) for h in (0, 1) for s in range(5)]
        assert list(tables[1][at: at + 10]) == want, list(key)
    assert checked > 1000


def test_entries_and_their_convolutions_are_sets_prefixes():
    """With either head, an entry's bytes are nonzero from 0 sets up to the most it makes, then
    zero (what lets the C loops over sets stop at the first zero), and so are the ``_convolve`` of
    two entries (a C function compiled: checked as Python)."""
    rng = random.Random(4)
    tables = shapes._tables()
    entries = []
    for _ in range(2000):
        key = bytes(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(key) <= 14:
            at = shapes._entry(key, 0, 9, tables[0])
            entries.append(bytes(tables[0][at:at + 10]))

    def assert_prefix(e):
        for h in (0, 1):
            nonzero = [x != 0 for x in e[5 * h:5 * h + 5]]
            assert nonzero == sorted(nonzero, reverse=True), list(e)

    for e in entries:
        assert_prefix(e)
    if hasattr(shapes, "_convolve"):
        for _ in range(3000):
            a, b = rng.sample(entries, 2)
            out = bytearray(10)
            shapes._convolve(a, 0, b, 0, out, 0)
            assert_prefix(out)
    assert len(entries) > 1000


def test_table_shanten_equals_the_pareto_shanten():
    """The tables answer every shanten question the Pareto sets answer, equal on 6,000 random
    hands of every size (27 kinds, and 34 with the honours), every meld count, both changes; the
    public functions take the tables when compiled and the Pareto sets as Python, the same values."""
    rng = random.Random(5)
    for _ in range(6000):
        n = rng.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14))
        melds = (14 - n) // 3 if rng.random() < 0.8 else rng.randrange(5)
        b, h = _hand(rng, n, 27), _hand(rng, n, 34)
        assert shapes._table_shanten(b, melds) == shapes._pareto_shanten(b, melds) == shapes.standard_shanten(b, melds)
        assert shapes._table_shanten(h, melds) == shapes._pareto_shanten_honours(h, melds) \
            == shapes.standard_shanten_honours(h, melds)
        for delta, public in ((1, shapes.standard_shanten_after_draw), (-1, shapes.standard_shanten_after_discard)):
            if shapes._in_tables(b, 27, delta):
                assert shapes._table_one_changed(b, melds, delta) == shapes._pareto_one_changed(b, melds, delta) \
                    == public(b, melds)
        for delta, public in ((1, shapes.standard_shanten_honours_after_draw),
                              (-1, shapes.standard_shanten_honours_after_discard)):
            if shapes._in_tables(h, 34, delta):
                assert shapes._table_one_changed(h, melds, delta) \
                    == shapes._pareto_honours_one_changed(h, melds, delta) == public(h, melds)


def test_in_tables_is_its_definition():
    """``_in_tables`` (compiled: eight counts a word) says exactly whether ``b`` is ``n`` counts of
    0..4 totalling at most 14 with ``delta`` added: random vectors of 27 and 34 counts, some with a
    count past 4 (up to 255) in any place of a word, and the wrong length."""
    rng = random.Random(8)
    for _ in range(20000):
        n = rng.choice((27, 34))
        b = bytearray(n)
        for _ in range(rng.randrange(17)):
            b[rng.randrange(n)] += 1
        if rng.random() < 0.3:
            b[rng.randrange(n)] = rng.choice((5, 6, 127, 128, 132, 133, 200, 255))
        delta = rng.randrange(-2, 3)
        want = all(x <= 4 for x in b) and sum(b) + max(delta, 0) <= 14
        assert shapes._in_tables(bytes(b), n, delta) is want
        assert shapes._in_tables(b, n, delta) is want
        assert shapes._in_tables(bytes(b), 61 - n, delta) is False  # 27 <-> 34: the wrong length


def test_entry_classes_group_exactly_the_entries_read_alike():
    """Each entry made has a class (``_CLASSES``, 1..255), and two entries share one exactly when
    their bytes read alike as ``_shanten_against`` reads them (each at most 5): the class memo of
    ``_table_changed_row`` answers an entry by its class."""
    rng = random.Random(31)
    tables = shapes._tables()
    by_class, by_bytes = {}, {}
    for width, table, classes, n in ((9, tables[0], shapes._CLASSES[0], 3000), (7, tables[1], shapes._CLASSES[1], 500)):
        for _ in range(n):
            key = bytes(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(width))
            if sum(key) > 14:
                continue
            at = shapes._entry(key, 0, width, table)
            c = classes[at // 10]
            read = bytes(min(x, 5) for x in table[at:at + 10])
            assert 1 <= c <= 255, list(key)
            assert by_class.setdefault(c, read) == read, list(key)
            assert by_bytes.setdefault(read, c) == c, list(key)
    assert 20 < len(by_class) < 255


def test_table_memo_kept_between_calls_answers_as_a_fresh_one():
    """``_table_one_changed`` keeps a group's memo while the group's rest and the meld count stay the
    same: a greedy player's questions (the after-discard row of a hand, then the after-draw row of
    the hand less each of its tiles), asked with every meld count in turn and alternating between
    27 and 34 kinds, so that many calls meet a rest again, some with other melds, equal the Pareto
    sets' answers (the class memo, ``_CMEMO``, kept and forgotten with it)."""
    rng = random.Random(23)
    asked = 0
    for _ in range(400):
        n = rng.choice((5, 8, 11, 14))
        for kinds, reference in ((27, shapes._pareto_one_changed), (34, shapes._pareto_honours_one_changed)):
            hand = _hand(rng, n, kinds)
            for melds in ((14 - n) // 3, rng.randrange(5), (14 - n) // 3):
                if shapes._in_tables(hand, kinds, -1):
                    assert shapes._table_one_changed(hand, melds, -1) == reference(hand, melds, -1)
                for t in range(kinds):
                    if hand[t]:
                        rest = bytearray(hand)
                        rest[t] -= 1
                        if shapes._in_tables(bytes(rest), kinds, 1):
                            assert shapes._table_one_changed(bytes(rest), melds, 1) == reference(bytes(rest), melds, 1)
                            asked += 1
    assert asked > 10000, asked


def test_honours_after_discard_is_the_shanten_of_each_discard():
    """``standard_shanten_honours_after_discard`` is ``standard_shanten_honours`` of the hand less
    each held kind, kind by kind (9 for a kind not held), on random hands with honours."""
    rng = random.Random(11)
    for _ in range(1500):
        n = rng.choice((2, 5, 8, 11, 14))
        melds = (14 - n) // 3
        h = _hand(rng, n, 34)
        slow = []
        for k in range(34):
            less = bytearray(h)
            if less[k]:
                less[k] -= 1
            slow.append(shapes.standard_shanten_honours(bytes(less), melds) if h[k] else 9)
        assert shapes.standard_shanten_honours_after_discard(h, melds) == slow, list(h)


def test_hands_the_tables_do_not_cover_take_the_pareto_sets():
    """More than 14 tiles (or a count above 4) is outside the tables; the answer is still given."""
    big = c("111222333444m555666p")
    assert not shapes._in_tables(bytes(big), 27, 0)
    assert shapes.standard_shanten(big) == shapes._pareto_shanten(bytes(big), 0)
    assert not shapes._in_tables(bytes(c("11122233344455m")), 27, 1)  # 14 tiles, one drawn: 15
    assert shapes.standard_shanten_after_draw(c("11122233344455m")) == \
        shapes._pareto_one_changed(bytes(c("11122233344455m")), 0, 1)


def _near_complete(rng, kinds=27):
    """A 13-tile hand one tile short of four sets and a pair (most have waits), or None."""
    sets = [(k, k + 1, k + 2) for s in range(3) for k in range(9 * s, 9 * s + 7)] + [(k,) * 3 for k in range(kinds)]
    counts = [0] * kinds
    for _ in range(4):
        for t in rng.choice(sets):
            counts[t] += 1
    counts[rng.randrange(kinds)] += 2
    if max(counts) > 4:
        return None
    counts[rng.choice([k for k in range(kinds) if counts[k]])] -= 1
    return bytes(counts)


def test_wait_table_equals_the_suit_dict():
    """The compiled path's suit wait entries give ``standard_wait_mask`` exactly as ``SUIT_TABLE``
    and ``_suit_waits`` do, on near-complete hands (waits of every kind) and random ones; the
    public function takes the table when compiled, the dict as Python, the same values."""
    rng = random.Random(8)
    with_waits = 0
    for i in range(8000):
        b = _near_complete(rng) if i % 2 else _hand(rng, rng.choice((1, 4, 7, 10, 13)), 27)
        if b is None:
            continue
        want = shapes._dict_wait_mask(b)
        assert shapes._table_wait_mask(b) == want == shapes.standard_wait_mask(b), list(b)
        with_waits += want != 0
    assert with_waits > 3000


def test_count_bytes_passes_bytes_and_bytearrays_through_and_converts_the_rest():
    """The shape functions read a game's bytearray without a copy; a list becomes bytes."""
    counts = bytearray(c("123m45p"))
    assert shapes.count_bytes(counts) is counts
    assert shapes.count_bytes(bytes(counts)) == bytes(counts)
    assert shapes.count_bytes(list(counts)) == bytes(counts)
    assert type(shapes.count_bytes(list(counts))) is bytes


def test_is_standard_from_the_wait_table_equals_the_suit_dict():
    """``is_standard``'s compiled path (every suit's whole bit in the wait entries) says what the
    ``SUIT_TABLE`` lookup says, on completed near-complete hands and random 3n+2 ones."""
    rng = random.Random(10)
    complete = 0
    for i in range(8000):
        if i % 2:
            b = _near_complete(rng)
            if b is None:
                continue
            waits = shapes._dict_wait_mask(b)
            if not waits:
                continue
            b = bytes(x + (k == shapes.mask_kinds(waits)[0]) for k, x in enumerate(b))
            if max(b) > 4:  # the tables read counts of 0..4 only (``is_standard`` checks first)
                continue
        else:
            b = _hand(rng, rng.choice((2, 5, 8, 11, 14)), 27)
        want = all(b[lo:lo + 9] in shapes.SUIT_TABLE for lo in (0, 9, 18)) and sum(b) % 3 == 2
        assert shapes._table_is_standard(b) == want == shapes.is_standard(b), list(b)
        complete += want
    assert complete > 3000


def test_hand_wait_mask_is_the_shapes_less_kinds_held_four_times():
    """``hand_wait_mask``: the standard and seven-pairs waits (seven pairs only without melds), plus
    a ruleset's added kinds, less its barred kinds and every kind of which the hand and its melds
    hold four (§2); input it cannot read is refused."""
    rng = random.Random(9)
    checked = 0
    for i in range(4000):
        b = _near_complete(rng) if i % 3 else _hand(rng, 13, 27)
        if b is None:
            continue
        melded = bytearray(27)
        num_melds = rng.randrange(2)
        if num_melds:
            k = rng.randrange(27)
            melded[k] = 3 if b[k] <= 1 else 0
        add, remove = rng.getrandbits(27) * rng.randrange(2), rng.getrandbits(27) * rng.randrange(2)
        want = shapes.standard_wait_mask(b) | (shapes.seven_pairs_wait_mask(b) if num_melds == 0 else 0)
        want = (want | add) & ~remove
        want = shapes.kinds_mask([k for k in shapes.mask_kinds(want) if b[k] + melded[k] < 4])
        assert shapes.hand_wait_mask(b, bytes(melded), num_melds, add, remove) == want, list(b)
        checked += want != 0
    assert checked > 1000
    hand = bytes(c("1111m5p"))  # 1m four times in hand, 5p once in hand and three times melded
    assert shapes.mask_kinds(shapes.hand_wait_mask(hand, bytes(c("555p")), 1, shapes.kinds_mask([0, 3, 22, 23]))) \
        == [3, 23]
    with pytest.raises(ValueError, match="27 counts"):
        shapes.hand_wait_mask(hand, bytes(26), 1)
    with pytest.raises(ValueError, match="past the 27 kinds"):
        shapes.hand_wait_mask(hand, bytes(27), 1, 1 << 27)


WARM = """
import itertools, json, random
from cnmahjong.envs.core import shapes

if shapes.__file__.endswith(".py"):  # the pure package
    print(json.dumps({"pure": shapes.warm_tables()}))
    raise SystemExit
rng = random.Random(1)
lazy = [bytearray(len(t)) for t in shapes._tables()]  # tables of their own, made on demand
for width, table in ((9, lazy[0]), (7, lazy[1])):
    for _ in range(3000):
        key = [rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(width)]
        if sum(key) <= 14:
            shapes._fill(table, sum(x * 5 ** r for r, x in enumerate(key)), width)
lazy_waits = bytearray(len(shapes._wait_table()))  # wait entries of their own, made on demand
suits = [c for c in itertools.product(range(5), repeat=9) if sum(c) <= 13]
for key in rng.sample(suits, 3000):
    shapes._suit_wait_entry(lazy_waits, sum(x * 5 ** r for r, x in enumerate(key)), 1)
made, again = shapes.warm_tables(), shapes.warm_tables()
waits = shapes._wait_table()
wait_differ = sum(lazy_waits[i:i + 2] != waits[i:i + 2] if lazy_waits[i + 1] & 0x40  # waits made on demand
                  else lazy_waits[i + 1] & 0x82 != waits[i + 1] & 0x82  # the whole bit alone (a neighbour's)
                  for i in range(0, len(lazy_waits), 2) if lazy_waits[i + 1])
wait_cold = sum(not waits[2 * sum(x * 5 ** r for r, x in enumerate(c)) + 1] & 0x40 for c in suits)
tables = shapes._tables()
differ = filled_lazily = 0
for warm, own in zip(tables, lazy):
    for i in range(0, len(own), 10):
        if own[i]:
            filled_lazily += 1
            differ += warm[i:i + 10] != own[i:i + 10]
within = [sum(sum(c) <= 14 for c in itertools.product(range(5), repeat=w)) for w in (9, 7)]
print(json.dumps({"made": made, "again": again, "within": within, "differ": differ, "lazily": filled_lazily,
                  "wait_differ": wait_differ, "wait_cold": wait_cold, "waits_lazily": sum(map(bool, lazy_waits[1::2])),
                  "filled": [sum(1 for i in range(0, len(t), 10) if t[i]) for t in tables]}))
"""


def test_warm_tables_makes_every_entry_as_a_hand_would_make_it():
    """``warm_tables`` makes every suit and honours entry of at most 14 tiles at once (in a fresh
    process: the tables are per process), each equal to the entry made on demand (recursively, from
    ``_cuts``) in tables of their own; a second call makes none; and every suit wait entry of at most
    13 tiles, waits included, equal to those made on demand. The pure package has no tables."""
    import json
    import os
    import subprocess
    import sys

    for pure in ("1", "0"):
        done = subprocess.run([sys.executable, "-c", WARM], env=dict(os.environ, CNMAHJONG_PURE=pure),
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        out = json.loads(done.stdout)
        if pure == "1" or "pure" in out:
            assert out == {"pure": 0}, (pure, out)
            continue
        assert out["made"] == sum(out["within"]) == 405_350 + 43_130 and out["again"] == 0
        assert out["filled"] == out["within"] and out["differ"] == 0 and out["lazily"] > 3000
        # every suit wait entry of at most 13 tiles made, waits included, as a hand would make it
        assert out["wait_cold"] == 0 and out["wait_differ"] == 0 and out["waits_lazily"] > 3000


def test_shanten_one_changed_is_the_lower_of_standard_and_seven_pairs_per_kind():
    """``shanten_one_changed`` (what the rulesets with seven pairs start from) is, kind by kind,
    ``standard_shanten`` of the changed hand, or ``seven_pairs_shanten`` when lower and there are
    no melds; 9 where the change is impossible; both changes, random hands of every size."""
    rng = random.Random(12)
    for _ in range(2000):
        n = rng.choice((1, 4, 7, 10, 13, 2, 5, 8, 11, 14))
        melds = (14 - n) // 3
        b = _hand(rng, n, 27)
        for delta in (1, -1):
            slow = []
            for k in range(27):
                x = b[k] + delta
                if not 0 <= x <= 4:
                    slow.append(9)
                    continue
                changed = bytearray(b)
                changed[k] = x
                s = shapes.standard_shanten(bytes(changed), melds)
                slow.append(min(s, shapes.seven_pairs_shanten(bytes(changed))) if melds == 0 else s)
            assert shapes.shanten_one_changed(b, melds, delta) == slow, (list(b), melds, delta)
    with pytest.raises(ValueError, match="27 kinds"):
        shapes.shanten_one_changed(bytes(34), 0, 1)


def test_suit_whole_is_membership_of_the_suit_table():
    """``_suit_whole`` (the wait entries' whole bit, decided in C loops) says of every suit content
    of at most 14 tiles, and of a sample of larger ones, what membership of ``SUIT_TABLE`` says
    (every content compiled; as Python, all of at most 8 tiles and a random sample)."""
    from itertools import product

    contents = list(product(range(5), repeat=9))
    if not shapes.__file__.endswith(".so"):
        rng = random.Random(3)
        contents = [c for c in contents if sum(c) <= 8] + rng.sample(contents, 20000)
    wholes = 0
    for c in contents:
        whole = bytes(c) in shapes.SUIT_TABLE
        wholes += whole
        assert shapes._suit_whole(sum(x * 5 ** r for r, x in enumerate(c))) == whole, c
    assert wholes > 1000


def test_lowest_held_is_the_least_value_over_the_kinds_held():
    """``lowest_held`` (a player's best discard from its after-discard shanten) is the least of
    the values at the kinds the counts hold, whatever lies at the others, and 9 when none is held."""
    rng = random.Random(13)
    for _ in range(500):
        counts = bytes(rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(rng.choice((27, 34))))
        values = [rng.randrange(-1, 9) for _ in counts]
        held = [v for v, c in zip(values, counts, strict=True) if c]
        assert shapes.lowest_held(values, counts) == (min(held) if held else 9)
        assert shapes.lowest_held(values, list(counts)) == shapes.lowest_held(values, bytearray(counts))
    assert shapes.lowest_held([0] * 27, bytes(27)) == 9


def test_lowest_of_is_the_least_value_at_the_kinds_given():
    """``lowest_of`` (the shanten a player's best legal discard leaves) is the least of the values
    at the given kinds, whatever lies at the others, and 9 when no kind is given."""
    rng = random.Random(17)
    for _ in range(500):
        values = [rng.randrange(-1, 9) for _ in range(rng.choice((27, 34)))]
        kinds = sorted(rng.sample(range(len(values)), rng.randrange(0, 8)))
        assert shapes.lowest_of(values, kinds) == min((values[k] for k in kinds), default=9)
    assert shapes.lowest_of([0] * 27, []) == 9

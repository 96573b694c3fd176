"""§1 tiles: kinds, text form, glyphs."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cnmahjong.envs.core import tiles
from cnmahjong.envs.core.tiles import format, parse
from tests.strategies import hands


def test_kind_numbering_section1():
    # §1: m1..m9 = 0..8, s1..s9 = 9..17, p1..p9 = 18..26
    assert parse("1m9m1s9s1p9p") == [0, 8, 9, 17, 18, 26]
    assert tiles.kind("s", 5) == 13
    assert tiles.rank(13) == 5 and tiles.suit(13) == 1


def test_jiang_tiles_are_rank_258_section1():
    assert sorted(tiles.JIANG_KINDS) == parse("258m258s258p")
    assert tiles.is_jiang(parse("5p")[0]) and not tiles.is_jiang(parse("6p")[0])


def test_honours_reserved_for_hangzhou():
    assert parse("1z7z", honours=True) == [27, 33]
    with pytest.raises(ValueError, match="unexpected character 'z'"):
        parse("1z")
    with pytest.raises(ValueError, match="8z"):
        parse("8z", honours=True)


@pytest.mark.parametrize(
    "text, fragment",
    [("0m", "0m"), ("12x", "'x'"), ("123", "no suit letter"), ("m", "no digits"),
     ("11111m", "5 copies of 1m")],
)
def test_bad_text_names_the_offending_part(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse(text)


def test_fifth_copy_allowed_only_when_asked():
    assert len(parse("11111m", max_copies=8)) == 5


def test_format_groups_by_suit_and_sorts():
    assert format(parse("9p123m5s1m")) == "1123m5s9p"
    assert format([26, 0], sort=False) == "9p1m"
    assert format([]) == ""


@given(st.integers(0, 36).flatmap(lambda n: hands(n)))
def test_parse_format_round_trip(kinds):
    assert parse(format(kinds)) == sorted(kinds)


def test_glyphs():
    assert tiles.glyph(0) == "\U0001F007"  # 🀇 one of characters
    assert tiles.glyph(9) == "\U0001F010"  # 🀐 one of bamboo
    assert tiles.glyph(26) == "\U0001F021"  # 🀡 nine of dots
    assert tiles.glyph(33) == "\U0001F006"  # 🀆 white dragon
    assert tiles.glyphs(parse("21m")) == "\U0001F007\U0001F008"


def test_counts_reject_bad_kinds_and_fifth_copies():
    with pytest.raises(ValueError, match="out of range"):
        tiles.to_counts([27])
    with pytest.raises(ValueError, match="fifth copy"):
        tiles.to_counts([3] * 5)
    with pytest.raises(ValueError, match="not an integer"):
        tiles.to_counts(["a"])
    assert tiles.from_counts(tiles.to_counts([5, 1, 5])) == [1, 5, 5]


@given(st.lists(st.integers(0, 4), min_size=27, max_size=34), st.sampled_from([bytearray, bytes, list]))
def test_melds_of_reads_every_count_form_alike(counts, form):
    """``melds_of`` (a C loop over a game's bytearray or bytes when compiled, ``sum`` otherwise):
    the melds beside 14 (or 13) tiles less 3 per meld, the same for every form of the counts."""
    size = sum(counts)
    expected = (14 - size) // 3 if size % 3 == 2 else (13 - size) // 3
    assert tiles.melds_of(form(counts)) == expected


@pytest.mark.parametrize("form", [bytearray, bytes, list])
def test_counts_copy_is_an_independent_bytearray(form):
    """``counts_copy``: a new ``bytearray`` of the same counts, whatever the row's form; changing
    it leaves the game's row as it was."""
    row = form([1, 0, 4, 2] + [0] * 23)
    copy = tiles.counts_copy(row)
    assert type(copy) is bytearray and list(copy) == list(row) and copy is not row
    copy[0] = 3
    assert list(row)[0] == 1

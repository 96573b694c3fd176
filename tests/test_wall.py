"""§1 the wall: stacks, head, tail and dice draws; §7 the 海底 tile; §8.1 bird peeks."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cnmahjong.envs.core.wall import EMPTY, HONOURS_WALL_SIZE, WALL_SIZE, Wall, WallEmptyError


def full_wall():
    # position k holds kind k % 27 so every tile tells where it came from
    return Wall([k % 27 for k in range(108)])


def test_head_draws_take_increasing_positions_section1():
    w = full_wall()
    assert [w.draw_head() for _ in range(3)] == [0, 1, 2]
    assert w.remaining == 105


def test_tail_draw_takes_top_then_bottom_of_last_stack_section1():
    w = Wall(list(range(10)))  # positions 98..107, stacks 49..53
    assert w.draw_tail() == 8  # position 106: stack 53 top
    assert w.draw_tail() == 9  # position 107: its bottom
    assert w.draw_tail() == 6  # stack 52 top


def test_scenario_wall_sits_at_end_of_layout_section11():
    w = Wall([1, 2, 3])
    assert w.positions() == [105, 106, 107]
    # position 105 is the bottom of stack 52: one stack is half taken
    assert w.stacks_left() == 2


def test_dice_draw_counts_nonempty_stacks_from_tail_section1():
    w = Wall(list(range(10)))  # stacks 49..53 hold (0,1) (2,3) (4,5) (6,7) (8,9)
    assert w.draw_dice(2, count=2) == [6, 7]  # 2nd stack from the tail
    # stack 52 is now empty and no longer counted: the 2nd is stack 51
    assert w.draw_dice(2, count=2) == [4, 5]


def test_dice_draw_single_tile_takes_top_or_bottom_section6_3():
    w = Wall(list(range(10)))
    assert w.draw_dice(1, count=1) == [8]
    assert w.draw_dice(1, count=1) == [9]  # top gone: the bottom
    assert w.remaining == 8


def test_dice_draw_half_stack_gives_one_tile_section1():
    w = Wall(list(range(10)))
    w.draw_tail()  # top of stack 53
    assert w.draw_dice(1, count=2) == [9]


def test_dice_overflow_tail_and_head_section1():
    w = Wall(list(range(6)))  # 3 stacks
    assert w.dice_stack(12, "tail") == 53
    assert w.dice_stack(12, "head") == 51
    with pytest.raises(ValueError, match="kong_dice_overflow"):
        w.dice_stack(12, "middle")


def test_haidi_is_the_single_last_tile_section7():
    w = Wall([4, 5])
    assert not w.is_haidi
    w.draw_head()
    assert w.is_haidi
    assert w.draw_dice(7, count=2) == [5]  # §6.3: the 海底 tile taken by a kong draw
    assert w.remaining == 0
    with pytest.raises(WallEmptyError):
        w.draw_head()


def test_peek_head_for_birds_section8_1():
    w = Wall([3, 4, 5])
    assert w.peek_head(2) == [3, 4]
    assert w.remaining == 3
    w.draw_dice(1, count=2)  # stack 53: positions 106, 107 -> tiles 4, 5
    assert w.peek_head(2) == [3]


@given(st.lists(st.sampled_from(["head", "tail", "dice1", "dice2"]), max_size=120),
       st.lists(st.integers(1, 12), min_size=120, max_size=120))
def test_every_tile_drawn_exactly_once(ops, dice):
    w = full_wall()
    drawn = []
    for op, d in zip(ops, dice, strict=False):
        if w.remaining == 0:
            break
        before = w.remaining
        drawn.extend(draw(w, op, d))
        assert w.remaining == before - (len(drawn) - (108 - before))
    assert sorted(drawn + w.tiles()) == sorted(k % 27 for k in range(108))
    assert w.remaining == len(w.tiles()) == 108 - len(drawn)
    assert EMPTY not in w.tiles()


@given(st.integers(0, 108), st.lists(st.sampled_from(["head", "tail", "dice1", "dice2"]), max_size=60),
       st.lists(st.integers(1, 12), min_size=60, max_size=60))
def test_stacks_left_counts_nonempty_stacks(n, ops, dice):
    w = Wall([k % 27 for k in range(n)])
    for op, d in zip(ops, dice, strict=False):
        expect = len({k // 2 for k in w.positions()})
        assert w.stacks_left() == expect
        if w.remaining == 0:
            break
        draw(w, op, d)


def draw(w: Wall, op: str, d: int) -> list[int]:
    """One draw of kind ``op`` (head, tail, dice1, dice2; ``d`` the dice total)."""
    if op == "head":
        return [w.draw_head()]
    if op == "tail":
        return [w.draw_tail()]
    return w.draw_dice(d, count=1 if op == "dice1" else 2)


@given(st.sampled_from([WALL_SIZE, HONOURS_WALL_SIZE]), st.randoms(use_true_random=False), st.integers(0, 60),
       st.lists(st.sampled_from(["head", "tail", "dice1", "dice2"]), max_size=30),
       st.lists(st.integers(1, 12), min_size=30, max_size=30))
def test_the_deal_wall_is_the_full_wall_after_its_head_draws_section1(size, rnd, take, ops, dice):
    """The seeded deal lays out the tiles after the first 53 (``_seeded_deal``): that wall is
    the full wall after 53 head draws, position for position with its stacks, head and tail,
    and it draws alike after (any ``take``, 108 or 136 tiles); its ``tiles`` are the layout's.
    ``Wall.after_deal`` (the deal's wall made in place of its shuffled list) is that wall too."""
    tiles = [k % 34 for k in range(size)]
    rnd.shuffle(tiles)
    full, rest = Wall(tiles, size=size), Wall(tiles[take:], size=size)
    taken = Wall.after_deal(list(tiles), take)
    assert [full.draw_head() for _ in range(take)] == tiles[:take]
    assert full.layout() == rest.layout() == taken.layout()
    for attr in ("_head", "_tail_stack", "remaining", "_stacks", "size"):
        assert getattr(full, attr) == getattr(rest, attr) == getattr(taken, attr), attr
    for op, d in zip(ops, dice, strict=False):
        if full.remaining:
            assert draw(full, op, d) == draw(rest, op, d) == draw(taken, op, d)
    assert full.layout() == rest.layout() == taken.layout() and full.stacks_left() == rest.stacks_left()
    assert full.tiles() == rest.tiles() == taken.tiles() == [t for t in full.layout() if t != EMPTY]


@given(st.one_of(st.integers(0, 999), st.integers(0, 2**32 - 1), st.integers(2**32, 2**64 - 1)),
       st.sampled_from([27, 34]))
def test_a_seeded_shuffle_is_random_randoms_shuffle_section1(seed, num_kinds):
    """``seeded_shuffle`` (compiled: CPython's Mersenne Twister in C, ``_mt_order``) deals exactly
    what ``shuffled(random.Random(seed))`` deals, for one-word and two-word seeds; ``_mt_order``
    itself is asked too (as Python under ``CNMAHJONG_PURE=1``: the same loops on masked ints)."""
    import random

    from cnmahjong.envs.core import wall

    expected = wall.shuffled(random.Random(seed), num_kinds)
    assert wall.seeded_shuffle(seed, num_kinds) == expected
    assert wall._mt_order(seed, wall._shuffle_tables(num_kinds)[0], 0) == (expected, -1)


@given(st.one_of(st.integers(0, 999), st.integers(0, 2**64 - 1), st.integers(2**64, 2**70)),
       st.sampled_from([27, 34]), st.sampled_from([1, 2, 3, 5, 7, 1000, 2**31]))
def test_a_seeded_shuffle_and_its_generators_next_draw_are_random_randoms_section1(seed, num_kinds, below):
    """``seeded_shuffle_and_draw`` (Sichuan's random 换三张 direction is its one draw): the tiles of
    ``shuffled(random.Random(seed))`` and that generator's next ``randrange(below)``."""
    import random

    from cnmahjong.envs.core import wall

    rng = random.Random(seed)
    expected = wall.shuffled(rng, num_kinds)
    assert wall.seeded_shuffle_and_draw(seed, num_kinds, below) == (expected, rng.randrange(below))
    with pytest.raises(ValueError, match="allowed 1..2"):
        wall.seeded_shuffle_and_draw(seed, num_kinds, 0)


def test_a_seed_past_64_bits_is_shuffled_by_random_random_section1():
    import random

    from cnmahjong.envs.core.wall import seeded_shuffle, shuffled

    for seed in (2**64, 2**64 + 12345, 2**200 + 1):
        assert seeded_shuffle(seed) == shuffled(random.Random(seed))


@pytest.mark.parametrize("num_kinds", [27, 34])
def test_the_generator_after_a_shuffle_is_where_the_shuffle_left_it_section1(num_kinds):
    """A hand dealt by ``seeded_shuffle`` rolls its dice with ``generator_after_shuffle``: the same
    generator, in the same state, as the one ``shuffled`` drew its tiles from."""
    import random

    from cnmahjong.envs.core.wall import generator_after_shuffle, shuffled

    for seed in (0, 7, 2**63 - 1):
        rng = random.Random(seed)
        shuffled(rng, num_kinds)
        assert generator_after_shuffle(seed, num_kinds).getstate() == rng.getstate()


@pytest.mark.parametrize("seed", [0, 5, 2**40 + 3])
def test_a_seeded_changsha_hand_rolls_the_dice_of_its_seeds_generator_section6_3(seed):
    """The dice (开杠, birds of an opening win) come from the seed's generator after the shuffle,
    whether the deal kept it (as Python) or makes it when first asked (a deal shuffled in C)."""
    import random

    from cnmahjong.envs.changsha.game import ChangshaGame
    from cnmahjong.envs.core.wall import shuffled

    rng = random.Random(seed)
    shuffled(rng, 27)
    expected = [rng.randint(1, 6) for _ in range(6)]
    game = ChangshaGame(seed=seed)
    assert game.peek_dice(6) == expected
    assert game._roll(2, "kong", 0) == expected[:2]
    assert game.peek_dice(4) == expected[2:]


@pytest.mark.parametrize("seed", [0, 9, 2**63 - 1])
def test_a_seeded_sichuan_hand_draws_its_swap_direction_from_its_seeds_generator_section1(seed):
    """Sichuan's random 换三张 direction is the seed's generator's first draw after the shuffle,
    whether drawn from it (as Python) or made with a deal shuffled in C."""
    import random

    from cnmahjong.envs.core.wall import shuffled
    from cnmahjong.envs.sichuan.game import SichuanGame
    from cnmahjong.envs.sichuan.rules import DIRECTIONS

    rng = random.Random(seed)
    shuffled(rng, 27)
    expected = DIRECTIONS[rng.randrange(3)]
    game = SichuanGame(seed=seed)
    assert game.config.huan_direction == "random"
    while game.swap_direction is None:
        seat = game.to_act[0]
        game.step(seat, game.legal_actions(seat)[0])
    assert game.swap_direction == expected

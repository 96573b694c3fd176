"""Hypothesis strategies for hands: distinct physical tiles, so no fifth copy ever appears."""

from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def hands(draw, size: int, max_suits: int = 3) -> list[int]:
    """``size`` tiles from the 108 physical tiles, from one to ``max_suits`` suits.

    Fewer suits make complete and ready hands common enough to test.
    """
    suits = draw(st.lists(st.sampled_from([0, 1, 2]), min_size=1, max_size=max_suits, unique=True))
    ids = draw(st.lists(st.integers(0, 36 * len(suits) - 1), min_size=size, max_size=size,
                        unique=True))
    return sorted(suits[i // 36] * 9 + (i % 36) // 4 for i in ids)

"""Global state (全局状态) for centralised critics: the whole table from nobody's point of view.

A seat's observation holds the public table and its own hand, nothing else. The state adds what
no seat knows, so that a critic trained on it (MAPPO, TorchRL's ``return_state``, Suphx-style
oracle guiding) sees everything the rest of the hand depends on. Planes over the ruleset's kinds,
uint8 as made (``StateLayout.planes``), float32 in [0, 1] for the envs (``StateLayout.to_float``):

| channels | content |
|---|---|
| ``s·C … s·C + C − 1``, s = 0..3 | seat s's own observation (its encoder planes): its hand, the public table |
| ``4C … 4C + W − 1`` | the wall in order: layout position ``53 + i`` (stack ``p // 2``), one-hot; 0 once taken |
| ``4C + W …`` | the dice the hand will roll next (Changsha), four a row: die ``4r + j`` at column ``6j + v − 1`` |

``C`` is the observation's channel count and ``W`` the wall's size less the 53 tiles dealt
(55 Changsha, 83 Hangzhou, whose first row is the turned-up indicator's position). A pending
window's choices so far are in no block: they stay hidden until the window resolves.
The ruleset's game supplies ``wall.layout()`` and ``peek_dice(n)`` for ``DICE_AHEAD`` dice,
enough for any hand, so the state and the actions that follow determine the rest of the hand.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from cnmahjong.envs.core.channels import EncoderSpec
from cnmahjong.envs.core.engine import DEALT_TILES, NUM_SEATS
from cnmahjong.envs.core.planes import Rows
from cnmahjong.envs.core.ruleset import Ruleset, get_ruleset
from cnmahjong.envs.core.wall import EMPTY

DICE_PER_ROW = 4
"""Dice packed into one row: four one-hot groups of six columns."""
DIE_FACES = 6


class StateLayout:
    """The state planes of one ruleset (see the module docstring)."""

    def __init__(self, ruleset: Ruleset, encoding: EncoderSpec | None = None) -> None:
        self.ruleset = ruleset
        self.encoding = encoding = encoding or ruleset.encoding
        """Whose planes make each seat's block (the env's encoder)."""
        channels, kinds = encoding.shape
        game = ruleset.game
        self.obs_channels = NUM_SEATS * channels
        self.wall_channels = game.WALL_SIZE - DEALT_TILES
        self.dice_ahead = game.DICE_AHEAD
        self.dice_channels = -(-self.dice_ahead // DICE_PER_ROW)
        self.shape = (self.obs_channels + self.wall_channels + self.dice_channels, kinds)
        if self.dice_channels and kinds < DICE_PER_ROW * DIE_FACES:
            raise ValueError(f"{ruleset.name}: {kinds} kinds cannot hold {DICE_PER_ROW} dice a row")
        rows = Rows(kinds)
        self._tile_row = {EMPTY: rows.zero, **dict(enumerate(rows.onehot))}
        self._zero = rows.zero
        self._dice_cache: dict[tuple[int, ...], bytes] = {}  # the dice ahead change only at a roll

    @property
    def wall_start(self) -> int:
        """First channel of the wall block."""
        return self.obs_channels

    @property
    def dice_start(self) -> int:
        """First channel of the dice block."""
        return self.obs_channels + self.wall_channels

    def planes(self, game: Any, encoder: Any) -> bytes:
        """The uint8 state of ``game`` (``encoder``: the ruleset's incremental encoder the caller
        already keeps for this game, so the four observations cost what observing them does)."""
        obs = b"".join([encoder.planes(game, s) for s in range(NUM_SEATS)])
        wall = b"".join(map(self._tile_row.__getitem__, game.wall.layout()[DEALT_TILES:]))
        return obs + wall + self._dice_rows(game.peek_dice(self.dice_ahead) if self.dice_ahead else [])

    def _dice_rows(self, dice: list[int]) -> bytes:
        if not self.dice_channels:
            return b""
        key = tuple(dice)
        rows = self._dice_cache.get(key)
        if rows is None:
            if len(self._dice_cache) >= 4096:
                self._dice_cache.clear()
            rows = self._dice_cache[key] = self._make_dice_rows(dice)
        return rows

    def _make_dice_rows(self, dice: list[int]) -> bytes:
        out = bytearray(self._zero * self.dice_channels)
        kinds = len(self._zero)
        for i, v in enumerate(dice):
            r, j = divmod(i, DICE_PER_ROW)
            out[r * kinds + j * DIE_FACES + v - 1] = 1
        return bytes(out)

    def to_float(self, planes: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """uint8 state planes ``(..., S, K)`` as float32, the observation blocks through the
        ruleset's own ``to_float`` (its count channels become the fractions the envs show)."""
        if out is None:
            out = np.empty(planes.shape, dtype=np.float32)
        c, k = self.encoding.shape
        lead = planes.shape[:-2]
        obs = planes[..., : self.obs_channels, :].reshape(*lead, NUM_SEATS, c, k)
        out[..., : self.obs_channels, :] = self.encoding.to_float(obs).reshape(*lead, self.obs_channels, k)
        np.copyto(out[..., self.obs_channels:, :], planes[..., self.obs_channels:, :], casting="unsafe")
        return out

    def decode_wall(self, state: np.ndarray) -> list[int]:
        """The wall layout (kind or ``EMPTY`` per position ``53..``) a state's wall block holds."""
        block = np.asarray(state)[self.wall_start: self.dice_start]
        return [int(row.argmax()) if row.any() else EMPTY for row in block]

    def decode_dice(self, state: np.ndarray) -> list[int]:
        """The dice ahead a state's dice block holds, in order."""
        block = np.asarray(state)[self.dice_start:].reshape(-1, len(self._zero))[:, : DICE_PER_ROW * DIE_FACES]
        faces = block.reshape(-1, DIE_FACES)
        return [int(f.argmax()) + 1 for f in faces if f.any()]


@cache
def state_layout(ruleset: str | Ruleset, encoding: EncoderSpec | None = None) -> StateLayout:
    """The ``StateLayout`` of a ruleset (by name or object) over one of its encodings (its default
    when None)."""
    return StateLayout(get_ruleset(ruleset), encoding)

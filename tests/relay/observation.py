"""The relay's encoder ``rl-v0``: what one seat may know, relative to it."""

from __future__ import annotations

from typing import Any

import numpy as np

from cnmahjong.envs.core.channels import ChannelTable, EncoderSpec, Group, Value
from cnmahjong.envs.core.engine import NUM_SEATS

KINDS = 27
PHASES = ("pass", "discard", "claim")


def _kinds(tiles: Any) -> bytearray:
    row = bytearray(KINDS)
    for t in tiles:
        row[t] = 1
    return row


class Encoder:
    SHAPE = (4 + 1 + 1 + 4 + 1 + 4 + 3, KINDS)

    def planes(self, game: Any, seat: int) -> bytes:
        out = bytearray()
        h = game.hands[seat]
        for n in range(4):
            out += bytes(1 if h[k] > n else 0 for k in range(KINDS))
        window = game._window
        own = window.picks.get(seat, []) if window is not None and window.kind == "pass" else []
        out += _kinds([a - 29 for a in own] or game.passed[seat])  # what it picked / passed on
        out += _kinds(game.passed[(seat - 1) % NUM_SEATS] if game.passed[seat] else [])  # what it received
        for i in range(NUM_SEATS):
            out += _kinds(game.rivers[(seat + i) % NUM_SEATS])
        out += _kinds(game.claim_tiles)
        for i in range(NUM_SEATS):
            out += bytes([1 if (seat + i) % NUM_SEATS in game.out else 0]) * KINDS
        for p in PHASES:
            out += bytes([1 if game.phase == p else 0]) * KINDS
        return bytes(out)

    def __call__(self, game: Any, seat: int) -> np.ndarray:
        return np.frombuffer(self.planes(game, seat), dtype=np.uint8).astype(np.float32).reshape(self.SHAPE)


def to_float(planes: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    if out is None:
        out = np.empty(planes.shape, dtype=np.float32)
    np.copyto(out, planes, casting="unsafe")
    return out


TABLE = ChannelTable((
    Group("HAND", 4, "own concealed hand (手牌)", Value.THERMOMETER),
    Group("PASSED", 1, "kinds it picked / passed on (its own only)", Value.KINDS),
    Group("RECEIVED", 1, "kinds it received from the previous seat", Value.KINDS),
    Group("RIVERS", 1, "kinds in each relative seat's river", Value.KINDS, 4, "relative seat"),
    Group("OFFERED", 1, "the discard offered to claim", Value.KINDS),
    Group("OUT", 1, "the relative seat has won and left", Value.FLAG, 4, "relative seat"),
    Group("PHASE", 3, "the phase", Value.CHOICE, labels=PHASES),
))
assert TABLE.size == Encoder.SHAPE[0], (TABLE.size, Encoder.SHAPE)

ENCODINGS = (EncoderSpec("rl-v0", TABLE, Encoder.SHAPE, Encoder, to_float),)

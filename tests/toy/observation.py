"""Two named encoders of the toy, so that a ruleset holding several is exercised: ``fp-v0``
(own hand counts ≥1..4, tiles seen in rivers, the offered tile) and ``fp-v1`` (the same plus
each seat's river, relative to the observer)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cnmahjong.envs.core.channels import ChannelTable, EncoderSpec, Group, Value
from cnmahjong.envs.core.engine import NUM_SEATS

KINDS = 27


def _rows(game: Any, seat: int, per_seat: bool) -> bytes:
    out = bytearray()
    h = game.hands[seat]
    for n in range(1, 5):
        out += bytes(1 if h[k] >= n else 0 for k in range(KINDS))
    seen = bytearray(KINDS)
    for river in game.rivers:
        for t in river:
            seen[t] = 1
    out += seen
    offered = bytearray(KINDS)
    for t in game.claim_tiles:
        offered[t] = 1
    out += offered
    if per_seat:
        for i in range(NUM_SEATS):
            row = bytearray(KINDS)
            for t in game.rivers[(seat + i) % NUM_SEATS]:
                row[t] = 1
            out += row
    return bytes(out)


class _Encoder:
    PER_SEAT = False
    SHAPE = (6, KINDS)

    def planes(self, game: Any, seat: int) -> bytes:
        return _rows(game, seat, self.PER_SEAT)

    def __call__(self, game: Any, seat: int) -> np.ndarray:
        return np.frombuffer(self.planes(game, seat), dtype=np.uint8).astype(np.float32).reshape(self.SHAPE)


class EncoderV1(_Encoder):
    PER_SEAT = True
    SHAPE = (10, KINDS)


def to_float(planes: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    if out is None:
        out = np.empty(planes.shape, dtype=np.float32)
    np.copyto(out, planes, casting="unsafe")
    return out


_V0 = (Group("HAND", 4, "own concealed hand (手牌)", Value.THERMOMETER),
       Group("SEEN", 1, "kinds in any river (牌河)", Value.KINDS),
       Group("OFFERED", 1, "the discard offered to claim", Value.KINDS))
V0 = ChannelTable(_V0)
V1 = ChannelTable((*_V0, Group("RIVERS", 1, "kinds in each relative seat's river", Value.KINDS, 4, "relative seat")))

ENCODINGS = (EncoderSpec("fp-v0", V0, _Encoder.SHAPE, _Encoder, to_float),
             EncoderSpec("fp-v1", V1, EncoderV1.SHAPE, EncoderV1, to_float))

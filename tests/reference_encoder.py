"""A plain, slow ``cs-v0`` encoder written straight from the channel table of
``envs/changsha/observation.py``: loops over seats, kinds and levels, no caches.
The fast incremental encoder must equal it at every step.

It keeps its own copy of the layout (``WRITTEN_FOR``: the groups it writes, with its own
running sum for the offsets), so a change to the declaration ``CHANNELS`` shows here as a
layout difference, checked at import (``check_layout``), before any plane is compared."""

from __future__ import annotations

import numpy as np

from cnmahjong.envs.changsha.game import PHASES, ChangshaGame
from cnmahjong.envs.changsha.observation import CHANNELS

RECENT = 6
WRITTEN_FOR = (
    ("HAND", 4, 1, "THERMOMETER"), ("MELDS", 4, 4, "THERMOMETER"), ("RIVER", 4, 4, "THERMOMETER"),
    ("SHOWN", 4, 4, "THERMOMETER"), ("UNSEEN", 4, 1, "THERMOMETER"), ("KONGS", 1, 4, "KINDS"),
    ("RECENT_DISCARDS", RECENT, 4, "ONE_HOT"), ("DRAWN", 1, 1, "ONE_HOT"), ("LOUHU", 1, 1, "KINDS"),
    ("REVEALED", 2, 1, "THERMOMETER"), ("CLAIM", 2, 1, "THERMOMETER"), ("DEALER", 4, 1, "CHOICE"),
    ("LOCKED", 1, 4, "FLAG"), ("ACTOR", 4, 1, "CHOICE"), ("WALL", 1, 1, "FRACTION"),
    ("STACKS", 1, 1, "FRACTION"), ("PHASE", len(PHASES), 1, "CHOICE"), ("DECLARED", 1, 4, "FLAG"),
)
"""(name, planes per block, blocks, value kind) of each group this encoder writes, in plane order."""


def _layout() -> tuple[dict[str, int], tuple[tuple[str, int, int, int, str], ...]]:
    at, rows, first = {}, [], 0
    for name, planes, blocks, value in WRITTEN_FOR:
        at[name] = first
        rows.append((name, first, planes, blocks, value))
        first += planes * blocks
    at["NUM_CHANNELS"] = first
    return at, tuple(rows)


AT, LAYOUT = _layout()
"""``AT[name]``: the first channel of each group (and ``AT["NUM_CHANNELS"]``); ``LAYOUT``: the rows
``CHANNELS.layout()`` must give."""


def check_layout() -> None:
    """The reference's layout is the declaration's, group by group."""
    declared = CHANNELS.layout()
    if declared != LAYOUT:
        diff = next(i for i in range(max(len(declared), len(LAYOUT)))
                    if i >= len(declared) or i >= len(LAYOUT) or declared[i] != LAYOUT[i])
        raise AssertionError(f"cs-v0 CHANNELS changed at group {diff}: declared "
                             f"{declared[diff] if diff < len(declared) else None}, the reference encoder "
                             f"writes {LAYOUT[diff] if diff < len(LAYOUT) else None}: update the reference encoder")


check_layout()


def reference_encode(game: ChangshaGame, seat: int) -> np.ndarray:
    obs = np.zeros((AT["NUM_CHANNELS"], 27), dtype=np.float32)
    rel = [(seat + r) % 4 for r in range(4)]  # absolute seat of relative seat r

    def therm(first: int, counts, levels: int = 4) -> None:
        for level in range(levels):
            for k in range(27):
                obs[first + level, k] = 1.0 if counts[k] > level else 0.0

    therm(AT["HAND"], list(game.hands[seat]))
    seen = list(game.hands[seat])
    for r, s in enumerate(rel):
        therm(AT["MELDS"] + 4 * r, list(game.melded[s]))
        therm(AT["RIVER"] + 4 * r, list(game.river_counts[s]))
        therm(AT["SHOWN"] + 4 * r, list(game.shown[s]))
        for m in game.melds[s]:
            if len(m.tiles) == 4:
                obs[AT["KONGS"] + r, m.tiles[0]] = 1.0
        newest_first = list(reversed(game.rivers[s]))[:RECENT]
        for j, t in enumerate(newest_first):
            obs[AT["RECENT_DISCARDS"] + RECENT * r + j, t] = 1.0
        for k in range(27):
            seen[k] += game.melded[s][k] + game.river_counts[s][k] + (game.shown[s][k] if s != seat else 0)
    for t in game.revealed:
        seen[t] += 1
    therm(AT["UNSEEN"], [4 - x for x in seen])
    if game.turn == seat and game.drawn is not None and game.phase == "discard":
        obs[AT["DRAWN"], game.drawn] = 1.0
    for k in range(27):
        if game.louhu[seat] >> k & 1:
            obs[AT["LOUHU"], k] = 1.0
    therm(AT["REVEALED"], [game.revealed.count(k) for k in range(27)], 2)
    therm(AT["CLAIM"], [game.claim_tiles.count(k) for k in range(27)], 2)
    obs[AT["DEALER"] + (game.dealer - seat) % 4, :] = 1.0
    for r, s in enumerate(rel):
        if game.locked[s]:
            obs[AT["LOCKED"] + r, :] = 1.0
        if game.declared[s]:
            obs[AT["DECLARED"] + r, :] = 1.0
    actor = game.claim_from if game.claim_from is not None else game.turn
    obs[AT["ACTOR"] + (actor - seat) % 4, :] = 1.0
    obs[AT["WALL"], :] = game.wall.remaining / 55.0
    obs[AT["STACKS"], :] = game.wall.stacks_left() / 28.0
    obs[AT["PHASE"] + PHASES.index(game.phase), :] = 1.0
    return obs

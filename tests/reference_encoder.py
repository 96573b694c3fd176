"""A plain, slow ``cs-v0`` encoder written straight from the channel table of
``envs/changsha/observation.py``: loops over seats, kinds and levels, no caches.
The fast incremental encoder must equal it at every step."""

from __future__ import annotations

import numpy as np

from cnmahjong.envs.changsha.game import PHASES, ChangshaGame
from cnmahjong.envs.changsha.observation import NUM_CHANNELS, RECENT


def reference_encode(game: ChangshaGame, seat: int) -> np.ndarray:
    obs = np.zeros((NUM_CHANNELS, 27), dtype=np.float32)
    rel = [(seat + r) % 4 for r in range(4)]  # absolute seat of relative seat r

    def therm(first: int, counts, levels: int = 4) -> None:
        for level in range(levels):
            for k in range(27):
                obs[first + level, k] = 1.0 if counts[k] > level else 0.0

    therm(0, list(game.hands[seat]))
    seen = list(game.hands[seat])
    for r, s in enumerate(rel):
        therm(4 + 4 * r, list(game.melded[s]))
        therm(20 + 4 * r, list(game.river_counts[s]))
        therm(36 + 4 * r, list(game.shown[s]))
        for m in game.melds[s]:
            if len(m.tiles) == 4:
                obs[56 + r, m.tiles[0]] = 1.0
        newest_first = list(reversed(game.rivers[s]))[:RECENT]
        for j, t in enumerate(newest_first):
            obs[60 + RECENT * r + j, t] = 1.0
        for k in range(27):
            seen[k] += game.melded[s][k] + game.river_counts[s][k] + (game.shown[s][k] if s != seat else 0)
    for t in game.revealed:
        seen[t] += 1
    therm(52, [4 - x for x in seen])
    if game.turn == seat and game.drawn is not None and game.phase == "discard":
        obs[84, game.drawn] = 1.0
    for k in range(27):
        if game.louhu[seat] >> k & 1:
            obs[85, k] = 1.0
    therm(86, [game.revealed.count(k) for k in range(27)], 2)
    therm(88, [game.claim_tiles.count(k) for k in range(27)], 2)
    obs[90 + (game.dealer - seat) % 4, :] = 1.0
    for r, s in enumerate(rel):
        if game.locked[s]:
            obs[94 + r, :] = 1.0
        if game.declared[s]:
            obs[115 + r, :] = 1.0
    actor = game.claim_from if game.claim_from is not None else game.turn
    obs[98 + (actor - seat) % 4, :] = 1.0
    obs[102, :] = game.wall.remaining / 55.0
    obs[103, :] = game.wall.stacks_left() / 28.0
    obs[104 + PHASES.index(game.phase), :] = 1.0
    return obs

"""Observation encoder ``hz-v1``: ``hz-v0`` plus every public fact the settlement reads, uncapped.

``hz-v0`` caps the 飘 and hidden-kong counts at 2 and the claims at 3, and does not carry the
doubling chain (the 飘 and kongs each seat made since its last plain discard, which §4 adds to
the exponent and §6 后半场承包 hands to a bearer), nor the rule options: two positions whose
settlement differs can give it equal planes. ``hz-v1`` keeps ``hz-v0``'s channels and meanings,
widens those counts to their rule bounds and adds the chain, its bearers and the options, so
each input of the settlement that a seat may know decodes from its planes (tested for every
ruleset in ``tests/test_observation_settlement.py``; ``settlement_view`` declares them).

Bounds (whole LEVEL planes, one per unit): a seat makes at most 4 melds, so at most 4 kongs
(hidden or in its chain) and 4 claims on any one seat; only 3 财神 are in play, so at most 3 飘.
A chain is at most 7 doublings long; its positions are columns 0–6 of the ``CHAIN`` planes.
A count beyond its bound (the rules make it impossible) fails loudly (``IndexError``).

``hz-v0`` stays the ruleset's default (the greedy and expert players and the shipped agent read
it); ``encoder="hz-v1"`` picks this one in ``VectorEnv``, the AEC env and the trainers.
"""

from __future__ import annotations

import numpy as np

from cnmahjong.envs.core.channels import ChannelTable, EncoderSpec, Group, Value
from cnmahjong.envs.core.planes import SEAT_ORDER, Rows
from cnmahjong.envs.core.tiles import NUM_KINDS
from cnmahjong.envs.hangzhou import observation as v0
from cnmahjong.envs.hangzhou.game import HangzhouGame

ENCODER = "hz-v1"
RECENT = v0.RECENT
WALL_SCALE = v0.WALL_SCALE

MAX_KONGS = 4
"""Kongs of one seat (hidden, or in its chain), and claims of one seat on another: 4 melds at most."""
MAX_PIAO = 3
"""飘 of one seat: only the three 财神 copies can make one."""
MAX_CHAIN = MAX_PIAO + MAX_KONGS
"""Doublings in one seat's chain: its 飘 and its kongs."""
RULE_OPTIONS = ("claim_limits", "liability", "piao_claim_liability")
"""The ``RuleConfig`` options the settlement and the claims read, in ``RULES`` block order."""

_SEAT = "relative seat"
_PAIR = "pair (a, b)"
_PAIRS_TEXT = "for each relative seat a and each other seat b in turn order"
_WIDER = {  # hz-v0's capped groups at their rule bounds, same meaning
    "HIDDEN_KONGS": Group("HIDDEN_KONGS", MAX_KONGS, "hidden concealed kongs (暗杠) per relative seat (own: 0, "
                          "they show in `KONGS`)", Value.LEVEL, 4, _SEAT),
    "PIAO": Group("PIAO", MAX_PIAO, "飘 (财神 discard) count per relative seat: its 飘 since its last plain "
                  "discard", Value.LEVEL, 4, _SEAT),
    "CLAIMS": Group("CLAIMS", MAX_KONGS, f"claims between seats (承包): a's claims on b, {_PAIRS_TEXT}",
                    Value.LEVEL, 12, _PAIR),
}
CHANNELS = ChannelTable((
    *(_WIDER.get(g.name, g) for g in v0.CHANNELS),
    Group("CHAIN_KONGS", MAX_KONGS, "kongs in each relative seat's doubling chain (杠开, 杠飘 …: since its last "
          "plain discard, each +1 to the exponent)", Value.LEVEL, 4, _SEAT),
    Group("CHAIN", 1, f"each relative seat's doubling chain, oldest first: its `PIAO` + `CHAIN_KONGS` "
          f"doublings are columns 0, 1 … (positions, not kinds; {MAX_CHAIN} at most), 1 where a kong, 0 where "
          f"a 飘", Value.KINDS, 4, _SEAT),
    Group("CHAIN_BEARERS", 1, f"后半场承包: the columns of a's chain (as in `CHAIN`) whose doubling b bears, "
          f"{_PAIRS_TEXT}", Value.KINDS, 12, _PAIR),
    Group("RULES", 1, "rule options: " + ", ".join(f"`{o}`" for o in RULE_OPTIONS), Value.FLAG,
          len(RULE_OPTIONS), "option in that order"),
))
"""The ``hz-v1`` channels in plane order: ``hz-v0``'s with three groups widened, then the new ones."""

(HAND, MELDS, RIVER, UNSEEN, KONGS, HIDDEN_KONGS, RECENT_DISCARDS, DRAWN, INDICATOR, WHITE_PLAYS,
    SHIPENG, CLAIM, DEALER, ACTOR, PIAO, PIAO_PENDING, STREAK, CLAIMS, WALL, PHASE, READY,
    CHAIN_KONGS, CHAIN, CHAIN_BEARERS, RULES) = CHANNELS.starts()
NUM_CHANNELS = CHANNELS.size
SHAPE = (NUM_CHANNELS, NUM_KINDS)

_R = Rows(NUM_KINDS)
_LEVEL = {k: [b"".join(_R.ones if n > i else _R.zero for i in range(k)) for n in range(k + 1)]
          for k in (MAX_PIAO, MAX_KONGS)}
"""``_LEVEL[k][n]``: ``k`` whole planes, the first ``n`` set (n ≤ k: beyond, an IndexError)."""
_PAIRS = [[(a, b) for a in order for b in order if b != a] for order in SEAT_ORDER]
"""Per observer, the (owner, other) absolute pairs of the pair blocks, in block order."""


def _v0_cut(name: str) -> slice:
    """The bytes of ``hz-v0`` group ``name`` in its planes."""
    s = v0.CHANNELS.slice(name)
    return slice(s.start * NUM_KINDS, s.stop * NUM_KINDS)


_CUT_HIDDEN, _CUT_PIAO, _CUT_CLAIMS = _v0_cut("HIDDEN_KONGS"), _v0_cut("PIAO"), _v0_cut("CLAIMS")


def _columns(cols: list[int]) -> bytes:
    """One plane, 1 at each column of ``cols``."""
    row = bytearray(NUM_KINDS)
    for c in cols:
        row[c] = 1
    return bytes(row)


class Encoder:
    """The ``hz-v1`` encoder: ``hz-v0``'s incremental encoder (kept inside) gives the channels
    both share, byte for byte; the widened and new groups are made from the game per call."""

    def __init__(self) -> None:
        self._v0 = v0.Encoder()

    def __getstate__(self) -> dict:
        return {}  # caches only

    def __setstate__(self, state: dict) -> None:
        self.__init__()

    def __call__(self, game: HangzhouGame, seat: int) -> np.ndarray:
        """The float32 observation: the uint8 planes converted, the WALL plane divided."""
        return planes_to_float(np.frombuffer(self.planes(game, seat), dtype=np.uint8).reshape(SHAPE))

    def planes(self, game: HangzhouGame, seat: int) -> bytes:
        """The observation as ``NUM_CHANNELS * 34`` uint8 bytes (the WALL plane holds the count)."""
        base = self._v0.planes(game, seat)
        order = SEAT_ORDER[seat]
        kongs, piao, claims = _LEVEL[MAX_KONGS], _LEVEL[MAX_PIAO], game.claims
        hidden = [0 if s == seat else sum(m.hidden for m in game.melds[s]) for s in order]
        chains = [game.doublings[s] for s in order]
        cfg = game.config
        return b"".join((
            base[:_CUT_HIDDEN.start], *(kongs[n] for n in hidden),
            base[_CUT_HIDDEN.stop:_CUT_PIAO.start], *(piao[game.piao[s]] for s in order),
            base[_CUT_PIAO.stop:_CUT_CLAIMS.start], *(kongs[claims[a][b]] for a, b in _PAIRS[seat]),
            base[_CUT_CLAIMS.stop:],
            *(kongs[sum(kind == "kong" for kind, _ in chain)] for chain in chains),
            *(_columns([i for i, (kind, _) in enumerate(chain) if kind == "kong"]) for chain in chains),
            *(_columns([i for i, (_, bearer) in enumerate(game.doublings[a]) if bearer == b])
              for a, b in _PAIRS[seat]),
            *(_R.ones if getattr(cfg, o) else _R.zero for o in RULE_OPTIONS),
        ))


def planes_to_float(planes: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """uint8 planes (fraction planes holding counts) as the float32 observation the AEC env gives,
    bit for bit (``ChannelTable.to_float``); ``out`` (float32, same shape) is written when given."""
    return CHANNELS.to_float(planes, out)


def encode(game: HangzhouGame, seat: int) -> np.ndarray:
    """The ``hz-v1`` observation of ``seat`` (see the module docstring for the channels)."""
    return Encoder()(game, seat)


def decode_hand(obs: np.ndarray) -> list[int]:
    """The seat's own concealed counts (34 ints)."""
    return CHANNELS.decode(obs, "HAND")


def decode_unseen(obs: np.ndarray) -> list[int]:
    """Copies of each kind the seat cannot see."""
    return CHANNELS.decode(obs, "UNSEEN")


def decode_indicator(obs: np.ndarray) -> int:
    """The indicator kind (the 财神's); 0 on an empty plane, as an argmax gives."""
    return CHANNELS.decode(obs, "INDICATOR") or 0


def decode_melded(obs: np.ndarray, rel: int = 0) -> list[int]:
    """Visible melded counts of the relative seat ``rel`` (0 = self)."""
    return CHANNELS.decode(obs, "MELDS", rel)


def decode_phase(obs: np.ndarray) -> str:
    """The phase name (one of ``game.PHASES``)."""
    return CHANNELS.decode(obs, "PHASE")


def decode_claim(obs: np.ndarray) -> int | None:
    """The tile offered to claim now, or None."""
    return CHANNELS.decode(obs, "CLAIM")


def decode_chain(obs: np.ndarray, rel: int = 0) -> list[tuple[str, int | None]]:
    """The doubling chain of relative seat ``rel``, oldest first: ``("piao" | "kong", bearer)``,
    the bearer a relative seat (后半场承包) or None, as ``HangzhouGame.doublings`` holds it."""
    length = CHANNELS.decode(obs, "PIAO", rel) + CHANNELS.decode(obs, "CHAIN_KONGS", rel)
    kong_at = set(CHANNELS.decode(obs, "CHAIN", rel))
    bearer: list[int | None] = [None] * length
    pairs = _PAIRS[0]  # relative seats: the observer is seat 0 of its own order
    for block, (a, b) in enumerate(pairs):
        if a == rel:
            for i in CHANNELS.decode(obs, "CHAIN_BEARERS", block):
                bearer[i] = b
    return [("kong" if i in kong_at else "piao", bearer[i]) for i in range(length)]


def decode_claims(obs: np.ndarray) -> dict[tuple[int, int], int]:
    """Claims between relative seats: ``{(a, b): a's claims on b's discards}``."""
    return dict(zip(_PAIRS[0], CHANNELS.decode(obs, "CLAIMS"), strict=True))


ENCODING = EncoderSpec(name=ENCODER, channels=CHANNELS, shape=SHAPE, encoder=Encoder, to_float=planes_to_float)
"""``hz-v1`` as one self-contained spec (the ruleset lists it after ``hz-v0``)."""

"""Rule options of Sichuan mahjong 血战到底 (rules ``sichuan.md``, Options): ``RuleConfig``.

Every option of the rule text, with its default (the one preset ``"sichuan"``). Validated on
construction: an unknown name or a bad value raises ``ValueError`` naming the option and what is
allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cnmahjong.envs.core import config
from cnmahjong.envs.core.config import RuleOptions, check, check_bools, is_int

PRESETS = ("sichuan",)
DIRECTIONS = ("next", "across", "previous")
"""换三张 directions (§2.1): each seat gives its three tiles to s+1, s+2 or s+3."""
DIRECTION_CHOICES = ("random", *DIRECTIONS)
CAP_CHOICES = (3, 4, 5, 6, None)
ZIMO_BONUS_CHOICES = ("di", "fan", "none")
DIANGANGHUA_CHOICES = ("zimo", "dianpao")
TRANSFER_SCOPE_CHOICES = ("last_kong", "hand")
PASS_HU_CHOICES = ("higher_fan", "until_draw", "none")
UNCAPPED_TIANDIHU_FAN = 5
"""§5: 天胡 / 地胡 score ``cap_fan``, or 5 fan with no cap."""

_BOOLS = ("huan_san_zhang", "huan_same_suit", "call_transfer", "pass_peng_lock", "bugang_from_hand_pays",
          "qiang_gang", "tiandihu", "jingoudiao", "yaojiu_jiangdui", "haidi", "menqing_zhongzhang",
          "tuishui", "reveal_winner_hand", "reveal_angang_tile")


@dataclass(frozen=True)
class RuleConfig(RuleOptions):
    """Options of the Sichuan rule text (section Options). Defaults are the preset ``"sichuan"``."""

    huan_san_zhang: bool = True
    """§2.1: every seat passes three tiles blind before 定缺."""
    huan_same_suit: bool = True
    """§2.1: the three passed tiles are of one suit."""
    huan_direction: str = "random"
    """§2.1: ``"random"`` (drawn uniformly once all have picked), or a fixed ``"next"``,
    ``"across"``, ``"previous"``."""
    cap_fan: int | None = 3
    """§5 封顶: ``V(F) = base × 2**min(F, cap_fan)``; 3, 4, 5, 6 or None (no cap)."""
    base: int = 1
    """底分, a positive integer."""
    zimo_bonus: str = "di"
    """§5: a self-draw adds ``base`` per payer (``"di"``, 加底), one fan (``"fan"``) or nothing."""
    dianganghua: str = "zimo"
    """§6.2: 点杠花 paid as a self-draw (``"zimo"``) or by the 直杠's discarder alone (``"dianpao"``)."""
    call_transfer: bool = True
    """§6.3 呼叫转移 on a 杠上炮."""
    call_transfer_scope: str = "last_kong"
    """§6.3: the kong player hands on his last kong's money (``"last_kong"``) or all he holds (``"hand"``)."""
    pass_hu: str = "higher_fan"
    """§3 过胡: ``"higher_fan"`` (only a strictly higher F until the next draw or claim),
    ``"until_draw"`` (no discard or 抢杠 win until then), ``"none"``."""
    pass_peng_lock: bool = False
    """§3: a passed PENG kind cannot be PENGed until the passer's next ordinary draw or claim."""
    bugang_from_hand_pays: bool = False
    """§3 转手杠: a 补杠 of a tile held from an earlier turn pays 刮风 too."""
    qiang_gang: bool = True
    """§3 抢杠胡: a 补杠 may be robbed."""
    tiandihu: bool = True
    """§4/§5: 天胡 and 地胡 exist (F = cap_fan alone)."""
    jingoudiao: bool = True
    """§5: the JINGOU item (金钩钓) exists."""
    yaojiu_jiangdui: bool = True
    """§5: the JIANGDUI (将对) and DAIYAOJIU (带幺九) items exist."""
    haidi: bool = True
    """§5: the HAIDI item (海底捞月 / 海底炮) exists."""
    menqing_zhongzhang: bool = False
    """§5: the MENQING (门清) and ZHONGZHANG (中张) items exist."""
    huazhu_fan: int | None = None
    """§7 查花猪: a 花猪 pays ``base × 2**huazhu_fan``; None means ``cap_fan`` (required with no cap)."""
    tuishui: bool = True
    """§7 退税: not-ready players and 花猪 return their open kong money."""
    reveal_winner_hand: bool = False
    """§9: a winner's concealed tiles and fan items are shown at once (else at the end)."""
    reveal_angang_tile: bool = True
    """§9: a 暗杠's tile kind is public."""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    PRESETS = PRESETS

    def __post_init__(self) -> None:
        self.check_no_extra()
        check_bools(self, *_BOOLS)
        check(isinstance(self.huan_direction, str) and self.huan_direction in DIRECTION_CHOICES,
              "huan_direction", self.huan_direction, DIRECTION_CHOICES)
        check((self.cap_fan is None or is_int(self.cap_fan)) and self.cap_fan in CAP_CHOICES,
              "cap_fan", self.cap_fan, "3, 4, 5, 6 or None (no cap)")
        check(is_int(self.base) and self.base >= 1, "base", self.base, "a positive integer")
        for name, choices in (("zimo_bonus", ZIMO_BONUS_CHOICES), ("dianganghua", DIANGANGHUA_CHOICES),
                              ("call_transfer_scope", TRANSFER_SCOPE_CHOICES), ("pass_hu", PASS_HU_CHOICES)):
            value = getattr(self, name)
            check(isinstance(value, str) and value in choices, name, value, choices)
        h = self.huazhu_fan
        check(h is None or (is_int(h) and h >= 0), "huazhu_fan", h, "None (= cap_fan) or an integer >= 0")
        check(h is not None or self.cap_fan is not None, "huazhu_fan", h,
              "an integer >= 0: it must be given when cap_fan is None (no cap)")

    # ---------------------------------------------------------- derived views
    @property
    def huazhu_exponent(self) -> int:
        """§7: the fan a 花猪 pays at: ``huazhu_fan``, else ``cap_fan``."""
        return self.cap_fan if self.huazhu_fan is None else self.huazhu_fan  # type: ignore[return-value]

    @property
    def tiandihu_fan(self) -> int:
        """§5: the F of a 天胡 or 地胡: ``cap_fan``, or 5 with no cap."""
        return UNCAPPED_TIANDIHU_FAN if self.cap_fan is None else self.cap_fan


def as_config(rules: str | RuleConfig | Mapping[str, Any]) -> RuleConfig:
    """What the Sichuan envs take as ``rules``: ``"sichuan"``, a ``RuleConfig`` or a dict of options."""
    return config.as_config(RuleConfig, rules)

"""``make demo``: until the environment and training exist, a worked example from the rules.

Shows a hand, its waits (§2), how each wait would be classified (§3–§4) and
what a settlement pays (§8), under the mainstream preset.
"""

from __future__ import annotations

from envs.changsha.patterns import MINGGANG, Meld, WinContext, classify_win, opening_patterns, waits
from envs.changsha.rules import RuleConfig
from envs.changsha.scoring import bird_seat, others, settle
from envs.core.tiles import format, glyphs, parse


def main() -> None:
    cfg = RuleConfig.preset("mainstream")
    concealed = "111m444s5p777p"
    melds = [Meld(MINGGANG, tuple(parse("2222m")))]
    print("Changsha mahjong (长沙麻将), worked example of rules §4")
    print(f"  hand  {concealed}  {glyphs(parse(concealed))}   kong 2222m {glyphs(parse('2222m'))}")
    ws = sorted(waits(concealed, melds))
    print(f"  waits (§2): {format(ws)}")
    for t in ws:
        name = format([t])
        plain = classify_win(concealed + name, melds, t)
        kaihua = classify_win(concealed + name, melds, t,
                              WinContext(self_drawn=True, kong_draw=True), cfg)
        print(f"    on {name}: discard win -> {plain.patterns if plain else 'no win (false 将)'};"
              f" by 杠上开花 -> {kaihua.patterns}")
    print("\nSettlement (§8.2): dealer is seat 0; seat 1 self-draws 碰碰胡, birds 2 and 5")
    birds = [bird_seat(v, 0) for v in (2, 5)]
    s = settle(cfg, 0, 1, others(1), big=True, he=1, self_drawn=True, bird_seats=birds)
    factors = dict(zip(s.payers, s.factors, strict=True))
    print(f"  birds land on seats {birds}; bird factors per payer {factors}")
    print(f"  payments per seat (片): {list(s.payments)}  (sum {sum(s.payments)})")
    dealt = "1111m333s258p147p"
    print(f"\nOpening-hand wins (§3.2) in {dealt}: {sorted(opening_patterns(dealt))}")


if __name__ == "__main__":
    main()

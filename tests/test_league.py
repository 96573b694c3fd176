"""The league (issue: benchmark any policy): a duplicate round-robin whose table agrees with the
arena's per-pair results, that grows one policy at a time, and whose file is checked on reading."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cnmahjong.training.arena import run_arena
from cnmahjong.training.league import League, cli, core, format_league, markdown_league

RULES, DEALS, SEED = "mainstream", 3, 5


@pytest.fixture(scope="module")
def league() -> League:
    lg = League(RULES, DEALS, SEED)
    lg.add(["random", "greedy", "expert"])
    return lg


def test_each_pairing_is_the_arena_seated_a_b_a_b(league):
    """s(A, B) is A's two seats' mean in the arena seated A, B, A, B on the same deals, and the
    B seats lose exactly that (zero-sum table)."""
    assert sorted(league.pairs) == [("greedy", "expert"), ("random", "expert"), ("random", "greedy")]
    for (a, b), pair in league.pairs.items():
        reports = run_arena([a, b, a, b], DEALS, RULES, seed=SEED).reports
        assert pair.mean == pytest.approx((reports[0].mean + reports[2].mean) / 2)
        assert -pair.mean == pytest.approx((reports[1].mean + reports[3].mean) / 2)
        assert league.s(b, a) == -league.s(a, b)
        # the pair's win counts are the arena's rates times the hands
        assert pair.totals[a]["win"] == pytest.approx(
            (reports[0].rates["win_rate"] + reports[2].rates["win_rate"]) * DEALS * 4)


def test_rating_is_the_mean_against_the_field_and_the_table_agrees(league):
    rows = {r.policy: r for r in league.standings()}
    n = len(league.policies)
    for name, row in rows.items():
        others = [o for o in league.policies if o != name]
        assert row.rating == pytest.approx(sum(league.s(name, o) for o in others) / n)
        assert row.ci_low <= row.rating <= row.ci_high
        assert row.versus == {o: pytest.approx(league.s(name, o)) for o in others}
        assert row.hands == 2 * 4 * DEALS * (n - 1)
    assert sum(r.rating for r in rows.values()) == pytest.approx(0, abs=1e-12)
    assert [r.policy for r in league.standings()] == sorted(rows, key=lambda p: -rows[p].rating)
    data = league.to_dict()
    assert [(t["policy"], t["rating"]) for t in data["table"]] == [(r.policy, r.rating) for r in league.standings()]
    text = format_league(league)
    assert all(p in text for p in league.policies) and f"{rows['random'].rating:+.2f}" in text
    assert markdown_league(league).count("\n") == n + 1


def test_json_round_trip_keeps_every_pairing(league):
    back = League.from_dict(json.loads(json.dumps(league.to_dict())))
    assert back.policies == league.policies
    for key, pair in league.pairs.items():
        assert back.pairs[key].per_deal == pytest.approx(pair.per_deal)
        assert back.pairs[key].totals == pair.totals
    assert [r.rating for r in back.standings()] == pytest.approx([r.rating for r in league.standings()])


def test_adding_a_policy_plays_only_its_pairings(tmp_path, monkeypatch, league):
    path = tmp_path / "league.json"
    path.write_text(json.dumps(league.to_dict()))
    played = []
    real = core.play_pair

    def spy(a, b, *args, **kwargs):
        played.append((a, b))
        return real(a, b, *args, **kwargs)

    monkeypatch.setattr(core, "play_pair", spy)
    grown = cli.main(["--league", str(path), "--policies", "greedy", "random", "expert",
                      "pretrained", "--workers", "1", "--png", str(tmp_path / "league.png")])
    assert played == [("random", "pretrained"), ("greedy", "pretrained"), ("expert", "pretrained")]
    saved = League.from_dict(json.loads(path.read_text()))
    assert saved.policies == ["random", "greedy", "expert", "pretrained"] == grown.policies
    for key, pair in league.pairs.items():  # the old pairings are kept as they were
        assert saved.pairs[key].per_deal == pytest.approx(pair.per_deal)
    assert (tmp_path / "league.png").stat().st_size > 1000
    played.clear()
    cli.main(["--league", str(path), "--policies", "greedy", "--workers", "1"])
    assert played == []  # nothing new: nothing played


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(format="other/1"), "'format' must be"),
    (lambda d: d.update(rules="no-such-preset"), "'rules'"),
    (lambda d: d.update(deals=True), "'deals'"),
    (lambda d: d["pairs"].pop(), "pairings missing"),
    (lambda d: d["pairs"][0]["per_deal"].pop(), "'per_deal' must hold 3"),
    (lambda d: d["pairs"][0]["per_deal"].__setitem__(0, float("nan")), "finite"),
    (lambda d: d["pairs"][0].update(a="ckpt:elsewhere.pt"), "two policies of 'policies'"),
    (lambda d: d["pairs"].append(dict(d["pairs"][0])), "appears twice"),
    (lambda d: d["pairs"][0]["totals"].popitem(), "'totals'"),
    (lambda d: d.update(policies=["greedy", "greedy", "expert"]), "distinct"),
])
def test_a_bad_league_file_is_refused_naming_the_field(league, edit, message):
    data = json.loads(json.dumps(league.to_dict()))
    edit(data)
    with pytest.raises(ValueError, match=message):
        League.from_dict(data)


def test_cli_refuses_before_playing(tmp_path, capsys, league):
    path = tmp_path / "league.json"
    path.write_text(json.dumps(league.to_dict()))
    for argv, message in [
        (["--league", str(path), "--policies", "greedy", "--deals", "7"], "--deals 7 disagrees"),
        (["--league", str(path), "--policies", "greedy", "--rules", "hangzhou"], "--rules hangzhou disagrees"),
        (["--league", str(tmp_path / "none.json"), "--policies", "greedy"], "no such file"),
        (["--policies", "greedy", "greedy"], "more than once"),
        (["--policies", "greedy"], "at least 2 policies"),
        (["--policies", "greedy", "nobody"], "bad policy 'nobody'"),
        (["--policies", "greedy", "random", "--deals", "1"], "at least 2"),
        (["--policies", "greedy", "random", "--json", str(tmp_path)], "is a folder"),
    ]:
        with pytest.raises(SystemExit):
            cli.main(argv)
        assert message in capsys.readouterr().err, argv
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(SystemExit):
        cli.main(["--league", str(tmp_path / "bad.json"), "--policies", "greedy"])
    assert "bad.json" in capsys.readouterr().err


def test_a_hangzhou_league_reports_its_own_counts(tmp_path):
    """Any ruleset plays; its own statistics (爆头, 飘) are columns of the table."""
    league = cli.main(["--rules", "hangzhou", "--policies", "random", "greedy", "--deals", "2", "--workers", "1",
                       "--json", str(tmp_path / "hz.json")])
    row = league.standings()[0]
    assert {"baotou_per_hand", "piao_per_hand"} <= set(row.rates), row.rates
    assert league.unit == json.loads((tmp_path / "hz.json").read_text())["unit"]
    assert np.isfinite(row.rating)


def test_a_bot_is_named_in_the_table_by_the_name_it_gave(tmp_path):
    """Issue 36 (10): the league names a bot by its ``ready`` name beside its policy, keeps the name
    in the file, and refuses a file whose name the protocol would refuse."""
    import sys
    from pathlib import Path

    bot = f"bot:{sys.executable} {Path(__file__).resolve().parents[1] / 'examples' / 'bots' / 'simple_bot.py'}"
    league = League(policies=[], rules="mainstream", deals=2, seed=4)
    league.add([bot, "random"])
    [pair] = league.pairs.values()
    assert pair.names == {bot: "simple_bot"}
    row = next(r for r in league.standings(resamples=20) if r.policy == bot)
    assert row.bot_name == "simple_bot" and row.label == f"simple_bot ({bot})"
    assert "simple_bot (bot:" in format_league(league) and "(simple_bot)" in markdown_league(league)
    data = json.loads(json.dumps(league.to_dict()))
    assert League.from_dict(data).pairs[(bot, "random")].names == {bot: "simple_bot"}
    data["pairs"][0]["names"][bot] = "tab\there"
    with pytest.raises(ValueError, match="'names' of bot:.*printable"):
        League.from_dict(data)

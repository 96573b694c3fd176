"""A league file is untrusted input (issue 36, finding 1): every hand edit that makes its parts
disagree is refused naming the field, the committed league files still load, the file is written
whole (temporary file + ``os.replace``), and two runs extending one league lose no pairing."""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path

import pytest
import torch

from cnmahjong.training import files
from cnmahjong.training.league import League, cli, core

torch.set_num_threads(1)

EVALS = Path(__file__).resolve().parent.parent / "agents" / "evals"
COMMITTED = sorted(EVALS.glob("league-*.json"))


@pytest.fixture(scope="module")
def committed() -> dict:
    """The committed Changsha league (1000 deals a pairing): real numbers to edit."""
    return json.loads((EVALS / "league-changsha.json").read_text(encoding="utf-8"))


def test_the_committed_league_files_load_and_round_trip():
    """The checks refuse no real file: each committed league loads, and what it writes loads again."""
    assert len(COMMITTED) >= 2
    for path in COMMITTED:
        data = json.loads(path.read_text(encoding="utf-8"))
        league = League.from_dict(data, where=str(path))
        again = League.from_dict(json.loads(json.dumps(league.to_dict())))
        assert [r.policy for r in again.standings()] == [row["policy"] for row in data["table"]]


def _pair(data: dict, k: int = 0) -> tuple[dict, str, str]:
    p = data["pairs"][k]
    return p, p["a"], p["b"]


def _add_to_per_deal(d):  # the probe: +100 on one pair's values puts random on top
    _pair(d)[0]["per_deal"][0] += 100


def _set_total(stat, value, side="a"):
    def edit(d):
        p, a, b = _pair(d)
        p["totals"][a if side == "a" else b][stat] = value
    return edit


def _consistent_forgery_but_the_table(d):
    """per_deal, both totals and the mean edited to agree: only the stated table gives it away."""
    p, a, b = _pair(d)
    p["per_deal"] = [v + 1.0 for v in p["per_deal"]]
    p["mean"] += 1.0
    p["totals"][a]["settlement"] += 8 * len(p["per_deal"])
    p["totals"][b]["settlement"] -= 8 * len(p["per_deal"])


@pytest.mark.parametrize("edit, field", [
    (_add_to_per_deal, "pairs[0]: 'mean' -2.024625 is not the mean of 'per_deal'"),
    (lambda d: (_add_to_per_deal(d), _pair(d)[0].pop("mean")), "'totals' of random: 'settlement' -16197.0 is not"),
    (_set_total("settlement", 5.0, side="b"), "'settlement'"),  # not zero-sum within the pair
    (_set_total("win", float("nan")), "finite"),
    (_set_total("win", float("inf")), "finite"),
    (_set_total("win", -1.0), "'win' must be a whole count in 0..8000"),
    (_set_total("win", 8001.0), "'win' must be a whole count in 0..8000"),  # the 2083% of the issue
    (_set_total("deal_in", 2.5), "'deal_in' must be a whole count"),
    (_set_total("kaigang", 10.0 ** 9), "'kaigang' must be a whole count"),
    (_set_total("hands", 7999), "'hands' must be 8000"),
    (_set_total("hands", True), "'hands' must be 8000"),
    (_set_total("lucky", 3.0), "must name exactly"),
    (lambda d: _pair(d)[0]["per_deal"].__setitem__(0, 1e308), "a hand pays at most"),
    (lambda d: _pair(d)[0]["per_deal"].__setitem__(0, 10 ** 400), "finite numbers"),
    (lambda d: _pair(d)[0].update(mean=3.0), "'mean' 3.0 is not the mean"),
    (lambda d: d["table"][0].update(rating=31.5), "'table[0].rating' is 31.5"),
    (lambda d: d["table"].reverse(), "'table[0].policy'"),
    (_consistent_forgery_but_the_table, "the pairings give"),
    (lambda d: d.update(ruleset="hangzhou"), "'ruleset' 'hangzhou' disagrees"),
    (lambda d: d.update(unit="points"), "'unit' 'points' disagrees"),
    (lambda d: d.update(deals=10 ** 12), "'deals' must be an integer in 2..100000"),
])
def test_a_league_file_whose_parts_disagree_is_refused_naming_the_field(committed, edit, field):
    data = copy.deepcopy(committed)
    edit(data)
    data = json.loads(json.dumps(data))  # NaN and Infinity as the JSON module writes and reads them
    with pytest.raises(ValueError, match=re.escape(field)):
        League.from_dict(data)


def _faults(counts: dict) -> object:
    def edit(d):
        p, a, b = _pair(d)
        p["faults"] = {b: counts}
        d.pop("table")  # a bot's faults are in the table: these rows are about the pair alone
    return edit


@pytest.mark.parametrize("counts, field", [
    ({"decisions": 10, "timeout": -1}, "non-negative integers"),
    ({"decisions": 10, "timeout": True}, "non-negative integers"),
    ({"decisions": 10, "timeout": 1.0}, "non-negative integers"),
    ({"decisions": 10, "cheating": 1}, "must count only"),
    ({"decisions": 3, "timeout": 2, "illegal": 2}, "4 faults is more than its 3 decisions"),
    ({"timeout": 1}, "1 faults is more than its 0 decisions"),
])
def test_bad_fault_counts_are_refused(committed, counts, field):
    data = copy.deepcopy(committed)
    _faults(counts)(data)
    with pytest.raises(ValueError, match=field):
        League.from_dict(data)


def test_good_fault_counts_and_a_file_without_the_stated_parts_load(committed):
    """The controls of the rows above: the same edits with agreeing values are accepted."""
    data = copy.deepcopy(committed)
    _faults({"decisions": 40, "timeout": 2, "illegal": 1, "restarts": 2})(data)
    for p in data["pairs"]:
        p.pop("mean")
    data.pop("ruleset"), data.pop("unit")
    league = League.from_dict(data)
    _, a, b = _pair(data)
    assert league.pairs[(a, b)].faults == {b: {"decisions": 40, "timeout": 2, "illegal": 1, "restarts": 2}}


def test_the_cli_refuses_an_edited_file_before_playing_and_leaves_it(tmp_path, committed, capsys, monkeypatch):
    data = copy.deepcopy(committed)
    _add_to_per_deal(data)
    path = tmp_path / "league.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = path.read_bytes()
    monkeypatch.setattr(core, "run_arena", lambda *a, **k: pytest.fail("a pairing was played"))
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--league", str(path), "--policies", "greedy", "--workers", "1"])
    assert exit_.value.code == 2
    assert "pairs[0]" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_the_cli_refuses_a_huge_league_file_naming_the_limit(tmp_path, capsys, monkeypatch):
    from cnmahjong.training.league import store

    monkeypatch.setattr(store, "MAX_BYTES", 1000)
    path = tmp_path / "league.json"
    path.write_text(" " * 1001, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--league", str(path), "--policies", "greedy", "--workers", "1"])
    assert exit_.value.code == 2 and "larger than the limit of 1,000 bytes" in capsys.readouterr().err


# ------------------------------------------------------------------ writing
DEALS = 2


@pytest.fixture()
def small(tmp_path) -> Path:
    """A league of random and greedy, 2 deals a pairing, on disk."""
    path = tmp_path / "league.json"
    cli.main(["--policies", "random", "greedy", "--deals", str(DEALS), "--workers", "1", "--json", str(path)])
    return path


def test_the_file_is_replaced_whole_through_a_temporary_file(small, monkeypatch):
    replaced = []
    real = os.replace

    def spy(src, dst):
        replaced.append((Path(src), Path(dst)))
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", spy)
    cli.main(["--league", str(small), "--policies", "expert", "--workers", "1"])
    [(src, dst)] = replaced
    assert dst == small and src.parent == small.parent and src != small
    assert sorted(p.name for p in small.parent.iterdir()) == ["league.json"]  # no temporary file left
    assert League.from_dict(json.loads(small.read_text())).policies == ["random", "greedy", "expert"]


def test_two_runs_extending_one_league_lose_no_pairing(small, monkeypatch):
    """Run A adds expert; while it plays, run B adds pretrained and writes the file. A merges B's
    league into its own, plays the one pairing neither played (pretrained / expert), and writes
    all six. Before, A wrote its own league over B's: B's pairings were lost."""
    real = core.run_arena  # what plays each pairing, seated A, B, A, B
    played = []
    by_b: dict = {}

    def play(names, *args, **kwargs):
        played.append((names[0], names[1]))
        if len(played) == 1:  # run A's first pairing: run B starts and finishes now
            cli.main(["--league", str(small), "--policies", "pretrained", "--workers", "1"])
            by_b.update(json.loads(small.read_text()))
        return real(names, *args, **kwargs)

    monkeypatch.setattr(core, "run_arena", play)
    cli.main(["--league", str(small), "--policies", "expert", "--workers", "1"])
    final = League.from_dict(json.loads(small.read_text()))
    assert final.policies == ["random", "greedy", "pretrained", "expert"]
    assert len(final.pairs) == 6 and not final.missing([])
    assert played == [("random", "expert"),                                 # A, then B inside it:
                      ("random", "pretrained"), ("greedy", "pretrained"),  # B
                      ("greedy", "expert"),                                # A
                      ("pretrained", "expert")]                            # A, after merging B's file
    for p in by_b["pairs"]:  # B's pairings are kept as B wrote them
        assert final.pairs[(p["a"], p["b"])].per_deal == pytest.approx(p["per_deal"])


def test_a_league_file_replaced_by_another_set_up_is_not_overwritten(small, tmp_path, monkeypatch, capsys):
    other = tmp_path / "other.json"
    cli.main(["--policies", "random", "greedy", "--deals", "3", "--workers", "1", "--json", str(other)])
    real = core.run_arena

    def play(*args, **kwargs):  # while this run plays, another writes a 3-deal league over the file
        if other.exists():
            os.replace(other, small)
        return real(*args, **kwargs)

    monkeypatch.setattr(core, "run_arena", play)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--league", str(small), "--policies", "expert", "--workers", "1"])
    assert exit_.value.code == 2
    assert "rewritten by another run with deals 3" in capsys.readouterr().err
    assert League.from_dict(json.loads(small.read_text())).deals == 3  # the other run's file, untouched

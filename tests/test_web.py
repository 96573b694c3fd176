"""The replay viewer and the human seat in a real browser (headless Chromium through its driver).

``make test`` installs Debian's ``chromium`` and ``chromium-driver`` when they are missing.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

from cnmahjong.agents import GreedyAgent
from cnmahjong.envs.changsha.game import ChangshaGame
from cnmahjong.envs.hangzhou.game import HangzhouGame
from cnmahjong.training.viewer.replay import main as replay_main
from cnmahjong.training.viewer.replay import write_replay


def played(cls, seed: int):
    """A hand played to the end by four greedy players (engine-level, with their observations)."""
    from cnmahjong.envs.aec import aec_env

    env = aec_env("hangzhou" if cls is HangzhouGame else "changsha")()
    env.reset(seed=seed)
    greedy = GreedyAgent()
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else greedy(obs["observation"], obs["action_mask"]))
    return env.game


def state_after(events, n: int):
    """The game after the first ``n`` decisions of ``events``."""
    cls = HangzhouGame if "streak" in events[0] else ChangshaGame
    game = cls._from_deal(events[0])
    for e in [e for e in events if e["type"] == "act"][:n]:
        game.step(e["seat"], e["action"])
    return game


def tiles_of(browser, element_id: str) -> str:
    return browser.find_element("id", element_id).get_attribute("data-tiles")


@pytest.mark.parametrize("cls, seat", [(ChangshaGame, None), (HangzhouGame, 2)])
def test_replay_page_steps_with_the_arrow_keys(browser, tmp_path, cls, seat):
    game = played(cls, seed=4)
    events = game.events
    page = write_replay(events, tmp_path / "hand.html", seat=seat)
    browser.get(page.resolve().as_uri())
    body = browser.find_element("tag name", "body")
    decisions = sum(1 for e in events if e["type"] == "act")
    for n in (1, 7, 25, decisions):
        while int(browser.find_element("id", "step").text.split(" / ")[0]) < n:
            body.send_keys("\ue014")  # the right arrow key
        assert browser.find_element("id", "step").text == f"{n} / {decisions}"
        g = state_after(events, n)
        assert browser.find_element("id", "wall").text == str(g.wall.remaining)
        for s in range(4):
            assert tiles_of(browser, f"river-{s}") == ",".join(map(str, g.rivers[s]))
            hand = sorted(t for t in range(g.NUM_KINDS) for _ in range(g.hands[s][t]))
            visible = seat is None or s == seat or g.done
            want = ",".join(map(str, hand)) if visible else f"hidden:{len(hand)}"
            assert tiles_of(browser, f"hand-{s}") == want
    assert browser.find_element("id", "result").is_displayed()  # the settlement at the end
    body.send_keys("\ue012")  # left arrow: one step back
    assert browser.find_element("id", "step").text == f"{decisions - 1} / {decisions}"
    browser.save_screenshot(str(tmp_path / "replay.png"))
    assert (tmp_path / "replay.png").stat().st_size > 10_000


def test_replay_refuses_tampered_and_truncated_logs(tmp_path, capsys):
    events = played(ChangshaGame, seed=2).events
    bad = [dict(e) for e in events]
    i = next(k for k, e in enumerate(bad) if e["type"] == "discard")
    bad[i]["tile"] = (bad[i]["tile"] + 1) % 27
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(SystemExit):
        replay_main([str(tmp_path / "bad.json"), "-o", str(tmp_path / "bad.html")])
    assert f"event {i} does not match" in capsys.readouterr().err
    assert not (tmp_path / "bad.html").exists()
    (tmp_path / "cut.json").write_text(json.dumps(events)[:-40])
    with pytest.raises(SystemExit):
        replay_main([str(tmp_path / "cut.json"), "-o", str(tmp_path / "cut.html")])
    assert "is not valid JSON" in capsys.readouterr().err
    (tmp_path / "short.json").write_text(json.dumps(events[:10]))
    with pytest.raises(SystemExit):
        replay_main([str(tmp_path / "short.json"), "-o", str(tmp_path / "short.html")])
    assert "does not match" in capsys.readouterr().err


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def test_human_seat_plays_a_whole_hand_by_clicking(browser, tmp_path):
    from cnmahjong.training.server.seat import Table, serve

    table = Table(["greedy", "greedy", "random"], "mainstream", seed=3)
    server = serve(table, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        browser.get(base + "/")
        _wait(lambda: browser.find_elements("css selector", "button.act"))
        # an illegal action is refused with a visible message and changes nothing
        before = _get(base + "/state")
        illegal = next(a for a in range(99) if a not in before["actions"])
        browser.execute_script(f"sendAction({illegal})")
        _wait(lambda: "refused" in browser.find_element("id", "message").text)
        assert _get(base + "/state") == before
        rng = random.Random(0)
        for _ in range(400):
            if browser.find_elements("id", "over"):
                break
            enabled = [b for b in browser.find_elements("css selector", "button.act") if b.is_enabled()]
            assert enabled and all(int(b.get_attribute("data-action")) in table.legal() for b in enabled)
            before_events = len(table.game.events)
            rng.choice(enabled).click()
            _wait(lambda n=before_events: len(table.game.events) > n
                  and (browser.find_elements("id", "over") or browser.find_elements("css selector", "button.act")))
        assert browser.find_elements("id", "over") and table.game.done
        _wait(lambda: browser.find_elements("id", "result"))
        shown = [int(td.text) for td in browser.find_elements("css selector", "#result td:nth-child(2)")]
        assert shown == list(table.game.result.payments)
        browser.save_screenshot(str(tmp_path / "play.png"))
        replay = browser.find_element("id", "replay-link").get_attribute("href")
        with urllib.request.urlopen(replay, timeout=30) as r:
            assert b"hand-data" in r.read()
    finally:
        server.shutdown()
        server.server_close()


def _wait(condition, timeout: float = 15.0):
    end = time.time() + timeout
    while time.time() < end:
        try:
            value = condition()
        except Exception:  # the page is being redrawn: look again
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("the page did not reach the expected state in time")


def test_arena_saves_chosen_hands_with_a_checkpoint_players_top_actions(tmp_path):
    from cnmahjong.training.evaluate import main as arena_main
    from cnmahjong.training.viewer.frames import hand_frames, load_hand

    arena_main(["--policies", "pretrained", "greedy", "greedy", "random", "--deals", "3", "--workers", "1",
                "--save-hands", str(tmp_path), "--save-deals", "1"])
    files = sorted(p.name for p in tmp_path.glob("*.json"))
    assert files == [f"deal1_rot{r}.json" for r in range(4)]
    events, notes = load_hand(tmp_path / "deal1_rot2.json")
    assert json.loads((tmp_path / "deal1_rot2.json").read_text())["seats"][2] == "pretrained"
    hand = hand_frames(events, annotations=notes)
    tops = [f["top"] for f in hand["frames"] if f["top"]]
    acts = [f["action"] for f in hand["frames"][1:]]
    assert tops and all(a[0] == 2 for a, f in zip(acts, hand["frames"][1:], strict=True) if f["top"])
    for top in tops:  # the top-3 are legal actions, most probable first, the probabilities a distribution
        probs = [p for _, p, _ in top]
        assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1 + 1e-9
    with pytest.raises(SystemExit):
        arena_main(["--policies", "greedy", "greedy", "greedy", "greedy", "--deals", "3", "--save-deals", "1"])


def test_play_server_answers_bad_requests_clearly():
    from cnmahjong.training.server.seat import Table, serve

    table = Table(["random", "random", "random"], "hangzhou", seed=1)
    server = serve(table, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        before = _get(base + "/state")
        for body in (b"not json", b'{"act": 1}', b'{"action": "5"}', b'{"action": 1.5}'):
            req = urllib.request.Request(base + "/act", data=body, method="POST",
                                         headers={"Origin": base, "X-Seat-Token": server.token})
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(req, timeout=10)
            assert err.value.code == 400 and "refused" in json.loads(err.value.read())["error"]
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(base + "/nothing", timeout=10)
        assert err.value.code == 404
        assert _get(base + "/state") == before
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.shutdown()
        server.server_close()
    with pytest.raises(ValueError, match="three opponents"):
        Table(["greedy"], "mainstream")


def test_seat_view_hides_another_seats_concealed_kong():
    """Hangzhou §1: from seat 0's view another seat's 暗杠 shows as "a concealed kong" (action and
    log) and face down on the table until it is revealed; the full view names the tile."""
    from cnmahjong.training.viewer.frames import hand_frames
    from tests.hz_scenario import discard, hz_game, k

    hands = ["9p4s7s2p5p8p3m6m9s1z2z3z4z6z", "1111s23m456m789m5z",
             "2s5s8s4p7p1m4m6z7z1z2z3z4z", "3s6s9s5m8m4p7p4z4z6z6z7z7z"]
    g = hz_game(hands, indicator="5z", head="9p 8p 1p 6p 5p", tail="6s")
    from cnmahjong.envs.hangzhou import actions as A

    g.step(0, discard("9s"))
    g.step(1, A.gang(k("1s")))
    g.step(1, discard("6s"))
    while not g.done:  # the viewer draws finished hands only
        s = g.to_act[0]
        g.step(s, g.legal_actions(s)[0])
    seen = hand_frames(g.events, seat=0)["frames"]
    assert seen[2]["action"] == [1, "a concealed kong"]
    assert "seat 1 makes a concealed kong" in seen[2]["log"]
    assert seen[2]["seats"][1]["melds"] == [{"kind": "angang", "tiles": [], "hidden": True}]
    full = hand_frames(g.events)["frames"]
    assert full[2]["action"] == [1, "GANG 1s"] and full[2]["seats"][1]["melds"][0]["tiles"] == [k("1s")] * 4


@pytest.mark.parametrize("name,rules,face_down", [
    ("changsha", {}, False), ("hangzhou", {}, True),
    ("sichuan", {"reveal_angang_tile": True}, False), ("sichuan", {"reveal_angang_tile": False}, True)])
def test_another_seats_concealed_kong_is_hidden_only_where_the_rules_lay_it_face_down(name, rules, face_down):
    """Changsha §6 shows every kong (暗杠也要亮明); Hangzhou §1 lays a 暗杠 face down; Sichuan as its
    option ``reveal_angang_tile`` says. The seat filter hides the act and the tiles exactly there."""
    import dataclasses
    import random

    from cnmahjong.envs.core.ruleset import get_ruleset
    from cnmahjong.envs.core.seen import seat_events

    rs = get_ruleset(name)
    assert rs.game.kongs_face_down(rules) is face_down
    found = 0
    for seed in range(300):
        game = rs.new_hand(dataclasses.replace(rs.as_config(rs.default_rules), **rules), np.random.default_rng(seed))
        r = random.Random(seed)
        while not game.done and not any(e["type"] == "meld" and e["kind"] == "angang" for e in game.events):
            s = game.to_act[0]
            legal = game.legal_actions(s)
            rare = [a for a in legal if a >= game.NUM_KINDS]
            game.step(s, r.choice(rare) if rare and r.random() < 0.8 else r.choice(legal))
        i = next((i for i, e in enumerate(game.events) if e["type"] == "meld" and e["kind"] == "angang"), None)
        if i is None or game.done:
            continue
        owner = game.events[i]["seat"]
        viewer = (owner + 1) % 4
        seen, _ = seat_events(game.events[:i + 1], 0, viewer, False)
        meld = seen[-1]
        assert meld["type"] == "meld" and bool(meld["tiles"]) is not face_down
        act = next(e for e in reversed(game.events[:i]) if e["type"] == "act")
        assert (act in seen) is not face_down
        found += 1
        if found >= 3:
            break
    assert found >= 3


@pytest.mark.parametrize("name", ["changsha", "hangzhou", "sichuan"])
def test_a_declined_claim_leaves_no_trace_in_another_seats_view(name):
    """The one seat filter (play page, viewer, bot events, worlds): while the hand is on, another
    seat's PASS on a claim, a rob or a declaration (``DECLINE_PHASES``) is never shown; one's own
    is, and the referee's log holds them all."""
    from cnmahjong.envs.core.ruleset import get_ruleset
    from cnmahjong.envs.core.seen import seat_events

    rs = get_ruleset(name)
    cls = rs.game
    declined = own = 0
    for seed in range(8):
        game = rs.new_hand(rs.as_config(rs.default_rules), np.random.default_rng(seed))
        r = random.Random(seed)
        while not game.done:
            s = r.choice(game.to_act)
            acts = game.legal_actions(s)
            game.step(s, cls.ACTIONS.PASS if cls.ACTIONS.PASS in acts and r.random() < 0.8 else r.choice(acts))
            for viewer in range(4):
                for e in seat_events(game.events, 0, viewer, game.done)[0]:
                    if e["type"] == "act" and e.get("action") == cls.ACTIONS.PASS and e["phase"] in cls.DECLINE_PHASES:
                        assert e["seat"] == viewer or game.done, (viewer, e)
                        own += 1
        declined += sum(e["type"] == "act" and e["action"] == cls.ACTIONS.PASS and e["phase"] in cls.DECLINE_PHASES
                        for e in game.events)
    assert declined > 10 and own > 10

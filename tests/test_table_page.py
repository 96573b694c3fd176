"""The table page in a real browser (headless Chromium): the human seat plays whole hands of every
shipped ruleset and of the relay test ruleset (a blind pick window) by clicking tiles and buttons
and by the keyboard only, and after every decision what the page shows (hands, the drawn tile,
rivers and the last discard, melds, wall, the ruleset's markers, whose turn, the legal buttons)
is compared with the game itself. The layout holds at 1280×800 and at 800 px wide."""

from __future__ import annotations

import random
import threading

import pytest

from cnmahjong.envs.core import ruleset as registry
from cnmahjong.training.viewer.frames import snapshot
from tests.plugins import plugged_in
from tests.test_web import _wait

RELAY = "tests.relay.ruleset:RELAY"
HANDS = 2
"""Hands played per rule preset."""

READ = """
const q = (sel) => [...document.querySelectorAll(sel)];
const seats = {};
for (let s = 0; s < 4; s++) {
  const hand = document.getElementById(`hand-${s}`), river = document.getElementById(`river-${s}`);
  const seat = document.getElementById(`seat-${s}`);
  seats[s] = {hand: hand.dataset.tiles, drawn: hand.dataset.drawn === undefined ? null : +hand.dataset.drawn,
              apart: !!document.getElementById(`drawn-${s}`),
              river: river.dataset.tiles, last: river.dataset.last === undefined ? null : +river.dataset.last,
              melds: q(`#melds-${s} .meld`).map(m => [m.dataset.kind, m.dataset.tiles]),
              acting: seat.dataset.acting === "true",
              pos: [...seat.classList].find(c => c.startsWith("pos-")),
              marked: q(`#hand-${s} .tile.marked`).map(t => +t.dataset.kind)};
}
return {events: +document.getElementById("table").dataset.events, seats,
        wall: document.getElementById("wall").textContent,
        markers: q("#markers .marker").map(m => [m.dataset.id, m.querySelector(".label").textContent,
                                                  m.querySelector("b") ? m.querySelector("b").textContent : null,
                                                  [...m.querySelectorAll(".tile")].map(t => +t.dataset.kind)]),
        tiles: q(".seat.pos-bottom .hand button.act:not(:disabled)").map(b => [+b.dataset.kind, +b.dataset.action]),
        buttons: q("button.act.claim").map(b => [+b.dataset.action, b.querySelector(".what").textContent, b.disabled,
                                                 [...b.querySelectorAll(".tile")].map(t => +t.dataset.kind)]),
        enabled: q("button.act:not(:disabled)").map(b => +b.dataset.action),
        over: !!document.getElementById("over")};
"""


@pytest.fixture(autouse=True, scope="module")
def relay():
    """The relay test ruleset registered as ``tests/test_relay_ruleset.py`` does, undone afterwards."""
    with plugged_in(RELAY) as rs:
        yield rs


def sorted_hand(counts) -> str:
    return ",".join(str(t) for t in range(len(counts)) for _ in range(counts[t]))


def check_page(page: dict, table, rs) -> None:
    """Every fact the page shows against the game (read under the table's lock)."""
    game = table.game
    over = game.done
    assert page["events"] == len(game.events) and page["over"] == over
    assert page["wall"] == str(game.wall.remaining)
    for s in range(4):
        shown = page["seats"][str(s)]
        hand = sorted_hand(game.hands[s])
        assert shown["hand"] == (hand if s == 0 or over else f"hidden:{sum(game.hands[s])}")
        assert shown["river"] == ",".join(map(str, game.rivers[s]))
        melds = [[m.kind, "hidden" if m.hidden and s != 0 and not over else ",".join(map(str, m.tiles))]
                 for m in game.melds[s]]
        assert shown["melds"] == melds
        assert shown["pos"] == f"pos-{('bottom', 'right', 'top', 'left')[s]}"  # 下家 on the right
        if not over:
            assert shown["acting"] == (s in game.to_act)
        if shown["last"] is not None:  # the last discard: the latest discard event, still in its river
            last = next(e for e in reversed(game.events) if e["type"] == "discard")
            assert (last["seat"], last["tile"]) == (s, shown["last"]) == (s, game.rivers[s][-1])
    lasts = [s for s in range(4) if page["seats"][str(s)]["last"] is not None]
    assert len(lasts) <= 1
    if game.claim_tiles and not over:  # a discard offered to claims is the one marked
        assert lasts == [game.claim_from] and page["seats"][str(game.claim_from)]["last"] == game.claim_tiles[0]
    own = page["seats"]["0"]
    moved = next(e for e in reversed(game.events) if e["type"] in ("draw", "discard", "meld", "pass", "deal"))
    if moved["type"] == "draw" and moved["seat"] == 0 and 0 in game.to_act and not over:
        assert own["drawn"] == moved["tile"] and own["apart"]  # the tile just drawn, set apart
    elif own["drawn"] is not None:
        assert own["apart"] and game.hands[0][own["drawn"]]
    # every marker of the frame (the ruleset's, or its table_extras), and the facts they stand for
    declared = snapshot(game, 0, rs)["markers"]
    assert page["markers"] == [[m["id"], m["label"], m.get("text"), m.get("tiles", [])] for m in declared]
    markers = {m[0]: m for m in page["markers"]}
    if rs.name == "changsha":
        assert markers["stacks"][2] == str(game.wall.stacks_left())
    elif rs.name == "hangzhou":
        assert markers["indicator"][3] == [game.indicator]
        assert own["marked"] == [game.indicator] * game.hands[0][game.indicator]  # the 财神 in the hand
    elif rs.name == "relay":
        assert markers["out"][2] == (", ".join(map(str, game.out)) or "none")
    elif rs.name == "sichuan":  # the voids once revealed, the winners who left, in order
        assert ("voids" in markers) == (game.voids is not None)
        assert markers.get("out", [None, None, ""])[2] == ", ".join(f"seat {s}" for s in game.out)
    # the legal actions: the hand's tiles that a click plays, the rest as buttons, nothing else
    legal = table.legal()
    assert set(page["enabled"]) == set(legal)
    for kind, action in page["tiles"]:
        assert action in legal and rs.click_tile(game, action) == kind
    buttons = [a for a in legal if rs.click_tile(game, a) is None]
    shows = rs.action_tiles or (lambda game, a: [])
    assert page["buttons"] == [[a, game.ACTIONS.describe(a), False, shows(game, a)] for a in buttons]
    assert {a for _, a in page["tiles"]} == {a for a in legal if rs.click_tile(game, a) is not None}


def read(browser, table) -> dict:
    """The page once it shows the table's state (the server answers after the opponents played)."""
    def synced():
        with table.lock:
            page = browser.execute_script(READ)
            return page if page["events"] == len(table.game.events) else None
    return _wait(synced)


def check_layout(browser, width: int, height: int) -> None:
    """No sideways scrolling, the hand's tiles all in the window, the seats around the square; in a
    1280×800 window the whole table without scrolling."""
    browser.set_window_size(width, height)
    box = browser.execute_script("""
        const r = id => document.getElementById(id).getBoundingClientRect();
        const tiles = [...document.querySelectorAll('#hand-0 .tile')].map(t => t.getBoundingClientRect().right);
        return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth, high: window.innerHeight,
                right: Math.max(...tiles), s: [0, 1, 2, 3].map(s => r('seat-' + s)), centre: r('centre')};""")
    assert box["scroll"] <= box["inner"] and box["right"] <= box["inner"], box
    if width >= 1280:
        assert box["s"][0]["bottom"] <= box["high"], box
    s, c = box["s"], box["centre"]
    assert s[0]["top"] > c["bottom"] and s[2]["bottom"] < c["top"]
    assert s[1]["left"] > c["right"] and s[3]["right"] < c["left"]


def choose(page: dict, rng: random.Random) -> tuple[str, int]:
    """A legal move as a person makes it: click a hand tile, press ←/→ and Enter, or click a button."""
    options = [("tile", a) for _, a in page["tiles"]] + [("button", a) for a, *_ in page["buttons"]]
    how, action = rng.choice(options)
    if how == "tile" and rng.random() < 0.3:
        how = "keys"
    return how, action


def play(browser, how: str, action: int) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    if how == "button":
        browser.find_element("css selector", f'button.act.claim[data-action="{action}"]').click()
    elif how == "tile":
        browser.find_element("css selector", f'.pos-bottom .hand button.act[data-action="{action}"]').click()
    else:
        at, target = browser.execute_script("""
            const list = [...document.querySelectorAll('.seat.pos-bottom .hand button.act:not(:disabled)')];
            return [list.indexOf(document.activeElement), list.findIndex(b => +b.dataset.action === arguments[0])];
        """, action)
        presses = target + 1 if at < 0 else target - at
        keys = [Keys.ARROW_RIGHT] * presses if presses >= 0 else [Keys.ARROW_LEFT] * -presses
        ActionChains(browser).send_keys(*keys).perform()
        focused = browser.execute_script("return document.activeElement.dataset.action")
        assert focused == str(action)  # the focus walked the hand to the tile
        ActionChains(browser).send_keys(Keys.ENTER).perform()


@pytest.mark.parametrize("rules, seed, size", [("mainstream", 3, (1280, 800)), ("classic", 11, (800, 900)),
                                               ("hangzhou", 2, (1280, 800)), ("relay", 5, (800, 900)),
                                               ("sichuan", 4, (1280, 800))])
def test_a_person_plays_a_whole_hand_and_the_page_shows_the_game(browser, rules, seed, size):
    from cnmahjong.training.server.seat import Table, serve

    table = Table(["greedy", "greedy", "greedy"], rules, seed=seed)
    rs = table.ruleset
    server = serve(table, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    rng = random.Random(seed)
    ways: set[str] = set()
    showed_melds = 0
    try:
        browser.get(base + "/")
        page = read(browser, table)
        check_layout(browser, *size)
        for hand in range(HANDS):
            if hand:  # the next hand, by its button
                browser.find_element("id", "new").click()
                _wait(lambda: not browser.find_elements("id", "over"))
                page = read(browser, table)
            for _ in range(300):
                with table.lock:
                    check_page(page, table, rs)
                if page["over"]:
                    break
                how, action = choose(page, rng)
                ways.add(how)
                n = len(table.game.events)
                play(browser, how, action)
                _wait(lambda n=n: len(table.game.events) > n)
                new = table.game.events[n:]
                mine = [e for e in new if e["type"] == "act" and e["seat"] == 0]
                assert mine and mine[0]["action"] == action  # the page sent the move chosen, nothing else
                on_button = next((b[3] for b in page["buttons"] if b[0] == action), [])
                made = next((e for e in new if e["type"] == "meld" and e["seat"] == 0), None)
                if on_button and made is not None:  # the button showed the meld it made
                    assert on_button == made["tiles"]
                    showed_melds += 1
                page = read(browser, table)
            assert table.game.done and page["over"]
            shown = [int(td.text) for td in browser.find_elements("css selector", "#result td:nth-child(2)")]
            assert shown == list(table.game.result.payments)
            check_layout(browser, *size)  # the end: every hand open, the settlement in the middle
        assert {"tile", "keys"} <= ways  # tiles both clicked and played from the keyboard
        assert showed_melds or rs.action_tiles is None  # some claim was made from a button showing it
        # the replay of the hand: the same table, every hand face up
        browser.get(browser.find_element("id", "replay-link").get_attribute("href"))
        browser.find_element("id", "last").click()
        for s in range(4):
            assert browser.find_element("id", f"hand-{s}").get_attribute("data-tiles") == \
                sorted_hand(table.game.hands[s])
        assert [int(td.text) for td in browser.find_elements("css selector", "#result td:nth-child(2)")] == shown
    finally:
        server.shutdown()
        server.server_close()


def _png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_make_demo_photographs_the_play_page_and_the_replay(tmp_path, capsys):
    from cnmahjong.envs.changsha.game import ChangshaGame
    from cnmahjong.training.demo import screenshots
    from cnmahjong.training.viewer.replay import write_replay
    from tests.test_web import played

    page = write_replay(played(ChangshaGame, 4).events, tmp_path / "hand.html")
    pictures = screenshots(tmp_path, page)
    assert pictures == [tmp_path / "table_play.png", tmp_path / "table_replay.png"]
    for png in pictures:
        assert _png_size(png)[0] == 1280 and png.stat().st_size > 20_000
    assert "skipped" not in capsys.readouterr().out


def test_make_demo_goes_on_without_a_browser_and_says_so(tmp_path, monkeypatch, capsys):
    import cnmahjong.training.demo as demo

    monkeypatch.setattr(demo.shutil, "which", lambda name: None)
    assert demo.screenshots(tmp_path, tmp_path / "hand.html") == []
    assert "screenshots skipped: chromium and chromedriver are not installed" in capsys.readouterr().out
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("rules", ["mainstream", "hangzhou", "sichuan"])
def test_a_seats_frames_show_no_other_seats_drawn_tile_before_the_end(rules):
    """The drawn tile set apart: seat 0's view of another seat's draw is a back (``tile`` None) until
    the hand is over; the full view names it, the tile of that seat's last draw."""
    from cnmahjong.agents import GreedyAgent
    from cnmahjong.envs.aec import aec_env
    from cnmahjong.training.viewer.frames import hand_frames

    env = aec_env(registry.ruleset_of_preset(rules).name)(rules=rules)
    env.reset(seed=1)
    greedy = GreedyAgent()
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else greedy(obs["observation"], obs["action_mask"]))
    seen, full = hand_frames(env.game.events, seat=0)["frames"], hand_frames(env.game.events)["frames"]
    others = [(a["drawn"], b["drawn"]) for a, b in zip(seen, full, strict=True)
              if b["drawn"] is not None and b["drawn"]["seat"] != 0 and not b["over"]]
    assert others and all(a == {"seat": b["seat"], "tile": None} and b["tile"] is not None for a, b in others)
    own = [(a["drawn"], b["drawn"]) for a, b in zip(seen, full, strict=True) if b["drawn"] and b["drawn"]["seat"] == 0]
    assert own and all(a == b for a, b in own)

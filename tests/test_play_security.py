"""The human seat's server (``cnmahjong.training.server``) against hostile requests: forged Host, Origin and
token headers, malformed bodies, slow clients, early replays, failing opponents, bad CLI values.

Every test talks to a real server on 127.0.0.1 (port 0) through raw sockets, so any header can be
forged or left out; each refusal is checked for its status, a message naming what was wrong, and
an unchanged table.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from cnmahjong.envs.core.tiles import from_counts
from cnmahjong.training.server.httpd import MAX_BODY
from cnmahjong.training.server.seat import Table, main, serve
from tests import test_web

TIMEOUT = 0.5
"""The servers' client timeout here (seconds)."""


class Seat:
    """A table and its running server; ``request`` sends one raw HTTP request."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.server = serve(table, 0, client_timeout=TIMEOUT)
        self.port = self.server.server_address[1]
        self.host = f"127.0.0.1:{self.port}"
        self.origin = f"http://{self.host}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def request(self, method: str, path: str, body: bytes = b"", headers: dict[str, Any] | None = None,
                extra: Sequence[str] = ()) -> tuple[int, dict[str, str], bytes]:
        """One request; ``headers`` default to a legit client's (a None value leaves one out,
        ``extra`` adds raw header lines)."""
        legit = {"Host": self.host, "Origin": self.origin, "X-Seat-Token": self.server.token,
                 "Content-Type": "application/json", "Content-Length": str(len(body))}
        if method == "GET":
            del legit["Origin"], legit["X-Seat-Token"], legit["Content-Length"]
        legit.update(headers or {})
        lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in legit.items() if v is not None), *extra]
        return send_raw(self.port, ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + body)

    def state(self) -> dict[str, Any]:
        code, _, body = self.request("GET", "/state")
        assert code == 200
        return json.loads(body)

    def act(self, action: int, **kw: Any) -> tuple[int, dict[str, str], bytes]:
        return self.request("POST", "/act", json.dumps({"action": action}).encode(), **kw)


def send_raw(port: int, data: bytes, half_close: bool = False,
             timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """Send ``data``, read the answer until the server closes: (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        reply = read_all(s)
    return parse(reply)


def read_all(s: socket.socket) -> bytes:
    chunks = []
    while chunk := s.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def parse(reply: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = reply.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return int(status.split()[1]), headers, body


def table_state(table: Table) -> str:
    """Everything a request could change: the game's events, the log, the stall."""
    return json.dumps([table.game.events, table.log, getattr(table, "stalled", None)], sort_keys=True, default=str)


def error_of(body: bytes) -> str:
    return json.loads(body)["error"]


@pytest.fixture
def seat():
    s = Seat(Table(["random", "random", "random"], "hangzhou", seed=1))
    yield s
    s.close()


def first_discard(table: Table) -> int:
    describe = table.game.ACTIONS.describe
    return next(a for a in table.legal() if describe(a).startswith("DISCARD"))


# -- 1. Host, Origin, token ---------------------------------------------------------------------

BAD_HOSTS = [
    ("evil.example", "is not this server"),
    ("evil.example:{port}", "is not this server"),
    ("127.0.0.1:{port}.evil.example", "is not this server"),
    ("127.0.0.1:{other}", "is not this server"),
    ("localhost", "is not this server"),
    ("127.0.0.1", "is not this server"),
    (None, "Host header is missing"),
]


@pytest.mark.parametrize("method, path", [("GET", "/"), ("GET", "/state"), ("GET", "/replay"), ("POST", "/act"),
                                          ("POST", "/new")])
@pytest.mark.parametrize("host, said", BAD_HOSTS)
def test_every_request_with_a_foreign_host_is_refused(seat, capfd, method, path, host, said):
    """DNS rebinding: another site's name resolving to 127.0.0.1 still sends its own Host."""
    before = table_state(seat.table)
    host = None if host is None else host.format(port=seat.port, other=seat.port + 1)
    action = json.dumps({"action": first_discard(seat.table)}).encode() if path == "/act" else b""
    code, headers, body = seat.request(method, path, action, {"Host": host})
    assert code == 403 and said in error_of(body) and "Host" in error_of(body)
    assert b'"frame"' not in body and seat.server.token.encode() not in body
    assert headers["x-content-type-options"] == "nosniff"
    assert table_state(seat.table) == before
    assert seat.state()  # still serving
    assert "Traceback" not in capfd.readouterr().err


def test_two_host_headers_are_refused(seat):
    before = table_state(seat.table)
    code, _, body = seat.request("GET", "/state", extra=["Host: evil.example"])
    assert code == 400 and "2 Host headers" in error_of(body)
    assert table_state(seat.table) == before


def test_the_local_names_are_accepted(seat):
    code, _, _ = seat.request("GET", "/state", headers={"Host": f"localhost:{seat.port}"})
    assert code == 200
    before = len(seat.table.game.events)
    code, _, body = seat.act(first_discard(seat.table), headers={"Host": f"localhost:{seat.port}",
                                                                 "Origin": f"http://localhost:{seat.port}"})
    assert code == 200 and len(seat.table.game.events) > before


BAD_ORIGINS = [
    (None, 403, "Origin header is missing"),
    ("http://evil.example", 403, "is not the table's page"),
    ("null", 403, "is not the table's page"),
    ("https://127.0.0.1:{port}", 403, "is not the table's page"),
    ("http://127.0.0.1:{other}", 403, "is not the table's page"),
    ("http://127.0.0.1:{port}.evil.example", 403, "is not the table's page"),
    ("http://localhost", 403, "is not the table's page"),
]
BAD_TOKENS = [
    (None, 403, "X-Seat-Token header is missing"),
    ("", 403, "X-Seat-Token header is wrong"),
    ("guess", 403, "X-Seat-Token header is wrong"),
    ("{token}x", 403, "X-Seat-Token header is wrong"),
    ("{short}", 403, "X-Seat-Token header is wrong"),
    ("é" * 43, 403, "X-Seat-Token header is wrong"),
]


@pytest.mark.parametrize("path", ["/act", "/new"])
@pytest.mark.parametrize("origin, token, code, said",
                         [(o, "{token}", c, s) for o, c, s in BAD_ORIGINS]
                         + [("{origin}", t, c, s) for t, c, s in BAD_TOKENS])
def test_posts_need_the_pages_origin_and_token(seat, capfd, path, origin, token, code, said):
    """Another site's page can POST here (CSRF) but can neither name this origin nor read the token."""
    before = table_state(seat.table)
    fill = {"port": seat.port, "other": seat.port + 1, "origin": seat.origin, "token": seat.server.token,
            "short": seat.server.token[:-1]}
    headers = {"Origin": None if origin is None else origin.format(**fill),
               "X-Seat-Token": None if token is None else token.format(**fill)}
    body = json.dumps({"action": first_discard(seat.table)}).encode() if path == "/act" else b""
    got, _, answer = seat.request("POST", path, body, headers)
    assert got == code and said in error_of(answer)
    assert table_state(seat.table) == before
    assert seat.state()
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("name", ["Origin", "X-Seat-Token"])
def test_two_origin_or_token_headers_are_refused(seat, name):
    before = table_state(seat.table)
    value = seat.origin if name == "Origin" else seat.server.token
    code, _, body = seat.act(first_discard(seat.table), extra=[f"{name}: {value}"])
    assert code == 400 and f"2 {name} headers" in error_of(body)
    assert table_state(seat.table) == before


def test_the_page_carries_the_token_and_strict_headers(seat):
    code, headers, body = seat.request("GET", "/")
    page = body.decode()
    token = re.search(r'<meta name="seat-token" content="([^"]+)">', page).group(1)
    assert code == 200 and token == seat.server.token and len(token) >= 40
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
    nonce = re.search(r"script-src 'nonce-([^']+)'", headers["content-security-policy"]).group(1)
    assert f'<script nonce="{nonce}">' in page and "frame-ancestors 'none'" in headers["content-security-policy"]
    assert seat.request("GET", "/")[1]["content-security-policy"] != headers["content-security-policy"]  # fresh nonce
    for path in ("/state", "/nothing"):
        code, headers, _ = seat.request("GET", path)
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
        assert headers["cache-control"] == "no-store"


# -- 2. nothing shows another seat's concealed tiles before the hand ends -----------------------

def test_the_replay_opens_only_when_the_hand_is_over(seat):
    before = table_state(seat.table)
    code, headers, body = seat.request("GET", "/replay")
    assert code == 409 and error_of(body) == "the replay opens when the hand is over"
    assert b"hand-data" not in body and table_state(seat.table) == before
    for _ in range(300):  # play the hand out through the server
        state = seat.state()
        if state["frame"]["over"]:
            break
        assert seat.act(state["actions"][0])[0] == 200
    assert seat.table.game.done
    code, headers, body = seat.request("GET", "/replay")
    assert code == 200 and b"hand-data" in body and headers["content-type"].startswith("text/html")
    assert headers["x-frame-options"] == "DENY"


def test_state_shows_seat_0s_view_only(seat):
    code, _, body = seat.request("GET", "/state")
    frame = json.loads(body)["frame"]
    game = seat.table.game
    assert frame["seats"][0]["hand"] == from_counts(game.hands[0])
    assert set(frame["legal"]) <= {"0"}
    for s in (1, 2, 3):
        assert frame["seats"][s]["hand"] is None and frame["seats"][s]["hidden"] == sum(game.hands[s])
        assert json.dumps(from_counts(game.hands[s])).encode() not in body


def _kong_scenario():
    """Seat 0 discards 9s; seat 1 draws and makes a concealed kong of 1s (tests.hz_scenario)."""
    from cnmahjong.envs.hangzhou import actions as A
    from tests.hz_scenario import discard, hz_game, k

    hands = ["9p4s7s2p5p8p3m6m9s1z2z3z4z6z", "1111s23m456m789m5z",
             "2s5s8s4p7p1m4m6z7z1z2z3z4z", "3s6s9s5m8m4p7p4z4z6z6z7z7z"]
    deal = hz_game(hands, indicator="5z", head="9p 8p 1p 6p 5p", tail="6s").events[0]
    return {"hands": deal["hands"], "wall": deal["wall"]}, discard("9s"), A.gang(k("1s"))


def test_another_seats_concealed_kong_stays_hidden_in_the_state(seat):
    scenario, discard_9s, kong = _kong_scenario()

    def kong_first(observation, mask):
        return kong if mask[kong] else int(np.flatnonzero(mask)[0])

    seat.table.policies[0] = kong_first
    seat.table.new_hand(scenario)
    assert seat.act(discard_9s)[0] == 200
    state = seat.state()
    assert state["frame"]["seats"][1]["melds"] == [{"kind": "angang", "tiles": [], "hidden": True}]
    assert "seat 1 makes a concealed kong" in state["log"]
    assert not any("GANG" in line for line in state["log"]), state["log"]


# -- 3. request bodies and slow clients ---------------------------------------------------------

NESTED = b"[" * 30_000 + b"]" * 30_000  # under the size limit, far over the recursion limit
BAD_BODIES = [
    # (extra header lines, body, status, what the error says)
    (["Content-Length: abc"], b"", 400, "Content-Length 'abc' is not a number"),
    (["Content-Length: -1"], b"", 400, "Content-Length '-1' is not a number"),
    (["Content-Length: 1e3"], b"", 400, "is not a number"),
    (["Content-Length: 99999999999999999999999"], b"", 413, "over the 65536-byte limit"),
    ([f"Content-Length: {MAX_BODY + 1}"], b"{", 413, "over the 65536-byte limit"),
    (["Content-Length: 2", "Content-Length: 2"], b"{}", 400, "2 Content-Length headers"),
    (["Transfer-Encoding: chunked"], b"2\r\n{}\r\n0\r\n\r\n", 411, "Transfer-Encoding"),
    (None, NESTED, 400, "nested too deeply"),
    (None, b'{"action": ' + b"[" * 20_000 + b"]" * 20_000 + b"}", 400, "nested too deeply"),
    (None, b"not json", 400, "not JSON"),
    (None, b"\xff\xfe{}", 400, "not JSON"),
    (None, b'{"action": ' + b"7" * 5000 + b"}", 400, "not JSON"),
    (None, b"[1, 2]", 400, "JSON list without \"action\""),
    (None, b"5", 400, "JSON int without \"action\""),
    (None, b'"act"', 400, "JSON str without \"action\""),
    (None, b'{"act": 1}', 400, "without \"action\""),
    (None, b'{"action": true}', 400, "action must be an integer, got the bool True"),
    (None, b'{"action": 1.0}', 400, "action must be an integer"),
    (None, b'{"action": "5"}', 400, "action must be an integer"),
    (None, b'{"action": null}', 400, "action must be an integer"),
    (None, b'{"action": [5]}', 400, "action must be an integer"),
    (None, b'{"action": 1000000000000000000000000000000}', 400, "out of range"),
    (None, b'{"action": -1}', 400, "out of range"),
]


@pytest.mark.parametrize("extra, body, code, said", BAD_BODIES)
def test_bad_bodies_get_a_4xx_and_change_nothing(seat, capfd, extra, body, code, said):
    before = table_state(seat.table)
    headers = {"Content-Length": None} if extra is not None else {}
    got, _, answer = seat.request("POST", "/act", body, headers, extra=extra or [])
    assert got == code and said in error_of(answer), answer[:300]
    assert table_state(seat.table) == before
    assert seat.state()
    assert "Traceback" not in capfd.readouterr().err


def test_a_body_shorter_than_its_length_is_refused(seat, capfd):
    before = table_state(seat.table)
    head = (f"POST /act HTTP/1.1\r\nHost: {seat.host}\r\nOrigin: {seat.origin}\r\n"
            f"X-Seat-Token: {seat.server.token}\r\nContent-Length: 40\r\n\r\n").encode()
    code, _, body = send_raw(seat.port, head + b'{"action": 1}', half_close=True)
    assert code == 400 and "ended after 13 of the 40 bytes" in error_of(body)
    assert table_state(seat.table) == before and seat.state()
    assert "Traceback" not in capfd.readouterr().err


def test_a_client_stalling_in_its_headers_is_dropped(seat, capfd):
    with socket.create_connection(("127.0.0.1", seat.port), timeout=10) as s:
        s.sendall(f"GET /state HTTP/1.1\r\nHost: {seat.host}\r\n".encode())  # no blank line: stalls
        start = time.monotonic()
        assert seat.state()  # others are served meanwhile
        assert read_all(s) == b""  # closed without an answer
        assert time.monotonic() - start < 5
    assert seat.state()
    assert "Traceback" not in capfd.readouterr().err


def test_a_client_stalling_in_its_body_gets_408(seat, capfd):
    before = table_state(seat.table)
    with socket.create_connection(("127.0.0.1", seat.port), timeout=10) as s:
        s.sendall((f"POST /act HTTP/1.1\r\nHost: {seat.host}\r\nOrigin: {seat.origin}\r\n"
                   f"X-Seat-Token: {seat.server.token}\r\nContent-Length: 40\r\n\r\n" + '{"act').encode())
        code, _, body = parse(read_all(s))
    assert code == 408 and f"did not arrive within {TIMEOUT:g} s" in error_of(body)
    assert table_state(seat.table) == before and seat.state()
    assert "Traceback" not in capfd.readouterr().err


# -- 4. an action is played and said so, or refused and not played -----------------------------

def raising(observation, mask):
    raise RuntimeError("boom")


def test_an_opponent_failing_after_the_humans_action_says_the_action_was_played(seat, capfd):
    table = seat.table
    kept = list(table.policies)
    table.policies[:] = [raising] * 3
    for _ in range(50):  # until an action hands the turn to an opponent
        action, start = table.legal()[0], len(table.game.events)
        code, _, body = seat.act(action)
        if code != 200:
            break
    answer = json.loads(body)
    first = table.game.events[start]
    assert code == 500 and answer["played"] is True
    assert first["type"] == "act" and first["seat"] == 0 and first["action"] == action  # it was played
    failed = re.search(r"opponent seat (\d) \(random\) failed: RuntimeError: boom", answer["error"])
    assert failed and answer["error"].startswith("your action was played")
    assert table.env.agent_name_mapping[table.env.agent_selection] == int(failed.group(1))
    assert answer["stalled"] == table.stalled and answer["actions"] == [] and answer["frame"]
    # the stalled table refuses further actions, changing nothing, until a new hand
    before = table_state(table)
    code, _, body = seat.act(action)
    assert code == 409 and "start a new hand" in error_of(body) and f"opponent seat {failed.group(1)}" in error_of(body)
    assert table_state(table) == before and seat.state()["stalled"] == table.stalled
    table.policies[:] = kept
    code, _, body = seat.request("POST", "/new")
    assert code == 200 and json.loads(body)["stalled"] is None and table.legal()
    assert "Traceback" not in capfd.readouterr().err


def test_an_opponent_failing_on_the_deal_of_a_new_hand_is_reported(seat):
    seat.table.policies[:] = [raising] * 3
    for _ in range(20):  # until a deal where an opponent decides before seat 0
        code, _, body = seat.request("POST", "/new")
        if code != 200:
            break
    answer = json.loads(body)
    assert code == 500 and answer["played"] is False and "a new hand was dealt, then opponent seat" in answer["error"]


def test_the_page_shows_that_the_action_was_played_and_who_failed(browser):
    _wait = test_web._wait
    seat = Seat(Table(["greedy", "greedy", "greedy"], "hangzhou", seed=0))
    try:
        scenario, discard_9s, _ = _kong_scenario()
        seat.table.new_hand(scenario)
        browser.get(seat.origin + "/")
        _wait(lambda: browser.find_elements("css selector", "button.act"))
        seat.table.policies[0] = raising
        browser.find_element("css selector", f'button.act[data-action="{discard_9s}"]').click()
        message = _wait(lambda: browser.find_element("id", "message").text)
        assert message.startswith("your action was played, then opponent seat 1 (greedy) failed: RuntimeError: boom")
        assert browser.find_elements("id", "stalled") and not browser.find_elements("css selector", "button.act")
        assert "seat 0 discards 9s" in browser.find_element("id", "log").text
        seat.table.policies[0] = seat.table.policies[1]
        browser.find_element("id", "new").click()  # a new hand goes on normally
        _wait(lambda: browser.find_elements("css selector", "button.act")
              and not browser.find_element("id", "message").text)
    finally:
        seat.close()


def illegal(observation, mask):
    return len(mask) + 5


@pytest.mark.parametrize("bad, said", [(raising, "RuntimeError: boom"), (illegal, "IllegalActionError")])
@pytest.mark.parametrize("rules", ["mainstream", "hangzhou"])
def test_an_opponent_that_cannot_play_the_rules_stops_the_start(monkeypatch, capsys, bad, said, rules):
    import cnmahjong.training.server.table as play
    from cnmahjong.agents import make_policy

    seen = []

    def fake_make_policy(name, seed=None, ruleset=None, trust_pickles=False):
        seen.append(ruleset)
        return bad if name == "bad" else make_policy(name, seed=seed, ruleset=ruleset)

    monkeypatch.setattr(play, "make_policy", fake_make_policy)
    with pytest.raises(ValueError, match=rf"opponent 2 \(bad\) cannot play {rules}: .*{said}"):
        Table(["greedy", "bad", "greedy"], rules)
    assert seen == [play.ruleset_of_preset(rules).name] * 3  # each opponent is made for these rules
    with pytest.raises(SystemExit):
        main(["--opponents", "greedy", "greedy", "bad", "--rules", rules, "--port", "0"])
    assert f"opponent 3 (bad) cannot play {rules}" in capsys.readouterr().err


def test_a_checkpoint_of_other_rules_is_refused_at_the_start():
    with pytest.raises(ValueError, match="hz-v0"):
        Table(["greedy", "pretrained-changsha", "greedy"], "hangzhou")


# -- 5. the command line ------------------------------------------------------------------------

@pytest.mark.parametrize("flag, value, said", [
    ("--port", "70000", "a port is 0..65535"), ("--port", "65536", "a port is 0..65535"),
    ("--port", "-1", "a port is 0..65535"), ("--port", "http", "a port is 0..65535"),
    ("--seed", "-1", "a seed is an integer 0 or more"), ("--seed", "1.5", "a seed is an integer 0 or more"),
])
def test_bad_port_or_seed_is_a_clear_cli_error(capsys, flag, value, said):
    with pytest.raises(SystemExit) as exit_:
        main([flag, value])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and f"argument {flag}: {said}" in err and repr(value) in err

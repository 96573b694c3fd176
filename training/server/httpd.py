"""The human seat's web server: a ``cnmahjong.training.server.table.Table`` on 127.0.0.1, and nothing else.

What the server accepts (anything else gets a 4xx with a JSON ``{"error": ...}`` naming what
was wrong, and changes nothing):

- every request: ``Host`` is ``127.0.0.1:PORT`` or ``localhost:PORT`` (PORT the bound one), so
  a page of another site reaching it through DNS rebinding is refused (403);
- ``POST /act`` and ``POST /new``: ``Origin`` is ``http://127.0.0.1:PORT`` or
  ``http://localhost:PORT`` (a missing one is refused too), and ``X-Seat-Token`` is the random
  token of this server run, which only the page served at ``/`` knows (403);
- a body of at most 64 KiB with a plain ``Content-Length`` (no chunked bodies: 411; too big:
  413), a JSON object ``{"action": ID}`` with ``ID`` an integer action id (400);
- a client that stalls mid-request is dropped after ``client_timeout`` seconds (10 by default).

Responses carry ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` and a
Content-Security-Policy (the page's scripts run by nonce; no framing). If an opponent's policy
fails after your action, the answer is a 500 saying your action was played and which opponent
failed; the table then waits for a new hand.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from cnmahjong.envs.core.engine import IllegalActionError
from cnmahjong.training.viewer.html import play_html

if TYPE_CHECKING:
    from cnmahjong.training.server.table import Table

MAX_BODY = 64 * 1024
"""The largest request body read (an action is a few bytes)."""
TOKEN_HEADER = "X-Seat-Token"


class Refused(Exception):
    """A request answered with ``code`` and ``{"error": message}``: nothing was changed."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class SeatServer(ThreadingHTTPServer):
    """The table's server on 127.0.0.1: it knows the names it answers to and the page's token."""

    daemon_threads = True

    def __init__(self, table: Table, port: int, client_timeout: float) -> None:
        self.table = table
        self.client_timeout = client_timeout
        self.token = secrets.token_urlsafe(32)
        super().__init__(("127.0.0.1", port), SeatHandler)
        bound = self.server_address[1]
        self.hosts = {f"127.0.0.1:{bound}", f"localhost:{bound}"}
        self.origins = {f"http://{h}" for h in self.hosts}

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up or stalled is not an error of the server: no traceback."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class SeatHandler(BaseHTTPRequestHandler):
    """GET ``/``, ``/state``, ``/replay``; POST ``/act``, ``/new``. Every check raises ``Refused``."""

    server: SeatServer

    def setup(self) -> None:
        self.timeout = self.server.client_timeout  # a stalled read raises TimeoutError
        super().setup()

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        try:
            self._check_host()
            self._get()
        except Refused as e:
            self._json(e.code, {"error": str(e)})

    def do_POST(self) -> None:  # noqa: N802
        try:
            self._check_host()
            raw = self._read_body()
            self._check_origin()
            self._check_token()
            self._post(raw)
        except Refused as e:
            self.close_connection = True  # the body may be left unread
            self._json(e.code, {"error": str(e)})

    def _get(self) -> None:
        table = self.server.table
        with table.lock:
            if self.path == "/":
                nonce = secrets.token_urlsafe(16)
                self._send(200, play_html(self.server.token, nonce), "text/html", _page_policy(nonce))
            elif self.path == "/state":
                self._json(200, table.state())
            elif self.path == "/replay":
                try:
                    page = table.replay_page()
                except IllegalActionError as e:
                    raise Refused(409, str(e)) from None
                self._send(200, page, "text/html", _REPLAY_POLICY)
            else:
                raise Refused(404, f"no page {self.path}: try / or /state")

    def _post(self, raw: bytes) -> None:
        table = self.server.table
        with table.lock:
            if self.path == "/new":
                table.new_hand()
                self._after_play(played=False)
                return
            if self.path != "/act":
                raise Refused(404, f"no action endpoint {self.path}: POST /act or /new")
            action = _action_of(raw)
            try:
                table.act(action)
            except (ValueError, TypeError, IllegalActionError) as e:
                raise Refused(409 if table.stalled else 400, f"refused: {e}") from None
            self._after_play(played=True)

    def _after_play(self, played: bool) -> None:
        """The new state; a 500 naming the opponent that failed (the human's action still played)."""
        table = self.server.table
        if table.stalled is None:
            self._json(200, table.state())
            return
        what = "your action was played, then " if played else "a new hand was dealt, then "
        self._json(500, {"played": played, "error": what + table.stalled, **table.state()})

    # -- the checks ------------------------------------------------------------------------
    def _one_header(self, name: str) -> str | None:
        values = self.headers.get_all(name) or []
        if len(values) > 1:
            raise Refused(400, f"{len(values)} {name} headers: send one")
        return values[0].strip() if values else None

    def _check_host(self) -> None:
        """DNS rebinding: a foreign name pointed at 127.0.0.1 still sends its own Host."""
        host = self._one_header("Host")
        if host is None:
            raise Refused(403, "the Host header is missing")
        if host.lower() not in self.server.hosts:
            raise Refused(403, f"Host {host[:80]!r} is not this server: use {' or '.join(sorted(self.server.hosts))}")

    def _check_origin(self) -> None:
        """Another site's page may POST here (CSRF); browsers name the page's origin."""
        origin = self._one_header("Origin")
        if origin is None:
            raise Refused(403, "the Origin header is missing: only the table's own page may act")
        if origin.lower() not in self.server.origins:
            raise Refused(403, f"Origin {origin[:80]!r} is not the table's page: only "
                               f"{' or '.join(sorted(self.server.origins))} may act")

    def _check_token(self) -> None:
        """The token is in the page only: a request made without reading it is refused."""
        token = self._one_header(TOKEN_HEADER)
        if token is None:
            raise Refused(403, f"the {TOKEN_HEADER} header is missing: reload the page at /")
        if not hmac.compare_digest(token.encode("utf-8", "replace"), self.server.token.encode()):
            raise Refused(403, f"the {TOKEN_HEADER} header is wrong (the server restarted?): reload the page at /")

    def _read_body(self) -> bytes:
        """At most ``MAX_BODY`` bytes, declared by one plain Content-Length (none: empty)."""
        if self.headers.get("Transfer-Encoding") is not None:
            raise Refused(411, "Transfer-Encoding bodies are not accepted: send a Content-Length")
        declared = self._one_header("Content-Length")
        if declared is None:
            return b""
        if not re.fullmatch(r"[0-9]+", declared):
            raise Refused(400, f"Content-Length {declared[:40]!r} is not a number of bytes")
        if len(declared) > 9 or int(declared) > MAX_BODY:
            raise Refused(413, f"a body of {declared[:40]} bytes is over the {MAX_BODY}-byte limit")
        length = int(declared)
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            raise Refused(408, f"the body did not arrive within {self.server.client_timeout:g} s") from None
        if len(raw) < length:
            raise Refused(400, f"the body ended after {len(raw)} of the {length} bytes of its Content-Length")
        return raw

    # -- answers ---------------------------------------------------------------------------
    def _send(self, code: int, body: str, kind: str = "application/json", policy: str | None = None) -> None:
        data = body.encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", policy or "default-src 'none'; frame-ancestors 'none'")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def _json(self, code: int, data: Any) -> None:
        self._send(code, json.dumps(data, ensure_ascii=False))

    def end_headers(self) -> None:
        """Headers on every answer (http.server's own error pages too)."""
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet server
        pass


def _page_policy(nonce: str) -> str:
    """The play page's CSP: its inline style and scripts by nonce, requests to this server only."""
    return (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; connect-src 'self'; "
            "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


_REPLAY_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""The replay page (``cnmahjong.training.viewer.html.replay_html``, no nonce): inline code only, nothing fetched."""


def _action_of(raw: bytes) -> Any:
    """The ``action`` of a body ``{"action": ID}`` (its type is checked by ``Table.act``)."""
    try:
        body = json.loads(raw or b"{}")
    except RecursionError:
        raise Refused(400, "refused: the JSON body is nested too deeply; send {\"action\": ID}") from None
    except ValueError as e:  # not JSON, not UTF-8, or an integer of thousands of digits
        raise Refused(400, f"refused: the body is not JSON ({str(e)[:80]}); send {{\"action\": ID}}") from None
    if not isinstance(body, dict) or "action" not in body:
        raise Refused(400, f"refused: the body is a JSON {type(body).__name__} without \"action\"; "
                           "send {\"action\": ID}")
    return body["action"]


def serve(table: Table, port: int = 8765, client_timeout: float = 10.0) -> SeatServer:
    """The table's server on 127.0.0.1; ``port=0`` takes a free one. A client that stalls for
    ``client_timeout`` seconds mid-request is dropped."""
    return SeatServer(table, port, client_timeout)

"""Self-contained HTML for the replay viewer and the human seat: tiles drawn with CSS (rank large,
suit character and colour below it), no network, no external files.

The style and scripts live in ``training/viewer/web/`` and are inlined into every page:
``replay_html(hand)`` is one file holding the frames of a hand as JSON and the script that
steps through them (buttons, arrow keys, Home/End, a slider); ``play_html()`` is the page of
``cnmahjong.training.server``. Both draw tables with the same ``table.js``.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

WEB = Path(__file__).with_name("web")


def _asset(name: str) -> str:
    return (WEB / name).read_text(encoding="utf-8")


def _json_script(data: Any) -> str:
    """JSON for a ``<script type="application/json">`` block (no ``</`` can close it early)."""
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def replay_html(hand: dict[str, Any]) -> str:
    """One self-contained page stepping through ``hand`` (``cnmahjong.training.viewer.frames.hand_frames``)."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(hand['title'])}</title>
<style>{_asset("style.css")}</style></head>
<body class="replay">
<header><h1 id="title"></h1>
<div class="bar">
  <button id="first" title="first step (Home)">|&lt;</button><button id="prev" title="back (←)">&lt;</button>
  <button id="next" title="forward (→)">&gt;</button><button id="last" title="last step (End)">&gt;|</button>
  <input type="range" id="slider" min="0" value="0"> <span id="step"></span>
</div></header>
<main class="layout"><div id="table"></div><aside><div class="log" id="log"></div></aside></main>
<script type="application/json" id="hand-data">{_json_script(hand)}</script>
<script>{_asset("table.js")}{_asset("replay.js")}</script>
</body></html>
"""


def play_html(token: str = "", nonce: str | None = None) -> str:
    """The human seat's page (``cnmahjong.training.server``): it asks the local server for the table, sending
    back ``token`` (the server's, in a ``seat-token`` meta tag) with every action; ``nonce`` marks
    the inline style and script for the server's Content-Security-Policy."""
    mark = "" if nonce is None else f' nonce="{html.escape(nonce)}"'
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>cnmahjong: your seat</title>
<meta name="seat-token" content="{html.escape(token)}">
<style{mark}>{_asset("style.css")}</style></head>
<body class="play">
<header><h1>You are seat 0</h1><div id="status"></div><div id="message"></div></header>
<main class="layout"><div id="table"></div><aside><div class="log" id="log"></div></aside></main>
<script{mark}>{_asset("table.js")}{_asset("play.js")}</script>
</body></html>
"""

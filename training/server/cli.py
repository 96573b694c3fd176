"""Sit at the table: you play seat 0 against any policies the arena accepts.

    python -m cnmahjong.training.server --opponents greedy greedy ckpt:runs/train/model.pt [--rules PRESET]
    python -m cnmahjong.training.server --opponents greedy greedy greedy --tui     # in the terminal
    cnmahjong-play ...                                                            # the same

The browser mode serves one page on http://127.0.0.1:PORT (this machine only, standard
library ``http.server``): a square table, your hand at the bottom (click a tile to discard it,
or ←/→ and Enter), the others' hands, melds and rivers as you may see them, and the claims and
other actions as buttons shown only when legal. The server checks every action again: an
illegal one is refused with a message and changes nothing. When the hand ends the page shows
the settlement and links the hand's replay (the replay viewer's page, every hand revealed);
before that ``/replay`` answers 409, so no page shows another seat's concealed tiles early.

The session is ``table.py``, the web server ``httpd.py`` (what it accepts, and what it refuses),
the terminal seat ``tui.py``; this module is the command line. Any registered
ruleset plays (``--rules``: any preset).
"""

from __future__ import annotations

import argparse
import re
import sys

from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, get_ruleset, preset_names
from cnmahjong.training.server.httpd import serve
from cnmahjong.training.server.table import Table
from cnmahjong.training.server.tui import tui
from cnmahjong.training.sigterm import sigterm_as_interrupt


def _port(text: str) -> int:
    """``--port``: 0..65535 (0: any free one)."""
    if not re.fullmatch(r"[0-9]{1,5}", text.strip()) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0: any free one), got {text!r}")
    return int(text)


def _seed(text: str) -> int:
    """``--seed``: a non-negative integer."""
    if not re.fullmatch(r"[0-9]+", text.strip()):
        raise argparse.ArgumentTypeError(f"a seed is an integer 0 or more, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opponents", nargs=3, default=["greedy", "greedy", "greedy"], metavar="POLICY",
                        help="seats 1-3: random, greedy, expert, search[:rollouts=N,...], pretrained, "
                             "pretrained-NAME or ckpt:PATH")
    parser.add_argument("--rules", default=get_ruleset(DEFAULT_RULESET).default_rules, choices=sorted(preset_names()),
                        help="a rule preset of any registered ruleset")
    parser.add_argument("--seed", type=_seed, default=None, help="deal seed stream, 0 or more (default: random)")
    parser.add_argument("--port", type=_port, default=8765, help="local port 0..65535 (0: any free one)")
    parser.add_argument("--tui", action="store_true", help="play in the terminal instead of the browser")
    parser.add_argument("--trust-zip", action="store_true",
                        help="allow SB3 .zip opponents (unpickling them can run code: only your own files)")
    args = parser.parse_args(argv)
    sigterm_as_interrupt()  # SIGTERM ends the server as Ctrl-C does, and the bots with it
    try:
        table = Table(args.opponents, args.rules, args.seed, trust_pickles=args.trust_zip)
    except ValueError as e:
        parser.error(str(e))
    if args.tui:
        tui(table)
        return
    try:
        server = serve(table, args.port)
    except OSError as e:
        parser.error(f"cannot listen on 127.0.0.1:{args.port}: {e.strerror or e}")
    print(f"your seat is open at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("bye", file=sys.stderr)
    finally:
        server.server_close()


if __name__ == "__main__":
    main()

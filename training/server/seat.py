"""The human seat's public names in one place (``Table``, ``serve``, ``tui``, ``main``), each from
its own module: ``table`` (the session), ``httpd`` (the web server), ``tui`` (the terminal) and
``cli`` (the command line); nothing here but the names."""

from cnmahjong.training.server.cli import main
from cnmahjong.training.server.httpd import serve
from cnmahjong.training.server.table import HUMAN, REPLAY_CLOSED, Table
from cnmahjong.training.server.tui import tui

__all__ = ["HUMAN", "REPLAY_CLOSED", "Table", "main", "serve", "tui"]

"""The human seat: you play seat 0 against any policies, in the browser or the terminal.

``seat`` holds the table (``Table``), the terminal version and the command line
(``python -m cnmahjong.training.server``, ``cnmahjong-play``); ``httpd`` is its web server on
127.0.0.1 and everything it refuses. The page is drawn by the viewer's ``html`` and ``web/``."""

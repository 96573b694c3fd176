"""The replay viewer: a played hand's event log as frames (``frames``), drawn as one
self-contained HTML page (``html``, assets in ``web/``, shared with the human seat's page), and
its command line (``replay``: ``python -m cnmahjong.training.viewer``, ``cnmahjong-replay``)."""

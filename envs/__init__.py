"""Chinese regional mahjong environments (Changsha, Hangzhou).

The hot modules may be compiled (``envs/hotpath.py``); this installs the import finder that
keeps their pure-Python sources the fallback (``CNMAHJONG_PURE=1``, or a stale build).
"""

from envs.hotpath import install_finder

install_finder()

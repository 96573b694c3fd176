"""``python -m cnmahjong.training.server``: the human seat (``seat``)."""

import sys

from cnmahjong.training.server.cli import main

if __name__ == "__main__":  # spawned workers import this module as __mp_main__: they must not run it
    sys.argv[0] = "python -m cnmahjong.training.server"  # for the usage line (not "__main__.py")
    main()

"""``python -m cnmahjong.training.league``."""

import sys

from cnmahjong.training.league.cli import main

if __name__ == "__main__":  # spawned arena workers import this module as __mp_main__: they must not run it
    sys.argv[0] = "python -m cnmahjong.training.league"
    main()

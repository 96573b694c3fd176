"""``python -m cnmahjong.training.bench``: the bench's command line (``cli``)."""

import sys

from cnmahjong.training.bench.cli import main

if __name__ == "__main__":  # spawned workers import this module as __mp_main__: they must not run it
    sys.argv[0] = "python -m cnmahjong.training.bench"  # for the usage line (not "__main__.py")
    main()

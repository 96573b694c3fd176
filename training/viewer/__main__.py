"""``python -m cnmahjong.training.viewer``: the replay viewer (``replay``)."""

import sys

from cnmahjong.training.viewer.replay import main

if __name__ == "__main__":  # spawned workers import this module as __mp_main__: they must not run it
    sys.argv[0] = "python -m cnmahjong.training.viewer"  # for the usage line (not "__main__.py")
    main()

"""Play Down With The King against the computer nobles in a terminal.

The code lives in ``fandonia_env.apps.play``; this module keeps the old import path
and ``python -m fandonia_env.play``.
"""

from .apps.play import *  # noqa: F403
from .apps.play import __all__, main  # noqa: F401

if __name__ == "__main__":
    raise SystemExit(main())

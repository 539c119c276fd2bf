"""The README's main job: a short demo tournament of the trained noble against the scripted ones.

The code lives in ``fandonia_env.apps.demo``; this module keeps the old import path
and ``python -m fandonia_env.demo``.
"""

from .apps.demo import *  # noqa: F403
from .apps.demo import __all__, main  # noqa: F401

if __name__ == "__main__":
    raise SystemExit(main())

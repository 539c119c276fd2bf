"""Speed benchmark of the engine and the PettingZoo env, single process, one core.

The code lives in ``fandonia_env.apps.bench``; this module keeps the old import path
and ``python -m fandonia_env.bench``.
"""

from .apps.bench import *  # noqa: F403
from .apps.bench import __all__, main  # noqa: F401

if __name__ == "__main__":
    raise SystemExit(main())

"""A computer noble for any front end: ``python -m fandonia_env.bot --agent ID``.

The code lives in ``fandonia_env.apps.bot``; this module keeps the old import path
and ``python -m fandonia_env.bot``.
"""

from .apps.bot import *  # noqa: F403
from .apps.bot import __all__, main  # noqa: F401

if __name__ == "__main__":
    raise SystemExit(main())

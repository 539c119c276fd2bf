"""Tournaments between registered agents, with seat rotation and duplicate seeds.

The code lives in ``fandonia_env.arena.tournament``; this module keeps the old import path
and ``python -m fandonia_env.tournament``.
"""

from .arena.tournament import *  # noqa: F403
from .arena.tournament import __all__, main  # noqa: F401

if __name__ == "__main__":
    raise SystemExit(main())

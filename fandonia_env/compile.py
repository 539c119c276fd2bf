"""Compile the rules engine with mypyc: the same rules, about twice as fast (optional).

The code lives in ``fandonia_env.tools.compile``; this module keeps the old import path
and ``python -m fandonia_env.compile``.
"""

from .tools.compile import *  # noqa: F403
from .tools.compile import __all__, main  # noqa: F401

if __name__ == "__main__":
    raise SystemExit(main())

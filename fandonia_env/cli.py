"""Command-line options shared by every entry point: which rules to play.

The code lives in ``fandonia_env.tools.cli``; this module keeps the old import path.
"""

from .tools.cli import *  # noqa: F403
from .tools.cli import __all__  # noqa: F401

"""PettingZoo AEC environment ``fandonia_v0``: Down With The King for 2-6 players.

The code lives in ``fandonia_env.envs.fandonia_v0``; this module keeps the old import path.
"""

from .envs.fandonia_v0 import *  # noqa: F403
from .envs.fandonia_v0 import __all__  # noqa: F401

"""PettingZoo AEC environment ``fandonia_v1``: ``fandonia_v0`` with observation v1.

The code lives in ``fandonia_env.envs.fandonia_v1``; this module keeps the old import path.
"""

from .envs.fandonia_v1 import *  # noqa: F403
from .envs.fandonia_v1 import __all__  # noqa: F401

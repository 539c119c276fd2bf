"""What the two environments (``fandonia_v0`` and ``FandoniaGymEnv``) share: action checking, the illegal-move modes and ``reset(options=...)`` parsing.

The code lives in ``fandonia_env.envs.common``; this module keeps the old import path.
"""

from .envs.common import *  # noqa: F403
from .envs.common import __all__  # noqa: F401

"""``FandoniaGymEnv``: a Gymnasium environment for one learner against opponents.

The code lives in ``fandonia_env.envs.gym_env``; this module keeps the old import path.
"""

from .envs.gym_env import *  # noqa: F403
from .envs.gym_env import __all__  # noqa: F401

"""fandonia_env: a reinforcement-learning environment for Down With The King (1981).

* ``fandonia_env.engine``: the rules engine (pure Python).
* ``fandonia_env.fandonia_v0``: the PettingZoo AEC environment.
* ``fandonia_env.FandoniaGymEnv``: a Gymnasium environment for one learner against opponents.
"""

from typing import Any

from .engine import Game

__version__ = "0.2.0"
__all__ = ["FandoniaGymEnv", "Game", "__version__"]


def __getattr__(name: str) -> Any:
    if name == "FandoniaGymEnv":
        from .gym_env import FandoniaGymEnv

        return FandoniaGymEnv
    raise AttributeError(f"module 'fandonia_env' has no attribute {name!r}")

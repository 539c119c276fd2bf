"""fandonia_env: a reinforcement-learning environment for Down With The King (1981).

* ``fandonia_env.engine``: the rules engine (pure Python).
* ``fandonia_env.fandonia_v0``: the PettingZoo AEC environment.
* ``fandonia_env.FandoniaGymEnv``: a Gymnasium environment for one learner against opponents,
  registered as ``gymnasium.make("fandonia_env/Fandonia-v0", ...)`` (:data:`GYM_ENV_ID`).
"""

from typing import Any

from .engine import Game

__version__ = "0.2.0"
__all__ = ["GYM_ENV_ID", "FandoniaGymEnv", "Game", "InvalidActionError", "__version__", "fandonia_v0"]

GYM_ENV_ID = "fandonia_env/Fandonia-v0"


def __getattr__(name: str) -> Any:
    if name == "FandoniaGymEnv":
        from .gym_env import FandoniaGymEnv

        return FandoniaGymEnv
    if name == "fandonia_v0":
        import importlib

        return importlib.import_module(".fandonia_v0", __name__)
    if name == "InvalidActionError":
        from .env_common import InvalidActionError

        return InvalidActionError
    raise AttributeError(f"module 'fandonia_env' has no attribute {name!r}")


def _register_gym() -> None:
    """Register the Gymnasium env (entry point string: nothing heavy is imported now)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - gymnasium is a dependency
        return
    if GYM_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ENV_ID, entry_point="fandonia_env.gym_env:FandoniaGymEnv")


_register_gym()

"""fandonia_env: a reinforcement-learning environment for Down With The King (1981).

* ``fandonia_env.engine``: the rules engine (pure Python).
* ``fandonia_env.fandonia_v1``: the PettingZoo AEC environment (observation v1);
  ``fandonia_env.fandonia_v0`` keeps the first release's observation.
* ``fandonia_env.FandoniaGymEnv``: a Gymnasium environment for one learner against opponents,
  registered as ``gymnasium.make("fandonia_env/Fandonia-v1", ...)`` (:data:`GYM_ENV_ID_V1`) and
  ``"fandonia_env/Fandonia-v0"`` (:data:`GYM_ENV_ID`, observation v0).
"""

from typing import Any

from .engine import Game

__version__ = "0.2.0"
__all__ = ["GYM_ENV_ID", "GYM_ENV_ID_V1", "FandoniaGymEnv", "Game", "InvalidActionError", "__version__",
           "fandonia_v0", "fandonia_v1"]

GYM_ENV_ID = "fandonia_env/Fandonia-v0"
#: the Gymnasium id of the env with observation v1 (``FandoniaGymEnv(observation="v1")``)
GYM_ENV_ID_V1 = "fandonia_env/Fandonia-v1"


def __getattr__(name: str) -> Any:
    if name == "FandoniaGymEnv":
        from .envs.gym_env import FandoniaGymEnv

        return FandoniaGymEnv
    if name in ("fandonia_v0", "fandonia_v1"):
        import importlib

        return importlib.import_module(".envs." + name, __name__)
    if name == "InvalidActionError":
        from .envs.common import InvalidActionError

        return InvalidActionError
    raise AttributeError(f"module 'fandonia_env' has no attribute {name!r}")


def _register_gym() -> None:
    """Register the Gymnasium env (entry point string: nothing heavy is imported now)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - gymnasium is a dependency
        return
    if GYM_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ENV_ID, entry_point="fandonia_env.envs.gym_env:FandoniaGymEnv",
                           kwargs={"observation": "v0"})
    if GYM_ENV_ID_V1 not in gymnasium.registry:
        gymnasium.register(id=GYM_ENV_ID_V1, entry_point="fandonia_env.envs.gym_env:FandoniaGymEnv",
                           kwargs={"observation": "v1"})


_register_gym()

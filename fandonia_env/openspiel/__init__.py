"""Down With The King as an OpenSpiel game, ``python_fandonia`` (docs/openspiel.md).

    import pyspiel
    import fandonia_env.openspiel                        # registers python_fandonia with pyspiel
    game = pyspiel.load_game("python_fandonia", {"players": 4, "preset": "errata"})

Needs the ``openspiel`` extra (``pip install "fandonia_env[openspiel]"``).  ``game`` maps the engine
onto OpenSpiel's game API; ``bots`` holds the adapters between OpenSpiel bots and the project's
nobles (a noble as a ``pyspiel.Bot``, OpenSpiel's IS-MCTS with the project's resampling).  OpenSpiel
bots sit at the tournament as agents ``openspiel:ismcts?...`` (``fandonia_env.agents.openspiel_bot``).
"""

from fandonia_env.extras import require_extra

require_extra("openspiel", "fandonia_env.openspiel")  # one line (and exit 2 on a command line) without it

from .bots import NobleBot, RolloutEvaluator, ismcts_bot  # noqa: E402
from .game import (  # noqa: E402
    GAME_TYPE,
    SHORT_NAME,
    FandoniaGame,
    FandoniaObserver,
    FandoniaState,
    game_params,
    load,
    resample_state,
    state_from_engine,
)

__all__ = ["GAME_TYPE", "SHORT_NAME", "FandoniaGame", "FandoniaObserver", "FandoniaState", "NobleBot", "RolloutEvaluator",
           "game_params",
           "ismcts_bot", "load", "resample_state", "state_from_engine"]

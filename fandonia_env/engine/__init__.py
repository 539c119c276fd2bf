"""The rules engine of Down With The King (Avalon Hill, 1981): pure Python."""

from .game import ConfigError, Game, make_config, player_view
from .machine import EngineError, IllegalActionError
from .state import GameState, StateError

__all__ = [
    "ConfigError", "EngineError", "Game", "GameState", "IllegalActionError", "StateError",
    "make_config", "player_view",
]

"""The rules engine of Down With The King (Avalon Hill, 1981): pure Python, optionally compiled
with mypyc (``python -m fandonia_env.compile``; ``COMPILED`` says which one runs, and the
environment variable ``FANDONIA_ENGINE=pure|compiled`` picks one)."""

from .core.compiled import choose as _choose

#: True when the engine's modules run as mypyc-compiled C extensions (``compiled.choose``)
COMPILED = _choose()

from .core.machine import EngineError, IllegalActionError  # noqa: E402 - after the choice
from .core.state import GameState, StateError  # noqa: E402 - after the choice
from .face.game import ConfigError, Game, make_config, player_view  # noqa: E402 - after the choice

__all__ = [
    "COMPILED", "ConfigError", "EngineError", "Game", "GameState", "IllegalActionError", "StateError",
    "make_config", "player_view",
]

"""fandonia_env: a reinforcement-learning environment for Down With The King (1981)."""

from .engine import Game

__version__ = "0.1.0"
__all__ = ["Game", "__version__"]

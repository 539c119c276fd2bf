"""The words for people playing the game: prompts, options, the race, the faction, the recent lines, the glossary.

The code lives in ``fandonia_env.words`` (one module a job); this module keeps the old import path.
"""

from .words import *  # noqa: F403
from .words import __all__  # noqa: F401

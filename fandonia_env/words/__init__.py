"""The one source of words for people playing the game, built from **one seat's view**
(``Game.view(seat)``) and the log lines that seat may see: never another seat's hand or drawn counters, never
the true state.  The server (``serve/workers.py``: ``decision.prompt``, ``decision.options[i]``
``label/detail/rule/confirm``, ``race``, ``faction``, ``recent``; ``GET /help``) and the terminal game
(``apps/play.py``) both read their words from here.

Plain words only: prompts and labels carry no catalogue keys and no section marks; the rule a choice
follows is in its ``rule`` field (e.g. "§36.3"), for a tooltip.  One module a job:

* ``names``: names and cleaned texts (characters, offices, cards, titles, a character's situation);
* ``odds``: dice odds from the tables (2d6 sums);
* ``glossary``: labels and explanations of activities, free actions, cards, counters, terms (``HELP``);
* ``decisions``: what a decision asks and what each choice does (``prompt``, ``decision_words``);
* ``preview``: what a choice does to the seat before it is made (``preview_words``, from the engine's
  ``engine/face/preview.py``);
* ``seat``: the race for the throne, the seat's faction, what happened since (``seat_words``).
"""

from . import decisions, glossary, names, odds, preview, seat
from .decisions import *  # noqa: F403
from .glossary import *  # noqa: F403
from .names import *  # noqa: F403
from .odds import *  # noqa: F403
from .preview import *  # noqa: F403
from .seat import *  # noqa: F403

__all__ = sorted({*names.__all__, *odds.__all__, *glossary.__all__, *decisions.__all__, *preview.__all__, *seat.__all__})

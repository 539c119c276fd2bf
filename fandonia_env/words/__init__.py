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
* ``seat``: the race for the throne, the seat's faction, what happened since (``seat_words``).
"""

from .decisions import CHAR_VERBS, KIND_RULES, PASS_WORDS, PROMPTS, YES_NO, decision_words, option_words, prompt
from .glossary import (
    ACTIVITY_WORDS,
    CARD_WORDS,
    COUNTER_WORDS,
    FREE_WORDS,
    HELP,
    OFFICE_WORDS,
    TERM_WORDS,
    TITLE_WORDS,
    card_words,
)
from .names import (
    a_an,
    cap,
    card_name,
    char_brief,
    char_name,
    clean,
    country_name,
    key_words,
    next_title,
    office_name,
    ordinal,
    pct,
    player_words,
    rule_of,
    situation_of,
    table_name,
    title_of,
)
from .odds import RISKY_RESULTS, assassination_odds, p_2d6, prestige_mod, prestige_risk, table_row
from .seat import GOAL, RECENT_MAX, VICTORY_TURNS, faction, race, recent, seat_words

__all__ = [
    "ACTIVITY_WORDS", "CARD_WORDS", "CHAR_VERBS", "COUNTER_WORDS", "FREE_WORDS", "GOAL", "HELP", "KIND_RULES",
    "OFFICE_WORDS", "PASS_WORDS", "PROMPTS", "RECENT_MAX", "RISKY_RESULTS", "TERM_WORDS", "TITLE_WORDS",
    "VICTORY_TURNS", "YES_NO", "a_an", "assassination_odds", "cap", "card_name", "card_words", "char_brief",
    "char_name", "clean", "country_name", "decision_words", "faction", "key_words", "next_title", "office_name",
    "option_words", "ordinal", "p_2d6", "pct", "player_words", "prestige_mod", "prestige_risk", "prompt", "race",
    "recent", "rule_of", "seat_words", "situation_of", "table_name", "table_row", "title_of",
]

"""Play Down With The King against the computer nobles in a terminal.

The code lives in ``fandonia_env.apps.play``; this module keeps the old import path
and ``python -m fandonia_env.play``.
"""

from .apps.play import (
    FORMAT,
    HELP,
    HUMAN,
    PlayError,
    Session,
    agent_seed,
    char_name,
    decision_title,
    faction_of,
    main,
    odds_text,
    option_label,
    parse_args,
    play,
    situation_of,
    table,
    title_of,
)

__all__ = [
    "FORMAT", "HELP", "HUMAN", "PlayError", "Session", "agent_seed", "char_name", "decision_title", "faction_of",
    "main", "odds_text", "option_label", "parse_args", "play", "situation_of", "table", "title_of",
]

if __name__ == "__main__":
    raise SystemExit(main())

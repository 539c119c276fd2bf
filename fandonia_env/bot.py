"""A computer noble for any front end: ``python -m fandonia_env.bot --agent ID``.

The code lives in ``fandonia_env.apps.bot``; this module keeps the old import path
and ``python -m fandonia_env.bot``.
"""

from .apps.bot import COMMANDS, MAX_LINE, NAME_, PROTOCOL, Bot, BotError, bot_seeds, main, serve

__all__ = ["COMMANDS", "MAX_LINE", "NAME_", "PROTOCOL", "Bot", "BotError", "bot_seeds", "main", "serve"]

if __name__ == "__main__":
    raise SystemExit(main())

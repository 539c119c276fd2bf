"""Command-line options shared by every entry point: which rules to play.

The code lives in ``fandonia_env.tools.cli``; this module keeps the old import path.
"""

from .tools.cli import (
    EXTRAS,
    MissingExtraError,
    Progress,
    add_rules_args,
    agent_id_arg,
    agent_list_arg,
    describe_rules,
    existing_file,
    extra_message,
    int_range,
    invoked_as,
    known_agents,
    max_turns_arg,
    missing_modules,
    player_counts_arg,
    players_arg,
    positive_float,
    positive_int,
    report_written,
    require_extra,
    rules_from_args,
    seed_arg,
)

__all__ = [
    "EXTRAS", "MissingExtraError", "Progress", "add_rules_args", "agent_id_arg", "agent_list_arg", "describe_rules",
    "existing_file", "extra_message", "int_range", "invoked_as", "known_agents", "max_turns_arg", "missing_modules",
    "player_counts_arg", "players_arg", "positive_float", "positive_int", "report_written", "require_extra",
    "rules_from_args", "seed_arg",
]

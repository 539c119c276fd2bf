"""Tournaments between registered agents, with seat rotation and duplicate seeds.

The code lives in ``fandonia_env.arena.tournament``; this module keeps the old import path
and ``python -m fandonia_env.tournament``.
"""

from .arena.tournament import (
    TABLE_NOTE,
    TournamentResult,
    agent_seed,
    distinct_rotations,
    finishing_order,
    fit_ratings,
    main,
    make_lineup,
    markdown_table,
    play_game,
    plot_ratings,
    run_tournament,
    schedule,
    seat_agents,
    summarize,
)

__all__ = [
    "TABLE_NOTE", "TournamentResult", "agent_seed", "distinct_rotations", "finishing_order", "fit_ratings", "main",
    "make_lineup", "markdown_table", "play_game", "plot_ratings", "run_tournament", "schedule", "seat_agents",
    "summarize",
]

if __name__ == "__main__":
    raise SystemExit(main())

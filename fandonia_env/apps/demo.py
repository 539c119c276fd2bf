"""The README's main job: a short demo tournament of the trained noble against the scripted ones.

    python -m fandonia_env.demo [--games 16] [--players 4] [--seed 0] [--max-turns 60] [--jobs N]

``noble-ppo-v2`` (the strongest trained policy shipped in ``fandonia_env/agents/weights/``, played in numpy) against
``noble-rule-v1``, ``noble-rule-v2`` and ``random-v1`` at a 4-player table (``--agents`` changes
the lineup; at other table sizes the list repeats), each deal played under every seat rotation
(duplicate seeds), with a progress bar; prints the results
table (per agent: games played, wins/draws/truncated, win share and mean rank with bootstrap
confidence intervals where they mean something, and an OpenSkill rating mu ± sigma when
``openskill`` is installed).  Results go to ``runs/demo/`` (``--out``); the command says which
files it wrote.  ``--max-turns 0`` means no turn limit.  The full runner is
``python -m fandonia_env.tournament``.
"""

from __future__ import annotations

import argparse

from ..arena.tournament import add_deal_args, run_tournament, show_result
from ..tools.cli import add_rules_args, agent_list_arg, players_arg, positive_int, rules_from_args

__all__ = ["DEMO_AGENTS", "main"]

#: the demo's table: the trained noble and the scripted ones
DEMO_AGENTS = ["noble-ppo-v2", "noble-rule-v1", "noble-rule-v2", "random-v1"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.demo", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=16, help="total games, >= 1 (default 16)")
    ap.add_argument("--players", type=players_arg, default=4, help="players at the table, 2 to 6 (default 4)")
    add_deal_args(ap)
    ap.add_argument("--agents", type=agent_list_arg, default=DEMO_AGENTS,
                    help=f"comma-separated agent ids or ppo:PATH (default {','.join(DEMO_AGENTS)})")
    ap.add_argument("--out", default="runs/demo", help="directory for the results (default runs/demo)")
    add_rules_args(ap)
    a = ap.parse_args(argv)
    res = run_tournament(agents=a.agents, players=a.players, games=a.games,
                         seed=a.seed, max_turns=a.max_turns, jobs=a.jobs, out=a.out,
                         rules=rules_from_args(a, ap))
    show_result(res)
    return 0

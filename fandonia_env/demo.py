"""The README's main job: a short demo tournament of scripted nobles.

    python -m fandonia_env.demo [--games 16] [--players 4] [--seed 0] [--max-turns 60] [--jobs N]

Two ``noble-rule-v1`` nobles against two ``random-v1`` nobles at a 4-player table, each deal
played under every seat rotation (duplicate seeds), with a progress bar; prints the results
table (win rate and mean rank with bootstrap confidence intervals, and an OpenSkill rating when
``openskill`` is installed).  Results go to ``runs/demo/``.  The full runner is
``python -m fandonia_env.tournament``.
"""

from __future__ import annotations

import argparse
import sys

from .cli import add_rules_args, rules_from_args
from .tournament import run_tournament


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.demo", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--out", default="runs/demo")
    add_rules_args(ap)
    a = ap.parse_args(argv)
    res = run_tournament(agents=["noble-rule-v1", "random-v1"], players=a.players, games=a.games,
                         seed=a.seed, max_turns=a.max_turns, jobs=a.jobs, out=a.out,
                         rules=rules_from_args(a, ap))
    print(res.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())

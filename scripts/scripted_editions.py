"""The scripted nobles under both editions (issue 12): one table of tournament results.

    python scripts/scripted_editions.py [--games 400] [--jobs 2] [--seed 20000]

For each edition (1981, errata) it plays, at 4 players with duplicate deal seeds and every seat
rotation (``fandonia_env.tournament.run_tournament``), each scripted noble against 3x random-v1 and
noble-rule-v2 against 3x noble-rule-v1, and prints one markdown row per tournament: the noble's win
share with its 95% bootstrap CI, the fair share, and how the games ended.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from fandonia_env.arena.tournament import run_tournament
from fandonia_env.tools.cli import positive_int, seed_arg

#: (agent, opponent) pairs: the agent takes one seat, the opponent the other three
PAIRS = [("noble-rule-v1", "random-v1"), ("noble-rule-v2", "random-v1"), ("noble-rule-v2", "noble-rule-v1"),
         ("noble-rule-v1", "noble-rule-v2")]
EDITIONS = ("1981", "errata")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=400, help="games per tournament (default 400)")
    ap.add_argument("--jobs", type=positive_int, default=None, help="worker processes (default: all cores)")
    ap.add_argument("--seed", type=seed_arg, default=20000, help="first deal seed (default 20000)")
    a = ap.parse_args(argv)
    print("| edition | noble | vs 3x | games | win share [95% CI] | fair | wins / draws / truncated (all seats) | wall s |")
    print("|---|---|---|---:|---|---:|---|---:|")
    for edition in EDITIONS:
        for agent, opp in PAIRS:
            t0 = time.perf_counter()
            r = run_tournament(lineup=[agent, opp, opp, opp], games=a.games, seed=a.seed, jobs=a.jobs,
                               progress=False, plot=False, rules={"edition": edition})
            s = r.summary["agents"][agent]
            lo, hi = s["win_share_ci"] or (s["win_share"], s["win_share"])
            ends = Counter(g["result"] for g in r.games)
            print(f"| {edition} | {agent} | {opp} | {s['games']} | {s['win_share']:.3f} [{lo:.3f}, {hi:.3f}] | 0.250 | "
                  f"{ends['win']} / {ends['draw']} / {ends['truncated']} | {time.perf_counter() - t0:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

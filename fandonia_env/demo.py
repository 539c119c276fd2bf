"""The README's main job: a short demo tournament.

    python -m fandonia_env.demo [--games 12] [--players 4] [--seed 0] [--max-turns 40] [--log]

Until the scripted nobles of issue 4 exist, the entrants are uniformly random legal players
(``random``); the table shows, per seat, wins, draws and truncated games, and the mean game
length.  ``--log`` prints the full public log of the first game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from .engine import Game


def play_random(players: int, seed: int, max_turns: int) -> Game:
    g = Game(players=players, seed=seed, max_turns=max_turns)
    rng = random.Random(seed)
    while not g.over:
        g.apply(rng.choice(g.legal_actions()))
    return g


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.demo", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=40)
    ap.add_argument("--log", action="store_true")
    a = ap.parse_args(argv)
    wins: Counter = Counter()
    results: Counter = Counter()
    turns = decisions = 0
    t0 = time.perf_counter()
    for i in range(a.games):
        g = play_random(a.players, a.seed + i, a.max_turns)
        if i == 0 and a.log:
            print("\n".join(g.log_lines()))
        results[g.result] += 1
        if g.winner is not None:
            wins[g.winner] += 1
        turns += g.state.turn
        decisions += g.state.steps
        done = int(30 * (i + 1) / a.games)
        print(f"\r[{'#' * done}{'.' * (30 - done)}] {i + 1}/{a.games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    dt = time.perf_counter() - t0
    print(f"\nDemo tournament: {a.games} games, {a.players} random nobles, turn limit {a.max_turns}\n")
    print("| seat | wins | win rate |")
    print("|---|---|---|")
    for p in range(a.players):
        print(f"| player {p} | {wins[p]} | {wins[p] / a.games:.2f} |")
    print(f"\nresults: {dict(results)}; mean {turns / a.games:.1f} turns and "
          f"{decisions / a.games:.0f} decisions per game; {a.games / dt:.2f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

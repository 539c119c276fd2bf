"""Random-play soak: complete games with uniformly random legal actions, checking the
invariants (fandonia_env.engine.face.invariants) after every step.

    python scripts/soak.py --games 200 --players 2-6 --max-turns 60 [--seed 0] [--roundtrip]
        [--preset errata] [--edition errata] [--optional clemency,funerals]

Prints per-player-count figures (games, mean decisions, results) and the first failure; writes
no file.  ``--players`` takes 4, 2,4,6 or 2-6; ``--max-turns 0`` means no turn limit (the
engine's ``max_turns=None``: every game runs until it is won or drawn).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
import traceback
from typing import Any

from fandonia_env.engine import Game
from fandonia_env.engine.face.invariants import check
from fandonia_env.envs.common import DEFAULT_MAX_TURNS
from fandonia_env.tools.cli import (
    add_rules_args,
    max_turns_arg,
    player_counts_arg,
    positive_int,
    rules_from_args,
    seed_arg,
)


def play(n: int, seed: int, max_turns: int | None, roundtrip: bool, **rules: Any) -> Game:
    g = Game(players=n, seed=seed, max_turns=max_turns, **rules)
    rng = random.Random(seed)
    check(g.state)
    while not g.over:
        g.apply(rng.choice(g.legal_actions()))
        check(g.state)
        if roundtrip:
            c = g.clone()
            assert c.state == g.state, "clone differs"
            j = Game.from_json(json.loads(json.dumps(g.to_json())))
            assert j.state == g.state, "JSON round trip differs"
    return g


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python scripts/soak.py", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=100, help="games to play, >= 1 (default 100)")
    ap.add_argument("--players", type=player_counts_arg, default="2-6",
                    help="player counts 2..6, cycled over the games: 4, 2,4,6 or 2-6 (default 2-6)")
    ap.add_argument("--max-turns", type=max_turns_arg, default=DEFAULT_MAX_TURNS,
                    help=f"turn limit, 0 for none (default {DEFAULT_MAX_TURNS})")
    ap.add_argument("--seed", type=seed_arg, default=0, help="seed of the first game, >= 0 (default 0)")
    ap.add_argument("--roundtrip", action="store_true", help="check clone and JSON round trip after every step")
    add_rules_args(ap)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    a = ap.parse_args(argv)
    rules = rules_from_args(a, ap)
    counts = a.players
    stats: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    steps: dict[int, int] = collections.Counter()
    t0 = time.perf_counter()
    for i in range(a.games):
        n = counts[i % len(counts)]
        seed = a.seed + i
        try:
            g = play(n, seed, a.max_turns, a.roundtrip, **rules)
        except Exception:
            print(f"FAILED: players={n} seed={seed} rules={rules}")
            traceback.print_exc()
            return 1
        stats[n][g.result] += 1
        steps[n] += g.state.steps
    dt = time.perf_counter() - t0
    for n in counts:
        k = sum(stats[n].values())
        print(f"{n} players: {k} games, mean {steps[n] / max(k, 1):.0f} decisions, results {dict(stats[n])}")
    limit = "no turn limit" if a.max_turns is None else f"max turns {a.max_turns}"
    print(f"{a.games} games in {dt:.1f}s ({limit})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

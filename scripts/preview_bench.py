"""How long a preview of one decision takes (``fandonia_env/engine/face/preview.py``): what the server and
the terminal game add to every decision of a human seat.

    python scripts/preview_bench.py [--games 3] [--players 4] [--preset errata] [--worlds 16] [--max-turns 20]

Plays random games and times ``preview`` at every decision (the seat deciding), after the game is set up;
prints the mean, median, 95th percentile and maximum in milliseconds, overall and for the slowest kinds.
A measurement, not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from fandonia_env.engine import Game
from fandonia_env.engine.face.preview import preview


def _row(ts: list[float]) -> str:
    ts = sorted(ts)
    return (f"n={len(ts):5d}  mean {1000 * statistics.mean(ts):6.1f}  median {1000 * ts[len(ts) // 2]:6.1f}  "
            f"p95 {1000 * ts[int(len(ts) * 0.95)]:6.1f}  max {1000 * ts[-1]:6.1f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--preset", default="errata")
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--max-turns", type=int, default=20)
    args = ap.parse_args(argv)
    times: list[float] = []
    by_kind: dict[str, list[float]] = {}
    for seed in range(args.games):
        g = Game(players=args.players, seed=seed, preset=args.preset, max_turns=args.max_turns)
        rng = random.Random(seed)
        while not g.over:
            d = g.decision()
            assert d is not None
            t = time.perf_counter()
            preview(g.state, d["player"], worlds=args.worlds, seed=g.state.steps)
            dt = time.perf_counter() - t
            times.append(dt)
            by_kind.setdefault(d["kind"], []).append(dt)
            g.apply(rng.choice(d["options"]))
    print(f"preview, {args.worlds} worlds, {args.games} games of {args.players} players ({args.preset}, "
          f"max {args.max_turns} turns)")
    print("all decisions  " + _row(times))
    slow = sorted(by_kind, key=lambda k: -statistics.mean(by_kind[k]))[:8]
    for k in slow:
        print(f"{k:24s} " + _row(by_kind[k]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

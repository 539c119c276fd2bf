"""The batched self-play bench (issue 27): learner decisions/s and games/s.

    python -m fandonia_env.training.bench_selfplay [--games 128] [--workers 2] [--seconds 30] [--players 4]
                                      [--presets 1981,errata] [--opponents self] [--policy PATH]

Runs ``--workers`` actor processes (``fandonia_env.training.selfplay``), each with ``--games`` games in flight
and one forward pass per batch of pending decisions, for ``--seconds``, and prints one table row:
the engine in use (compiled or pure), the learner decisions recorded per second over all workers,
every decision per second (scripted seats' included), and finished games per second.  With
``--opponents self`` (the default) every seat is the network's, so every decision is a learner
decision.  The policy is ``noble-ppo-v1``'s weights unless ``--policy`` names an exported ``.npz``.
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=128, help="games in flight per worker (default 128)")
    ap.add_argument("--workers", type=int, default=2, help="actor processes, one per core (default 2)")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds of play per worker (default 30)")
    ap.add_argument("--players", default="4", help="table sizes drawn per game, e.g. 4 or 2,4,6 (default 4)")
    ap.add_argument("--presets", default="1981,errata", help="rules presets drawn per game (default 1981,errata)")
    ap.add_argument("--opponents", default="self",
                    help="agent ids drawn for the seats the learner does not hold ('self': the network; default)")
    ap.add_argument("--policy", default=None, help="an exported policy .npz (default: noble-ppo-v1's weights)")
    a = ap.parse_args(argv)
    try:
        players = tuple(int(x) for x in a.players.split(","))
    except ValueError:
        ap.error(f"--players: comma-separated table sizes 2-6, got {a.players!r}")
    if a.games < 1 or a.workers < 1 or a.seconds <= 0:
        ap.error(f"--games and --workers must be >= 1 and --seconds > 0; got {a.games}, {a.workers}, {a.seconds}")
    from fandonia_env.agents.ppo_agent import NOBLE_PPO_V1
    from fandonia_env.engine.core.compiled import status
    from fandonia_env.engine.core.options import preset_names

    presets = tuple(a.presets.split(","))
    bad = [p for p in presets if p not in preset_names()]
    if bad:
        ap.error(f"--presets: unknown {bad}; valid presets: {preset_names()}")
    opponents = tuple(a.opponents.split(","))
    from .selfplay import LEARNER, SelfPlayConfig, run_actors

    try:
        cfg = SelfPlayConfig(games=a.games, players=players, presets=presets, opponents=opponents,
                             learner_seats=None if opponents == (LEARNER,) else 1, temperature=1.0, seed=1)
    except ValueError as e:
        ap.error(str(e))
    path = a.policy or str(NOBLE_PPO_V1)
    t0 = time.perf_counter()
    b = run_actors(path, cfg, workers=a.workers, seconds=a.seconds)
    wall = time.perf_counter() - t0
    st = b.stats
    secs = st["seconds"]
    print("| engine | workers | games in flight | learner dec/s | all dec/s | games/s | wall s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(f"| {status()[0]} | {a.workers} | {a.workers * a.games} | {st['learner_decisions'] / secs:,.0f} | "
          f"{st['decisions'] / secs:,.0f} | {st['games'] / secs:.2f} | {wall:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A noble's strength table: one tournament per row, the noble in one seat against identical opponents.

    python scripts/strength_table.py --noble ppo:runs/x/policy.npz --seed 12000000 [--rows hour] [--jobs 2]
        [--max-turns 0] [--out runs/strength/x.json] [--only 3] [--games-scale 0.25]

Each row (``ROWS``) is ``(opponent, players, preset, games)``: the tournament runner with duplicate
deals and every seat rotation, 95% bootstrap CIs over whole games, played to the rules' end by
default (``--max-turns 0``, ruling R11).  Prints a markdown table (with the command of each row) and
writes the rows as JSON to ``--out`` (rows already there with the same settings are not played again,
so a stopped table resumes).  Use deal seeds never used in training, tuning or selection.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

#: the row sets: (opponent, players, preset, games)
ROWS: dict[str, list[tuple[str, int, str, int]]] = {
    # issue 40's lines, then the other nobles, 2/4/6 players and both editions
    "hour": [
        ("noble-rule-v1", 4, "1981", 2000),
        ("noble-rule-v1", 4, "errata", 2000),
        ("random-v1", 4, "1981", 1000),
        ("noble-ppo-v2", 4, "errata", 2000),
        ("noble-ppo-v2", 4, "1981", 1000),
        ("noble-rule-v1", 2, "errata", 1000),
        ("noble-rule-v1", 6, "1981", 1200),
        ("noble-rule-v2", 4, "1981", 1000),
        ("noble-ppo-v1", 4, "errata", 1000),
        ("noble-rule-v1", 4, "errata-all-optional", 1000),
    ],
    # the three lines a candidate must hold first (issue 40), the cheap check of an attempt
    "gate": [
        ("noble-rule-v1", 4, "1981", 2000),
        ("noble-rule-v1", 4, "errata", 2000),
        ("noble-ppo-v2", 4, "errata", 2000),
    ],
}


def play_row(noble: str, row: tuple[str, int, str, int], seed: int, max_turns: int, jobs: int) -> dict[str, Any]:
    """One tournament: ``noble`` and ``players - 1`` x the opponent; its seat's win share."""
    from fandonia_env.arena.tournament import run_tournament
    from fandonia_env.training.evaluate import win_share

    opp, players, preset, games = row
    t = time.perf_counter()
    r = run_tournament(lineup=[noble] + [opp] * (players - 1), games=games, seed=seed, max_turns=max_turns or None,
                       jobs=jobs, progress=False, plot=False, rules={"preset": preset})
    n, share, lo, hi = win_share(r.summary, noble)
    return {"noble": noble, "opponent": opp, "players": players, "preset": preset, "games": n, "seed": seed,
            "max_turns": max_turns, "win_share": round(share, 4), "ci_lo": round(lo, 4), "ci_hi": round(hi, 4),
            "fair": round(1 / players, 4), "wall_s": round(time.perf_counter() - t, 1)}


def describe(row: dict[str, Any]) -> str:
    """One played row as a line of progress: who against whom, the win share with its CI, games, wall time."""
    return (f"{row['noble']} vs {row['players'] - 1}x {row['opponent']} ({row['preset']}, {row['players']} players): "
            f"{row['win_share']:.3f} [{row['ci_lo']:.3f}, {row['ci_hi']:.3f}] over {row['games']} games "
            f"({row['wall_s']} s)")


def command(noble: str, row: dict[str, Any], jobs: int) -> str:
    lineup = ",".join([noble] + [row["opponent"]] * (row["players"] - 1))
    return (f"python -m fandonia_env.tournament --lineup {lineup} --games {row['games']} --seed {row['seed']} "
            f"--preset {row['preset']} --max-turns {row['max_turns']} --jobs {jobs}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--noble", required=True, help="agent id of the noble (e.g. ppo:PATH, noble-ppo-v2)")
    ap.add_argument("--seed", type=int, required=True, help="first deal seed (never used in training or selection)")
    ap.add_argument("--rows", default="hour", choices=sorted(ROWS), help="the row set (default hour)")
    ap.add_argument("--only", type=int, default=None, help="play only the first N rows")
    ap.add_argument("--games-scale", type=float, default=1.0, help="multiply every row's games (e.g. 0.25 for a probe)")
    ap.add_argument("--max-turns", type=int, default=0, help="turn limit (0: the rules' end, the default)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default=None, help="JSON file of the rows (resumed when it exists)")
    a = ap.parse_args(argv)
    from fandonia_env.agents import check_agent

    try:
        check_agent(a.noble)
    except ValueError as e:
        ap.error(f"--noble: {e}")
    if a.games_scale <= 0 or a.jobs < 1 or a.max_turns < 0:
        ap.error("--games-scale must be > 0, --jobs >= 1 and --max-turns >= 0")
    rows = ROWS[a.rows][: a.only]
    out = Path(a.out) if a.out else None
    done: list[dict[str, Any]] = json.loads(out.read_text()) if out and out.is_file() else []
    results = []
    for opp, players, preset, games in rows:
        row = (opp, players, preset, max(players, round(games * a.games_scale)))
        key = {"noble": a.noble, "opponent": opp, "players": players, "preset": preset, "seed": a.seed,
               "max_turns": a.max_turns}
        old = next((d for d in done if all(d.get(k) == v for k, v in key.items()) and d["games"] >= row[3]), None)
        res = old or play_row(a.noble, row, a.seed, a.max_turns, a.jobs)
        results.append(res)
        print(describe(res), file=sys.stderr)
        if out and not old:
            done.append(res)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(done, indent=1))
    print("| against | preset | players | games | win share [95% CI] | fair |")
    print("|---|---|---:|---:|---|---:|")
    for r in results:
        print(f"| {r['players'] - 1}x {r['opponent']} | {r['preset']} | {r['players']} | {r['games']:,} | "
              f"{r['win_share']:.3f} [{r['ci_lo']:.3f}, {r['ci_hi']:.3f}] | {r['fair']:.3f} |")
    print()
    for r in results:
        print(command(a.noble, r, a.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The difficulty levels' ladder: each level against the level below, and level 1 against noble-rule-v1.

    python scripts/levels_ladder.py --seed 13000000 [--games 1000] [--presets 1981,errata] [--jobs 2]
        [--pairs 2,3,4,5,6] [--out runs/levels/ladder.json]

Every row is a 2-player tournament (duplicate deals, both seatings, 95% bootstrap CIs, played to the
rules' end) of ``noble-level-K`` against ``noble-level-(K-1)`` (``--pairs`` lists the K), in each preset
of ``--presets``, then ``noble-level-1`` against ``noble-rule-v1``.  Prints a markdown table (with each
row's command) and writes the rows as JSON to ``--out``.  Use deal seeds never used in tuning.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strength_table import command, describe, play_row  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True, help="first deal seed (never used in tuning)")
    ap.add_argument("--games", type=int, default=1000, help="games per row (default 1000)")
    ap.add_argument("--presets", default="1981,errata", help="presets, comma-separated (default 1981,errata)")
    ap.add_argument("--pairs", default="2,3,4,5,6", help="the upper levels K of the pairs K vs K-1 (default all)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default=None, help="write the rows as JSON here")
    a = ap.parse_args(argv)
    try:
        pairs = [int(k) for k in a.pairs.split(",") if k]
    except ValueError:
        ap.error(f"--pairs: comma-separated levels 2-6, got {a.pairs!r}")
    if not pairs or any(not 2 <= k <= 6 for k in pairs) or a.games < 2:
        ap.error(f"--pairs must name levels 2-6 and --games be >= 2; got {a.pairs!r}, {a.games}")
    rows = []
    plan = [(f"noble-level-{k}", f"noble-level-{k - 1}") for k in pairs] + [("noble-level-1", "noble-rule-v1")]
    for preset in a.presets.split(","):
        for noble, opp in plan:
            r = play_row(noble, (opp, 2, preset, a.games), a.seed, 0, a.jobs)
            rows.append(r)
            print(describe(r), file=sys.stderr)
    print("| level | against | preset | games | win share [95% CI] |")
    print("|---|---|---|---:|---|")
    for r in rows:
        print(f"| {r['noble']} | {r['opponent']} | {r['preset']} | {r['games']:,} | {r['win_share']:.3f} "
              f"[{r['ci_lo']:.3f}, {r['ci_hi']:.3f}] |")
    print()
    for r in rows:
        print(command(r["noble"], r, a.jobs))
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

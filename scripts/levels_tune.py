"""Tune the difficulty levels' knobs: candidate ladders played pair by pair on tuning seeds.

    python scripts/levels_tune.py --seed 16000000 --games 400 \
        --ladder "0.90:0.20,0.82:0.14,0.70:0.09,0.52:0.05" [--presets 1981,errata] [--jobs 2] [--out F]

``--ladder`` lists levels 1-4 as ``overlook:usurp_error`` (weakest first); level 5 is ``noble-rule-v1``.
Each adjacent pair (2 vs 1, 3 vs 2, 4 vs 3, 5 vs 4) and level 1 against ``noble-rule-v1`` is a 2-player
tournament (duplicate deals, both seatings, to the rules' end) in each preset.  ``--pairs`` plays only
the pairs K vs K-1 it names.  The knobs are registered as agent ids ``tune-level-K`` for the run only
(the tournament forks its workers, so they see them).  Use seeds the final ladder
(``scripts/levels_ladder.py``) never uses.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strength_table import describe, play_row  # noqa: E402

from fandonia_env.agents.base import register  # noqa: E402
from fandonia_env.agents.levels import NobleLevel  # noqa: E402


def parse_ladder(text: str) -> list[tuple[float, float]]:
    """``"o1:e1,o2:e2,o3:e3,o4:e4"`` -> four (overlook, usurp_error) pairs, weakest first."""
    knobs = []
    for part in text.split(","):
        o, _, e = part.partition(":")
        knobs.append((float(o), float(e or 0.0)))
    if len(knobs) != 4:
        raise ValueError(f"--ladder needs four overlook:usurp_error pairs (levels 1-4), got {len(knobs)}")
    return knobs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True, help="first deal seed (tuning seeds only)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--ladder", required=True, help="levels 1-4 as overlook:usurp_error, comma-separated")
    ap.add_argument("--presets", default="1981,errata")
    ap.add_argument("--pairs", default="1,2,3,4,5", help="K of the pairs K vs K-1 (1: level 1 vs noble-rule-v1)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    try:
        knobs = parse_ladder(a.ladder)
        pairs = [int(k) for k in a.pairs.split(",") if k]
    except ValueError as e:
        ap.error(str(e))
    ids = []
    for k, (o, e) in enumerate(knobs, start=1):
        ids.append(f"tune-level-{k}")
        register(ids[-1], functools.partial(_make, overlook=o, usurp_error=e, agent_id=ids[-1]))
    ids.append("noble-rule-v1")
    plan = [(ids[k - 1], ids[k - 2]) if k >= 2 else (ids[0], "noble-rule-v1") for k in pairs]
    rows = []
    for preset in a.presets.split(","):
        for noble, opp in plan:
            r = play_row(noble, (opp, 2, preset, a.games), a.seed, 0, a.jobs)
            r["ladder"] = a.ladder
            rows.append(r)
            print(describe(r), flush=True)
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(rows, indent=1))
    return 0


def _make(seed: int | None = None, *, overlook: float, usurp_error: float, agent_id: str) -> NobleLevel:
    return NobleLevel(seed, overlook=overlook, usurp_error=usurp_error, agent_id=agent_id)


if __name__ == "__main__":
    raise SystemExit(main())

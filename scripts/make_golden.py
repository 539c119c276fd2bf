"""Regenerate the golden playthroughs in tests/golden/ (2, 4 and 6 players).

    python scripts/make_golden.py

Run it only when a rules change is intended; the diff of the files shows what changed."""

from __future__ import annotations

import json
import pathlib

from fandonia_env.engine.playthrough import record

GOLDEN = [(2, 2026, 25), (4, 4044, 15), (6, 6066, 10)]
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden"

if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for n, seed, turns in GOLDEN:
        lines = record(n, seed, turns)
        path = OUT / f"playthrough_{n}p_seed{seed}.jsonl"
        path.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
        print(f"{path.name}: {len(lines) - 2} decisions, result {lines[-1].get('end')}")

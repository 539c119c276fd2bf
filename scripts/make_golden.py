"""Regenerate the golden playthroughs in tests/golden/ (2, 4 and 6 players under the 1981
rules; 4 players under the errata and 1981-all-optional presets).

    python scripts/make_golden.py

Run it only when a rules change is intended; the diff of the files shows what changed."""

from __future__ import annotations

import json
import pathlib

from fandonia_env.engine.face.playthrough import record

GOLDEN = [(2, 2026, 25, None), (4, 4044, 15, None), (6, 6066, 10, None),
          (4, 5055, 20, "errata"), (4, 5066, 20, "1981-all-optional")]
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden"

if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for n, seed, turns, preset in GOLDEN:
        lines = record(n, seed, turns, **({"preset": preset} if preset else {}))
        suffix = f"_{preset}" if preset else ""
        path = OUT / f"playthrough_{n}p_seed{seed}{suffix}.jsonl"
        path.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
        print(f"{path.name}: {len(lines) - 2} decisions, result {lines[-1].get('end')}")

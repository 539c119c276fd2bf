"""Digest of every seat's v0 and v1 observation and rule features over the golden games and a set
of random games of every preset (issue 29: a refactor of the engine must leave them unchanged).

    python scripts/observation_digest.py            # print the digests as JSON
    python scripts/observation_digest.py --write    # store them in tests/golden/observation_digests.json

Uses only the public faces that every version of the project has had: ``Game``, the golden
files' actions, ``spaces.observation.encode``, ``spaces.observation_v1.encode_v1`` and
``spaces.rule_features.encode_rule_features``.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import random
import sys

from fandonia_env.engine import Game
from fandonia_env.spaces.observation import encode
from fandonia_env.spaces.observation_v1 import encode_v1
from fandonia_env.spaces.rule_features import encode_rule_features

ROOT = pathlib.Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
OUT = GOLDEN / "observation_digests.json"
PRESETS = ("1981", "errata", "1981-all-optional", "errata-all-optional", "short-game")


def _digest_game(g: Game, next_action) -> str:
    h = hashlib.sha256()
    step = 0
    while not g.over:
        for seat in range(g.n_players):
            h.update(encode(g.state, seat).tobytes())
            h.update(encode_v1(g.state, seat).tobytes())
            h.update(encode_rule_features(g.state, seat).tobytes())
        a = next_action(g, step)
        if a is None:
            break
        g.apply(a)
        step += 1
    h.update(json.dumps([g.result, g.winner, step]).encode())
    return h.hexdigest()


def digests() -> dict[str, str]:
    out = {}
    for f in sorted(GOLDEN.glob("playthrough_*.jsonl")):
        lines = [json.loads(x) for x in f.read_text().splitlines() if x.strip()]
        actions = [rec.get("action") for rec in lines[1:]]
        g = Game(**lines[0]["config"])
        out[f.stem] = _digest_game(g, lambda g, i, a=actions: a[i] if i < len(a) else None)
    for preset in PRESETS:
        for n in (2, 4, 6):
            rng = random.Random(f"{preset}-{n}")
            g = Game(players=n, seed=31 * n + len(preset), preset=preset, max_turns=12)
            out[f"random_{preset}_{n}p"] = _digest_game(g, lambda g, i, r=rng: r.choice(g.legal_actions()))
    return out


def main(argv: list[str] | None = None) -> int:
    d = digests()
    if "--write" in (argv if argv is not None else sys.argv[1:]):
        OUT.write_text(json.dumps(d, indent=1, sort_keys=True) + "\n")
        print(f"wrote {OUT} ({len(d)} games)")
    else:
        print(json.dumps(d, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Every seat's v0/v1 observation and rule features over the golden games and random games of
every preset hash as they did before the engine's refactor into layers (issue 29).

The stored digests (``tests/golden/observation_digests.json``) were made by
``scripts/observation_digest.py --write`` run on the project as it was before the refactor
(commit 950c206); a change of the rules that changes observations on purpose regenerates them
(and says so in its commit), as with the golden playthroughs."""

from __future__ import annotations

import importlib.util
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("observation_digest", ROOT / "scripts" / "observation_digest.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_observations_hash_as_before():
    mod = _script()
    stored = json.loads(mod.OUT.read_text())
    got = mod.digests()
    assert len(stored) >= 18
    assert {k: v for k, v in got.items() if stored.get(k) != v} == {}
    assert set(got) == set(stored)

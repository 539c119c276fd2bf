"""The compiled engine (``python -m fandonia_env.compile``, mypyc) plays exactly the pure-Python one.

The build runs on a copy of the package in a temporary folder, never in the working tree, with
``--cached``: the build of these very sources is compiled once per machine (about 3-5 minutes on one
core) into the cache (``fandonia_env.compile.cache_root()``, keyed by ``build_key``: every engine
source, Python and mypy) and copied from it on later runs (seconds).  Then one script runs twice on that copy, with the compiled engine and
with the pure one (``FANDONIA_ENGINE``), and prints a digest of everything the engine produces:
the golden playthroughs replayed, and random games in every preset at 2, 4 and 6 players (legal
actions at every decision, every seat's v0 observation at every 5th, the invariants checked at
every 3rd, save/load, pickle, deepcopy and clone round trips, the final save).  The digests must be equal.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import typing
from pathlib import Path

import pytest

from fandonia_env.engine.core import compiled

ROOT = Path(__file__).resolve().parents[1]

DIGEST = r'''
import copy, hashlib, json, pathlib, pickle, random, sys
import fandonia_env.engine as E
from fandonia_env.engine import Game, GameState
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.face.playthrough import replay
from fandonia_env.spaces.observation import encode
from fandonia_env.spaces.observation_v1 import encode_v1
from fandonia_env.spaces.rule_features import encode_rule_features

h = hashlib.sha256()
golden_ok = True
for f in sorted(pathlib.Path(sys.argv[1]).glob("playthrough_*.jsonl")):
    lines = [json.loads(x) for x in f.read_text().splitlines()]
    again = replay(lines)
    golden_ok &= again == lines
    h.update(json.dumps(again, sort_keys=True).encode())
games = 0
for preset in ("1981", "errata", "1981-all-optional", "errata-all-optional"):
    for n in (2, 4, 6):
        for seed in range(int(sys.argv[2])):
            g = Game(players=n, seed=1000 * n + seed, max_turns=40, preset=preset)
            r = random.Random(seed)
            k = 0
            while not g.over:
                la = g.legal_actions()
                h.update(repr((g.current_player(), la)).encode())
                if k % 5 == 0:
                    for p in range(n):
                        h.update(encode(g.state, p).tobytes())
                        h.update(encode_v1(g.state, p).tobytes())
                        h.update(encode_rule_features(g.state, p).tobytes())
                if k % 3 == 0:
                    check(g.state)
                if k % 50 == 25:
                    assert GameState.from_json(g.state.to_json()) == g.state
                    assert pickle.loads(pickle.dumps(g.state)) == g.state == copy.deepcopy(g.state)
                    c = g.clone()
                    c.apply(la[0])
                g.apply(la[r.randrange(len(la))])
                k += 1
            h.update(json.dumps(g.state.to_json(), sort_keys=True).encode())
            games += 1
import fandonia_env.spaces.observation as O
import fandonia_env.spaces.observation_v1 as O1
import fandonia_env.spaces.rule_features as RF
print(json.dumps({"compiled": E.COMPILED, "golden_ok": golden_ok, "games": games, "digest": h.hexdigest(),
                  "observation_compiled": all(m.__file__.endswith((".so", ".pyd")) for m in (O, O1, RF)),
                  "observation_pure": not any(m.__file__.endswith((".so", ".pyd")) for m in (O, O1, RF))}))
'''


def test_type_hints_read_from_the_source_equal_get_type_hints():
    """What save validation and the invariant checker read when the engine is compiled (mypyc
    keeps no annotations) is what ``typing.get_type_hints`` gives on the pure engine (checked in a
    pure-Python process: the working tree may hold a build)."""
    code = """
import typing
from fandonia_env.engine import COMPILED
from fandonia_env.engine.core import compiled, state
from fandonia_env.engine.core.machine import OPS
assert not COMPILED
for cls in (state.Player, state.GameState, state.Frame):
    assert compiled.type_hints(cls, from_source=True) == typing.get_type_hints(cls), cls
for name, fn in OPS.items():
    assert compiled.type_hints(fn, from_source=True) == typing.get_type_hints(fn), name
print(len(OPS))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "FANDONIA_ENGINE": "pure"})
    assert out.returncode == 0, out.stderr[-3000:]
    assert int(out.stdout) > 200  # every registered op (this process may hold test-only ones too)


def test_the_compiled_sources_are_every_engine_module_but_the_listed_ones():
    names = {p.name for p in compiled.sources()}
    assert {"observation.py", "observation_v1.py", "rule_features.py"} <= set(names)  # compiled.EXTRA_SOURCES
    assert {"machine.py", "state.py", "turn.py", "rule_queries.py", "components.py"} <= names
    assert not names & compiled.NOT_COMPILED
    assert compiled.status()[0] in ("pure", "compiled")


def _run(copy: Path, env_engine: str, games: int) -> dict[str, typing.Any]:
    env = {**os.environ, "PYTHONPATH": str(copy), "FANDONIA_ENGINE": env_engine, "PYTHONWARNINGS": "error::RuntimeWarning"}
    out = subprocess.run([sys.executable, "-c", DIGEST, str(ROOT / "tests" / "golden"), str(games)], cwd=copy,
                         env=env, capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def built_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler (cc/gcc) on this machine: the compiled engine cannot be built")
    pytest.importorskip("mypyc", reason="the compiled engine needs mypy/mypyc (the 'test' or 'fast' extra)")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        pytest.skip("no Python.h (the Python development headers): C extensions cannot be built here")
    copy = tmp_path_factory.mktemp("compiled")
    shutil.copytree(ROOT / "fandonia_env", copy / "fandonia_env", ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", compiled.MANIFEST))
    out = subprocess.run([sys.executable, "-m", "fandonia_env.compile", "--cached"], cwd=copy,
                         env={**os.environ, "PYTHONPATH": str(copy)}, capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert compiled.status(copy / "fandonia_env" / "engine")[0] == "compiled"
    return copy


def test_the_compiled_engine_plays_byte_identically_to_the_pure_one(built_copy: Path):
    fast = _run(built_copy, "compiled", 3)
    pure = _run(built_copy, "pure", 3)
    assert fast["compiled"] is True and pure["compiled"] is False
    assert fast["observation_compiled"] is True and pure["observation_pure"] is True  # compiled.EXTRA_SOURCES
    assert fast["golden_ok"] and pure["golden_ok"]
    assert fast["games"] == pure["games"] == 36
    assert fast["digest"] == pure["digest"]


def test_a_stale_build_is_set_aside_for_the_pure_engine_and_refused_on_demand(built_copy: Path):
    engine = built_copy / "fandonia_env" / "engine"
    src = engine / "chapters" / "turn.py"
    text = src.read_text()
    try:
        src.write_text(text + "\n# edited after the build\n")
        assert compiled.status(engine) == ("stale", ["chapters/turn.py changed since the build"])
        code = "import fandonia_env.engine as E; print(E.COMPILED)"
        env = {**{k: v for k, v in os.environ.items() if k != "FANDONIA_ENGINE"}, "PYTHONPATH": str(built_copy)}
        out = subprocess.run([sys.executable, "-c", code], cwd=built_copy, env=env, capture_output=True, text=True)
        assert out.returncode == 0 and out.stdout.strip() == "False"
        assert "chapters/turn.py changed since the build" in out.stderr and "python -m fandonia_env.compile" in out.stderr
        out = subprocess.run([sys.executable, "-c", code], cwd=built_copy, capture_output=True, text=True,
                             env={**env, "FANDONIA_ENGINE": "compiled"})
        assert out.returncode != 0 and "FANDONIA_ENGINE=compiled but the compiled engine is stale" in out.stderr
        out = subprocess.run([sys.executable, "-c", code], cwd=built_copy, capture_output=True, text=True,
                             env={**env, "FANDONIA_ENGINE": "fast"})
        assert out.returncode != 0 and "expected one of ['pure', 'compiled']" in out.stderr
    finally:
        src.write_text(text)
    assert compiled.status(engine)[0] == "compiled"
    obs = built_copy / "fandonia_env" / "spaces" / "observation.py"  # an extra source counts the same
    text = obs.read_text()
    try:
        obs.write_text(text + "\n# edited after the build\n")
        assert compiled.status(engine) == ("stale", ["../spaces/observation.py changed since the build"])
    finally:
        obs.write_text(text)
    assert compiled.status(engine)[0] == "compiled"


def test_the_build_is_cached_by_its_sources_and_copied_into_a_fresh_copy(built_copy: Path, tmp_path: Path):
    from fandonia_env.tools.compile import CACHE_INDEX, build_key, cache_root, restore

    engine = built_copy / "fandonia_env" / "engine"
    key = build_key(engine)
    entry = cache_root() / key
    assert (entry / CACHE_INDEX).is_file(), f"no cached build {entry}"
    fresh = tmp_path / "fresh"
    shutil.copytree(built_copy / "fandonia_env", fresh / "fandonia_env", ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", compiled.MANIFEST))
    fresh_engine = fresh / "fandonia_env" / "engine"
    assert compiled.status(fresh_engine)[0] == "pure" and build_key(fresh_engine) == key
    assert restore(fresh_engine)
    assert compiled.status(fresh_engine)[0] == "compiled"
    assert ([p.read_bytes() for p in compiled.extensions(fresh_engine)]
            == [p.read_bytes() for p in compiled.extensions(engine)])
    code = "import fandonia_env.engine as E; print(E.COMPILED)"
    out = subprocess.run([sys.executable, "-c", code], cwd=fresh, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(fresh), "FANDONIA_ENGINE": "compiled"})
    assert out.returncode == 0 and out.stdout.strip() == "True", out.stderr[-2000:]
    # any engine source, compiled or kept in Python, is part of the key: an edit means another build
    err = fresh_engine / "core" / "errors.py"
    err.write_text(err.read_text() + "\n# edited\n")
    assert build_key(fresh_engine) != key

"""No mutable module-level state in the engine (issue 26).

Two games must never share a cache: whatever the engine remembers about a game lives on that
game's state (``GameState.memo``, ``.scan``, ``.rules``).  What a module holds is filled while it
is imported (the operation and activity registries, the tables) and never changes afterwards; a
pure function of immutable arguments (a dice distribution, the type hints of a class) may be
memoized with ``functools.cache``, which is thread-safe and whose answer no game can change.

Checked two ways:

* by running: every global of every engine module (and of the observation encoders compiled with
  it) is fingerprinted after import, games of every preset are played (both chance modes, clones,
  saves, views, the invariants, the rule queries, both observation encoders), and every global must
  fingerprint the same afterwards;
* by reading: no engine function declares ``global``.
"""

from __future__ import annotations

import ast
import importlib
import os
import pathlib
import pkgutil
import random
import types
from typing import Any

import numpy as np

import fandonia_env.engine as engine_pkg
import fandonia_env.spaces as spaces_pkg
from fandonia_env.engine import Game
from fandonia_env.engine.core.options import preset_names
from fandonia_env.engine.face import invariants
from fandonia_env.engine.rules import rule_queries

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _modules() -> list[types.ModuleType]:
    out = []
    for pkg in (engine_pkg, spaces_pkg):
        out.append(pkg)
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if info.name.rsplit(".", 1)[-1] in ("compile",):  # a command line, not imported by games
                continue
            out.append(importlib.import_module(info.name))
    return out


def _fingerprint(v: Any, depth: int = 0, seen: set[int] | None = None) -> Any:
    """A comparable picture of ``v``'s content (containers and plain objects followed down)."""
    if seen is None:
        seen = set()
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    if v is None or isinstance(v, bool | int | float | complex | str | bytes | frozenset | range):
        return repr(v) if not isinstance(v, frozenset) else sorted(map(repr, v))
    if isinstance(v, types.ModuleType | type | types.FunctionType | types.BuiltinFunctionType | types.MethodType):
        return f"<{type(v).__name__} {getattr(v, '__qualname__', getattr(v, '__name__', '?'))}>"
    if callable(v) and not isinstance(v, dict | list | set | tuple):
        return f"<callable {type(v).__name__} {getattr(v, '__qualname__', '')}>"
    if depth > 12 or id(v) in seen:
        return f"<{type(v).__name__} at depth>"
    seen = seen | {id(v)}
    if isinstance(v, dict | types.MappingProxyType):
        return ("dict", len(v), sorted((repr(k), _fingerprint(x, depth + 1, seen)) for k, x in v.items()))
    if isinstance(v, list | tuple):
        return (type(v).__name__, [_fingerprint(x, depth + 1, seen) for x in v])
    if isinstance(v, set | bytearray):
        return (type(v).__name__, sorted(map(repr, v)))
    if isinstance(v, np.ndarray):
        return ("ndarray", v.shape, v.tobytes())
    slots = [s for c in type(v).__mro__ for s in getattr(c, "__slots__", ())]
    attrs = {s: getattr(v, s) for s in slots if hasattr(v, s)}
    attrs.update(getattr(v, "__dict__", {}))
    return (type(v).__qualname__, sorted((k, _fingerprint(x, depth + 1, seen)) for k, x in attrs.items()))


def _snapshot(mods: list[types.ModuleType]) -> dict[str, Any]:
    return {f"{m.__name__}.{k}": _fingerprint(v) for m in mods for k, v in vars(m).items()
            if not (k.startswith("__") and k.endswith("__"))}


def _exercise() -> None:
    """Everything a game asks of the engine, in every preset and both chance modes."""
    from fandonia_env.spaces.context_features import encode_context_features
    from fandonia_env.spaces.observation import encode as encode_v0
    from fandonia_env.spaces.observation_v1 import encode_v1
    from fandonia_env.spaces.rule_features import encode_rule_features

    for i, preset in enumerate(preset_names()):
        for chance in ("sampled", "explicit"):
            players = 2 + (i + (chance == "explicit")) % 5
            g = Game(players=players, seed=40 + i, preset=preset, max_turns=25, chance=chance)
            rng = random.Random(i)
            while not g.over:
                if g.is_chance_node():
                    g.apply_chance(rng.choice([o for o, _ in g.chance_outcomes()]))
                    continue
                p = g.current_player()
                if g.state.steps % 23 == 0:
                    view = g.view(p)
                    encode_v0(g.state, p)
                    encode_v1(g.state, p)
                    encode_rule_features(g.state, p)
                    encode_context_features(g.state, p)
                    rule_queries.best_usurpation(g.state, p)
                    invariants.check(g.state, deep=chance == "sampled")  # (deep: takes each option)
                    Game.from_json(g.to_json())
                    g.clone().apply(rng.choice(g.legal_actions()))
                    assert view
                g.apply(rng.choice(g.legal_actions()))


def test_no_engine_module_changes_while_games_are_played() -> None:
    mods = _modules()
    _exercise()  # a first round fills whatever is filled once (functools caches, lazily built constants)
    before = _snapshot(mods)
    _exercise()
    after = _snapshot(mods)
    changed = sorted(k for k in before if before[k] != after.get(k))
    added = sorted(set(after) - set(before))
    assert not changed and not added, (
        f"module-level state changed while games were played: {changed + added}; keep a game's "
        "caches on its GameState (memo/scan/rules), or memoize a pure function with functools.cache")


def test_the_first_game_changes_no_engine_module_either() -> None:
    """Even the first game after import leaves the modules as imported (nothing is filled lazily
    into a module-level container), in a fresh interpreter."""
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "import test_global_state as t\n"
        "mods = t._modules(); before = t._snapshot(mods); t._exercise(); after = t._snapshot(mods)\n"
        "bad = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))\n"
        "print(bad); raise SystemExit(1 if bad else 0)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"filled or changed on first use: {r.stdout.strip()} {r.stderr[-2000:]}"


def test_no_engine_function_declares_global() -> None:
    bad = []
    for f in sorted((ROOT / "fandonia_env" / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            if isinstance(node, ast.Global):
                bad.append(f"{f.relative_to(ROOT)}:{node.lineno} global {', '.join(node.names)}")
    assert not bad, f"engine functions rebind module state: {bad}"

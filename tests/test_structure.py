"""Structure of the packages (issues 12, 29): no import cycles, the layers of ``LAYERS`` kept
(every import, those inside functions included, goes to the module's own layer or a lower one:
no arrow up anywhere), no module imports another's private names, and ``rules.py`` imports every
chapter that registers rules.

The import graph is read with ``ast`` from the files of ``fandonia_env/`` (the agents and the
training stages included) and ``scripts/``:

* *import time*: the imports run when a module is imported (module level, not inside
  functions, not under ``if TYPE_CHECKING``).  Importing ``a.b.c`` runs the packages ``a`` and
  ``a.b`` first; a module's imports of its own parent packages are not edges (they are already
  being imported).
* *design*: every import, those inside functions included.  A package that is only the parent
  of the module imported (``fandonia_env`` when ``agents`` imports ``fandonia_env.engine``)
  contributes only its import-time imports: its functions (``fandonia_env.__getattr__``'s lazy
  re-exports) are not run by that import.
"""

from __future__ import annotations

import ast
import os
import pathlib
import subprocess
import sys
from collections import defaultdict

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("fandonia_env", "scripts")

#: the layers, lowest first: a module belongs to the layer of the longest prefix that names it,
#: and may import only modules of its own layer or of a lower one
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # the engine (issue 29): the core with the data tables (the action catalogue and the chance
    # tables are built from the components, which read the edition names of core.options), the
    # rules vocabulary, the chapters (none imports another), the face (Game, builder, views...)
    ("engine.core", ("fandonia_env.engine.core", "fandonia_env.engine.data")),
    ("engine.rules", ("fandonia_env.engine.rules",)),
    ("engine.chapters", ("fandonia_env.engine.chapters",)),
    ("engine.face", ("fandonia_env.engine.face", "fandonia_env.engine")),
    # the optional extras and their guard (stdlib only): any layer may check its extra with it
    ("extras", ("fandonia_env.extras",)),
    ("spaces", ("fandonia_env.spaces",)),  # observation encoders and their registry
    ("openspiel", ("fandonia_env.openspiel",)),  # the game for OpenSpiel (pyspiel) and its bots: engine + encoders
    ("agents", ("fandonia_env.agents",)),  # nobles: see only their seat's view
    ("words", ("fandonia_env.words",)),  # the plain words people read: prompts, options, glossary, race
    ("tools", ("fandonia_env.tools",)),  # command-line options, progress bar, extras check; the mypyc build
    ("envs", ("fandonia_env.envs",)),  # the PettingZoo and Gymnasium environments
    ("arena", ("fandonia_env.arena",)),  # the tournament runner
    ("apps", ("fandonia_env.apps",)),  # front ends: terminal game, bot, demo, bench
    ("serve", ("fandonia_env.serve",)),  # the game server and its pages
    ("training", ("fandonia_env.training",)),  # recipes: use everything below, nothing uses them
    ("datasets", ("fandonia_env.datasets",)),  # Minari datasets of the nobles' games, behaviour cloning from them
    # the package root and its thin entry points (old import paths, ``python -m fandonia_env.X``): they
    # only import from the folders; nothing inside the package imports them
    ("entry", ("fandonia_env",)),
    ("scripts", ("scripts",)),
)
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}

#: cycles of lazy imports (inside functions) between engine chapter modules, which issue 12
#: item 1 replaces by registry hooks; this list may only shrink
KNOWN_LAZY_CYCLES: tuple[frozenset[str], ...] = ()


def _modules() -> dict[str, pathlib.Path]:
    mods = {}
    for pkg in PACKAGES:
        for f in (ROOT / pkg).rglob("*.py"):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join(parts)] = f
    return mods


MODS = _modules()


class Import:
    """One imported module: ``name`` (the module named), ``lazy`` (inside a function)."""

    __slots__ = ("lazy", "line", "name", "names")

    def __init__(self, name: str, names: list[str], lazy: bool, line: int) -> None:
        self.name, self.names, self.lazy, self.line = name, names, lazy, line


def _imports(mod: str) -> list[Import]:
    """Every import statement of ``mod``, resolved to absolute module names."""
    path = MODS[mod]
    tree = ast.parse(path.read_text(), str(path))
    pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out: list[Import] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, ast.If) and "TYPE_CHECKING" in ast.unparse(ch.test):
                continue
            inner = lazy or isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(ch, ast.Import):
                for a in ch.names:
                    out.append(Import(a.name, [], inner, ch.lineno))
            elif isinstance(ch, ast.ImportFrom):
                if ch.level:
                    base = pkg.split(".")[: len(pkg.split(".")) - ch.level + 1]
                    src = ".".join(base + ([ch.module] if ch.module else []))
                else:
                    src = ch.module or ""
                out.append(Import(src, [a.name for a in ch.names], inner, ch.lineno))
            visit(ch, inner)

    visit(tree, False)
    return out


IMPORTS = {m: _imports(m) for m in MODS}


def _targets(mod: str, imp: Import) -> tuple[set[str], set[str]]:
    """(modules imported by name, parent packages run only for their import-time code)."""
    named = set()
    if imp.name in MODS:
        named.add(imp.name)
    for n in imp.names:
        if f"{imp.name}.{n}" in MODS:
            named.add(f"{imp.name}.{n}")
    parts = imp.name.split(".")
    parents = {".".join(parts[:i]) for i in range(1, len(parts))} | ({imp.name} - named)
    parents = {p for p in parents if p in MODS and p not in named}
    own = {p for p in MODS if mod.startswith(p + ".")}  # a module's own parent packages
    return named - own - {mod}, parents - own - {mod}


def _graph(design: bool) -> dict[str, set[str]]:
    """Nodes: module names, and ``P@init`` for a package P reached only as a parent."""
    g: dict[str, set[str]] = defaultdict(set)
    for m in MODS:
        for imp in IMPORTS[m]:
            if imp.lazy and not design:
                continue
            named, parents = _targets(m, imp)
            g[m] |= named
            g[m] |= {f"{p}@init" if design else p for p in parents}
            if not imp.lazy:
                g[f"{m}@init"] |= named | {f"{p}@init" for p in parents}
    return g


def _cycles(g: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []
    nodes = set(g) | {t for ts in g.values() for t in ts}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(g.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(frozenset(c.removesuffix("@init") for c in comp))
    return out


def _layer(mod: str) -> str:
    best, size = "", -1
    for name, prefixes in LAYERS:
        for p in prefixes:
            if (mod == p or mod.startswith(p + ".")) and len(p) > size:
                best, size = name, len(p)
    if not best:
        raise KeyError(f"{mod} is in no layer of LAYERS")
    return best


def _arrows_up() -> list[str]:
    """Every import (inside functions too) of a module of a higher layer."""
    bad = []
    for m in MODS:
        for imp in IMPORTS[m]:
            named, _ = _targets(m, imp)
            for t in named:
                if RANK[_layer(t)] > RANK[_layer(m)]:
                    bad.append(f"{m}:{imp.line} ({_layer(m)}) imports {t} ({_layer(t)})")
    return sorted(bad)


def test_every_module_is_in_a_layer():
    assert all(_layer(m) in RANK for m in MODS)
    assert {_layer(m) for m in MODS} == set(RANK)


def test_no_import_inside_an_engine_function():
    """Issue 29: the engine's imports are all at module level (the graph is what runs at import)."""
    lazy = [f"{m}:{imp.line} {imp.name}" for m in MODS if _layer(m).startswith("engine") for imp in IMPORTS[m]
            if imp.lazy]
    assert lazy == []


def test_no_import_goes_up_a_layer():
    assert _arrows_up() == []


def test_the_layer_check_sees_an_arrow_up(monkeypatch, tmp_path):
    f = tmp_path / "probe.py"
    f.write_text("def f():\n    from fandonia_env.training.model import PolicyNet\n")
    monkeypatch.setitem(MODS, "fandonia_env.agents.probe", f)
    monkeypatch.setitem(IMPORTS, "fandonia_env.agents.probe", _imports("fandonia_env.agents.probe"))
    assert _arrows_up() == ["fandonia_env.agents.probe:2 (agents) imports fandonia_env.training.model (training)"]


def test_nothing_is_installed_under_a_generic_top_level_name():
    """One namespace (issue 29): the wheel's packages are ``fandonia_env`` and its subpackages."""
    text = (ROOT / "pyproject.toml").read_text()
    assert 'include = ["fandonia_env*"]' in text
    assert not (ROOT / "agents").exists() and not (ROOT / "training").exists()


def test_graph_reader_sees_the_packages_and_their_imports():
    """The reader works (a test of the tests): known modules and a known edge are found."""
    assert {"fandonia_env.engine.face.game", "fandonia_env.agents.noble_rule", "fandonia_env.engine.rules.rule_queries",
            "fandonia_env.training.expert", "scripts.soak"} <= set(MODS)
    assert "fandonia_env.engine.rules.rule_queries" in _graph(design=False)["fandonia_env.agents.noble_rule"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]


def test_no_import_cycle_at_import_time():
    assert _cycles(_graph(design=False)) == []


def test_no_import_cycle_joins_two_layers():
    """With the imports inside functions counted too, no cycle joins two layers."""
    for comp in _cycles(_graph(design=True)):
        assert len({_layer(m) for m in comp}) == 1, sorted(comp)


def test_design_cycles_only_the_known_lazy_engine_imports():
    """The only cycles left are lazy imports between engine chapters (issue 12 item 1 replaces
    them with registry hooks); a new one fails here."""
    for comp in _cycles(_graph(design=True)):
        assert any(comp <= known for known in KNOWN_LAZY_CYCLES), sorted(comp)


def test_importing_the_agents_runs_nothing_above_them():
    """The layers at import time: ``import fandonia_env.agents`` runs the engine, the encoders and
    the package root ``fandonia_env/__init__`` (which itself imports only the engine), never the
    environments, servers or front ends that import the agents."""
    g = _graph(design=False)
    seen, todo = set(), ["fandonia_env.agents"]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += g.get(m, ())
    above = sorted(m for m in seen if RANK[_layer(m.removesuffix("@init"))] > RANK["agents"]
                   and m.removesuffix("@init") != "fandonia_env")
    assert above == []
    assert {"fandonia_env.agents.noble_rule", "fandonia_env.engine.rules.rule_queries"} <= seen
    assert {m for m in g["fandonia_env"]} <= {m for m in MODS if _layer(m).startswith("engine")}


def _private_uses(mod: str) -> list[str]:
    """``from x import _y``/``import x._y`` of another module, and ``x._y`` on a module imported
    as ``x``."""
    tree = ast.parse(MODS[mod].read_text())
    out = []
    module_names: set[str] = set()
    for imp in IMPORTS[mod]:
        if imp.name != mod:
            out += [f"{mod}:{imp.line} from {imp.name} import {n}" for n in imp.names
                    if n.startswith("_") and not n.startswith("__")]
        if any(p.startswith("_") and not p.startswith("__") for p in imp.name.split(".")):
            out.append(f"{mod}:{imp.line} import {imp.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            module_names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            module_names |= {a.asname or a.name for a in node.names if a.name[:1] != "_"}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in module_names
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            out.append(f"{mod}:{node.lineno} {node.value.id}.{node.attr}")
    return out


def test_no_module_imports_another_modules_private_names():
    """Every package module; the measurement scripts may patch internals (scripts/aec_breakdown.py
    swaps the env's encoder to time it)."""
    assert [u for m in sorted(MODS) if _layer(m) != "scripts" for u in _private_uses(m)] == []


def test_private_name_check_catches_a_private_import(tmp_path, monkeypatch):
    f = tmp_path / "probe.py"
    f.write_text("from fandonia_env.agents.noble_rule import _x\nimport fandonia_env.agents.ismcts_v2 as v2\nv2._y\n")
    monkeypatch.setitem(MODS, "fandonia_env.agents.probe", f)
    monkeypatch.setitem(IMPORTS, "fandonia_env.agents.probe", _imports("fandonia_env.agents.probe"))
    assert _private_uses("fandonia_env.agents.probe") == [
        "fandonia_env.agents.probe:1 from fandonia_env.agents.noble_rule import _x", "fandonia_env.agents.probe:3 v2._y"]


@pytest.mark.parametrize("marker", ["@op(", "registry.activity(", "registry.free_action(", "registry.hook("])
def test_the_chapters_package_imports_every_module_that_registers_rules(marker):
    """``engine/chapters/__init__.py`` imports every chapter (and the roll windows) that registers
    operations, activities or hooks, by a plain import (no try/except hiding a missing one), and
    names no chapter that does not exist; every module that registers is loaded by the time
    ``Game`` is imported."""
    from fandonia_env.engine import chapters

    text = (ROOT / "fandonia_env/engine/chapters/__init__.py").read_text()
    assert "importlib" not in text and "except" not in text
    imported = {n for imp in IMPORTS["fandonia_env.engine.chapters"] for n in imp.names}
    assert set(chapters.CHAPTERS) <= imported
    for ch in chapters.CHAPTERS:
        assert f"fandonia_env.engine.chapters.{ch}" in MODS, f"CHAPTERS names {ch!r}, which is no module"
    registering = {m for m, f in MODS.items() if _layer(m).startswith("engine") and marker in f.read_text()
                   and not m.startswith("fandonia_env.engine.core.")}  # core: the machinery itself
    loaded = {f"fandonia_env.engine.chapters.{n}" for n in imported} | {"fandonia_env.engine.rules.rolls"}
    # the vocabulary registers hooks too; it is imported by the chapters
    vocab = {m for m in registering if _layer(m) == "engine.rules"}
    assert registering - vocab <= loaded, sorted(registering - vocab - loaded)


def _engine_imports(mod: str) -> set[str]:
    return {t for imp in IMPORTS[mod] for t in _targets(mod, imp)[0]}


def test_no_chapter_imports_another_chapter():
    """Issue 29: the steps several chapters share live in the vocabulary below them."""
    bad = sorted(f"{m} imports {t}" for m in MODS if _layer(m) == "engine.chapters"
                 and m != "fandonia_env.engine.chapters" for t in _engine_imports(m)
                 if _layer(t) == "engine.chapters" and t != m)
    assert bad == []


def test_every_engine_module_lives_in_a_layer_folder():
    """Nothing but the package's ``__init__`` lies in ``fandonia_env/engine/`` itself."""
    loose = sorted(p.name for p in (ROOT / "fandonia_env/engine").glob("*.py") if p.name != "__init__.py")
    assert loose == []
    assert {m.split(".")[2] for m in MODS if m.startswith("fandonia_env.engine.")} == {
        "data", "core", "rules", "chapters", "face"}


# ---------------------------------------------------------------------------
# The front-end floor (issue 41 item 2): folders, thin entry points, no debris
# ---------------------------------------------------------------------------

#: the old top-level modules, now thin entry points, and the folder module each re-exports
ENTRY_POINTS = {
    "fandonia_v0": "envs.fandonia_v0", "fandonia_v1": "envs.fandonia_v1", "gym_env": "envs.gym_env",
    "env_common": "envs.common", "cli": "tools.cli", "compile": "tools.compile", "tournament": "arena.tournament",
    "play": "apps.play", "bot": "apps.bot", "demo": "apps.demo", "bench": "apps.bench", "wording": "words",
}
MAX_ENTRY_LINES = 30
MAX_FUNCTION_LINES = 80
#: functions over MAX_FUNCTION_LINES lines allowed in fandonia_env/ and scripts/ (the compiled encoders and
#: the Ruleset builder among them); this may only shrink
MAX_LONG_FUNCTIONS = 6


def _is_main_guard(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) in ('__name__ == "__main__"', "__name__ == '__main__'")


def test_the_package_top_holds_only_thin_entry_points():
    """``fandonia_env/`` itself: ``__init__``, ``__main__`` and entry points of at most 30 lines that only
    import from the folders (a docstring, imports, ``__all__`` and the ``__main__`` guard)."""
    top = sorted(p for p in (ROOT / "fandonia_env").glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert {p.stem for p in top} == set(ENTRY_POINTS)
    for p in top:
        text = p.read_text()
        assert len(text.splitlines()) <= MAX_ENTRY_LINES, f"{p.name}: {len(text.splitlines())} lines"
        body = ast.parse(text).body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        for node in body:
            ok = (isinstance(node, ast.ImportFrom) and node.level == 1 and (node.module or "").split(".")[0] in {
                      m.split(".")[0] for m in ENTRY_POINTS.values()})
            ok = ok or (isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"])
            ok = ok or (_is_main_guard(node) and len(node.body) == 1 and not node.orelse)
            assert ok, f"{p.name}:{node.lineno}: {ast.unparse(node)[:80]!r} is more than an entry point holds"


@pytest.mark.parametrize("old", sorted(ENTRY_POINTS))
def test_an_entry_point_re_exports_the_very_objects_of_its_folder(old):
    import importlib

    shim = importlib.import_module(f"fandonia_env.{old}")
    real = importlib.import_module(f"fandonia_env.{ENTRY_POINTS[old]}")
    assert shim.__all__ and all(getattr(shim, n) is getattr(real, n) for n in shim.__all__)
    runnable = _is_main_guard(ast.parse((ROOT / f"fandonia_env/{old}.py").read_text()).body[-1])
    assert runnable == (old in {"compile", "tournament", "play", "bot", "demo", "bench"})


#: what users write (README, docs): every old import path, run in a fresh interpreter
OLD_IMPORTS = """
import gymnasium
import fandonia_env
from fandonia_env import GYM_ENV_ID, GYM_ENV_ID_V1, FandoniaGymEnv, Game, InvalidActionError, fandonia_v0, fandonia_v1
from fandonia_env.fandonia_v0 import env, raw_env, action_to_string, string_to_action
from fandonia_env.fandonia_v1 import env as env_v1, raw_env as raw_env_v1, observation_space_v1
from fandonia_env.gym_env import FandoniaGymEnv as G
from fandonia_env.env_common import DEFAULT_MAX_TURNS, InvalidActionError as E
from fandonia_env.tournament import run_tournament, seat_agents, markdown_table, summarize, schedule
from fandonia_env.cli import positive_int, seed_arg, require_extra, MissingExtraError, Progress
from fandonia_env.play import HUMAN, Session, main
from fandonia_env.bot import Bot, bot_seeds
from fandonia_env.demo import DEMO_AGENTS
from fandonia_env.bench import main as bench_main
from fandonia_env.compile import build_key, cache_root, restore
from fandonia_env.wording import HELP, GOAL, PROMPTS, decision_words, option_words, race, faction, recent, seat_words
from fandonia_env.wording import prestige_risk, assassination_odds, prompt
assert G is FandoniaGymEnv and E is InvalidActionError
fandonia_v0.env(players=3).reset(seed=1)
fandonia_v1.env(players=3).reset(seed=1)
for gid in ("fandonia_env/Fandonia-v0", "fandonia_env/Fandonia-v1"):
    gymnasium.make(gid).reset(seed=1)
print("ok")
"""


def _run(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_every_old_import_path_still_works():
    p = _run(["-c", OLD_IMPORTS])
    assert p.returncode == 0 and p.stdout.strip().endswith("ok"), p.stderr[-2000:]


def _readme_commands() -> list[str]:
    import re

    return sorted(set(re.findall(r"python -m (fandonia_env[\w.]*)", (ROOT / "README.md").read_text())))


def test_every_readme_command_answers_help():
    """Each ``python -m fandonia_env...`` of the README runs with ``--help`` (exit 0 and a usage line)."""
    cmds = _readme_commands()
    assert {"fandonia_env.tournament", "fandonia_env.play", "fandonia_env.bot", "fandonia_env.compile",
            "fandonia_env.bench", "fandonia_env.demo", "fandonia_env.serve"} <= set(cmds)
    for cmd in cmds:
        p = _run(["-m", cmd, "--help"])
        assert p.returncode == 0 and "usage" in p.stdout.lower(), f"{cmd} --help: {p.stderr[-1500:]}"


def _blank_runs(text: str) -> list[int]:
    """The line numbers where a run of three or more blank lines starts."""
    out, run = [], 0
    for i, line in enumerate(text.splitlines(), 1):
        run = run + 1 if not line.strip() else 0
        if run == 3:
            out.append(i - 2)
    return out


def test_no_run_of_three_blank_lines():
    assert _blank_runs("a\n\n\n\nb\n\n\nc\n") == [2]
    bad = [f"{p.relative_to(ROOT)}:{n}" for p in sorted((ROOT / "fandonia_env").rglob("*.py"))
           for n in _blank_runs(p.read_text())]
    assert bad == []


def _long_functions() -> list[tuple[int, str]]:
    out = []
    for pkg in PACKAGES:
        for p in sorted((ROOT / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(p.read_text())):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    n = node.end_lineno - node.lineno + 1
                    if n > MAX_FUNCTION_LINES:
                        out.append((n, f"{p.relative_to(ROOT)}:{node.lineno} {node.name}"))
    return sorted(out, reverse=True)


def test_few_functions_over_80_lines():
    long = _long_functions()
    assert len(long) <= MAX_LONG_FUNCTIONS, "\n".join(f"{n} lines: {w}" for n, w in long)


# ---------------------------------------------------------------------------
# The engine's public surface (issue 41): what the code above the engine may import of it
# ---------------------------------------------------------------------------



def _on_surface(target: str) -> bool:
    from fandonia_env.engine import PUBLIC_MODULES

    if target == "fandonia_env.engine":
        return True
    for entry in PUBLIC_MODULES:
        if entry.endswith(".*"):
            pkg = entry[:-2]
            if target == pkg or target.startswith(pkg + "."):
                return True
        elif target == entry:
            return True
    return False


def _off_surface() -> list[str]:
    """Every import (inside functions too; not those under ``if TYPE_CHECKING``) by a module above the
    engine of an engine module that is not on the declared surface."""
    bad = []
    for m in MODS:
        if RANK[_layer(m)] <= RANK["engine.face"]:
            continue
        for imp in IMPORTS[m]:
            named, _ = _targets(m, imp)
            for t in sorted(named):
                if t.startswith("fandonia_env.engine") and not _on_surface(t):
                    bad.append(f"{m}:{imp.line} imports {t}, which is not on the engine's surface")
    return sorted(bad)


def test_above_the_engine_only_the_declared_surface_is_imported():
    assert _off_surface() == []


def test_the_internals_are_off_the_surface():
    for inside in ("fandonia_env.engine.core.machine", "fandonia_env.engine.core.state", "fandonia_env.engine.core.rng",
                   "fandonia_env.engine.rules.queries", "fandonia_env.engine.chapters.turn"):
        assert inside in MODS and not _on_surface(inside)
    for public in ("fandonia_env.engine.face.seat", "fandonia_env.engine.core.actions", "fandonia_env.engine.data.tables",
                   "fandonia_env.engine.rules.rule_queries"):
        assert public in MODS and _on_surface(public)


def test_the_surface_check_sees_an_agent_importing_the_machine(monkeypatch, tmp_path):
    f = tmp_path / "probe.py"
    f.write_text("from typing import TYPE_CHECKING\n"
                 "from fandonia_env.engine import SeatView\n"
                 "from fandonia_env.engine.core.machine import pending\n"
                 "if TYPE_CHECKING:\n    from fandonia_env.engine import GameState\n"
                 "def f():\n    from fandonia_env.engine.core import rng\n")
    monkeypatch.setitem(MODS, "fandonia_env.agents.probe", f)
    monkeypatch.setitem(IMPORTS, "fandonia_env.agents.probe", _imports("fandonia_env.agents.probe"))
    assert _off_surface() == [
        "fandonia_env.agents.probe:3 imports fandonia_env.engine.core.machine, which is not on the engine's surface",
        "fandonia_env.agents.probe:7 imports fandonia_env.engine.core, which is not on the engine's surface",
        "fandonia_env.agents.probe:7 imports fandonia_env.engine.core.rng, which is not on the engine's surface",
    ]


def test_the_surface_names_are_there():
    """Every name of the package's ``__all__`` is importable, and every public module exists."""
    import fandonia_env.engine as engine

    assert all(hasattr(engine, n) for n in engine.__all__)
    for entry in engine.PUBLIC_MODULES:
        assert entry.removesuffix(".*") in MODS, entry

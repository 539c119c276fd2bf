"""Which engine runs: pure Python, or compiled by ``python -m fandonia_env.compile`` (mypyc).

Never compiled itself: ``fandonia_env.engine`` calls ``choose()`` before it imports any other
module of the engine.  The compiled engine runs when its build is fresh (built from the sources
lying there now); a stale build is set aside with a warning, and ``FANDONIA_ENGINE=pure`` sets a
fresh one aside too (for comparisons), in both cases by importing the ``.py`` sources instead of
the extensions next to them.  ``FANDONIA_ENGINE=compiled`` makes a missing or stale build an
error instead."""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Iterable
from functools import cache
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any, get_type_hints

ENGINE = Path(__file__).resolve().parent.parent  # fandonia_env/engine (this module lives in its core/)
ENGINE_PACKAGE = __package__.rpartition(".")[0]  # fandonia_env.engine
#: compiled with the engine although they live outside it (paths relative to the package folder):
#: the v0 observation encoder, about as much of an AEC step as the engine's own work; the v1 encoder
#: and the rule features, most of a trained noble's decision and of batched self-play (issue 27)
EXTRA_SOURCES = ("spaces/observation.py", "spaces/observation_v1.py", "spaces/rule_features.py")
#: kept in Python: package inits; the exceptions (mypyc cannot compile exception classes as native
#: classes); the test/playthrough builders
NOT_COMPILED = frozenset({"__init__.py", "compiled.py", "errors.py", "builder.py", "playthrough.py"})
GROUP = "fandonia_env.engine._compiled"
MANIFEST = "_compiled.json"
#: mypy options of the build: the engine imports nothing outside the standard library and itself
MYPY_OPTIONS = ("--ignore-missing-imports", "--follow-imports=silent")


def sources(engine: Path = ENGINE) -> list[Path]:
    """The modules that are compiled, in a stable order: the engine's, then ``EXTRA_SOURCES``."""
    out = [p for p in sorted(engine.rglob("*.py"), key=lambda q: q.relative_to(engine).as_posix())
           if p.name not in NOT_COMPILED and "__pycache__" not in p.parts]
    if not out:
        raise FileNotFoundError(f"no engine sources under {engine}")
    return out + [p for p in (engine.parent / x for x in EXTRA_SOURCES) if p.is_file()]


def fingerprint(paths: Iterable[Path], engine: Path = ENGINE) -> dict[str, str]:
    """SHA-256 of each source, keyed by its path relative to the engine folder (``../spaces/...``
    for an extra source)."""
    return {_rel(p, engine): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def _rel(p: Path, engine: Path) -> str:
    return p.relative_to(engine).as_posix() if p.is_relative_to(engine) else "../" + p.relative_to(engine.parent).as_posix()


def extensions(engine: Path = ENGINE) -> list[Path]:
    """The compiled extension files lying in the engine folder, or beside an extra source (none:
    the pure-Python engine)."""
    out = [p for pat in ("*.so", "*.pyd") for p in engine.rglob(pat) if "build" not in p.relative_to(engine).parts]
    for x in EXTRA_SOURCES:
        src = engine.parent / x
        out += [p for pat in (".*.so", ".*.pyd") for p in src.parent.glob(src.stem + pat)]
    return sorted(out)


def status(engine: Path = ENGINE) -> tuple[str, list[str]]:
    """``("pure", [])``, ``("compiled", [])`` or ``("stale", [why...])``: stale when extensions lie
    there but the manifest is missing, or a source differs from the one they were built from."""
    if not extensions(engine):
        return "pure", []
    man = engine / MANIFEST
    if not man.is_file():
        return "stale", [f"{man.name} is missing"]
    try:
        built = json.loads(man.read_text())["sources"]
    except (ValueError, KeyError, TypeError) as e:
        return "stale", [f"{man.name} is unreadable ({e})"]
    now = fingerprint(sources(engine), engine)
    why = [f"{k} changed since the build" for k in sorted(now) if k in built and built[k] != now[k]]
    why += [f"{k} is new since the build" for k in sorted(set(now) - set(built))]
    why += [f"{k} was compiled but is gone" for k in sorted(set(built) - set(now))]
    return ("stale", why) if why else ("compiled", [])


ENV = "FANDONIA_ENGINE"
ENV_VALUES = ("pure", "compiled")


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Imports the engine's modules from their ``.py`` sources even where an extension lies beside."""

    def find_spec(self, name: str, path: object = None, target: ModuleType | None = None) -> ModuleSpec | None:
        root = ENGINE_PACKAGE.rpartition(".")[0]  # fandonia_env
        if name.startswith(ENGINE_PACKAGE + "."):
            rel = Path(*name[len(ENGINE_PACKAGE) + 1:].split("."))
        elif name in _EXTRA_MODULES:
            rel = Path("..", *name[len(root) + 1:].split("."))
        else:
            return None
        for f in (ENGINE / rel.with_suffix(".py"), ENGINE / rel / "__init__.py"):
            if f.is_file():
                return importlib.util.spec_from_file_location(
                    name, f, submodule_search_locations=[str(f.parent)] if f.name == "__init__.py" else None)
        return None


_EXTRA_MODULES = frozenset(ENGINE_PACKAGE.rpartition(".")[0] + "." + x.removesuffix(".py").replace("/", ".")
                           for x in EXTRA_SOURCES)


def choose() -> bool:
    """Pick the engine for this process (see the module's docstring); True: the compiled one.  The
    choice is about this package's own engine folder (``ENGINE``), the one ``_SourceFinder`` reads."""
    want = os.environ.get(ENV, "")
    if want and want not in ENV_VALUES:
        raise ImportError(f"{ENV}={want!r}: expected one of {list(ENV_VALUES)} (or unset: compiled when built)")
    st, why = status()
    if want == "compiled" and st != "compiled":
        raise ImportError(f"{ENV}=compiled but the compiled engine is {st}"
                          + "".join(f"; {w}" for w in why) + ": run `python -m fandonia_env.compile`")
    if st == "compiled" and want != "pure":
        return True
    if st == "stale":
        warnings.warn("the compiled engine was built from other sources (" + "; ".join(why) + "): running the "
                      "pure-Python engine. Rebuild with `python -m fandonia_env.compile`, or remove it with "
                      "`--clean`.", RuntimeWarning, stacklevel=3)
    if st != "pure" and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    return False


def _is_compiled(module: ModuleType) -> bool:
    f = getattr(module, "__file__", None) or ""
    return f.endswith((".so", ".pyd"))


def type_hints(obj: Any, from_source: bool | None = None) -> dict[str, Any]:
    """``typing.get_type_hints(obj)`` for an engine class (its annotated fields) or function (its
    parameters), also when it is compiled: mypyc keeps no annotations (``list[str]`` becomes
    ``list``, a function has none), so they are read from the module's source instead and
    evaluated in the module's namespace, as ``get_type_hints`` does with string annotations
    (``from_source``: force that reading, or ``get_type_hints``; None: the source when compiled)."""
    module = sys.modules[obj.__module__]
    if not (_is_compiled(module) if from_source is None else from_source):
        return get_type_hints(obj)
    return _source_hints(obj.__module__, obj.__qualname__)


@cache  # a pure function of the source lying there (a build tool's memo, not a game's)
def _source_hints(modname: str, qualname: str) -> dict[str, Any]:
    module = sys.modules[modname]
    rel = Path(*modname.split(".")[2:]).with_suffix(".py")  # fandonia_env.engine.<rel>
    tree = ast.parse((ENGINE / rel).read_text(encoding="utf-8"))
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef | ast.FunctionDef)
                 and n.name == qualname), None)
    if node is None:
        raise LookupError(f"{qualname} is not defined at the top level of {rel}")
    ns = vars(module)
    if isinstance(node, ast.ClassDef):
        anns = {n.target.id: n.annotation for n in node.body
                if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    else:
        a = node.args
        anns = {x.arg: x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs if x.annotation is not None}
        if node.returns is not None:
            anns["return"] = node.returns
    ev = {k: eval(ast.unparse(v), ns) for k, v in anns.items()}  # noqa: S307 - our own source
    return {k: type(None) if v is None else v for k, v in ev.items()}

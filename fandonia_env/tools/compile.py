"""Compile the rules engine with mypyc: the same rules, about twice as fast (optional).

    python -m fandonia_env.compile            # build C extensions next to the engine's sources
    python -m fandonia_env.compile --status   # pure, compiled, or stale (sources changed since)
    python -m fandonia_env.compile --clean    # remove them: back to the pure-Python engine
    python -m fandonia_env.compile --cached   # reuse the cached build of these very sources, or build
                                              # once and cache it (~/.cache/fandonia_env/compiled/KEY)

Needs the ``fast`` extra (``pip install -e ".[fast]"``: mypy, which brings mypyc, and setuptools)
and a C compiler (``gcc``); about 3 minutes on one core.  The pure-Python engine stays the
reference: the compiled one is built from the same sources, and ``tests/test_compiled_engine.py``
checks that it replays every golden playthrough and plays random games byte-identically.

The build writes ``fandonia_env/engine/**/*.so`` (one per compiled module, plus the shared library
``_compiled__mypyc``), one beside each of ``EXTRA_SOURCES`` (the v0 and v1 observation encoders, the rule features) and
``_compiled.json``, the SHA-256 of each source it was built from.

``--cached`` keeps each build in a cache folder keyed by ``build_key`` (the SHA-256 of every engine
source, compiled or not, of the extra sources, of the Python version and of mypy's version and
options): the same sources are compiled once per machine, then copied in (seconds).  The folder is
``$FANDONIA_CACHE_DIR/compiled``, else ``$XDG_CACHE_HOME/fandonia_env/compiled``, else
``~/.cache/fandonia_env/compiled``; the ``CACHE_KEEP`` builds used last are kept.  Processes that
ask for the same key at once build it once: the others wait for it (a lock file per key).
Python imports an extension before the ``.py`` of the same name, so editing a source after a build
would silently run the old rules: ``fandonia_env.engine`` refuses to import a stale build (run this
command again, or ``--clean``).  Not compiled: ``NOT_COMPILED`` below (``docs/engine.md``, "The
compiled engine", says why).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

from ..engine.core.compiled import (
    ENGINE,
    EXTRA_SOURCES,
    GROUP,
    MANIFEST,
    MYPY_OPTIONS,
    extensions,
    fingerprint,
    sources,
    status,
)
from .cli import require_extra

__all__ = [
    "CACHE_ENV", "CACHE_INDEX", "CACHE_KEEP", "OPT_LEVEL", "CompileError", "build", "build_cached", "build_key",
    "cache_root", "clean", "main", "prune", "restore", "store",
]

try:
    import fcntl
except ImportError:  # not POSIX: builds of one key are not serialised
    fcntl = None  # type: ignore[assignment]

#: the cache folder's environment variable, and how many builds it keeps (the ones used last)
CACHE_ENV = "FANDONIA_CACHE_DIR"
CACHE_KEEP = 4
#: the file of a cache entry that lists its extensions; written last, so an entry without it is incomplete
CACHE_INDEX = "build.json"
OPT_LEVEL = "3"


class CompileError(RuntimeError):
    """The build could not run or failed; the message says what is missing or what went wrong."""


def clean(engine: Path = ENGINE) -> list[Path]:
    """Remove the extensions and the manifest; returns what was removed."""
    gone = extensions(engine)
    man = engine / MANIFEST
    if man.is_file():
        gone.append(man)
    for p in gone:
        p.unlink()
    return gone


def build(engine: Path = ENGINE, verbose: bool = False) -> list[Path]:
    """Compile ``sources(engine)`` in place (``engine`` is a ``fandonia_env/engine`` folder, this
    package's or a copy's) and write the manifest; returns the extension files."""
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as e:
        raise CompileError(f"the compiled engine needs mypyc and setuptools ({e.name} is missing): "
                           'pip install -e ".[fast]"') from e
    root = engine.resolve().parent.parent  # the folder holding fandonia_env/
    srcs = sources(engine)
    # fingerprinted before the build: a source edited while it runs leaves the build stale (its
    # manifest names the sources as they were when compiling began), not wrongly marked fresh
    before = fingerprint(srcs, engine)
    clean(engine)
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="fandonia_compile_") as tmp:
        # build from a folder holding only a link to the package: setuptools would otherwise apply the
        # project's own pyproject.toml to this build; the in-place outputs go through the link
        src = Path(tmp, "src")
        src.mkdir()
        (src / "fandonia_env").symlink_to(root / "fandonia_env", target_is_directory=True)
        os.chdir(src)
        try:
            rel = [p.resolve().relative_to(root).as_posix() for p in srcs]
            exts = mypycify([*MYPY_OPTIONS, *rel], opt_level=OPT_LEVEL, group_name=GROUP,
                            target_dir=os.path.join(tmp, "c"))
            args = ["build_ext", "--inplace", "--build-temp", os.path.join(tmp, "obj"),
                    "--build-lib", os.path.join(tmp, "lib")]
            setup(name="fandonia-engine-compiled", ext_modules=exts, script_args=args if verbose else ["-q", *args])
        except SystemExit as e:  # setuptools reports a failed compile by exiting
            raise CompileError(f"the build failed (exit status {e.code}; the messages above say why); the "
                               "pure-Python engine runs meanwhile") from e
        finally:
            os.chdir(cwd)
    built = extensions(engine)
    if not built:
        raise CompileError("mypyc ran but wrote no extension next to the engine's sources")
    man = {"sources": before, "python": sys.version.split()[0]}
    (engine / MANIFEST).write_text(json.dumps(man, indent=1, sort_keys=True) + "\n")
    return built


def cache_root() -> Path:
    """The folder of cached builds (see the module's docstring)."""
    base = os.environ.get(CACHE_ENV)
    if not base:
        base = os.path.join(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "fandonia_env")
    return Path(base) / "compiled"


def build_key(engine: Path = ENGINE) -> str:
    """What a build of ``engine`` depends on, hashed: every engine source (the ones kept in Python too:
    compiled code is checked against their types), the extra sources, the Python and mypy versions
    and the build options."""
    files = sorted((p for p in engine.rglob("*.py") if "__pycache__" not in p.parts),
                   key=lambda q: q.relative_to(engine).as_posix())
    files += [p for p in (engine.parent / x for x in EXTRA_SOURCES) if p.is_file()]
    try:
        from importlib.metadata import version

        mypy = version("mypy")
    except Exception:
        mypy = None
    doc = {"sources": fingerprint(files, engine), "python": sys.version, "ext": sysconfig.get_config_var("EXT_SUFFIX"),
           "mypy": mypy, "options": [*MYPY_OPTIONS, OPT_LEVEL, GROUP]}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:24]


def restore(engine: Path = ENGINE, key: str | None = None) -> bool:
    """Copy the cached build of ``engine``'s sources next to them; False (nothing changed) without one."""
    entry = cache_root() / (key or build_key(engine))
    try:
        files = json.loads((entry / CACHE_INDEX).read_text())["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    clean(engine)
    pkg = engine.parent
    try:
        for rel in files:
            shutil.copy2(entry / rel, pkg / rel)
        shutil.copy2(entry / MANIFEST, engine / MANIFEST)
    except OSError:
        clean(engine)
        return False
    if status(engine)[0] != "compiled":  # an entry that does not fit these sources: not used
        clean(engine)
        return False
    os.utime(entry)  # used last: kept longest
    return True


def store(engine: Path, key: str) -> Path | None:
    """Put the fresh build lying in ``engine`` into the cache under ``key``; its folder, or None when
    the cache cannot be written."""
    root = cache_root()
    pkg = engine.parent
    rels = [p.relative_to(pkg).as_posix() for p in extensions(engine)]
    try:
        root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=root))
        for rel in rels:
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(pkg / rel, tmp / rel)
        shutil.copy2(engine / MANIFEST, tmp / MANIFEST)
        (tmp / CACHE_INDEX).write_text(json.dumps({"files": rels}, indent=1) + "\n")
    except OSError:
        return None
    try:
        os.replace(tmp, root / key)  # whole or not at all
    except OSError:  # another process stored it first
        shutil.rmtree(tmp, ignore_errors=True)
    prune(root)
    return root / key


def prune(root: Path | None = None, keep: int = CACHE_KEEP) -> list[Path]:
    """Remove all but the ``keep`` cached builds used last; returns the removed folders."""
    root = cache_root() if root is None else root
    entries = sorted((p for p in root.glob("*") if p.is_dir() and not p.name.startswith(".")),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for p in entries[keep:]:
        shutil.rmtree(p, ignore_errors=True)
        (root / f"{p.name}.lock").unlink(missing_ok=True)
    return entries[keep:]


def build_cached(engine: Path = ENGINE, verbose: bool = False) -> tuple[list[Path], bool]:
    """The build of ``engine``'s sources, copied from the cache, or built once and cached;
    (the extension files, True when they came from the cache)."""
    key = build_key(engine)
    if restore(engine, key):
        return extensions(engine), True
    try:
        cache_root().mkdir(parents=True, exist_ok=True)
        lock = open(cache_root() / f"{key}.lock", "w")
    except OSError:  # no cache to write: a plain build
        return build(engine, verbose), False
    with lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # a build of this key under way elsewhere: wait for it
        if restore(engine, key):
            return extensions(engine), True
        built = build(engine, verbose)
        if build_key(engine) == key:  # no source edited during the build
            store(engine, key)
        return built, False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.compile", description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--status", action="store_true", help="print pure / compiled / stale and exit")
    g.add_argument("--clean", action="store_true", help="remove the compiled extensions (back to pure Python)")
    ap.add_argument("--cached", action="store_true",
                    help=f"reuse the cached build of these sources, or build once and cache it ({cache_root()})")
    ap.add_argument("--verbose", action="store_true", help="show the compiler's output")
    a = ap.parse_args(argv)
    if a.status:
        st, why = status()
        print(st + "".join(f"\n  {w}" for w in why))
        return 0
    if a.clean:
        gone = clean()
        print(f"removed {len(gone)} file(s): the engine is pure Python")
        return 0
    require_extra("fast", "fandonia_env.compile", ("mypyc", "setuptools"), cli=True)
    try:
        built, reused = build_cached(verbose=a.verbose) if a.cached else (build(verbose=a.verbose), False)
    except CompileError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    how = f"copied the cached build {build_key()} of" if reused else "compiled"
    print(f"{how} {len(sources())} modules into {len(built)} extension(s) under {ENGINE}")
    return 0

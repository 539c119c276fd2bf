"""Compile the rules engine with mypyc: the same rules, about twice as fast (optional).

    python -m fandonia_env.compile            # build C extensions next to the engine's sources
    python -m fandonia_env.compile --status   # pure, compiled, or stale (sources changed since)
    python -m fandonia_env.compile --clean    # remove them: back to the pure-Python engine

Needs the ``fast`` extra (``pip install -e ".[fast]"``: mypy, which brings mypyc, and setuptools)
and a C compiler (``gcc``); about 3 minutes on one core.  The pure-Python engine stays the
reference: the compiled one is built from the same sources, and ``tests/test_compiled_engine.py``
checks that it replays every golden playthrough and plays random games byte-identically.

The build writes ``fandonia_env/engine/*.so`` (one per compiled module, plus the shared library
``_compiled__mypyc``), one beside each of ``EXTRA_SOURCES`` (the v0 observation encoder) and
``_compiled.json``, the SHA-256 of each source it was built from.
Python imports an extension before the ``.py`` of the same name, so editing a source after a build
would silently run the old rules: ``fandonia_env.engine`` refuses to import a stale build (run this
command again, or ``--clean``).  Not compiled: ``NOT_COMPILED`` below (``docs/engine.md``, "The
compiled engine", says why).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from .cli import require_extra
from .engine.compiled import ENGINE, GROUP, MANIFEST, MYPY_OPTIONS, extensions, fingerprint, sources, status


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
            exts = mypycify([*MYPY_OPTIONS, *rel], opt_level="3", group_name=GROUP,
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.compile", description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--status", action="store_true", help="print pure / compiled / stale and exit")
    g.add_argument("--clean", action="store_true", help="remove the compiled extensions (back to pure Python)")
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
        built = build(verbose=a.verbose)
    except CompileError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"compiled {len(sources())} modules into {len(built)} extension(s) under {ENGINE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

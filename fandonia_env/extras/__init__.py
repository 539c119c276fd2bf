"""The optional extras (``pyproject.toml`` ``[project.optional-dependencies]``) and the guard of every
command and module that needs one: without it a command stops with one line naming the extra and how
to install it (exit status 2); an import raises ``MissingExtraError`` with the same line.

It imports nothing of the package, so any layer may use it (``fandonia_env.openspiel``, below the
nobles, checks ``pyspiel`` with it); ``fandonia_env.tools.cli`` re-exports every name.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

__all__ = ["EXTRAS", "MissingExtraError", "extra_message", "invoked_as", "missing_modules", "require_extra"]

# ---------------------------------------------------------------------------
# Optional extras (pyproject.toml [project.optional-dependencies])
# ---------------------------------------------------------------------------

#: the modules each extra brings that the commands import (the extras' other packages are for tests)
EXTRAS: dict[str, tuple[str, ...]] = {
    "serve": ("fastapi", "uvicorn", "pydantic"),
    "train": ("torch", "stable_baselines3", "sb3_contrib"),
    "rllib": ("ray", "torch"),
    "fast": ("mypyc", "setuptools"),
    "tournament": ("openskill", "matplotlib", "tqdm"),
    "openspiel": ("pyspiel",),
    "datasets": ("minari", "h5py", "jax"),
}


class MissingExtraError(ModuleNotFoundError):
    """A module of an optional extra is not installed; the message names the extra and its install line."""


def missing_modules(modules: Iterable[str]) -> list[str]:
    """The modules of ``modules`` that cannot be imported here (not installed, or blocked)."""
    import importlib.util

    out = []
    for m in modules:
        try:
            found = importlib.util.find_spec(m) is not None
        except (ImportError, ValueError):  # a parent package missing, or a module set to None
            found = False
        if not found:
            out.append(m)
    return out


def extra_message(extra: str, command: str) -> str:
    """``COMMAND needs the "EXTRA" extra: pip install "fandonia_env[EXTRA]"`` (one line)."""
    line = f'{command} needs the "{extra}" extra: pip install "fandonia_env[{extra}]"'
    if (Path(__file__).resolve().parents[2] / "pyproject.toml").is_file():  # a source checkout
        line += f' (in the source checkout: pip install -e ".[{extra}]")'
    return line


def invoked_as(command: str) -> bool:
    """Whether this process runs ``command`` (``python -m COMMAND``, or ``python -m fandonia_env NAME``,
    which names its target in ``sys.argv[0]``)."""
    if sys.argv and sys.argv[0] == f"python -m {command}":
        return True
    args = list(getattr(sys, "orig_argv", []))[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-m":
            return i + 1 < len(args) and args[i + 1] == command
        if a.startswith("-m"):
            return a[2:] == command
        if a == "-c" or not a.startswith("-"):  # a program or a script: no -m
            return False
        i += 2 if a in ("-X", "-W") else 1
    return False


def require_extra(extra: str, command: str, modules: Iterable[str] | None = None, cli: bool | None = None) -> None:
    """Stop ``command`` when a module it needs from the optional ``extra`` is missing.

    ``modules``: those the command imports (default: every module of ``EXTRAS[extra]``).  On the
    command line (``cli`` True, or None and this process runs ``command``) it prints
    ``extra_message`` on stderr and exits with status 2; imported as a library, it raises
    ``MissingExtraError`` (an ``ImportError``) with the same message."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; extras: {sorted(EXTRAS)}")
    missing = missing_modules(EXTRAS[extra] if modules is None else modules)
    if not missing:
        return
    msg = extra_message(extra, command)
    if cli if cli is not None else invoked_as(command):
        print(msg, file=sys.stderr)
        raise SystemExit(2)
    raise MissingExtraError(f"{msg} (no module {missing[0]!r})", name=missing[0])

"""Command-line options shared by every entry point: which rules to play.

    --preset NAME        a preset from fandonia_env/presets (1981, 1981-all-optional, errata, ...)
    --edition E          1981 or errata (overrides the preset's)
    --optional A,B,...   optional-rule switches (overrides the preset's; "" for none)

``rules_from_args`` turns them into ``Game``/env keyword arguments, validated at once so a
wrong name stops the command with the list of valid ones.

It also holds the argparse ``type=`` helpers every command line uses (``players_arg``,
``positive_int``, ``seed_arg``, ``positive_float``, ``max_turns_arg`` (0 = no limit),
``player_counts_arg``, ``agent_id_arg``, ``agent_list_arg``, ``existing_file``), so a bad value
ends any command with the usage, an ``error:`` line naming the value and what is allowed, and
exit code 2; ``report_written``, the ``wrote PATH`` lines of commands that write files; and
``require_extra``, the guard of every command that needs an optional extra (``EXTRAS``): without
it the command stops with one line naming the extra and how to install it, and exit code 2.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from ..engine.core.options import EDITIONS, OPTIONAL_RULES, ConfigError, preset_names
from ..engine.face.game import make_config
from ..extras import EXTRAS, MissingExtraError, extra_message, invoked_as, missing_modules, require_extra

__all__ = [
    "EXTRAS", "MissingExtraError", "Progress", "add_rules_args", "agent_id_arg", "agent_list_arg", "describe_rules",
    "existing_file", "extra_message", "int_range", "invoked_as", "known_agents", "max_turns_arg", "missing_modules",
    "player_counts_arg", "players_arg", "positive_float", "positive_int", "report_written", "require_extra",
    "rules_from_args", "seed_arg",
]

def add_rules_args(ap: argparse.ArgumentParser) -> None:
    g = ap.add_argument_group("rules")
    g.add_argument("--preset", default=None, help=f"rules preset: one of {preset_names()} (default: 1981)")
    g.add_argument("--edition", default=None, choices=list(EDITIONS), help="edition (overrides the preset)")
    g.add_argument("--optional", default=None,
                   help=f"comma-separated optional-rule switches (overrides the preset): {list(OPTIONAL_RULES)}")


def rules_from_args(a: argparse.Namespace, ap: argparse.ArgumentParser | None = None) -> dict[str, Any]:
    """The ``preset``/``edition``/``optional`` keyword arguments chosen on the command line."""
    rules: dict[str, Any] = {}
    if a.preset:
        rules["preset"] = a.preset
    if a.edition:
        rules["edition"] = a.edition
    if a.optional is not None:
        rules["optional"] = [o.strip() for o in a.optional.split(",") if o.strip()]
    try:
        make_config(**rules)
    except ConfigError as e:
        if ap is not None:
            ap.error(str(e))
        raise
    return rules


def describe_rules(rules: dict[str, Any]) -> str:
    """'edition 1981, optional: none' for a rules dict."""
    cfg = make_config(**rules)
    return f"edition {cfg['edition']}, optional rules: {', '.join(cfg['optional']) or 'none'}"


# ---------------------------------------------------------------------------
# argparse ``type=`` helpers shared by every command line.  Each raises
# argparse.ArgumentTypeError, so a bad value ends the command with the usage, an
# ``error: argument --x: invalid value 'v' (allowed: ...)`` line and exit code 2.
# ---------------------------------------------------------------------------

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def _bad(text: str, allowed: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(f"invalid value {text!r} (allowed: {allowed})")


def _describe_range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"an integer from {lo} to {hi}"
    if lo is not None:
        return f"an integer >= {lo}"
    if hi is not None:
        return f"an integer <= {hi}"
    return "an integer"


def int_range(lo: int | None = None, hi: int | None = None, allowed: str | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in ``lo..hi`` (either bound may be None); ``allowed`` overrides
    the description of the allowed values in the error message."""
    desc = allowed or _describe_range(lo, hi)

    def parse(text: str) -> int:
        try:
            v = int(text)
        except (TypeError, ValueError):
            raise _bad(text, desc) from None
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise _bad(text, desc)
        return v

    parse.__name__ = f"int_range({lo}, {hi})"
    return parse


players_arg = int_range(MIN_PLAYERS, MAX_PLAYERS, f"a player count from {MIN_PLAYERS} to {MAX_PLAYERS}")
"""A player count 2..6."""

positive_int = int_range(1, None)
"""An integer >= 1 (game counts, jobs, timesteps, ...)."""

seed_arg = int_range(0, None, "a non-negative integer seed")
"""A seed: the engine's seeds are integers >= 0."""


def positive_float(text: str) -> float:
    """A finite number > 0 (seconds)."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise _bad(text, "a number > 0") from None
    if not math.isfinite(v) or v <= 0:
        raise _bad(text, "a number > 0")
    return v


def max_turns_arg(text: str) -> int | None:
    """``--max-turns``: a positive turn limit, or 0 for no limit (the engine's ``max_turns=None``:
    the game runs until it is won or drawn); negative values are rejected."""
    v = int_range(0, None, "0 for no turn limit, or a positive number of turns")(text)
    return v or None


def player_counts_arg(text: str) -> list[int]:
    """Player counts: ``4``, ``2,4,6``, ``2-6`` or a mix (``2-3,6``); each 2..6, in the order given."""
    desc = f"player counts from {MIN_PLAYERS} to {MAX_PLAYERS}, like 4, 2,4,6 or 2-6"
    out: list[int] = []
    parts = [p.strip() for p in text.split(",")]
    if not any(parts):
        raise _bad(text, desc)
    for part in parts:
        if not part:
            continue
        lo_s, dash, hi_s = part.partition("-")
        try:
            lo = int(lo_s)
            hi = int(hi_s) if dash else lo
        except ValueError:
            raise _bad(text, desc) from None
        if not (MIN_PLAYERS <= lo <= hi <= MAX_PLAYERS):
            raise _bad(text, desc)
        out.extend(n for n in range(lo, hi + 1) if n not in out)
    return out


def known_agents() -> list[str]:
    """The registered agent ids (``fandonia_env.agents.AGENTS``), sorted."""
    import fandonia_env.agents as agent_registry

    return sorted(agent_registry.AGENTS)


def agent_id_arg(text: str) -> str:
    """A registered agent id, or a spec of a registered prefix (``ppo:PATH``, ``search:PATH?knob=v``)
    where the registry takes those (``fandonia_env.agents.check_agent``); the error lists the known ids."""
    import fandonia_env.agents as agent_registry

    aid = text.strip()
    if aid in agent_registry.AGENTS:
        return aid
    check = getattr(agent_registry, "check_agent", None)
    prefixes = sorted(getattr(agent_registry.base, "PREFIXES", {}))
    if check is not None and any(aid.startswith(p) for p in prefixes):
        try:
            check(aid)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
        return aid
    also = f"; or {' / '.join(p + 'PATH' for p in prefixes)} to a policy file" if check is not None and prefixes else ""
    raise argparse.ArgumentTypeError(f"unknown agent {aid!r} (known agents: {', '.join(known_agents())}{also})")


def agent_list_arg(text: str) -> list[str]:
    """Comma-separated registered agent ids (at least one); the error lists the known ones."""
    ids = [x.strip() for x in text.split(",") if x.strip()]
    if not ids:
        raise argparse.ArgumentTypeError(f"no agent id in {text!r} (known agents: {', '.join(known_agents())})")
    return [agent_id_arg(x) for x in ids]


def existing_file(text: str) -> str:
    """A path to an existing file."""
    if not os.path.exists(text):
        raise argparse.ArgumentTypeError(f"no such file: {text!r}")
    if not os.path.isfile(text):
        raise argparse.ArgumentTypeError(f"not a file: {text!r}")
    return text


def report_written(paths: Iterable[str], file: TextIO | None = None) -> None:
    """Say where a command wrote its files: one ``wrote PATH`` line each."""
    for p in paths:
        print(f"wrote {p}", file=file or sys.stdout)


class Progress:
    """A progress bar on stderr for the command lines (tournament, training stages): tqdm when
    installed, else a plain-text bar; ``enabled=False`` prints nothing."""

    def __init__(self, total: int, unit: str = "it", desc: str = "", enabled: bool = True) -> None:
        self.total, self.done, self.unit, self.desc, self.enabled = total, 0, unit, desc, enabled
        self.t0 = time.perf_counter()
        self.bar = None
        self.postfix = ""
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, dynamic_ncols=True)
            except ImportError:
                self.bar = None

    def update(self, k: int = 1, postfix: str | None = None) -> None:
        self.done += k
        if postfix is not None:
            self.postfix = postfix
        if not self.enabled:
            return
        if self.bar is not None:
            if postfix is not None:
                self.bar.set_postfix_str(postfix, refresh=False)
            self.bar.update(k)
            return
        dt = time.perf_counter() - self.t0
        eta = dt / max(self.done, 1) * (self.total - self.done)
        n = int(30 * self.done / max(self.total, 1))
        print(f"\r{self.desc} [{'#' * n}{'.' * (30 - n)}] {self.done}/{self.total} {self.unit} "
              f"{dt:.0f}s, ~{eta:.0f}s left {self.postfix}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.close()
        else:
            print(file=sys.stderr)

"""What every training stage shares: validated YAML configs, seeding, the output directory
(with the config it ran with written next to the output), and a progress bar.

A stage declares its config keys as a ``SCHEMA`` (key -> ``Opt``); ``load_config`` rejects an
unknown key or a missing required one with an error naming it and listing the allowed keys, and
checks every value's type.  ``--set key=value`` on every stage's command line overrides a key
(the value is parsed as YAML: ``--set games=20``, ``--set players=[2,4]``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from fandonia_env.tools.cli import (
    Progress,  # noqa: F401  (the stages' progress bar, shared with the tournament)
    require_extra,
)

_T = TypeVar("_T")


class ConfigError(ValueError):
    """A training config that cannot be used (unknown / missing key, wrong type)."""


_REQUIRED = object()


@dataclass(frozen=True)
class Opt:
    """One config key: its default (``REQUIRED`` if none), the accepted types and a one-line doc."""

    default: Any
    types: tuple[type, ...]
    doc: str
    nullable: bool = False


REQUIRED: Any = _REQUIRED


def _type_ok(value: Any, opt: Opt) -> bool:
    if value is None:
        return opt.nullable
    if isinstance(value, bool) and bool not in opt.types:
        return False
    if float in opt.types and isinstance(value, int) and not isinstance(value, bool):
        return True
    return isinstance(value, opt.types)


def validate(cfg: Any, schema: dict[str, Opt], where: str = "config") -> dict[str, Any]:
    """``cfg`` checked against ``schema`` with defaults filled in (a new dict)."""
    if not isinstance(cfg, dict):
        raise ConfigError(f"{where}: a training config must be a YAML mapping, got {type(cfg).__name__}")
    allowed = sorted(schema)
    unknown = sorted(set(cfg) - set(schema))
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; allowed keys: {allowed}")
    missing = sorted(k for k, o in schema.items() if o.default is _REQUIRED and k not in cfg)
    if missing:
        raise ConfigError(f"{where}: missing required key(s) {missing}; allowed keys: {allowed}")
    out: dict[str, Any] = {}
    for k, opt in schema.items():
        v = cfg.get(k, opt.default)
        if not _type_ok(v, opt):
            names = " or ".join(t.__name__ for t in opt.types) + (" or null" if opt.nullable else "")
            raise ConfigError(f"{where}: key {k!r} must be {names}, got {v!r}")
        out[k] = v
    return out


def load_config(path: str | os.PathLike[str] | None, schema: dict[str, Opt],
                overrides: list[str] | None = None) -> dict[str, Any]:
    """Read a YAML config (``None``: all defaults), apply ``key=value`` overrides, validate."""
    import yaml

    cfg: Any = {}
    where = "config"
    if path is not None:
        where = str(path)
        if not os.path.exists(path):
            raise ConfigError(f"config file {path!s} does not exist")
        with open(path) as f:
            cfg = yaml.safe_load(f)
        if cfg is None:
            cfg = {}
    if isinstance(cfg, dict):
        cfg = dict(cfg)
        for item in overrides or []:
            if "=" not in item:
                raise ConfigError(f"--set {item!r}: expected key=value; allowed keys: {sorted(schema)}")
            k, v = item.split("=", 1)
            cfg[k.strip()] = yaml.safe_load(v)
    return validate(cfg, schema, where)


def arg_parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    """The command line every stage shares: ``--config PATH`` and repeated ``--set key=value``."""
    ap = argparse.ArgumentParser(prog=prog, description=(doc or "").strip().splitlines()[0] if doc else None)
    ap.add_argument("--config", default=None, help="YAML config (see docs/training.md for the keys)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override a config key (value parsed as YAML); repeatable")
    return ap


def run_cli(ap: argparse.ArgumentParser, argv: list[str] | None, schema: dict[str, Opt],
            run: Callable[[argparse.Namespace, dict[str, Any]], _T], report: Callable[[dict[str, Any], _T], None],
            *, torch_for: str | None = None, prefix: str = "error") -> int:
    """A stage's command line: parse ``argv`` with ``ap``, load and check the config, ``run(args, cfg)``
    and ``report(cfg, what run returned)``; exit status 0.  With ``torch_for`` (the command's name) the
    ``train`` extra is required once the config is checked.  A ``ConfigError`` is printed on stderr
    (``prefix: message``): exit status 2."""
    a = ap.parse_args(argv)
    try:
        cfg = load_config(a.config, schema, a.set)
        if torch_for is not None:
            require_extra("train", torch_for, ("torch",), cli=True)  # the config is checked without it
        result = run(a, cfg)
    except ConfigError as e:
        print(f"{prefix}: {e}", file=sys.stderr)
        return 2
    report(cfg, result)
    return 0


def check_players(pl: Any) -> None:
    """``players``: an int 2..6 or a list ``[lo, hi]`` with 2 <= lo <= hi <= 6, else a ``ConfigError``."""
    ok = (isinstance(pl, int) and 2 <= pl <= 6) or (
        isinstance(pl, list) and len(pl) == 2 and all(isinstance(v, int) for v in pl) and 2 <= pl[0] <= pl[1] <= 6)
    if not ok:
        raise ConfigError(f"players must be an int 2..6 or [lo, hi] with 2 <= lo <= hi <= 6, got {pl!r}")


def schema_doc(schema: dict[str, Opt]) -> str:
    """The keys of a schema as a Markdown table (docs/training.md)."""
    rows = ["| key | default | meaning |", "|---|---|---|"]
    for k, o in schema.items():
        d = "(required)" if o.default is _REQUIRED else repr(o.default)
        rows.append(f"| `{k}` | `{d}` | {o.doc} |")
    return "\n".join(rows)


def seed_everything(seed: int) -> None:
    """Seed Python's, numpy's and (if imported) torch's global generators."""
    import numpy as np

    random.seed(seed)
    np.random.seed(seed % 2**32)
    if "torch" in sys.modules:
        import torch

        torch.manual_seed(seed)


def prepare_out(out: str | os.PathLike[str], cfg: dict[str, Any], stage: str,
                check_same: tuple[str, ...] = ()) -> Path:
    """Create the output directory and write ``<stage>_config.yaml`` (the config it ran with).

    ``check_same``: keys that must equal those of a config already written there (a resumed run
    must not mix data of different settings); a difference raises ``ConfigError`` naming them."""
    import yaml

    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    p = d / f"{stage}_config.yaml"
    if check_same and p.exists():
        old = yaml.safe_load(p.read_text()) or {}
        diff = sorted(k for k in check_same if old.get(k) != cfg.get(k))
        if diff:
            raise ConfigError(
                f"{d} holds a {stage} run with different {diff} "
                f"({', '.join(f'{k}: {old.get(k)!r} -> {cfg.get(k)!r}' for k in diff)}); "
                "use another output directory or delete it to start over")
    p.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return d

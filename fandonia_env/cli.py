"""Command-line options shared by every entry point: which rules to play.

    --preset NAME        a preset from configs/presets (1981, 1981-all-optional, errata, ...)
    --edition E          1981 or errata (overrides the preset's)
    --optional A,B,...   optional-rule switches (overrides the preset's; "" for none)

``rules_from_args`` turns them into ``Game``/env keyword arguments, validated at once so a
wrong name stops the command with the list of valid ones.
"""

from __future__ import annotations

import argparse
from typing import Any

from .engine.game import make_config
from .engine.options import EDITIONS, OPTIONAL_RULES, ConfigError, preset_names


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

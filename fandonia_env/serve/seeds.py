"""Seeds in the server's JSON: secret while a game is played, decimal strings when published.

A game's seed (and with it every noble's seed, derived from it) would let anyone replay the game's
dice and draws, so no summary, list, state or push carries it while the game is played; only
``GET /games/{id}/replay`` publishes it, after the end.  Seeds are 63-bit integers, beyond the
2**53 that a JavaScript number holds exactly, so the server writes every seed as a decimal string
(``"config": {"seed": "4611686018427387909", ...}``) and reads a seed as an integer or such a
string.
"""

from __future__ import annotations

from typing import Any

#: The largest seed the server accepts (and draws: ``secrets.randbits(63)``).
MAX_SEED = 2**63 - 1


def parse_seed(v: Any, where: str = "seed") -> int:
    """``v`` as a seed: an int 0..2**63-1 or the decimal string of one.  ValueError naming ``where``."""
    if isinstance(v, int) and not isinstance(v, bool):
        n = v
    elif isinstance(v, str) and v.isascii() and v.isdigit() and len(v) <= 19:
        n = int(v)
    else:
        raise ValueError(f"{where} must be an integer 0..{MAX_SEED} or its decimal string (e.g. \"12\"), "
                         f"got {str(v)[:40]!r} ({type(v).__name__})")
    if not 0 <= n <= MAX_SEED:
        raise ValueError(f"{where} must be an integer 0..{MAX_SEED} or its decimal string, got {n}")
    return n


def without_seed(config: dict[str, Any]) -> dict[str, Any]:
    """A game's config as anyone may see it while it is played: everything but the seed."""
    return {k: v for k, v in config.items() if k != "seed"}


def seed_text(config: dict[str, Any]) -> dict[str, Any]:
    """A config to publish (after the end): the seed as a decimal string."""
    out = dict(config)
    if out.get("seed") is not None:
        out["seed"] = str(out["seed"])
    return out


def config_in(config: dict[str, Any], where: str = "config") -> dict[str, Any]:
    """A config read from a client: a string seed becomes the int the engine takes (ValueError if bad)."""
    if "seed" not in config or config["seed"] is None:
        return config
    return {**config, "seed": parse_seed(config["seed"], f"{where}.seed")}


def saved_out(doc: dict[str, Any] | None) -> dict[str, Any] | None:
    """A saved game (``Game.to_json``) to publish: its config's seed as a decimal string."""
    if doc is None or not isinstance(doc.get("config"), dict):
        return doc
    return {**doc, "config": seed_text(doc["config"])}


def saved_in(doc: Any, where: str = "start") -> Any:
    """A saved game read from a client: its config's seed (int or decimal string) as the int the engine
    reads.  Anything else is left for the engine to check."""
    if not isinstance(doc, dict) or not isinstance(doc.get("config"), dict):
        return doc
    return {**doc, "config": config_in(doc["config"], f"{where}.config")}

"""Seeds in the server's JSON: secret while a game is played, decimal strings when published.

A game's seed (and with it every noble's seed, derived from it) would let anyone replay the game's
dice and draws, so no summary, list, state or push carries it while the game is played; only
``GET /games/{id}/replay`` publishes it, after the end.  Seeds are 63-bit integers, beyond the
2**53 that a JavaScript number holds exactly, so the server writes every seed as a decimal string
(``"config": {"seed": "4611686018427387909", ...}``) and reads a seed as an integer or such a
string.

**A seed the creator chooses is not the game's seed** (issue 41): a creator who could make a second game
with the same seed, or a stranger who tries seeds 0, 1, 2, ... against the public set-up log, would read
every hand.  So a chosen seed is mixed with a secret drawn for that game alone (``new_secret``, kept in
the database, never sent while the game is played) into the seed the engine plays
(``derive_seed``: HMAC-SHA256 of the chosen seed under the secret, 63 bits).  The replay publishes the
chosen seed, the secret and the seed played, so anyone can check ``derive_seed(chosen, secret)`` and
replay the game exactly.  A creator who wants a public, reproducible deal asks for it (``public_seed``):
the game then plays the chosen seed (or a drawn one) itself, and every summary shows it to every seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
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


def new_secret() -> str:
    """A fresh per-game secret (32 hex digits) to mix a chosen seed with."""
    return secrets.token_hex(16)


def derive_seed(chosen: int, secret: str) -> int:
    """The seed a game with the chosen seed ``chosen`` and the secret ``secret`` plays: the first 63
    bits of HMAC-SHA256(secret, decimal chosen seed).  Without the secret it tells nothing of the deal."""
    digest = hmac.new(secret.encode("ascii"), str(int(chosen)).encode("ascii"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


def game_seed(chosen: int | None, public: bool) -> tuple[int, dict[str, Any]]:
    """(the seed the engine plays, the seeding record kept with the game) for a new game: a public seed
    is played as given (drawn when none is given) and shown to all; a chosen private seed is mixed with
    a new secret (``derive_seed``); no seed at all draws one (secret until the end, as before)."""
    if public:
        seed = secrets.randbits(63) if chosen is None else int(chosen)
        return seed, {"public": True, "chosen": seed, "secret": None}
    if chosen is None:
        return secrets.randbits(63), {"public": False, "chosen": None, "secret": None}
    secret = new_secret()
    return derive_seed(chosen, secret), {"public": False, "chosen": int(chosen), "secret": secret}


def config_shown(config: dict[str, Any], seeding: dict[str, Any] | None) -> dict[str, Any]:
    """A game's config as every seat and spectator sees it while it is played: without the seed, unless
    its creator asked for a public seed (then the seed as a decimal string, and ``public_seed: true``)."""
    if seeding and seeding.get("public"):
        return {**seed_text(config), "public_seed": True}
    return {**without_seed(config), "public_seed": False}


def seeding_out(seeding: dict[str, Any] | None, played: int | None) -> dict[str, Any]:
    """A finished game's seeding as the replay publishes it: whether the seed was public, the chosen
    seed and the secret (decimal / hex strings, null when there were none) and the seed played."""
    s = seeding or {}
    chosen = s.get("chosen")
    return {"public_seed": bool(s.get("public")), "chosen_seed": None if chosen is None else str(chosen),
            "secret": s.get("secret"), "seed": None if played is None else str(played)}

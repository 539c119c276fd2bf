"""Golden playthroughs: a recorded game, one JSON line per decision.

Each line holds the decision (player, kind, legal ids), the action taken, a digest of every
player's view at that point, and the log lines written since the previous decision.  Replaying
the actions must reproduce every line exactly; ``scripts/make_golden.py`` regenerates the files.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

from .game import Game, player_view


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def _view_digest(view: dict[str, Any]) -> str:
    """A view's digest without its ``"rules"`` entry: the rules never change during a game and
    are recorded once, in the first line's config."""
    return _digest({k: v for k, v in view.items() if k != "rules"})


def _play(cfg: dict[str, Any], choose: Callable[[int, dict[str, Any]], int | None]) -> list[dict[str, Any]]:
    """Play a game from ``cfg``, asking ``choose(step, decision)`` for each action (None stops),
    and record one line per decision."""
    g = Game(**cfg)
    n = g.n_players
    lines: list[dict[str, Any]] = [{"config": dict(g.state.config)}]
    seen = 0
    step = 0
    while True:
        log = g.state.log
        new = [e["t"] if e["to"] is None else f"(to player {e['to']}) {e['t']}" for e in log[seen:]]
        seen = len(log)
        views = [_view_digest(player_view(g.state, i)) for i in range(n)]
        if g.over:
            lines.append({"end": g.result, "winner": g.winner, "views": views, "log": new})
            return lines
        d = g.decision()
        a = choose(step, d)  # type: ignore[arg-type]
        lines.append({"player": d["player"], "kind": d["kind"], "options": d["options"],  # type: ignore[index]
                      "action": a, "views": views, "log": new})
        if a is None:
            return lines
        g.apply(a)
        step += 1


def record(players: int, seed: int, max_turns: int, **rules: Any) -> list[dict[str, Any]]:
    """Play a game with random legal choices (``random.Random(seed)``) and record it.
    ``rules``: ``preset``/``edition``/``optional`` (the first line keeps the expanded config)."""
    rng = random.Random(seed)
    return _play({"players": players, "seed": seed, "max_turns": max_turns, **rules},
                 lambda step, d: rng.choice(d["options"]))


def replay(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Replay a recorded game's actions and re-record every line."""
    actions = [rec.get("action") for rec in lines[1:]]
    return _play(lines[0]["config"], lambda step, d: actions[step] if step < len(actions) else None)

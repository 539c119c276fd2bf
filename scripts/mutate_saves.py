"""Mutation test of saved games: damage real saves and check that ``Game.from_json`` either
refuses them with a clean ``StateError`` or gives a game that plays on to the end.

    python scripts/mutate_saves.py --saves 20000 [--seed 0] [--games 40] [--max-turns 6]
        [--max-moves 120]

Base saves are taken at random points of seeded random games (2-6 players, both editions,
every preset).  Each trial applies one to three mutations - drop a key or list entry,
duplicate an entry, retype a value (int -> str, list -> dict, None...), perturb a number
(+-1, large, negative), swap or replace ids, rename or add keys - then loads the result (as a
document or as a JSON string).  A save that loads must pass ``invariants.check`` and play on
with random legal moves (at most ``--max-moves``) with the invariants holding after every
step, every player's view and observation available.  Prints the counts: loaded-and-played,
rejected with StateError, and bare exceptions (anything else, or an accepted save that breaks
later), which must be 0; the exit status is 1 otherwise.  ``tests/test_save_validation.py``
runs the same trials (2,000 of them) in CI.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
import traceback
from collections import Counter
from typing import Any

from fandonia_env.engine import Game, StateError
from fandonia_env.engine.core.actions import NUM_ACTIONS
from fandonia_env.engine.core.options import preset_names
from fandonia_env.engine.data.components import (
    ALL_CHARACTER_IDS,
    CARD_IDS,
    COUNTRIES,
    ERRATA_OPPORTUNITY_IDS,
    OFFICE_KEYS,
    OPPORTUNITY_IDS,
)
from fandonia_env.engine.data.tables import PROBLEM_KEYS
from fandonia_env.engine.face.invariants import check

#: how often each top-level field is the place of a mutation (the others: 1)
WEIGHTS: dict[str, float] = {
    "chars": 6, "players": 6, "stack": 8, "pt": 2, "tstate": 2, "misc": 1.5, "problems": 1.5, "config": 2,
    "deck": 1.5, "discard": 1.5, "rng": 1, "log": 1, "schema": 0.2,
}
ID_POOLS: tuple[tuple[str, ...], ...] = (
    tuple(ALL_CHARACTER_IDS), tuple(CARD_IDS), tuple(OPPORTUNITY_IDS) + tuple(ERRATA_OPPORTUNITY_IDS),
    ("fandonia",) + tuple(COUNTRIES), tuple(OFFICE_KEYS), tuple(PROBLEM_KEYS),
)
STRANGE: tuple[Any, ...] = ("bogus", "", "c999", "99", "george", "1981", "errata", None, -1, 0, 7, 2.5, True,
                            [], {}, [1, 2], {"x": 1})


# ---------------------------------------------------------------------------
# Base saves
# ---------------------------------------------------------------------------
def base_saves(games: int, seed: int, max_turns: int = 6, per_game: int = 6) -> list[str]:
    """JSON strings of positions at random points of ``games`` seeded random games (2-6 players,
    the presets in turn: 1981, errata and the others)."""
    presets = preset_names()
    rng = random.Random(seed)
    out: list[str] = []
    for i in range(games):
        n = 2 + i % 5
        preset = presets[(i + i // 5) % len(presets)] if presets else None  # every count with every preset
        rules = {"preset": preset} if preset else {}
        g = Game(players=n, seed=seed * 1000 + i, max_turns=max_turns, **rules)
        moves: list[int] = []
        while not g.over:  # play once to know the length, then replay to the save points
            moves.append(rng.choice(g.legal_actions()))
            g.apply(moves[-1])
        points = set(rng.sample(range(len(moves) + 1), min(per_game, len(moves) + 1)))
        g = Game(players=n, seed=seed * 1000 + i, max_turns=max_turns, **rules)
        for k in range(len(moves) + 1):
            if k in points:
                out.append(g.dumps())
            if k < len(moves):
                g.apply(moves[k])
    return out


# ---------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------
def _pick(doc: dict[str, Any], rng: random.Random) -> list[Any]:
    """A random path into the document: a weighted top-level field, then random descents."""
    keys = list(doc)
    key = rng.choices(keys, [WEIGHTS.get(k, 1.0) for k in keys])[0]
    path: list[Any] = [key]
    node = doc[key]
    while isinstance(node, (dict, list)) and node and rng.random() < 0.78:
        k = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(k)
        node = node[k]
    return path


def _other_id(v: str, rng: random.Random) -> Any:
    for pool in ID_POOLS:
        if v in pool:
            return rng.choice(pool)
    return rng.choice(rng.choice(ID_POOLS))


def _perturb(v: Any, rng: random.Random) -> Any:
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return rng.choice([v + 1, v - 1, -v, v + 5, v - 5, -50, -3, 0, 6, 7, 9, 10 ** 9, -(10 ** 9), 2 ** 70,
                           rng.randrange(NUM_ACTIONS)])
    if isinstance(v, str):
        return rng.choice([_other_id(v, rng), _other_id(v, rng), v + "x", "", v.upper(), "bogus"])
    if isinstance(v, float):
        return v + 1
    return rng.choice(STRANGE)


def _retype(v: Any, rng: random.Random) -> Any:
    if isinstance(v, bool):
        return rng.choice([int(v), str(v).lower(), None])
    if isinstance(v, int):
        return rng.choice([str(v), float(v), v + 0.5, None, [v], {"v": v}, True])
    if isinstance(v, str):
        return rng.choice([int(v) if v.isdigit() else 7, None, [v], {v: v}, True, 1.0])
    if isinstance(v, list):
        return rng.choice([{str(i): x for i, x in enumerate(v)}, None, "list", 0, tuple_free(v)])
    if isinstance(v, dict):
        return rng.choice([list(v.values()), list(v.keys()), None, "dict", 0])
    return rng.choice(STRANGE)


def tuple_free(v: list[Any]) -> Any:
    """A list nested one level deeper (a list where an element belongs)."""
    return [v]


def mutate(doc: dict[str, Any], rng: random.Random) -> str:
    """Apply one mutation at a random place of ``doc`` (in place); returns what was done."""
    path = _pick(doc, rng)
    parent: Any = doc
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    node = parent[key]
    op = rng.choice(["drop", "dup", "retype", "perturb", "perturb", "swap", "rename", "add", "clear", "replace",
                     "move_card", "plausible", "plausible"])
    if op == "plausible":
        return "plausible: " + _plausible(doc, rng)
    where = "/".join(map(str, path))
    if op == "drop":
        if isinstance(parent, dict):
            del parent[key]
        else:
            parent.pop(key)
    elif op == "dup":
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(node))
        elif isinstance(node, list) and node:
            node.append(copy.deepcopy(rng.choice(node)))
        elif isinstance(node, dict) and node:
            k2 = rng.choice(list(node))
            node[k2 + "_copy" if rng.random() < 0.5 else rng.choice(list(node))] = copy.deepcopy(node[k2])
        else:
            other = rng.choice(list(parent))
            parent[other] = copy.deepcopy(node)
    elif op == "retype":
        parent[key] = _retype(node, rng)
    elif op == "perturb":
        parent[key] = _perturb(node, rng)
    elif op == "swap":
        ks = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
        k2 = rng.choice(ks)
        parent[key], parent[k2] = parent[k2], parent[key]
        where += f" <-> {k2}"
    elif op == "rename" and isinstance(parent, dict):
        new = _perturb(key, rng) if rng.random() < 0.7 else rng.choice(list(parent))
        new = new if isinstance(new, str) else str(new)
        parent[new] = parent.pop(key)
        where += f" -> {new}"
    elif op == "add":
        target = node if isinstance(node, (dict, list)) else parent
        extra = copy.deepcopy(rng.choice(STRANGE))
        if isinstance(target, dict):
            target[rng.choice(["bogus", "p", "cid", "player", "0", "11"])] = extra
        else:
            target.append(extra)
    elif op == "clear" and isinstance(node, (dict, list)):
        parent[key] = type(node)()
    elif op == "move_card":
        _move_card(doc, rng)
        where = "a card moved between two places"
    else:
        parent[key] = copy.deepcopy(rng.choice(STRANGE))
        op = "replace"
    return f"{op} at {where}"


def _plausible(doc: dict[str, Any], rng: random.Random) -> str:
    """A change of one character, player or board field to another value it could have in some
    game (a flag flipped, a number moved by one, another seat, place or id of the right kind)."""
    try:
        n = len(doc["players"])
        where = rng.choice(["chars", "chars", "chars", "players", "board"])
        if where == "chars":
            cid = rng.choice(list(doc["chars"]))
            ch = doc["chars"][cid]
            f = rng.choice(list(ch))
        elif where == "players":
            ch = rng.choice(doc["players"])
            f = rng.choice(["ip", "pp", "lost_turns", "ball_mod", "free_counsel", "pc_dead_turn", "restricted_turn"])
        else:
            ch = doc
            f = rng.choice(["support", "turn", "first_player", "active", "crown", "wars", "problems_at_start",
                            "monarch", "phase", "forced_crown"])
        v = ch[f]
        if isinstance(v, bool):
            new: Any = not v
        elif f in ("owner", "active", "first_player"):
            new = rng.choice([None, *range(n)]) if f != "first_player" else rng.randrange(n)
        elif f == "location":
            new = rng.choice(("fandonia",) + tuple(COUNTRIES))
        elif f == "office":
            new = rng.choice((None,) + tuple(OFFICE_KEYS))
        elif f in ("spouse", "engaged_to", "monarch"):
            new = rng.choice((None,) + tuple(ALL_CHARACTER_IDS)) if f != "monarch" else rng.choice(ALL_CHARACTER_IDS)
        elif f == "pending_justice":
            new = rng.choice([None, "accuse", "accuse_dwtk", "hearing", "trial"])
        elif f == "fixed_status":
            new = rng.choice([None, 1, 5, 8])
        elif f == "support":
            new = v + rng.choice([-5, 5])
        elif f == "crown":
            new = rng.choice([None, "royal_death", "famine", "intrigue", "court_ball", "two_problems",
                              "one_problem", "scandal", "plague"])
        elif f == "wars":
            new = rng.sample(COUNTRIES, rng.randrange(3))
        elif f == "forced_crown":
            new = rng.sample(["court_ball", "one_problem", "royal_death"], rng.randrange(2))
        elif f == "phase":
            new = rng.choice(["offices", "problems", "crown_events", "player_turns", "player_turn", "end_of_turn"])
        elif f.endswith("_card"):
            new = None
        elif isinstance(v, int):
            new = v + rng.choice([-1, 1])
        else:
            return f"nothing ({where}.{f})"
        ch[f] = new
        return f"{where}.{f}: {v!r} -> {new!r}"
    except (KeyError, TypeError, IndexError, AttributeError, ValueError):
        return "nothing (an earlier mutation broke the document)"


def _move_card(doc: dict[str, Any], rng: random.Random) -> None:
    """Move a card (or a counter) from one place to another: a consistent change of the position."""
    try:
        places = [doc["deck"], doc["discard"]] + [p["hand"] for p in doc["players"]]
        src = rng.choice([p for p in places if p])
        dst = rng.choice(places)
        dst.append(src.pop(rng.randrange(len(src))))
    except (KeyError, TypeError, IndexError, AttributeError, ValueError):
        pass  # an earlier mutation broke the places: nothing to move


# ---------------------------------------------------------------------------
# One trial
# ---------------------------------------------------------------------------
def trial(save: str, rng: random.Random, max_moves: int) -> tuple[str, str]:
    """Mutate ``save`` and load it.  Returns (outcome, detail): ``"loaded"`` (and played on),
    ``"rejected"`` (StateError), or ``"bare"`` (any other exception; detail: the traceback)."""
    doc = json.loads(save)
    what = [mutate(doc, rng) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
    as_text = rng.random() < 0.25
    try:
        src: Any = json.dumps(doc) if as_text else doc
    except (TypeError, ValueError):
        as_text, src = False, doc
    before = json.dumps(doc, sort_keys=True) if rng.random() < 0.05 else None
    try:
        g = Game.from_json(src)
    except StateError as e:
        msg = str(e)
        if not msg:
            return "bare", f"{what}: StateError without a message"
        return "rejected", msg
    except Exception:  # noqa: BLE001 - this is what the test looks for
        return "bare", f"{what}: from_json raised\n{traceback.format_exc()}"
    if before is not None and json.dumps(doc, sort_keys=True) != before:
        return "bare", f"{what}: from_json modified the document it was given"
    try:
        play_on(g, rng, max_moves)
    except Exception:  # noqa: BLE001
        return "bare", f"{what}: the loaded game failed\n{traceback.format_exc()}"
    return "loaded", ", ".join(what)


def play_on(g: Game, rng: random.Random, max_moves: int) -> None:
    """Everything a front end does with a loaded game: views, observations, log, then random legal
    moves to the end (at most ``max_moves``) with the invariants after every step."""
    from fandonia_env.spaces.observation import encode

    check(g.state)
    for p in range(g.n_players):
        g.view(p)
        encode(g.state, p)
    g.log_lines()
    for _ in range(max_moves):
        if g.over:
            break
        legal = g.legal_actions()
        assert legal, "no legal action in a running game"
        g.apply(rng.choice(legal))
        check(g.state)


def run(saves: int, seed: int, games: int, max_turns: int, max_moves: int, show: int = 3,
        log: Any = None) -> Counter:
    base = base_saves(games, seed, max_turns)
    rng = random.Random(seed)
    counts: Counter = Counter()
    shown = 0
    for i in range(saves):
        outcome, detail = trial(rng.choice(base), random.Random(rng.getrandbits(64)), max_moves)
        counts[outcome] += 1
        if outcome == "bare" and shown < show and log is not None:
            shown += 1
            print(f"--- bare exception, trial {i}: {detail}", file=log)
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--saves", type=int, default=20000, help="mutated saves to try (default 20000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=40, help="games the base saves come from (default 40)")
    ap.add_argument("--max-turns", type=int, default=6, help="length of those games in turns (default 6)")
    ap.add_argument("--max-moves", type=int, default=120, help="moves played on after loading (default 120)")
    a = ap.parse_args()
    for name in ("saves", "games", "max_turns", "max_moves"):
        if getattr(a, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    t0 = time.perf_counter()
    counts = run(a.saves, a.seed, a.games, a.max_turns, a.max_moves, log=sys.stdout)
    dt = time.perf_counter() - t0
    print(f"{a.saves} mutated saves (seed {a.seed}, {a.games} base games of {a.max_turns} turns, "
          f"up to {a.max_moves} moves played on) in {dt:.0f}s:")
    print(f"  loaded and played on:     {counts['loaded']}")
    print(f"  rejected with StateError: {counts['rejected']}")
    print(f"  bare exceptions:          {counts['bare']}")
    return 1 if counts["bare"] else 0


if __name__ == "__main__":
    sys.exit(main())

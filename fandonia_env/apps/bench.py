"""Speed benchmark of the engine and the PettingZoo env, single process, one core.

    python -m fandonia_env.bench [--seconds 5] [--players 2,4,6] [--max-turns 100] [--markdown]

It writes no file (the table goes to stdout; ``--max-turns 0`` means no turn limit).

For each player count, with uniformly random legal play (seeded, so the games are the same
from run to run; only timings vary):

- ``engine dec/s``: decisions per second through ``Game.apply`` (``Game(...)`` creation included),
  whole games until about ``--seconds`` have passed (the last game is finished);
- ``engine games/s``: whole games per second in that loop (mean length in decisions and turns);
- ``AEC steps/s`` and ``AEC games/s``: the standard PettingZoo loop on ``fandonia_v0.env``
  (``env.agent_iter()``, ``env.last()``, ``np.flatnonzero(obs["action_mask"])``, ``env.step()``;
  ``env.step(None)`` for finished agents is not counted), as ``/work/shared/bench/peers.py`` does;
- ``clone/s``: ``Game.clone()`` of mid-game positions;
- ``JSON/s``: save + load round trips, ``Game.to_json`` -> ``json.dumps`` -> ``json.loads`` ->
  ``Game.from_json``, of the same positions;
- ``JSON KiB``: size of the saved game (``Game.dumps``) at those positions (the log included);
- ``KiB/env``: memory of one env at mid-game: an AEC env is stepped half the mean game length,
  then tracemalloc counts the bytes held by a ``copy.deepcopy`` of it (the whole env object
  graph: game state with its log, spaces, buffers; immutable strings and module-level tables
  are shared, as between real envs); and ``KiB/game``: the same for one ``Game.clone()`` of that position
  (a clone shares immutable strings with its original, so this is what one more copy costs).

- ``min cpu/wall``: the lowest process CPU time / wall time of the timed loops of the row; well
  below 1 means the machine was busy (shared cores) and the rates are low by about that factor.

``--markdown`` prints a block for docs/benchmarks.md: machine, Python, command and the table.
``run_bench(...)`` is the Python API (returns the rows as dicts).
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from .. import engine
from ..engine import Game

__all__ = [
    "COLUMNS", "bench_aec", "bench_clone_json", "bench_engine", "machine", "main", "markdown", "memory_per_env",
    "midgame_positions", "run_bench", "table",
]

_CPU: list[float] = []  # cpu/wall of every timed loop since the last run_bench row


def _timed(fn: Callable[[], tuple[int, ...]], seconds: float) -> tuple[list[int], int, float]:
    """Call fn (one untimed warm-up, then repeatedly until `seconds` passed); sum its counts."""
    fn()
    tot: list[int] = []
    calls = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    while True:
        r = fn()
        tot = [a + b for a, b in zip(tot, r)] if tot else list(r)
        calls += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            _CPU.append((time.process_time() - c0) / dt)
            return tot, calls, dt


def bench_engine(players: int, seconds: float, max_turns: int | None, seed: int = 0,
                rules: dict[str, Any] | None = None) -> dict[str, float]:
    rng = random.Random(seed)
    k = {"game": 0}

    def one() -> tuple[int, int]:
        g = Game(players=players, seed=seed + k["game"], max_turns=max_turns, **(rules or {}))
        k["game"] += 1
        choice = rng.choice
        while not g.over:
            g.apply(choice(g.legal_actions()))
        return g.state.steps, g.state.turn

    (dec, turns), games, dt = _timed(one, seconds)
    return {"engine_dec_s": dec / dt, "engine_games_s": games / dt, "mean_decisions": dec / games,
            "mean_turns": turns / games}


def bench_aec(players: int, seconds: float, max_turns: int | None, seed: int = 0,
                rules: dict[str, Any] | None = None) -> dict[str, float]:
    from ..envs.fandonia_v0 import env as make_env

    e = make_env(players=players, max_turns=max_turns, **(rules or {}))
    rng = random.Random(seed)
    flatnonzero = np.flatnonzero
    k = {"game": 0}

    def one() -> tuple[int]:
        e.reset(seed=seed) if k["game"] == 0 else e.reset()
        k["game"] += 1
        steps = 0
        for _agent in e.agent_iter():
            obs, _rew, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
            else:
                legal = flatnonzero(obs["action_mask"])
                e.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return (steps,)

    (steps,), games, dt = _timed(one, seconds)
    return {"aec_steps_s": steps / dt, "aec_games_s": games / dt}


def midgame_positions(players: int, max_turns: int | None, count: int = 4, seed: int = 0,
                rules: dict[str, Any] | None = None) -> list[Game]:
    """Positions half-way (in decisions) through random games."""
    out = []
    for i in range(count):
        g = Game(players=players, seed=seed + 1000 + i, max_turns=max_turns, **(rules or {}))
        rng = random.Random(i)
        moves = []
        while not g.over:
            moves.append(rng.choice(g.legal_actions()))
            g.apply(moves[-1])
        g = Game(players=players, seed=seed + 1000 + i, max_turns=max_turns, **(rules or {}))
        for a in moves[: len(moves) // 2]:
            g.apply(a)
        out.append(g)
    return out


def bench_clone_json(positions: Sequence[Game], seconds: float) -> dict[str, float]:
    def clones() -> tuple[int]:
        for g in positions:
            g.clone()
        return (len(positions),)

    def roundtrips() -> tuple[int]:
        for g in positions:
            Game.from_json(json.loads(json.dumps(g.to_json())))
        return (len(positions),)

    (c,), _, dt = _timed(clones, seconds)
    (j,), _, dt2 = _timed(roundtrips, seconds)
    size = float(np.mean([len(g.dumps()) for g in positions]))
    return {"clone_s": c / dt, "json_s": j / dt2, "json_kib": size / 1024}


def memory_per_env(players: int, max_turns: int | None, mid: int, seed: int = 0,
                rules: dict[str, Any] | None = None) -> dict[str, float]:
    """tracemalloc of one AEC env after ``mid`` random steps (and of one Game clone of it)."""
    from ..envs.fandonia_v0 import env as make_env

    def mid_env(steps: int) -> Any:
        e = make_env(players=players, max_turns=max_turns, **(rules or {}))
        e.reset(seed=seed)
        rng = random.Random(seed)
        for i, _agent in enumerate(e.agent_iter()):
            if i >= steps:
                break
            obs, _r, term, trunc, _i = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        return e

    e = mid_env(mid)  # built untraced (tracing the whole game would take ~10x longer)
    g = e.unwrapped.game
    copy.deepcopy(e)  # warm-up
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        e2 = copy.deepcopy(e)
        gc.collect()
        env_bytes = tracemalloc.get_traced_memory()[0] - base
        base2 = tracemalloc.get_traced_memory()[0]
        c = g.clone()
        game_bytes = tracemalloc.get_traced_memory()[0] - base2
        del c, e2
    finally:
        tracemalloc.stop()
    return {"env_kib": env_bytes / 1024, "game_kib": game_bytes / 1024}


def run_bench(players: Iterable[int] = (2, 4, 6), seconds: float = 5.0, max_turns: int | None = 100,
              seed: int = 0, progress: bool = False, rules: dict[str, Any] | None = None) -> list[dict[str, float]]:
    """``rules``: ``preset``/``edition``/``optional`` keyword arguments for every game."""
    rows = []
    for n in players:
        if progress:
            print(f"bench: {n} players ...", file=sys.stderr, flush=True)
        row: dict[str, float] = {"players": n}
        _CPU.clear()
        row.update(bench_engine(n, seconds, max_turns, seed, rules))
        row.update(bench_aec(n, seconds, max_turns, seed, rules))
        row.update(bench_clone_json(midgame_positions(n, max_turns, seed=seed, rules=rules), seconds))
        row.update(memory_per_env(n, max_turns, int(row["mean_decisions"]) // 2, seed, rules))
        row["cpu_over_wall"] = min(_CPU)
        rows.append(row)
    return rows


COLUMNS = [
    ("players", "players", "{:.0f}"),
    ("engine_dec_s", "engine dec/s", "{:,.0f}"),
    ("engine_games_s", "engine games/s", "{:.2f}"),
    ("mean_decisions", "dec/game", "{:.0f}"),
    ("mean_turns", "turns/game", "{:.1f}"),
    ("aec_steps_s", "AEC steps/s", "{:,.0f}"),
    ("aec_games_s", "AEC games/s", "{:.2f}"),
    ("clone_s", "clone/s", "{:,.0f}"),
    ("json_s", "JSON save+load/s", "{:,.0f}"),
    ("json_kib", "JSON KiB", "{:.0f}"),
    ("env_kib", "KiB/env", "{:.0f}"),
    ("game_kib", "KiB/game", "{:.0f}"),
    ("cpu_over_wall", "min cpu/wall", "{:.2f}"),
]


def table(rows: Sequence[dict[str, float]]) -> str:
    out = ["| " + " | ".join(h for _, h, _ in COLUMNS) + " |",
           "|" + "|".join("---:" for _ in COLUMNS) + "|"]
    for r in rows:
        out.append("| " + " | ".join(f.format(r[k]) for k, _, f in COLUMNS) + " |")
    return "\n".join(out)


def machine() -> dict[str, str]:
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        nproc = len(os.sched_getaffinity(0))
    except AttributeError:
        nproc = os.cpu_count() or 0
    return {"platform": platform.platform(), "cpu": cpu, "nproc": str(nproc),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "numpy": np.__version__, "engine": "compiled (mypyc)" if engine.COMPILED else "pure Python"}


def markdown(rows: Sequence[dict[str, float]], command: str) -> str:
    m = machine()
    return (f"Command: `{command}`\n\n"
            f"Machine: {m['platform']}; CPU {m['cpu']}; nproc {m['nproc']}; {m['python']}, numpy {m['numpy']}; "
            f"engine {m['engine']}; single process, one core.\n\n{table(rows)}\n")


def main(argv: Iterable[str] | None = None) -> int:
    argv = list(argv) if argv is not None else None
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.bench",
                                 description="Speed of the engine and the PettingZoo env (random legal play).")
    from ..tools.cli import add_rules_args, max_turns_arg, player_counts_arg, positive_float, rules_from_args, seed_arg

    ap.add_argument("--seconds", type=positive_float, default=5.0, help="time per measurement, > 0 (default 5)")
    ap.add_argument("--players", type=player_counts_arg, default="2,4,6",
                    help="player counts 2..6, like 4, 2,4,6 or 2-6 (default 2,4,6)")
    ap.add_argument("--max-turns", type=max_turns_arg, default=100,
                    help="turn limit, 0 for none (default 100, as the env)")
    ap.add_argument("--seed", type=seed_arg, default=0, help="first game seed, >= 0 (default 0)")
    ap.add_argument("--markdown", action="store_true", help="print a block for docs/benchmarks.md")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON lines too")
    add_rules_args(ap)
    a = ap.parse_args(argv)
    rules = rules_from_args(a, ap)
    rows = run_bench(a.players, a.seconds, a.max_turns, a.seed, progress=True, rules=rules)
    if a.markdown:
        args = argv if argv is not None else sys.argv[1:]
        print(markdown(rows, " ".join(["python -m fandonia_env.bench", *args])))
    else:
        print(table(rows))
    if a.json:
        for r in rows:
            print(json.dumps(r))
    return 0

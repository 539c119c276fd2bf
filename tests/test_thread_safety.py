"""Games stepped in several threads at once come out as each played alone (issue 26).

The engine keeps no state of a game outside the game: a main decision's character scan and the
remembered ruleset live on the ``GameState`` (``queries.open_scan``, ``ruleset.ruleset``), never in
a module.  Four threads each play seeded random games of every preset with the interpreter switching
threads as often as it can (``sys.setswitchinterval(1e-6)``); every game's final save, step count and
result must equal the same game played alone.  (``test_global_state.py`` checks the cause: no engine
module changes while games are played.)
"""

from __future__ import annotations

import random
import sys
import threading
from typing import Any

import pytest

from fandonia_env.engine import Game
from fandonia_env.engine.core.options import preset_names

THREADS = 4
#: (players, seed) of the games each thread plays, one after another, in every preset
GAMES: tuple[tuple[int, int], ...] = ((4, 11), (3, 12), (5, 13), (2, 14))


def _play(preset: str, players: int, seed: int, chance: str = "sampled") -> dict[str, Any]:
    """A seeded random game to its end (or 40 turns); its save."""
    g = Game(players=players, seed=seed, preset=preset, max_turns=40, chance=chance)
    rng = random.Random(seed * 7919 + players)
    while not g.over:
        if g.is_chance_node():  # explicit chance: the caller draws the outcome
            outcomes = g.chance_outcomes()
            g.apply_chance(rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0])
            continue
        g.legal_actions()  # the scanned path (activity_options) and the option lists, as a player asks
        g.apply(rng.choice(g.legal_actions()))
        if g.state.steps % 97 == 0:
            g.clone()  # clones made mid-game share characters copy-on-write with the game
    return g.to_json()


def _run_in_threads(jobs: list[tuple[str, int, int, str]]) -> list[dict[str, Any] | BaseException]:
    """Each thread plays its share of ``jobs`` (round-robin) while the others play theirs."""
    out: list[dict[str, Any] | BaseException | None] = [None] * len(jobs)
    start = threading.Barrier(THREADS)

    def worker(k: int) -> None:
        start.wait()
        for i in range(k, len(jobs), THREADS):
            try:
                out[i] = _play(*jobs[i])
            except BaseException as e:  # noqa: BLE001 - reported by the test
                out[i] = e

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    return [x if x is not None else RuntimeError("not played") for x in out]


@pytest.mark.parametrize("preset", preset_names())
def test_games_in_four_threads_equal_their_solo_runs(preset: str) -> None:
    jobs = [(preset, players, seed + 100 * k, "sampled") for k in range(THREADS) for players, seed in GAMES[:2]]
    solo = [_play(*job) for job in jobs]
    threaded = _run_in_threads(jobs)
    for job, alone, together in zip(jobs, solo, threaded, strict=True):
        if isinstance(together, BaseException):
            raise AssertionError(f"game {job} raised in a thread: {together!r}") from together
        assert together == alone, f"game {job} played in a thread differs from the same game played alone"


def test_explicit_chance_games_in_threads_equal_their_solo_runs() -> None:
    """The explicit-chance mode (chance nodes decided by the caller) as well, mixed with sampled games."""
    jobs = [(preset, players, seed, chance) for (players, seed), preset, chance in zip(
        GAMES * 2, ["1981", "errata", "1981-all-optional", "errata-all-optional"] * 2,
        ["explicit", "sampled"] * 4, strict=True)]
    solo = [_play(*job) for job in jobs]
    threaded = _run_in_threads(jobs)
    for job, alone, together in zip(jobs, solo, threaded, strict=True):
        assert not isinstance(together, BaseException), f"game {job} raised in a thread: {together!r}"
        assert together == alone, f"game {job} played in a thread differs from the same game played alone"

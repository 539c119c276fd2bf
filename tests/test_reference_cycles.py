"""A game leaves no reference cycle behind: its state is freed by reference counting as soon as the
last reference goes, not kept (with its log and characters) until Python's cyclic collector runs.

A closure stored on an object it reads (the Court Ball's designation once read the ``Ctx`` holding it)
makes such a cycle; the cycle holds the state, so every finished game lived on in memory and the
collector had the whole of it to walk and clear."""

from __future__ import annotations

import gc
import random

import pytest

from fandonia_env.engine import Game
from fandonia_env.engine.core.options import preset_names


def _cyclic_garbage(preset: str, games: int) -> dict[str, int]:
    """Types (and counts) of the objects the cyclic collector finds after ``games`` random games."""
    was = gc.isenabled()
    gc.disable()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        rng = random.Random(preset)
        for s in range(games):
            g = Game(players=rng.choice((2, 4, 6)), seed=s, max_turns=60, preset=preset)
            while not g.over:
                g.apply(rng.choice(g.legal_actions()))
            g.clone()
            del g
        gc.collect()
        found: dict[str, int] = {}
        for o in gc.garbage:
            found[type(o).__name__] = found.get(type(o).__name__, 0) + 1
        return found
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


@pytest.mark.parametrize("preset", preset_names())
def test_finished_games_leave_no_reference_cycle(preset: str) -> None:
    found = _cyclic_garbage(preset, games=6)
    engine_types = {"GameState", "Character", "Player", "Frame", "Ctx", "RNG"}
    assert not engine_types & set(found), f"cyclic garbage after random games ({preset}): {found}"

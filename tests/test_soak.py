"""Random-play soak (CI size): complete games with random legal choices across 2-6 players,
checking every invariant and clone equality after every step, and the JSON round trip every
7 steps (and after every step in five shorter games).

The long soak is ``python scripts/soak.py --games 2000 --roundtrip``."""

from __future__ import annotations

import json
import random

import pytest

from fandonia_env.engine import Game
from fandonia_env.engine.face.invariants import check
from fandonia_env.spaces.observation import DECISION_KINDS

GAMES = 100
MAX_TURNS = 40


def _play(n: int, seed: int) -> Game:
    g = Game(players=n, seed=seed, max_turns=MAX_TURNS)
    rng = random.Random(seed)
    check(g.state)
    step = 0
    while not g.over:
        assert g.legal_actions(), "no legal choice in a running game"
        kind = g.decision()["kind"]
        assert kind in DECISION_KINDS, f"decision kind {kind!r} unknown to the observation encoder"
        g.apply(rng.choice(g.legal_actions()))
        check(g.state)
        step += 1
        c = g.clone()
        assert c.state == g.state
        if step % 7 == 0 or g.over:
            j = Game.from_json(json.loads(json.dumps(g.to_json())))
            assert j.state == g.state
    assert g.result in ("win", "draw", "truncated")
    return g


@pytest.mark.parametrize("block", range(10))
def test_random_play_soak_invariants(block):
    for k in range(GAMES // 10):
        i = block * (GAMES // 10) + k
        _play(2 + i % 5, 1000 + i)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_clone_and_json_round_trip_equal_after_every_step(n):
    """A shorter soak that checks clone and JSON equality after every single step."""
    g = Game(players=n, seed=500 + n, max_turns=8)
    rng = random.Random(n)
    while not g.over:
        g.apply(rng.choice(g.legal_actions()))
        check(g.state)
        c = g.clone()
        assert c.state == g.state
        j = Game.from_json(json.loads(json.dumps(g.to_json())))
        assert j.state == g.state and j.legal_actions() == g.legal_actions()

"""Search over chance nodes (games made with ``chance="explicit"``; ``docs/engine.md``, "Chance nodes").

``chance_children`` expands a chance node into (probability, child game) pairs, ``sample_chance``
picks one outcome by its probability, and ``expectimax`` is a small depth-limited reference search
built on them.  Probabilities are exact ``Fraction`` s.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from .game import Game

__all__ = ["chance_children", "expectimax", "sample_chance"]


def chance_children(game: Game) -> Iterator[tuple[Fraction, Game]]:
    """For each outcome of the pending chance node: its probability and a clone of the game with the
    outcome applied (run on to the next decision or chance node).  Nothing when no chance node is
    pending.  The probabilities sum to 1."""
    for outcome, p in game.chance_outcomes():
        child = game.clone()
        child.apply_chance(outcome)
        yield p, child


def sample_chance(game: Game, rng: random.Random) -> Any:
    """One outcome of the pending chance node drawn with its probability (``rng``: the caller's own
    generator, never the game's)."""
    outs = game.chance_outcomes()
    if not outs:
        raise ValueError("no chance node is pending")
    x = Fraction(rng.random())  # exact comparison with the exact probabilities
    acc = Fraction(0)
    for outcome, p in outs:
        acc += p
        if x < acc:
            return outcome
    return outs[-1][0]


def expectimax(game: Game, value: Callable[[Game], Any], player: int, depth: int) -> Any:
    """The expected ``value`` (a number, from ``player``'s point of view) of the game searched
    ``depth`` nodes deep: the maximum over ``player``'s actions, the mean over another player's
    (a uniformly random opponent), the probability-weighted sum over a chance node's outcomes.
    ``value`` is applied at depth 0 and at the end of the game.  Exact with ``Fraction`` or int values."""
    if depth <= 0 or game.over:
        return value(game)
    if game.is_chance_node():
        return sum((p * expectimax(child, value, player, depth - 1) for p, child in chance_children(game)),
                   Fraction(0))
    vals = []
    for a in game.legal_actions():
        child = game.clone()
        child.apply(a)
        vals.append(expectimax(child, value, player, depth - 1))
    if game.current_player() == player:
        return max(vals)
    return sum(vals, Fraction(0)) / len(vals)

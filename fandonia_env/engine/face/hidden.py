"""Resampling hidden information consistently with one player's view.

Used by leak tests (a view must not change when the information it hides changes) and by
search agents (determinisation, PIMC/ISMCTS).  ``resample(state, observer, rng)`` returns a
copy in which the other players' hands, their drawn Loyalty and Opportunity counters, the
order of the Event pile and of the counter pools, and the future dice are redrawn at random,
keeping every count
the observer can see (hand sizes, counters drawn, pile size) and every card whose place is
public (discards, played cards, DOWN WITH THE KING cards, which each player holds exactly one of).
"""

from __future__ import annotations

import random

from ..core.rng import RNG
from ..core.state import GameState
from ..data.components import CARD_TYPE_OF


def resample(state: GameState, observer: int, rng: random.Random) -> GameState:
    s = state.clone()
    others = [pl for pl in s.players if pl.idx != observer]
    # Event cards: other hands (except their DWTK) and the pile are one hidden pool.
    pool = list(s.deck)
    sizes = []
    for pl in others:
        keep = [c for c in pl.hand if CARD_TYPE_OF[c] == "dwtk"]
        hidden = [c for c in pl.hand if CARD_TYPE_OF[c] != "dwtk"]
        pool.extend(hidden)
        sizes.append((pl, keep, len(hidden)))
    rng.shuffle(pool)
    for pl, keep, k in sizes:
        pl.hand = keep + [pool.pop() for _ in range(k)]
    s.deck = pool
    # Loyalty and Opportunity counters drawn by others, and the pools.
    s.loyalty_pool = _redeal(rng, s.loyalty_pool, others, "loyalty_drawn")
    s.opportunity_pool = _redeal(rng, s.opportunity_pool, others, "opportunity_drawn")
    # Future dice and shuffles are unknown too: a fresh generator (nothing scripted).
    s.rng = RNG(rng.getrandbits(63))
    return s


def _redeal(rng: random.Random, pool: list[str], others: list, attr: str) -> list[str]:
    """Shuffle the pool with the counters the others drew and deal them the same numbers."""
    pool = list(pool)
    for pl in others:
        pool.extend(getattr(pl, attr))
    rng.shuffle(pool)
    for pl in others:
        k = len(getattr(pl, attr))
        setattr(pl, attr, [pool.pop() for _ in range(k)])
    return pool


class InfoSet:
    """What a search agent may use besides its view: determinisations of the game.

    ``sample(rng)`` returns a ``GameState`` equal to the true one in everything ``player``
    may know, with everything hidden from him (other hands, drawn counters, pile order,
    future dice) redrawn at random.  Agents receive an ``InfoSet``, never the state itself.
    """

    __slots__ = ("_state", "player")

    def __init__(self, state: GameState, player: int) -> None:
        self._state = state
        self.player = player

    def sample(self, rng: random.Random) -> GameState:
        return resample(self._state, self.player, rng)
def reseed(state: GameState, seed: int) -> None:
    """Draw ``state``'s future dice and shuffles from ``seed`` (a fresh generator): a search's world
    played again with other luck."""
    state.rng = RNG(seed)


def seat_information(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state that agrees with ``state`` on everything ``seat`` may know and on nothing else.

    Everything hidden from ``seat`` is first dealt in a canonical way (the hidden Event cards, and
    each kind of drawn counter, pooled, sorted and dealt back in seat order, keeping every count),
    then resampled (``resample``): the result depends only on ``seat``'s view and ``rng``, never
    on where the hidden cards really are.  The bot protocol's saved-game positions and the search
    noble's worlds are made this way (one rule query, issue 27)."""
    s = state.clone()
    others = [pl for pl in s.players if pl.idx != seat]
    pool = list(s.deck)
    deal = []
    for pl in others:
        keep = [c for c in pl.hand if CARD_TYPE_OF[c] == "dwtk"]  # public: each player holds exactly one
        hidden = [c for c in pl.hand if CARD_TYPE_OF[c] != "dwtk"]
        pool += hidden
        deal.append((pl, keep, len(hidden)))
    pool.sort()
    for pl, keep, k in deal:
        pl.hand, pool = keep + pool[:k], pool[k:]
    s.deck = pool
    for drawn, pool_name in (("loyalty_drawn", "loyalty_pool"), ("opportunity_drawn", "opportunity_pool")):
        pool = list(getattr(s, pool_name))
        for pl in others:
            pool += getattr(pl, drawn)
        pool.sort()
        for pl in others:
            k = len(getattr(pl, drawn))
            setattr(pl, drawn, pool[:k])
            pool = pool[k:]
        setattr(s, pool_name, pool)
    return resample(s, seat, rng)

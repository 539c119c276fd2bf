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

from .data.components import CARD_TYPE_OF
from .rng import RNG
from .state import GameState


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
    # Loyalty counters drawn by others and the pool.
    lpool = list(s.loyalty_pool)
    for pl in others:
        lpool.extend(pl.loyalty_drawn)
    rng.shuffle(lpool)
    for pl in others:
        k = len(pl.loyalty_drawn)
        pl.loyalty_drawn = [lpool.pop() for _ in range(k)]
    s.loyalty_pool = lpool
    # Opportunity counters likewise.
    opool = list(s.opportunity_pool)
    for pl in others:
        opool.extend(pl.opportunity_drawn)
    rng.shuffle(opool)
    for pl in others:
        k = len(pl.opportunity_drawn)
        pl.opportunity_drawn = [opool.pop() for _ in range(k)]
    s.opportunity_pool = opool
    # Future dice and shuffles are unknown too: a fresh generator (nothing scripted).
    s.rng = RNG(rng.getrandbits(63))
    return s


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

"""Belief features: what a seat can believe about the Support cards its opponents hide (issue 27).

The rule features (``rule_features.py``) give every opponent's usurpation odds from the Support
cards in front of him only: his hand is hidden.  But the scripted nobles keep their Support cards
in hand until they usurp, so those face-up odds hardly tell who is about to take the throne
(``scripts/belief_probe.py``: ROC area 0.53 for "this opponent wins within 3 turns").  A seat can
do much better from what it sees: the cards it cannot see are a known multiset (the Event pile and
the other hands, ``rule_queries.hidden_pool``), and each hidden card of an opponent is one of them.
Taking each as an independent draw from that pool gives his expected odds in closed form
(``rule_queries.belief_usurpation_chance``; ROC area 0.92-0.94 in the probe, the true hands' 0.97).
For the seat k places after (k = 1..5; zeros for absent seats):

* ``opp{k}_belief_best``: that mixture belief of his best usurpation odds now (0 when no Monarch
  reigns or he may not usurp);
* ``opp{k}_hidden_cards``: the cards of his hand other than his DOWN WITH THE KING card, / 10;
* ``opp{k}_support_share``: the Support cards he is expected to hide (his hidden cards times the
  Support cards' share of the hidden pool), / 5, clipped to 1 -- how much his hand may add, also
  while no Monarch reigns or he cannot usurp (when the odds say nothing).

Every value is a pure function of what ``player_view`` shows (``tests/test_belief_features.py``:
the same bytes from the state and from the view, and unchanged when everything hidden is redrawn).
``encode_belief_features(src, p)`` takes a ``GameState`` or ``p``'s view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.face.seat import SeatView
from ..engine.rules.rule_queries import belief_usurpation_chance, facts, hidden_hand_size, hidden_pool, support_count

MAX_PLAYERS = 6
BELIEF_FEATURES: tuple[str, ...] = tuple(
    f"opp{k}_{f}" for k in range(1, MAX_PLAYERS) for f in ("belief_best", "hidden_cards", "support_share"))
BELIEF_FEATURES_SIZE: int = len(BELIEF_FEATURES)
_PER_OPP = 3


def encode_belief_features(src: Any, p: int) -> np.ndarray:
    """The belief features of seat ``p`` (float32, ``BELIEF_FEATURES_SIZE``) from ``p``'s ``SeatView``, his
    view (``engine.player_view``, a dict) or a ``GameState`` (read through his ``SeatView``)."""
    if not isinstance(src, (dict, SeatView)):  # a GameState: read through the seat's view
        src = SeatView.of(src, p)
    f = facts(src)
    n = src["n_players"] if isinstance(src, dict) else src.n
    out = np.zeros(BELIEF_FEATURES_SIZE, dtype=np.float32)
    pool = hidden_pool(f, p)
    total = sum(k for _, k in pool)
    share = support_count(pool) / total if total else 0.0
    for k in range(1, n):
        q = (p + k) % n
        hidden = hidden_hand_size(f, q)
        i = _PER_OPP * (k - 1)
        out[i] = belief_usurpation_chance(f, p, q, pool)
        out[i + 1] = hidden / 10.0
        out[i + 2] = min(1.0, hidden * share / 5.0)
    return out

"""Rule features: what the engine's rule queries answer about a position, for one seat.

A network can in principle learn the odds of a usurpation from the raw observation (the Support
cards in front by type, the spouses, statuses, factions...), but the odds are an exact
convolution of a dozen dice distributions with edition-dependent multipliers: hard to learn from
a few hundred thousand decisions, and the one choice that decides most games (issue 10's probes:
handing only the usurpation choice of a trained policy to exact odds lifts its win share against
3x ``noble-rule-v1`` from 0.22 to 0.31).  So this block hands a policy the answers of
``engine.rule_queries`` directly, computed from the seat's own view or from the state (the two
agree: ``tests/test_rule_features.py``):

* ``me_best_hand`` / ``me_best_front``: the seat's best P(usurpation succeeds) now, with every
  Support card in hand and in front played / with those in front only; ``me_can_usurp``;
* ``opp{k}_best_front`` / ``opp{k}_can_usurp`` for the seat k places after (k = 1..5): the best
  odds the opponent has from the cards in front of him (his hand is hidden);
* ``usurp_hand_<cid>`` / ``usurp_ok_<cid>`` for every character: the odds with that royal as the
  seat's usurper, and whether he may be;
* ``monarch``, ``gains_halved`` and ``pp_price / 10``.

Every value is a pure function of what ``player_view`` shows, so the block carries no hidden
information.  ``encode_rule_features(src, p)`` takes a ``GameState`` or ``p``'s view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.data.components import ALL_CHARACTER_IDS
from ..engine.face.seat import SeatView
from ..engine.rules.rule_queries import PartsMemo, facts, gains_halved, pp_price, usurpation_chance, usurpers

MAX_PLAYERS = 6
RULE_FEATURES: tuple[str, ...] = tuple(
    ["me_best_hand", "me_best_front", "me_can_usurp"]
    + [f"opp{k}_{f}" for k in range(1, MAX_PLAYERS) for f in ("best_front", "can_usurp")]
    + [f"usurp_hand_{c}" for c in ALL_CHARACTER_IDS]
    + [f"usurp_ok_{c}" for c in ALL_CHARACTER_IDS]
    + ["monarch", "gains_halved", "pp_price"])
RULE_FEATURES_SIZE: int = len(RULE_FEATURES)
_ROW = {c: i for i, c in enumerate(ALL_CHARACTER_IDS)}
_N = len(ALL_CHARACTER_IDS)
_OPP = 3
_HAND = _OPP + 2 * (MAX_PLAYERS - 1)
_OK = _HAND + _N
_TAIL = _OK + _N
assert _TAIL + 3 == RULE_FEATURES_SIZE


def encode_rule_features(src: Any, p: int) -> np.ndarray:
    """The rule features of seat ``p`` (float32, ``RULE_FEATURES_SIZE``) from ``p``'s ``SeatView``, his
    view (``engine.player_view``, a dict) or a ``GameState`` (read through his ``SeatView``)."""
    if not isinstance(src, (dict, SeatView)):  # a GameState: read through the seat's view
        src = SeatView.of(src, p)
    f = facts(src)
    n = src["n_players"] if isinstance(src, dict) else src.n
    out = np.zeros(RULE_FEATURES_SIZE, dtype=np.float32)
    if f.monarch is not None:
        out[_TAIL] = 1.0
        best_h = best_f = 0.0
        memo = PartsMemo()  # every attempt below is on this one position
        cands = usurpers(f, p)
        for c in cands:
            ph = usurpation_chance(f, p, c, True, memo)
            out[_HAND + _ROW[c]] = ph
            out[_OK + _ROW[c]] = 1.0
            best_h = max(best_h, ph)
            best_f = max(best_f, usurpation_chance(f, p, c, False, memo))
        out[0], out[1], out[2] = best_h, best_f, float(bool(cands))
        for k in range(1, n):
            q = (p + k) % n
            qc = usurpers(f, q)
            if qc:
                out[_OPP + 2 * (k - 1)] = max(usurpation_chance(f, q, c, False, memo) for c in qc)
                out[_OPP + 2 * (k - 1) + 1] = 1.0
    out[_TAIL + 1] = float(gains_halved(f, p))
    out[_TAIL + 2] = pp_price(f) / 10.0
    return out

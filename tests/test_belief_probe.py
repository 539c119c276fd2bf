"""scripts/belief_probe.py (issue 27): its ROC area, and the closed-form belief about an opponent's
hidden Support cards it scores (``rule_queries.belief_usurpation_chance``): it reads only what the
seat may know, and with no hidden cards it is the face-up odds."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
from helpers import random_moves

from fandonia_env.engine import Game
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.face.hidden import resample
from fandonia_env.engine.rules.rule_queries import belief_usurpation_chance, best_usurpation

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("belief_probe", ROOT / "scripts" / "belief_probe.py")
bp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bp)


def test_auc_counts_pairs_and_ties() -> None:
    assert bp.auc(np.array([0.1, 0.2, 0.3, 0.4]), np.array([0, 0, 1, 1])) == 1.0
    assert bp.auc(np.array([0.4, 0.3, 0.2, 0.1]), np.array([0, 0, 1, 1])) == 0.0
    assert bp.auc(np.array([0.5, 0.5, 0.5, 0.5]), np.array([0, 1, 0, 1])) == 0.5
    assert bp.auc(np.array([0.1, 0.3, 0.2, 0.4]), np.array([0, 1, 0, 1])) == 1.0
    assert np.isnan(bp.auc(np.array([0.1, 0.2]), np.array([1, 1])))


def _positions(edition: str) -> list[Game]:
    out = []
    for seed in range(3):
        g = Game(players=4, seed=300 + seed, max_turns=30, edition=edition)
        for i in random_moves(g, random.Random(seed)):
            if g.state.monarch is not None and i % 7 == 0:
                out.append(g.clone())
    return out


def test_mixture_belief_reads_only_the_seats_information_and_without_hidden_cards_is_the_face_up_odds() -> None:
    rng = random.Random(1)
    checked = hidden_odds = 0
    for edition in ("1981", "errata"):
        for g in _positions(edition)[::4]:
            st = g.state
            for seat in range(4):
                for o in range(4):
                    if o == seat:
                        continue
                    q = belief_usurpation_chance(st, seat, o)
                    assert 0.0 <= q <= 1.0
                    # everything hidden from the seat redrawn: the same belief
                    assert belief_usurpation_chance(resample(st, seat, rng), seat, o) == q
                    if not [c for c in st.players[o].hand if CARD_TYPE_OF[c] != "dwtk"]:
                        assert abs(q - best_usurpation(st, o, with_hand=False)[1]) < 1e-12
                    hidden_odds += q > best_usurpation(st, o, with_hand=False)[1]
                    checked += 1
    assert checked >= 50 and hidden_odds > 0

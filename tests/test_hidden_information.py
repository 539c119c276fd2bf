"""Hidden information (§14.4, §11, §12; ruling R10): a player's view and legal choices
do not change when other players' hands and drawn counters are resampled."""

from __future__ import annotations

import random

import pytest
from helpers import random_moves

from fandonia_env.engine import Game
from fandonia_env.engine.face.game import player_view
from fandonia_env.engine.face.hidden import resample
from fandonia_env.engine.face.invariants import check


@pytest.mark.parametrize("n", [2, 4, 6])
def test_14_4_views_unchanged_when_others_hidden_cards_and_counters_resampled(n):
    g = Game(players=n, seed=100 + n, max_turns=6)
    rng = random.Random(n)
    for _ in random_moves(g, rng, 400):
        st = g.state
        for i in range(n):
            r = resample(st, i, rng)
            check(r)
            assert player_view(r, i) == player_view(st, i)
            if g.current_player() == i:
                assert Game.from_state(r, advance=False).legal_actions() == g.legal_actions()


def test_r10_other_players_decisions_are_not_in_a_view():
    g = Game(players=4, seed=7, max_turns=3)
    for _ in random_moves(g, random.Random(7), 60):
        p = g.current_player()
        for i in range(4):
            v = g.view(i)
            if i == p:
                assert v["decision"] is not None and v["decision"]["options"] == g.legal_actions()
            else:
                assert v["decision"] is None
                assert v["hand"] == sorted(v["hand"])  # own hand only, as types


def test_views_never_contain_other_hands():
    g = Game(players=3, seed=2)
    v = g.view(0)
    assert "hand" in v and len(v["hand"]) == len(g.state.players[0].hand)
    for pl in v["players"]:
        assert "hand" not in pl and "loyalty_drawn" not in pl and "opportunity_drawn" not in pl

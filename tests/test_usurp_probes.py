"""scripts/usurp_probes.py (issue 27): the usurpation-timing probes play legal games, the
threshold noble usurps exactly where its chance reaches the threshold, and bad knobs are refused."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import fandonia_env.agents as reg
from fandonia_env.engine import Game
from fandonia_env.engine.face.hidden import InfoSet

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("usurp_probes", ROOT / "scripts" / "usurp_probes.py")
up = importlib.util.module_from_spec(_spec)
sys.modules["usurp_probes"] = up
_spec.loader.exec_module(up)
W = str(ROOT / "fandonia_env" / "agents" / "weights" / "noble-ppo-v2.npz")


def _play(probe, seed: int, turns: int = 30, ref=None):
    """A 4-player game with ``probe`` in seat 0 and noble-ppo-v2 elsewhere: (game, seat 0's decisions
    as (usurpation chance, action, the action ``ref`` takes there))."""
    bots = [probe] + [reg.make_agent("noble-ppo-v2", seed=i) for i in range(1, 4)]
    g = Game(players=4, seed=seed, max_turns=turns, preset="errata")
    mine = []
    while not g.over:
        p, legal = g.current_player(), g.legal_actions()
        view = g.view(p, log=False)
        a = bots[p].act(view, legal, InfoSet(g.state, p))
        assert a in legal
        if p == 0:
            r = ref.act(view, legal, InfoSet(g.state, p)) if ref is not None else None
            mine.append((up._usurp_chance(view, legal), a, r))
        g.apply(a)
    return g, mine


def test_threshold_usurper_usurps_exactly_where_its_chance_reaches_the_threshold():
    g, mine = _play(up._thr(f"thr:{W}?t=0.3", seed=1), seed=11, ref=reg.make_agent(f"ppo:{W}"))
    reached = [a for ch, a, _ in mine if ch >= 0.3]
    assert reached, "the deal gives seat 0 no usurpation chance of 0.3: pick another seed"
    assert all(a == up.USURP for a in reached)
    assert any(r != up.USURP for ch, _, r in mine if ch >= 0.3), "the network alone would usurp there too"
    assert all(a == r for ch, a, r in mine if ch < 0.3)  # elsewhere it is the network


def test_threshold_above_one_is_refused_and_unknown_knobs_named():
    with pytest.raises(ValueError, match=r"t must be a chance in \[0, 1\]"):
        up._thr(f"thr:{W}?t=1.5")
    with pytest.raises(ValueError, match="unknown thr: knob"):
        up._thr(f"thr:{W}?x=1")
    with pytest.raises(ValueError, match=r"lo must be a chance"):
        up._us(f"us:{W}?lo=nan")


def test_usurp_searcher_searches_only_usurpation_decisions():
    probe = up._us(f"us:{W}?lo=0.0&simulations=4&determinizations=2&horizon=4", seed=3)
    g, mine = _play(probe, seed=11)
    usurp_points = sum(1 for ch, *_ in mine if ch >= 0.0)
    assert usurp_points > 0
    assert probe.searches == usurp_points
    assert probe.last_search.kind == "turn_main" and up.USURP in probe.last_search.candidates


def test_contest_usurper_contests_another_seats_reign_only_from_the_turn_given():
    """``contest:`` usurps wherever another seat's FARC reigns (from turn ``from`` of that reign) and its best
    chance is above ``t``; everywhere else it plays the network's move."""
    probe, ref = up._contest(f"contest:{W}?t=0&from=1", seed=1), reg.make_agent(f"ppo:{W}")
    seen = 0
    for seed in range(20, 40):
        bots = [probe] + [reg.make_agent("noble-rule-v1", seed=i) for i in range(1, 4)]
        g = Game(players=4, seed=seed, max_turns=40, preset="errata")
        while not g.over:
            p, legal = g.current_player(), g.legal_actions()
            view = g.view(p, log=False)
            a = bots[p].act(view, legal, InfoSet(g.state, p))
            if p == 0:
                r, reign = g.state.reign, up._usurp_chance(view, legal)
                contest = bool(r) and r["player"] != 0 and g.state.turn - r["since"] >= 1 and reign > 0
                seen += contest
                assert a == (up.USURP if contest else ref.act(view, legal, InfoSet(g.state, p)))
            g.apply(a)
        if seen >= 2:
            break
    assert seen >= 2, "no deal gave seat 0 a reign to contest: pick other seeds"


def test_contest_knobs_are_checked():
    with pytest.raises(ValueError, match="unknown contest: knob"):
        up._contest(f"contest:{W}?x=1")
    with pytest.raises(ValueError, match="from must be a turn"):
        up._contest(f"contest:{W}?from=-1")

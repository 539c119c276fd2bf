"""A seat's view read from the wire answers as the live one (issue 41).

Over games of every preset and of 2 to 6 players (5,000 and more decisions, played by cheap nobles),
the ``SeatView`` read from ``json.loads(json.dumps(player_view(state, p)))`` and the ``SeatView`` of
the live game give the same answer to every question the view offers, the encoders give the same
bytes from both (and from the state), and at sampled decisions every registered noble (and a search
noble, at fewer) decides the same from either."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import fandonia_env.agents as agents
from fandonia_env.engine import (
    CHAR_VIEW_FIELDS,
    Decision,
    Game,
    InfoSet,
    SeatView,
    as_seat_view,
    decision_of,
    player_view,
)
from fandonia_env.spaces.encoders import ENCODERS, get_encoder

PRESETS = ("1981", "errata", "1981-all-optional", "errata-all-optional", "short-game")
ATTRS = ("me", "n", "edition", "optional", "turn", "phase", "first_player", "order", "active", "support",
         "problems", "wars", "crown", "forced_crown", "monarch", "reign", "deck_size", "loyalty_pool_size",
         "over", "result", "winner", "status", "hand", "loyalty_drawn", "opportunity_drawn", "discard",
         "activities_done", "turn_state", "log")
PLAYER_ATTRS = ("idx", "pc", "ip", "pp", "hand_size", "in_front", "prestige_mods", "ball_mod", "counsels",
                "lost_turns")
#: the cheap nobles checked at every sampled decision; the slow searchers at fewer
CHEAP = ("noble-rule-v1", "noble-rule-v2", "random-v1", "noble-ppo-v1", "noble-ppo-v2",
         *(f"noble-level-{k}" for k in range(1, 7)))
SLOW = ("noble-ismcts-v1", "noble-ismcts-v2", "noble-ismcts-v3")


def _plain(x):
    """A value as JSON gives it back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(x))


def answers(sv: SeatView) -> dict:
    out = {a: _plain(getattr(sv, a)) for a in ATTRS}
    out["chars"] = {cid: [getattr(c, f) for f in CHAR_VIEW_FIELDS]
                    + [sv.henchman(cid), sv.counselor(cid), sv.aligned(cid)] for cid, c in sv.chars.items()}
    out["players"] = [_plain([getattr(pl, f) for f in PLAYER_ATTRS]) for pl in sv.players]
    d = sv.decision
    out["decision"] = None if d is None else _plain([d.player, d.kind, d.options, d.ctx])
    out["legal"] = sv.legal_actions()
    out["hand_sizes"] = [sv.hand_size(p) for p in range(sv.n)]
    return out


def wire(g: Game, p: int) -> SeatView:
    return SeatView.from_json(json.loads(json.dumps(player_view(g.state, p))))


def _games():
    """(preset, players, seed) of the games played: every preset at 2..6 players."""
    return [(preset, n, 100 * i + n) for i, preset in enumerate(PRESETS) for n in range(2, 7)]


def test_the_wire_view_answers_as_the_live_view_and_encodes_the_same():
    encs = [get_encoder(name) for name in ENCODERS]
    decisions = encoded = 0
    for preset, n, seed in _games():
        g = Game(players=n, seed=seed, preset=preset, max_turns=14)
        bots = [agents.make_agent("noble-rule-v1" if q % 2 else "random-v1", seed=seed + q) for q in range(n)]
        rng = random.Random(seed)
        while not g.over:
            p = g.current_player()
            legal = g.legal_actions()
            live, sent = g.seat_view(p), wire(g, p)
            assert answers(live) == answers(sent)
            assert sent.to_json()["chars"] == live.to_json()["chars"]
            other = (p + 1) % n  # a seat with no decision: no Decision shown
            assert g.seat_view(other).decision is None and wire(g, other).decision is None
            decisions += 1
            if rng.random() < 0.12:
                for enc in encs:
                    a, b, c = enc.encode(live, p), enc.encode(sent, p), enc.encode(g.state, p)
                    assert a.tobytes() == b.tobytes() == c.tobytes(), enc.name
                encoded += 1
            g.apply(bots[p].act(live if rng.random() < 0.5 else sent, legal))
    assert decisions >= 5000 and encoded >= 500, (decisions, encoded)


def _sampled_positions(k: int, seed: int):
    """``k`` positions at decisions with two or more options, spread over presets and table sizes."""
    out = []
    rng = random.Random(seed)
    games = _games()
    rng.shuffle(games)
    for preset, n, s in games[:k]:
        g = Game(players=n, seed=s + 7, preset=preset, max_turns=10)
        stop = rng.randrange(5, 120)
        bots = [agents.make_agent("noble-rule-v2", seed=s + q) for q in range(n)]
        i = 0
        while not g.over and i < stop:
            g.apply(bots[g.current_player()].act(g.view(g.current_player(), log=False), g.legal_actions()))
            i += 1
        if not g.over:
            out.append(g)
    return out


def test_every_registered_noble_decides_the_same_from_the_wire():
    checked = dict.fromkeys(CHEAP, 0)
    for g in _sampled_positions(25, 1):
        p, legal = g.current_player(), g.legal_actions()
        for name in CHEAP:
            a = agents.make_agent(name, seed=3).act(g.seat_view(p), legal, InfoSet(g.state, p))
            b = agents.make_agent(name, seed=3).act(wire(g, p), legal, InfoSet(g.state, p))
            c = agents.make_agent(name, seed=3).act(g.view(p, log=False), legal)
            assert a == b == c, (name, g.state.config, p)
            checked[name] += 1
    assert min(checked.values()) >= 20, checked
    shipped = {k for k, f in agents.AGENTS.items()  # every noble the package registers (not a test's)
               if getattr(getattr(f, "func", f), "__module__", "").startswith("fandonia_env.agents")}
    assert set(CHEAP) | set(SLOW) == shipped


@pytest.mark.parametrize("name", SLOW)
def test_the_search_nobles_decide_the_same_from_the_wire(name):
    n_checked = 0
    for g in _sampled_positions(4, 2):
        p, legal = g.current_player(), g.legal_actions()
        a = agents.make_agent(name, seed=5).act(g.seat_view(p), legal, InfoSet(g.state, p))
        b = agents.make_agent(name, seed=5).act(wire(g, p), legal, InfoSet(g.state, p))
        assert a == b, (name, p)
        n_checked += 1
    assert n_checked >= 3


def test_the_search_noble_decides_the_same_from_the_wire():
    n_checked = 0
    for g in _sampled_positions(3, 3):
        p, legal = g.current_player(), g.legal_actions()
        kw = {"simulations": 4, "max_seconds": None, "search_kinds": "*", "horizon": 4}
        a = agents.make_agent("search:", seed=5, **kw).act(g.seat_view(p), legal, InfoSet(g.state, p))
        b = agents.make_agent("search:", seed=5, **kw).act(wire(g, p), legal, InfoSet(g.state, p))
        assert a == b
        n_checked += 1
    assert n_checked >= 2


def test_decision_and_the_view_document():
    g = Game(players=3, seed=11)
    p = g.current_player()
    d = g.pending_decision()
    assert isinstance(d, Decision) and d.player == p and d.options == g.legal_actions()
    assert d == d and decision_of(g.state).kind == g.decision()["kind"]
    assert d.to_json() == g.view(p)["decision"]
    sv = g.seat_view(p)
    assert sv.live and not wire(g, p).live and as_seat_view(sv) is sv
    assert sv.to_json() == g.view(p, log=False)
    assert sv.log == g.view(p)["log"]
    with pytest.raises(ValueError, match="not a player_view document"):
        SeatView.from_json({"me": 0})
    with pytest.raises(ValueError, match="hand"):
        from fandonia_env.engine.rules.rule_queries import facts
        facts(sv).hand((p + 1) % 3)
    assert np.array_equal(get_encoder("v0").observe(sv), get_encoder("v0").observe(g.view(p)))

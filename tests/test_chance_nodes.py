"""Explicit chance nodes (issue 12, item 5): ``Game(..., chance="explicit")``.

* the default mode is untouched: no ``chance`` key in the config, no chance node, ever (the
  golden games of ``test_golden.py`` replay byte-identically);
* in explicit mode a draw inside the machine stops the game at a chance node whose outcomes and
  probabilities are exactly those of ``chance.*_outcomes``; ``apply_chance`` resumes it;
* a chance node survives clone and a checked JSON round trip, and every outcome can be applied
  on clones (``search.chance_children``);
* outcomes sampled by their probabilities play whole games that keep every invariant and give
  the same distribution as the default mode's generator;
* ``search.expectimax`` computes exact expectations over chance nodes.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from fandonia_env.engine import Game
from fandonia_env.engine.core import chance
from fandonia_env.engine.core.machine import IllegalActionError
from fandonia_env.engine.core.state import StateError
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.game import CHANCE, ConfigError, make_config
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.face.search import chance_children, expectimax, sample_chance

PILES = {"loyalty": "loyalty_pool", "opportunity": "opportunity_pool", "event": "deck"}


def _play(g: Game, rng: random.Random, *, on_node=None, on_decision=None, limit: int = 5000) -> Game:
    """Random legal actions; chance outcomes sampled by their probabilities."""
    for _ in range(limit):
        if g.over:
            break
        if g.is_chance_node():
            if on_node:
                on_node(g)
            g.apply_chance(sample_chance(g, rng))
        else:
            if on_decision:
                on_decision(g)
            g.apply(rng.choice(g.legal_actions()))
    return g


def _node(g: Game) -> dict:
    return g.state.stack[-1].args


# ---------------------------------------------------------------------------
# The mode
# ---------------------------------------------------------------------------


def test_default_config_has_no_chance_key_and_explicit_is_kept():
    assert "chance" not in make_config()
    assert make_config(chance="sampled") == make_config()
    assert make_config(chance="explicit")["chance"] == "explicit"
    with pytest.raises(ConfigError, match="'chance'"):
        make_config(chance="lazy")
    g = Game(players=3, seed=1)
    assert not g.is_chance_node() and g.chance_outcomes() == [] and g.chance_request() is None
    assert "chance" not in json.loads(g.dumps())["config"]


def test_explicit_game_starts_at_the_first_player_roll():
    g = Game(players=3, seed=1, chance="explicit")
    assert g.is_chance_node()
    assert g.current_player() == CHANCE == -1
    assert g.chance_request() == {"kind": "roll", "why": "player 0's first-player roll (§5)"}
    assert g.chance_outcomes() == chance.roll_outcomes(2)
    assert g.legal_actions() == [] and g.decision() is None and g.view(0)["decision"] is None
    before = g.dumps()
    with pytest.raises(IllegalActionError, match="chance node"):
        g.apply(0)
    with pytest.raises(IllegalActionError, match="not an outcome"):
        g.apply_chance((7, 1))
    assert g.dumps() == before
    g.apply_chance((6, 6))
    assert g.current_player() == CHANCE and g.chance_request()["why"] == "player 1's first-player roll (§5)"
    with pytest.raises(IllegalActionError, match="no chance node"):
        Game(players=3, seed=1).apply_chance((1, 1))


def test_same_seed_actions_and_outcomes_give_the_same_game():
    a = _play(Game(players=4, seed=2, max_turns=3, chance="explicit"), random.Random(5))
    b = _play(Game(players=4, seed=2, max_turns=3, chance="explicit"), random.Random(5))
    assert a.over and a.dumps() == b.dumps()


# ---------------------------------------------------------------------------
# Outcomes and probabilities
# ---------------------------------------------------------------------------


def _expected_outcomes(g: Game):
    """The draw's ``*_outcomes`` at this node, when the node's state shows what it draws from."""
    a, st = _node(g), g.state
    if a["kind"] == "roll":
        return chance.roll_outcomes(len(a["outcomes"][0][0]))
    if a["kind"] in PILES and not any(k == a["kind"] for k, _ in a["chosen"]) and getattr(st, PILES[a["kind"]]):
        return chance.draw_outcomes(st, a["kind"])
    if a["kind"] == "pick":
        ids = {o for o, _ in g.chance_outcomes()}
        hands = [pl.hand for pl in st.players if ids <= set(pl.hand)]
        if len(hands) == 1:
            return chance.pick_outcomes(hands[0])
    return None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_chance_node_lists_exactly_the_draws_outcomes(seed):
    seen = Counter()

    def on_node(g: Game) -> None:
        outs = g.chance_outcomes()
        assert len(outs) >= 2
        assert sum(p for _, p in outs) == 1
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outs)
        assert len({o for o, _ in outs}) == len(outs)
        exp = _expected_outcomes(g)
        kind = g.chance_request()["kind"]
        if exp is not None:
            assert outs == list(exp), kind
            seen[kind] += 1
        elif kind in PILES:  # a later draw of the same pile in one step: still uniform over a pile
            assert {p for _, p in outs} == {Fraction(1, len(outs))}

    _play(Game(players=3 + seed % 3, seed=seed, max_turns=4, chance="explicit"), random.Random(seed), on_node=on_node)
    assert seen["roll"] and seen["loyalty"] and seen["opportunity"] and seen["event"]


def _intrigue_position() -> Position:
    """Three players with empty hands but player 1's three cards, player 0 to draw one of them."""
    pos = Position(players=3, seed=5, chance="explicit")
    for q in range(3):
        pos.empty_hand(q)
    pos.turn_state(0)
    pos.give(1, "evidence", "alibi", "informer")
    return pos


def test_a_pick_node_lists_pick_outcomes_of_the_hand_and_applies_the_chosen_card():
    pos = _intrigue_position()
    st = pos.state
    g = pos.run("intrigue_draw", p=0, victim=1)
    assert g.is_chance_node() and g.chance_request()["kind"] == "pick"
    assert g.chance_outcomes() == chance.pick_outcomes(st.players[1].hand)
    alibi = next(c for c in st.players[1].hand if CARD_TYPE_OF[c] == "alibi")
    rng0 = (st.rng.state, st.rng.inc)
    g.apply_chance(alibi)
    assert g.decision()["kind"] == "halt"
    check(g.state)
    assert "'Alibi', a legal card, which is discarded" in "\n".join(e["t"] for e in g.state.log)
    assert (g.state.rng.state, g.state.rng.inc) == rng0  # the outcome came from the node, not the generator


def test_scripted_outcomes_are_taken_before_a_chance_node_is_made():
    pos = _intrigue_position()
    pos.next_pick("alibi")
    g = pos.run("intrigue_draw", p=0, victim=1)
    assert not g.is_chance_node() and g.decision()["kind"] == "halt"


def test_a_step_with_several_draws_stops_at_each_and_records_each_draw_once():
    g = Game(players=4, seed=7, chance="explicit")
    # one step (the first_player operation) rolls for every contender, and again on a tie
    faces = [(6, 6), (6, 6), (1, 1), (2, 2), (3, 3), (2, 1)]
    whose = [0, 1, 2, 3, 0, 1]
    with chance.recording() as draws:
        for i, (f, p) in enumerate(zip(faces, whose, strict=True)):
            assert g.chance_request() == {"kind": "roll", "why": f"player {p}'s first-player roll (§5)"}
            assert _node(g)["chosen"] == [["roll", list(x)] for x in faces[:i]]
            assert draws == []  # the step has not finished: nothing is recorded yet
            g.apply_chance(f)
    assert [(d.kind, d.outcome, d.scripted) for d in draws[:6]] == [("roll", f, True) for f in faces]
    assert g.state.first_player == 0
    assert not (g.is_chance_node() and g.chance_request()["why"].endswith("first-player roll (§5)"))


# ---------------------------------------------------------------------------
# Clone and save at a chance node
# ---------------------------------------------------------------------------


def test_a_chance_node_survives_clone_and_a_checked_json_round_trip():
    g = Game(players=4, seed=3, max_turns=3, chance="explicit")
    rng = random.Random(3)
    nodes = 0
    while not g.over and nodes < 40:
        if not g.is_chance_node():
            g.apply(rng.choice(g.legal_actions()))
            continue
        nodes += 1
        doc = g.dumps()
        loaded = Game.from_json(doc)
        assert loaded.dumps() == doc and loaded.chance_outcomes() == g.chance_outcomes()
        assert loaded.is_chance_node() and loaded.current_player() == CHANCE
        o = sample_chance(g, rng)
        c = g.clone()
        for x in (loaded, c, g):
            x.apply_chance(o)
        assert loaded.dumps() == c.dumps() == g.dumps()
    assert nodes == 40


def test_chance_children_apply_every_outcome_on_clones():
    g = Game(players=3, seed=4, chance="explicit")
    before = g.dumps()
    kids = list(chance_children(g))
    assert len(kids) == 36 and sum(p for p, _ in kids) == 1
    assert g.dumps() == before
    assert len({k.dumps() for _, k in kids}) == 36


def test_bad_chance_nodes_in_saves_are_refused():
    g = Game(players=3, seed=1, chance="explicit")
    doc = json.loads(g.dumps())
    bad = json.loads(json.dumps(doc))
    bad["stack"][-1]["args"]["outcomes"][0][1] = 2  # probabilities no longer sum to 1
    with pytest.raises(StateError, match="sum to 1"):
        Game.from_json(bad)
    bad = json.loads(json.dumps(doc))
    bad["stack"][-1]["args"]["outcomes"] = [[[9, 9], 1, 2], [[9, 8], 1, 2]]  # faces no die shows
    with pytest.raises(StateError):
        Game.from_json(bad)
    bad = json.loads(json.dumps(doc))
    del bad["config"]["chance"]  # a chance node in a default-mode game
    with pytest.raises(StateError):
        Game.from_json(bad)


# ---------------------------------------------------------------------------
# Whole games and the distribution
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [11, 12])
def test_sampled_chance_games_keep_every_invariant(seed):
    def on_decision(g: Game) -> None:
        check(g.state)
        assert g.current_player() in range(g.n_players)

    g = _play(Game(players=3 + seed % 4, seed=seed, max_turns=6, chance="explicit"), random.Random(seed),
              on_decision=on_decision)
    assert g.over
    check(g.state)


def _first_crown(g: Game, rng: random.Random) -> str:
    while g.state.crown is None and not g.over:
        if g.is_chance_node():
            g.apply_chance(sample_chance(g, rng))
        else:
            g.apply(rng.choice(g.legal_actions()))
    return g.state.crown


def test_sampled_outcomes_reproduce_the_generators_distribution():
    n = 400
    default = Counter(_first_crown(Game(players=3, seed=s), random.Random(s)) for s in range(n))
    explicit = Counter(_first_crown(Game(players=3, seed=s, chance="explicit"), random.Random(10_000 + s))
                       for s in range(n))
    assert set(explicit) <= set(default) | {None}
    for k in set(default) | set(explicit):
        assert abs(default[k] - explicit[k]) / n < 0.08, (k, default, explicit)


# ---------------------------------------------------------------------------
# Search
# ---------------------------------------------------------------------------


def test_expectimax_averages_a_chance_node_exactly():
    pos = Position(players=3, seed=5, chance="explicit")
    for q in range(3):
        pos.empty_hand(q)
    pos.turn_state(0)
    pos.give(1, "evidence", "alibi", "informer")
    g = pos.run("intrigue_draw", p=0, victim=1)

    def alibi_discarded(x: Game) -> int:
        return sum(CARD_TYPE_OF[c] == "alibi" for c in x.state.discard)

    # the victim holds DOWN WITH THE KING, Evidence, Alibi and Informer: the Alibi is drawn 1 time in 4
    assert expectimax(g, alibi_discarded, player=0, depth=1) == Fraction(1, 4)
    assert expectimax(g, alibi_discarded, player=0, depth=0) == 0


def test_sample_chance_follows_the_probabilities():
    g = Game(players=3, seed=1, chance="explicit")
    rng = random.Random(0)
    counts = Counter(sum(sample_chance(g, rng)) for _ in range(3600))
    assert abs(counts[7] / 3600 - Fraction(1, 6)) < 0.03
    assert abs(counts[2] / 3600 - Fraction(1, 36)) < 0.015

"""The search noble (fandonia_env/agents/search_noble.py): legal in every decision of both editions at 2 and 4
players, deterministic for a seed, deciding from its seat's information only, within its time cap,
and with checked knobs.  Tiny budgets keep it fast."""

from __future__ import annotations

import inspect
import random
import time

import pytest
from helpers import play_out, random_moves

from fandonia_env.agents import make_agent
from fandonia_env.agents.ppo_agent import NOBLE_PPO_V1, PPOAgent
from fandonia_env.agents.search_noble import DEFAULT_SEARCH_KINDS, SearchAgent, from_spec
from fandonia_env.engine import Game
from fandonia_env.engine.face.hidden import InfoSet, resample

#: a budget small enough for tests that still searches (several candidates, worlds and waves)
TINY = {"simulations": 6, "determinizations": 2, "horizon": 3, "top_k": 2, "max_seconds": 30.0}


def _bots(n: int, seed: int, **kw) -> list:
    return [SearchAgent(seed=seed, **{**TINY, **kw})] + [make_agent("noble-rule-v1", seed=seed + i) for i in range(1, n)]


@pytest.mark.parametrize("edition", ["1981", "errata"])
@pytest.mark.parametrize("n", [2, 4])
def test_legal_action_in_every_decision_of_a_short_game(n: int, edition: str) -> None:
    bots = _bots(n, seed=3)
    g = Game(players=n, seed=20 + n, max_turns=4, edition=edition)
    play_out(g, bots, check_view=True)  # asserts every choice is legal
    assert g.over
    assert bots[0].searches > 0 and bots[0].sims_run >= bots[0].searches


def test_explicit_chance_games_are_searched_too() -> None:
    """In ``chance="explicit"`` games the simulations resolve chance nodes by their probabilities."""
    from fandonia_env.engine.face.search import sample_chance

    bots = _bots(2, seed=9)
    g = Game(players=2, seed=6, max_turns=2, chance="explicit")
    rng = random.Random(6)
    while not g.over:
        if g.is_chance_node():
            g.apply_chance(sample_chance(g, rng))
            continue
        p, legal = g.current_player(), g.legal_actions()
        a = bots[p].act(g.view(p, log=False), legal, InfoSet(g.state, p))
        assert a in legal
        g.apply(a)
    assert bots[0].searches > 0


def test_a_candidate_replaces_the_favourite_only_with_confidence() -> None:
    bot = SearchAgent(z_min=1.0)
    assert bot._beats([0.5, 0.4, 0.6], [0.1, 0.1, 0.1])
    assert not bot._beats([0.5, -0.4, 0.6], [0.1, 0.1, 0.1])  # ahead on average, but not surely
    assert not bot._beats([0.5], [0.1])  # one pair is no evidence
    assert SearchAgent(z_min=0.0)._beats([-0.5], [0.1])  # z_min 0: plain argmax of Q


def test_same_seed_same_game() -> None:
    def game() -> Game:
        return play_out(Game(players=3, seed=8, max_turns=4), _bots(3, seed=5))

    assert game().log_lines() == game().log_lines()


def _positions(n: int, seed: int, count: int) -> list[Game]:
    """Positions after random moves where the deciding seat faces a searched kind with >= 2 options."""
    g = Game(players=n, seed=seed, max_turns=10)
    out = []
    for i in random_moves(g, random.Random(seed)):
        d = g.decision()
        if i % 5 == 0 and d["kind"] in DEFAULT_SEARCH_KINDS and len(d["options"]) >= 2:
            out.append(g.clone())
            if len(out) == count:
                break
    return out


@pytest.mark.parametrize("n", [2, 4])
def test_decides_from_its_seats_information_only(n: int) -> None:
    """The same decision, search statistics included, when everything hidden from the seat (other
    hands, drawn counters, pile order, future dice) is redrawn consistently with its view."""
    rng = random.Random(n)
    for g in _positions(n, seed=31 + n, count=3):
        p = g.current_player()
        view, legal = g.view(p, log=False), g.legal_actions()
        a = SearchAgent(seed=7, **TINY)
        act = a.act(view, legal, InfoSet(g.state, p))
        for _ in range(2):
            other = Game.from_state(resample(g.state, p, rng), advance=False)
            assert other.view(p, log=False) == view and other.legal_actions() == legal
            b = SearchAgent(seed=7, **TINY)
            assert b.act(view, legal, InfoSet(other.state, p)) == act
            assert (b.last_search.q, b.last_search.visits) == (a.last_search.q, a.last_search.visits)


def test_never_sees_the_state() -> None:
    from fandonia_env.agents import search_noble

    src = inspect.getsource(search_noble)
    assert "GameState" not in src and "engine.state" not in src and "._state" not in src


def test_search_returns_a_visit_distribution_and_q_values() -> None:
    g = _positions(4, seed=12, count=1)[0]
    p = g.current_player()
    view, legal = g.view(p, log=False), g.legal_actions()
    bot = SearchAgent(seed=1, **TINY)
    action, target, q = bot.search(view, legal, InfoSet(g.state, p))
    assert action in legal and action in q
    assert set(target) == set(legal) and abs(sum(target.values()) - 1.0) < 1e-9
    assert set(q) <= set(bot.last_search.candidates) and len(bot.last_search.candidates) == 2
    assert sum(bot.last_search.visits.values()) == TINY["simulations"] == bot.last_search.simulations
    assert all(-1.0 <= v <= 1.0 + 1e-6 for v in q.values())
    # the same answer again from a fresh agent with the same seed
    assert SearchAgent(seed=1, **TINY).search(view, legal, InfoSet(g.state, p)) == (action, target, q)


def test_time_cap_is_honoured() -> None:
    g = _positions(4, seed=12, count=1)[0]
    p = g.current_player()
    view, legal = g.view(p, log=False), g.legal_actions()
    bot = SearchAgent(seed=1, simulations=100_000, horizon=200, max_seconds=0.05)
    bot.act(view, legal, InfoSet(g.state, p))  # loads the policy and warms up
    t = time.perf_counter()
    a = bot.act(view, legal, InfoSet(g.state, p))
    took = time.perf_counter() - t
    assert a in legal and bot.last_search.timed_out and bot.timeouts == 2
    assert took < 1.0, took  # the cap, plus one step and the leaves' forward pass


def test_without_search_kinds_it_plays_the_policy_argmax() -> None:
    """search_kinds=() is the plain policy: the same moves as PPOAgent on the same file."""
    def game(bot) -> Game:
        return play_out(Game(players=2, seed=4, max_turns=3), [bot, make_agent("noble-rule-v1", seed=2)])

    a = game(SearchAgent(seed=1, search_kinds=()))
    b = game(PPOAgent(NOBLE_PPO_V1, seed=1))
    assert a.log_lines() == b.log_lines()


def test_from_spec_reads_path_and_knobs() -> None:
    bot = from_spec(f"search:{NOBLE_PPO_V1}?simulations=5&horizon=2&search_kinds=turn_main,card_window"
                    "&max_seconds=none", seed=3)
    assert (bot.simulations, bot.horizon, bot.max_seconds) == (5, 2, None)
    assert bot.search_kinds == {"turn_main", "card_window"} and bot.id.startswith("search:")
    assert from_spec("search:", top_k=4).top_k == 4
    with pytest.raises(ValueError, match="unknown search knob"):
        from_spec("search:?sims=3")
    with pytest.raises(ValueError, match="simulations"):
        from_spec("search:?simulations=x")


@pytest.mark.parametrize("knob, value, words", [
    ("simulations", 0, "simulations must be an integer >= 1"),
    ("simulations", 2.5, "simulations must be an integer >= 1"),
    ("determinizations", 0, "determinizations must be an integer >= 1"),
    ("horizon", -1, "horizon must be an integer >= 0"),
    ("top_k", 1, "top_k must be an integer >= 2"),
    ("max_seconds", 0, "max_seconds must be a finite number > 0"),
    ("max_seconds", float("inf"), "max_seconds must be a finite number > 0"),
    ("c_puct", -0.1, "c_puct must be a finite number >= 0"),
    ("prior_weight", -1, "prior_weight must be a finite number >= 0"),
    ("z_min", -0.5, "z_min must be a finite number >= 0"),
    ("rollout_temperature", -1, "rollout_temperature must be a finite number >= 0"),
    ("blas_threads", 0, "blas_threads must be an integer >= 1"),
    ("search_kinds", [""], "search_kinds must be decision kinds"),
])
def test_bad_knobs_are_refused_naming_the_range(knob: str, value, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        SearchAgent(**{knob: value})

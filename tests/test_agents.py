"""The computer nobles: every registered agent plays complete legal games at 2-6 players,
sees only its view (plus an InfoSet for search agents), and is deterministic for a seed."""

from __future__ import annotations

import inspect
import random

import pytest
from helpers import play_out, random_moves

from fandonia_env import agents
from fandonia_env.agents import AGENTS, make_agent
from fandonia_env.agents.noble_rule import usurp_chance
from fandonia_env.engine import Game
from fandonia_env.engine.core.state import GameState
from fandonia_env.engine.face.hidden import InfoSet
from fandonia_env.engine.rules.rule_queries import dice_distribution, p_greater, royal_uv_distribution

#: small budgets keep the search agent fast in tests
FAST = {"noble-ismcts-v1": {"iterations": 3, "horizon": 15},
        "noble-ismcts-v2": {"determinizations": 1, "horizon": 20, "max_candidates": 3},
        "noble-ismcts-v3": {"determinizations": 1, "max_determinizations": 2, "horizon": 30, "turns_ahead": 1, "max_candidates": 3}}


def _play(ids: list[str], seed: int, max_turns: int = 15) -> Game:
    bots = [make_agent(a, seed=seed * 100 + i, **FAST.get(a, {})) for i, a in enumerate(ids)]
    return play_out(Game(players=len(ids), seed=seed, max_turns=max_turns), bots, check_view=True)


def test_agents_registered() -> None:
    for aid in ("random-v1", "noble-rule-v1", "noble-rule-v2", "noble-ismcts-v1"):
        assert aid in AGENTS
        assert make_agent(aid, seed=1).id == aid


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_rule_agents_play_complete_games(n: int) -> None:
    ids = ["noble-rule-v1", "noble-rule-v2", "random-v1"] * 2
    g = _play(ids[:n], seed=n)
    assert g.over and g.result in ("win", "draw", "truncated")


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_ismcts_plays_complete_games(n: int) -> None:
    ids = ["noble-ismcts-v1"] + ["noble-rule-v1"] * (n - 1)
    g = _play(ids, seed=40 + n, max_turns=8)
    assert g.over


def test_every_agent_in_every_seat() -> None:
    for aid in sorted(AGENTS):
        _play([aid, "random-v1", "noble-rule-v1"], seed=7, max_turns=6)
        _play(["random-v1", aid], seed=8, max_turns=6)


@pytest.mark.parametrize("noble", ["noble-ppo-v1", "noble-ppo-v2"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_shipped_policy_nobles_play_complete_legal_games(n: int, noble: str) -> None:
    """Each shipped trained noble loads from fandonia_env/agents/weights/ and plays whole games (to a win, a
    draw or the 60-turn limit of the tournaments) at every table size, every choice legal, from its view."""
    from fandonia_env.agents import ppo_agent

    assert ppo_agent.shipped_weights(noble).is_file(), f"{noble}'s weights ship in fandonia_env/agents/weights/"
    ids = [noble, "noble-rule-v1", "random-v1", noble, "noble-rule-v2", "random-v1"][:n]
    g = _play(ids, seed=60 + n, max_turns=60)
    assert g.over and g.result in ("win", "draw", "truncated")
    assert g.result != "truncated" or g.state.turn >= 60


@pytest.mark.parametrize("aid", ["noble-rule-v1", "noble-rule-v2", "noble-ismcts-v1"])
def test_same_seed_same_game(aid: str) -> None:
    ids = [aid, "noble-rule-v1", "random-v1", aid]
    a = _play(ids, seed=11, max_turns=8)
    b = _play(ids, seed=11, max_turns=8)
    assert a.log_lines() == b.log_lines()


def test_agents_do_not_touch_global_rng() -> None:
    random.seed(123)
    before = random.getstate()
    _play(["noble-rule-v1", "noble-rule-v2", "noble-ismcts-v1"], seed=5, max_turns=5)
    assert random.getstate() == before


def test_agents_never_see_the_state() -> None:
    """The agent modules never import GameState, and act() gets a view dict and an InfoSet."""
    for mod in (agents.noble_rule, agents.ismcts):
        src = inspect.getsource(mod)
        assert "GameState" not in src
        assert "import state" not in src and "engine.state" not in src
    seen: list[tuple[type, type]] = []

    class Spy:
        def __init__(self, inner):
            self.inner = inner

        def act(self, view, legal, infoset=None):
            seen.append((type(view), type(infoset)))
            assert not isinstance(view, GameState) and not isinstance(infoset, GameState)
            assert "hands" not in view and "deck" not in view
            return self.inner.act(view, legal, infoset)

    bots = [Spy(make_agent("noble-ismcts-v1", seed=1, iterations=2, horizon=5)), Spy(make_agent("noble-rule-v1", seed=2))]
    g = Game(players=2, seed=3, max_turns=4)
    play_out(g, bots)
    assert seen and all(v is dict and i is InfoSet for v, i in seen)


def test_usurp_chance_distributions() -> None:
    assert abs(sum(dice_distribution(2, 3).values()) - 1) < 1e-12
    assert p_greater({5: 1.0}, {4: 0.5, 5: 0.5}) == 0.5
    assert set(royal_uv_distribution("thomas")) == {1, 2, 3}
    # at the start nobody can overturn King George's rating (all the nobles support him)
    g = Game(players=4, seed=1, max_turns=10)
    v = g.view(0, log=False)
    assert usurp_chance(v, "thomas") == 0.0


@pytest.mark.parametrize("agent,copies,seed", [("noble-ismcts-v2", 1, 60), ("noble-ismcts-v3", 2, 70)])
@pytest.mark.parametrize("n", [2, 6])
def test_ismcts_plays_complete_games_deterministically(agent: str, copies: int, seed: int, n: int) -> None:
    """noble-ismcts-v2 and -v3 (small budget, ``copies`` seats) finish 2- and 6-player games legally,
    the same for a seed."""
    ids = [agent] * copies + ["noble-rule-v1"] * (n - copies)
    a = _play(ids, seed=seed + n, max_turns=8)
    b = _play(ids, seed=seed + n, max_turns=8)
    assert a.over and a.log_lines() == b.log_lines()


def test_ismcts_v2_searches_and_sees_only_its_view() -> None:
    from fandonia_env.agents import ismcts_v2

    assert "GameState" not in inspect.getsource(ismcts_v2)
    bot = make_agent("noble-ismcts-v2", seed=4, **FAST["noble-ismcts-v2"])
    others = [make_agent("noble-rule-v1", seed=10 + i) for i in range(3)]
    g = Game(players=4, seed=9, max_turns=6)
    play_out(g, [bot, *others])
    assert bot.searches > 0


def test_ismcts_v3_searches_stakes_and_sees_only_its_view() -> None:
    from fandonia_env.agents import ismcts_v3

    assert "GameState" not in inspect.getsource(ismcts_v3)
    bot = make_agent("noble-ismcts-v3", seed=4, **FAST["noble-ismcts-v3"])
    assert bot.id == "noble-ismcts-v3" and make_agent("noble-ismcts-v2", seed=1).id == "noble-ismcts-v2"
    others = [make_agent("noble-rule-v1", seed=10 + i) for i in range(3)]
    g = Game(players=4, seed=300, max_turns=30)
    play_out(g, [bot, *others])
    assert bot.searches > 0 and bot.rollouts >= 2 * bot.searches


@pytest.mark.parametrize("edition", ["1981", "errata"])
@pytest.mark.parametrize("n", [2, 4, 6])
@pytest.mark.parametrize("spec", ["noble-ppo-v1", "noble-ppo-v1-sampled", "noble-ppo-v2", "noble-ppo-v2-sampled"])
def test_policy_nobles_decide_from_their_seats_information_only(spec: str, n: int, edition: str) -> None:
    """A trained policy noble (argmax, or sampling at temperature 1 from the same seed) takes the same
    decision when everything hidden from its seat (other hands, drawn counters, pile order, future
    dice) is redrawn consistently with its view."""
    from fandonia_env.agents import ppo_agent
    from fandonia_env.agents.ppo_agent import PPOAgent
    from fandonia_env.engine.face.hidden import resample

    temperature = 1.0 if spec.endswith("-sampled") else 0.0
    weights = ppo_agent.shipped_weights(spec.removesuffix("-sampled"))
    rng = random.Random(n)
    g = Game(players=n, seed=40 + n, max_turns=12, edition=edition)
    checked = 0
    for i in random_moves(g, random.Random(n)):
        if i % 3 or len(g.legal_actions()) < 2:
            continue
        p = g.current_player()
        view, legal = g.view(p, log=False), g.legal_actions()
        act = PPOAgent(weights, seed=9, temperature=temperature).act(view, legal, InfoSet(g.state, p))
        for _ in range(2):
            other = Game.from_state(resample(g.state, p, rng), advance=False)
            assert other.view(p, log=False) == view and other.legal_actions() == legal
            bot = PPOAgent(weights, seed=9, temperature=temperature)
            assert bot.act(view, legal, InfoSet(other.state, p)) == act
        checked += 1
        if checked == 12:
            break
    assert checked >= 6

"""The game as OpenSpiel's ``python_fandonia`` (issue 44, docs/openspiel.md): OpenSpiel's own random-simulation
API test in every preset at 2, 4 and 6 players with serialisation, the same game as the engine from the same
seed, information states that never depend on another seat's hidden cards (resample test), nobles as
OpenSpiel bots and OpenSpiel bots at the tournament.  Needs the ``openspiel`` extra (skipped without it)."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from fandonia_env.agents import check_agent, make_agent  # noqa: E402
from fandonia_env.agents.openspiel_bot import heuristic_values, noble_bot  # noqa: E402
from fandonia_env.engine import NAME, Game, describe, player_view, preset_names, seat_information  # noqa: E402
from fandonia_env.envs.common import DEFAULT_MAX_TURNS  # noqa: E402
from fandonia_env.openspiel import (  # noqa: E402
    NobleBot,
    RolloutEvaluator,
    ismcts_bot,
    load,
    resample_state,
    state_from_engine,
)
from fandonia_env.openspiel import game as osg  # noqa: E402

PRESETS = preset_names()


def _random_walk(state, rng: random.Random, moves: int):
    """Yield ``state`` at each of up to ``moves`` decisions of a random game (chance by its probabilities)."""
    done = 0
    while not state.is_terminal() and done < moves:
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(acts, weights=probs)[0])
            continue
        yield state
        state.apply_action(rng.choice(state.legal_actions()))
        done += 1


def _to_decision(state, rng: random.Random) -> None:
    """Resolve chance nodes at random (always the first outcome could tie the first-player roll forever)."""
    while state.is_chance_node():
        acts, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(acts, weights=probs)[0])


def test_the_presets_are_the_engines():
    assert PRESETS == ["1981", "1981-all-optional", "errata", "errata-all-optional", "short-game"]


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("preset", PRESETS)
def test_openspiel_random_simulation_test_passes_in_every_preset_with_serialisation(preset, players):
    # OpenSpiel's C++ checks: legal actions sorted and empty for the others, unique action strings, clone and
    # serialize/deserialize giving the same state, chance outcomes, observation and information-state tensors of
    # the declared sizes, returns zero-sum within the utilities, game length within max_game_length
    game = load({"players": players, "preset": preset, "max_turns": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_random_simulation_test_passes_on_a_whole_game():
    game = load({"players": 4, "preset": "errata"})  # the environments' turn limit, 60
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("observation", ["v0", "v1r", "v1c", "v1b"])
def test_every_encoder_serves_as_the_observation(observation):
    from fandonia_env.spaces.encoders import get_encoder

    game = load({"players": 2, "max_turns": 2, "observation": observation})
    assert game.observation_tensor_shape() == [get_encoder(observation).size]
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_game_declares_the_engines_actions_chance_and_limits():
    game = load({"players": 4})
    assert game.num_distinct_actions() == len(NAME) == 252
    assert game.num_players() == 4 and game.get_type().short_name == "python_fandonia"
    assert game.max_chance_outcomes() == max(osg.MAX_ENGINE_OUTCOMES, osg.DEFAULT_DEALS)
    assert osg.MAX_ENGINE_OUTCOMES == 120  # the Event pile's 120 cards; dice give at most 36
    assert game.max_game_length() == osg.DEFAULT_MAX_GAME_LENGTH
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.information_state_tensor_shape() == game.observation_tensor_shape() == [6441]  # the v1 encoder
    assert osg.DEFAULT_MAX_TURNS == DEFAULT_MAX_TURNS  # the environments' turn limit
    assert load({"players": 2, "observation": "v0"}).observation_tensor_shape() == [2937]


def test_a_bad_parameter_names_itself_and_what_is_allowed():
    with pytest.raises(ValueError, match=r"'players' must be an int from 2 to 6, got 7"):
        load({"players": 7})
    with pytest.raises(ValueError, match=r"unknown preset 'nope'; valid presets: \['1981', "):
        load({"preset": "nope"})
    with pytest.raises(ValueError, match=r"unknown parameter 'edtion'; allowed: \["):
        load({"edtion": "errata"})
    with pytest.raises(ValueError, match=r"'observation' must be one of \['v0', 'v1'"):
        load({"observation": "v9"})
    with pytest.raises(ValueError, match=r"'deals' must be >= 1"):
        load({"deals": 0})
    with pytest.raises(ValueError, match=r"optional"):
        load({"optional": "clemency+no_such_rule"})


def test_presets_and_optional_rules_are_game_parameters_in_one_form():
    a = load({"players": 3, "preset": "errata-all-optional"})
    b = pyspiel.load_game(str(a))  # the game's string loads the same game
    assert str(a) == str(b) and a.params["config"] == b.params["config"]
    assert a.params["config"]["edition"] == "errata" and len(a.params["config"]["optional"]) > 5
    c = load({"players": 3, "preset": "errata-all-optional", "optional": "none"})
    assert c.params["config"]["optional"] == [] and c.params["config"]["edition"] == "errata"
    d = load({"players": 3, "edition": "errata", "optional": "clemency,funerals"})
    assert d.params["config"]["optional"] == ["clemency", "funerals"]
    assert "optional=clemency+funerals" in str(d) and "preset=," in str(d)


@pytest.mark.parametrize("seed", [3, 11])
def test_pyspiel_plays_the_same_game_as_the_engine_from_the_same_seed(seed):
    """The engine in explicit chance mode and python_fandonia from the same seed, fed the same decisions
    and chance outcomes, agree at every step and end in the same position with the envs' returns."""
    g = Game(players=4, seed=seed, preset="errata", chance="explicit", max_turns=DEFAULT_MAX_TURNS)
    state = load({"players": 4, "preset": "errata", "seed": seed, "deals": 1}).new_initial_state()
    rng = random.Random(seed)
    steps = 0
    while not g.over:
        assert not state.is_terminal()
        if g.is_chance_node():
            assert state.is_chance_node()
            outs = g.chance_outcomes()
            assert [p for _, p in state.chance_outcomes()] == pytest.approx([float(p) for _, p in outs])
            i = rng.randrange(len(outs))
            assert state.action_to_string(-1, i).startswith(g.chance_request()["kind"] + ":")
            g.apply_chance(outs[i][0])
            state.apply_action(i)
        else:
            assert state.current_player() == g.current_player()
            assert state.legal_actions() == sorted(g.legal_actions())
            a = rng.choice(g.legal_actions())
            g.apply(a)
            state.apply_action(a)
        steps += 1
    assert state.is_terminal() and steps > 200
    assert state.engine_game().dumps() == g.dumps()  # the same final save: position, log, generator
    n = 4
    want = [0.0] * n if g.result != "win" else [1.0 if q == g.winner else -1.0 / (n - 1) for q in range(n)]
    assert state.returns() == pytest.approx(want) and sum(state.returns()) == pytest.approx(0.0)


def test_the_deal_is_a_chance_node_over_engine_seeds():
    game = load({"players": 2, "seed": 40, "deals": 5})
    s = game.new_initial_state()
    assert s.is_chance_node() and s.chance_outcomes() == [(i, 0.2) for i in range(5)]
    assert s.action_to_string(-1, 2) == "deal: engine seed 42"
    s.apply_action(2)
    assert s.engine_game().state.config["seed"] == 42
    assert s.engine_game().dumps() == Game(players=2, seed=42, chance="explicit", max_turns=DEFAULT_MAX_TURNS).dumps()


def test_returns_follow_the_environments_rewards_and_max_game_length_truncates():
    game = load({"players": 3, "max_game_length": 5, "deals": 1})
    s = game.new_initial_state()
    rng = random.Random(0)
    for _ in _random_walk(s, rng, 10):
        pass
    assert s.is_terminal() and s.current_player() == pyspiel.PlayerId.TERMINAL
    assert s.history().__len__() >= 5 and not s.engine_game().over  # stopped by the bound, not the rules
    assert s.returns() == [0.0, 0.0, 0.0]  # truncated: 0 to everyone (docs/rewards.md)
    assert "max_game_length" in str(s)


def test_action_strings_are_the_catalogues_labels():
    s = load({"players": 4, "deals": 1}).new_initial_state()
    _to_decision(s, random.Random(0))
    for a in s.legal_actions():
        assert s.action_to_string(s.current_player(), a) == f"{NAME[a]}: {describe(a)}"


def test_clone_serialize_and_pickle_keep_the_state():
    game = load({"players": 4, "preset": "1981-all-optional", "max_turns": 4})
    s = game.new_initial_state()
    for _ in _random_walk(s, random.Random(5), 40):
        pass
    c = s.clone()
    assert str(c) == str(s) and c.history() == s.history()
    assert c.engine_game() is not s.engine_game() and c.engine_game().dumps() == s.engine_game().dumps()
    d = game.deserialize_state(s.serialize())
    assert str(d) == str(s) and d.history() == s.history()
    assert d.information_state_string(1) == s.information_state_string(1)
    p = pickle.loads(pickle.dumps(s))
    assert str(p) == str(s) and p.engine_game().dumps() == s.engine_game().dumps()
    a = s.legal_actions()[0] if not s.is_chance_node() else 0
    c.apply_action(a)  # the copy goes its own way
    assert s.engine_game().dumps() == d.engine_game().dumps()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_information_state_never_depends_on_another_seats_hidden_cards(players):
    """Resample test: everything hidden from seat i (others' hands, drawn counters, pile order, future dice)
    redrawn, at random (``engine.resample``) or dealt canonically first (``engine.seat_information``): seat i's
    information-state tensor and string, observation tensor and string stay byte-identical."""
    game = load({"players": players, "preset": "errata-all-optional", "max_turns": 4})
    s = game.new_initial_state()
    rng = random.Random(players)
    changed = 0
    for k, st in enumerate(_random_walk(s, rng, 150)):
        if k % 5:
            continue
        for i in range(players):
            for r in (resample_state(st, i, rng), _canonical(st, i, rng)):
                assert r.information_state_tensor(i) == st.information_state_tensor(i)
                assert r.observation_tensor(i) == st.observation_tensor(i)
                assert r.information_state_string(i) == st.information_state_string(i)
                assert r.observation_string(i) == st.observation_string(i)
                changed += _other_hands(r, i) != _other_hands(st, i)
    assert changed > 10  # the resamples did move hidden cards


def _other_hands(state, seat: int) -> list[list[str]]:
    return [sorted(pl.hand) for pl in state.engine_game().state.players if pl.idx != seat]


def _canonical(state, seat: int, rng: random.Random):
    g = state.engine_game()
    new = state.clone()
    new._engine = osg._Engine(Game.from_state(seat_information(g.state, seat, rng), advance=False))
    return new


def test_information_state_string_has_perfect_recall_of_the_seats_view():
    """Whenever a seat's view changes from one decision to the next, its information state string does too,
    and a seat's own move always changes its string (it remembers what it did)."""
    s = load({"players": 4, "preset": "errata", "max_turns": 5}).new_initial_state()
    prev = None
    for st in _random_walk(s, random.Random(2), 300):
        g = st.engine_game()
        now = [(player_view(g.state, q, log=False), st.information_state_string(q)) for q in range(4)]
        if prev is not None:
            for (v0, i0), (v1, i1) in zip(prev, now):
                if v0 != v1:
                    assert i0 != i1
        prev = now


def test_a_registered_noble_plays_as_an_openspiel_bot():
    from open_spiel.python.algorithms import evaluate_bots

    game = load({"players": 3, "max_turns": 8, "deals": 1})
    bots = [noble_bot("noble-rule-v1", seed=i) for i in range(3)]
    assert all(isinstance(b, NobleBot) for b in bots)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == 3 and sum(returns) == pytest.approx(0.0)
    # its move is the noble's on the same view
    s = game.new_initial_state()
    _to_decision(s, random.Random(0))
    g = s.engine_game()
    p = s.current_player()
    bot = NobleBot(make_agent("noble-rule-v1", seed=9))
    twin = make_agent("noble-rule-v1", seed=9)
    assert bot.step(s) == twin.act(g.seat_view(p), g.legal_actions())


def test_openspiels_ismcts_bot_plays_a_short_game():
    from open_spiel.python.algorithms import evaluate_bots

    game = load({"players": 2, "max_turns": 3, "deals": 1})
    ev = RolloutEvaluator(horizon=5, seed=1, score=heuristic_values)
    bots = [ismcts_bot(game, ev, simulations=4, seed=1), noble_bot("noble-rule-v1", seed=2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert len(returns) == 2 and sum(returns) == pytest.approx(0.0)


def test_heuristic_values_are_on_the_returns_scale():
    g = Game(players=4, seed=1)
    v = heuristic_values(g)
    assert len(v) == 4 and sum(v) == pytest.approx(0.0) and all(-1 / 3 <= x <= 1 for x in v)


@pytest.mark.parametrize("spec", ["openspiel:ismcts?simulations=2&horizon=3", "openspiel:random"])
def test_an_openspiel_bot_sits_at_the_tournament(spec):
    from fandonia_env.arena.tournament import run_tournament

    r = run_tournament(lineup=[spec, "noble-rule-v1"], games=2, max_turns=3, jobs=1, progress=False, plot=False,
                       bootstrap=10)
    assert r.summary["agents"][spec]["games"] == 2
    assert {g["result"] for g in r.games} <= {"win", "draw", "truncated"}


def test_openspiel_agent_ids_are_checked_with_what_is_allowed():
    check_agent("openspiel:ismcts?simulations=4&rollout=noble-rule-v1&final=max_value")
    with pytest.raises(ValueError, match=r"unknown OpenSpiel bot 'mcts'; bots: \['ismcts', 'random'\]"):
        check_agent("openspiel:mcts")
    with pytest.raises(ValueError, match=r"unknown knob 'sims'; ismcts takes \["):
        check_agent("openspiel:ismcts?sims=4")
    with pytest.raises(ValueError, match=r"knob simulations='x' must be int"):
        check_agent("openspiel:ismcts?simulations=x")
    with pytest.raises(ValueError, match=r"knob rollout='noble'; allowed: \['random', 'noble-rule-v1'\]"):
        check_agent("openspiel:ismcts?rollout=noble")
    with pytest.raises(ValueError, match=r"out of range"):
        check_agent("openspiel:ismcts?simulations=0")


def test_an_openspiel_agent_needs_its_infoset():
    bot = make_agent("openspiel:random", seed=0)
    g = Game(players=2, seed=0)
    with pytest.raises(ValueError, match=r"searches from its InfoSet"):
        bot.act(g.seat_view(g.current_player()), g.legal_actions())


def test_state_from_engine_refuses_another_game():
    game = load({"players": 2, "deals": 1})
    with pytest.raises(ValueError, match="explicit chance mode"):
        state_from_engine(game, Game(players=2, seed=1))
    with pytest.raises(ValueError, match="players 3 differs"):
        state_from_engine(game, Game(players=3, seed=1, chance="explicit"))

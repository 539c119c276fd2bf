"""Env inputs (issue 9, items 1, 3 and 7): malformed actions, the three illegal-move modes,
``reset(options={"position": ...})`` and calls made before ``reset()``, in both environments."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest
from helpers import play_randomly
from pettingzoo.utils.env_logger import EnvLogger

from fandonia_env import FandoniaGymEnv, fandonia_v0
from fandonia_env.engine import Game, IllegalActionError, StateError
from fandonia_env.engine.core.actions import NUM_ACTIONS
from fandonia_env.envs.common import InvalidActionError
from fandonia_env.spaces.observation import encode
from fandonia_env.spaces.observation_v1 import encode_v1

WARNING = "[WARNING]: Illegal move made, game terminating with current player losing."

# (row id, the bad action): one test per row and env, under every illegal= mode
BAD_ACTIONS = [
    ("str-digit", "3"),
    ("float-fraction", 15.7),
    ("float-integral", 3.0),
    ("np-float32", np.float32(3)),
    ("bool", True),
    ("none", None),
    ("str-pass", "pass"),
    ("negative", -1),
    ("num-actions", NUM_ACTIONS),
]


def _aec(illegal: str = "terminate", players: int = 3):
    e = fandonia_v0.env(players=players, max_turns=20, illegal=illegal)
    e.reset(seed=11)
    return e


def _gym(illegal: str = "terminate", **kw):
    kw.setdefault("players", 3)
    e = FandoniaGymEnv(max_turns=20, illegal=illegal, illegal_penalty=0.25, **kw)
    e.reset(seed=11)
    return e


def _illegal_id(mask) -> int:
    return int(np.flatnonzero(np.asarray(mask) == 0)[0])


def _played_game(players: int, seed: int, steps: int) -> Game:
    g = Game(players=players, seed=seed, max_turns=30)
    play_randomly(g, random.Random(seed), steps)
    assert not g.over
    return g


def _assert_names_problem(err: InvalidActionError, bad, legal: list[int]) -> None:
    msg = str(err)
    assert f"legal ids now: {legal}" in msg
    assert f"0..{NUM_ACTIONS - 1}" in msg
    if isinstance(bad, (int, np.integer)) and not isinstance(bad, bool):
        assert f"action id {int(bad)} is outside" in msg
    else:
        assert f"got {type(bad).__name__} {bad!r}" in msg


# ---------------------------------------------------------------------------
# Item 1: malformed actions always raise, state untouched
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("illegal", ["terminate", "raise"])
@pytest.mark.parametrize("bad", [b for _, b in BAD_ACTIONS], ids=[i for i, _ in BAD_ACTIONS])
def test_aec_malformed_action_raises_and_changes_nothing(bad, illegal):
    e = _aec(illegal)
    before, agent = e.unwrapped.game.to_json(), e.agent_selection
    legal = e.unwrapped.game.legal_actions()
    cum = dict(e.unwrapped._cumulative_rewards)
    with pytest.raises(InvalidActionError) as info:
        e.step(bad)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
    assert info.value.legal == legal
    _assert_names_problem(info.value, bad, legal)
    assert agent in str(info.value)
    assert e.unwrapped.game.to_json() == before
    assert e.agent_selection == agent
    assert e.unwrapped._cumulative_rewards == cum
    assert not any(e.terminations.values()) and not any(e.truncations.values())
    e.step(legal[0])  # the env goes on normally


@pytest.mark.parametrize("illegal", ["terminate", "raise", "penalize"])
@pytest.mark.parametrize("bad", [b for _, b in BAD_ACTIONS], ids=[i for i, _ in BAD_ACTIONS])
def test_gym_malformed_action_raises_and_changes_nothing(bad, illegal):
    e = _gym(illegal)
    before, seat = e.unwrapped.game.to_json(), e.seat
    legal = e.game.legal_actions()
    mask = e.action_masks().copy()
    with pytest.raises(InvalidActionError) as info:
        e.step(bad)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
    _assert_names_problem(info.value, bad, legal)
    assert e.unwrapped.game.to_json() == before
    assert e.seat == seat and (e.action_masks() == mask).all()
    e.step(legal[0])


def test_numpy_integer_scalars_and_0d_arrays_are_accepted_in_both_envs():
    for wrap in (np.int64, np.int32, np.uint16, lambda a: np.array(a)):
        e = _aec()
        legal = e.unwrapped.game.legal_actions()
        ref = Game.from_json(e.unwrapped.game.to_json())
        ref.apply(legal[0])
        e.step(wrap(legal[0]))
        assert e.unwrapped.game.to_json() == ref.to_json()
        g = _gym()
        g.step(wrap(g.game.legal_actions()[0]))


# ---------------------------------------------------------------------------
# Item 1: the three illegal-move modes
# ---------------------------------------------------------------------------
def test_aec_illegal_terminate_ends_game_offender_minus_one_others_zero_with_classic_warning():
    e = _aec("terminate", players=4)
    obs, *_ = e.last()
    offender, before = e.agent_selection, e.unwrapped.game.to_json()
    EnvLogger.flush()
    e.step(_illegal_id(obs["action_mask"]))
    assert any(WARNING in str(m) for m in EnvLogger.mqueue)
    assert e.unwrapped.game.to_json() == before  # the illegal move is not played
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e.rewards == {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    assert all(i["result"] == "illegal_move" and i["offender"] == offender for i in e.infos.values())
    seen = {}
    for agent in e.agent_iter(20):
        o, r, term, trunc, info = e.last()
        assert term and not trunc and o["action_mask"].sum() == 0
        seen[agent] = r
        e.step(None)
    assert seen == {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    assert e.agents == []


def test_aec_illegal_raise_raises_engine_error_and_changes_nothing():
    e = _aec("raise")
    obs, *_ = e.last()
    before, agent = e.unwrapped.game.to_json(), e.agent_selection
    with pytest.raises(IllegalActionError) as info:
        e.step(_illegal_id(obs["action_mask"]))
    assert not isinstance(info.value, InvalidActionError)
    assert "illegal action" in str(info.value) and "legal:" in str(info.value)
    assert e.unwrapped.game.to_json() == before and e.agent_selection == agent
    assert not any(e.terminations.values())


def test_aec_rejects_penalize_and_unknown_modes_naming_the_allowed_ones():
    for mode in ("penalize", "ignore", None):
        with pytest.raises(ValueError, match=r"illegal must be one of \['terminate', 'raise'\]"):
            fandonia_v0.env(illegal=mode)


def test_gym_illegal_terminate_ends_episode_with_minus_one_and_classic_warning():
    e = _gym("terminate")
    before = e.game.to_json()
    bad = _illegal_id(e.action_masks())
    EnvLogger.flush()
    obs, r, term, trunc, info = e.step(bad)
    assert any(WARNING in str(m) for m in EnvLogger.mqueue)
    assert (r, term, trunc) == (-1.0, True, False)
    assert info["result"] == "illegal_move" and info["illegal_action"] == bad
    assert e.game.to_json() == before
    assert not e.action_masks().any() and not info["action_mask"].any()
    assert e.observation_space.contains(obs)
    with pytest.raises(RuntimeError, match="episode is over"):
        e.step(e.game.legal_actions()[0])
    e.reset(seed=3)
    assert e.action_masks().any()


def test_gym_illegal_raise_raises_engine_error_and_changes_nothing():
    e = _gym("raise")
    before, mask = e.game.to_json(), e.action_masks().copy()
    with pytest.raises(IllegalActionError) as info:
        e.step(_illegal_id(mask))
    assert not isinstance(info.value, InvalidActionError)
    assert e.game.to_json() == before and (e.action_masks() == mask).all()


def test_gym_illegal_penalize_costs_penalty_and_learner_decides_again():
    e = _gym("penalize")
    before, mask = e.game.to_json(), e.action_masks().copy()
    bad = _illegal_id(mask)
    obs, r, term, trunc, info = e.step(bad)
    assert (r, term, trunc) == (-0.25, False, False) and info["illegal_action"] == bad
    assert e.game.to_json() == before and (e.action_masks() == mask).all()
    assert e.game.current_player() == e.seat
    e.step(int(np.flatnonzero(mask)[0]))
    assert e.game.to_json() != before


def test_gym_default_illegal_mode_is_terminate():
    assert FandoniaGymEnv().illegal == "terminate"
    assert fandonia_v0.raw_env().illegal == "terminate"


def test_gym_illegal_action_is_a_deprecated_alias_of_illegal():
    with pytest.warns(DeprecationWarning, match="use illegal="):
        e = FandoniaGymEnv(illegal_action="penalize")
    assert e.illegal == "penalize"
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="disagree"):
        FandoniaGymEnv(illegal="raise", illegal_action="penalize")


@pytest.mark.parametrize("kw, pattern", [
    ({"illegal": "ignore"}, r"illegal must be one of \['terminate', 'raise', 'penalize'\], got 'ignore'"),
    ({"illegal_penalty": -1}, "illegal_penalty must be a finite number >= 0, got -1"),
    ({"illegal_penalty": float("nan")}, "illegal_penalty must be a finite number"),
    ({"illegal_penalty": "0.1"}, "illegal_penalty must be a finite number >= 0, got '0.1'"),
])
def test_gym_bad_illegal_arguments_rejected_at_construction(kw, pattern):
    with pytest.raises(ValueError, match=pattern):
        FandoniaGymEnv(**kw)


# ---------------------------------------------------------------------------
# Item 3: reset from a position
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("as_string", [False, True])
def test_aec_reset_from_position_continues_the_exact_game(as_string):
    g = _played_game(3, seed=21, steps=40)
    saved = g.to_json()
    e = fandonia_v0.env(players=3, max_turns=30)
    e.reset(seed=99, options={"position": json.dumps(saved) if as_string else saved})
    assert e.unwrapped.game.to_json() == saved
    p = g.current_player()
    assert e.agent_selection == f"player_{p}"
    obs, *_ = e.last()
    assert obs["observation"].tobytes() == encode(g.state, p).tobytes()
    assert set(np.flatnonzero(obs["action_mask"])) == set(g.legal_actions())
    rng = random.Random(4)
    for _ in range(30):
        if g.over:
            break
        a = rng.choice(g.legal_actions())
        g.apply(a)
        e.step(a)
        assert e.unwrapped.game.to_json() == g.to_json()


def test_gym_reset_from_position_continues_the_exact_game_for_the_deciding_seat():
    g = _played_game(4, seed=8, steps=25)
    saved, p = g.to_json(), g.current_player()
    e = FandoniaGymEnv(players=(2, 5), seat=p, max_turns=30)
    obs, info = e.reset(seed=1, options={"position": json.dumps(saved)})
    assert e.game.to_json() == saved
    assert (info["seat"], info["players"]) == (p, 4)
    assert obs.tobytes() == encode_v1(g.state, p).tobytes()
    assert set(np.flatnonzero(e.action_masks())) == set(g.legal_actions())


def test_gym_reset_from_position_lets_opponents_move_until_the_learner_decides():
    g = _played_game(3, seed=8, steps=25)
    seat = (g.current_player() + 1) % 3
    e = FandoniaGymEnv(players=3, seat=seat, max_turns=30)
    e.reset(seed=1, options={"position": g.to_json()})
    assert e.game.over or e.game.current_player() == seat
    assert e.game.state.steps > g.state.steps


def test_gym_reset_from_position_draws_a_seat_of_the_position_when_seat_is_none():
    g = _played_game(5, seed=3, steps=10)
    e = FandoniaGymEnv(players=(2, 6), seat=None, max_turns=30)
    for s in range(6):
        _, info = e.reset(seed=s, options={"position": g.to_json()})
        assert info["players"] == 5 and 0 <= info["seat"] < 5


def test_aec_reset_from_position_rejects_a_different_player_count_and_keeps_the_old_game():
    e = _aec(players=3)
    before = e.unwrapped.game.to_json()
    with pytest.raises(ValueError, match="is a 4-player game; this env has players=3"):
        e.reset(options={"position": _played_game(4, 2, 5).to_json()})
    assert e.unwrapped.game.to_json() == before


def test_gym_reset_from_position_rejects_a_player_count_outside_the_range():
    e = FandoniaGymEnv(players=(2, 4))
    with pytest.raises(ValueError, match=r"is a 5-player game; this env has players=\(2, 4\)"):
        e.reset(options={"position": _played_game(5, 2, 5).to_json()})
    with pytest.raises(ValueError, match="is a 2-player game; this env has players=3"):
        FandoniaGymEnv(players=3).reset(options={"position": _played_game(2, 2, 5).to_json()})


@pytest.mark.parametrize("make", [lambda: fandonia_v0.env(players=3), lambda: FandoniaGymEnv(players=3)],
                         ids=["aec", "gym"])
def test_reset_options_bad_keys_and_bad_positions_are_rejected(make):
    e = make()
    with pytest.raises(ValueError, match=r"unknown reset option\(s\) \['postion'\]; allowed: \['position'\]"):
        e.reset(options={"postion": {}})
    with pytest.raises(ValueError, match="reset options must be a dict or None, got list"):
        e.reset(options=["position"])
    with pytest.raises(ValueError, match="must be a saved game as returned by Game.to_json.*got int"):
        e.reset(options={"position": 42})
    with pytest.raises(StateError):
        e.reset(options={"position": "{not json"})
    with pytest.raises(StateError):
        e.reset(options={"position": {"schema": -1}})
    g = play_randomly(Game(players=3, seed=1, max_turns=1), random.Random(1))
    with pytest.raises(ValueError, match="is a finished game"):
        e.reset(options={"position": g.to_json()})


def test_aec_reset_ignores_pettingzoo_api_test_probe_option():
    e = fandonia_v0.env(players=3)
    e.reset(seed=0, options={"options": 1})
    assert e.agents == e.possible_agents


# ---------------------------------------------------------------------------
# Item 7: module attribute, docstring, calls before reset()
# ---------------------------------------------------------------------------
def test_fandonia_v0_is_an_attribute_of_the_package_in_a_fresh_interpreter():
    code = "import fandonia_env; e = fandonia_env.fandonia_v0.env(players=2); e.reset(seed=0); print(e.agents)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['player_0', 'player_1']"


def test_fandonia_v0_docstring_matches_the_shaping_code_and_names_no_missing_wrapper():
    doc = fandonia_v0.__doc__
    assert "IllegalActionPenalty" not in doc
    assert "0.01 x (PP + 2 x IP)" in doc
    e = fandonia_v0.raw_env(players=3, shaped=True)
    e.reset(seed=4)
    for i, pl in enumerate(e.game.state.players):
        assert e._phi(i) == pytest.approx(0.01 * (pl.pp + 2 * pl.ip))
    for mode in ('"terminate"', '"raise"', "InvalidActionError", 'options={"position"'):
        assert mode in doc


@pytest.mark.parametrize("make", [fandonia_v0.env, fandonia_v0.raw_env], ids=["wrapped", "raw"])
def test_aec_calls_before_reset_raise_runtime_error_naming_reset(make):
    e = make(players=3, render_mode="ansi")
    for name, call in [("observe", lambda: e.observe("player_0")), ("last", e.last), ("render", e.render),
                       ("step", lambda: e.step(0))]:
        with pytest.raises(RuntimeError, match=rf"call reset\(\) before {name}\(\)"):
            call()


def test_gym_calls_before_reset_raise_runtime_error_naming_reset():
    e = FandoniaGymEnv(render_mode="ansi")
    for name, call in [("action_masks", e.action_masks), ("step", lambda: e.step(0)), ("render", e.render)]:
        with pytest.raises(RuntimeError, match=rf"call reset\(\) before {name}\(\)"):
            call()

"""Gymnasium registration of ``FandoniaGymEnv`` (issue 9, item 4): ``gymnasium.make``,
``gymnasium.make_vec`` (sync and async), ``spec``, metadata, constructor-time validation and both
``check_env``s on the default constructor."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest

import fandonia_env
from fandonia_env import GYM_ENV_ID, FandoniaGymEnv
from fandonia_env.engine import ConfigError
from fandonia_env.engine.core.actions import NUM_ACTIONS
from fandonia_env.spaces.observation import OBS_SIZE

#: "fandonia_env/Fandonia-v0" is the id users already write (it must keep working, issue 41); gymnasium warns on
#: every make of it that a v1 exists, which is gymnasium's note on its versions, not a deprecation of the project's
pytestmark = pytest.mark.filterwarnings("ignore:.*The environment fandonia_env/Fandonia-v0 is out of date:DeprecationWarning")


def test_registered_id_is_made_after_import_fandonia_env_in_a_fresh_interpreter():
    code = ("import gymnasium, fandonia_env; e = gymnasium.make('fandonia_env/Fandonia-v0', players=3); "
            "o, i = e.reset(seed=0); print(type(e.unwrapped).__name__, e.spec.id, o.shape, i['players'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "FandoniaGymEnv fandonia_env/Fandonia-v0 (2937,) 3"


def test_make_sets_spec_and_passes_kwargs():
    assert GYM_ENV_ID == "fandonia_env/Fandonia-v0"
    e = gymnasium.make(GYM_ENV_ID, players=(2, 3), seat=1, max_turns=7, edition="errata")
    u = e.unwrapped
    assert isinstance(u, FandoniaGymEnv)
    assert u.spec is not None and u.spec.id == GYM_ENV_ID
    assert u.spec.entry_point == "fandonia_env.envs.gym_env:FandoniaGymEnv"
    assert (u.players_range, u.fixed_seat, u.max_turns, u.config) == ((2, 3), 1, 7, {"edition": "errata"})
    obs, info = e.reset(seed=5)
    assert obs.shape == (OBS_SIZE,) and info["seat"] == 1
    assert u.game.state.config["edition"] == "errata"
    e.close()


def test_metadata_declares_render_modes_and_fps():
    md = FandoniaGymEnv.metadata
    assert md["render_modes"] == ["ansi", "human"]
    assert isinstance(md["render_fps"], int) and md["render_fps"] > 0


def test_registration_is_guarded_against_double_registration():
    spec = gymnasium.spec(GYM_ENV_ID)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # gymnasium warns "Overriding environment" on a re-registration
        fandonia_env._register_gym()
    assert gymnasium.spec(GYM_ENV_ID) is spec
    assert sum(1 for k in gymnasium.registry if k == GYM_ENV_ID) == 1


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_sync_and_async_step_masked_actions(mode):
    v = gymnasium.make_vec(GYM_ENV_ID, num_envs=2, vectorization_mode=mode, players=3, max_turns=5)
    try:
        obs, info = v.reset(seed=3)
        assert obs.shape == (2, OBS_SIZE) and info["action_mask"].shape == (2, NUM_ACTIONS)
        assert v.single_action_space == gymnasium.spaces.Discrete(NUM_ACTIONS)
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(60):
            # next-step autoreset (Gymnasium 1.x): an env that just ended has an empty mask and
            # ignores its next action, which resets it
            acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
            obs, rew, term, trunc, info = v.step(acts)
            assert obs.shape == (2, OBS_SIZE) and rew.shape == (2,)
            done = term | trunc
            assert (info["action_mask"].any(axis=1) | done).all()
            assert set(info["result"][done]) <= {"win", "draw", "truncated"}  # never "illegal_move"
            ended += int(done.sum())
        assert ended >= 1
    finally:
        v.close()


def test_make_vec_async_reset_is_seeded_and_deterministic():
    obs = []
    for _ in range(2):
        v = gymnasium.make_vec(GYM_ENV_ID, num_envs=2, vectorization_mode="async", players=4)
        o, _ = v.reset(seed=17)
        obs.append(o)
        v.close()
    assert np.array_equal(obs[0], obs[1])


def test_gymnasium_check_env_passes_on_the_default_constructor():
    from gymnasium.utils.env_checker import check_env

    check_env(FandoniaGymEnv())


def test_gymnasium_check_env_passes_on_the_made_env_with_its_render_modes(capsys):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(GYM_ENV_ID).unwrapped)
    assert not [w for w in caught if "render" in str(w.message)]  # spec set: render modes were checked
    assert "Deciding: player" in capsys.readouterr().out  # the "human" mode printed a picture


def test_sb3_check_env_passes_on_the_default_constructor():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    check_env(FandoniaGymEnv())
    check_env(FandoniaGymEnv(players=(2, 6), seat=None, max_turns=4))


def test_reset_with_a_seed_is_deterministic():
    e1, e2 = FandoniaGymEnv(players=(2, 6)), FandoniaGymEnv(players=(2, 6))
    for seed in (0, 7, 123):
        (o1, i1), (o2, i2) = e1.reset(seed=seed), e2.reset(seed=seed)
        assert np.array_equal(o1, o2) and (i1["seat"], i1["players"]) == (i2["seat"], i2["players"])
        assert e1.game.to_json() == e2.game.to_json()


@pytest.mark.parametrize("kw, err, pattern", [
    ({"edition": "1999"}, ConfigError, "config field 'edition' must be one of"),
    ({"preset": "nope"}, ConfigError, "valid presets"),
    ({"optional": ["no_such_rule"]}, ConfigError, "no_such_rule"),
    ({"max_turns": 0}, ConfigError, "'max_turns' must be None or a positive int"),
    ({"colour": "red"}, ConfigError, r"unknown config field\(s\) \['colour'\]"),
    ({"players": 7}, ValueError, r"players must be an int 2..6 or a range"),
    ({"players": (4, 2)}, ValueError, r"players must be an int 2..6 or a range"),
    ({"players": 3.0}, ValueError, r"players must be an int 2..6 or a range"),
    ({"seat": 3, "players": (3, 5)}, ValueError, r"seat must be None or an int 0..2"),
    ({"render_mode": "rgb_array"}, ValueError, r"render_mode must be None or one of \['ansi', 'human'\]"),
    ({"opponents": "nobody-v9"}, ValueError, r"unknown opponent agent id 'nobody-v9'; registered: .*random-v1"),
    ({"opponents": [3]}, ValueError, "an opponent must be a registered agent id"),
    ({"seed": 3}, ValueError, r"no seed= argument: seed episodes with reset\(seed=...\)"),
    ({"shaped": "yes"}, ValueError, "shaped must be a bool"),
])
def test_bad_constructor_arguments_fail_at_construction_and_through_make(kw, err, pattern):
    with pytest.raises(err, match=pattern):
        FandoniaGymEnv(**kw)
    with pytest.raises(err, match=pattern):
        gymnasium.make(GYM_ENV_ID, **kw)

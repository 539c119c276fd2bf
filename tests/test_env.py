"""The PettingZoo AEC env ``fandonia_v0`` and the Gymnasium single-learner env."""

from __future__ import annotations

import functools
import json
import pickle
import random
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from fandonia_env import FandoniaGymEnv, fandonia_v0
from fandonia_env.engine import IllegalActionError
from fandonia_env.engine.core.actions import NUM_ACTIONS
from fandonia_env.engine.face.hidden import resample
from fandonia_env.spaces.observation import LABELS, OBS_SIZE, encode, label

warnings.filterwarnings("ignore", category=UserWarning)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_pettingzoo_api_seed_render_and_pickle(n):
    from pettingzoo.test import api_test, render_test, seed_test

    api_test(fandonia_v0.env(players=n, max_turns=4), num_cycles=200)
    seed_test(functools.partial(fandonia_v0.env, players=n, max_turns=4), num_cycles=100)
    render_test(functools.partial(fandonia_v0.env, players=n, max_turns=3, render_mode="ansi"))
    e = fandonia_v0.env(players=n, max_turns=4)
    e.reset(seed=1)
    for _ in range(10):
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    e2 = pickle.loads(pickle.dumps(e))
    assert e2.unwrapped.game.state == e.unwrapped.game.state


def test_pettingzoo_registry_make():
    import pettingzoo

    e = pettingzoo.make("aec", "fandonia/Fandonia-v0", players=3)
    e.reset(seed=0)
    assert e.unwrapped.metadata["name"] == "fandonia_v0"


def test_same_space_for_every_agent_and_player_count():
    spaces_ = set()
    for n in range(2, 7):
        e = fandonia_v0.raw_env(players=n)
        for a in e.possible_agents:
            sp = e.observation_space(a)
            spaces_.add((sp["observation"].shape, sp["action_mask"].shape))
    assert spaces_ == {((OBS_SIZE,), (NUM_ACTIONS,))}


def random_walk(e: Any, seed: int, limit: int) -> Iterator[tuple[str, dict, float, bool, bool, dict]]:
    """Resets the AEC env ``e`` and plays random legal actions (``None`` for a done agent), yielding
    each agent's ``last()`` before it steps."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    for agent in e.agent_iter(limit):
        obs, r, term, trunc, info = e.last()
        yield agent, obs, r, term, trunc, info
        e.step(None if term or trunc else rng.choice(list(np.flatnonzero(obs["action_mask"]))))


def test_masks_zero_for_non_deciding_agents_and_nonzero_for_the_decider():
    e = fandonia_v0.env(players=4, max_turns=4)
    for agent, obs, _r, term, trunc, _info in random_walk(e, 3, 400):
        if term or trunc:
            continue
        assert obs["action_mask"].sum() >= 2
        for other in e.agents:
            if other != agent:
                assert e.observe(other)["action_mask"].sum() == 0


def test_illegal_action_raises_engine_error_with_illegal_raise():
    e = fandonia_v0.env(players=3, illegal="raise")
    e.reset(seed=1)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(bad)


def test_action_strings_round_trip():
    for a in (0, 5, NUM_ACTIONS - 1):
        assert fandonia_v0.string_to_action(fandonia_v0.action_to_string(a)) == a
    with pytest.raises(ValueError, match="no action named"):
        fandonia_v0.string_to_action("fly")


def test_observation_labels_cover_every_index():
    assert len(LABELS) == OBS_SIZE and len(set(LABELS)) == OBS_SIZE
    assert label(0) == "turn"


def test_env_level_leak_resampling_hidden_cards_leaves_observation_identical():
    e = fandonia_v0.raw_env(players=4, max_turns=6)
    e.reset(seed=5)
    rng = random.Random(5)
    for _ in range(150):
        if e.game.over:
            break
        st = e.game.state
        for i in range(4):
            r = resample(st, i, rng)
            assert encode(r, i).tobytes() == encode(st, i).tobytes()
        e.game.apply(rng.choice(e.game.legal_actions()))


def test_truncation_sets_truncations_not_terminations():
    e = fandonia_v0.env(players=2, max_turns=1)
    for _agent, _obs, r, term, trunc, info in random_walk(e, 2, 2000):
        if term or trunc:
            assert trunc and not term
            assert info["result"] == "truncated" and r == 0


# ---------------------------------------------------------------------------
# Gymnasium single-learner env
# ---------------------------------------------------------------------------


def test_gymnasium_and_sb3_check_env():
    from gymnasium.utils.env_checker import check_env

    check_env(FandoniaGymEnv(players=3, max_turns=4, illegal="penalize"), skip_render_check=True)
    sb3 = pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env as sb3_check

    assert sb3 is not None
    sb3_check(FandoniaGymEnv(players=(2, 6), max_turns=4, illegal="penalize"))


def _play_gym(env, seed):
    obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    total = 0.0
    while True:
        m = env.action_masks()
        assert m.any(), "action_masks() all zero while the learner must decide"
        assert (info["action_mask"].astype(bool) == m).all()
        obs, r, term, trunc, info = env.step(rng.choice(list(np.flatnonzero(m))))
        total += r
        if term or trunc:
            return total, info


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_learner_reward_sign_matches_outcome_whatever_the_seat(seat):
    env = FandoniaGymEnv(players=3, seat=seat, max_turns=6)
    seen = set()
    for s in range(6):
        total, info = _play_gym(env, s)
        if info["result"] == "win":
            assert (total > 0) == (info["winner"] == seat)
            assert total == (1.0 if info["winner"] == seat else -0.5)
        else:
            assert total == 0.0
        seen.add(info["result"])
    assert seen


def test_learner_reward_with_forced_win_and_loss():
    """Force the end of the game on an opponent's move and on the learner's."""
    env = FandoniaGymEnv(players=2, seat=0, max_turns=50)
    env.reset(seed=1)
    st = env.game.state
    st.over, st.result, st.winner = True, "win", 0
    assert env._final_reward() == 1.0
    st.winner = 1
    assert env._final_reward() == -1.0


def test_learner_observation_is_its_own_view():
    from fandonia_env.spaces.observation_v1 import encode_v1

    env = FandoniaGymEnv(players=4, seat=2, max_turns=3)
    obs, info = env.reset(seed=9)
    assert np.array_equal(obs, encode_v1(env.game.state, 2))
    assert env.game.current_player() == 2
    env0 = FandoniaGymEnv(players=4, seat=2, max_turns=3, observation="v0")
    obs0, _ = env0.reset(seed=9)
    assert np.array_equal(obs0, encode(env0.game.state, 2))
    with pytest.raises(ValueError, match="observation must be"):
        FandoniaGymEnv(observation="v2")


def test_seat_and_player_count_drawn_per_episode():
    env = FandoniaGymEnv(players=(2, 6), max_turns=2)
    combos = set()
    for s in range(12):
        _, info = env.reset(seed=s)
        combos.add((info["players"], info["seat"]))
    assert len({c[0] for c in combos}) > 1 and len({c[1] for c in combos}) > 1


def test_maskable_ppo_smoke_trains_a_few_thousand_steps():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    env = FandoniaGymEnv(players=3, max_turns=8)
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=1, seed=0, verbose=0,
                        policy_kwargs={"net_arch": [64, 64]})
    model.learn(total_timesteps=2048)
    obs, _ = env.reset(seed=0)
    a, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[int(a)]


def test_training_script_runs_a_tiny_config(tmp_path):
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("yaml")
    from fandonia_env.training.train_ppo import load_config, main

    cfg = load_config("configs/ppo_vs_random.yaml")
    assert cfg["env"]["opponents"] == "random-v1"
    assert main(["--config", "configs/ppo_vs_random.yaml", "--timesteps", "256", "--eval-games", "2",
                 "--out", str(tmp_path)]) == 0
    ev = json.loads((tmp_path / "eval.json").read_text())
    assert ev["games"] == 2 and (tmp_path / "model.zip").exists()


def test_training_config_errors_name_the_missing_key(tmp_path):
    pytest.importorskip("yaml")
    from fandonia_env.training.train_ppo import load_config

    bad = tmp_path / "bad.yaml"
    bad.write_text("env: {}\n")
    with pytest.raises(ValueError, match="missing key"):
        load_config(str(bad))

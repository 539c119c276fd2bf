"""Ray RLlib recipe (issue 14): multi-agent PPO on fandonia_v1 with the action mask, checkpoints that
restore and play 2-6 player games, and the exported policy in the tournament runner.

Needs the optional extra ``pip install -e '.[rllib]'``; skipped without it.  One short training run
(2 iterations, 1 env runner, a local Ray on 2 CPUs) is shared by the tests of this module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="the RLlib recipe needs torch (pip install -e '.[rllib]')")
pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed: pip install -e '.[rllib]' (optional extra)")

import ray  # noqa: E402
import torch  # noqa: E402

from fandonia_env.engine.core.actions import NUM_ACTIONS  # noqa: E402
from fandonia_env.training import rllib_train as R  # noqa: E402
from fandonia_env.training.common import ConfigError, validate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _cfg(out: Path, **kw: object) -> dict:
    cfg = {"out": str(out), "players": [2, 6], "opponents": ["random-v1", "noble-rule-v1", "snapshot"],
           "max_turns": 15, "hidden": [32], "entity_hidden": 8, "entity_dim": 4, "iterations": 2,
           "train_batch_size": 300, "minibatch_size": 100, "num_epochs": 1, "num_env_runners": 1,
           "num_cpus": 2, "checkpoint_every": 1, "keep_checkpoints": 2, "snapshot_every": 1,
           "eval_every": -1, "seed": 5, "progress": False}
    cfg.update(kw)
    return validate(cfg, R.SCHEMA)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Train 2 iterations (local Ray, 2 CPUs, 1 env runner, masking on), then resume for a 3rd."""
    out = tmp_path_factory.mktemp("rllib") / "run"
    try:
        first = R.train(_cfg(out))
        resumed = R.train(_cfg(out, iterations=3), resume=True)
    finally:
        ray.shutdown()
    return {"out": out, "first": first, "resumed": resumed}


# ---------------------------------------------------------------------------
# Environment and module (no Ray workers)
# ---------------------------------------------------------------------------


def _random_episode(env: R.FandoniaMultiAgentEnv, rng: np.random.Generator) -> tuple[set, dict, dict]:
    obs, _ = env.reset()
    roles: set = set()
    while True:
        assert len(obs) == 1, f"one seat decides at a time, got {sorted(obs)}"
        acts = {r: int(rng.choice(np.flatnonzero(o["action_mask"]))) for r, o in obs.items()}
        roles |= set(acts)
        obs, rew, term, trunc, info = env.step(acts)
        if term["__all__"] or trunc["__all__"]:
            return roles, rew, info


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_env_scripted_opponents_stay_inside_and_the_learner_gets_the_result(players: int) -> None:
    env = R.FandoniaMultiAgentEnv({"players": players, "opponents": ["noble-rule-v1"], "max_turns": 20, "seed": players})
    roles, rew, info = _random_episode(env, np.random.default_rng(players))
    assert roles == {R.LEARNER}
    assert env.game.n_players == players and env.game.over
    res = info[R.LEARNER]
    assert res["result"] in ("win", "draw", "truncated") and res["players"] == players
    assert res["illegal_actions"] == 0 and env.illegal_actions == 0
    expected = 0.0 if res["result"] != "win" else (1.0 if res["learner_won"] else -1.0 / (players - 1))
    assert rew[R.LEARNER] == pytest.approx(expected)


def test_env_snapshot_opponents_are_exposed_and_mapped_to_the_frozen_module() -> None:
    env = R.FandoniaMultiAgentEnv({"players": 4, "opponents": ["snapshot"], "max_turns": 10, "seed": 1})
    roles, _rew, _info = _random_episode(env, np.random.default_rng(0))
    assert roles == {"learner", "opponent_1", "opponent_2", "opponent_3"}
    assert {R.policy_mapping_fn(r) for r in roles} == {"learner", "snapshot"}
    assert R.policy_mapping_fn("learner") == "learner" and R.policy_mapping_fn("opponent_2") == "snapshot"


def test_env_with_the_v1r_encoder_gives_every_exposed_seat_its_v1r_observation() -> None:
    """``encoder: v1r``: the exposed seats observe ``fandonia_env.spaces.encoders`` v1r (the env's v1 vector followed by
    the rule features) of the current state, and the space says so."""
    from fandonia_env.spaces.encoders import get_encoder

    enc = get_encoder("v1r")
    env = R.FandoniaMultiAgentEnv({"players": 3, "opponents": ["snapshot"], "max_turns": 6, "seed": 2,
                                   "encoder": "v1r"})
    assert env.observation_spaces[R.LEARNER]["observation"].shape == (enc.size,)
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        (role, o), = obs.items()
        s = env.env.agent_selection
        p = env.env.unwrapped.agent_name_mapping[s]
        assert o["observation"].tobytes() == enc.encode(env.game.state, p).tobytes()
        assert env.observation_spaces[role].contains(o)
        obs, _rew, term, trunc, _info = env.step({role: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        if term["__all__"] or trunc["__all__"]:
            break


def test_module_widens_a_v1_init_to_v1r(tmp_path: Path) -> None:
    """A v1 checkpoint starts a v1r learner: same weights, zero weight on the rule features."""
    from fandonia_env.spaces.encoders import get_encoder
    from fandonia_env.training.model import PolicyNet, save_checkpoint

    v1, v1r = get_encoder("v1"), get_encoder("v1r")
    net = PolicyNet.for_encoder(v1, NUM_ACTIONS, [16], 8, 4)
    save_checkpoint(tmp_path / "v1.pt", net, v1)
    mod = R.MaskedPolicyModule(observation_space=None, action_space=None,
                               model_config={"encoder": "v1r", "hidden": [16], "entity_hidden": 8, "entity_dim": 4,
                                             "init": str(tmp_path / "v1.pt")})
    w = mod.net.trunk[0].weight.detach()
    assert w.shape[1] == v1r.size
    assert torch.equal(w[:, : v1.size], net.trunk[0].weight.detach()) and not w[:, v1.size:].any()


def test_env_counts_an_action_outside_the_mask() -> None:
    env = R.FandoniaMultiAgentEnv({"players": 2, "opponents": ["random-v1"], "seed": 3})
    obs, _ = env.reset()
    mask = obs[R.LEARNER]["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    _obs, rew, term, _trunc, info = env.step({R.LEARNER: bad})
    assert env.illegal_actions == 1
    assert term["__all__"] and info[R.LEARNER]["result"] == "illegal_move" and rew[R.LEARNER] == -1.0


def test_module_gives_illegal_ids_no_probability() -> None:
    import gymnasium as gym

    from fandonia_env import fandonia_v1

    space = fandonia_v1.observation_space_v1()
    m = R.MaskedPolicyModule(observation_space=space, action_space=gym.spaces.Discrete(NUM_ACTIONS),
                             model_config={"hidden": [16], "entity_hidden": 4, "entity_dim": 4})
    env = fandonia_v1.env(players=3, seed=2)
    env.reset(seed=2)
    ob = env.observe(env.agent_selection)
    legal = np.flatnonzero(ob["action_mask"])
    assert 1 < len(legal) < NUM_ACTIONS
    batch = {"obs": {"observation": torch.as_tensor(np.stack([ob["observation"]] * 4)),
                     "action_mask": torch.as_tensor(np.stack([ob["action_mask"]] * 4))}}
    for fwd in (m.forward_inference, m.forward_exploration, m.forward_train):
        with torch.no_grad():
            logits = fwd(batch)["action_dist_inputs"]
        p = torch.softmax(logits, -1)
        illegal = np.setdiff1d(np.arange(NUM_ACTIONS), legal)
        assert float(p[:, illegal].sum()) == 0.0
        assert float(p[:, legal].sum(-1).min()) == pytest.approx(1.0)
    gen = torch.Generator().manual_seed(0)
    picks = {R.module_act(m, ob, greedy=False, generator=gen) for _ in range(200)}
    assert picks <= set(legal.tolist()) and len(picks) > 1
    assert m.compute_values(batch).shape == (4,)


def test_config_errors_name_the_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="players"):
        R.check_config(_cfg(tmp_path, players=[1, 7]))
    with pytest.raises(ConfigError, match="opponents.*nobody-v9"):
        R.check_config(_cfg(tmp_path, opponents=["nobody-v9"]))
    with pytest.raises(ConfigError, match="num_env_runners"):
        R.check_config(_cfg(tmp_path, num_env_runners=-1))
    with pytest.raises(ConfigError, match="unknown key"):
        validate({"out": "x", "num_workers": 2}, R.SCHEMA)


# ---------------------------------------------------------------------------
# Training, checkpoints, export
# ---------------------------------------------------------------------------


def test_training_with_masking_never_chooses_an_illegal_action(run: dict) -> None:
    first, resumed = run["first"], run["resumed"]
    assert first["env_steps"] >= 2 * 300
    assert first["decisions"] >= first["env_steps"] * 0.5  # the learner's (and snapshots') decisions counted
    assert first["illegal_actions"] == 0 and resumed["illegal_actions"] == 0
    rows = (run["out"] / "train.csv").read_text().splitlines()
    assert len(rows) == 1 + 3  # header + iterations 1, 2 and the resumed 3
    assert resumed["env_steps"] > first["env_steps"]


def test_checkpoint_restores_and_plays_complete_games_at_2_to_6_players(run: dict) -> None:
    ck = R.latest_checkpoint(run["out"])
    assert ck is not None and ck.name == "iter_00003"
    assert len(list((run["out"] / "checkpoints").glob("iter_*"))) == 2  # keep_checkpoints
    module = R.load_module(ck)
    assert isinstance(module, R.MaskedPolicyModule)
    for n in range(2, 7):
        r = R.play_games(module, n, 1, opponent="random-v1", seed=n, max_turns=15)
        assert r["results"][0] in ("win", "draw", "truncated"), r
        assert r["decisions"] > 0 and r["illegal_actions"] == 0


def test_exported_policy_is_the_checkpointed_learner(run: dict) -> None:
    from fandonia_env import fandonia_v1
    from fandonia_env.agents.ppo_agent import load_policy

    module = R.load_module(R.latest_checkpoint(run["out"]))
    pol = load_policy(run["out"] / "policy.npz")
    assert pol.header["training"]["trainer"] == "rllib-ppo"
    assert pol.header["training"]["steps"] == run["resumed"]["env_steps"]
    env = fandonia_v1.env(players=4, seed=7)
    env.reset(seed=7)
    ob = env.observe(env.agent_selection)
    batch = {"obs": {"observation": torch.as_tensor(ob["observation"][None]),
                     "action_mask": torch.as_tensor(ob["action_mask"][None])}}
    with torch.no_grad():
        torch_logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
    np_logits, _ = pol.forward(ob["observation"][None], ob["action_mask"][None].astype(bool))
    legal = ob["action_mask"].astype(bool)
    np.testing.assert_allclose(np_logits[0][legal], torch_logits[legal], rtol=1e-4, atol=1e-4)


def test_exported_policy_plays_in_the_tournament_runner(run: dict) -> None:
    pol = run["out"] / "policy.npz"
    cmd = [sys.executable, "-m", "fandonia_env.tournament", "--lineup", f"ppo:{pol},random-v1", "--games", "2",
           "--max-turns", "10", "--jobs", "1", "--no-progress"]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert f"ppo:{pol}" in p.stdout and "Results:" in p.stdout

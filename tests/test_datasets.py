"""Minari datasets of the nobles' games (issue 44, docs/datasets.md): ``python -m fandonia_env.datasets create``
writes through Minari's ``DataCollector``, ``minari.load_dataset`` opens it, its action masks agree with the
engine's legal actions on every step, and behaviour cloning trains a policy the tournament plays.  Needs the
``datasets`` extra (skipped without it); the cloning test also the ``train`` extra."""

from __future__ import annotations

import os

import numpy as np
import pytest

minari = pytest.importorskip("minari")
pytest.importorskip("jax")

from fandonia_env.datasets import DECISION_KINDS, check_dataset, create_dataset, dataset_id_for, project_version  # noqa: E402
from fandonia_env.datasets.__main__ import main  # noqa: E402
from fandonia_env.engine import ConfigError  # noqa: E402

DATASET = "fandonia/noble-rule-v1-2p-errata-v0"


@pytest.fixture(scope="module")
def datasets_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("minari")
    old = os.environ.get("MINARI_DATASETS_PATH")
    create_dataset("noble-rule-v1", 2, 4, {"preset": "errata"}, seed=7, max_turns=12, out=str(path), progress=False)
    yield path
    if old is None:
        os.environ.pop("MINARI_DATASETS_PATH", None)
    else:
        os.environ["MINARI_DATASETS_PATH"] = old


@pytest.fixture
def dataset(datasets_path, monkeypatch):
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(datasets_path))
    return minari.load_dataset(DATASET)


def test_create_writes_a_minari_dataset_that_load_dataset_opens(dataset):
    assert dataset.total_episodes == 4 and dataset.total_steps > 20
    meta = dataset.storage.metadata
    assert meta["algorithm_name"] == "noble-rule-v1" and meta["dataset_id"] == DATASET
    f = meta["fandonia"]
    assert f["noble"] == "noble-rule-v1" and f["opponents"] == ["noble-rule-v1"] and f["players"] == 2
    assert (f["preset"], f["edition"], f["max_turns"], f["observation"]) == ("errata", "errata", 12, "v1")
    assert f["seeds"]["first"] == 7 and f["seeds"]["last"] == 10 and f["project_version"] == project_version()
    assert f["decision_kinds"] == list(DECISION_KINDS) and 0 <= f["float16_max_abs_error"] < 0.01
    seeds = [m["seed"] for m in dataset.storage.get_episode_metadata(range(4))]
    assert seeds == [7, 8, 9, 10]  # episode k: env.reset(seed=seed + k)
    space = dataset.spec.observation_space
    assert set(space.spaces) == {"observation", "action_mask"} and space["action_mask"].shape == (252,)
    for ep in dataset.iterate_episodes():
        t = len(ep.actions)
        assert ep.observations["observation"].shape == (t + 1, 6441)
        assert ep.observations["observation"].dtype == np.float16
        assert ep.observations["action_mask"].shape == (t + 1, 252)
        assert not ep.observations["action_mask"][-1].any()  # after the game: nothing to do
        assert ep.terminations[-1] or ep.truncations[-1]
        assert not ep.terminations[:-1].any() and not ep.truncations[:-1].any()
        assert (ep.rewards[:-1] == 0).all() and ep.rewards[-1] in (1.0, -1.0, 0.0)  # docs/rewards.md, 2 players
        kinds = ep.infos["kind"]
        assert (kinds[:-1] >= 0).all() and kinds[-1] == -1
        assert set(ep.infos) == {"seat", "players", "turn", "kind"} and (ep.infos["players"] == 2).all()


def test_action_masks_agree_with_the_engines_legal_actions_on_every_step(dataset):
    r = check_dataset(dataset)  # each episode replayed from its seed with its actions
    assert r == {"episodes": 4, "steps": dataset.total_steps}
    for ep in dataset.iterate_episodes():
        for t, a in enumerate(ep.actions):
            assert ep.observations["action_mask"][t, a] == 1


def test_a_changed_mask_fails_the_check(datasets_path, tmp_path, monkeypatch):
    import shutil

    import h5py

    src = datasets_path / DATASET
    dst = tmp_path / "copy" / DATASET
    shutil.copytree(src, dst)
    with h5py.File(dst / "data" / "main_data.hdf5", "r+") as f:
        mask = f["episode_1"]["observations"]["action_mask"]
        row = mask[3]
        row[np.flatnonzero(row == 0)[0]] = 1  # one more "legal" action
        mask[3] = row
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "copy"))
    with pytest.raises(ValueError, match=r"episode 1 step 3: the action mask .* is not the engine's legal actions"):
        check_dataset(minari.load_dataset(DATASET))


def test_the_command_line_creates_and_checks(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("MINARI_DATASETS_PATH", raising=False)
    out = tmp_path / "data"
    assert main(["create", "--noble", "random-v1", "--players", "3", "--episodes", "2", "--preset", "short-game",
                 "--max-turns", "4", "--observation", "v0", "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "dataset fandonia/random-v1-3p-short-game-v0-v0: 2 episodes" in text and "minari.load_dataset" in text
    assert main(["check", "--dataset", "fandonia/random-v1-3p-short-game-v0-v0", "--path", str(out)]) == 0
    assert "every action mask is the engine's legal actions" in capsys.readouterr().out
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(out))
    ds = minari.load_dataset("fandonia/random-v1-3p-short-game-v0-v0")
    assert ds.spec.observation_space["observation"].shape == (2937,)  # v0


def test_bad_arguments_name_what_is_allowed(tmp_path):
    with pytest.raises(ValueError, match=r"unknown agent 'nope'"):
        create_dataset("nope", 4, 1, out=str(tmp_path))
    with pytest.raises(ValueError, match=r"players must be an int from 2 to 6, got 7"):
        create_dataset("random-v1", 7, 1, out=str(tmp_path))
    with pytest.raises(ValueError, match=r"observation must be one of \['v1', 'v1r', 'v1b', 'v1c', 'v0'\]"):
        create_dataset("random-v1", 2, 1, observation="v9", out=str(tmp_path))
    with pytest.raises(ValueError, match=r"dtype must be one of \['float16', 'float32'\]"):
        create_dataset("random-v1", 2, 1, dtype="int8", out=str(tmp_path))
    with pytest.raises(ConfigError, match=r"unknown preset"):
        create_dataset("random-v1", 2, 1, {"preset": "nope"}, out=str(tmp_path))
    with pytest.raises(SystemExit):
        main(["create", "--noble", "random-v1", "--episodes", "0"])


def test_an_encoder_with_memory_records_what_a_playing_agent_computes(tmp_path, monkeypatch):
    ds = create_dataset("noble-rule-v1", 3, 2, {"preset": "1981"}, seed=3, max_turns=6, observation="v1c",
                        out=str(tmp_path), progress=False)
    assert ds.spec.dataset_id == "fandonia/noble-rule-v1-3p-1981-v1c-v0"
    assert ds.spec.observation_space["observation"].shape == (7167,)
    assert check_dataset(ds)["episodes"] == 2  # the v1c vectors, previous decision kind included, replay


def test_dataset_ids_name_the_noble_table_and_rules():
    assert dataset_id_for("noble-ppo-v2", 4, {"preset": "errata"}) == "fandonia/noble-ppo-v2-4p-errata-v0"
    assert dataset_id_for("noble-rule-v1", 4, {"preset": "errata"}, "v1r") == "fandonia/noble-rule-v1-4p-errata-v1r-v0"
    assert dataset_id_for("ppo:runs/x.npz", 2, {"edition": "errata", "optional": ["clemency"]}) == \
        "fandonia/ppo-runs-x-npz-2p-errata-clemency-v0"


def test_behaviour_cloning_trains_a_policy_the_tournament_plays(datasets_path, tmp_path):
    pytest.importorskip("torch")
    from fandonia_env.arena.tournament import run_tournament
    from fandonia_env.datasets.bc import behaviour_clone

    m = behaviour_clone(DATASET, tmp_path / "bc", str(datasets_path), epochs=1, hidden=[32], entity_hidden=8,
                        entity_dim=4, progress=False, threads=1)
    assert m["shards"]["episodes"] == 4 and m["agent"].startswith("ppo:") and m["agent"].endswith("policy.npz")
    r = run_tournament(lineup=[m["agent"], "noble-rule-v1"], games=2, max_turns=3, jobs=1, progress=False,
                       plot=False, bootstrap=10, rules={"preset": "errata"})
    assert r.summary["agents"][m["agent"]]["games"] == 2


def test_the_cloning_command_measures_to_the_rules_end_on_the_seeds_given(datasets_path, tmp_path, capsys):
    """`bc` measures strength as the project does: no turn limit unless asked (ruling R11), on a seed range the
    user names (fresh deals), whatever turn limit the dataset was recorded under (12 here)."""
    pytest.importorskip("torch")
    args = ["bc", "--dataset", DATASET, "--path", str(datasets_path), "--out", str(tmp_path / "bc"),
            "--set", "epochs=1", "--set", "hidden=[32]", "--set", "entity_hidden=8", "--set", "entity_dim=4",
            "--set", "progress=false", "--set", "threads=1"]
    assert main(args + ["--seed", "44300000"]) == 0
    cmd = capsys.readouterr().out.split("measure it: ")[1]
    assert "--seed 44300000 --max-turns 0 --preset errata" in cmd
    with pytest.raises(SystemExit):
        main(args + ["--seed", "-1"])

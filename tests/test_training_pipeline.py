"""The training pipeline (issue 10): collect -> imitate -> export -> ppo agent -> evaluate, on tiny
settings, plus the pieces: config key errors, resumable shards, masking, the entity head's use of
the action -> character map, numpy vs torch forward, an agent's observation == the seat's encoding."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from fandonia_env.agents import make_agent  # noqa: E402
from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.engine.core.actions import NAME, NUM_ACTIONS  # noqa: E402
from fandonia_env.engine.face.hidden import InfoSet  # noqa: E402
from fandonia_env.spaces.encoders import (  # noqa: E402
    catalogue_action_maps,
    default_encoder,
    get_encoder,
    v1_available,
    v1_view_available,
)
from fandonia_env.training import collect as C  # noqa: E402
from fandonia_env.training import evaluate as E  # noqa: E402
from fandonia_env.training import imitate as I  # noqa: E402
from fandonia_env.training.common import ConfigError, load_config, validate  # noqa: E402
from fandonia_env.training.model import PolicyNet, export_npz  # noqa: E402

ENCODERS = ["v0"] + (["v1"] if v1_available() else [])


def _collect_cfg(out: Path, **kw) -> dict:
    cfg = {"out": str(out), "games": 4, "shard_games": 2, "players": [2, 6], "max_turns": 8, "seed": 3,
           "jobs": 1, "progress": False, "encoder": "v0"}
    cfg.update(kw)
    return validate(cfg, C.SCHEMA)


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """collect 4 games -> imitate one epoch -> policy.npz (shared by the end-to-end tests)."""
    root = tmp_path_factory.mktemp("pipeline")
    summary = C.collect(_collect_cfg(root / "collect"))
    icfg = validate({"data": str(root / "collect"), "out": str(root / "imitate"), "epochs": 1, "batch_size": 128,
                     "hidden": [32], "entity_hidden": 8, "entity_dim": 4, "test_fraction": 0.25,
                     "progress": False}, I.SCHEMA)
    metrics = I.imitate(icfg)
    return {"root": root, "collect": summary, "metrics": metrics, "policy": metrics["policy"]}


# ---------------------------------------------------------------------------
# Configs
# ---------------------------------------------------------------------------


def test_config_unknown_key_is_named_with_the_allowed_keys(tmp_path: Path) -> None:
    p = tmp_path / "c.yaml"
    p.write_text("out: x\ngamez: 3\n")
    with pytest.raises(ConfigError) as e:
        load_config(p, C.SCHEMA)
    msg = str(e.value)
    assert "gamez" in msg and "allowed keys" in msg and "'games'" in msg and "'shard_games'" in msg


def test_config_missing_required_key_is_named(tmp_path: Path) -> None:
    p = tmp_path / "c.yaml"
    p.write_text("games: 3\n")
    with pytest.raises(ConfigError, match=r"missing required key\(s\) \['out'\]"):
        load_config(p, C.SCHEMA)
    with pytest.raises(ConfigError, match=r"missing required key\(s\) \['data', 'out'\]"):
        load_config(None, I.SCHEMA)


def test_config_wrong_type_and_overrides(tmp_path: Path) -> None:
    p = tmp_path / "c.yaml"
    p.write_text("out: x\ngames: many\n")
    with pytest.raises(ConfigError, match="'games' must be int"):
        load_config(p, C.SCHEMA)
    cfg = load_config(p, C.SCHEMA, ["games=7", "players=[3, 4]"])
    assert cfg["games"] == 7 and cfg["players"] == [3, 4] and cfg["shard_games"] == C.SCHEMA["shard_games"].default
    with pytest.raises(ConfigError, match="key=value"):
        load_config(p, C.SCHEMA, ["games"])


@pytest.mark.parametrize("change,error,match", [
    ({"players": [1, 7]}, ConfigError, "players must be"),
    ({"agents": ["nobody"]}, ValueError, "unknown agent 'nobody'"),
    ({"teacher_samples": 0}, ConfigError, "teacher_samples must be >= 1, got 0"),
])
def test_collect_rejects_bad_values(tmp_path: Path, change: dict, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        C.collect(_collect_cfg(tmp_path, **change))


def test_shipped_configs_are_valid() -> None:
    root = Path(__file__).resolve().parents[1] / "configs"
    from fandonia_env.training import league as L
    from fandonia_env.training import recipe as R

    for name, schema in (("collect", C.SCHEMA), ("imitate", I.SCHEMA), ("evaluate", E.SCHEMA), ("league", L.SCHEMA)):
        load_config(root / f"{name}.yaml", schema)
        load_config(root / "smoke" / f"{name}.yaml", schema)
    for path in (root / "recipe.yaml", root / "recipe-policy-v2.yaml", root / "recipe-hour.yaml", root / "smoke" / "recipe.yaml",
                 root / "smoke" / "recipe-hour.yaml"):
        R.step_configs(load_config(path, R.SCHEMA))  # every step's keys validated too


# ---------------------------------------------------------------------------
# Observation adapter
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("enc_name", ENCODERS)
def test_agent_observation_of_any_seat_equals_encode_bytewise(enc_name: str) -> None:
    """``observe(view, infoset)`` (what a playing agent computes) is the seat's exact observation,
    for deciding and non-deciding seats alike."""


    enc = get_encoder(enc_name)
    bots = [make_agent("noble-rule-v1", seed=i) for i in range(5)]
    for n in (2, 5):
        g = Game(players=n, seed=40 + n, max_turns=6)
        k = 0
        while not g.over:
            p = g.current_player()
            q = k % n  # also the seats that are not deciding
            x = enc.observe(g.view(q, log=False), InfoSet(g.state, q))
            assert x.tobytes() == enc.encode(g.state, q).tobytes()
            g.apply(bots[p].act(g.view(p, log=False), g.legal_actions()))
            k += 1


def test_agent_observation_equals_the_seats_encoding_without_the_true_state() -> None:
    """What a playing agent encodes (its view, or a determinisation of its information set) is
    byte for byte the seat's observation, for the default encoder at every decision."""


    enc = get_encoder(default_encoder())
    assert enc.name == ("v1" if v1_available() else "v0")
    bots = [make_agent("noble-rule-v1", seed=i) for i in range(6)]
    for n in (2, 4, 6):
        g = Game(players=n, seed=70 + n, max_turns=5, edition="errata" if n == 4 else "1981")
        while not g.over:
            p = g.current_player()
            x = enc.observe(g.view(p, log=False), InfoSet(g.state, p))
            assert x.tobytes() == enc.encode(g.state, p).tobytes()
            g.apply(bots[p].act(g.view(p, log=False), g.legal_actions()))
    if v1_available() and not v1_view_available():
        with pytest.raises(ValueError, match="InfoSet"):
            get_encoder("v1").observe({"me": 0}, None)


def test_action_character_map_names_the_character_rows() -> None:
    from fandonia_env.engine.data.components import ALL_CHARACTER_IDS

    ach, ase = catalogue_action_maps()
    enc = get_encoder("v0")
    assert np.array_equal(enc.action_character, ach)
    for a in range(NUM_ACTIONS):
        if NAME[a].startswith("char_"):
            assert ALL_CHARACTER_IDS[ach[a]] == NAME[a][5:]
        else:
            assert ach[a] == -1
    assert sorted(int(ase[a]) for a in range(NUM_ACTIONS) if ase[a] >= 0) == [1, 2, 3, 4, 5]
    if v1_available():  # v0 reuses v1's maps: the rows must be the same characters
        assert np.array_equal(get_encoder("v1").action_character, ach)


# ---------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------


def _model(seed: int = 0) -> PolicyNet:
    torch.manual_seed(seed)
    return PolicyNet.for_encoder(get_encoder("v0"), NUM_ACTIONS, [24, 16], 8, 4)


def test_masking_illegal_logits_are_never_chosen() -> None:
    m = _model()
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.random((64, m.obs_size), dtype=np.float32))
    mask = torch.from_numpy(rng.random((64, NUM_ACTIONS)) < 0.05)
    mask[:, 0] = True
    logits, v = m(x, mask)
    assert torch.isinf(logits[~mask]).all() and (logits[~mask] < 0).all()
    assert torch.isfinite(logits[mask]).all() and v.shape == (64,)
    for greedy in (True, False):
        a = m.act(x, mask, greedy=greedy)
        assert mask[torch.arange(64), a].all()
    logp, ent, _ = m.evaluate_actions(x, mask, m.act(x, mask, greedy=False))
    assert torch.isfinite(logp).all() and torch.isfinite(ent).all() and (ent >= 0).all()
    lp, _ = m.log_probs(x, mask)
    assert torch.allclose(lp.exp().sum(-1), torch.ones(64), atol=1e-5)


def test_entity_head_scores_character_actions_from_their_own_row() -> None:
    """With the trunk blind to the character block and the flat head zeroed, changing character
    row r changes exactly the logits of the actions that ACTION_CHARACTER maps to r."""
    enc = get_encoder("v0")
    off, rows, feats = enc.char_block
    m = PolicyNet.for_encoder(enc, NUM_ACTIONS, [16], 8, 4, entity_blocks=["characters"])
    with torch.no_grad():
        m.trunk[0].weight[:, off: off + rows * feats] = 0.0
        m.flat.weight.zero_()
        m.flat.bias.zero_()
    x = torch.zeros(1, enc.size)
    x[0, 5] = 1.0
    r = 7
    x2 = x.clone()
    x2[0, off + r * feats: off + (r + 1) * feats] = torch.linspace(0.1, 1.0, feats)
    l1, _ = m(x)
    l2, _ = m(x2)
    changed = set(np.flatnonzero((l1 - l2).abs().detach().numpy()[0] > 1e-7).tolist())
    assert changed == set(np.flatnonzero(enc.action_character == r).tolist())
    assert len(changed) == 1 and NAME[changed.pop()].startswith("char_")


def test_numpy_forward_matches_torch(tmp_path: Path) -> None:
    from fandonia_env.agents.ppo_agent import load_policy

    m = _model(1)
    path = export_npz(m, tmp_path / "p.npz", get_encoder("v0"))
    pol = load_policy(path)
    rng = np.random.default_rng(2)
    x = rng.random((32, m.obs_size), dtype=np.float32)
    mask = rng.random((32, NUM_ACTIONS)) < 0.1
    mask[:, 3] = True
    ln, vn = pol.forward(x, mask)
    with torch.no_grad():
        lt, vt = m(torch.from_numpy(x), torch.from_numpy(mask))
    assert np.array_equal(np.isinf(ln), ~mask)
    assert np.allclose(ln[mask], lt.numpy()[mask], atol=1e-5, rtol=1e-5)
    assert np.allclose(vn, vt.numpy(), atol=1e-5, rtol=1e-5)
    l1, v1 = pol.forward(x[3])  # one row: the small-batch path an agent uses
    with torch.no_grad():
        lt1, vt1 = m(torch.from_numpy(x[3:4]))
    assert np.allclose(l1, lt1.numpy(), atol=1e-5, rtol=1e-5) and np.allclose(v1, vt1.numpy(), atol=1e-5)


def test_first_layer_reads_only_the_batchs_nonzero_columns_with_the_dense_products_value_and_gradient() -> None:
    """PolicyNet._trunk: a batch of real observations (mostly zeros) goes through the pruned product; the
    logits, values and every parameter's gradient are the dense product's (a skip head and a non-trivial
    input scale included)."""
    from fandonia_env.agents.random_agent import RandomAgent

    enc = get_encoder("v1r")
    torch.manual_seed(5)
    m = PolicyNet.for_encoder(enc, NUM_ACTIONS, hidden=[32, 16], entity_hidden=8, entity_dim=4,
                              skip=list(range(enc.size - 8, enc.size)))
    with torch.no_grad():
        m.input_scale.mul_(torch.rand(enc.size) + 0.5)
        m.skip.weight.normal_()
    obs, masks, acts = [], [], []
    for seed in range(6):
        g = Game(players=2 + seed % 5, seed=seed, preset="errata" if seed % 2 else "1981")
        bot = RandomAgent(seed=seed)
        while not g.over and len(obs) < 40 * (seed + 1):
            p = g.current_player()
            legal = g.legal_actions()
            obs.append(enc.encode(g.state, p))
            masks.append(np.isin(np.arange(NUM_ACTIONS), legal))
            a = bot.act(g.seat_view(p), legal, InfoSet(g.state, p))
            acts.append(a)
            g.apply(a)
    x = torch.as_tensor(np.stack(obs))
    mask, act = torch.as_tensor(np.stack(masks)), torch.as_tensor(acts)
    used = int(((x.amax(0) != 0) | (x.amin(0) != 0)).sum())
    assert used < 0.75 * enc.size  # the batch takes the pruned path

    def run(dense: bool) -> tuple[list[torch.Tensor], dict[str, torch.Tensor]]:
        if dense:
            m._trunk = lambda o, scale: m.trunk(o * scale)  # type: ignore[method-assign]
        m.zero_grad()
        lp, ent, v = m.evaluate_actions(x, mask, act)
        (lp.sum() + ent.sum() + v.sum()).backward()
        grads = {k: p.grad.clone() for k, p in m.named_parameters() if p.grad is not None}
        return [lp.detach(), ent.detach(), v.detach()], grads

    out_pruned, g_pruned = run(False)
    out_dense, g_dense = run(True)
    for a, b in zip(out_pruned, out_dense):
        assert torch.allclose(a, b, atol=1e-5, rtol=1e-4)
    assert g_pruned.keys() == g_dense.keys() and "trunk.0.weight" in g_pruned
    for k in g_dense:
        assert torch.allclose(g_pruned[k], g_dense[k], atol=1e-5, rtol=1e-4), k
    unused = ((x.amax(0) == 0) & (x.amin(0) == 0))
    assert torch.count_nonzero(g_pruned["trunk.0.weight"][:, unused]) == 0


def test_half_precision_export_is_half_the_size_and_plays_the_same(tmp_path: Path) -> None:
    from fandonia_env.agents.ppo_agent import load_policy

    m = _model(1)
    full = export_npz(m, tmp_path / "full.npz", get_encoder("v0"))
    half = export_npz(m, tmp_path / "half.npz", get_encoder("v0"), half=True)
    with np.load(half) as z:
        assert z["flat.weight"].dtype == np.float16
    assert half.stat().st_size < 0.6 * full.stat().st_size
    rng = np.random.default_rng(5)
    x = rng.random((64, m.obs_size), dtype=np.float32)
    lf, _ = load_policy(full).forward(x)
    lh, _ = load_policy(half).forward(x)
    assert lh.dtype == np.float32 and np.allclose(lf, lh, atol=2e-2)


def test_policy_file_with_another_encoder_layout_is_refused(tmp_path: Path) -> None:
    from fandonia_env.agents.ppo_agent import PolicyError, load_policy

    path = export_npz(_model(), tmp_path / "p.npz", get_encoder("v0"))
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    hd = json.loads(str(arrays["__header__"]))
    hd["encoder_fingerprint"] = "0" * 16
    arrays["__header__"] = np.array(json.dumps(hd))
    np.savez(tmp_path / "q.npz", **arrays)
    with pytest.raises(PolicyError, match="observation changed"):
        load_policy(tmp_path / "q.npz")


# ---------------------------------------------------------------------------
# Collect
# ---------------------------------------------------------------------------


def test_collect_shards_are_resumable_and_deterministic(pipeline: dict, tmp_path: Path) -> None:
    src = Path(pipeline["root"]) / "collect"
    shards = sorted(src.glob("shard_*.npz"))
    assert [s.name for s in shards] == ["shard_00000.npz", "shard_00001.npz"]
    out = tmp_path / "again"
    C.collect(_collect_cfg(out, games=2))            # the first shard only
    first = out / "shard_00000.npz"
    t0 = first.stat().st_mtime_ns
    s = C.collect(_collect_cfg(out, games=2))         # nothing to do
    assert s["written_shards"] == 0 and s["skipped_shards"] == 1 and first.stat().st_mtime_ns == t0
    with pytest.raises(ConfigError, match=r"different \['games'\]"):
        C.collect(_collect_cfg(out, games=4))         # another setting: refused, nothing mixed
    with np.load(first) as a, np.load(shards[0]) as b:
        for k in ("obs", "mask", "action", "shadow", "outcome", "game"):
            assert np.array_equal(a[k], b[k]), k   # same seed, same data whatever the run


def test_collect_records_decisions_and_outcomes(pipeline: dict) -> None:
    s = pipeline["collect"]
    assert s["games"] == 4 and s["shards"] == 2 and s["decisions"] > 100
    assert s["float16_max_abs_error"] < 1e-3
    assert 0.5 < s["teacher_self_agreement"] <= 1.0
    with np.load(Path(pipeline["root"]) / "collect" / "shard_00000.npz") as z:
        mask = C.unpack_mask(z["mask"], NUM_ACTIONS)
        assert mask[np.arange(len(z["action"])), z["action"]].all()          # the chosen id was legal
        assert (mask.sum(1) >= 2).all()                                       # forced moves skipped
        assert np.isin(z["players"], [2, 3, 4, 5, 6]).all()
        for g, res, win, n in zip(z["games_id"], z["games_result"], z["games_winner"], z["games_players"]):
            sel = z["game"] == g
            expect = [C.outcome(str(res), None if win < 0 else int(win), int(p), int(n)) for p in z["seat"][sel]]
            assert np.allclose(z["outcome"][sel], expect)


def test_outcome_follows_the_reward_rules() -> None:
    assert C.outcome("win", 2, 2, 4) == 1.0
    assert C.outcome("win", 2, 0, 4) == pytest.approx(-1 / 3)
    assert C.outcome("draw", None, 0, 4) == 0.0 and C.outcome("truncated", None, 1, 3) == 0.0


# ---------------------------------------------------------------------------
# Imitate -> agent -> evaluate
# ---------------------------------------------------------------------------


def test_imitate_reports_agreement_and_writes_outputs(pipeline: dict) -> None:
    m = pipeline["metrics"]
    out = Path(pipeline["root"]) / "imitate"
    for f in ("metrics.json", "metrics.csv", "imitate_config.yaml", "policy.npz", "checkpoints/epoch_001.pt"):
        assert (out / f).exists(), f
    ho = m["held_out"]
    assert ho["overall"]["n"] == m["test_decisions"] > 0
    assert 0.0 <= ho["overall"]["agreement"] <= 1.0
    assert sum(r["n"] for r in ho["by_kind"].values()) == ho["overall"]["n"]
    assert "turn_main" in ho["by_kind"]
    # split by game: no game on both sides
    d = I.load_decisions(Path(pipeline["root"]) / "collect", "noble-rule-v1")
    tr, te = I.split_by_game(d.game, 0.25, 0)
    assert not set(d.game[tr]) & set(d.game[te]) and len(te) == m["test_decisions"]


def test_imitate_resumes_from_its_last_checkpoint(pipeline: dict, capsys: pytest.CaptureFixture) -> None:
    root = Path(pipeline["root"])
    cfg = validate({"data": str(root / "collect"), "out": str(root / "imitate"), "epochs": 2, "batch_size": 128,
                    "hidden": [32], "entity_hidden": 8, "entity_dim": 4, "test_fraction": 0.25,
                    "progress": False}, I.SCHEMA)
    m = I.imitate(cfg)
    assert "resuming from" in capsys.readouterr().err
    assert [h["epoch"] for h in m["history"]] == [1, 2]


def test_ppo_agent_plays_complete_legal_games_at_2_to_6_players(pipeline: dict) -> None:
    spec = f"ppo:{pipeline['policy']}"
    for n in range(2, 7):
        bots = [make_agent(spec, seed=n * 10 + i) if i % 2 == 0 else make_agent("noble-rule-v1", seed=i)
                for i in range(n)]
        g = Game(players=n, seed=n, max_turns=5)
        while not g.over:
            p = g.current_player()
            legal = g.legal_actions()
            a = bots[p].act(g.view(p, log=False), legal, InfoSet(g.state, p))
            assert a in legal
            g.apply(a)
        assert g.result in ("win", "draw", "truncated")


def test_ppo_agent_sampling_is_seeded_and_legal(pipeline: dict) -> None:
    spec = f"ppo:{pipeline['policy']}"
    g = Game(players=3, seed=1, max_turns=4)
    a1 = make_agent(spec, seed=5, temperature=1.0)
    a2 = make_agent(spec, seed=5, temperature=1.0)
    while not g.over:
        p = g.current_player()
        v, legal = g.view(p, log=False), g.legal_actions()
        x, y = a1.act(v, legal, InfoSet(g.state, p)), a2.act(v, legal, InfoSet(g.state, p))
        assert x == y and x in legal
        g.apply(x)
    with pytest.raises(ValueError, match="temperature"):
        make_agent(spec, temperature=-1.0)


def test_bad_policy_specs_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fandonia_env.agents.ppo_agent as pa
    from fandonia_env.agents import check_agent

    with pytest.raises(ValueError, match="no policy file"):
        check_agent(f"ppo:{tmp_path / 'nothing.npz'}")
    with pytest.raises(ValueError, match="no policy file"):
        make_agent(f"ppo:{tmp_path / 'nothing.npz'}")
    for noble, const in pa.SHIPPED.items():
        monkeypatch.setattr(pa, const, tmp_path / f"{noble}.npz")
        with pytest.raises(pa.MissingWeightsError, match=f"{noble} needs its weights file"):
            make_agent(noble)


@pytest.mark.parametrize("noble", ["noble-ppo-v1", "noble-ppo-v2"])
def test_shipped_policy_nobles_are_registered(noble: str) -> None:
    from fandonia_env.agents import AGENTS, ppo_agent

    assert noble in AGENTS and noble in ppo_agent.SHIPPED
    assert ppo_agent.shipped_weights(noble).is_file()
    a = make_agent(noble, seed=1)
    assert a.id == noble and a.policy.encoder.name == "v1r" and a.temperature == 0.0


def test_evaluate_appends_rows_and_draws_the_curve(pipeline: dict, tmp_path: Path) -> None:
    csv_path = tmp_path / "eval.csv"
    cfg = validate({"policy": pipeline["policy"], "games": 4, "max_turns": 6, "jobs": 1, "csv": str(csv_path),
                    "progress": False, "step": 100}, E.SCHEMA)
    rows = E.evaluate(cfg)
    cfg.update(step=200, anchors=["random-v1"])
    E.evaluate(cfg)
    got = E.read_rows(str(csv_path))
    assert [(r["step"], r["anchor"], r["games"]) for r in got] == [
        ("100", "random-v1", "4"), ("100", "noble-rule-v1", "4"), ("200", "random-v1", "4")]
    for r in rows:
        assert r["games"] == 4 and r["ci_lo"] <= r["win_share"] <= r["ci_hi"] and r["fair"] == 0.25
    assert csv_path.with_suffix(".png").stat().st_size > 1000


def test_tournament_accepts_a_policy_path(pipeline: dict) -> None:
    from fandonia_env.arena.tournament import run_tournament

    spec = f"ppo:{pipeline['policy']}"
    r = run_tournament(lineup=[spec, "random-v1"], games=2, max_turns=4, jobs=1, progress=False, plot=False)
    assert r.summary["agents"][spec]["games"] == 2
    assert os.path.isfile(pipeline["policy"])


def test_training_doc_lists_every_config_key() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "training.md").read_text()
    from fandonia_env.training import league, recipe

    for schema in (C.SCHEMA, I.SCHEMA, E.SCHEMA, league.SCHEMA, recipe.SCHEMA):
        for key in schema:
            assert f"| `{key}` |" in doc, key


def test_dagger_label_records_the_teachers_answer_on_the_students_states(tmp_path: Path) -> None:
    """collect with ``label``: the games are played by the student (random-v1 here), the recorded
    targets are the label agent's answers on the same views, filed under the label agent's name."""
    from fandonia_env.training.collect import play_and_record

    enc = get_encoder("v0")
    cfg = C.check_config(_collect_cfg(tmp_path, agents=["random-v1"], label="noble-rule-v1", self_agreement=False,
                                      encoder="v0"))
    setup = C.game_setup(0, 3, [4, 4], ["random-v1"])
    cols, gr = play_and_record(setup, cfg, enc)
    assert cols["action"] and set(cols["agent"]) == {"noble-rule-v1"}
    # replay the game with the student's moves: every recorded target is what noble-rule-v1 says there
    plain = dict(cfg, label=None, record=None)
    cols2, gr2 = play_and_record(setup, plain, enc)
    assert gr2["decisions"] == gr["decisions"]  # the same game: the student's moves drove it
    assert any(a != b for a, b in zip(cols["action"], cols2["action"]))  # targets are not the moves


def test_imitate_data_can_be_focused_on_kinds_and_on_decisions_where_an_action_is_legal(pipeline: dict) -> None:
    """``kinds`` / ``require_legal`` keep only those decisions (a DAgger round focused on one choice)."""
    from fandonia_env.engine.core.actions import ID
    from fandonia_env.training.collect import unpack_mask

    root = Path(pipeline["root"]) / "collect"
    every = I.load_decisions(root, "noble-rule-v1")
    main = I.load_decisions(root, "noble-rule-v1", kinds=["turn_main"])
    assert 0 < len(main) < len(every)
    assert {main.kind_names[k] for k in np.unique(main.kind)} == {"turn_main"}
    buy = I.load_decisions(root, "noble-rule-v1", kinds=["turn_main"], require_legal=["free_buy_pp"])
    assert 0 < len(buy) <= len(main)
    assert unpack_mask(buy.mask, NUM_ACTIONS)[:, ID["free_buy_pp"]].all()
    with pytest.raises(ConfigError, match="not an action name"):
        I.load_decisions(root, "noble-rule-v1", require_legal=["free_usurpation"])


def test_imitate_on_several_data_directories_from_an_init_checkpoint(pipeline: dict, tmp_path: Path) -> None:
    """A DAgger round's imitate: ``data`` lists directories (games of each kept apart by the split),
    ``init`` starts from the previous network (its exported policy here)."""
    root = pipeline["root"]
    one = I.load_decisions(str(root / "collect"), "noble-rule-v1")
    two = I.load_decisions([str(root / "collect"), str(root / "collect")], "noble-rule-v1")
    assert len(two) == 2 * len(one) and len(np.unique(two.game)) == 2 * len(np.unique(one.game))
    cfg = validate({"data": [str(root / "collect"), str(root / "collect")], "out": str(tmp_path / "im2"),
                    "init": pipeline["policy"], "epochs": 1, "batch_size": 128, "hidden": [32], "entity_hidden": 8,
                    "entity_dim": 4, "test_fraction": 0.25, "lr": 1e-9, "progress": False}, I.SCHEMA)
    I.imitate(cfg)
    # with a vanishing learning rate the network stays the init's
    from fandonia_env.training.model import load_checkpoint

    a, _ = load_checkpoint(pipeline["policy"])
    b, _ = load_checkpoint(sorted((tmp_path / "im2" / "checkpoints").glob("epoch_*.pt"))[-1])
    sa, sb = a.state_dict(), b.state_dict()
    assert sa.keys() == sb.keys() and all(torch.allclose(sa[k], sb[k], atol=1e-5) for k in sa)
    bad = dict(cfg, out=str(tmp_path / "im3"), hidden=[16])
    with pytest.raises(ConfigError, match="shape"):
        I.imitate(bad)


def test_imitate_binary_choice_with_an_anchor_moves_that_choice_and_keeps_the_rest(pipeline: dict,
                                                                                   tmp_path: Path) -> None:
    """``binary_actions`` + ``anchor``: the probability of the teacher's focused choice moves toward the
    teacher's, and the policy over the other actions stays closer to the starting one than without the
    anchor (a KL anchor on every recorded decision); an anchor without ``init`` is refused."""
    from fandonia_env.engine.core.actions import ID
    from fandonia_env.training.collect import unpack_mask
    from fandonia_env.training.model import load_checkpoint

    root = pipeline["root"]
    d = I.load_decisions(root / "collect", "noble-rule-v1", kinds=["turn_main"])
    target = NAME[int(np.bincount(d.action).argmax())]  # the teacher's most frequent turn choice
    base = {"data": str(root / "collect"), "init": pipeline["policy"], "epochs": 3, "batch_size": 64, "hidden": [32],
            "entity_hidden": 8, "entity_dim": 4, "test_fraction": 0.25, "lr": 3e-3, "progress": False,
            "kinds": ["turn_main"], "binary_actions": [target], "value_coef": 0.0}
    with pytest.raises(ConfigError, match="anchor"):
        I.imitate(validate(dict(base, out=str(tmp_path / "x"), init=None, anchor=1.0), I.SCHEMA))
    nets = {}
    for name, anchor in (("anchored", 2.0), ("free", 0.0)):
        I.imitate(validate(dict(base, out=str(tmp_path / name), anchor=anchor), I.SCHEMA))
        nets[name] = load_checkpoint(sorted((tmp_path / name / "checkpoints").glob("epoch_*.pt"))[-1])[0]
    start, _ = load_checkpoint(pipeline["policy"])
    t = ID[target]
    x = torch.from_numpy(d.obs.astype(np.float32))
    m = torch.from_numpy(unpack_mask(d.mask, NUM_ACTIONS))
    y = torch.from_numpy(d.action == t)
    legal = m[:, t]

    def bce(net: torch.nn.Module) -> float:
        with torch.no_grad():
            q = torch.softmax(net(x, m)[0], -1)[legal, t].clamp(1e-6, 1 - 1e-6)
        return float(-(torch.where(y[legal], q.log(), (1 - q).log())).mean())

    assert bce(nets["anchored"]) < bce(start)
    # every recorded decision, the focused action taken out: how far did the rest of the policy move?
    every = I.load_decisions(root / "collect", "noble-rule-v1")
    x2 = torch.from_numpy(every.obs.astype(np.float32))
    m2 = torch.from_numpy(unpack_mask(every.mask, NUM_ACTIONS))
    m2[:, t] = False
    keep = m2.any(-1)
    x2, m2 = x2[keep], m2[keep]

    def drift(net: torch.nn.Module) -> float:
        with torch.no_grad():
            la, lb = (torch.log_softmax(n(x2, m2)[0], -1) for n in (start, net))
        return float((la.exp() * (la - lb).masked_fill(~m2, 0.0)).sum(-1).mean())

    assert drift(nets["anchored"]) < 0.5 * drift(nets["free"]), (drift(nets["anchored"]), drift(nets["free"]))


def test_skip_head_adds_a_linear_map_of_named_inputs_to_named_logits_in_torch_and_numpy(tmp_path: Path) -> None:
    """``skip``/``skip_actions``: a linear map from some inputs to some actions' logits; zero at start
    (the network plays as without it); the numpy forward of the export matches torch; the loader
    of a ``.pt`` / ``.npz`` keeps it."""
    from fandonia_env.agents.ppo_agent import load_policy
    from fandonia_env.training.model import PolicyNet, load_checkpoint, save_checkpoint

    enc = get_encoder("v0")
    torch.manual_seed(3)
    plain = PolicyNet.for_encoder(enc, NUM_ACTIONS, [16], 8, 4)
    net = PolicyNet.for_encoder(enc, NUM_ACTIONS, [16], 8, 4, skip=[0, 5, 9], skip_actions=[3, 7])
    sd = plain.state_dict()
    sd.update({k: v for k, v in net.state_dict().items() if k.startswith("skip")})
    net.load_state_dict(sd)
    rng = np.random.default_rng(4)
    x = torch.from_numpy(rng.random((8, enc.size), dtype=np.float32))
    with torch.no_grad():
        assert torch.equal(net(x)[0], plain(x)[0])  # a zero skip head changes nothing
        net.skip.weight.copy_(torch.as_tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 0.5]]))
        net.skip.bias.copy_(torch.as_tensor([0.25, -0.5]))
        d = net(x)[0] - plain(x)[0]
    want = torch.stack([x[:, 0] + 2 * x[:, 5] + 3 * x[:, 9] + 0.25, -x[:, 0] + 0.5 * x[:, 9] - 0.5], 1)
    assert torch.allclose(d[:, [3, 7]], want, atol=1e-5)
    assert torch.count_nonzero(d[:, [a for a in range(NUM_ACTIONS) if a not in (3, 7)]]) == 0
    pol = load_policy(export_npz(net, tmp_path / "s.npz", enc))
    ln, _ = pol.forward(x.numpy())
    with torch.no_grad():
        assert np.allclose(ln, net(x)[0].numpy(), atol=1e-5)
    save_checkpoint(tmp_path / "s.pt", net, enc)
    for path in (tmp_path / "s.pt", tmp_path / "s.npz"):
        back, _ = load_checkpoint(path)
        with torch.no_grad():
            assert torch.allclose(back(x)[0], net(x)[0], atol=1e-5)


def test_imitate_train_only_the_skip_head_leaves_every_other_weight(pipeline: dict, tmp_path: Path) -> None:
    """``skip`` + ``train_only: [skip]`` on an init without a skip head: the head starts at zero and is
    the only thing that learns; an unknown prefix or block is refused."""
    from fandonia_env.training.model import load_checkpoint

    root = pipeline["root"]
    d = I.load_decisions(root / "collect", "noble-rule-v1")
    # a small block of the layout that the recorded observations actually use
    block = next(name for name, off, shape in get_encoder(d.meta["encoder"]).layout
                 if int(np.prod(shape)) <= 200 and np.abs(d.obs[:, off:off + int(np.prod(shape))]).sum() > 0)
    base = {"data": str(root / "collect"), "init": pipeline["policy"], "epochs": 1, "batch_size": 64, "hidden": [32],
            "entity_hidden": 8, "entity_dim": 4, "test_fraction": 0.25, "progress": False, "skip": block,
            "skip_actions": ["pass"], "skip_lr": 0.05, "train_only": ["skip"]}
    I.imitate(validate(dict(base, out=str(tmp_path / "sk")), I.SCHEMA))
    a, _ = load_checkpoint(pipeline["policy"])
    b, _ = load_checkpoint(sorted((tmp_path / "sk" / "checkpoints").glob("epoch_*.pt"))[-1])
    sa, sb = a.state_dict(), b.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert b.skip.weight.abs().sum() > 0 and b.skip_actions == [NAME.index("pass")]
    with pytest.raises(ConfigError, match="train_only"):
        I.imitate(validate(dict(base, out=str(tmp_path / "x1"), train_only=["nothing"]), I.SCHEMA))
    with pytest.raises(ConfigError, match="skip"):
        I.imitate(validate(dict(base, out=str(tmp_path / "x2"), skip="no_such_block"), I.SCHEMA))


def test_teacher_samples_record_several_seeded_copies_and_the_first_is_the_shadow(tmp_path: Path) -> None:
    one = C.collect(_collect_cfg(tmp_path / "one", games=2, shard_games=2, agents=["noble-rule-v1", "random-v1"]))
    three = C.collect(_collect_cfg(tmp_path / "three", games=2, shard_games=2, agents=["noble-rule-v1", "random-v1"],
                                   teacher_samples=3))
    assert one["decisions"] == three["decisions"]
    with np.load(C.shard_path(tmp_path / "one", 0)) as a, np.load(C.shard_path(tmp_path / "three", 0)) as b:
        assert "shadows" not in a.files and b["shadows"].shape == (len(b["action"]), 3)
        assert np.array_equal(a["shadow"], b["shadow"]) and np.array_equal(b["shadows"][:, 0], b["shadow"])
        assert np.array_equal(a["action"], b["action"])  # the copies do not change the game
        names = [str(s) for s in b["agent_names"]]
        rnd = b["agent"] == names.index("random-v1")
        # random-v1's copies disagree somewhere; noble-rule-v1's deterministic kinds never do
        assert (b["shadows"][rnd] != b["shadows"][rnd][:, :1]).any()
    d = I.load_decisions(str(tmp_path / "three"), None, None, None, None)
    assert d.shadows.shape == (len(d), 3) and np.array_equal(d.shadows[:, 0], d.shadow)


def test_agreement_counts_every_answer_of_the_teacher_and_every_pair_of_them() -> None:
    n = 4
    obs, mask = np.zeros((n, 1), np.float16), np.zeros((n, 1), np.uint8)
    action = np.array([0, 1, 2, 5])
    shadows = np.array([[0, 0, 0], [1, 2, -1], [3, 4, 5], [-1, -1, -1]])
    d = I.Decisions(obs, mask, action, shadows[:, 0], np.array([0, 0, 1, 1]), np.arange(n), np.zeros(n, np.float32),
                    ["a", "b"], {}, shadows)
    t = I.agreement_table(np.array([0, 2, 9, 5]), d, np.arange(n))
    # answers: {0,0,0,0} {1,1,2} {2,3,4,5} {5}; pred 0 / 2 / 9 / 5 agrees with 4/4, 1/3, 0/4, 1/1 of them
    assert t["by_kind"]["a"]["agreement"] == pytest.approx((1 + 1 / 3) / 2)
    assert t["by_kind"]["b"]["agreement"] == pytest.approx((0 + 1) / 2)
    # equal pairs: 6/6, 1/3, 0/6; the last decision has one answer and no pair
    assert t["by_kind"]["a"]["teacher_self_agreement"] == pytest.approx((1 + 1 / 3) / 2)
    assert t["by_kind"]["b"]["teacher_self_agreement"] == 0.0
    assert t["overall"]["n"] == 4
    # one copy: the shadow alone, as before
    d1 = I.Decisions(obs, mask, action, shadows[:, 0], np.zeros(n, np.int64), np.arange(n), np.zeros(n, np.float32),
                     ["a"], {})
    t1 = I.agreement_table(action.copy(), d1, np.arange(n))
    assert t1["overall"]["teacher_self_agreement"] == pytest.approx(2 / 3)  # (0,0) (1,1) (2,3); the last: no shadow

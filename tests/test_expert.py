"""Expert iteration on batched self-play (issue 27): a tiny run end to end, resumable, validated."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from fandonia_env.training.common import ConfigError, load_config
from fandonia_env.training.expert import SCHEMA, main, train

ROOT = Path(__file__).resolve().parents[1]


def _cfg(tmp_path: Path, **kw):
    cfg = load_config(ROOT / "configs" / "smoke" / "expert.yaml", SCHEMA)
    cfg.update(out=str(tmp_path / "expert"), **kw)
    return cfg


def test_expert_iterations_write_policies_curves_and_resume(tmp_path: Path) -> None:
    res = train(_cfg(tmp_path))
    out = Path(res["out"])
    assert res["iterations"] == 2 and res["decisions"] >= 600
    assert (out / "policy.npz").is_file() and (out / "expert.pt").is_file()
    assert sorted(p.name for p in (out / "policies").glob("*.npz"))[:2] == ["iter_000.npz", "iter_001.npz"]
    rows = list(csv.DictReader(open(out / "train.csv")))
    assert [r["iteration"] for r in rows] == ["1", "2"]
    ev = list(csv.DictReader(open(out / "eval.csv")))
    assert ev and ev[0]["anchor"] == "random-v1" and 0.0 <= float(ev[0]["win_share"]) <= 1.0
    assert (out / "curve.png").is_file()
    # two more iterations continue from the checkpoint, not from the start
    res2 = train(_cfg(tmp_path, iterations=3))
    assert res2["iterations"] == 3
    assert [r["iteration"] for r in csv.DictReader(open(out / "train.csv"))] == ["1", "2", "3"]
    from fandonia_env.agents import make_agent
    from fandonia_env.engine import Game

    bot = make_agent(f"ppo:{out / 'policy.npz'}", seed=0)  # the result plays as ppo:PATH
    g = Game(players=3, seed=1, max_turns=3)
    from fandonia_env.engine.face.hidden import InfoSet

    while not g.over:
        p = g.current_player()
        g.apply(bot.act(g.view(p, log=False), g.legal_actions(), InfoSet(g.state, p)))


@pytest.mark.parametrize(("key", "value", "match"), [
    ("players", [7], "players must list table sizes 2..6"),
    ("presets", ["nope"], "unknown preset"),
    ("opponents", ["no-such-noble"], "unknown agent"),
    ("decisions", 0, "decisions must be >= 1"),
    ("init", "missing.npz", "no policy file"),
    ("encoder", "v9", "unknown encoder 'v9'"),
    ("opponents", ["random-v1*"], "without"),
])
def test_expert_rejects_bad_config_values(tmp_path: Path, key: str, value, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        train(_cfg(tmp_path, **{key: value}))


def test_shipped_expert_configs_are_valid_and_documented() -> None:
    load_config(ROOT / "configs" / "expert.yaml", SCHEMA)
    load_config(ROOT / "configs" / "smoke" / "expert.yaml", SCHEMA)
    doc = (ROOT / "docs" / "training.md").read_text()
    for key in SCHEMA:
        assert f"| `{key}` |" in doc, key


def test_expert_widens_its_init_to_an_encoder_that_extends_it(tmp_path: Path) -> None:
    """encoder: v1b on a v1r init: the run trains and exports on v1b; the widened policy played as the
    init before its first update (the new inputs start at zero weight)."""
    from fandonia_env.agents.ppo_agent import NOBLE_PPO_V1, load_policy
    from fandonia_env.engine import Game

    res = train(_cfg(tmp_path, iterations=1, eval_every=0, encoder="v1b", opponents=["noble-rule-v1", "random-v1*"]))
    out = Path(res["out"])
    assert load_policy(out / "policy.npz").encoder.name == "v1b"
    start, init = load_policy(out / "policies" / "iter_000.npz"), load_policy(NOBLE_PPO_V1)
    g = Game(players=3, seed=4, max_turns=3)
    for _ in range(40):
        if g.over:
            break
        p = g.current_player()
        x_wide = start.encoder.encode(g.state, p)
        assert np.allclose(start.forward(x_wide)[0], init.forward(x_wide[:init.obs_size])[0], atol=1e-4)
        g.apply(g.legal_actions()[0])
    with pytest.raises(ConfigError, match="resumes on its own encoder"):
        train(_cfg(tmp_path, iterations=2, eval_every=0, encoder="v1r"))


def test_expert_command_line_names_a_bad_key(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["--config", str(ROOT / "configs" / "smoke" / "expert.yaml"), "--set", "bogus=1"]) == 2
    assert "bogus" in capsys.readouterr().err


def test_gae_advantages_follow_each_seats_decisions_and_lambda_one_is_the_game_return():
    from fandonia_env.training.expert import _advantages
    from fandonia_env.training.selfplay import Batch

    # game 0: seat 1 decides at rows 0, 2, 3 and seat 2 at row 1; game 1: seat 0 at row 4
    value = np.array([0.1, 0.5, 0.3, -0.2, 0.4], np.float32)
    reward = np.array([1.0, -0.5, 1.0, 1.0, -1.0], np.float32)
    b = Batch(obs=np.zeros((5, 1), np.float16), mask=np.zeros((5, 1), bool), action=np.zeros(5, np.int16),
              logp=np.zeros(5, np.float32), value=value, reward=reward, players=np.full(5, 3, np.int8),
              errata=np.zeros(5, bool), game=np.array([0, 0, 0, 0, 1], np.int32),
              seat=np.array([1, 2, 1, 1, 0], np.int8))
    adv1, ret1 = _advantages(b, 1.0)
    assert np.allclose(ret1, reward) and np.allclose(adv1, reward - value)
    lam = 0.5
    adv, ret = _advantages(b, lam)
    d3 = 1.0 - (-0.2)            # seat 1's last decision: R - V
    d2 = -0.2 - 0.3              # V(next own decision) - V
    d0 = 0.3 - 0.1
    assert np.isclose(adv[3], d3)
    assert np.isclose(adv[2], d2 + lam * d3)
    assert np.isclose(adv[0], d0 + lam * (d2 + lam * d3))
    assert np.isclose(adv[1], -0.5 - 0.5) and np.isclose(adv[4], -1.0 - 0.4)
    assert np.allclose(ret, adv + value)


def test_turn_discount_values_a_sooner_win_more_along_each_seats_decisions():
    from fandonia_env.training.expert import _advantages, check_config
    from fandonia_env.training.selfplay import Batch

    # one game, seat 0 decides at turns 3, 3, 7 of a game that ends at turn 10 (a win); seat 1 at turn 5
    value = np.array([0.2, 0.3, 0.5, -0.1], np.float32)
    reward = np.array([1.0, 1.0, 1.0, -1.0], np.float32)
    left = np.array([7, 7, 3, 5], np.int16)
    b = Batch(obs=np.zeros((4, 1), np.float16), mask=np.zeros((4, 1), bool), action=np.zeros(4, np.int16),
              logp=np.zeros(4, np.float32), value=value, reward=reward, players=np.full(4, 2, np.int8),
              errata=np.zeros(4, bool), game=np.zeros(4, np.int32), seat=np.array([0, 0, 0, 1], np.int8),
              turns_left=left)
    g = 0.9
    adv1, ret1 = _advantages(b, 1.0, g)
    assert np.allclose(ret1, reward * g ** left.astype(float))
    adv_u, ret_u = _advantages(b, 1.0, 1.0)  # no discount: the turns change nothing
    assert np.allclose(ret_u, reward)
    lam = 0.5
    adv, ret = _advantages(b, lam, g)
    d2 = g ** 3 * 1.0 - 0.5                 # last decision: the discounted reward less V
    d1 = g ** 4 * 0.5 - 0.3                 # four turns to the next own decision
    d0 = g ** 0 * 0.3 - 0.2                 # same turn: no discount
    assert np.isclose(adv[2], d2)
    assert np.isclose(adv[1], d1 + lam * g ** 4 * d2)
    assert np.isclose(adv[0], d0 + lam * (d1 + lam * g ** 4 * d2))
    assert np.isclose(adv[3], -(g ** 5) + 0.1)
    assert np.allclose(ret, adv + value)
    # lambda -> 1 along the chain is the discounted Monte-Carlo return
    adv_hi, _ = _advantages(b, 0.999999, g)
    assert np.allclose(adv_hi, adv1, atol=1e-4)
    b.turns_left = None
    with pytest.raises(ValueError, match="turns left"):
        _advantages(b, lam, g)
    cfg = load_config(ROOT / "configs" / "smoke" / "expert.yaml", SCHEMA)
    for bad in (0.0, 1.5):
        with pytest.raises(ConfigError, match="turn_discount"):
            check_config(dict(cfg, turn_discount=bad))


def test_win_share_objective_counts_a_draw_or_a_truncated_game_as_a_loss():
    from fandonia_env.training.expert import check_config, learner_rewards

    # a 4-player win, a 4-player loss, a 4-player draw, a 2-player truncated game, a 6-player draw
    reward = np.array([1.0, -1 / 3, 0.0, 0.0, 0.0], np.float32)
    players = np.array([4, 4, 4, 2, 6], np.int8)
    assert learner_rewards(reward, players, "zero_sum") is reward  # docs/rewards.md, unchanged
    ws = learner_rewards(reward, players, "win_share")
    assert ws.dtype == np.float32
    assert np.allclose(ws, [1.0, -1 / 3, -1 / 3, -1.0, -0.2])
    assert np.allclose(reward, [1.0, -1 / 3, 0.0, 0.0, 0.0])  # the batch's rewards are not written over
    with pytest.raises(ValueError, match="objective must be one of"):
        learner_rewards(reward, players, "elo")
    cfg = load_config(ROOT / "configs" / "smoke" / "expert.yaml", SCHEMA)
    with pytest.raises(ConfigError, match=r"objective must be one of \['zero_sum', 'win_share'\], got 'wins'"):
        check_config(dict(cfg, objective="wins"))


def _tiny_update(value_only: bool, detach: bool, adv_zero: bool = False) -> tuple[dict, dict]:
    """One PPO update of a small PolicyNet on a random batch: (parameters before, after)."""
    import torch

    from fandonia_env.training.league import ppo_update
    from fandonia_env.training.model import PolicyNet

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    n, obs, acts = 256, 40, 12
    model = PolicyNet(obs, acts, [], [32, 32])
    model.detach_value = detach
    mask = rng.random((n, acts)) < 0.6
    mask[np.arange(n), 0] = True
    batch = {"obs": rng.normal(size=(n, obs)).astype(np.float16), "mask": np.packbits(mask, axis=-1),
             "action": np.zeros(n, dtype=np.int64), "logp": np.full(n, -1.0, dtype=np.float32),
             "adv": np.zeros(n, dtype=np.float32) if adv_zero else rng.normal(size=n).astype(np.float32),
             "ret": rng.normal(size=n).astype(np.float32)}
    before = {k: v.detach().clone() for k, v in model.named_parameters()}
    cfg = {"epochs": 2, "minibatch": 64, "clip": 0.2, "ent_coef": 0.0, "vf_coef": 0.5, "max_grad_norm": 0.5,
           "target_kl": None}
    ppo_update(model, torch.optim.Adam(model.parameters(), lr=1e-2), batch, cfg, value_only=value_only,
               num_actions=acts)
    return before, {k: v.detach().clone() for k, v in model.named_parameters()}


def _moved(before: dict, after: dict) -> set[str]:
    return {k for k in before if not np.allclose(before[k].numpy(), after[k].numpy())}


def test_a_value_only_update_moves_the_value_head_alone():
    """value_warmup's iterations train the value head only: the trunk and the policy heads the policy
    reads stay exactly as they were (the value loss's gradient through the shared trunk would change
    the policy with no policy objective)."""
    before, after = _tiny_update(value_only=True, detach=False)
    assert _moved(before, after) == {"value.weight", "value.bias"}


def test_value_detached_keeps_the_value_loss_out_of_the_shared_trunk():
    """value_detached: with no policy signal (zero advantages, no entropy bonus) a full update moves the value
    head only; without it the value loss moves the trunk too."""
    before, after = _tiny_update(value_only=False, detach=True, adv_zero=True)
    assert _moved(before, after) == {"value.weight", "value.bias"}
    before, after = _tiny_update(value_only=False, detach=False, adv_zero=True)
    assert {"trunk.0.weight", "value.weight"} <= _moved(before, after)

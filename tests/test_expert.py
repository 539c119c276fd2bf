"""Expert iteration on batched self-play (issue 27): a tiny run end to end, resumable, validated."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from training.common import ConfigError, load_config
from training.expert import SCHEMA, main, train

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
    from agents import make_agent
    from fandonia_env.engine import Game

    bot = make_agent(f"ppo:{out / 'policy.npz'}", seed=0)  # the result plays as ppo:PATH
    g = Game(players=3, seed=1, max_turns=3)
    from fandonia_env.engine.hidden import InfoSet

    while not g.over:
        p = g.current_player()
        g.apply(bot.act(g.view(p, log=False), g.legal_actions(), InfoSet(g.state, p)))


@pytest.mark.parametrize(("key", "value", "match"), [
    ("players", [7], "players must list table sizes 2..6"),
    ("presets", ["nope"], "unknown preset"),
    ("opponents", ["no-such-noble"], "unknown agent"),
    ("decisions", 0, "decisions must be >= 1"),
    ("init", "missing.npz", "no policy file"),
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


def test_expert_command_line_names_a_bad_key(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["--config", str(ROOT / "configs" / "smoke" / "expert.yaml"), "--set", "bogus=1"]) == 2
    assert "bogus" in capsys.readouterr().err

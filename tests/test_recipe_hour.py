"""The one-hour recipe (issue 40) on tiny settings: from nothing (no weights read) through collect,
imitation with the skip head and expert iteration under a wall-time budget, with the strength curve
against wall time (``strength.csv`` / ``strength.png``) and the table of where the time went."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("torch")

from helpers import play_out  # noqa: E402

from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.training import expert, recipe  # noqa: E402
from fandonia_env.training.common import ConfigError, load_config  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "configs" / "smoke" / "recipe-hour.yaml"


def test_recipe_hour_reads_no_shipped_or_earlier_weights() -> None:
    """"From nothing": no step of the hour recipe names a policy file; the expert step starts from
    the imitation the recipe itself trains."""
    for path in (ROOT / "configs" / "recipe-hour.yaml", SMOKE):
        steps = recipe.step_configs(load_config(path, recipe.SCHEMA))
        values = list(_strings([sc for _, _, sc in steps]))
        assert values
        trained = [v for v in values if v.endswith((".npz", ".pt")) or "agents/weights" in v
                   or v.startswith(("ppo:", "search:", "noble-ppo"))]
        assert trained == []
        stages = [stage for _, stage, _ in steps]
        assert stages[0] == "collect" and "imitate" in stages
        init = {name: sc.get("init") for name, stage, sc in steps if stage == "expert"}
        assert init and all(v and Path(v).name == "imitate" for v in init.values())


def _strings(x: object) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


def test_recipe_hour_smoke_stops_at_its_budget_and_draws_strength_against_wall_time(tmp_path: Path) -> None:
    from fandonia_env.agents import make_agent

    out = tmp_path / "run"
    export = tmp_path / "noble.npz"
    cfg = load_config(SMOKE, recipe.SCHEMA, [f"out={out}", f"export={export}"])
    s = recipe.run(cfg)
    assert s["steps"] == ["collect_1981", "collect_errata", "imitate", "expert"]
    # the expert step started from the imitation with a skip head (another optimiser shape) and
    # stopped on its wall-time budget, long before its 50 iterations
    ex = {n: c for n, _, c in recipe.step_configs(cfg)}["expert"]
    rows = list(csv.DictReader(open(out / "expert" / "train.csv")))
    assert 1 <= len(rows) < ex["iterations"]
    state = expert.load_state(out / "expert")
    assert state["wall"] > 0 and state["iteration"] == len(rows)
    # it stopped because one more iteration (at the last one's cost) would have ended past the budget;
    # read from the run's own counters, not from the test's clock (a loaded machine only stops it sooner)
    assert state["wall"] + state["iter_s"] + state["eval_s"] > ex["max_seconds"]
    # evaluations of the start and of the end, placed at the recipe's wall time
    curve = list(csv.DictReader(open(out / "strength.csv")))
    its = [int(r["iteration"]) for r in curve]
    assert its[0] == 0 and its[-1] == len(rows)
    t = [float(r["recipe_s"]) for r in curve]
    before = s["wall_s"]["collect_1981"] + s["wall_s"]["collect_errata"] + s["wall_s"]["imitate"]
    assert t == sorted(t) and t[0] >= before - 0.5 and t[-1] <= s["total_wall_s"] + 0.5
    assert (out / "strength.png").stat().st_size > 1000
    spent = s["time_spent_s"]
    assert spent["acting"] > 0 and spent["learning"] > 0 and spent["evaluation"] > 0 and spent["bootstrap"] > 0
    parts = sum(spent[k] for k in ("bootstrap", "acting", "learning", "league", "evaluation", "other"))
    assert abs(parts - spent["total"]) < 1.0
    # the exported noble plays whole legal games
    for n in (2, 6):
        bots = [make_agent(f"ppo:{export}", seed=i) if i == 0 else make_agent("noble-rule-v1", seed=i)
                for i in range(n)]
        play_out(Game(players=n, seed=300 + n, max_turns=6), bots)
    # a rerun resumes: nothing is trained again, the budget is already spent
    s2 = recipe.run(cfg)
    assert len(list(csv.DictReader(open(out / "expert" / "train.csv")))) == len(rows)
    assert s2["wall_s"]["expert"] >= s["wall_s"]["expert"]


@pytest.mark.parametrize("key, value, message", [
    ("max_seconds", "-5", "max_seconds must be > 0"),
    ("eval_max_turns", "-1", "eval_max_turns must be >= 0"),
])
def test_expert_budget_keys_are_checked(tmp_path: Path, key: str, value: str, message: str) -> None:
    cfg = load_config(None, expert.SCHEMA, [f"out={tmp_path}", f"{key}={value}"])
    with pytest.raises(ConfigError, match=message):
        expert.check_config(cfg)

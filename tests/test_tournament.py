"""The tournament runner and the speed benchmark (small budgets; no timed assertions)."""

from __future__ import annotations

import json
import math
import sys

import pytest

import fandonia_env.agents as agent_registry
from fandonia_env.agents import Agent
from fandonia_env.apps import bench
from fandonia_env.arena import tournament
from fandonia_env.arena.tournament import distinct_rotations, make_lineup, run_tournament, schedule

FIRST = "test-first-legal-v1"


class FirstLegal(Agent):
    """Always the first legal action: deterministic and different from random-v1."""

    id = FIRST

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, view, legal, infoset=None) -> int:
        return legal[0]


if FIRST not in agent_registry.AGENTS:
    agent_registry.register(FIRST, FirstLegal)


def test_lineups_and_rotations() -> None:
    assert make_lineup(["a", "b"], 4) == ["a", "b", "a", "b"]
    assert make_lineup(["a", "b", "c"], 2) == ["a", "b"]
    assert make_lineup(lineup=["a", "b", "c"]) == ["a", "b", "c"]
    with pytest.raises(ValueError):
        make_lineup(["a"], 7)
    with pytest.raises(ValueError):
        make_lineup(lineup=["a", "b"], players=3)
    assert distinct_rotations(["a", "b", "c"]) == [0, 1, 2]
    assert distinct_rotations(["a", "b", "a", "b"]) == [0, 1]
    assert distinct_rotations(["a", "a", "a"]) == [0]
    tasks = schedule(["a", "b", "c"], games=7, seed=5)
    assert len(tasks) == 9  # rounded up to 3 whole deals x 3 rotations
    assert [t["seed"] for t in tasks] == [5, 5, 5, 6, 6, 6, 7, 7, 7]
    assert tasks[1]["seats"] == ["b", "c", "a"]


def _check_run(r, lineup, n_games, out) -> None:
    n = len(lineup)
    rots = distinct_rotations(lineup)
    assert len(r.games) == n_games
    assert r.config["games"] == n_games and r.config["deals"] * len(rots) == n_games
    # duplicate seeds: every deal seed is played under each distinct rotation
    by_seed: dict[int, set[tuple[str, ...]]] = {}
    for g in r.games:
        by_seed.setdefault(g["seed"], set()).add(tuple(g["seats"]))
        assert g["result"] in ("win", "draw", "truncated")
        assert sorted(g["order"]) == list(range(n))
        assert math.isclose(sum(g["ranks"]), n * (n + 1) / 2)
        assert g["turns"] >= 1 and g["decisions"] >= 1 and sum(g["decisions_by_seat"]) == g["decisions"]
        if g["result"] == "win":
            assert g["order"][0] == g["winner"] and g["ranks"][g["winner"]] == 1
        else:
            assert g["winner"] is None
    expected = {tuple(lineup[(i + rot) % n] for i in range(n)) for rot in rots}
    assert all(s == expected for s in by_seed.values())
    ids = list(dict.fromkeys(lineup))
    assert set(r.summary["agents"]) == set(ids)
    assert sum(a["seat_games"] for a in r.summary["agents"].values()) == n_games * n
    for a in r.summary["agents"].values():
        assert a["games"] == n_games  # every agent of the lineup plays every game, counted once
        assert a["wins"] + a["draws"] + a["truncated"] <= n_games
        if a["mean_rank_ci"] is not None:  # None where a CI means nothing (same value every game)
            lo, hi = a["mean_rank_ci"]
            assert 1 - 1e-9 <= lo <= a["mean_rank"] + 1e-9 and a["mean_rank"] <= hi + 1e-9 and hi <= n + 1e-9
        for key in ("win_rate_ci", "win_share_ci"):
            if a[key] is not None:
                assert 0 <= a[key][0] <= a[key][1] <= 1
    assert sum(r.summary["results"].values()) == n_games
    # files
    doc = json.loads((out / "results.json").read_text())
    assert len(doc["games"]) == n_games and doc["config"]["lineup"] == lineup
    md = (out / "summary.md").read_text()
    assert md == r.markdown
    rows = [ln for ln in md.splitlines() if ln.startswith("| ") and not ln.startswith("| agent")]
    assert len(rows) == len(ids)
    for ln in rows:
        agent = ln.split("|")[1].strip()
        assert int(ln.split("|")[2]) == r.summary["agents"][agent]["games"]
    if r.ratings is not None:
        assert set(r.ratings) == set(ids) and all(v["sigma"] > 0 for v in r.ratings.values())
    else:
        assert any("openskill" in n for n in r.notes)


def _strip(r) -> list[dict]:
    return [{k: v for k, v in g.items() if k not in ("seconds", "think_s")} for g in r.games]


def test_tiny_tournament_jobs1_and_jobs2(tmp_path) -> None:
    lineup = [FIRST, "random-v1", "random-v1"]
    r1 = run_tournament(lineup=lineup, games=6, seed=3, max_turns=5, jobs=1, out=str(tmp_path / "a"),
                        bootstrap=200, progress=False)
    _check_run(r1, lineup, 6, tmp_path / "a")
    r2 = run_tournament(lineup=lineup, games=6, seed=3, max_turns=5, jobs=2, out=str(tmp_path / "b"),
                        bootstrap=200, progress=False)
    _check_run(r2, lineup, 6, tmp_path / "b")
    # same seed, same games, whatever the number of jobs
    assert _strip(r1) == _strip(r2)
    assert r1.summary == r2.summary
    assert r1.ratings == r2.ratings


def test_cycled_agents_and_self_play(tmp_path) -> None:
    r = run_tournament(["random-v1", FIRST], players=2, games=4, seed=0, max_turns=4, jobs=1,
                       out=str(tmp_path / "c"), bootstrap=100, progress=False)
    _check_run(r, ["random-v1", FIRST], 4, tmp_path / "c")
    r = run_tournament(["random-v1"], players=3, games=3, seed=0, max_turns=4, jobs=1,
                       out=str(tmp_path / "d"), bootstrap=100, progress=False)
    _check_run(r, ["random-v1"] * 3, 3, tmp_path / "d")
    assert math.isclose(r.summary["agents"]["random-v1"]["mean_rank"], 2.0)  # self-play: (n+1)/2


def test_different_seed_other_deals() -> None:
    a = run_tournament(["random-v1"], players=2, games=2, seed=0, max_turns=3, jobs=1, progress=False)
    b = run_tournament(["random-v1"], players=2, games=2, seed=10, max_turns=3, jobs=1, progress=False)
    assert [g["seed"] for g in a.games] == [0, 1] and [g["seed"] for g in b.games] == [10, 11]


def test_cli(tmp_path, capsys) -> None:
    out = tmp_path / "cli"
    assert tournament.main(["--agents", f"random-v1,{FIRST}", "--players", "2", "--games", "2", "--seed", "1",
                            "--max-turns", "3", "--jobs", "1", "--out", str(out), "--no-progress",
                            "--bootstrap", "50"]) == 0
    text = capsys.readouterr().out
    assert "| agent |" in text and "random-v1" in text
    assert len(json.loads((out / "results.json").read_text())["games"]) == 2
    with pytest.raises(SystemExit):
        tournament.main(["--agents", "no-such-agent-v9", "--games", "1"])


def test_without_openskill_and_matplotlib(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    r = run_tournament(["random-v1"], players=2, games=2, seed=0, max_turns=3, jobs=1, out=str(tmp_path / "e"),
                       bootstrap=50, progress=False)
    assert r.ratings is None and any("openskill" in n for n in r.notes)
    assert "| random-v1 |" in r.markdown and r.markdown.split("\n\n")[1].splitlines()[-1].endswith("| – |")
    assert "plot" not in r.files
    monkeypatch.delitem(sys.modules, "openskill")
    monkeypatch.delitem(sys.modules, "openskill.models")
    pytest.importorskip("openskill")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    r = run_tournament(["random-v1"], players=2, games=2, seed=0, max_turns=3, jobs=1, out=str(tmp_path / "f"),
                       bootstrap=50, progress=False)
    assert r.ratings is not None and "plot" not in r.files and any("matplotlib" in n for n in r.notes)


def test_unknown_agent() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        run_tournament(["no-such-agent-v9"], players=2, games=1, progress=False)


def test_bench_tiny(capsys) -> None:
    rows = bench.run_bench(players=[2], seconds=0.05, max_turns=8)
    assert len(rows) == 1
    for k, _, _ in bench.COLUMNS:
        assert rows[0][k] > 0, k
    assert bench.main(["--seconds", "0.05", "--players", "2", "--max-turns", "6", "--markdown"]) == 0
    text = capsys.readouterr().out
    assert "python -m fandonia_env.bench" in text and "| 2 |" in text and "nproc" in text


@pytest.mark.parametrize("preset", ["errata-all-optional", "1981-all-optional"])
def test_tournament_and_bench_under_a_preset(tmp_path, capsys, preset) -> None:
    r = run_tournament(["noble-rule-v1", "random-v1"], players=3, games=3, seed=2, max_turns=6, jobs=1,
                       bootstrap=50, progress=False, rules={"preset": preset})
    edition = "errata" if preset.startswith("errata") else "1981"
    assert r.config["edition"] == edition and r.config["optional"]
    assert f"edition {edition}" in r.markdown and len(r.games) == 3
    assert tournament.main(["--agents", "random-v1", "--players", "2", "--games", "2", "--max-turns", "3",
                            "--jobs", "1", "--no-progress", "--bootstrap", "20", "--preset", preset]) == 0
    assert f"edition {edition}" in capsys.readouterr().out
    rows = bench.run_bench(players=[2], seconds=0.05, max_turns=6, rules={"preset": preset})
    assert rows[0]["engine_dec_s"] > 0 and rows[0]["aec_steps_s"] > 0
    with pytest.raises(SystemExit):  # an unknown preset stops the command with the valid names
        bench.main(["--seconds", "0.05", "--players", "2", "--preset", "no-such-preset"])
    assert "valid presets" in capsys.readouterr().err

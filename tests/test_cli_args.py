"""Command lines: bad arguments end in an argparse ``error:`` line + usage and exit code 2, naming
the bad value and what is allowed, and write nothing; ``--max-turns 0`` means no limit everywhere;
``python -m fandonia_env`` lists the commands; commands that write files say where; the results
table counts games (not seat-games) and prints CIs only where they mean something.

The bad-argument rows run from an empty working directory (so "nothing written" is checked on it
as well as on ``--out``): one or two rows per command as the real command line in a subprocess,
the others through the command's ``main(argv)`` (same parser, no interpreter start-up)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fandonia_env.__main__ import discover
from fandonia_env.arena.tournament import markdown_table, summarize
from fandonia_env.tools import cli

REPO = Path(__file__).resolve().parent.parent
KNOWN = ["noble-rule-v1", "random-v1"]  # two of the registered ids the agent errors must list


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


BAD_CONFIG = "env: {players: 4}\nppo: {total_timesteps: 10}\nseed: 0\neval: {games: 1}\nout: OUT\n"

# (row id, command line (OUT = an output directory that must not appear), config file text to
#  write as bad.yaml or None, strings stderr must contain: the bad value and what is allowed)
ROWS = [
    ("bench-players-7", ["-m", "fandonia_env.bench", "--players", "7"], None, ["'7'", "from 2 to 6"]),
    ("bench-players-range-1-3", ["-m", "fandonia_env.bench", "--players", "1-3"], None, ["'1-3'", "from 2 to 6"]),
    ("bench-seconds-0", ["-m", "fandonia_env.bench", "--seconds", "0"], None, ["'0'", "a number > 0"]),
    ("bench-seconds-text", ["-m", "fandonia_env.bench", "--seconds", "soon"], None, ["'soon'", "a number > 0"]),
    ("bench-max-turns-negative", ["-m", "fandonia_env.bench", "--max-turns", "-1"], None,
     ["'-1'", "0 for no turn limit"]),
    ("demo-players-1", ["-m", "fandonia_env.demo", "--players", "1", "--out", "OUT"], None, ["'1'", "from 2 to 6"]),
    ("demo-games-0", ["-m", "fandonia_env.demo", "--games", "0", "--out", "OUT"], None, ["'0'", ">= 1"]),
    ("demo-seed-text", ["-m", "fandonia_env.demo", "--seed", "abc", "--out", "OUT"], None,
     ["'abc'", "non-negative integer"]),
    ("demo-seed-negative", ["-m", "fandonia_env.demo", "--seed", "-2", "--out", "OUT"], None,
     ["'-2'", "non-negative integer"]),
    ("demo-max-turns-negative", ["-m", "fandonia_env.demo", "--max-turns", "-5", "--out", "OUT"], None,
     ["'-5'", "0 for no turn limit"]),
    ("demo-jobs-0", ["-m", "fandonia_env.demo", "--jobs", "0", "--out", "OUT"], None, ["'0'", ">= 1"]),
    ("demo-unknown-agent", ["-m", "fandonia_env.demo", "--agents", "noble-ppo-v1,nobody-v0", "--out", "OUT"], None,
     ["'nobody-v0'", "known agents", *KNOWN]),
    ("tournament-games-0", ["-m", "fandonia_env.tournament", "--agents", "random-v1", "--games", "0",
                            "--out", "OUT"], None, ["'0'", ">= 1"]),
    ("tournament-unknown-agent", ["-m", "fandonia_env.tournament", "--agents", "random-v1,unknown-id",
                                  "--out", "OUT"], None, ["'unknown-id'", "known agents", *KNOWN]),
    ("tournament-unknown-lineup-agent", ["-m", "fandonia_env.tournament", "--lineup", "random-v1,nobody-v0",
                                         "--out", "OUT"], None, ["'nobody-v0'", "known agents", *KNOWN]),
    ("tournament-players-9", ["-m", "fandonia_env.tournament", "--agents", "random-v1", "--players", "9",
                              "--out", "OUT"], None, ["'9'", "from 2 to 6"]),
    ("tournament-lineup-7-seats", ["-m", "fandonia_env.tournament", "--lineup", ",".join(["random-v1"] * 7),
                                   "--out", "OUT"], None, ["has 7", "2 to 6 players"]),
    ("tournament-max-turns-negative", ["-m", "fandonia_env.tournament", "--agents", "random-v1",
                                       "--max-turns", "-1", "--out", "OUT"], None, ["'-1'", "0 for no turn limit"]),
    ("tournament-bootstrap-0", ["-m", "fandonia_env.tournament", "--agents", "random-v1", "--bootstrap", "0",
                                "--out", "OUT"], None, ["'0'", ">= 1"]),
    ("soak-max-turns-negative", [str(REPO / "scripts" / "soak.py"), "--max-turns", "-1"], None,
     ["'-1'", "0 for no turn limit"]),
    ("soak-players-7", [str(REPO / "scripts" / "soak.py"), "--players", "2-7"], None, ["'2-7'", "from 2 to 6"]),
    ("soak-games-0", [str(REPO / "scripts" / "soak.py"), "--games", "0"], None, ["'0'", ">= 1"]),
    ("belief-probe-games-0", [str(REPO / "scripts" / "belief_probe.py"), "--games", "0"], None, ["'0'", ">= 1"]),
    ("belief-probe-edition", [str(REPO / "scripts" / "belief_probe.py"), "--edition", "1982"], None,
     ["'1982'", "'1981'", "'errata'"]),
    ("usurp-probes-no-results", [str(REPO / "scripts" / "usurp_probes.py"), "anatomy", "missing.json", "1981"], None,
     ["'missing.json'", "results.json"]),
    ("usurp-probes-limit-0", [str(REPO / "scripts" / "usurp_probes.py"), "anatomy", __file__, "1981", "--limit", "0"],
     None, ["--limit must be >= 1", "got 0"]),
    ("bench-against-unknown-ref", [str(REPO / "scripts" / "bench_against.py"), "--ref", "nosuch"], None,
     ["'nosuch'", "is not a commit"]),
    ("bench-against-rounds-0", [str(REPO / "scripts" / "bench_against.py"), "--rounds", "0"], None,
     ["--rounds must be >= 1", "got 0"]),
    ("train-config-missing", ["-m", "fandonia_env.training.train_ppo", "--config", "missing.yaml", "--out", "OUT"], None,
     ["'missing.yaml'", "no such file"]),
    ("train-config-unknown-key", ["-m", "fandonia_env.training.train_ppo", "--config", "bad.yaml"], BAD_CONFIG + "epochs: 3\n",
     ["bad.yaml", "unknown key(s) ['epochs']", "allowed: ['env', 'eval', 'out', 'ppo', 'seed']"]),
    ("train-config-missing-key", ["-m", "fandonia_env.training.train_ppo", "--config", "bad.yaml"],
     BAD_CONFIG.replace("seed: 0\n", ""), ["missing key(s) ['seed']", "required: ['env', 'eval', 'out', 'ppo', 'seed']"]),
    ("train-config-unknown-env-key", ["-m", "fandonia_env.training.train_ppo", "--config", "bad.yaml"],
     BAD_CONFIG.replace("players: 4", "players: 4, oponents: random-v1"),
     ["unknown key(s) ['oponents'] in 'env'", "allowed:", "'opponents'", "'max_turns'"]),
    ("train-config-bad-env-value", ["-m", "fandonia_env.training.train_ppo", "--config", "bad.yaml"],
     BAD_CONFIG.replace("players: 4", "players: 8"), ["'env'", "players", "8"]),
    ("train-config-negative-max-turns", ["-m", "fandonia_env.training.train_ppo", "--config", "bad.yaml"],
     BAD_CONFIG.replace("players: 4", "players: 4, max_turns: -3"), ["env.max_turns", "-3", "0 or null (no limit)"]),
    ("train-config-not-yaml", ["-m", "fandonia_env.training.train_ppo", "--config", "bad.yaml"], "env: [\n",
     ["bad.yaml", "not valid YAML"]),
    ("train-timesteps-0", ["-m", "fandonia_env.training.train_ppo", "--config", str(REPO / "configs" / "ppo_vs_random.yaml"),
                           "--timesteps", "0", "--out", "OUT"], None, ["'0'", ">= 1"]),
    ("main-unknown-command", ["-m", "fandonia_env", "demoo"], None, ["'demoo'", "demo, tournament, bench"]),
]


# the rows run as real command lines in a subprocess; the others through the module's main(argv)
SUBPROCESS = {"bench-players-7", "demo-players-1", "tournament-games-0", "tournament-unknown-agent",
              "soak-max-turns-negative", "train-config-missing", "train-config-unknown-key", "main-unknown-command"}


def _in_process(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``[-m module | script.py, *argv]`` through its main(argv); (exit code, stdout, stderr)."""
    if args[0] == "-m":
        mod = importlib.import_module(args[1] if args[1] != "fandonia_env" else "fandonia_env.__main__")
        argv = args[2:]
    else:
        spec = importlib.util.spec_from_file_location("_soak_script", args[0])
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        argv = args[1:]
    try:
        code = mod.main(argv)
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("row,args,config,needles", ROWS, ids=[r[0] for r in ROWS])
def test_bad_argument_is_an_argparse_error(tmp_path, monkeypatch, capsys, row, args, config, needles) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    out = tmp_path / "out"
    if config is not None:
        (cwd / "bad.yaml").write_text(config.replace("OUT", str(out)))
    args = [str(out) if a == "OUT" else a for a in args]
    if row in SUBPROCESS:
        p = _run(args, cwd)
        code, stdout, stderr = p.returncode, p.stdout, p.stderr
    else:
        monkeypatch.chdir(cwd)
        code, stdout, stderr = _in_process(args, capsys)
    assert code == 2, (code, stdout, stderr)
    assert "usage:" in stderr and "error:" in stderr
    assert "Traceback" not in stderr
    for n in needles:
        assert n in stderr, (n, stderr)
    assert not out.exists()  # nothing written: no output directory,
    assert sorted(x.name for x in cwd.iterdir()) == (["bad.yaml"] if config else [])  # nothing in the cwd
    assert stdout == ""


def test_max_turns_zero_means_no_limit_and_negative_is_rejected() -> None:
    assert cli.max_turns_arg("0") is None  # the engine's max_turns=None: no turn limit
    assert cli.max_turns_arg("60") == 60
    for bad in ("-1", "1.5", "none"):
        with pytest.raises(argparse.ArgumentTypeError, match="0 for no turn limit"):
            cli.max_turns_arg(bad)


def test_player_counts_and_ranges() -> None:
    assert cli.player_counts_arg("2,4,6") == [2, 4, 6]
    assert cli.player_counts_arg("2-4") == [2, 3, 4]
    assert cli.player_counts_arg("5, 2-3,3") == [5, 2, 3]
    for bad in ("1", "7", "4-2", "", "a", "2-"):
        with pytest.raises(argparse.ArgumentTypeError, match="from 2 to 6"):
            cli.player_counts_arg(bad)
    assert cli.players_arg("6") == 6
    with pytest.raises(argparse.ArgumentTypeError, match="'True'"):
        cli.players_arg("True")


def test_soak_max_turns_zero_plays_an_unlimited_game(tmp_path) -> None:
    p = _run([str(REPO / "scripts" / "soak.py"), "--max-turns", "0", "--games", "1", "--players", "2"], tmp_path)
    assert p.returncode == 0, p.stderr
    assert "2 players: 1 games" in p.stdout and "(no turn limit)" in p.stdout
    assert "'truncated'" not in p.stdout  # no limit, so the game is won or drawn
    assert list(tmp_path.iterdir()) == []


def test_python_m_fandonia_env_lists_the_commands(tmp_path) -> None:
    p = _run(["-m", "fandonia_env"], tmp_path)
    h = _run(["-m", "fandonia_env", "--help"], tmp_path)
    assert p.returncode == 0 and h.returncode == 0 and p.stdout == h.stdout
    for run in ("python -m fandonia_env.demo", "python -m fandonia_env.tournament", "python -m fandonia_env.bench",
                "python -m fandonia_env.training.train_ppo", "python scripts/soak.py"):
        line = next((ln for ln in p.stdout.splitlines() if ln.strip().startswith(run + " ")), None)
        assert line is not None, run
        assert len(line.split(run, 1)[1].strip()) > 20  # a one-line description
    # the demo's line names the nobles the demo really seats (issue 41: it named two others)
    from fandonia_env.apps.demo import DEMO_AGENTS

    demo = next(ln for ln in p.stdout.splitlines() if ln.strip().startswith("python -m fandonia_env.demo "))
    assert all(a in demo for a in DEMO_AGENTS), demo
    assert list(tmp_path.iterdir()) == []


def test_every_runnable_module_is_in_the_command_list() -> None:
    """Every file with a ``__main__`` block in fandonia_env/ (training stages included) and scripts/ is listed, with a
    description, and runs the way the list says."""
    cmds = discover()
    listed = {c.target: c for c in cmds}
    for folder in ("fandonia_env", "training", "scripts"):
        for f in (REPO / folder).rglob("*.py"):
            if f.name == "__main__.py" and f.parent.name == "fandonia_env":
                continue
            if f.name != "__main__.py" and 'if __name__ == "__main__"' not in f.read_text():
                continue
            rel = f.relative_to(REPO)
            parts = rel.with_suffix("").parts
            name = rel.as_posix() if folder == "scripts" else ".".join(p for p in parts if p != "__main__")
            assert name in listed, f"{rel} runs as a command but python -m fandonia_env does not list it"
            c = listed[name]
            assert c.run == (f"python {name}" if folder == "scripts" else f"python -m {name}")
            assert c.description and c.description != "(no description)"
    assert [c.name for c in cmds[:3]] == ["demo", "tournament", "bench"]


def test_demo_says_where_it_wrote_and_counts_games_not_seats(tmp_path) -> None:
    out = tmp_path / "demo"
    p = _run(["-m", "fandonia_env.demo", "--games", "2", "--players", "4", "--max-turns", "6", "--jobs", "1",
              "--agents", "noble-rule-v1,random-v1", "--out", str(out)], tmp_path)
    assert p.returncode == 0, p.stderr
    wrote = [ln.removeprefix("wrote ") for ln in p.stdout.splitlines() if ln.startswith("wrote ")]
    assert str(out / "results.json") in wrote and str(out / "summary.md") in wrote
    assert all(Path(w).is_file() for w in wrote)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["demo"]  # nothing else written
    rows = {ln.split("|")[1].strip(): [c.strip() for c in ln.split("|")[2:-1]]
            for ln in p.stdout.splitlines() if ln.startswith("| ") and not ln.startswith("| agent")}
    assert set(rows) == {"noble-rule-v1", "random-v1"}
    for cells in rows.values():
        games, wins, draws, truncated, seats = (int(c) for c in cells[:5])
        assert games == 2 and seats == 2  # 2 games (1 deal x 2 rotations), 2 seats each: not 4 seat-games
    assert sum(int(c[1]) for c in rows.values()) + int(rows["random-v1"][2]) + int(rows["random-v1"][3]) == 2
    doc = json.loads((out / "results.json").read_text())
    assert doc["summary"]["agents"]["random-v1"]["seat_games"] == 4


def test_demo_puts_the_trained_noble_at_the_table(tmp_path) -> None:
    out = tmp_path / "demo"
    p = _run(["-m", "fandonia_env.demo", "--games", "4", "--max-turns", "6", "--jobs", "1", "--out", str(out)], tmp_path)
    assert p.returncode == 0, p.stderr
    rows = {ln.split("|")[1].strip() for ln in p.stdout.splitlines() if ln.startswith("| ") and not ln.startswith("| agent")}
    assert rows == {"noble-ppo-v2", "noble-rule-v1", "noble-rule-v2", "random-v1"}


def test_tournament_max_turns_zero_is_no_limit_and_says_where(tmp_path) -> None:
    out = tmp_path / "t"
    p = _run(["-m", "fandonia_env.tournament", "--agents", "random-v1", "--players", "2", "--games", "1",
              "--max-turns", "0", "--jobs", "1", "--no-progress", "--bootstrap", "20", "--out", str(out)], tmp_path)
    assert p.returncode == 0, p.stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["config"]["max_turns"] is None and doc["games"][0]["result"] in ("win", "draw")
    assert f"wrote {out / 'results.json'}" in p.stdout and "no turn limit" in p.stdout


def _game(i: int, seats: list[str], ranks: list[float], winner: int | None, result: str = "win") -> dict:
    return {"index": i, "seats": seats, "ranks": ranks, "winner": winner, "result": result, "turns": 5,
            "decisions": 50}


def test_results_table_prints_a_ci_only_where_it_means_something() -> None:
    seats = ["a", "b", "a", "b"]
    # a always takes places 1 and 2 (same mean rank every game), wins 3 of 4 games (the 4th a draw)
    games = [_game(0, seats, [1, 3, 2, 4], 0), _game(1, seats, [2, 4, 1, 3], 2), _game(2, seats, [1, 4, 2, 3], 0),
             _game(3, seats, [1.5, 3.5, 1.5, 3.5], None, "draw")]
    s = summarize(games, ["a", "b"], bootstrap=200, seed=0)
    a, b = s["agents"]["a"], s["agents"]["b"]
    assert (a["games"], a["seat_games"], a["wins"], a["draws"], a["truncated"]) == (4, 8, 3, 1, 0)
    assert a["win_share"] == 0.75 and a["win_share_ci"] is not None
    assert a["mean_rank"] == 1.5 and a["mean_rank_ci"] is None  # 1.5 in every game: no interval
    assert b["win_share"] == 0.0 and b["win_share_ci"] is None and b["win_rate_ci"] is None  # never won
    table = markdown_table(s, None)
    row_a = next(ln for ln in table.splitlines() if ln.startswith("| a |"))
    cells = [c.strip() for c in row_a.split("|")[1:-1]]
    assert cells[:6] == ["a", "4", "3", "1", "0", "2"]
    lo, hi = a["win_share_ci"]
    assert cells[6] == f"0.750 [{lo:.3f}, {hi:.3f}]" and cells[7] == "1.50" and cells[8] == "–"
    assert "[1.50, 1.50]" not in table
    # one game only: no CI anywhere
    one = summarize(games[:1], ["a", "b"], bootstrap=50)
    assert all(v[k] is None for v in one["agents"].values() for k in ("win_share_ci", "mean_rank_ci"))
    assert "[" not in markdown_table(one, None).split("\n\n")[0].splitlines()[-1]


def test_shipped_training_configs_load() -> None:
    pytest.importorskip("yaml")
    from fandonia_env.training.train_ppo import load_config

    for f in sorted((REPO / "configs").glob("ppo_*.yaml")):
        cfg = load_config(str(f))
        assert cfg["ppo"]["total_timesteps"] >= 1 and cfg["env"]["players"] == [2, 6]

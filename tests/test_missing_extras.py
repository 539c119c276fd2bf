"""Commands that need an optional extra, run without it: one line naming the extra and how to install
it, exit status 2, no traceback (``fandonia_env.cli.require_extra``).  The extra's module is blocked
in the child process (a ``sitecustomize`` that puts None in ``sys.modules``), so this runs on a
machine that has every extra installed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from fandonia_env.tools.cli import EXTRAS, MissingExtraError, extra_message, invoked_as, missing_modules, require_extra

ROOT = Path(__file__).resolve().parents[1]

BLOCKER = """import os, sys
for m in os.environ.get("FANDONIA_TEST_BLOCK", "").split(","):
    if m:
        sys.modules[m] = None  # import m now raises ModuleNotFoundError, find_spec(m) gives None
"""

# (command line after python, modules blocked, extra, command named in the message)
CASES = [
    (["-m", "fandonia_env.serve", "--port", "0"], "fastapi", "serve", "fandonia_env.serve"),
    (["-m", "fandonia_env", "serve", "--port", "0"], "fastapi", "serve", "fandonia_env.serve"),
    (["-m", "fandonia_env.training.train_ppo", "--config", "configs/ppo_vs_random.yaml", "--out", "OUT"],
     "torch,stable_baselines3,sb3_contrib", "train", "fandonia_env.training.train_ppo"),
    (["-m", "fandonia_env.training.imitate", "--config", "configs/imitate.yaml", "--set", "out=OUT"], "torch", "train",
     "fandonia_env.training.imitate"),
    (["-m", "fandonia_env.training.league", "--config", "configs/league.yaml", "--set", "out=OUT"], "torch", "train",
     "fandonia_env.training.league"),
    (["-m", "fandonia_env.training.recipe", "--config", "configs/recipe.yaml", "--set", "out=OUT"], "torch", "train",
     "fandonia_env.training.recipe"),
    (["-m", "fandonia_env.training.expert", "--config", "configs/expert.yaml", "--set", "out=OUT"], "torch", "train",
     "fandonia_env.training.expert"),
    (["-m", "fandonia_env.training.exploit", "--target", "noble-rule-v1", "--out", "OUT"], "torch", "train",
     "fandonia_env.training.exploit"),
    (["-m", "fandonia_env.training.rllib_train", "--config", "configs/rllib_ppo.yaml", "--set", "out=OUT"], "ray", "rllib",
     "fandonia_env.training.rllib_train"),
    (["-m", "fandonia_env.compile"], "mypyc", "fast", "fandonia_env.compile"),
    (["-m", "fandonia_env.datasets", "create", "--noble", "random-v1", "--episodes", "1", "--out", "OUT"], "minari",
     "datasets", "fandonia_env.datasets"),
    (["scripts/ismcts_vs_nobles.py", "--games", "1", "--out", "OUT"], "pyspiel", "openspiel",
     "scripts/ismcts_vs_nobles.py"),
]


def _run(args: list[str], block: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BLOCKER)
    env = {**os.environ, "FANDONIA_TEST_BLOCK": block,
           "PYTHONPATH": os.pathsep.join([str(site), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    args = [a.replace("OUT", str(tmp_path / "out")) for a in args]
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args,block,extra,command", CASES, ids=[" ".join(c[0][:3]) for c in CASES])
def test_a_command_without_its_extra_stops_with_one_line_and_status_2(args, block, extra, command, tmp_path):
    out = _run(args, block, tmp_path)
    assert out.returncode == 2, (out.returncode, out.stderr[-2000:])
    assert out.stderr.splitlines() == [extra_message(extra, command)], out.stderr[-2000:]
    assert f'{command} needs the "{extra}" extra: pip install "fandonia_env[{extra}]"' in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert not (tmp_path / "out").exists()  # stopped before doing anything


def test_importing_a_module_without_its_extra_raises_an_import_error_naming_the_extra(tmp_path):
    code = ("from fandonia_env.cli import MissingExtraError\n"
            "try:\n    import fandonia_env.serve\n"
            "except MissingExtraError as e:\n    assert isinstance(e, ImportError) and e.name == 'fastapi'\n"
            "    print(e)\n")
    out = _run(["-c", code], "fastapi", tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == extra_message("serve", "fandonia_env.serve") + " (no module 'fastapi')"


def test_require_extra_raises_or_exits_by_context(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "fastapi", None)
    assert missing_modules(["fastapi", "json", "no_such_module_xyz", "no_such_pkg.sub"]) == [
        "fastapi", "no_such_module_xyz", "no_such_pkg.sub"]
    with pytest.raises(MissingExtraError, match=r'needs the "serve" extra'):
        require_extra("serve", "fandonia_env.serve", cli=False)
    with pytest.raises(SystemExit) as e:
        require_extra("serve", "fandonia_env.serve", cli=True)
    assert e.value.code == 2
    assert capsys.readouterr().err == extra_message("serve", "fandonia_env.serve") + "\n"
    require_extra("serve", "fandonia_env.serve", modules=["json"], cli=True)  # present: nothing happens
    with pytest.raises(ValueError, match=r"unknown extra 'srve'; extras: \['datasets', 'fast', "):
        require_extra("srve", "x")


@pytest.mark.parametrize("orig_argv,argv0,want", [
    (["python", "-m", "fandonia_env.serve", "--port", "0"], "-m", True),
    (["python", "-X", "dev", "-mfandonia_env.serve"], "-m", True),
    (["python", "-m", "fandonia_env.bot"], "-m", False),
    (["python", "-m", "fandonia_env", "serve"], "python -m fandonia_env.serve", True),
    (["python", "-c", "import fandonia_env.serve"], "-c", False),
    (["python", "script.py", "-m", "fandonia_env.serve"], "script.py", False),
])
def test_invoked_as_reads_the_command_line(orig_argv, argv0, want, monkeypatch):
    monkeypatch.setattr(sys, "orig_argv", orig_argv)
    monkeypatch.setattr(sys, "argv", [argv0])
    assert invoked_as("fandonia_env.serve") is want


def test_the_readme_lists_every_extra_by_use():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(extras)
    readme = (ROOT / "README.md").read_text()
    table = re.search(r"\| extra \|.*?\n\n", readme, re.S)
    assert table, "README.md has no table of the extras (a header row starting '| extra |')"
    rows = {m.group(1) for m in re.finditer(r"^\| `([a-z]+)` \|", table.group(0), re.M)}
    assert rows == set(extras), (sorted(rows), sorted(extras))


def test_an_openspiel_agent_id_without_the_extra_names_the_extra(tmp_path):
    code = ("from fandonia_env.agents import check_agent\n"
            "try:\n    check_agent('openspiel:ismcts?simulations=4')\n"
            "except ValueError as e:\n    print(e)\n")
    out = _run(["-c", code], "pyspiel", tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == ("agent 'openspiel:ismcts?simulations=4': "
                                  + extra_message("openspiel", "fandonia_env.openspiel"))

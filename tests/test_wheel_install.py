"""A non-editable install works anywhere: the wheel built from this tree, installed in a fresh virtual
environment and run from a folder outside the checkout, plays a game in every rules preset, seats
``noble-ppo-v1`` (its weights shipped) and runs a command line with ``--preset``; and every data file
the packages hold (presets, the server's pages, weights) is in the wheel.

The wheel is built from a copy of the tree (``pip wheel --no-deps --no-build-isolation``: nothing is
written into the checkout); the new environment sees this interpreter's installed packages (numpy,
gymnasium, ...) through a ``.pth`` file, as ``--system-site-packages`` would, so nothing is
downloaded.  About 30 s."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("fandonia_env",)  # one namespace: the agents and training stages are inside it
#: files in the package folders that are deliberately not package data, and why
NOT_SHIPPED = {
    "fandonia_env/training/checkpoints/league-v1-1m.npz": "a training input named by its checkout path (docs/training.md)",
    "fandonia_env/training/checkpoints/expert1-iter030.npz": "a training input: the init of the next expert run (docs/training.md, attempt 22)",
    "fandonia_env/training/checkpoints/expert2-iter096.npz": "a training input: the init of attempt 24 (docs/training.md, attempt 23)",
    "fandonia_env/training/checkpoints/expert3-iter096.npz": "a training input: the init of attempt 25 (docs/training.md, attempt 24)",
    "fandonia_env/training/checkpoints/expert4-iter084.npz": "a training input: the init of the next expert run (docs/training.md, attempt 25)",
    "fandonia_env/training/checkpoints/expert7-iter025.npz": "a training input: the 2-player fine-tune (docs/training.md, attempt 28)",
}
#: never part of a build: caches and the local compiled engine (``python -m fandonia_env.compile``)
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd", "_compiled.json", "*.egg-info", "build")

CHECK = r"""
import json, random, sys
from pathlib import Path
import importlib.util
import fandonia_env
from fandonia_env import agents
from fandonia_env.agents import make_agent
from fandonia_env.engine import Game
from fandonia_env.engine.face.hidden import InfoSet
from fandonia_env.engine.core.options import PRESET_DIR, preset_names

prefix = Path(sys.prefix).resolve()
for m in (fandonia_env, agents):
    assert Path(m.__file__).resolve().is_relative_to(prefix), (m.__file__, prefix)
# one namespace (issue 29): nothing installed under a generic top-level name
assert importlib.util.find_spec("agents") is None and importlib.util.find_spec("training") is None
games = {}
for name in preset_names():
    g = Game(players=3, seed=7, preset=name, max_turns=2)
    rng = random.Random(7)
    while not g.over:
        g.apply(rng.choice(g.legal_actions()))
    games[name] = g.result
moves = 0
for noble in ("noble-ppo-v1", "noble-ppo-v2"):
    ppo = make_agent(noble, seed=1)
    g = Game(players=2, seed=3, preset="errata", max_turns=2)
    rng = random.Random(3)
    while not g.over:
        p, legal = g.current_player(), g.legal_actions()
        if p == 0:
            a = ppo.act(g.view(p, log=False), legal, InfoSet(g.state, p) if moves % 2 else None)
            assert a in legal
            moves += 1
        else:
            a = rng.choice(legal)
        g.apply(a)
print(json.dumps({"presets": preset_names(), "games": games, "ppo_moves": moves, "preset_dir": str(PRESET_DIR)}))
"""


def _data_files(base: Path) -> set[str]:
    """Every file of the packages under ``base`` that is not Python source or a build product."""
    out = set()
    for pkg in PACKAGES:
        for p in (base / pkg).rglob("*"):
            rel = p.relative_to(base).as_posix()
            if (p.is_file() and p.suffix not in (".py", ".pyc", ".so", ".pyd") and "__pycache__" not in p.parts
                    and p.name != "_compiled.json"):
                out.add(rel)
    return out


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel, the python of a fresh environment it is installed in)."""
    pytest.importorskip("setuptools", reason="building the wheel needs setuptools (the 'test' extra)")
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for f in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / f, src / f)
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, src / pkg, ignore=IGNORE)
    run = {"capture_output": True, "text": True, "timeout": 300}
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                          "-q", "-w", str(tmp / "dist"), str(src)], **run)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    (wheel,) = (tmp / "dist").glob("fandonia_env-*.whl")
    venv = tmp / "venv"
    out = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], **run)
    assert out.returncode == 0, out.stderr[-3000:]
    py = venv / "bin" / "python"
    purelib = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  **run).stdout.strip())
    # this interpreter's packages (the dependencies), after the environment's own: --system-site-packages
    # would give the base interpreter's, which lacks them when the tests run in a virtual environment
    (purelib / "_fandonia_test_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    out = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                          "--no-index", str(wheel)], **run)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    return wheel, py


def _run_outside(py: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # -I: no PYTHONPATH, no user site, no current folder on sys.path: only what was installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FANDONIA_ENGINE")}
    return subprocess.run([str(py), "-I", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_wheel_holds_every_data_file_of_the_packages(installed):
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    want = _data_files(ROOT) - set(NOT_SHIPPED)
    assert {"fandonia_env/presets/errata.yaml", "fandonia_env/serve/static/index.html",
            "fandonia_env/agents/weights/noble-ppo-v1.npz", "fandonia_env/agents/weights/noble-ppo-v2.npz"} <= want
    assert want - names == set(), f"data files missing from the wheel: {sorted(want - names)}"
    assert all((ROOT / f).is_file() for f in NOT_SHIPPED), "NOT_SHIPPED names a file that is gone"
    # one namespace (issue 29): every file of the wheel is under fandonia_env/ or its metadata
    top = {n.split("/", 1)[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"fandonia_env"}, sorted(top)


def test_an_installed_wheel_plays_every_preset_and_the_trained_noble_outside_the_checkout(installed, tmp_path):
    _, py = installed
    out = _run_outside(py, ["-c", CHECK], tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    from fandonia_env.engine.core.options import preset_names

    assert got["presets"] == preset_names() and len(got["presets"]) >= 5
    assert set(got["games"]) == set(preset_names()) and all(got["games"].values())
    assert got["ppo_moves"] > 5
    assert not Path(got["preset_dir"]).resolve().is_relative_to(ROOT)


def test_an_installed_command_line_takes_a_preset(installed, tmp_path):
    _, py = installed
    out = _run_outside(py, ["-m", "fandonia_env.tournament", "--agents", "noble-ppo-v1,random-v1", "--players", "2",
                            "--games", "2", "--max-turns", "2", "--preset", "errata-all-optional", "--jobs", "1",
                            "--no-progress", "--out", str(tmp_path / "t")], tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    res = json.loads((tmp_path / "t" / "results.json").read_text())
    assert "errata" in json.dumps(res)
    bad = _run_outside(py, ["-m", "fandonia_env.tournament", "--agents", "random-v1", "--preset", "nope",
                            "--out", str(tmp_path / "u")], tmp_path)
    assert bad.returncode == 2 and "valid presets: ['1981', '1981-all-optional', 'errata'" in bad.stderr

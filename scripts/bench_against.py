"""The speed bench of this tree against an earlier commit's, alternated in the same minutes.

    python scripts/bench_against.py [--ref a55acb0] [--rounds 2] [--players 4] [--seconds 3]

This machine's speed drifts by up to a third within an hour (docs/benchmarks.md, "Session 15"), so a
ratio to figures recorded on another day says little. This script checks out ``--ref`` (default:
a55acb0, the run 4 of docs/benchmarks.md, the release the issue 12 targets are set against) in a
temporary git worktree, runs ``python -m fandonia_env.bench`` of that commit and of this tree one after
the other ``--rounds`` times, each in its own process, and prints every row and the ratios of this tree
to the run just before it. The engine each side runs is its own: this tree runs its compiled build if
it has a fresh one (``python -m fandonia_env.compile``; ``FANDONIA_ENGINE=pure`` in the environment
for the pure one); the ref runs pure Python unless ``--build-ref`` compiles it in its worktree first
(compiled against compiled: ``python scripts/bench_against.py --ref f72d476 --build-ref``). The worktree
is removed at the end. It writes no file.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = {"engine dec/s": "engine", "AEC steps/s": "aec", "clone/s": "clone", "min cpu/wall": "cpu"}


def bench_row(tree: Path, players: int, seconds: float) -> dict[str, float]:
    """One run of ``tree``'s bench (its own package first on the path): the row's figures."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-m", "fandonia_env.bench", "--players", str(players),
                          "--seconds", str(seconds)], cwd=tree, env=env, capture_output=True, text=True,
                         check=True).stdout
    lines = [ln for ln in out.splitlines() if ln.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    row = [c.strip() for c in lines[-1].strip("|").split("|")]
    return {COLUMNS[h]: float(v.replace(",", "")) for h, v in zip(head, row, strict=True) if h in COLUMNS}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", default="a55acb0", help="the commit to compare with (default a55acb0, run 4)")
    ap.add_argument("--rounds", type=int, default=2, help="alternations, >= 1 (default 2)")
    ap.add_argument("--players", type=int, default=4, help="player count 2-6 (default 4)")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement, > 0 (default 3)")
    ap.add_argument("--build-ref", action="store_true",
                    help="compile the ref's engine with mypyc in its worktree first (3-5 minutes, or a copy "
                         "of its cached build)")
    a = ap.parse_args(argv)
    if a.rounds < 1 or not 2 <= a.players <= 6 or a.seconds <= 0:
        ap.error(f"--rounds must be >= 1, --players 2-6, --seconds > 0; got {a.rounds}, {a.players}, {a.seconds}")
    rev = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{a.ref}^{{commit}}"], cwd=ROOT,
                         capture_output=True, text=True)
    if rev.returncode != 0:
        ap.error(f"--ref {a.ref!r} is not a commit of {ROOT}")
    with tempfile.TemporaryDirectory(prefix="bench_ref_") as tmp:
        ref = Path(tmp) / "ref"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(ref), rev.stdout.strip()],
                       cwd=ROOT, check=True)
        try:
            if a.build_ref:
                # --cached: a build of the same sources kept in ~/.cache/fandonia_env/compiled is copied
                # (refs older than issue 26 have no --cached: they build in place)
                cmd = [sys.executable, "-m", "fandonia_env.compile"]
                if "--cached" in (ref / "fandonia_env" / "compile.py").read_text():
                    cmd.append("--cached")
                subprocess.run(cmd, cwd=ref, env={**os.environ, "PYTHONPATH": str(ref)}, check=True)
            print("| run | engine dec/s | AEC steps/s | clone/s | min cpu/wall |\n|---|---:|---:|---:|---:|")
            ratios: dict[str, list[float]] = {"engine": [], "aec": [], "clone": []}
            for r in range(1, a.rounds + 1):
                old = bench_row(ref, a.players, a.seconds)
                new = bench_row(ROOT, a.players, a.seconds)
                for label, row in ((f"{a.ref}, {r}", old), (f"this tree, {r}", new)):
                    print(f"| {label} | {row['engine']:,.0f} | {row['aec']:,.0f} | {row['clone']:,.0f} | "
                          f"{row['cpu']:.2f} |", flush=True)
                for k in ratios:
                    ratios[k].append(new[k] / old[k])
            print()
            for k, name in (("engine", "engine dec/s"), ("aec", "AEC steps/s"), ("clone", "clone/s")):
                print(f"{name}: {min(ratios[k]):.2f}x-{max(ratios[k]):.2f}x {a.ref}")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(ref)], cwd=ROOT, check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

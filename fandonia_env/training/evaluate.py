"""Stage 4, evaluate: a policy against fixed anchors through the project's tournament runner.

    python -m fandonia_env.training.evaluate --config configs/evaluate.yaml --policy runs/imitate/policy.npz [--step N]

For each anchor (``anchors``, default ``random-v1`` and ``noble-rule-v1``) it plays the lineup
``ppo:POLICY`` + (players-1) x anchor with ``fandonia_env.tournament.run_tournament`` (duplicate
deal seeds, every seat rotation, percentile-bootstrap 95% CIs over whole games) and appends one
row per anchor to the CSV ``csv``:

    step, anchor, players, games, win_share, ci_lo, ci_hi, fair, mean_rank, policy, wall_s

(``win_share``: games the policy won / games played; ``fair``: 1/players).  ``step`` is the
training step the policy was exported at (``--step``, else the policy's own header, else 0).
``plot_learning_curve`` draws win share vs step with the CI bands, one line per anchor
(``<csv stem>.png`` after every run when ``plot`` is on); TensorBoard scalars are written too
when ``tensorboard`` is installed.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from pathlib import Path
from typing import Any

from .common import ConfigError, Opt, arg_parser, run_cli

SCHEMA: dict[str, Opt] = {
    "policy": Opt(None, (str,), "policy file (.npz export or .pt checkpoint); --policy overrides", nullable=True),
    "anchors": Opt(["random-v1", "noble-rule-v1"], (list,), "opponent agent ids; each fills every other seat"),
    "players": Opt(4, (int,), "table size (the policy takes one seat)"),
    "games": Opt(200, (int,), "games per anchor (rounded up to whole deals x rotations)"),
    "seed": Opt(10_000, (int,), "first deal seed (keep it away from the training seeds)"),
    "max_turns": Opt(60, (int,), "truncation turn limit", nullable=True),
    "jobs": Opt(None, (int,), "worker processes (null: os.cpu_count())", nullable=True),
    "csv": Opt("runs/eval/eval.csv", (str,), "CSV the rows are appended to"),
    "out": Opt(None, (str,), "directory for each tournament's results (null: none)", nullable=True),
    "step": Opt(None, (int,), "training step of the policy (null: from the policy file, else 0); --step overrides",
                nullable=True),
    "rules": Opt({}, (dict,), "Game keyword arguments: preset / edition / optional"),
    "plot": Opt(True, (bool,), "redraw the learning curve <csv stem>.png"),
    "progress": Opt(True, (bool,), "show the tournament's progress bar"),
}
FIELDS = ("step", "anchor", "players", "games", "win_share", "ci_lo", "ci_hi", "fair", "mean_rank", "policy", "wall_s")


def win_share(summary: dict[str, Any], spec: str) -> tuple[int, float, float, float]:
    """(games, win share, CI low, CI high) of ``spec`` in a tournament summary (the CI is the share
    itself where the summary gives none: the same value in every game)."""
    s = summary["agents"][spec]
    share = s.get("win_share", s["win_rate"])
    ci = s.get("win_share_ci", s.get("win_rate_ci")) or [share, share]
    return s["games"], share, ci[0], ci[1]


def policy_step(path: str) -> int:
    """The training step stored in an exported policy's header (``fandonia_env.training.steps``), else 0."""
    if not path.endswith(".npz"):
        return 0
    import numpy as np

    with np.load(path, allow_pickle=False) as z:
        if "__header__" not in z.files:
            return 0
        hd = json.loads(str(z["__header__"]))
    return int(hd.get("training", {}).get("steps", 0))


def evaluate(cfg: dict[str, Any]) -> list[dict[str, Any]]:
    """Play the tournaments, append the rows to ``cfg["csv"]`` (and plot); the rows."""
    from fandonia_env.agents import check_agent
    from fandonia_env.arena.tournament import run_tournament

    pol = cfg["policy"]
    if not pol:
        raise ConfigError("no policy: give --policy PATH or the config key policy")
    if not os.path.isfile(pol):
        raise ConfigError(f"policy file {pol!r} does not exist")
    if not 2 <= cfg["players"] <= 6:
        raise ConfigError(f"players must be 2..6, got {cfg['players']}")
    if cfg["games"] < 1:
        raise ConfigError(f"games must be >= 1, got {cfg['games']}")
    if not cfg["anchors"]:
        raise ConfigError("anchors must list at least one agent id")
    for a in cfg["anchors"]:
        try:
            check_agent(a)
        except ValueError as e:
            raise ConfigError(f"anchors: {e}") from None
    step = cfg["step"] if cfg["step"] is not None else policy_step(pol)
    spec = f"ppo:{pol}"
    rows = []
    for anchor in cfg["anchors"]:
        lineup = [spec] + [anchor] * (cfg["players"] - 1)
        out = None if cfg["out"] is None else os.path.join(cfg["out"], f"step{step}_{anchor}")
        r = run_tournament(lineup=lineup, games=cfg["games"], seed=cfg["seed"], max_turns=cfg["max_turns"],
                           jobs=cfg["jobs"], out=out, progress=cfg["progress"], plot=False, rules=cfg["rules"])
        s = r.summary["agents"][spec]
        games, share, lo, hi = win_share(r.summary, spec)
        rows.append({"step": step, "anchor": anchor, "players": cfg["players"], "games": games,
                     "win_share": round(share, 5), "ci_lo": round(lo, 5), "ci_hi": round(hi, 5),
                     "fair": round(1 / cfg["players"], 5), "mean_rank": round(s["mean_rank"], 4), "policy": pol,
                     "wall_s": r.config["wall_s"]})
    append_rows(cfg["csv"], rows)
    _tensorboard(cfg["csv"], rows)
    if cfg["plot"]:
        plot_learning_curve(cfg["csv"], str(Path(cfg["csv"]).with_suffix(".png")))
    return rows


def append_rows(path: str, rows: list[dict[str, Any]]) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    new = not p.exists() or p.stat().st_size == 0
    with open(p, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        w.writerows(rows)


def read_rows(path: str) -> list[dict[str, Any]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _tensorboard(csv_path: str, rows: list[dict[str, Any]]) -> None:
    try:
        from torch.utils.tensorboard import SummaryWriter
    except Exception:  # tensorboard (and torch) are optional here
        return
    w = SummaryWriter(str(Path(csv_path).parent / "tb"))
    for r in rows:
        w.add_scalar(f"eval/win_share_vs_{r['anchor']}", r["win_share"], r["step"])
    w.close()


def plot_learning_curve(csv_path: str, png_path: str, title: str | None = None) -> bool:
    """Win share vs training step with its 95% CI band, one line per (anchor, players), and the
    fair share as a dotted line; False when matplotlib is missing or the CSV has no rows."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = read_rows(csv_path)
    if not rows:
        return False
    series: dict[tuple[str, int], list[tuple[int, float, float, float]]] = {}
    for r in rows:
        key = (r["anchor"], int(r["players"]))
        series.setdefault(key, []).append((int(r["step"]), float(r["win_share"]), float(r["ci_lo"]), float(r["ci_hi"])))
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for (anchor, n), pts in sorted(series.items()):
        pts.sort()
        x = [p[0] for p in pts]
        y = [p[1] for p in pts]
        eb = ax.errorbar(x, y, yerr=[[max(0.0, v - p[2]) for v, p in zip(y, pts)], [max(0.0, p[3] - v) for v, p in zip(y, pts)]],
                         marker="o", capsize=3, label=f"vs {n - 1}x {anchor} ({n} players)")
        ax.fill_between(x, [p[2] for p in pts], [p[3] for p in pts], alpha=0.2, color=eb.lines[0].get_color())
    for n in sorted({k[1] for k in series}):
        ax.axhline(1 / n, ls=":", color="grey", lw=1)
        ax.annotate(f"fair 1/{n}", (ax.get_xlim()[0], 1 / n), fontsize=7, color="grey", va="bottom")
    ax.set_xlabel("training step")
    ax.set_ylabel("win share (95% bootstrap CI)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title or f"Learning curve ({Path(csv_path).name})", fontsize=9)
    fig.tight_layout()
    Path(png_path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png_path, dpi=120)
    plt.close(fig)
    return True


def _report(cfg: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """What ``main`` prints once the stage is done."""
    for r in rows:
        print(f"step {r['step']}: {r['policy']} vs {r['players'] - 1}x {r['anchor']}: win share {r['win_share']:.3f} "
              f"[{r['ci_lo']:.3f}, {r['ci_hi']:.3f}] over {r['games']} games (fair {r['fair']:.3f}), "
              f"mean rank {r['mean_rank']:.2f}")
    print(f"wrote {cfg['csv']}" + (f", {Path(cfg['csv']).with_suffix('.png')}" if cfg["plot"] else ""))


def main(argv: list[str] | None = None) -> int:
    ap = arg_parser("python -m fandonia_env.training.evaluate", __doc__)
    ap.add_argument("--policy", default=None, help="policy file to evaluate (overrides the config's policy)")
    ap.add_argument("--step", type=int, default=None, help="training step to record (overrides the config's step)")

    def run(a: argparse.Namespace, cfg: dict[str, Any]) -> list[dict[str, Any]]:
        if a.policy is not None:
            cfg["policy"] = a.policy
        if a.step is not None:
            cfg["step"] = a.step
        return evaluate(cfg)

    return run_cli(ap, argv, SCHEMA, run, _report)


if __name__ == "__main__":
    raise SystemExit(main())

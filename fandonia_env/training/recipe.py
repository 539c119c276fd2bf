"""The whole recipe in one command: a list of stage runs, from nothing to the exported noble.

    python -m fandonia_env.training.recipe --config configs/recipe.yaml [--set league.total_steps=200000]

The config lists ``steps``: each is one run of a stage (``stage``: collect, imitate, league,
expert or evaluate) with a ``name`` (its folder, ``<out>/<name>``) and the keys of that stage's own config
(docs/training.md).  A value ``"@NAME"`` (also inside lists, and after ``ppo:``) refers to an earlier
step's output: its folder (the collected shards, an imitation run, a league run), or its exported
policy ``<out>/NAME/policy.npz`` where a policy file is wanted (the ``policy`` key and ``ppo:@NAME``
agent ids).  ``out`` (and for an evaluation ``csv``) is filled in; ``seed`` is given to every step
that does not set its own (the evaluations keep their own deal seeds).  Every stage is resumable (a
rerun skips finished shards, resumes from the last imitation epoch and from the league
checkpoint; a finished evaluation is not played again), so the recipe can be stopped and started
again.  At the end the policy of ``export_from`` (default: the last imitate, league or expert step) is
exported in float16 to ``export`` (e.g. ``fandonia_env/agents/weights/noble-ppo-v1.npz``, what
``make_agent("noble-ppo-v1")`` loads).  ``--set NAME.key=value`` overrides a key of the step named
NAME; every step's wall time goes to ``<out>/recipe_summary.json`` (and, after each step, to
``<out>/recipe_wall.json``: a step worked on in several sittings counts the time of all of them; Ctrl-C and
SIGTERM both stop the command that way, exit status 130).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fandonia_env.tools.cli import require_extra

from . import collect as st_collect
from . import evaluate as st_evaluate
from . import expert as st_expert
from . import imitate as st_imitate
from . import league as st_league
from .common import REQUIRED, ConfigError, Opt, arg_parser, load_config, prepare_out, validate

STAGES = {"collect": st_collect.SCHEMA, "imitate": st_imitate.SCHEMA, "league": st_league.SCHEMA,
          "expert": st_expert.SCHEMA, "evaluate": st_evaluate.SCHEMA}
#: the stages that train a policy (what ``export_from`` may name)
TRAINING = ("imitate", "league", "expert")

SCHEMA: dict[str, Opt] = {
    "out": Opt(REQUIRED, (str,), "directory of the whole run (one folder per step)"),
    "seed": Opt(0, (int,), "seed of every collect, imitate, league and expert step that does not set its own (the "
                           "evaluations keep their own deal seeds)"),
    "export": Opt(None, (str,), "where to copy the final policy (float16 .npz), e.g. "
                                "fandonia_env/agents/weights/noble-ppo-v1.npz (null: nowhere)", nullable=True),
    "export_from": Opt(None, (str,), "the step whose policy is exported (null: the last imitate, league or expert step)",
                       nullable=True),
    "steps": Opt(REQUIRED, (list,), "the stage runs in order: {name, stage, ...keys of that stage}; '@NAME' "
                                    "refers to an earlier step's output"),
}


def _split_overrides(overrides: list[str], names: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """``--set`` items: the recipe's own ``key=value`` items, and ``NAME.key=value`` items by step
    name (a dotted key naming no step is a ConfigError)."""
    top, per = [], {k: [] for k in names}
    for item in overrides:
        key = item.split("=", 1)[0]
        if "." not in key:
            top.append(item)
        elif key.split(".", 1)[0] in per:
            per[key.split(".", 1)[0]].append(item.split(".", 1)[1])
        else:
            raise ConfigError(f"--set {item!r}: no step is named {key.split('.', 1)[0]!r}; steps: {names}")
    return top, per


def _step_names(steps: Any) -> list[str]:
    """The steps' names, checked: a list of mappings with a unique ``name`` (a plain folder name)
    and a known ``stage``."""
    if not isinstance(steps, list) or not steps:
        raise ConfigError(f"steps must be a non-empty list of {{name, stage, ...}} mappings, got {steps!r}")
    names: list[str] = []
    for i, s in enumerate(steps):
        if not isinstance(s, dict):
            raise ConfigError(f"steps[{i}] must be a mapping {{name, stage, ...}}, got {s!r}")
        name, stage = s.get("name"), s.get("stage")
        if not isinstance(name, str) or not name or not name.replace("_", "").replace("-", "").isalnum():
            raise ConfigError(f"steps[{i}].name must be a folder name (letters, digits, - and _), got {name!r}")
        if name in names:
            raise ConfigError(f"steps[{i}].name {name!r} is used twice; step names must be unique")
        if stage not in STAGES:
            raise ConfigError(f"steps[{i}] ({name}).stage must be one of {sorted(STAGES)}, got {stage!r}")
        names.append(name)
    return names


def _resolve(value: Any, key: str, out: Path, done: dict[str, str], where: str) -> Any:
    """``value`` with every ``@NAME`` (and ``ppo:@NAME``) replaced by step NAME's output."""
    if isinstance(value, list):
        return [_resolve(v, key, out, done, where) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, key, out, done, where) for k, v in value.items()}
    if not isinstance(value, str):
        return value
    prefix, ref = "", value
    if ref.startswith("ppo:@"):
        prefix, ref = "ppo:", ref[len("ppo:"):]
    if not ref.startswith("@"):
        return value
    name = ref[1:]
    if name not in done:
        raise ConfigError(f"{where}.{key}: {value!r} names no earlier step; earlier steps: {sorted(done) or 'none'}")
    if prefix or key == "policy":
        if done[name] not in TRAINING:
            raise ConfigError(f"{where}.{key}: {value!r} wants a policy, but step {name!r} is a {done[name]} step")
        return prefix + str(out / name / "policy.npz")
    return str(out / name)


def step_configs(cfg: dict[str, Any], per: dict[str, list[str]] | None = None) -> list[tuple[str, str, dict[str, Any]]]:
    """``(name, stage, validated config)`` of every step, references resolved and paths filled in."""
    import yaml

    out = Path(cfg["out"])
    names = _step_names(cfg["steps"])
    done: dict[str, str] = {}
    res = []
    for name, step in zip(names, cfg["steps"]):
        stage = step["stage"]
        where = f"steps.{name}"
        raw = {k: v for k, v in step.items() if k not in ("name", "stage")}
        for item in (per or {}).get(name, []):
            if "=" not in item:
                raise ConfigError(f"--set {name}.{item!r}: expected {name}.key=value")
            k, v = item.split("=", 1)
            raw[k.strip()] = yaml.safe_load(v)
        for k in ("out", "csv"):
            if k in raw:
                raise ConfigError(f"{where}.{k} is filled in by the recipe (<out>/{name}); leave it out")
        raw = {k: _resolve(v, k, out, done, where) for k, v in raw.items()}
        if stage == "evaluate":
            raw.update(out=str(out / name), csv=str(out / name / "eval.csv"))
        else:
            raw = {"seed": cfg["seed"], **raw, "out": str(out / name)}
        res.append((name, stage, validate(raw, STAGES[stage], f"{where} ({stage})")))
        done[name] = stage
    trained = [n for n, s, _ in res if s in TRAINING]
    src = cfg.get("export_from")
    if src is not None and src not in trained:
        raise ConfigError(f"export_from: {src!r} is not an imitate, league or expert step; those are {trained}")
    if cfg.get("export") and not trained:
        raise ConfigError("export: no imitate, league or expert step makes a policy to export")
    return res


def _run_step(stage: str, sc: dict[str, Any]) -> list[dict[str, Any]] | None:
    if stage == "collect":
        st_collect.collect(sc)
    elif stage == "imitate":
        st_imitate.imitate(sc)
    elif stage == "league":
        st_league.train(sc)
    elif stage == "expert":
        st_expert.train(sc)
    else:
        done = Path(sc["out"]) / "evaluate_rows.json"
        key = {k: sc.get(k) for k in _EVAL_KEY}
        if done.is_file() and _same_evaluation(json.loads(done.read_text()), key):
            return json.loads(done.read_text())["rows"]  # a finished evaluation is not played again on a rerun
        rows = st_evaluate.evaluate(sc)
        done.write_text(json.dumps({"evaluated": key, "rows": rows}, indent=1))
        return rows
    return None


#: what makes two evaluations the same (a rerun plays one again when any of these changed, e.g. the
#: policy after an earlier step was changed or trained further)
_EVAL_KEY = ("policy", "anchors", "players", "games", "seed", "max_turns", "rules")


def _same_evaluation(saved: Any, key: dict[str, Any]) -> bool:
    if isinstance(saved, dict):
        return saved.get("evaluated") == key
    return False  # an older file without its settings: play it again


def strength_rows(out: Path, steps: list[tuple[str, str, dict[str, Any]]], wall: dict[str, float]) -> list[dict[str, Any]]:
    """The recipe's strength against its wall time: every evaluation an expert step logged
    (``eval.csv``, the policy's time within the step in ``stage_s``) and every evaluate step's rows,
    placed at the recipe's wall time (the steps before it, plus the time within the step)."""
    import csv

    rows: list[dict[str, Any]] = []
    before = 0.0
    for name, stage, sc in steps:
        if stage == "expert" and (out / name / "eval.csv").is_file():
            with open(out / name / "eval.csv") as f:
                for r in csv.DictReader(f):
                    if r.get("stage_s") in (None, ""):
                        continue  # a row of an older run, without its time
                    rows.append({"recipe_s": round(before + float(r["stage_s"]), 1), "step": name,
                                 "iteration": int(r["iteration"]), "anchor": r["anchor"], "preset": r["preset"],
                                 "players": 4, "games": int(r["games"]), "win_share": float(r["win_share"]),
                                 "ci_lo": float(r["ci_lo"]), "ci_hi": float(r["ci_hi"])})
        elif stage == "evaluate" and (out / name / "evaluate_rows.json").is_file():
            for r in json.loads((out / name / "evaluate_rows.json").read_text())["rows"]:
                rules = sc.get("rules") or {}
                rows.append({"recipe_s": round(before, 1), "step": name, "iteration": -1, "anchor": r["anchor"],
                             "preset": rules.get("preset") or rules.get("edition") or "1981",
                             "players": r["players"], "games": r["games"], "win_share": r["win_share"],
                             "ci_lo": r["ci_lo"], "ci_hi": r["ci_hi"]})
        before += wall.get(name, 0.0)
    return rows


def time_spent(out: Path, steps: list[tuple[str, str, dict[str, Any]]], wall: dict[str, float]) -> dict[str, float]:
    """Where the recipe's wall time went, in seconds: ``bootstrap`` (collect and imitate steps),
    ``acting`` (the expert steps' self-play), ``learning`` (their PPO updates), ``evaluation`` (their
    evaluations and the evaluate steps), ``other`` (the rest: exports, checkpoints, start-up; league
    steps count as acting and learning together under ``league``), ``total``."""
    import csv

    t = dict.fromkeys(("bootstrap", "acting", "learning", "league", "evaluation", "other"), 0.0)
    for name, stage, _ in steps:
        w = wall.get(name, 0.0)
        if stage in ("collect", "imitate"):
            t["bootstrap"] += w
        elif stage == "evaluate":
            t["evaluation"] += w
        elif stage == "league":
            t["league"] += w
        elif stage == "expert":
            parts = {"acting": 0.0, "learning": 0.0, "evaluation": 0.0}
            if (out / name / "train.csv").is_file():
                with open(out / name / "train.csv") as f:
                    for r in csv.DictReader(f):
                        parts["acting"] += float(r["collect_s"])
                        parts["learning"] += float(r["update_s"])
            if (out / name / "eval.csv").is_file():
                with open(out / name / "eval.csv") as f:
                    seen = {(r["iteration"], r.get("eval_s") or "0") for r in csv.DictReader(f)}
                parts["evaluation"] = sum(float(e) for _, e in seen)
            for k, v in parts.items():
                t[k] += v
            t["other"] += max(0.0, w - sum(parts.values()))
    t["total"] = sum(wall.get(n, 0.0) for n, _, _ in steps)
    return {k: round(v, 3) for k, v in t.items()}


def write_strength(out: Path, steps: list[tuple[str, str, dict[str, Any]]], wall: dict[str, float]) -> None:
    """``<out>/strength.csv`` and ``strength.png``: the recipe's strength against its wall time
    (``strength_rows``); nothing while no step has evaluated."""
    import csv

    rows = strength_rows(out, steps, wall)
    if not rows:
        return
    with open(out / "strength.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the tournament extra brings matplotlib
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for key in sorted({(r["anchor"], r["preset"], r["players"]) for r in rows}):
        pts = sorted((r for r in rows if (r["anchor"], r["preset"], r["players"]) == key), key=lambda r: r["recipe_s"])
        x = [r["recipe_s"] / 60 for r in pts]
        ax.plot(x, [r["win_share"] for r in pts], marker="o",
                label=f"vs {key[2] - 1}x {key[0]} ({key[1]}, {key[2]} players)")
        ax.fill_between(x, [r["ci_lo"] for r in pts], [r["ci_hi"] for r in pts], alpha=0.15)
    ax.axhline(0.25, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("recipe wall time (minutes)")
    ax.set_ylabel("win share")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "strength.png", dpi=110)
    plt.close(fig)


def run(cfg: dict[str, Any], per: dict[str, list[str]] | None = None) -> dict[str, Any]:
    t0 = time.perf_counter()
    steps = step_configs(cfg, per)
    out = prepare_out(cfg["out"], cfg, "recipe")
    # every step's wall time, summed over the runs that worked on it (a resumed run adds what it
    # spends), kept in recipe_wall.json after each step, so a recipe spread over several sittings
    # still reports what it cost in all
    wall_file = out / "recipe_wall.json"
    spent: dict[str, float] = json.loads(wall_file.read_text()) if wall_file.is_file() else {}
    wall: dict[str, float] = {}
    evaluation: list[dict[str, Any]] = []
    for i, (name, stage, sc) in enumerate(steps):
        t = time.perf_counter()
        try:
            print(f"== step {i + 1}/{len(steps)}: {name} ({stage})", file=sys.stderr)
            rows = _run_step(stage, sc)
        finally:  # an interrupted step keeps the time it spent too
            wall[name] = spent.get(name, 0.0) + time.perf_counter() - t
            wall_file.write_text(json.dumps({**spent, **wall}, indent=1))
            write_strength(out, steps, {**spent, **wall})
        evaluation += [dict(r, step_name=name) for r in rows or []]

    exported = None
    trained = [(n, s, c) for n, s, c in steps if s in TRAINING]
    src = next(((n, s, c) for n, s, c in trained if n == cfg["export_from"]), trained[-1] if trained else None)
    if cfg["export"] and src is not None:
        from fandonia_env.spaces.encoders import get_encoder

        from .model import export_npz, load_checkpoint

        model, ck = load_checkpoint(st_expert.resolve_init(src[2]["out"]))  # expert.pt, league.pt or the last epoch
        enc = get_encoder(ck["header"]["encoder"])
        tmp = out / "export.npz"
        export_npz(model, tmp, enc, half=True, extra={"stage": "recipe", "step": src[0],
                                                      "config": str(out / "recipe_config.yaml")})
        Path(cfg["export"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tmp, cfg["export"])
        exported = cfg["export"]
    summary = {"out": str(out), "steps": [n for n, _, _ in steps], "export": exported,
               "export_from": src[0] if src else None, "evaluation": evaluation,
               "wall_s": {k: round(v, 1) for k, v in wall.items()}, "total_wall_s": round(sum(wall.values()), 1),
               "time_spent_s": time_spent(out, steps, wall),
               "this_run_wall_s": round(time.perf_counter() - t0, 1)}
    (out / "recipe_summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def stop_on_sigterm(owner: int) -> Callable[[int, Any], None]:
    """A SIGTERM handler (a batch scheduler's stop, ``kill``) that stops the recipe as Ctrl-C does: the
    running step keeps the time it spent in recipe_wall.json, and its stage resumes from its last
    checkpoint.  Only in process ``owner``: a forked worker (the tournament's and the actors' pools),
    which inherits the handler, dies of the signal as it would without it, silently."""

    def handler(signum: int, frame: Any) -> None:
        if os.getpid() != owner:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise KeyboardInterrupt(f"signal {signum}")

    return handler


def main(argv: list[str] | None = None) -> int:
    ap = arg_parser("python -m fandonia_env.training.recipe", __doc__)
    a = ap.parse_args(argv)
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, stop_on_sigterm(os.getpid())) if main_thread else None
    try:
        return _main(a)
    finally:  # a caller in the same process (a test, a notebook) gets its own handler back
        if main_thread:
            signal.signal(signal.SIGTERM, previous)


def _main(a: Any) -> int:
    try:
        own = [item for item in a.set if "." not in item.split("=", 1)[0]]
        cfg = load_config(a.config, SCHEMA, own)
        _, per = _split_overrides(a.set, _step_names(cfg["steps"]))
        require_extra("train", "fandonia_env.training.recipe", ("torch",), cli=True)  # the config is checked without it
        s = run(cfg, per)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("stopped: every step's time so far is in recipe_wall.json; run the same command again to resume",
              file=sys.stderr)
        return 130
    for r in s["evaluation"]:
        print(f"[{r['step_name']}] {r['policy']} vs {r['players'] - 1}x {r['anchor']}: win share {r['win_share']:.3f} "
              f"[{r['ci_lo']:.3f}, {r['ci_hi']:.3f}] over {r['games']} games (fair {r['fair']:.3f})")
    print(f"recipe: {s['total_wall_s']} s ({', '.join(f'{k} {v} s' for k, v in s['wall_s'].items())})")
    print("where the time went: " + ", ".join(f"{k} {v} s" for k, v in s["time_spent_s"].items() if v))
    print(f"wrote {s['out']}/ ({', '.join(s['steps'])}, recipe_summary.json)"
          + (f" and {s['export']} (from step {s['export_from']})" if s["export"] else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

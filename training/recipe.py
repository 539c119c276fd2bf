"""The whole recipe in one command: collect -> imitate -> league -> evaluate -> export.

    python -m training.recipe --config configs/recipe.yaml [--set league.total_steps=200000]

The config has one section per stage (``collect``, ``imitate``, ``league``, ``evaluate``: the keys
of that stage's own config, docs/training.md) and a few keys of its own (``out``, ``seed``,
``export``).  Each stage writes under ``<out>/<stage>`` and is resumable (a rerun skips finished
shards, resumes from the last imitation epoch and from the league checkpoint), so the recipe can
be stopped and started again.  The data and network paths between the stages are filled in:
``imitate.data`` is the collect directory, ``league.init`` the imitation run.  At the end the
league's policy is evaluated (``evaluate``: the tournament runner, duplicate seeds, seat rotation,
95% bootstrap CIs) and exported in float16 to ``export`` (e.g. ``agents/weights/noble-ppo-v1.npz``,
what ``make_agent("noble-ppo-v1")`` loads).  ``--set stage.key=value`` overrides a stage's key.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from . import collect as st_collect
from . import evaluate as st_evaluate
from . import imitate as st_imitate
from . import league as st_league
from .common import REQUIRED, ConfigError, Opt, arg_parser, load_config, prepare_out, validate

STAGES = {"collect": st_collect.SCHEMA, "imitate": st_imitate.SCHEMA, "league": st_league.SCHEMA,
          "evaluate": st_evaluate.SCHEMA}

SCHEMA: dict[str, Opt] = {
    "out": Opt(REQUIRED, (str,), "directory of the whole run (one folder per stage)"),
    "seed": Opt(0, (int,), "seed of collect, imitate and league (a stage's own seed key overrides it; the "
                           "evaluation keeps its own deal seeds)"),
    "export": Opt(None, (str,), "where to copy the final policy (float16 .npz), e.g. "
                                "agents/weights/noble-ppo-v1.npz (null: nowhere)", nullable=True),
    "skip_league": Opt(False, (bool,), "stop after imitation (export the imitation policy)"),
    "collect": Opt({}, (dict,), "keys of training.collect (out is <out>/collect)"),
    "imitate": Opt({}, (dict,), "keys of training.imitate (data and out are filled in)"),
    "league": Opt({}, (dict,), "keys of training.league (init and out are filled in)"),
    "evaluate": Opt({}, (dict,), "keys of training.evaluate (policy and csv are filled in)"),
}


def _split_overrides(overrides: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    top, per = [], {k: [] for k in STAGES}
    for item in overrides:
        key = item.split("=", 1)[0]
        if "." in key and key.split(".", 1)[0] in STAGES:
            stage, rest = item.split(".", 1)
            per[stage].append(rest)
        else:
            top.append(item)
    return top, per


def stage_configs(cfg: dict[str, Any], per: dict[str, list[str]] | None = None) -> dict[str, dict[str, Any]]:
    """Each stage's validated config, with the paths between the stages filled in."""
    import yaml

    out = Path(cfg["out"])
    fill = {
        "collect": {"out": str(out / "collect")},
        "imitate": {"data": str(out / "collect"), "out": str(out / "imitate")},
        "league": {"init": str(out / "imitate"), "out": str(out / "league")},
        "evaluate": {"policy": str(out / "league" / "policy.npz"), "csv": str(out / "evaluate" / "eval.csv"),
                     "out": str(out / "evaluate")},
    }
    res = {}
    for stage, schema in STAGES.items():
        raw = {**({"seed": cfg["seed"]} if stage != "evaluate" else {}), **cfg[stage], **fill[stage]}
        for item in (per or {}).get(stage, []):
            if "=" not in item:
                raise ConfigError(f"--set {stage}.{item!r}: expected {stage}.key=value")
            k, v = item.split("=", 1)
            raw[k.strip()] = yaml.safe_load(v)
        res[stage] = validate(raw, schema, f"{stage} section")
    return res


def run(cfg: dict[str, Any], per: dict[str, list[str]] | None = None) -> dict[str, Any]:
    t0 = time.perf_counter()
    stages = stage_configs(cfg, per)
    out = prepare_out(cfg["out"], cfg, "recipe")
    wall: dict[str, float] = {}

    t = time.perf_counter()
    print("== collect", file=sys.stderr)
    st_collect.collect(stages["collect"])
    wall["collect"] = time.perf_counter() - t

    t = time.perf_counter()
    print("== imitate", file=sys.stderr)
    im = st_imitate.imitate(stages["imitate"])
    wall["imitate"] = time.perf_counter() - t
    policy = Path(im["policy"])

    if not cfg["skip_league"]:
        t = time.perf_counter()
        print("== league", file=sys.stderr)
        lg = st_league.train(stages["league"])
        wall["league"] = time.perf_counter() - t
        policy = Path(lg["policy"])

    t = time.perf_counter()
    print("== evaluate", file=sys.stderr)
    ev_cfg = dict(stages["evaluate"], policy=str(policy))
    rows = st_evaluate.evaluate(ev_cfg)
    wall["evaluate"] = time.perf_counter() - t

    exported = None
    if cfg["export"]:
        from .model import export_npz, load_checkpoint
        from .obs import get_encoder

        src = (Path(stages["league"]["out"]) / "league.pt") if not cfg["skip_league"] else \
            st_league.resolve_init(stages["imitate"]["out"])
        model, ck = load_checkpoint(src)
        enc = get_encoder(ck["header"]["encoder"])
        tmp = out / "export.npz"
        export_npz(model, tmp, enc, half=True, extra={"stage": "recipe", "config": str(out / "recipe_config.yaml")})
        Path(cfg["export"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tmp, cfg["export"])
        exported = cfg["export"]
    summary = {"out": str(out), "policy": str(policy), "export": exported, "evaluation": rows,
               "wall_s": {k: round(v, 1) for k, v in wall.items()}, "total_wall_s": round(time.perf_counter() - t0, 1)}
    (out / "recipe_summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = arg_parser("python -m training.recipe", __doc__)
    a = ap.parse_args(argv)
    try:
        top, per = _split_overrides(a.set)
        cfg = load_config(a.config, SCHEMA, top)
        s = run(cfg, per)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for r in s["evaluation"]:
        print(f"{r['policy']} vs {r['players'] - 1}x {r['anchor']}: win share {r['win_share']:.3f} "
              f"[{r['ci_lo']:.3f}, {r['ci_hi']:.3f}] over {r['games']} games (fair {r['fair']:.3f})")
    print(f"recipe: {s['total_wall_s']} s ({', '.join(f'{k} {v} s' for k, v in s['wall_s'].items())})")
    print(f"wrote {s['out']}/ (collect, imitate, league, evaluate, recipe_summary.json)"
          + (f" and {s['export']}" if s["export"] else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

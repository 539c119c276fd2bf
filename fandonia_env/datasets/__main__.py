"""``python -m fandonia_env.datasets create|check|bc`` (docs/datasets.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import yaml

from fandonia_env.envs.common import DEFAULT_MAX_TURNS
from fandonia_env.tools.cli import (
    add_rules_args,
    agent_id_arg,
    max_turns_arg,
    players_arg,
    positive_int,
    require_extra,
    rules_from_args,
    seed_arg,
)

from .create import DTYPES, OBSERVATIONS, check_dataset, create_dataset


def _dir_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _set_arg(text: str) -> tuple[str, Any]:
    key, sep, val = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"--set takes KEY=VALUE (an imitate config key), got {text!r}")
    return key, yaml.safe_load(val)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.datasets",
                                 description="Minari datasets of the nobles' games (docs/datasets.md).")
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("create", help="play games and write a Minari dataset of one noble's decisions")
    c.add_argument("--noble", type=agent_id_arg, required=True, help="the agent whose decisions are recorded")
    c.add_argument("--opponents", type=agent_id_arg, default=None, help="the agent at the other seats (default: the noble)")
    c.add_argument("--players", type=players_arg, default=4, help="table size, 2 to 6 (default 4)")
    c.add_argument("--episodes", type=positive_int, required=True, help="episodes (games, one seat each), >= 1")
    c.add_argument("--seed", type=seed_arg, default=0, help="episode k is env.reset(seed=SEED + k) (default 0)")
    c.add_argument("--max-turns", type=max_turns_arg, default=DEFAULT_MAX_TURNS,
                   help=f"turn limit, 0 for none (default {DEFAULT_MAX_TURNS})")
    c.add_argument("--observation", choices=list(OBSERVATIONS), default="v1", help="observation encoder (default v1)")
    c.add_argument("--dtype", choices=list(DTYPES), default="float16", help="observation dtype (default float16)")
    c.add_argument("--dataset-id", default=None, help="Minari id (default fandonia/<noble>-<n>p-<rules>-v0)")
    c.add_argument("--out", default=None, help="datasets folder (Minari's MINARI_DATASETS_PATH; default Minari's own)")
    c.add_argument("--no-progress", action="store_true")
    add_rules_args(c)
    k = sub.add_parser("check", help="replay a dataset: its action masks against the engine's legal actions")
    k.add_argument("--dataset", required=True, help="Minari dataset id")
    k.add_argument("--path", default=None, help="datasets folder (MINARI_DATASETS_PATH)")
    k.add_argument("--episodes", type=positive_int, default=None, help="check only the first N episodes")
    b = sub.add_parser("bc", help="behaviour cloning: train the masked policy on a dataset (train extra)")
    b.add_argument("--dataset", required=True, help="Minari dataset id")
    b.add_argument("--path", default=None, help="datasets folder (MINARI_DATASETS_PATH)")
    b.add_argument("--out", required=True, help="output folder (shards/, imitate/policy.npz)")
    b.add_argument("--set", type=_set_arg, action="append", default=[], metavar="KEY=VALUE",
                   help="an imitate config key (docs/training.md, stage 2), e.g. --set epochs=4")
    b.add_argument("--games", type=int, default=0,
                   help="then measure the policy in a tournament of this many games against the dataset's noble at "
                        "every other seat, on the dataset's rules (default 0: print the command)")
    b.add_argument("--seed", type=seed_arg, default=0,
                   help="first deal seed of that tournament: use seeds no training or tuning saw (default 0)")
    b.add_argument("--max-turns", type=max_turns_arg, default=None,
                   help="the tournament's turn limit (default 0: none, strength is measured to the rules' end)")
    b.add_argument("--jobs", type=positive_int, default=None, help="the tournament's worker processes")
    return ap


def _create(a: argparse.Namespace, ap: argparse.ArgumentParser) -> int:
    rules = rules_from_args(a, ap)
    ds = create_dataset(a.noble, a.players, a.episodes, rules, opponents=a.opponents, seed=a.seed,
                        max_turns=a.max_turns, observation=a.observation, dtype=a.dtype, dataset_id=a.dataset_id,
                        out=a.out, progress=not a.no_progress)
    root = Path(os.environ.get("MINARI_DATASETS_PATH", Path.home() / ".minari" / "datasets"))
    where = root / ds.spec.dataset_id
    print(f"dataset {ds.spec.dataset_id}: {ds.total_episodes} episodes, {ds.total_steps} steps, "
          f"{_dir_size(where) / 2**20:.1f} MiB in {where}")
    print(f"open it: MINARI_DATASETS_PATH={root} python -c \"import minari; "
          f"print(minari.load_dataset('{ds.spec.dataset_id}'))\"")
    return 0


def _bc(a: argparse.Namespace, ds: Any) -> int:
    from .bc import behaviour_clone, fandonia_metadata

    require_extra("train", "fandonia_env.datasets", ("torch",), cli=True)
    m = behaviour_clone(a.dataset, a.out, a.path, **dict(a.set))
    print(json.dumps({k: m[k] for k in ("dataset", "shards", "policy", "agent") if k in m}, indent=1))
    meta = fandonia_metadata(ds)
    lineup = [m["agent"]] + [meta["noble"]] * (meta["players"] - 1)
    rules = ([f"--preset {meta['preset']}"] if meta.get("preset") else
             [f"--edition {meta['edition']}", f"--optional {','.join(meta['optional'])}"])
    cmd = (f"python -m fandonia_env.tournament --lineup {','.join(lineup)} --games 1000 "
           f"--seed {a.seed} --max-turns {a.max_turns or 0} {' '.join(rules)}")
    if a.games <= 0:
        print(f"measure it: {cmd}")
        return 0
    from fandonia_env.arena.tournament import run_tournament, show_result

    rules_kw = {"preset": meta["preset"]} if meta.get("preset") else {"edition": meta["edition"],
                                                                       "optional": meta["optional"]}
    show_result(run_tournament(lineup=lineup, games=a.games, seed=a.seed, max_turns=a.max_turns, jobs=a.jobs,
                               out=str(Path(a.out) / "tournament"), rules=rules_kw))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    a = ap.parse_args(argv)
    if a.command == "create":
        return _create(a, ap)
    from .bc import load

    try:
        ds = load(a.dataset, a.path)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.command == "bc":
        return _bc(a, ds)
    try:
        r = check_dataset(ds, a.episodes)
    except ValueError as e:
        print(f"check failed: {e}", file=sys.stderr)
        return 1
    print(f"dataset {a.dataset}: {r['episodes']} episodes, {r['steps']} steps replayed; every action mask is the "
          "engine's legal actions, every observation, reward and end the environment's")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

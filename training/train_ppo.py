"""Train a MaskablePPO noble against scripted opponents, from a YAML config.

    python -m training.train_ppo --config configs/ppo_vs_random.yaml [--timesteps N] [--out DIR] [--preset errata]

Writes ``model.zip``, the config it ran with, and ``eval.json`` (the learner's win rate and mean
reward over ``eval.games`` evaluation games against the same opponents, seats drawn per game).
Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib) and PyYAML.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
from typing import Any

REQUIRED = {"env", "ppo", "seed", "eval", "out"}


def load_config(path: str) -> dict[str, Any]:
    import yaml

    with open(path) as f:
        cfg = yaml.safe_load(f)
    if not isinstance(cfg, dict):
        raise ValueError(f"{path}: a training config must be a YAML mapping")
    missing = REQUIRED - set(cfg)
    if missing:
        raise ValueError(f"{path}: missing key(s) {sorted(missing)}; required: {sorted(REQUIRED)}")
    return cfg


def make_env(env_cfg: dict[str, Any]):
    from fandonia_env import FandoniaGymEnv

    kw = dict(env_cfg)
    if isinstance(kw.get("players"), list):
        kw["players"] = tuple(kw["players"])
    return FandoniaGymEnv(**kw)


def evaluate(model, env_cfg: dict[str, Any], games: int, seed: int) -> dict[str, Any]:
    env = make_env(env_cfg)
    wins = total = 0.0
    results: dict[str, int] = {}
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            a, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, r, term, trunc, info = env.step(int(a))
            total += r
            done = term or trunc
        results[info["result"]] = results.get(info["result"], 0) + 1
        wins += info["result"] == "win" and info["winner"] == info["seat"]
    return {"games": games, "learner_wins": int(wins), "win_rate": wins / max(games, 1),
            "mean_reward": total / max(games, 1), "results": results}


def train(cfg: dict[str, Any]) -> dict[str, Any]:
    from sb3_contrib import MaskablePPO

    out = pathlib.Path(cfg["out"])
    out.mkdir(parents=True, exist_ok=True)
    p = dict(cfg["ppo"])
    total = int(p.pop("total_timesteps"))
    arch = p.pop("net_arch", [256, 256])
    env = make_env(cfg["env"])
    model = MaskablePPO("MlpPolicy", env, seed=cfg["seed"], verbose=0, policy_kwargs={"net_arch": arch}, **p)
    model.learn(total_timesteps=total)
    model.save(out / "model.zip")
    (out / "config.json").write_text(json.dumps(cfg, indent=2))
    ev = evaluate(model, cfg["env"], int(cfg["eval"]["games"]), seed=10_000 + cfg["seed"])
    (out / "eval.json").write_text(json.dumps(ev, indent=2))
    return ev


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.train_ppo", description=__doc__.splitlines()[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--timesteps", type=int, default=None, help="override ppo.total_timesteps")
    ap.add_argument("--eval-games", type=int, default=None, help="override eval.games")
    ap.add_argument("--out", default=None)
    from fandonia_env.cli import add_rules_args, rules_from_args

    add_rules_args(ap)  # override the env section's preset/edition/optional
    a = ap.parse_args(argv)
    cfg = load_config(a.config)
    cfg["env"].update(rules_from_args(a, ap))
    if a.timesteps is not None:
        cfg["ppo"]["total_timesteps"] = a.timesteps
    if a.eval_games is not None:
        cfg["eval"]["games"] = a.eval_games
    if a.out is not None:
        cfg["out"] = a.out
    ev = train(cfg)
    print(json.dumps(ev, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Train a MaskablePPO noble against scripted opponents, from a YAML config.

    python -m fandonia_env.training.train_ppo --config configs/ppo_vs_random.yaml [--timesteps N] [--out DIR] [--preset errata]

Writes ``model.zip``, the config it ran with, and ``eval.json`` (the learner's win rate and mean
reward over ``eval.games`` evaluation games against the same opponents, seats drawn per game).
Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib) and PyYAML.  A config that
does not exist, is not YAML, has unknown or missing keys or bad values stops the command before
training, with an ``error:`` line naming the problem and the allowed keys (exit code 2).
"""

from __future__ import annotations

import argparse
import inspect
import json
import pathlib
import sys
from typing import Any

REQUIRED = {"env", "ppo", "seed", "eval", "out"}
"""The top-level keys of a training config (all required, no others)."""
EVAL_KEYS = {"games"}
PPO_OWN_KEYS = {"total_timesteps", "net_arch"}  # read by train(); the other ppo keys go to MaskablePPO
PPO_SET_BY_TRAIN = {"self", "policy", "env", "seed", "verbose", "policy_kwargs", "_init_setup_model"}


class ConfigFileError(ValueError):
    """A training config that cannot be used; the message names the file, the problem and what is allowed."""


def env_keys() -> list[str]:
    """The keys allowed in the ``env`` section: ``FandoniaGymEnv`` arguments and the rules keys."""
    from fandonia_env.envs.gym_env import FandoniaGymEnv

    sig = inspect.signature(FandoniaGymEnv.__init__).parameters.values()
    named = {p.name for p in sig if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    return sorted(named | {"preset", "edition", "optional"})


def ppo_keys() -> list[str] | None:
    """The keys allowed in the ``ppo`` section (MaskablePPO's arguments), or None without sb3-contrib."""
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        return None
    sig = inspect.signature(MaskablePPO.__init__).parameters
    return sorted((set(sig) - PPO_SET_BY_TRAIN) | PPO_OWN_KEYS)


def _int_at_least(v: Any, lo: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= lo


def load_config(path: str) -> dict[str, Any]:
    """Read and check a training config; raise ``ConfigFileError`` naming the first problem.

    ``env.max_turns``: a positive turn limit, or 0 or null for none (as ``--max-turns 0``)."""
    import yaml

    try:
        with open(path) as f:
            cfg = yaml.safe_load(f)
    except FileNotFoundError:
        raise ConfigFileError(f"{path}: no such config file") from None
    except IsADirectoryError:
        raise ConfigFileError(f"{path}: a directory, not a config file") from None
    except yaml.YAMLError as e:
        raise ConfigFileError(f"{path}: not valid YAML: {e}") from None
    allowed = f"allowed: {sorted(REQUIRED)}"
    if not isinstance(cfg, dict):
        raise ConfigFileError(f"{path}: a training config must be a YAML mapping with the keys {sorted(REQUIRED)}")
    unknown = set(cfg) - REQUIRED
    if unknown:
        raise ConfigFileError(f"{path}: unknown key(s) {sorted(map(str, unknown))}; {allowed}")
    missing = REQUIRED - set(cfg)
    if missing:
        raise ConfigFileError(f"{path}: missing key(s) {sorted(missing)}; required: {sorted(REQUIRED)}")
    for sec in ("env", "ppo", "eval"):
        if not isinstance(cfg[sec], dict):
            raise ConfigFileError(f"{path}: '{sec}' must be a mapping, got {cfg[sec]!r}")
    if not _int_at_least(cfg["seed"], 0):
        raise ConfigFileError(f"{path}: 'seed' must be an integer >= 0, got {cfg['seed']!r}")
    if not isinstance(cfg["out"], str) or not cfg["out"]:
        raise ConfigFileError(f"{path}: 'out' must be a directory name, got {cfg['out']!r}")
    # eval
    bad = set(cfg["eval"]) - EVAL_KEYS
    if bad:
        raise ConfigFileError(f"{path}: unknown key(s) {sorted(map(str, bad))} in 'eval'; allowed: {sorted(EVAL_KEYS)}")
    if not _int_at_least(cfg["eval"].get("games"), 1):
        raise ConfigFileError(f"{path}: 'eval.games' must be an integer >= 1, got {cfg['eval'].get('games')!r}")
    # env
    keys = env_keys()
    bad = set(cfg["env"]) - set(keys)
    if bad:
        raise ConfigFileError(f"{path}: unknown key(s) {sorted(map(str, bad))} in 'env'; allowed: {keys}")
    mt = cfg["env"].get("max_turns", 0)
    if mt is not None and not _int_at_least(mt, 0):
        raise ConfigFileError(f"{path}: 'env.max_turns' must be 0 or null (no limit) or a positive integer, got {mt!r}")
    if cfg["env"].get("max_turns", 1) == 0:
        cfg["env"]["max_turns"] = None
    try:
        make_env(cfg["env"])
    except (ValueError, TypeError) as e:
        raise ConfigFileError(f"{path}: 'env': {e}") from None
    # ppo
    if not _int_at_least(cfg["ppo"].get("total_timesteps"), 1):
        raise ConfigFileError(f"{path}: 'ppo.total_timesteps' must be an integer >= 1, "
                              f"got {cfg['ppo'].get('total_timesteps')!r}")
    pk = ppo_keys()
    if pk is not None:
        bad = set(cfg["ppo"]) - set(pk)
        if bad:
            raise ConfigFileError(f"{path}: unknown key(s) {sorted(map(str, bad))} in 'ppo'; allowed: {pk}")
    return cfg


def make_env(env_cfg: dict[str, Any]):
    from fandonia_env.envs.gym_env import FandoniaGymEnv

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
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.training.train_ppo", description=__doc__.splitlines()[0])
    from fandonia_env.tools.cli import (
        add_rules_args,
        existing_file,
        positive_int,
        report_written,
        require_extra,
        rules_from_args,
    )

    ap.add_argument("--config", required=True, type=existing_file, help="a YAML training config (configs/*.yaml)")
    ap.add_argument("--timesteps", type=positive_int, default=None, help="override ppo.total_timesteps (>= 1)")
    ap.add_argument("--eval-games", type=positive_int, default=None, help="override eval.games (>= 1)")
    ap.add_argument("--out", default=None, help="override out: the directory for model.zip, config.json, eval.json")
    add_rules_args(ap)  # override the env section's preset/edition/optional
    a = ap.parse_args(argv)
    try:
        cfg = load_config(a.config)
    except ConfigFileError as e:
        ap.error(str(e))
    cfg["env"].update(rules_from_args(a, ap))
    if a.timesteps is not None:
        cfg["ppo"]["total_timesteps"] = a.timesteps
    if a.eval_games is not None:
        cfg["eval"]["games"] = a.eval_games
    if a.out is not None:
        cfg["out"] = a.out
    require_extra("train", "fandonia_env.training.train_ppo", cli=True)  # the config is checked without it
    ev = train(cfg)
    print(json.dumps(ev, indent=2))
    out = pathlib.Path(cfg["out"])
    report_written(str(out / name) for name in ("model.zip", "config.json", "eval.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

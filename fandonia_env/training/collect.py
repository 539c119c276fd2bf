"""Stage 1, collect: play games between registered agents and record every decision.

    python -m fandonia_env.training.collect --config configs/collect.yaml [--set games=600 --set jobs=2]

Games are played on the engine directly (``Game`` + agents, as ``fandonia_env.tournament``
plays them): each agent sees ``game.view(p, log=False)``, ``game.legal_actions()`` and an
``InfoSet``.  For every decision of a recorded seat (``record``) with at least two legal actions
(``skip_forced``) a shard stores:

    obs       float16 (D, size)   the deciding seat's observation (encoder ``encoder``)
    mask      uint8 (D, ceil(A/8)) the legal ids, ``np.packbits`` (``unpack_mask`` undoes it)
    action    int16 (D,)          the id the agent chose (with ``label``: the id the label agent
                                  would choose on the same view -- DAgger's target -- while the
                                  game goes on with the playing agent's move)
    shadow    int16 (D,)          the id a second copy of that agent, seeded differently, chose in
                                  the same position (-1 when ``self_agreement`` is off): the
                                  teacher's agreement with itself, measured on the same states
    shadows   int16 (D, K)        only with ``teacher_samples`` K > 1: the ids K copies chose, each
                                  seeded differently (column 0 is ``shadow``)
    kind      int16 (D,)          decision kind, an index into the shard's ``kind_names``
    agent     int8 (D,)           the deciding agent, an index into ``agent_names``
    game      int32 (D,)          global game number (split train/test by game, not by decision)
    seat, players, turn           int8 / int8 / int16
    outcome   float32 (D,)        the game's result for that seat: +1 win, -1/(n-1) loss,
                                  0 draw or truncated (docs/rewards.md)

plus per game ``games_*`` arrays (result, winner, players, decisions).  Shard ``k`` holds games
``k*shard_games .. (k+1)*shard_games-1``; every game's deal, table size and agent seeds derive
from ``(seed, game number)`` alone, so the data do not depend on ``jobs`` and a rerun skips the
shards already written (resumable).  The config is written to ``<out>/collect_config.yaml``.
"""

from __future__ import annotations

import copy
import json
import math
import multiprocessing as mp
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from .common import REQUIRED, ConfigError, Opt, Progress, arg_parser, check_players, prepare_out, run_cli

SCHEMA: dict[str, Opt] = {
    "out": Opt(REQUIRED, (str,), "output directory of the shards"),
    "games": Opt(300, (int,), "number of games to play"),
    "shard_games": Opt(25, (int,), "games per shard file (the unit of resumption and of a worker's task)"),
    "players": Opt([2, 6], (int, list), "table size: an int, or [lo, hi] drawn uniformly per game"),
    "agents": Opt(["noble-rule-v1"], (list,), "agent ids cycled over the seats (seat i plays agents[i % len])"),
    "record": Opt(None, (list,), "agent ids whose decisions are recorded (null: every seat)", nullable=True),
    "self_agreement": Opt(True, (bool,), "also ask a differently seeded copy of the agent at each decision"),
    "teacher_samples": Opt(1, (int,), "with self_agreement: how many differently seeded copies are asked (the "
                           "first is the shadow column; more copies measure the agreement of an agent that picks at "
                           "random more exactly: imitate compares every pair)"),
    "label": Opt(None, (str,), "DAgger: record this agent's answer (asked on the same view) instead of the "
                               "playing agent's move; the game goes on with the move (null: off)", nullable=True),
    "skip_forced": Opt(True, (bool,), "leave out decisions with a single legal action"),
    "encoder": Opt(None, (str,), "observation encoder v0 / v1 (null: v1 when it can encode from a view, else v0)", nullable=True),
    "max_turns": Opt(60, (int,), "truncation turn limit (ruling R11), as in the tournaments", nullable=True),
    "rules": Opt({}, (dict,), "Game keyword arguments: preset / edition / optional"),
    "seed": Opt(0, (int,), "base seed of every game's deal, table size and agent seeds"),
    "jobs": Opt(None, (int,), "worker processes (null: os.cpu_count())", nullable=True),
    "progress": Opt(True, (bool,), "show a progress bar"),
}
#: keys a resumed run must share with the shards already there
SAME_DATA = ("games", "shard_games", "players", "agents", "record", "self_agreement", "teacher_samples", "label",
             "skip_forced",
             "encoder", "max_turns", "rules", "seed")


def unpack_mask(packed: np.ndarray, num_actions: int) -> np.ndarray:
    """Boolean (D, num_actions) legal masks from the shards' bit-packed ``mask``."""
    return np.unpackbits(packed, axis=-1, count=num_actions).astype(bool)


def game_setup(seed: int, game: int, players: int | list[int], agents: list[str]) -> dict[str, Any]:
    """Deal seed, table size and per-seat agent ids / seeds of game number ``game``."""
    ss = np.random.SeedSequence([seed, game, 0xC011EC7])
    rng = np.random.default_rng(ss)
    if isinstance(players, int):
        n = players
    else:
        n = int(rng.integers(players[0], players[1] + 1))
    deal = int(rng.integers(2**31 - 1))
    seats = [agents[i % len(agents)] for i in range(n)]
    aseeds = [int(x) for x in rng.integers(2**31 - 1, size=n)]
    shadow = [int(x) for x in rng.integers(2**31 - 1, size=n)]
    return {"game": game, "players": n, "deal": deal, "seats": seats, "agent_seeds": aseeds,
            "shadow_seeds": shadow}


def outcome(result: str | None, winner: int | None, seat: int, n: int) -> float:
    """The seat's final reward (docs/rewards.md): +1 win, -1/(n-1) loss, 0 draw / truncated."""
    if result == "win" and winner is not None:
        return 1.0 if winner == seat else -1.0 / (n - 1)
    return 0.0


def _shadow_act(bot: Any, shadow_rng: Any, view: dict[str, Any], legal: list[int], info: Any) -> int:
    """What a copy of ``bot`` with its own random generator would play here.

    The copy shares the bot's memory of the game (a shallow copy, so attributes it assigns stay
    its own) but draws from ``shadow_rng``, a generator seeded differently."""
    twin = copy.copy(bot)
    if hasattr(twin, "rng"):
        twin.rng = shadow_rng
    return twin.act(view, legal, info)


def play_and_record(setup: dict[str, Any], cfg: dict[str, Any], enc: Any) -> tuple[dict[str, list], dict[str, Any]]:
    """Play one game; (per-decision columns, game record)."""
    import random

    import fandonia_env.agents as registry
    from fandonia_env.engine import Game
    from fandonia_env.engine.face.hidden import InfoSet

    n = setup["players"]
    k_samples = cfg.get("teacher_samples", 1)
    bots, shadows = [], []
    for i, aid in enumerate(setup["seats"]):
        b = registry.make_agent(aid, seed=setup["agent_seeds"][i])
        b.reset(setup["agent_seeds"][i])
        bots.append(b)
        shadows.append([random.Random(setup["shadow_seeds"][i])]
                       + [random.Random(setup["shadow_seeds"][i] * 1_000_003 + j) for j in range(1, k_samples)])
    record = cfg["record"]
    labellers = None
    if cfg.get("label"):  # DAgger: the states come from the playing agents, the targets from the label agent
        labellers = []
        for i in range(n):
            b = registry.make_agent(cfg["label"], seed=setup["agent_seeds"][i] + 1)
            b.reset(setup["agent_seeds"][i] + 1)
            labellers.append(b)
    g = Game(players=n, seed=setup["deal"], max_turns=cfg["max_turns"], **cfg["rules"])
    cols: dict[str, list] = {k: [] for k in ("obs", "legal", "action", "shadows", "kind", "agent", "seat", "turn")}
    prev: list[str | None] = [None] * n  # each seat's previous decision kind with >= 2 options (encoder memory)
    while not g.over:
        p = g.current_player()
        legal = g.legal_actions()
        view = g.view(p, log=False)
        info = InfoSet(g.state, p)
        rec = (record is None or setup["seats"][p] in record) and (len(legal) > 1 or not cfg["skip_forced"])
        shs = [-1] * k_samples
        teacher = bots[p] if labellers is None else labellers[p]
        if rec and cfg["self_agreement"]:
            shs = [_shadow_act(teacher, r, view, legal, info) for r in shadows[p]]
        a = bots[p].act(view, legal, info)
        target = a if labellers is None else labellers[p].act(view, legal, info)
        if rec:
            cols["obs"].append(enc.encode(g.state, p, prev[p]) if enc.memory else enc.encode(g.state, p))
            cols["legal"].append(legal)
            cols["action"].append(target)
            cols["shadows"].append(shs)
            cols["kind"].append(view["decision"]["kind"])
            cols["agent"].append(setup["seats"][p] if labellers is None else cfg["label"])
            cols["seat"].append(p)
            cols["turn"].append(g.state.turn)
        if len(legal) > 1:
            prev[p] = view["decision"]["kind"]
        g.apply(a)
    gr = {"game": setup["game"], "players": n, "result": g.result, "winner": -1 if g.winner is None else g.winner,
          "decisions": g.state.steps, "recorded": len(cols["action"]), "turns": g.state.turn}
    return cols, gr


def write_shard(k: int, cfg: dict[str, Any]) -> dict[str, Any]:
    """Play shard ``k``'s games and write ``shard_<k>.npz`` atomically; its summary."""
    from fandonia_env.engine.core.actions import NUM_ACTIONS
    from fandonia_env.spaces.encoders import get_encoder

    enc = get_encoder(cfg["encoder"])
    lo = k * cfg["shard_games"]
    hi = min(cfg["games"], lo + cfg["shard_games"])
    obs, masks, cols = [], [], {c: [] for c in ("action", "shadows", "kind", "agent", "seat", "turn", "game",
                                                "players", "outcome")}
    games = []
    t0 = time.perf_counter()
    for gi in range(lo, hi):
        setup = game_setup(cfg["seed"], gi, cfg["players"], cfg["agents"])
        c, gr = play_and_record(setup, cfg, enc)
        games.append(gr)
        n = gr["players"]
        winner = None if gr["winner"] < 0 else gr["winner"]
        obs.extend(c["obs"])
        for legal in c["legal"]:
            m = np.zeros(NUM_ACTIONS, dtype=bool)
            m[legal] = True
            masks.append(m)
        for key in ("action", "shadows", "kind", "agent", "seat", "turn"):
            cols[key].extend(c[key])
        d = len(c["action"])
        cols["game"].extend([gi] * d)
        cols["players"].extend([n] * d)
        cols["outcome"].extend(outcome(gr["result"], winner, s, n) for s in c["seat"])
    kind_names = sorted(set(cols["kind"]))
    agent_names = sorted(set(cfg["agents"]) | ({cfg["label"]} if cfg.get("label") else set()))
    x = np.stack(obs).astype(np.float32) if obs else np.zeros((0, enc.size), np.float32)
    x16 = x.astype(np.float16)
    err = float(np.abs(x16.astype(np.float32) - x).max()) if len(x) else 0.0
    k_samples = cfg.get("teacher_samples", 1)
    shadows = np.asarray(cols["shadows"], np.int16).reshape(-1, k_samples)  # column 0 is the shadow
    arrays = {
        "obs": x16,
        "mask": np.packbits(np.stack(masks), axis=-1) if masks else np.zeros((0, math.ceil(NUM_ACTIONS / 8)), np.uint8),
        "action": np.asarray(cols["action"], np.int16),
        "shadow": shadows[:, 0],
        "kind": np.asarray([kind_names.index(s) for s in cols["kind"]], np.int16),
        "agent": np.asarray([agent_names.index(s) for s in cols["agent"]], np.int8),
        "seat": np.asarray(cols["seat"], np.int8),
        "players": np.asarray(cols["players"], np.int8),
        "turn": np.asarray(cols["turn"], np.int16),
        "game": np.asarray(cols["game"], np.int32),
        "outcome": np.asarray(cols["outcome"], np.float32),
        "kind_names": np.asarray(kind_names, dtype=str),
        "agent_names": np.asarray(agent_names, dtype=str),
        "games_id": np.asarray([g["game"] for g in games], np.int32),
        "games_players": np.asarray([g["players"] for g in games], np.int8),
        "games_result": np.asarray([g["result"] or "" for g in games], dtype=str),
        "games_winner": np.asarray([g["winner"] for g in games], np.int8),
        "games_decisions": np.asarray([g["decisions"] for g in games], np.int32),
        "meta": np.array(json.dumps({"encoder": enc.name, "encoder_version": enc.version,
                                     "encoder_fingerprint": enc.fingerprint, "obs_size": enc.size,
                                     "num_actions": NUM_ACTIONS, "float16_max_abs_error": err,
                                     "games": [lo, hi]})),
    }
    if k_samples > 1:
        arrays["shadows"] = shadows
    path = shard_path(cfg["out"], k)
    tmp = path.with_name(f".{path.name}.tmp.npz")  # not matched by shard_*.npz until complete
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)
    return {"shard": k, "games": hi - lo, "decisions": len(arrays["action"]), "float16_max_abs_error": err,
            "seconds": round(time.perf_counter() - t0, 3), "path": str(path)}


def shard_path(out: str | os.PathLike[str], k: int) -> Path:
    return Path(out) / f"shard_{k:05d}.npz"


def n_shards(cfg: dict[str, Any]) -> int:
    return math.ceil(cfg["games"] / cfg["shard_games"])


def _write_star(args: tuple[int, dict[str, Any]]) -> dict[str, Any]:
    return write_shard(*args)


def check_config(cfg: dict[str, Any]) -> dict[str, Any]:
    """Value checks beyond types; fills ``encoder`` and ``jobs``; returns ``cfg``."""
    import fandonia_env.agents as registry
    from fandonia_env.spaces.encoders import default_encoder, get_encoder

    if cfg["teacher_samples"] < 1:
        raise ConfigError(f"teacher_samples must be >= 1, got {cfg['teacher_samples']}")
    if cfg["games"] < 1 or cfg["shard_games"] < 1:
        raise ConfigError(f"games and shard_games must be >= 1, got {cfg['games']} and {cfg['shard_games']}")
    check_players(cfg["players"])
    if not cfg["agents"]:
        raise ConfigError("agents must list at least one agent id")
    for a in cfg["agents"] + (cfg["record"] or []) + ([cfg["label"]] if cfg["label"] else []):
        registry.check_agent(a)
    if cfg["record"] is not None and not set(cfg["record"]) & set(cfg["agents"]):
        raise ConfigError(f"record {cfg['record']} names none of the playing agents {cfg['agents']}")
    if cfg["encoder"] is None:
        cfg["encoder"] = default_encoder()
    get_encoder(cfg["encoder"])
    from fandonia_env.engine.face.game import make_config

    try:
        make_config(players=2, **cfg["rules"])
    except Exception as e:  # ConfigError of the engine, or an unknown keyword
        raise ConfigError(f"rules: {e}") from e
    if cfg["jobs"] is None:
        cfg["jobs"] = os.cpu_count() or 1
    if cfg["jobs"] < 1:
        raise ConfigError(f"jobs must be >= 1, got {cfg['jobs']}")
    return cfg


def collect(cfg: dict[str, Any]) -> dict[str, Any]:
    """Write the missing shards of ``cfg["out"]``; a summary (also ``<out>/collect_summary.json``)."""
    cfg = check_config(dict(cfg))
    out = prepare_out(cfg["out"], {k: v for k, v in cfg.items() if k not in ("jobs", "progress")}, "collect",
                      check_same=SAME_DATA)
    todo = [k for k in range(n_shards(cfg)) if not shard_path(out, k).exists()]
    skipped = n_shards(cfg) - len(todo)
    t0 = time.perf_counter()
    games_todo = sum(min(cfg["games"], (k + 1) * cfg["shard_games"]) - k * cfg["shard_games"] for k in todo)
    bar = Progress(games_todo, unit="game", desc="collect", enabled=cfg["progress"])
    done: list[dict[str, Any]] = []
    jobs = min(cfg["jobs"], max(1, len(todo)))
    if jobs == 1:
        for k in todo:
            r = write_shard(k, cfg)
            done.append(r)
            bar.update(r["games"], postfix=f"{sum(d['decisions'] for d in done)} decisions")
    else:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ctx.Pool(jobs) as pool:
            for r in pool.imap_unordered(_write_star, [(k, cfg) for k in todo]):
                done.append(r)
                bar.update(r["games"], postfix=f"{sum(d['decisions'] for d in done)} decisions")
    bar.close()
    summary = summarize_dir(out)
    summary.update(written_shards=len(done), skipped_shards=skipped, wall_s=round(time.perf_counter() - t0, 2),
                   jobs=jobs)
    (out / "collect_summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def summarize_dir(out: str | os.PathLike[str]) -> dict[str, Any]:
    """Totals over the shards in ``out``: games, decisions, results, float16 error, teacher self-agreement."""
    files = sorted(Path(out).glob("shard_*.npz"))
    games = decisions = agree = asked = 0
    err = 0.0
    results: dict[str, int] = {}
    for f in files:
        with np.load(f) as z:
            meta = json.loads(str(z["meta"]))
            err = max(err, meta["float16_max_abs_error"])
            games += len(z["games_id"])
            decisions += len(z["action"])
            sh = z["shadow"]
            m = sh >= 0
            asked += int(m.sum())
            agree += int((sh[m] == z["action"][m]).sum())
            for r in z["games_result"]:
                results[str(r)] = results.get(str(r), 0) + 1
    return {"out": str(out), "shards": len(files), "games": games, "decisions": decisions, "results": results,
            "float16_max_abs_error": err, "teacher_self_agreement": agree / asked if asked else None}


def _report(cfg: dict[str, Any], s: dict[str, Any]) -> None:
    """What ``main`` prints once the stage is done."""
    print(f"collect: {s['games']} games, {s['decisions']} decisions in {s['shards']} shard(s) "
          f"({s['written_shards']} written, {s['skipped_shards']} already there) in {s['wall_s']} s; "
          f"results {s['results']}; float16 max abs error {s['float16_max_abs_error']:.2e}; "
          f"teacher self-agreement {s['teacher_self_agreement']}")
    print(f"wrote {s['out']}/shard_*.npz, {s['out']}/collect_config.yaml, {s['out']}/collect_summary.json")


def main(argv: list[str] | None = None) -> int:
    return run_cli(arg_parser("python -m fandonia_env.training.collect", __doc__), argv, SCHEMA,
                   lambda a, cfg: collect(cfg), _report)


if __name__ == "__main__":
    raise SystemExit(main())

"""Expert iteration on batched self-play (issue 27).

    python -m fandonia_env.training.expert --config configs/expert.yaml [--set iterations=20]

Each iteration:

1. the current network is exported (``policies/iter_<k>.npz``, playable as ``ppo:PATH``);
2. ``workers`` actor processes (``fandonia_env.training.selfplay``: ``games_per_worker`` games in flight each, one
   batched forward pass per round) play ``decisions`` learner decisions (with ``drain``, every game
   begun is then played to its end, so long games are not left out) against a mix of opponents
   drawn per seat from ``opponents`` (scripted nobles, ``self``, frozen snapshots of earlier
   iterations: ``snapshot:<k>``, and any ``ppo:PATH``), on table sizes drawn from ``players`` and
   rules drawn from ``presets`` (both editions, optional rules: the edition and switches are in the
   observation);
3. the update is clipped PPO (``fandonia_env.training.league.ppo_update``) on the learner's
   decisions, with GAE along each seat's own decisions (``gae_lambda``; 1 is the Monte-Carlo return
   of the game: gamma = 1, the zero-sum terminal reward of docs/rewards.md) and the network's own
   value as the baseline.  No search targets are fitted: the search noble
   (``fandonia_env.agents.search_noble``) over this network measured no stronger than the network
   alone (docs/agents.md, "Strength"), so its visit distributions would teach nothing new yet;
4. the value head regresses on the game outcome;
5. every ``eval_every`` iterations the new policy plays ``eval_games`` duplicate-seed games against
   each anchor (``eval_anchors``: three of them at a 4-player table, ``eval_players``; both editions) through the
   tournament runner, on deal seeds reserved for evaluation (``eval_seed``: never drawn by the
   actors, whose seeds come from ``seed``); ``eval.csv`` and ``curve.png`` get a row / point.

The run resumes from ``expert.pt`` in ``out`` (model, optimiser, iteration, snapshots).  Output:
``expert.pt``, ``policies/``, ``train.csv`` (one row per iteration), ``eval.csv``, ``curve.png``,
``expert_config.yaml``.
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from fandonia_env.tools.cli import require_extra

from .common import REQUIRED, ConfigError, Opt, Progress, arg_parser, prepare_out, run_cli, seed_everything
from .league import resolve_init as league_resolve_init

SCHEMA: dict[str, Opt] = {
    "out": Opt(REQUIRED, (str,), "output directory (checkpoint, policies, curves)"),
    "init": Opt("fandonia_env/agents/weights/noble-ppo-v1.npz", (str,),
                "policy to start from: an .npz export, a .pt checkpoint, or a run folder (expert, league or "
                "imitation)"),
    "encoder": Opt(None, (str,), "observation encoder (null: init's); one that extends init's (v1r -> v1b) "
                   "widens the init with zero weights on the new inputs", nullable=True),
    "iterations": Opt(20, (int,), "expert-iteration rounds"),
    "max_seconds": Opt(None, (float,), "wall-time budget of the stage, evaluations included and summed over sittings: "
                       "no iteration starts that would end past it (null: no budget, iterations decide)",
                       nullable=True),
    "eval_at_start": Opt(False, (bool,), "evaluate the init policy before the first iteration (the curve's "
                         "first point; it also measures what an evaluation costs, for max_seconds)"),
    "decisions": Opt(60_000, (int,), "learner decisions collected per iteration"),
    "workers": Opt(2, (int,), "actor processes (one per core)"),
    "games_per_worker": Opt(128, (int,), "games in flight per actor"),
    "players": Opt([2, 3, 4, 5, 6], (list,), "table sizes drawn per game"),
    "presets": Opt(["1981", "errata", "1981-all-optional", "errata-all-optional"], (list,),
                   "rules presets drawn per game (both editions and the optional rules)"),
    "opponents": Opt(["noble-rule-v1", "noble-rule-v1", "noble-rule-v2", "self", "snapshot"], (list,),
                     "agent ids drawn per opponent seat: scripted ids, 'self', 'snapshot' (a random earlier "
                     "iteration's policy, or the init before the first), 'ppo:PATH'; an id ending in '*' "
                     "takes every opponent seat of the tables it is drawn for (one draw per table)"),
    "learner_seats": Opt(1, (int,), "seats the learner holds per game (the rest drawn from opponents)"),
    "temperature": Opt(1.0, (float,), "the learner's sampling temperature in self-play"),
    "max_turns": Opt(60, (int,), "truncation turn limit (ruling R11)"),
    "gae_lambda": Opt(1.0, (float,), "1: the game's Monte-Carlo return; < 1: GAE along each seat's decisions"),
    "turn_discount": Opt(1.0, (float,), "the final reward's discount per game turn to the end (1: none; "
                         "< 1 values a sooner win more and a later loss less)"),
    "objective": Opt("zero_sum", (str,), "the learner's reward: zero_sum = docs/rewards.md (a draw or a truncated game "
                     "0, a loss -1/(n-1)); win_share = a game it does not win counts -1/(n-1) however it ends "
                     "(what the tournament's win share measures)"),
    "persistent_actors": Opt(False, (bool,), "actor processes live through the run and keep their games in flight "
                             "from one iteration to the next (a game that runs past an iteration is trained on when "
                             "it ends): no drain tail of ever smaller batches (about 10 s of a 23 s collect), no game "
                             "dropped; drain is then unused"),
    "drain": Opt(True, (bool,), "self-play plays every game it began to its end (true), so the long games "
                 "(draws, turn-limit games) are trained on; false: the games still running when an "
                 "iteration's decisions are in are dropped (attempts 22-33 and configs/recipe-policy-v2.yaml)"),
    "epochs": Opt(3, (int,), "PPO epochs per iteration"),
    "minibatch": Opt(2048, (int,), "minibatch size"),
    "lr": Opt(5e-5, (float,), "Adam learning rate"),
    "clip": Opt(0.2, (float,), "PPO ratio clip"),
    "ent_coef": Opt(0.003, (float,), "entropy bonus"),
    "vf_coef": Opt(0.5, (float,), "value loss weight"),
    "max_grad_norm": Opt(0.5, (float,), "gradient clipping"),
    "target_kl": Opt(0.02, (float,), "stop an iteration's epochs when the approximate KL exceeds this", nullable=True),
    "value_warmup": Opt(1, (int,), "first iterations train the value head only"),
    "value_detached": Opt(False, (bool,), "the value loss trains the value head only, never the trunk the policy "
                          "shares (fine-tuning a trained policy against new opponents: refitting the critic does "
                          "not disturb the policy)"),
    "max_snapshots": Opt(8, (int,), "earlier iterations kept as 'snapshot' opponents"),
    "eval_every": Opt(2, (int,), "iterations between evaluations (0: only at the end)"),
    "eval_games": Opt(200, (int,), "games per anchor and edition at each evaluation (duplicate seeds, rotated)"),
    "eval_anchors": Opt(["noble-rule-v1", "random-v1"], (list,), "evaluation opponents (every other seat each)"),
    "eval_players": Opt(4, (int,), "table size of the evaluation games (the policy and eval_players - 1 of an anchor)"),
    "eval_presets": Opt(["1981", "errata"], (list,), "rules of the evaluation games"),
    "eval_seed": Opt(7_000_000, (int,), "first deal seed of the evaluation games (the actors never draw them)"),
    "eval_max_turns": Opt(0, (int,), "turn limit of the evaluation games (0: the rules' end, ruling R11)"),
    "threads": Opt(2, (int,), "torch threads of the update"),
    "seed": Opt(0, (int,), "seed of the run (actors' deals, sampling, minibatches)"),
    "progress": Opt(True, (bool,), "show a progress bar"),
}


#: the learner's reward (``objective``): the zero-sum reward of docs/rewards.md, or the win share
OBJECTIVES: tuple[str, ...] = ("zero_sum", "win_share")


def learner_rewards(reward: np.ndarray, players: np.ndarray, objective: str) -> np.ndarray:
    """The learner's final rewards under ``objective``: ``zero_sum`` leaves them as played (+1 a win,
    -1/(n-1) a loss, 0 a draw or a truncated game); ``win_share`` counts a draw or a truncated game
    (reward 0, the only games without a winner) as a loss, -1/(n-1)."""
    if objective == "zero_sum":
        return reward
    if objective != "win_share":
        raise ValueError(f"objective must be one of {list(OBJECTIVES)}, got {objective!r}")
    loss = (-1.0 / (players.astype(np.float32) - 1.0)).astype(reward.dtype)
    return np.where(reward == 0.0, loss, reward)


def check_config(cfg: dict[str, Any]) -> dict[str, Any]:
    import fandonia_env.agents as registry
    from fandonia_env.engine.core.options import preset_names

    for k in ("iterations", "decisions", "workers", "games_per_worker", "epochs", "minibatch", "eval_games",
              "learner_seats", "max_turns", "threads"):
        if cfg[k] < 1:
            raise ConfigError(f"{k} must be >= 1, got {cfg[k]}")
    from fandonia_env.spaces.encoders import ENCODERS

    if cfg["encoder"] is not None and cfg["encoder"] not in ENCODERS:
        raise ConfigError(f"encoder: unknown encoder {cfg['encoder']!r}; known: {list(ENCODERS)} (or null: the init's)")
    if cfg["max_seconds"] is not None and cfg["max_seconds"] <= 0:
        raise ConfigError(f"max_seconds must be > 0 (or null: no budget), got {cfg['max_seconds']}")
    if not 2 <= cfg["eval_players"] <= 6:
        raise ConfigError(f"eval_players must be a table size 2..6, got {cfg['eval_players']}")
    if cfg["eval_max_turns"] < 0:
        raise ConfigError(f"eval_max_turns must be >= 0 (0: the rules' end), got {cfg['eval_max_turns']}")
    if not 0.0 < cfg["gae_lambda"] <= 1.0:
        raise ConfigError(f"gae_lambda must be in (0, 1], got {cfg['gae_lambda']}")
    if not 0.0 < cfg["turn_discount"] <= 1.0:
        raise ConfigError(f"turn_discount must be in (0, 1], got {cfg['turn_discount']}")
    if cfg["objective"] not in OBJECTIVES:
        raise ConfigError(f"objective must be one of {list(OBJECTIVES)}, got {cfg['objective']!r}")
    bad = [n for n in cfg["players"] if not isinstance(n, int) or not 2 <= n <= 6]
    if not cfg["players"] or bad:
        raise ConfigError(f"players must list table sizes 2..6, got {cfg['players']!r}")
    for key in ("presets", "eval_presets"):
        unknown = [p for p in cfg[key] if p not in preset_names()]
        if not cfg[key] or unknown:
            raise ConfigError(f"{key}: unknown preset(s) {unknown}; valid presets: {preset_names()}")
    from .selfplay import TABLE, SelfPlayConfig

    try:
        SelfPlayConfig(opponents=tuple(cfg["opponents"]))  # at least one id drawn per seat
        for a in cfg["opponents"]:
            a = a.removesuffix(TABLE)
            if a not in ("self", "snapshot"):
                registry.check_agent(a)
        for a in cfg["eval_anchors"]:
            registry.check_agent(a)
    except ValueError as e:
        raise ConfigError(f"opponents / eval_anchors: {e}") from None
    resolve_init(cfg["init"])
    return cfg


def resolve_init(path: str) -> Path:
    """The checkpoint ``init`` names: a file (``.npz`` export or ``.pt``), an expert run folder (its
    ``expert.pt``), a league run folder or an imitation run folder (``league.resolve_init``)."""
    p = Path(path)
    if p.is_dir() and (p / "expert.pt").is_file():
        return p / "expert.pt"
    if not p.exists():
        raise ConfigError(f"init: no policy file {path!r}")
    return league_resolve_init(path)


def _advantages(b: Any, lam: float = 1.0, discount: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(advantage, return) per decision.  ``lam == 1``: the Monte-Carlo return of its game (the
    terminal reward, discounted by ``discount`` per game turn from the decision to the end) less the
    network's value estimate at the decision.  ``lam < 1``: generalised advantage estimation along
    each seat's own decisions of a game (no reward before the end): ``delta_t = g_t V(s_t+1) - V(s_t)``
    with ``g_t = discount ** (game turns between the two decisions)``, the last one ``g_T R - V(s_T)``
    (``g_T``: the turns to the end), the advantage ``delta_t + lam g_t A_t+1`` and the value target
    advantage + V.  ``discount == 1``: the undiscounted return (the turns are not needed)."""
    v = b.value.astype(np.float32)
    r = b.reward.astype(np.float32)
    left = np.zeros_like(v)  # game turns from each decision to the end (only a discount reads them)
    if discount < 1.0:
        if b.turns_left is None:
            raise ValueError("a turn discount < 1 needs the turns left of every decision")
        left = b.turns_left.astype(np.float32)
        r = r * np.power(np.float32(discount), left)
    if lam >= 1.0:
        return r - v, r
    if b.seat is None:
        raise ValueError("gae_lambda < 1 needs the deciding seat of every decision")
    adv = np.zeros_like(v)
    key = b.game.astype(np.int64) * 8 + b.seat.astype(np.int64)
    order = np.argsort(key, kind="stable")  # one seat's decisions of one game, in play order
    ks = key[order]
    nxt_acc, last = 0.0, None
    for j in range(len(order) - 1, -1, -1):
        i = order[j]
        if ks[j] != last:  # the seat's last decision of its game (r already discounted to it)
            delta, nxt_acc = r[i] - v[i], 0.0
        else:
            nxt = order[j + 1]
            gam = discount ** float(left[i] - left[nxt])
            delta = gam * v[nxt] - v[i]
            nxt_acc *= gam
        nxt_acc = delta + lam * nxt_acc
        adv[i] = nxt_acc
        last = ks[j]
    return adv, adv + v


def evaluate_policy(path: str, anchors: list[str], presets: list[str], games: int, seed: int,
                    jobs: int = 2, max_turns: int = 0, players: int = 4) -> list[dict[str, Any]]:
    """The policy at ``path`` against ``players - 1`` of each anchor (three at 4 players), per preset: win
    share and 95% bootstrap CI of its seat (duplicate deals, every seat rotation) through the tournament
    runner; ``max_turns`` 0 plays every game to the rules' end (ruling R11)."""
    from fandonia_env.arena.tournament import run_tournament

    from .evaluate import win_share

    rows = []
    spec = f"ppo:{path}"
    for preset in presets:
        for anchor in anchors:
            r = run_tournament(lineup=[spec] + [anchor] * (players - 1), games=games, seed=seed, jobs=jobs,
                               max_turns=max_turns or None, progress=False, plot=False, rules={"preset": preset})
            games_played, share, lo, hi = win_share(r.summary, spec)
            rows.append({"preset": preset, "anchor": anchor, "games": games_played, "win_share": share,
                         "ci_lo": lo, "ci_hi": hi})
    return rows


def _plot(eval_csv: Path, png: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the tournament extra brings matplotlib
        return
    rows = list(csv.DictReader(open(eval_csv)))
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for key in sorted({(r["preset"], r["anchor"]) for r in rows}):
        pts = [r for r in rows if (r["preset"], r["anchor"]) == key]
        x = [int(r["iteration"]) for r in pts]
        y = [float(r["win_share"]) for r in pts]
        lo = [float(r["ci_lo"]) for r in pts]
        hi = [float(r["ci_hi"]) for r in pts]
        ax.plot(x, y, marker="o", label=f"vs 3x {key[1]} ({key[0]})")
        ax.fill_between(x, lo, hi, alpha=0.15)
    ax.axhline(0.25, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("iteration")
    ax.set_ylabel("win share at a 4-player table")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def train(cfg: dict[str, Any]) -> dict[str, Any]:
    import torch

    from fandonia_env.engine.core.actions import NUM_ACTIONS
    from fandonia_env.spaces.encoders import get_encoder

    from .league import ppo_update
    from .model import export_npz, load_checkpoint, save_checkpoint, widen_input
    from .selfplay import LEARNER, TABLE, ActorPool, SelfPlayConfig, run_actors

    cfg = check_config(dict(cfg))
    out = prepare_out(cfg["out"], {k: v for k, v in cfg.items() if k != "progress"}, "expert")
    seed_everything(cfg["seed"])
    torch.set_num_threads(cfg["threads"])
    ck_path = out / "expert.pt"
    pol_dir = out / "policies"
    pol_dir.mkdir(exist_ok=True)
    # seconds: acting + learning; wall: the stage's whole wall time (exports, evaluations, checkpoints),
    # both summed over sittings
    state = {"iteration": 0, "snapshots": [], "decisions": 0, "games": 0, "seconds": 0.0, "wall": 0.0}
    t_sitting = time.perf_counter()
    wall0 = 0.0  # the wall time of the earlier sittings (set once a checkpoint is read)
    if ck_path.exists():
        model, ck = load_checkpoint(ck_path)
        state.update(ck["state"])
        wall0 = float(state.get("wall", 0.0))
        print(f"expert: resuming from {ck_path} at iteration {state['iteration']}", file=sys.stderr)
    else:
        model, ck = load_checkpoint(resolve_init(cfg["init"]))  # the optimiser starts afresh
    enc = get_encoder(ck["header"]["encoder"])
    if cfg["encoder"] is not None and cfg["encoder"] != enc.name:
        if ck_path.exists():
            raise ConfigError(f"encoder: {cfg['out']} was trained on encoder {enc.name}, not {cfg['encoder']}; "
                              "a run resumes on its own encoder")
        wide = get_encoder(cfg["encoder"])
        model = widen_input(model, enc, wide)  # the new inputs start at zero weight: it plays as before
        print(f"expert: widened {cfg['init']} from encoder {enc.name} to {wide.name}", file=sys.stderr)
        enc = wide
    model.detach_value = cfg["value_detached"]
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    saved_opt = ck.get("optimizer")
    if saved_opt and len(saved_opt.get("param_groups", [])) == len(opt.param_groups):
        opt.load_state_dict(saved_opt)  # an init of another optimiser's shape (an imitation with a skip head) is not
    ppo_cfg = {k: cfg[k] for k in ("epochs", "minibatch", "clip", "ent_coef", "vf_coef", "max_grad_norm", "target_kl")}
    train_csv, eval_csv = out / "train.csv", out / "eval.csv"
    if not train_csv.exists():
        with open(train_csv, "w", newline="") as f:
            csv.writer(f).writerow(["iteration", "decisions", "games", "learner_win_share", "mean_return", "pg_loss",
                                    "v_loss", "entropy", "approx_kl", "epochs", "collect_s", "update_s",
                                    "learner_dec_per_s", "drain_s"])
    if not eval_csv.exists():
        with open(eval_csv, "w", newline="") as f:
            csv.writer(f).writerow(["iteration", "preset", "anchor", "games", "win_share", "ci_lo", "ci_hi",
                                    "stage_s", "decisions", "eval_s"])
    bar = Progress(cfg["iterations"], unit="iter", desc="expert", enabled=cfg["progress"])
    bar.update(state["iteration"])
    rng = np.random.default_rng(cfg["seed"] + 7919 * state["iteration"])
    last_eval: list[dict[str, Any]] = []

    def wall() -> float:
        return wall0 + time.perf_counter() - t_sitting

    def run_eval(path: Path) -> float:
        """Evaluate ``path`` (the policy after ``state['iteration']`` iterations), log it with the
        stage's wall time when the policy was made; the evaluation's own seconds."""
        nonlocal last_eval
        made_at, t = wall(), time.perf_counter()
        last_eval = evaluate_policy(str(path), cfg["eval_anchors"], cfg["eval_presets"], cfg["eval_games"],
                                    cfg["eval_seed"], jobs=cfg["workers"], max_turns=cfg["eval_max_turns"],
                                    players=cfg["eval_players"])
        spent = time.perf_counter() - t
        with open(eval_csv, "a", newline="") as f:
            w = csv.writer(f)
            for r in last_eval:  # eval_s: the whole evaluation's seconds, on its every row
                w.writerow([state["iteration"], r["preset"], r["anchor"], r["games"], f"{r['win_share']:.4f}",
                            f"{r['ci_lo']:.4f}", f"{r['ci_hi']:.4f}", f"{made_at:.1f}", state["decisions"],
                            f"{spent:.1f}"])
        _plot(eval_csv, out / "curve.png")
        shares = ", ".join(f"{r['anchor']} {r['preset']} {r['win_share']:.3f}" for r in last_eval)
        print(f"expert: evaluation at iteration {state['iteration']} ({made_at:.0f} s, {spent:.0f} s): {shares}",
              file=sys.stderr)
        return spent

    def over_budget() -> bool:
        """Whether one more iteration and the evaluation after it would end past ``max_seconds``."""
        return cfg["max_seconds"] is not None and wall() + iter_cost + eval_cost > cfg["max_seconds"]

    eval_cost = float(state.get("eval_s", 0.0))  # seconds of the last evaluation (the budget keeps one)
    if cfg["eval_at_start"] and state["iteration"] == 0 and not _has_rows(eval_csv):
        start = pol_dir / "iter_000.npz"
        export_npz(model, start, enc)
        eval_cost = state["eval_s"] = run_eval(start)
    iter_cost = float(state.get("iter_s", 0.0))  # seconds of the last iteration
    pool: ActorPool | None = None  # persistent_actors: started with the first iteration, closed at the end
    try:
        while state["iteration"] < cfg["iterations"]:
            it = state["iteration"]
            if it > 0 and over_budget():
                print(f"expert: the budget of {cfg['max_seconds']:.0f} s is spent ({wall():.0f} s, an iteration "
                      f"{iter_cost:.0f} s, an evaluation {eval_cost:.0f} s): stopping at iteration {it}", file=sys.stderr)
                break
            t_iter = time.perf_counter()
            cur = pol_dir / f"iter_{it:03d}.npz"
            export_npz(model, cur, enc)
            opponents = []
            for o in cfg["opponents"]:
                star = TABLE if o.endswith(TABLE) else ""
                o = o.removesuffix(TABLE)
                if o == "snapshot":
                    snaps = state["snapshots"] or [str(resolve_init(cfg["init"]).resolve())]
                    o = f"ppo:{snaps[int(rng.integers(len(snaps)))]}"
                opponents.append((LEARNER if o == "self" else o) + star)
            sp = SelfPlayConfig(games=cfg["games_per_worker"], players=tuple(cfg["players"]),
                                presets=tuple(cfg["presets"]), opponents=tuple(opponents),
                                learner_seats=cfg["learner_seats"], temperature=cfg["temperature"],
                                max_turns=cfg["max_turns"], seed=cfg["seed"] * 10_000 + it, drain=cfg["drain"])
            t0 = time.perf_counter()
            if not cfg["persistent_actors"]:
                b = run_actors(str(cur), sp, workers=cfg["workers"], decisions=cfg["decisions"])
            else:
                if pool is None:
                    pool = ActorPool(str(cur), sp, workers=cfg["workers"])
                b = pool.collect(str(cur), sp, cfg["decisions"])
            t_collect = time.perf_counter() - t0
            b.reward = learner_rewards(b.reward, b.players, cfg["objective"])
            adv, ret = _advantages(b, cfg["gae_lambda"], cfg["turn_discount"])
            batch = {"obs": b.obs, "mask": np.packbits(b.mask, axis=-1), "action": b.action.astype(np.int64),
                     "logp": b.logp, "adv": adv, "ret": ret}
            t1 = time.perf_counter()
            stats = ppo_update(model, opt, batch, ppo_cfg, value_only=it < cfg["value_warmup"], num_actions=NUM_ACTIONS)
            t_update = time.perf_counter() - t1
            st = b.stats
            state["iteration"] = it + 1
            state["decisions"] += len(b)
            state["games"] += int(st["games"])
            state["seconds"] += t_collect + t_update
            state["snapshots"] = (state["snapshots"] + [str(cur.resolve())])[-cfg["max_snapshots"]:]
            win = st["learner_wins"] / max(1, st["learner_seats"])
            rate = st["learner_decisions"] / max(t_collect, 1e-9)  # learner decisions/s in self-play
            with open(train_csv, "a", newline="") as f:
                csv.writer(f).writerow([it + 1, len(b), st["games"], f"{win:.4f}", f"{float(ret.mean()):.4f}",
                                        f"{stats['pg_loss']:.5f}", f"{stats['v_loss']:.5f}", f"{stats['entropy']:.4f}",
                                        f"{stats['approx_kl']:.5f}", stats["epochs"], f"{t_collect:.2f}",
                                        f"{t_update:.3f}", f"{rate:.0f}",
                                        f"{st.get('drain_seconds', 0.0):.1f}"])
            print(f"expert: iteration {it + 1}: {len(b):,} learner decisions, {st['games']} games, learner win share "
                  f"{win:.3f}; self-play {t_collect:.1f} s ({rate:,.0f} learner dec/s), update {t_update:.1f} s; stage {wall():.0f} s", file=sys.stderr)
            iter_cost = state["iter_s"] = time.perf_counter() - t_iter
            state["wall"] = wall()
            save_checkpoint(ck_path, model, enc, optimizer=opt.state_dict(), state=state)
            final = state["iteration"] == cfg["iterations"] or over_budget()  # the last iteration: evaluate it
            if final or (cfg["eval_every"] and state["iteration"] % cfg["eval_every"] == 0):
                path = pol_dir / f"iter_{state['iteration']:03d}.npz"
                export_npz(model, path, enc)
                eval_cost = state["eval_s"] = run_eval(path)
                state["wall"] = wall()
                save_checkpoint(ck_path, model, enc, optimizer=opt.state_dict(), state=state)
            bar.update(1)
    finally:
        if pool is not None:
            pool.close()
    bar.close()
    final_path = out / "policy.npz"
    export_npz(model, final_path, enc)
    state["wall"] = wall()
    return {"out": str(out), "policy": str(final_path), "iterations": state["iteration"],
            "decisions": state["decisions"], "games": state["games"], "seconds": state["seconds"],
            "wall": state["wall"], "eval": last_eval}


def load_state(out: str | Path) -> dict[str, Any]:
    """The progress an expert run folder's checkpoint holds: iteration, decisions, games, seconds
    (acting and learning), wall (the stage's whole wall time), snapshots."""
    from .model import load_checkpoint

    return dict(load_checkpoint(Path(out) / "expert.pt")[1]["state"])


def _has_rows(path: Path) -> bool:
    """Whether a CSV file has a row below its header."""
    with open(path) as f:
        return sum(1 for _ in f) > 1


def _report(cfg: dict[str, Any], res: dict[str, Any]) -> None:
    """What ``main`` prints once the stage is done."""
    print(f"expert: {res['iterations']} iterations, {res['decisions']:,} decisions, {res['games']:,} games, "
          f"{res['seconds']:.0f} s; policy {res['policy']}")
    for r in res["eval"]:
        print(f"  vs 3x {r['anchor']} ({r['preset']}): {r['win_share']:.3f} [{r['ci_lo']:.3f}, {r['ci_hi']:.3f}] "
              f"over {r['games']} games")


def main(argv: list[str] | None = None) -> int:
    return run_cli(arg_parser("python -m fandonia_env.training.expert", __doc__), argv, SCHEMA,
                   lambda a, cfg: train(cfg), _report, prefix="fandonia_env.training.expert")


if __name__ == "__main__":
    require_extra("train", "fandonia_env.training.expert", ["torch"])
    sys.exit(main())

"""Stage 3, league: masked PPO from the imitation weights against a league of opponents.

    python -m fandonia_env.training.league --config configs/league.yaml [--set total_steps=200000]

Why a compact PPO of our own rather than sb3-contrib's MaskablePPO (docs/training.md): the
learner starts from the imitation network (flat + entity heads, ``fandonia_env/training/model.py``), which is
not an SB3 policy class, and its opponents change during training (frozen snapshots of itself,
chosen by how well the learner does against them), which SB3's one-env-per-learner loop cannot
express without wrapping every opponent into the env.  Here the whole loop is ~400 lines.

The loop.  ``workers`` processes each keep ``games_per_worker`` games in flight.  Every game draws
its table size from ``players``, the learner's seat at random, and one league member for all the
other seats.  The league is the scripted nobles (``scripted``) plus frozen snapshots of the
learner (one every ``snapshot_every`` learner decisions, at most ``max_snapshots``), sampled by
prioritised fictitious self-play: member ``m`` is drawn with weight ``(1 - x_m) ** pfsp_power +
pfsp_floor`` where ``x_m = min(1, share_m * n / 2)`` is the learner's recent win share against
``m`` scaled so that the fair share ``1/n`` maps to 0.5 (a member the learner does not beat yet
keeps a high weight; one it beats is met less).  Workers run the learner and the snapshots in
torch (one thread each) and the scripted nobles through their ``act``; the learner samples from
its masked policy, illegal ids never have probability.  Finished games' learner trajectories go
back to the main process, which runs ``epochs`` of clipped PPO on ``rollout_steps`` decisions
with GAE(``gamma``, ``lam``), the terminal zero-sum reward of docs/rewards.md, optional
potential-based shaping (``shaping``; 0 = off; the potential ``shaping_potential``: PP and IP, or
the engine's odds of the learner's usurpation), an optional discount of the learner's wins by
their turn (``win_speed``: a win at turn t is worth ``1 - win_speed * t / max_turns``), value-only warm-up for the first
``value_warmup_updates`` updates (the imitation value head was fitted to the teacher's games) and an
early stop of the epochs at ``target_kl``.

Output (``out``): ``league.pt`` (learner, optimiser, league state, counters: the run resumes from
it), ``policies/step_<N>.npz`` (exported policies, playable as ``ppo:PATH``), ``snapshots/``,
``train.csv`` (one row per update), ``eval.csv`` + ``curve.png`` (evaluations through the
tournament runner, ``fandonia_env/training/evaluate.py``), ``league_config.yaml``.
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from fandonia_env.engine.rules.rule_queries import best_usurpation

from .common import (
    REQUIRED,
    ConfigError,
    Opt,
    Progress,
    arg_parser,
    check_players,
    prepare_out,
    run_cli,
    seed_everything,
)

SCHEMA: dict[str, Opt] = {
    "out": Opt(REQUIRED, (str,), "output directory (checkpoint, policies, curves)"),
    "init": Opt(None, (str,), "imitation run directory or checkpoint (.pt) to start from; null: a fresh network",
                nullable=True),
    "encoder": Opt(None, (str,), "observation encoder (null: init's, else the default); with an init trained on the encoder this one extends (v1 -> v1r), the init is widened", nullable=True),
    "hidden": Opt([512, 512], (list,), "trunk layer sizes when init is null"),
    "total_steps": Opt(1_000_000, (int,), "learner decisions to train on"),
    "rollout_steps": Opt(8192, (int,), "learner decisions per PPO update"),
    "epochs": Opt(4, (int,), "PPO epochs per update"),
    "minibatch": Opt(1024, (int,), "minibatch size"),
    "lr": Opt(1e-4, (float,), "Adam learning rate"),
    "skip_lr": Opt(None, (float,), "Adam learning rate of the policy's skip head, if it has one (e.g. 0.003: the "
                   "rule-feature logistic moves faster than the trunk; null: lr)", nullable=True),
    "clip": Opt(0.2, (float,), "PPO ratio clip"),
    "ent_coef": Opt(0.003, (float,), "entropy bonus"),
    "vf_coef": Opt(0.5, (float,), "value loss weight"),
    "gamma": Opt(1.0, (float,), "discount per learner decision"),
    "lam": Opt(0.95, (float,), "GAE lambda"),
    "max_grad_norm": Opt(0.5, (float,), "gradient clipping"),
    "target_kl": Opt(0.02, (float,), "stop an update's epochs when the approximate KL exceeds this", nullable=True),
    "value_warmup_updates": Opt(1, (int,), "first updates train the value head only"),
    "shaping": Opt(0.0, (float,), "potential-based shaping weight (0: off, the default)"),
    "shaping_potential": Opt("pp_ip", (str,), "the potential: pp_ip = (PP + 2 IP)/100; usurp_odds = the engine's best "
                             "P(the learner's usurpation succeeds now), 1 while his royal reigns"),
    "win_speed": Opt(0.0, (float,), "a win at turn t is worth 1 - win_speed * t / max_turns to the learner (0: every "
                     "win is worth 1, the default; e.g. 0.5 makes faster wins worth more, never less than a draw)"),
    "players": Opt([2, 6], (int, list), "table size: an int or [lo, hi] drawn per game"),
    "max_turns": Opt(60, (int,), "truncation turn limit (ruling R11), as in the tournaments", nullable=True),
    "rules": Opt({}, (dict,), "Game keyword arguments: preset / edition / optional"),
    "scripted": Opt(["random-v1", "noble-rule-v1", "noble-rule-v2"], (list,), "scripted league members"),
    "snapshot_every": Opt(100_000, (int,), "learner decisions between frozen snapshots (0: no snapshots)"),
    "max_snapshots": Opt(6, (int,), "snapshots kept in the league (oldest dropped)"),
    "pfsp_power": Opt(2.0, (float,), "prioritised fictitious self-play exponent"),
    "pfsp_floor": Opt(0.05, (float,), "weight every member keeps"),
    "pfsp_window": Opt(300, (int,), "recent games per member behind its win share"),
    "fixed_share": Opt({}, (dict,), "scripted member -> share of games it gets whatever PFSP says "
                       "(e.g. {random-v1: 0.3}); PFSP draws the rest"),
    "workers": Opt(None, (int,), "game worker processes (null: os.cpu_count())", nullable=True),
    "games_per_worker": Opt(16, (int,), "games each worker keeps in flight"),
    "eval_every": Opt(200_000, (int,), "learner decisions between evaluations (0: only at the end)"),
    "eval_games": Opt(100, (int,), "games per anchor and evaluation (4 players, duplicate seeds)"),
    "eval_anchors": Opt(["random-v1", "noble-rule-v1"], (list,), "evaluation opponents (3 seats each)"),
    "threads": Opt(None, (int,), "torch threads of the update (null: os.cpu_count())", nullable=True),
    "seed": Opt(0, (int,), "seed of the run"),
    "progress": Opt(True, (bool,), "show a progress bar"),
}


# ---------------------------------------------------------------------------
# League bookkeeping (main process)
# ---------------------------------------------------------------------------


class League:
    """Members (scripted ids and snapshot names) and the learner's recent results against them."""

    def __init__(self, scripted: list[str], window: int, power: float, floor: float,
                 fixed: dict[str, float] | None = None) -> None:
        self.members: list[str] = list(scripted)
        self.results: dict[str, list[float]] = {m: [] for m in self.members}
        self.window, self.power, self.floor = window, power, floor
        self.fixed = dict(fixed or {})  # member -> share of games it gets whatever PFSP says

    def add(self, name: str) -> None:
        self.members.append(name)
        self.results[name] = []

    def remove(self, name: str) -> None:
        self.members.remove(name)
        self.results.pop(name, None)

    def record(self, member: str, won: bool, n: int) -> None:
        if member in self.results:
            r = self.results[member]
            r.append([1.0 if won else 0.0, 1.0 / n])  # (won, the fair share at that table)
            del r[: max(0, len(r) - self.window)]

    def score(self, member: str) -> float:
        """The learner's recent win share against ``member`` relative to the fair share, halved and
        capped at 1: 0.5 = wins its fair share, 1 = twice it or more, 0 = never wins."""
        r = self.results.get(member) or []
        if not r:
            return 0.0
        won, fair = np.asarray(r, dtype=float).sum(axis=0)
        return float(min(1.0, won / fair / 2.0))

    def weights(self) -> np.ndarray:
        w = np.array([(1.0 - min(1.0, self.score(m))) ** self.power + self.floor for m in self.members])
        w = w / w.sum()
        fixed = np.array([self.fixed.get(m, 0.0) for m in self.members])
        return fixed + (1.0 - fixed.sum()) * w

    def state(self) -> dict[str, Any]:
        return {"members": self.members, "results": self.results}

    def load(self, st: dict[str, Any]) -> None:
        self.members = list(st["members"])
        self.results = {k: list(v) for k, v in st["results"].items()}


# ---------------------------------------------------------------------------
# Game workers
# ---------------------------------------------------------------------------


#: the shaping potentials (``shaping_potential``): a function of the true state and the learner's seat
#: (the reward is the trainer's, not an input of the policy, so it may read the state)
POTENTIALS: tuple[str, ...] = ("pp_ip", "usurp_odds")


def _phi(state: Any, seat: int, kind: str = "pp_ip") -> float:
    """The shaping potential of ``seat``: ``pp_ip`` = (PP + 2 IP) / 100; ``usurp_odds`` = 1 while one
    of the seat's characters is the Monarch, else the engine's best P(a usurpation by the seat
    succeeds now), every Support card in hand and in front played (0 without a Monarch)."""
    if kind == "pp_ip":
        pl = state.players[seat]
        return (pl.pp + 2 * pl.ip) / 100.0
    mon = state.monarch
    if mon is None:
        return 0.0
    if state.chars[mon].owner == seat:
        return 1.0
    return best_usurpation(state, seat)[1]


class _Slot:
    """One game in flight in a worker."""

    __slots__ = ("game", "n", "seat", "member", "bots", "traj", "phi")


def _network_requests(slots: list[_Slot], snaps: dict[str, Any],
                      enc: Any) -> dict[str, list[tuple[int, int, np.ndarray, np.ndarray]]]:
    """Advance every game to a decision of a network (the learner or a snapshot): the scripted nobles play
    theirs; by network (``"learner"`` or the snapshot's name), ``(slot, seat, observation, mask)`` to decide."""
    from fandonia_env.engine.core.actions import NUM_ACTIONS
    from fandonia_env.engine.face.hidden import InfoSet

    reqs: dict[str, list[tuple[int, int, np.ndarray, np.ndarray]]] = {}
    for i, s in enumerate(slots):
        g = s.game
        while not g.over:
            p = g.current_player()
            if p == s.seat or s.member in snaps:
                break
            g.apply(s.bots[p].act(g.seat_view(p), g.legal_actions(), InfoSet(g.state, p)))
        if g.over:
            continue
        p = g.current_player()
        m = np.zeros(NUM_ACTIONS, dtype=bool)
        m[g.legal_actions()] = True
        key = "learner" if p == s.seat else s.member
        reqs.setdefault(key, []).append((i, p, enc.encode(g.state, p), m))
    return reqs


def _network_acts(rq: list[tuple[int, int, np.ndarray, np.ndarray]], slots: list[_Slot], net: Any, learning: bool,
                  trng: Any, cfg: dict[str, Any]) -> int:
    """One batched forward pass of ``net`` for the decisions ``rq``, their actions sampled and applied; the
    learner's (``learning``) recorded in its slot's trajectory, with the shaping reward.  The learner's steps."""
    import torch

    x = torch.as_tensor(np.stack([r[2] for r in rq]))
    mk = torch.as_tensor(np.stack([r[3] for r in rq]))
    with torch.no_grad():
        logits, v = net(x, mk)
        dist = torch.distributions.Categorical(logits=logits)
        a = torch.multinomial(dist.probs, 1, generator=trng).squeeze(1)
        lp = dist.log_prob(a)
    steps = 0
    for j, (i, _p, ob, m) in enumerate(rq):
        s = slots[i]
        act = int(a[j])
        if learning:
            t = s.traj
            t["obs"].append(ob.astype(np.float16))
            t["mask"].append(np.packbits(m))
            t["action"].append(act)
            t["logp"].append(float(lp[j]))
            t["value"].append(float(v[j]))
            t["reward"].append(0.0)
            steps += 1
        s.game.apply(act)
        if learning and cfg["shaping"]:
            ph = _phi(s.game.state, s.seat, cfg["shaping_potential"])
            s.traj["reward"][-1] += cfg["shaping"] * (ph - s.phi)
            s.phi = ph
    return steps


def _finish_games(slots: list[_Slot], cfg: dict[str, Any], done: list[dict[str, Any]],
                  results: list[tuple[str, bool, int, str | None]], new_slot: Callable[[], _Slot]) -> None:
    """Each ended game: its terminal reward on the learner's last step, its trajectory to ``done``, its result
    to ``results``, and a new game in its slot."""
    for i, s in enumerate(slots):
        g = s.game
        if not g.over:
            continue
        st = g.state
        won = st.result == "win" and st.winner == s.seat
        r = terminal_reward(st.result, won, s.n, st.turn, cfg["max_turns"], cfg["win_speed"])
        if cfg["shaping"]:
            r -= cfg["shaping"] * s.phi  # the potential returns to 0 at the end
        if s.traj["action"]:
            s.traj["reward"][-1] += r
            done.append({k: np.asarray(v) for k, v in s.traj.items()} | {"n": s.n})
        results.append((s.member, won, s.n, st.result))
        slots[i] = new_slot()


def _worker(conn: Any, wid: int, cfg: dict[str, Any], header: dict[str, Any], maps: dict[str, np.ndarray]) -> None:
    import torch

    import fandonia_env.agents as registry
    from fandonia_env.engine import Game
    from fandonia_env.spaces.encoders import get_encoder

    from .model import model_from_header

    torch.set_num_threads(1)
    enc = get_encoder(header["encoder"])
    learner = model_from_header(header, maps)
    learner.eval()
    snaps: dict[str, Any] = {}
    rng = np.random.default_rng([cfg["seed"], wid, 0x1EA6])
    trng = torch.Generator().manual_seed(int(rng.integers(2**31 - 1)))
    members: list[str] = []
    probs: np.ndarray = np.ones(1)
    players = cfg["players"]
    lo, hi = (players, players) if isinstance(players, int) else players

    def new_slot() -> _Slot:
        s = _Slot()
        s.n = int(rng.integers(lo, hi + 1))
        s.seat = int(rng.integers(s.n))
        s.member = members[int(rng.choice(len(members), p=probs))]
        s.game = Game(players=s.n, seed=int(rng.integers(2**31 - 1)), max_turns=cfg["max_turns"], **cfg["rules"])
        s.bots = {}
        if s.member not in snaps:
            for p in range(s.n):
                if p != s.seat:
                    sd = int(rng.integers(2**31 - 1))
                    b = registry.make_agent(s.member, seed=sd)
                    b.reset(sd)
                    s.bots[p] = b
        s.traj = {"obs": [], "mask": [], "action": [], "logp": [], "value": [], "reward": []}
        s.phi = _phi(s.game.state, s.seat, cfg["shaping_potential"]) if cfg["shaping"] else 0.0
        return s

    slots: list[_Slot] = []
    while True:
        msg = conn.recv()
        if msg[0] == "stop":
            return
        _, state_dict, snap_update, members, probs, want = msg
        learner.load_state_dict(state_dict)
        for name, sd in snap_update.items():
            if sd is None:
                snaps.pop(name, None)
            else:
                m = model_from_header(header, maps)
                m.load_state_dict(sd)
                m.eval()
                snaps[name] = m
        slots = [s for s in slots if s.member in members]
        while len(slots) < cfg["games_per_worker"]:
            slots.append(new_slot())
        done: list[dict[str, Any]] = []
        results: list[tuple[str, bool, int, str | None]] = []
        steps = 0
        while steps < want:
            reqs = _network_requests(slots, snaps, enc)
            for key, rq in reqs.items():
                steps += _network_acts(rq, slots, learner if key == "learner" else snaps[key], key == "learner",
                                       trng, cfg)
            _finish_games(slots, cfg, done, results, new_slot)
            if not reqs and not any(not s.game.over for s in slots):
                break
        conn.send((done, results))


def terminal_reward(result: str | None, won: bool, n: int, turn: int, max_turns: int | None,
                    win_speed: float = 0.0) -> float:
    """The learner's reward at the end of a game: docs/rewards.md's zero-sum terminal reward (+1 to the
    winner, -1/(n-1) to every other seat, 0 to all in a draw or a truncated game), with a win at turn
    ``turn`` worth ``1 - win_speed * turn / max_turns`` (``max_turns`` None: 100)."""
    if result != "win":
        return 0.0
    if not won:
        return -1.0 / (n - 1)
    return 1.0 - win_speed * turn / (max_turns or 100)


# ---------------------------------------------------------------------------
# PPO
# ---------------------------------------------------------------------------


def gae(rewards: np.ndarray, values: np.ndarray, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """(advantages, returns) of one finished trajectory (the value after its end is 0)."""
    T = len(rewards)
    adv = np.zeros(T, dtype=np.float32)
    last = 0.0
    for t in range(T - 1, -1, -1):
        nv = values[t + 1] if t + 1 < T else 0.0
        delta = rewards[t] + gamma * nv - values[t]
        last = delta + gamma * lam * last
        adv[t] = last
    return adv, adv + values.astype(np.float32)


def ppo_update(model: Any, opt: Any, batch: dict[str, np.ndarray], cfg: dict[str, Any], value_only: bool,
               num_actions: int) -> dict[str, float]:
    import torch

    N = len(batch["action"])
    # kept as stored (float16 from self-play): a minibatch is widened when it is drawn, not the whole batch
    obs = torch.as_tensor(batch["obs"])
    mask = torch.as_tensor(np.unpackbits(batch["mask"], axis=-1, count=num_actions).astype(bool))
    act = torch.as_tensor(batch["action"]).long()
    old = torch.as_tensor(batch["logp"]).float()
    adv = torch.as_tensor(batch["adv"]).float()
    ret = torch.as_tensor(batch["ret"]).float()
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    stats = {"pg_loss": 0.0, "v_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0, "clip_frac": 0.0, "epochs": 0}
    mb = cfg["minibatch"]
    # a value-only update moves the value head alone: the value loss's gradient through the shared trunk
    # would change the policy with no policy objective at all (it did: an exploiter's policy moved by an
    # approximate KL of 0.021, 0.010, 0.006 and 0.009 in its four "value-only" iterations; 0 since).  The
    # value head then reads detached features (PolicyNet.detach_value), so no other parameter gets a gradient
    # and Adam leaves them as they are.
    detached = model.detach_value
    model.detach_value = detached or value_only
    try:
        for ep in range(cfg["epochs"]):
            perm = torch.randperm(N)
            kls = []
            for s in range(0, N, mb):
                idx = perm[s: s + mb]
                lp, ent, v = model.evaluate_actions(obs[idx].float(), mask[idx], act[idx])
                ratio = (lp - old[idx]).exp()
                a = adv[idx]
                pg = -torch.min(ratio * a, ratio.clamp(1 - cfg["clip"], 1 + cfg["clip"]) * a).mean()
                vl = ((v - ret[idx]) ** 2).mean()
                loss = cfg["vf_coef"] * vl if value_only else pg + cfg["vf_coef"] * vl - cfg["ent_coef"] * ent.mean()
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["max_grad_norm"])
                opt.step()
                with torch.no_grad():
                    kl = ((ratio - 1) - (lp - old[idx])).mean().item()
                kls.append(kl)
                stats["pg_loss"] += pg.item()
                stats["v_loss"] += vl.item()
                stats["entropy"] += ent.mean().item()
                stats["clip_frac"] += ((ratio - 1).abs() > cfg["clip"]).float().mean().item()
            stats["approx_kl"] = float(np.mean(kls))
            stats["epochs"] = ep + 1
            if not value_only and cfg["target_kl"] is not None and stats["approx_kl"] > cfg["target_kl"]:
                break
    finally:  # restored even when an update fails: the flag is the run's setting (value_detached)
        model.detach_value = detached
    nb = max(1, stats["epochs"] * math.ceil(N / mb))
    for k in ("pg_loss", "v_loss", "entropy", "clip_frac"):
        stats[k] /= nb
    return stats


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------


def check_config(cfg: dict[str, Any]) -> dict[str, Any]:
    import fandonia_env.agents as registry

    for k in ("total_steps", "rollout_steps", "epochs", "minibatch", "games_per_worker", "eval_games",
              "max_snapshots", "pfsp_window"):
        if cfg[k] < 1:
            raise ConfigError(f"{k} must be >= 1, got {cfg[k]}")
    check_players(cfg["players"])
    fx = cfg["fixed_share"]
    for m, v in fx.items():
        if m not in cfg["scripted"]:
            raise ConfigError(f"fixed_share names {m!r}, which is not in scripted {cfg['scripted']}")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
            raise ConfigError(f"fixed_share[{m!r}] must be a number >= 0, got {v!r}")
    if not 0.0 <= cfg["win_speed"] <= 1.0:
        raise ConfigError(f"win_speed must be in [0, 1] (a late win still beats a draw), got {cfg['win_speed']}")
    if cfg["shaping_potential"] not in POTENTIALS:
        raise ConfigError(f"shaping_potential must be one of {list(POTENTIALS)}, got {cfg['shaping_potential']!r}")
    if sum(fx.values()) >= 1:
        raise ConfigError(f"fixed_share must sum to less than 1 (PFSP draws the rest), got {sum(fx.values())}")
    if not cfg["scripted"] and not cfg["snapshot_every"]:
        raise ConfigError("the league is empty: list scripted members or set snapshot_every")
    for a in cfg["scripted"] + cfg["eval_anchors"]:
        registry.check_agent(a)
    if cfg["workers"] is None:
        cfg["workers"] = os.cpu_count() or 1
    if cfg["threads"] is None:
        cfg["threads"] = os.cpu_count() or 1
    if cfg["init"] is not None:
        cfg["init"] = str(resolve_init(cfg["init"]))
    return cfg


def resolve_init(path: str) -> Path:
    """The checkpoint ``init`` names: a ``.pt`` file, an ``.npz`` policy export, a league run
    directory (its ``league.pt``) or an imitation run directory (its last epoch)."""
    p = Path(path)
    if p.is_dir():
        if (p / "league.pt").is_file():
            return p / "league.pt"
        cks = sorted((p / "checkpoints").glob("epoch_*.pt"))
        if not cks:
            raise ConfigError(f"init: {p} holds neither league.pt nor checkpoints/epoch_*.pt (run training.imitate "
                              "or training.league first)")
        return cks[-1]
    if not p.is_file():
        raise ConfigError(f"init: checkpoint {p} does not exist")
    return p


def _sd_bytes(model: Any) -> dict[str, Any]:
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def _league_model(cfg: dict[str, Any], ck_path: Path, league: League,
                  counters: dict[str, Any]) -> tuple[Any, Any, Any]:
    """(model, encoder, optimizer): resumed from ``ck_path`` (the league and counters too), or from
    ``init`` (widened to ``encoder`` if asked), or new."""
    import torch

    from fandonia_env.engine.core.actions import NUM_ACTIONS
    from fandonia_env.spaces.encoders import get_encoder

    from .model import PolicyNet, load_checkpoint, widen_input

    if ck_path.exists():
        model, ck = load_checkpoint(ck_path)
        league.load(ck["league"])
        counters.update(ck["counters"])
        enc = get_encoder(ck["header"]["encoder"])
        print(f"league: resuming from {ck_path} at {counters['steps']} steps", file=sys.stderr)
    elif cfg["init"]:
        model, ck = load_checkpoint(cfg["init"])
        enc = get_encoder(ck["header"]["encoder"])
        if cfg["encoder"] is not None and cfg["encoder"] != enc.name:
            wide = get_encoder(cfg["encoder"])
            model = widen_input(model, enc, wide)  # new inputs start at zero weight
            print(f"league: widened {cfg['init']} from encoder {enc.name} to {wide.name}", file=sys.stderr)
            enc = wide
        ck = None
    else:
        enc = get_encoder(cfg["encoder"])
        model = PolicyNet.for_encoder(enc, NUM_ACTIONS, cfg["hidden"])
        ck = None
    rest, skip_params = model.split_skip() if cfg["skip_lr"] is not None else (list(model.parameters()), [])
    groups = [{"params": rest}] + ([{"params": skip_params, "lr": cfg["skip_lr"]}] if skip_params else [])
    opt = torch.optim.Adam(groups, lr=cfg["lr"])
    if ck is not None and "optimizer" in ck:
        if len(ck["optimizer"]["param_groups"]) != len(groups):
            raise ConfigError(f"{ck_path} was trained with {len(ck['optimizer']['param_groups'])} optimizer "
                              f"group(s) and this config makes {len(groups)} (skip_lr): keep skip_lr as it was")
        opt.load_state_dict(ck["optimizer"])
    return model, enc, opt


def _start_workers(cfg: dict[str, Any], counters: dict[str, Any], header: dict[str, Any],
                   maps: dict[str, np.ndarray]) -> tuple[list[Any], list[Any]]:
    """The ``workers`` collecting processes (``_worker``) and their pipes."""
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    pipes, procs = [], []
    for w in range(cfg["workers"]):
        a, b = ctx.Pipe()
        pr = ctx.Process(target=_worker, args=(b, w + 1000 * counters["updates"], cfg, header, maps), daemon=True)
        pr.start()
        pipes.append(a)
        procs.append(pr)
    return pipes, procs


def _snapshot_update(league: League, known_snaps: set[str], snap_dir: Path) -> dict[str, Any]:
    """The snapshots the workers must load (their weights) or drop (None) since the last round."""
    from .model import load_checkpoint

    snap_update: dict[str, Any] = {}
    for name in league.members:
        if name.startswith("snap-") and name not in known_snaps:
            m, _ = load_checkpoint(snap_dir / f"{name}.pt")
            snap_update[name] = m.state_dict()
            known_snaps.add(name)
    for name in list(known_snaps):
        if name not in league.members:
            snap_update[name] = None
            known_snaps.discard(name)
    return snap_update


def _ppo_batch(trajs: list[dict[str, Any]], cfg: dict[str, Any]) -> tuple[dict[str, np.ndarray], list[float]]:
    """The learner's trajectories as one PPO batch (GAE advantages and returns), and each one's return."""
    parts = {k: [] for k in ("obs", "mask", "action", "logp", "adv", "ret")}
    rets = []
    for t in trajs:
        adv, ret = gae(t["reward"], t["value"], cfg["gamma"], cfg["lam"])
        for k in ("obs", "mask", "action", "logp"):
            parts[k].append(t[k])
        parts["adv"].append(adv)
        parts["ret"].append(ret)
        rets.append(float(t["reward"].sum()))
    batch = {k: np.concatenate(v) for k, v in parts.items()}
    return batch, rets


def _add_snapshot(model: Any, enc: Any, league: League, counters: dict[str, Any], cfg: dict[str, Any],
                  snap_dir: Path) -> None:
    """A frozen copy of the learner joins the league; the oldest leave beyond ``max_snapshots``."""
    from .model import save_checkpoint

    counters["snapshots"] += 1
    name = f"snap-{counters['snapshots']}"
    save_checkpoint(snap_dir / f"{name}.pt", model, enc)
    league.add(name)
    snaps = [m for m in league.members if m.startswith("snap-")]
    while len(snaps) > cfg["max_snapshots"]:
        league.remove(snaps.pop(0))
    counters["next_snap"] += cfg["snapshot_every"]


def _stop_workers(pipes: list[Any], procs: list[Any]) -> None:
    for c in pipes:
        try:
            c.send(("stop",))
        except (BrokenPipeError, OSError):
            pass
    for pr in procs:
        pr.join(timeout=5)
        if pr.is_alive():
            pr.terminate()


def _collect(pipes: list[Any], model: Any, league: League, snap_update: dict[str, Any],
             cfg: dict[str, Any]) -> tuple[list[dict[str, Any]], list[tuple[str, bool, int, str | None]]]:
    """One round of the workers with the learner's weights: their trajectories and game results (recorded in
    the league)."""
    sd = _sd_bytes(model)
    probs = league.weights()
    per = math.ceil(cfg["rollout_steps"] / len(pipes))
    for c in pipes:
        c.send(("collect", sd, snap_update, league.members, probs, per))
    trajs, results = [], []
    for c in pipes:
        d, r = c.recv()
        trajs += d
        results += r
    for member, won, n, _res in results:
        league.record(member, won, n)
    return trajs, results


def _evaluate(model: Any, enc: Any, out: Path, cfg: dict[str, Any], steps: int) -> None:
    """The learner exported to ``policies/step_N.npz`` and evaluated against the anchors (``eval.csv``)."""
    from . import evaluate as ev
    from .common import validate
    from .model import export_npz

    pol = export_npz(model, out / "policies" / f"step_{steps}.npz", enc, extra={"stage": "league", "steps": steps})
    ev.evaluate(validate({"policy": str(pol), "anchors": cfg["eval_anchors"], "games": cfg["eval_games"],
                          "seed": cfg["seed"] + 10_000, "max_turns": cfg["max_turns"],
                          "jobs": cfg["workers"], "csv": str(out / "eval.csv"),
                          "step": steps, "rules": cfg["rules"], "plot": True,
                          "progress": False}, ev.SCHEMA, "league eval"))


def train(cfg: dict[str, Any]) -> dict[str, Any]:
    import torch

    from fandonia_env.engine.core.actions import NUM_ACTIONS

    from .model import export_npz, save_checkpoint

    cfg = check_config(dict(cfg))
    out = prepare_out(cfg["out"], {k: v for k, v in cfg.items() if k not in ("progress",)}, "league")
    seed_everything(cfg["seed"])
    torch.set_num_threads(cfg["threads"])
    ck_path = out / "league.pt"
    league = League(cfg["scripted"], cfg["pfsp_window"], cfg["pfsp_power"], cfg["pfsp_floor"],
                    {m: float(v) for m, v in cfg["fixed_share"].items()})
    counters = {"steps": 0, "updates": 0, "games": 0, "snapshots": 0, "next_snap": cfg["snapshot_every"],
                "next_eval": cfg["eval_every"] or cfg["total_steps"]}
    snap_dir = out / "snapshots"
    snap_dir.mkdir(exist_ok=True)
    model, enc, opt = _league_model(cfg, ck_path, league, counters)
    header = model.header(enc)
    maps = {b["name"]: np.asarray(b["action_index"], dtype=np.int64) for b in model.block_specs}

    pipes, procs = _start_workers(cfg, counters, header, maps)
    known_snaps: set[str] = set()
    train_csv = out / "train.csv"
    new_csv = not train_csv.exists()
    fcsv = open(train_csv, "a", newline="")
    wcsv = csv.writer(fcsv)
    if new_csv:
        wcsv.writerow(["update", "steps", "games", "pg_loss", "v_loss", "entropy", "approx_kl", "clip_frac", "epochs",
                       "mean_return", "win_share", "seconds"] + [f"score:{m}" for m in cfg["scripted"]])
    bar = Progress(cfg["total_steps"], unit="step", desc="league", enabled=cfg["progress"])
    bar.update(counters["steps"])
    t_start = time.perf_counter()
    try:
        while counters["steps"] < cfg["total_steps"]:
            t0 = time.perf_counter()
            trajs, results = _collect(pipes, model, league, _snapshot_update(league, known_snaps, snap_dir), cfg)
            counters["games"] += len(results)
            if not trajs:
                continue
            batch, rets = _ppo_batch(trajs, cfg)
            model.train()
            st = ppo_update(model, opt, batch, cfg, counters["updates"] < cfg["value_warmup_updates"], NUM_ACTIONS)
            model.eval()
            n_steps = len(batch["action"])
            counters["steps"] += n_steps
            counters["updates"] += 1
            wins = [w for (_m, w, _n, _r) in results]
            wcsv.writerow([counters["updates"], counters["steps"], counters["games"], *(round(st[k], 5) for k in
                          ("pg_loss", "v_loss", "entropy", "approx_kl", "clip_frac")), st["epochs"],
                          round(float(np.mean(rets)), 4), round(float(np.mean(wins)) if wins else 0.0, 4),
                          round(time.perf_counter() - t0, 2)] + [round(league.score(m), 3) for m in cfg["scripted"]])
            fcsv.flush()
            bar.update(n_steps, postfix=f"win {np.mean(wins) if wins else 0:.2f} kl {st['approx_kl']:.3f} "
                                        f"ent {st['entropy']:.2f}")
            if cfg["snapshot_every"] and counters["steps"] >= counters["next_snap"]:
                _add_snapshot(model, enc, league, counters, cfg, snap_dir)
            done = counters["steps"] >= cfg["total_steps"]
            if done or (cfg["eval_every"] and counters["steps"] >= counters["next_eval"]):
                _evaluate(model, enc, out, cfg, counters["steps"])
                counters["next_eval"] += cfg["eval_every"] or cfg["total_steps"]
            save_checkpoint(ck_path, model, enc, optimizer=opt.state_dict(), league=league.state(),
                            counters=counters, config=cfg)
    finally:
        bar.close()
        _stop_workers(pipes, procs)
        fcsv.close()
    final = export_npz(model, out / "policy.npz", enc, extra={"stage": "league", "steps": counters["steps"]})
    summary = {"out": str(out), "steps": counters["steps"], "updates": counters["updates"], "games": counters["games"],
               "wall_s": round(time.perf_counter() - t_start, 1), "policy": str(final),
               "league": {m: round(league.score(m), 3) for m in league.members}}
    (out / "league_summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def _report(cfg: dict[str, Any], s: dict[str, Any]) -> None:
    """What ``main`` prints once the stage is done."""
    print(f"league: {s['steps']} learner decisions, {s['updates']} updates, {s['games']} games in {s['wall_s']} s")
    print(f"wrote {s['out']}/league.pt, {s['policy']}, {s['out']}/train.csv, {s['out']}/eval.csv")


def main(argv: list[str] | None = None) -> int:
    return run_cli(arg_parser("python -m fandonia_env.training.league", __doc__), argv, SCHEMA,
                   lambda a, cfg: train(cfg), _report, torch_for="fandonia_env.training.league")


if __name__ == "__main__":
    raise SystemExit(main())

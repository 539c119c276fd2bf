"""Stage 2, imitate: train the masked policy + value network on collected decisions.

    python -m fandonia_env.training.imitate --config configs/imitate.yaml [--set epochs=3]

Reads the shards of ``data`` (``fandonia_env.training.collect``), keeps the decisions of ``teacher`` (an agent
id, or every agent), and splits them **by game** into train and held-out sets (``test_fraction``
of the games).  Loss: cross-entropy of the masked logits against the teacher's action (illegal
ids at -inf, so they get no probability) + ``value_coef`` x MSE of the value head against the
game's outcome for the deciding seat.

After every epoch: the held-out agreement with the teacher (argmax == the teacher's action),
overall and per decision kind, beside the teacher's agreement with itself under another seed on
the same decisions (the collect stage's ``shadow`` answers); a checkpoint
``checkpoints/epoch_NNN.pt`` (a rerun resumes from the last one); ``metrics.json``,
``metrics.csv`` and TensorBoard scalars (when ``tensorboard`` is installed).  At the end the policy
is exported to ``policy.npz`` (numpy, for ``fandonia_env/agents/ppo_agent.py``: ``ppo:<out>/policy.npz``).
"""

from __future__ import annotations

import csv
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from .common import REQUIRED, ConfigError, Opt, Progress, arg_parser, prepare_out, run_cli, seed_everything

SCHEMA: dict[str, Opt] = {
    "data": Opt(REQUIRED, (str, list), "directory of the collect stage's shards, or a list of them (e.g. the "
                                       "teacher's games plus DAgger rounds)"),
    "init": Opt(None, (str,), "start from this checkpoint (.pt, or an .npz export) instead of a fresh network "
                              "(DAgger rounds, continued training); null: fresh", nullable=True),
    "out": Opt(REQUIRED, (str,), "output directory (checkpoints, metrics, policy.npz)"),
    "teacher": Opt("noble-rule-v1", (str,), "imitate this agent's decisions (null: every recorded agent)",
                   nullable=True),
    "test_fraction": Opt(0.1, (float,), "share of the games held out (split by game, not by decision)"),
    "epochs": Opt(4, (int,), "passes over the training decisions"),
    "batch_size": Opt(512, (int,), "decisions per gradient step"),
    "lr": Opt(1e-3, (float,), "Adam learning rate (cosine-decayed to 5% over the epochs if schedule is cosine)"),
    "schedule": Opt("cosine", (str,), "learning-rate schedule: cosine or constant"),
    "weight_decay": Opt(0.0, (float,), "Adam weight decay"),
    "hidden": Opt([512, 512], (list,), "trunk MLP layer sizes"),
    "entity_hidden": Opt(64, (int,), "hidden size of the entity MLP shared by the rows of a block"),
    "entity_dim": Opt(32, (int,), "size of the entity embeddings and queries"),
    "entity_blocks": Opt(["characters", "seats"], (list,), "blocks whose rows score the actions naming them"),
    "entity_context": Opt(0, (int,), "size of a projection of the trunk appended to every entity row, so a row is "
                          "scored in the decision's context (0: rows alone, as before)"),
    "value_coef": Opt(0.5, (float,), "weight of the value loss (MSE to the outcome)"),
    "max_decisions": Opt(None, (int,), "use at most this many decisions (whole games, first ones)", nullable=True),
    "kinds": Opt(None, (list,), "use only the decisions of these kinds, e.g. [turn_main] (null: every kind)",
                 nullable=True),
    "action_weights": Opt({}, (dict,), "loss weight of a decision by the teacher's action, e.g. {free_usurp: 10} "
                                       "(rare choices that decide games; default weight 1)"),
    "kind_weights": Opt({}, (dict,), "loss weight of a decision by its kind, e.g. {pp_limit_lose: 10} (rare "
                                     "kinds the network learns slowly; default weight 1)"),
    "binary_actions": Opt(None, (list,), "learn only whether the teacher picks one of these actions (e.g. "
                                         "[free_usurp]), not which other action it picks (null: full "
                                         "cross-entropy); use with anchor", nullable=True),
    "anchor": Opt(0.0, (float, int), "weight of KL(init policy || policy) on batches of every recorded decision "
                                     "(all kinds; with binary_actions, over the other actions), so that a focused "
                                     "round moves nothing else (needs init)"),
    "skip": Opt(None, (str, list), "an encoder block (e.g. rule_features), or a list of them, read by a linear "
                                   "skip head straight into the logits, zero at start (null: none)", nullable=True),
    "skip_lr": Opt(0.01, (float,), "Adam learning rate of the skip head"),
    "skip_actions": Opt(None, (list,), "the actions (catalogue names) the skip head adds to (null: every action)",
                        nullable=True),
    "train_only": Opt(None, (list,), "train only the parameters whose names start with these (e.g. [skip]); the "
                                     "rest stays frozen (null: train everything)", nullable=True),
    "require_legal": Opt(None, (list,), "use only the decisions where one of these actions (catalogue names, e.g. "
                                        "[free_usurp]) is legal (null: every decision)", nullable=True),
    "threads": Opt(None, (int,), "torch CPU threads (null: torch's default)", nullable=True),
    "device": Opt("cpu", (str,), "torch device: cpu, cuda, or auto"),
    "keep_checkpoints": Opt(2, (int,), "how many epoch checkpoints to keep"),
    "seed": Opt(0, (int,), "seed of the split, the initialisation and the batch order"),
    "progress": Opt(True, (bool,), "show a progress bar"),
}


# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------


class Decisions:
    """The collected decisions in memory (observations float16, masks bit-packed)."""

    def __init__(self, obs: np.ndarray, mask: np.ndarray, action: np.ndarray, shadow: np.ndarray, kind: np.ndarray,
                 game: np.ndarray, outcome: np.ndarray, kind_names: list[str], meta: dict[str, Any],
                 shadows: np.ndarray | None = None) -> None:
        self.obs, self.mask, self.action, self.shadow = obs, mask, action, shadow
        self.kind, self.game, self.outcome, self.kind_names, self.meta = kind, game, outcome, kind_names, meta
        #: (D, K) every seeded copy's answer (-1: not asked); column 0 is ``shadow``
        self.shadows = shadow[:, None] if shadows is None else shadows

    def __len__(self) -> int:
        return len(self.action)


def action_ids(key: str, names: list[str] | None) -> list[int]:
    """The catalogue ids of the action ``names`` a config key lists; a ConfigError naming the key otherwise."""
    from fandonia_env.engine.core.actions import ID

    for a in names or []:
        if a not in ID:
            raise ConfigError(f"{key}: {a!r} is not an action name of the catalogue (docs/actions.md)")
    return [ID[a] for a in names or []]


def load_decisions(data: str | Path | list[str], teacher: str | None = None,
                   max_decisions: int | None = None, kinds: list[str] | None = None,
                   require_legal: list[str] | None = None) -> Decisions:
    """Every decision of ``teacher`` in the shards of ``data`` (a directory or a list of them; all
    agents when ``teacher`` is None); only those of ``kinds`` and only those where an action of
    ``require_legal`` is legal, when given (a DAgger round focused on one choice).  Game numbers of the k-th directory are offset by k * 10**7 so
    that the train/held-out split by game never mixes games of different directories."""
    dirs = [data] if isinstance(data, (str, Path)) else list(data)
    files: list[tuple[Path, int]] = []  # (shard, game-number offset of its directory)
    for k, dd in enumerate(dirs):
        fs = sorted(Path(dd).glob("shard_*.npz"))
        if not fs:
            raise ConfigError(f"data: no shard_*.npz files in {dd!s} (run python -m fandonia_env.training.collect first)")
        files += [(f, k * 10**7) for f in fs]
    from fandonia_env.engine.core.actions import NUM_ACTIONS

    from .collect import unpack_mask

    legal_ids = action_ids("require_legal", require_legal)
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("obs", "mask", "action", "shadow", "shadows", "kind", "game",
                                                          "outcome")}
    kind_list: list[str] = []
    meta0: dict[str, Any] | None = None
    seen_agents: set[str] = set()
    total = 0
    for f, offset in files:
        with np.load(f) as z:
            meta = json.loads(str(z["meta"]))
            if meta0 is None:
                meta0 = meta
            elif (meta["encoder"], meta["encoder_fingerprint"]) != (meta0["encoder"], meta0["encoder_fingerprint"]):
                raise ConfigError(f"{f}: encoder {meta['encoder']} ({meta['encoder_fingerprint']}) differs from the "
                                  f"other shards' {meta0['encoder']} ({meta0['encoder_fingerprint']})")
            names = [str(s) for s in z["agent_names"]]
            seen_agents.update(names)
            sel = np.ones(len(z["action"]), bool)
            if teacher is not None:
                sel = z["agent"] == (names.index(teacher) if teacher in names else -1)
            knames = [str(s) for s in z["kind_names"]]
            if kinds is not None:
                sel &= np.isin(z["kind"], [i for i, k in enumerate(knames) if k in kinds])
            if legal_ids:
                sel &= unpack_mask(z["mask"], NUM_ACTIONS)[:, legal_ids].any(axis=1)
            for k in knames:
                if k not in kind_list:
                    kind_list.append(k)
            remap = np.asarray([kind_list.index(k) for k in knames] or [0], np.int16)
            for k in ("obs", "mask", "action", "shadow", "outcome"):
                parts[k].append(z[k][sel])
            parts["shadows"].append(z["shadows"][sel] if "shadows" in z.files else z["shadow"][sel][:, None])
            parts["game"].append(z["game"][sel].astype(np.int64) + offset)
            parts["kind"].append(remap[z["kind"][sel]])
            total += int(sel.sum())
        if max_decisions is not None and total >= max_decisions:
            break
    if teacher is not None and teacher not in seen_agents:
        raise ConfigError(f"teacher {teacher!r} played in none of the shards of {data!s}; agents there: "
                          f"{sorted(seen_agents)}")
    width = max((a.shape[1] for a in parts["shadows"]), default=1)  # shards with fewer copies: -1 columns
    parts["shadows"] = [np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=-1) for a in parts["shadows"]]
    cat = {k: np.concatenate(v) for k, v in parts.items()}
    if max_decisions is not None and len(cat["action"]) > max_decisions:
        last_game = cat["game"][max_decisions - 1]
        keep = cat["game"] <= last_game
        cat = {k: v[keep] for k, v in cat.items()}
    assert meta0 is not None
    return Decisions(cat["obs"], cat["mask"], cat["action"].astype(np.int64), cat["shadow"].astype(np.int64),
                     cat["kind"].astype(np.int64), cat["game"], cat["outcome"], kind_list, meta0,
                     cat["shadows"].astype(np.int64))


def split_by_game(game: np.ndarray, test_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(train indices, test indices): whole games go to one side."""
    games = np.unique(game)
    rng = np.random.default_rng([seed, 0x5B117])
    n_test = int(round(len(games) * test_fraction))
    if test_fraction > 0 and len(games) > 1:
        n_test = min(max(n_test, 1), len(games) - 1)
    test_games = rng.permutation(games)[:n_test]
    is_test = np.isin(game, test_games)
    return np.flatnonzero(~is_test), np.flatnonzero(is_test)


# ---------------------------------------------------------------------------
# Agreement
# ---------------------------------------------------------------------------


def agreement_table(pred: np.ndarray, d: Decisions, idx: np.ndarray) -> dict[str, Any]:
    """Held-out agreement of ``pred`` with the teacher and the teacher's self-agreement, overall and per kind.

    Every answer the teacher gave at a decision counts: its move and those of its seeded copies
    (``shadows``, -1 where not asked).  The agreement of ``pred`` at a decision is the share of those
    answers it equals; the teacher's self-agreement is the share of equal pairs among them (decisions
    with two answers or more).  With one copy these are the two-sample estimates; more copies measure
    them more exactly where the teacher picks at random (both have the same expectation)."""
    kind = d.kind[idx]
    ans = np.concatenate([d.action[idx][:, None], d.shadows[idx]], axis=1)  # (n, 1 + K)
    valid = ans >= 0
    n_ans = valid.sum(1)
    ok = ((ans == pred[:, None]) & valid).sum(1) / n_ans
    pairs = n_ans * (n_ans - 1) / 2
    same = np.zeros(len(ans))
    for j in range(ans.shape[1]):
        for k in range(j + 1, ans.shape[1]):
            same += (ans[:, j] == ans[:, k]) & valid[:, j] & valid[:, k]
    has_sh = pairs > 0
    self_ok = np.where(has_sh, same / np.maximum(pairs, 1), 0.0)

    def row(m: np.ndarray) -> dict[str, Any]:
        n = int(m.sum())
        ns = int((m & has_sh).sum())
        return {"n": n, "agreement": float(ok[m].mean()) if n else None,
                "teacher_self_agreement": float(self_ok[m & has_sh].sum() / ns) if ns else None}

    out = {"overall": row(np.ones(len(idx), bool)), "by_kind": {}}
    for k in np.unique(kind):
        out["by_kind"][d.kind_names[int(k)]] = row(kind == k)
    out["by_kind"] = dict(sorted(out["by_kind"].items(), key=lambda kv: -kv[1]["n"]))
    return out


def format_table(t: dict[str, Any], min_n: int = 0) -> str:
    def f(x: float | None) -> str:
        return "  –  " if x is None else f"{x:.3f}"

    lines = [f"{'kind':28s} {'n':>8s} {'agree':>7s} {'self':>7s} {'gap':>7s}"]
    for name, r in [("OVERALL", t["overall"]), *t["by_kind"].items()]:
        if r["n"] < min_n and name != "OVERALL":
            continue
        gap = None if r["agreement"] is None or r["teacher_self_agreement"] is None else \
            r["agreement"] - r["teacher_self_agreement"]
        lines.append(f"{name:28s} {r['n']:8d} {f(r['agreement']):>7s} {f(r['teacher_self_agreement']):>7s} "
                     f"{'  –  ' if gap is None else f'{gap:+.3f}':>7s}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------


def _batch(d: Decisions, idx: np.ndarray, num_actions: int, device: Any) -> tuple[Any, Any, Any, Any]:
    import torch

    from .collect import unpack_mask

    x = torch.from_numpy(d.obs[idx].astype(np.float32)).to(device)
    m = torch.from_numpy(unpack_mask(d.mask[idx], num_actions)).to(device)
    a = torch.from_numpy(d.action[idx]).to(device)
    z = torch.from_numpy(d.outcome[idx].astype(np.float32)).to(device)
    return x, m, a, z


def predict(model: Any, d: Decisions, idx: np.ndarray, num_actions: int, device: Any,
            batch: int = 2048) -> tuple[np.ndarray, float, float]:
    """(argmax actions, mean cross-entropy, value MSE) of ``model`` on decisions ``idx``."""
    import torch
    import torch.nn.functional as F

    model.eval()
    preds, ce, mse = [], 0.0, 0.0
    with torch.no_grad():
        for s in range(0, len(idx), batch):
            x, m, a, z = _batch(d, idx[s: s + batch], num_actions, device)
            logits, v = model(x, m)
            preds.append(logits.argmax(-1).cpu().numpy())
            ce += float(F.cross_entropy(logits, a, reduction="sum"))
            mse += float(((v - z) ** 2).sum())
    model.train()
    n = max(len(idx), 1)
    return (np.concatenate(preds) if preds else np.zeros(0, np.int64)), ce / n, mse / n


def _latest_checkpoint(ckdir: Path) -> Path | None:
    cks = sorted(ckdir.glob("epoch_*.pt"))
    return cks[-1] if cks else None


def imitate(cfg: dict[str, Any]) -> dict[str, Any]:
    """Train (or resume) and export; returns the final metrics (also ``<out>/metrics.json``)."""
    import torch
    import torch.nn.functional as F

    from fandonia_env.engine.core.actions import NUM_ACTIONS
    from fandonia_env.spaces.encoders import get_encoder

    from .model import PolicyNet, export_npz, load_checkpoint, save_checkpoint, widen_input

    if not 0 <= cfg["test_fraction"] < 1:
        raise ConfigError(f"test_fraction must be in [0, 1), got {cfg['test_fraction']}")
    if cfg["schedule"] not in ("cosine", "constant"):
        raise ConfigError(f"schedule must be cosine or constant, got {cfg['schedule']!r}")
    if cfg["epochs"] < 1 or cfg["batch_size"] < 1:
        raise ConfigError("epochs and batch_size must be >= 1")
    if cfg["device"] == "auto":
        cfg["device"] = "cuda" if torch.cuda.is_available() else "cpu"
    device = torch.device(cfg["device"])
    if cfg["threads"]:
        torch.set_num_threads(cfg["threads"])
    out = prepare_out(cfg["out"], cfg, "imitate", check_same=("data", "teacher", "test_fraction", "hidden",
                                                              "entity_hidden", "entity_dim", "entity_blocks",
                                                              "entity_context", "seed"))
    seed_everything(cfg["seed"])
    t_load = time.perf_counter()
    d = load_decisions(cfg["data"], cfg["teacher"], cfg["max_decisions"], cfg["kinds"], cfg["require_legal"])
    from fandonia_env.engine.core.actions import ID

    action_ids("binary_actions", cfg["binary_actions"])
    if cfg["anchor"] < 0 or (cfg["anchor"] > 0 and cfg["init"] is None):
        raise ConfigError(f"anchor must be >= 0 and needs an init to anchor to; got anchor {cfg['anchor']}, "
                          f"init {cfg['init']}")
    for name, wt in cfg["action_weights"].items():
        if name not in ID or isinstance(wt, bool) or not isinstance(wt, (int, float)) or wt <= 0:
            raise ConfigError(f"action_weights: {name!r}: {wt!r}; keys must be action names of the catalogue "
                              "and weights numbers > 0")
    if len(d) == 0:
        raise ConfigError(f"no decisions to learn from in {cfg['data']} (teacher {cfg['teacher']!r}, kinds "
                          f"{cfg['kinds']}, require_legal {cfg['require_legal']})")
    enc = get_encoder(d.meta["encoder"])
    if enc.fingerprint != d.meta["encoder_fingerprint"]:
        raise ConfigError(f"data were collected with encoder {enc.name} fingerprint {d.meta['encoder_fingerprint']}, "
                          f"the installed one has {enc.fingerprint}: collect again")
    unknown = sorted(set(cfg["entity_blocks"]) - {b.name for b in enc.entity_blocks})
    if unknown:
        raise ConfigError(f"entity_blocks: unknown block(s) {unknown}; encoder {enc.name} has "
                          f"{[b.name for b in enc.entity_blocks]}")
    tr, te = split_by_game(d.game, cfg["test_fraction"], cfg["seed"])
    load_s = time.perf_counter() - t_load
    skip = None
    if cfg["skip"] is not None:
        blocks = {name: (off, shape) for name, off, shape in enc.layout}
        skip = []
        for name in [cfg["skip"]] if isinstance(cfg["skip"], str) else cfg["skip"]:
            if name not in blocks:
                raise ConfigError(f"skip: encoder {enc.name} has no block {name!r}; its blocks: {sorted(blocks)}")
            off, shape = blocks[name]
            skip += range(off, off + int(np.prod(shape)))
    skip_actions = action_ids("skip_actions", cfg["skip_actions"]) or None
    model = PolicyNet.for_encoder(enc, NUM_ACTIONS, cfg["hidden"], cfg["entity_hidden"], cfg["entity_dim"],
                                  cfg["entity_blocks"], skip, skip_actions, cfg["entity_context"]).to(device)
    rest, skip_params = model.split_skip()
    groups = [{"params": rest, "scale": 1.0}]
    if skip_params:
        groups.append({"params": skip_params, "scale": cfg["skip_lr"] / cfg["lr"]})
    opt = torch.optim.Adam(groups, lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    steps_per_epoch = math.ceil(len(tr) / cfg["batch_size"])
    total_steps = steps_per_epoch * cfg["epochs"]

    def lr_at(step: int) -> float:
        if cfg["schedule"] == "constant":
            return cfg["lr"]
        return cfg["lr"] * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * min(step, total_steps) / total_steps)))

    ckdir = out / "checkpoints"
    ckdir.mkdir(exist_ok=True)
    history: list[dict[str, Any]] = []
    start_epoch, step = 0, 0
    last = _latest_checkpoint(ckdir)
    if last is not None:
        m2, ck = load_checkpoint(last)
        model.load_state_dict(m2.state_dict())
        opt.load_state_dict(ck["optimizer"])
        start_epoch, step, history = ck["epoch"], ck["step"], ck["history"]
        print(f"imitate: resuming from {last} (epoch {start_epoch})", file=sys.stderr)
    elif cfg["init"] is not None:
        from .league import resolve_init

        m0, ck0 = load_checkpoint(resolve_init(cfg["init"]))
        init_enc = ck0["header"].get("encoder")
        if init_enc is not None and init_enc != enc.name and enc.extends == init_enc:
            m0 = widen_input(m0, get_encoder(init_enc), enc)  # v1 -> v1r: the new inputs start at zero weight
            print(f"imitate: widened {cfg['init']} from encoder {init_enc} to {enc.name}", file=sys.stderr)
        elif ck0["header"].get("encoder_fingerprint") not in (None, enc.fingerprint):
            raise ConfigError(f"init {cfg['init']}: trained on encoder {init_enc}, another observation layout than "
                              f"the data's {enc.name}")
        try:
            sd = m0.state_dict()
            if skip and not m0.skip_inputs:  # a skip head added to a network without one starts at zero
                sd.update({k: v for k, v in model.state_dict().items() if k.startswith("skip")})
            model.load_state_dict(sd)
        except RuntimeError as e:
            raise ConfigError(f"init {cfg['init']}: its network does not have this config's shape "
                              f"(hidden {cfg['hidden']}, entity sizes): {str(e).splitlines()[0]}") from None
        print(f"imitate: starting from {cfg['init']}", file=sys.stderr)
    if cfg["train_only"]:  # freeze every other parameter (e.g. train only the skip head on a trained policy)
        names = [n for n, _ in model.named_parameters()]
        for pre in cfg["train_only"]:
            if not any(n.startswith(pre) for n in names):
                raise ConfigError(f"train_only: no parameter is named {pre}...; parameters: "
                                  f"{sorted({n.split('.')[0] for n in names})}")
        for n, q in model.named_parameters():
            q.requires_grad_(any(n.startswith(pre) for pre in cfg["train_only"]))
    tb = None
    try:
        from torch.utils.tensorboard import SummaryWriter

        tb = SummaryWriter(str(out / "tb"))
    except Exception:  # tensorboard is optional
        tb = None

    print(f"imitate: {len(d)} decisions of {cfg['teacher'] or 'every agent'} from {cfg['data']} "
          f"({len(np.unique(d.game))} games; train {len(tr)}, held out {len(te)}; loaded in {load_s:.1f} s); "
          f"encoder {enc.name}; {sum(p.numel() for p in model.parameters())} parameters; device {device}",
          file=sys.stderr)
    ref, d_all, arng = None, d, np.random.default_rng([cfg["seed"], 0xA2C])
    if cfg["anchor"] > 0:  # a frozen copy of the starting policy, on every recorded decision
        from .league import resolve_init

        ref = load_checkpoint(resolve_init(cfg["init"]))[0].to(device).eval()
        for q in ref.parameters():
            q.requires_grad_(False)
        if cfg["kinds"] is not None or cfg["require_legal"] is not None:
            d_all = load_decisions(cfg["data"], cfg["teacher"], cfg["max_decisions"])
    bin_ids = None
    if cfg["binary_actions"]:
        bin_ids = torch.as_tensor(action_ids("binary_actions", cfg["binary_actions"]), device=device)
    aw = None  # per-action loss weights (the teacher's action weighs its decision)
    if cfg["action_weights"]:
        from fandonia_env.engine.core.actions import ID

        aw = torch.ones(NUM_ACTIONS, device=device)
        for name, wt in cfg["action_weights"].items():
            aw[ID[name]] = float(wt)
    kw = None  # per-kind loss weights (the decision's kind weighs it)
    if cfg["kind_weights"]:
        kwv = np.ones(len(d.kind_names), np.float32)
        for name, wt in cfg["kind_weights"].items():
            if name not in d.kind_names or isinstance(wt, bool) or not isinstance(wt, (int, float)) or wt <= 0:
                raise ConfigError(f"kind_weights: {name!r}: {wt!r}; keys must be decision kinds of the data "
                                  f"({sorted(d.kind_names)}) and weights numbers > 0")
            kwv[d.kind_names.index(name)] = float(wt)
        kw = torch.as_tensor(kwv, device=device)
    table: dict[str, Any] | None = None
    for epoch in range(start_epoch, cfg["epochs"]):
        t0 = time.perf_counter()
        perm = tr[np.random.default_rng([cfg["seed"], epoch]).permutation(len(tr))]
        bar = Progress(steps_per_epoch, unit="batch", desc=f"epoch {epoch + 1}/{cfg['epochs']}",
                       enabled=cfg["progress"])
        tot_pl = tot_vl = 0.0
        for s in range(0, len(perm), cfg["batch_size"]):
            bidx = perm[s: s + cfg["batch_size"]]
            x, m, a, z = _batch(d, bidx, NUM_ACTIONS, device)
            for g in opt.param_groups:
                g["lr"] = lr_at(step) * g.get("scale", 1.0)
            logits, v = model(x, m)
            w = aw[a] if aw is not None else torch.ones(len(a), device=device)
            if kw is not None:
                w = w * kw[torch.from_numpy(d.kind[bidx]).to(device)]
            if bin_ids is not None:
                # only whether one of these actions is chosen; the anchor keeps the rest of the distribution
                logp = torch.log_softmax(logits, -1)
                lp_in = torch.logsumexp(logp[:, bin_ids], -1).clamp(max=-1e-6)
                per = -torch.where(torch.isin(a, bin_ids), lp_in, torch.log1p(-lp_in.exp()))
            else:
                per = F.cross_entropy(logits, a, reduction="none")
            pl = (per * w).sum() / w.sum()
            vl = F.mse_loss(v, z)
            loss = pl + cfg["value_coef"] * vl
            if ref is not None:
                x2, m2, _a2, _z2 = _batch(d_all, arng.choice(len(d_all), cfg["batch_size"]), NUM_ACTIONS, device)
                if bin_ids is not None:  # anchor the choice among the other actions, not whether to pick these
                    mc = m2.clone()
                    mc[:, bin_ids] = False
                    m2 = torch.where(mc.any(-1, keepdim=True), mc, m2)
                with torch.no_grad():
                    lp_ref = torch.log_softmax(ref(x2, m2)[0], -1)
                lp = torch.log_softmax(model(x2, m2)[0], -1)
                kl = (lp_ref.exp() * (lp_ref - lp).masked_fill(~m2, 0.0)).sum(-1).mean()
                loss = loss + cfg["anchor"] * kl
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1
            tot_pl += float(pl.detach()) * len(a)
            tot_vl += float(vl.detach()) * len(a)
            bar.update(1, postfix=f"ce {float(pl.detach()):.3f}")
        bar.close()
        pred, ce, mse = predict(model, d, te, NUM_ACTIONS, device) if len(te) else (np.zeros(0, np.int64), 0.0, 0.0)
        table = agreement_table(pred, d, te)
        rec = {"epoch": epoch + 1, "step": step, "train_ce": tot_pl / max(len(tr), 1),
               "train_value_mse": tot_vl / max(len(tr), 1), "test_ce": ce, "test_value_mse": mse,
               "test_agreement": table["overall"]["agreement"],
               "teacher_self_agreement": table["overall"]["teacher_self_agreement"],
               "lr": lr_at(step), "seconds": round(time.perf_counter() - t0, 2)}
        history.append(rec)
        print(f"epoch {epoch + 1}: train ce {rec['train_ce']:.4f}, held-out ce {ce:.4f}, agreement "
              f"{rec['test_agreement']}, teacher self-agreement {rec['teacher_self_agreement']}, value mse {mse:.4f}, "
              f"{rec['seconds']} s", file=sys.stderr)
        if tb is not None:
            for k in ("train_ce", "train_value_mse", "test_ce", "test_value_mse", "test_agreement", "lr"):
                if rec[k] is not None:
                    tb.add_scalar(f"imitate/{k}", rec[k], step)
        save_checkpoint(ckdir / f"epoch_{epoch + 1:03d}.pt", model, enc, optimizer=opt.state_dict(),
                        epoch=epoch + 1, step=step, history=history, config=cfg)
        for old in sorted(ckdir.glob("epoch_*.pt"))[:-max(cfg["keep_checkpoints"], 1)]:
            old.unlink()
        _write_metrics(out, cfg, history, table, len(d), len(tr), len(te), enc)
    if table is None:  # resumed after the last epoch: evaluate the final weights again
        pred, _, _ = predict(model, d, te, NUM_ACTIONS, device) if len(te) else (np.zeros(0, np.int64), 0.0, 0.0)
        table = agreement_table(pred, d, te)
    if tb is not None:
        tb.close()
    metrics = _write_metrics(out, cfg, history, table, len(d), len(tr), len(te), enc)
    export_npz(model.cpu(), out / "policy.npz", enc,
               extra={"stage": "imitate", "data": cfg["data"], "teacher": cfg["teacher"], "epochs": cfg["epochs"],
                      "steps": step, "test_agreement": table["overall"]["agreement"]})
    metrics["policy"] = str(out / "policy.npz")
    return metrics


def _write_metrics(out: Path, cfg: dict[str, Any], history: list[dict[str, Any]], table: dict[str, Any],
                   n: int, n_tr: int, n_te: int, enc: Any) -> dict[str, Any]:
    metrics = {"config": cfg, "encoder": enc.name, "decisions": n, "train_decisions": n_tr, "test_decisions": n_te,
               "history": history, "held_out": table}
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1))
    with open(out / "metrics.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(history[0]) if history else ["epoch"])
        w.writeheader()
        w.writerows(history)
    return metrics


def _report(cfg: dict[str, Any], m: dict[str, Any]) -> None:
    """What ``main`` prints once the stage is done."""
    print(f"held-out agreement with {cfg['teacher'] or 'the recorded agents'} "
          f"({m['test_decisions']} decisions of held-out games), per decision kind:")
    print(format_table(m["held_out"]))
    out = Path(cfg["out"])
    print(f"wrote {m['policy']} (play it: make_agent('ppo:{m['policy']}')), {out / 'metrics.json'}, "
          f"{out / 'metrics.csv'}, {out / 'checkpoints'}/")


def main(argv: list[str] | None = None) -> int:
    return run_cli(arg_parser("python -m fandonia_env.training.imitate", __doc__), argv, SCHEMA,
                   lambda a, cfg: imitate(cfg), _report, torch_for="fandonia_env.training.imitate")


if __name__ == "__main__":
    raise SystemExit(main())

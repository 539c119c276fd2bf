"""Multi-agent PPO on ``fandonia_v1`` with Ray RLlib: one machine or a Ray cluster (issue 14).

    python -m fandonia_env.training.rllib_train --config configs/rllib_ppo.yaml [--set iterations=40]
    python -m fandonia_env.training.rllib_train --config configs/rllib_ppo.yaml --address ray://HEAD:10001
    python -m fandonia_env.training.rllib_train --config configs/rllib_ppo.yaml --resume   # from the last checkpoint

Needs the optional extra: ``pip install -e '.[rllib]'`` (``ray[rllib]``, pinned in pyproject.toml).

The pieces (``docs/training.md``, section "Ray RLlib"):

* :class:`FandoniaMultiAgentEnv` -- RLlib's ``PettingZooEnv`` around ``fandonia_v1.env(...)``.  Each
  episode draws the table size from ``players``, the learner's seat at random and one opponent from
  ``opponents`` for every other seat.  The agent ids RLlib sees are *roles*, not seats: ``learner``
  and ``opponent_1``..``opponent_5``.  A scripted opponent (any registered agent id, e.g.
  ``random-v1``, ``noble-rule-v1``, or ``ppo:PATH``) plays inside ``step()``: it needs the engine's
  view, legal ids and InfoSet, which only the env has; its seats are never exposed.  The opponent
  ``snapshot`` exposes its seats as ``opponent_k``, which :func:`policy_mapping_fn` maps to the frozen
  ``snapshot`` module (a copy of the learner refreshed every ``snapshot_every`` iterations; not
  trained).  The env counts every action outside the legal mask (``illegal_actions``).
* :class:`MaskedPolicyModule` -- a ``TorchRLModule`` whose network is ``fandonia_env.training.model.PolicyNet``
  (flat + entity heads, value head); illegal ids get the logit ``FLOAT_MIN`` (probability exactly 0:
  never sampled, never the argmax).  The learned policy exports with ``export_npz`` to the same
  ``.npz`` the other stages write, so it plays as ``ppo:PATH`` in tournaments, the server and the
  play page.
* the loop: ``algo.train()`` per iteration, a checkpoint every ``checkpoint_every`` iterations
  (``checkpoints/iter_NNNNN``, the last ``keep_checkpoints`` kept), an evaluation every ``eval_every``
  iterations through ``fandonia_env.training.evaluate`` (the tournament runner, against ``eval_anchors``), and
  ``policy.npz`` at the end.  ``train.csv``: one row per iteration (env steps, samples/s, the
  learner's win share in its training games, illegal actions).
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from fandonia_env.tools.cli import require_extra

require_extra("rllib", "fandonia_env.training.rllib_train")  # one line and exit 2 on the command line without the extra

try:
    import gymnasium as gym
    import ray
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.torch_utils import FLOAT_MIN
except ImportError as _e:  # pragma: no cover - depends on the optional extra
    raise ImportError(f"fandonia_env.training.rllib_train needs Ray RLlib and torch ({_e}); install the extra: "
                      "pip install -e '.[rllib]'") from _e

from .common import REQUIRED, ConfigError, Opt, arg_parser, load_config, prepare_out, seed_everything  # noqa: E402

LEARNER = "learner"
SNAPSHOT = "snapshot"
#: the agent ids RLlib sees: the learner and up to five opponents (roles, not seats)
ROLES: tuple[str, ...] = (LEARNER, *(f"opponent_{k}" for k in range(1, 6)))

SCHEMA: dict[str, Opt] = {
    "out": Opt(REQUIRED, (str,), "output directory (checkpoints, policy.npz, train.csv, eval.csv, curve.png)"),
    "players": Opt([2, 6], (int, list), "table size: an int or [lo, hi] drawn per episode"),
    "opponents": Opt(["random-v1", "noble-rule-v1"], (list,),
                     "one is drawn per episode for every other seat: agent ids (played inside the env) "
                     "or 'snapshot' (the frozen copy of the learner, an RLlib module)"),
    "max_turns": Opt(60, (int,), "truncation turn limit (ruling R11)", nullable=True),
    "rules": Opt({}, (dict,), "Game keyword arguments: preset / edition / optional"),
    "shaped": Opt(False, (bool,), "add fandonia_v0's potential-based shaping 0.01 x (PP + 2 IP) (docs/rewards.md)"),
    "hidden": Opt([256, 256], (list,), "PolicyNet trunk layer sizes"),
    "entity_hidden": Opt(64, (int,), "hidden size of the entity MLPs"),
    "entity_dim": Opt(32, (int,), "entity embedding / query size"),
    "encoder": Opt("v1", (str,), "the learner's observation: v1 (the env's own vector) or v1r (v1 + the rule "
                                 "features, fandonia_env.spaces.encoders)"),
    "init": Opt(None, (str,), "a checkpoint of the local stages (.pt or .npz) to start the learner from; "
                              "a v1 one is widened when encoder is v1r", nullable=True),
    "iterations": Opt(20, (int,), "training iterations (algo.train() calls)"),
    "train_batch_size": Opt(4000, (int,), "env steps (learner decisions) per iteration and learner"),
    "minibatch_size": Opt(512, (int,), "PPO minibatch size"),
    "num_epochs": Opt(4, (int,), "PPO epochs per iteration"),
    "lr": Opt(3e-4, (float,), "Adam learning rate"),
    "gamma": Opt(1.0, (float,), "discount per decision"),
    "lambda_": Opt(0.95, (float,), "GAE lambda"),
    "clip_param": Opt(0.2, (float,), "PPO ratio clip"),
    "entropy_coeff": Opt(0.01, (float,), "entropy bonus"),
    "vf_loss_coeff": Opt(0.5, (float,), "value loss weight"),
    "grad_clip": Opt(0.5, (float,), "gradient norm clip", nullable=True),
    "num_env_runners": Opt(1, (int,), "sampling actors (0: sample in the driver)"),
    "num_envs_per_env_runner": Opt(1, (int,), "envs each runner steps together (one batched forward pass)"),
    "num_cpus_per_env_runner": Opt(1, (int,), "CPUs Ray reserves per env runner"),
    "num_learners": Opt(0, (int,), "learner actors (0: learn in the driver; >1: data-parallel PPO)"),
    "num_gpus_per_learner": Opt(0.0, (float,), "GPUs per learner (0: CPU)"),
    "address": Opt(None, (str,), "Ray cluster address (ray://HOST:10001 or auto); null: a local Ray", nullable=True),
    "num_cpus": Opt(None, (int,), "CPUs of the local Ray (null: every core)", nullable=True),
    "object_store_mb": Opt(512, (int,), "object store of the local Ray in MB"),
    "snapshot_every": Opt(5, (int,), "iterations between refreshes of the frozen 'snapshot' opponent"),
    "checkpoint_every": Opt(5, (int,), "iterations between checkpoints (the last one is always written)"),
    "keep_checkpoints": Opt(2, (int,), "checkpoints kept"),
    "eval_every": Opt(5, (int,), "iterations between evaluations (0: only at the end; -1: never)"),
    "eval_games": Opt(40, (int,), "games per anchor and evaluation (duplicate deals x seat rotations)"),
    "eval_players": Opt(4, (int,), "table size of the evaluations"),
    "eval_anchors": Opt(["random-v1", "noble-rule-v1"], (list,), "evaluation opponents (every other seat)"),
    "eval_jobs": Opt(1, (int,), "tournament worker processes of an evaluation"),
    "seed": Opt(0, (int,), "seed of the run"),
    "progress": Opt(True, (bool,), "print one line per iteration"),
}


# ---------------------------------------------------------------------------
# The environment
# ---------------------------------------------------------------------------


class FandoniaMultiAgentEnv(PettingZooEnv):
    """RLlib's ``PettingZooEnv`` around ``fandonia_v1``, with scripted opponents played in ``step()``.

    ``config`` keys: ``players`` (int or [lo, hi]), ``opponents`` (agent ids and/or ``snapshot``),
    ``max_turns``, ``rules``, ``shaped``, ``seed``.  Agent ids are roles (:data:`ROLES`).  Counters:
    ``illegal_actions`` (exposed actions outside the mask), ``decisions`` (exposed actions), ``episodes``.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        from fandonia_env.envs import fandonia_v1

        ctx = config if config is not None else {}
        cfg = dict(ctx)
        players = cfg.get("players", [2, 6])
        lo, hi = (players, players) if isinstance(players, int) else (int(players[0]), int(players[1]))
        if not 2 <= lo <= hi <= 6:
            raise ValueError(f"players must be an int 2..6 or [lo, hi] with 2 <= lo <= hi <= 6, got {players!r}")
        self.lo, self.hi = lo, hi
        self.opponents = list(cfg.get("opponents", ["random-v1"]))
        if not self.opponents:
            raise ValueError("opponents must list at least one agent id or 'snapshot'")
        from fandonia_env.agents import check_agent

        for o in self.opponents:
            if o != SNAPSHOT:
                check_agent(o)
        self.max_turns = cfg.get("max_turns", 60)
        self.rules = dict(cfg.get("rules") or {})
        self.shaped = bool(cfg.get("shaped", False))
        self._fandonia_v1 = fandonia_v1
        super().__init__(self._make_inner(hi))
        space = self.env.observation_space(self.env.possible_agents[0])
        # another encoder than the env's own v1 vector: every exposed seat observes enc.encode(state, seat)
        self._enc = None
        if cfg.get("encoder", "v1") != "v1":
            from fandonia_env.spaces.encoders import get_encoder

            self._enc = get_encoder(cfg["encoder"])
            space = gym.spaces.Dict({"observation": gym.spaces.Box(-np.inf, np.inf, (self._enc.size,), np.float32),
                                     "action_mask": space["action_mask"]})
        aspace = self.env.action_space(self.env.possible_agents[0])
        self.possible_agents = list(ROLES)
        self.agents = []
        self._agent_ids = set(ROLES)
        self.observation_spaces = {r: space for r in ROLES}
        self.action_spaces = {r: aspace for r in ROLES}
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.action_space = gym.spaces.Dict(self.action_spaces)
        # a different stream per env runner and per vector sub-env
        wi = int(getattr(ctx, "worker_index", 0) or 0)
        vi = int(getattr(ctx, "vector_index", 0) or 0)
        self._rng = np.random.default_rng([int(cfg.get("seed", 0)), wi, vi, 0xF4])
        self.illegal_actions = 0
        self.decisions = 0
        self.episodes = 0
        self.role_of: dict[str, str] = {}
        self.bots: dict[str, Any] = {}

    def _make_inner(self, n: int) -> Any:
        return self._fandonia_v1.env(players=n, max_turns=self.max_turns, shaped=self.shaped, **self.rules)

    @property
    def game(self) -> Any:
        """The engine game of the current episode."""
        return self.env.unwrapped.game

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self._rng = np.random.default_rng([int(seed), 0xF4])
        import fandonia_env.agents as registry

        while True:
            n = int(self._rng.integers(self.lo, self.hi + 1))
            self.opponent = self.opponents[int(self._rng.integers(len(self.opponents)))]
            self.seat = int(self._rng.integers(n))
            self.env = self._make_inner(n)
            seats = self.env.possible_agents
            self.role_of, self.bots = {seats[self.seat]: LEARNER}, {}
            k = 0
            for i, s in enumerate(seats):
                if i == self.seat:
                    continue
                k += 1
                if self.opponent == SNAPSHOT:
                    self.role_of[s] = f"opponent_{k}"
                else:
                    sd = int(self._rng.integers(2**31 - 1))
                    bot = registry.make_agent(self.opponent, seed=sd)
                    bot.reset(sd)
                    self.bots[s] = bot
            self._ep_illegal = 0
            self._seen: set[str] = set()
            obs, _ = super().reset(seed=int(self._rng.integers(2**31 - 1)))
            out = self._advance(obs, {}, {}, {}, {})
            if out[0]:  # an exposed seat must decide (a game over before any is redrawn)
                self.agents = [r for r in ROLES if r in self.role_of.values()]
                self.episodes += 1
                return out[0], out[4]

    def _advance(self, obs: dict, rew: dict, term: dict, trunc: dict, info: dict) -> tuple[dict, ...]:
        """Play the scripted seats until an exposed seat decides or the game ends; role-keyed dicts."""
        from fandonia_env.engine.face.hidden import InfoSet

        while self.env.agents and self.env.agent_selection in self.bots:
            s = self.env.agent_selection
            g = self.game
            p = self.env.unwrapped.agent_name_mapping[s]
            a = self.bots[s].act(g.seat_view(p), g.legal_actions(), InfoSet(g.state, p))
            obs, r2, term, trunc, info = super().step({s: a})
            for k, v in r2.items():
                rew[k] = rew.get(k, 0.0) + v
        done = not self.env.agents
        o, r, te, tr, inf = {}, {}, {}, {}, {}
        for s, ob in obs.items():
            role = self.role_of.get(s)
            if role is None or (done and role not in self._seen):
                continue  # a scripted seat, or an exposed one that never decided
            self._seen.add(role)
            if self._enc is not None:
                p = self.env.unwrapped.agent_name_mapping[s]
                ob = dict(ob, observation=self._enc.encode(self.game.state, p))
            o[role] = ob
            r[role] = float(rew.get(s, 0.0))
            te[role] = bool(term.get(s, False))
            tr[role] = bool(trunc.get(s, False))
            inf[role] = dict(info.get(s, {}))
        if done:
            g = self.game
            st = g.state
            won = st.result == "win" and st.winner == self.seat
            if LEARNER in inf:
                inf[LEARNER].update(result=st.result if not self.env.unwrapped._ended else "illegal_move",
                                    learner_won=bool(won), players=g.n_players, opponent=self.opponent,
                                    illegal_actions=self._ep_illegal, turns=st.turn)
            truncated = st.result == "truncated"
            te["__all__"], tr["__all__"] = not truncated, truncated
        else:
            te["__all__"] = tr["__all__"] = False
        return o, r, te, tr, inf

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, ...]:
        s = self.env.agent_selection
        role = self.role_of.get(s)
        if role is None or s in self.bots or role not in action_dict:
            raise ValueError(f"step: {s} ({role or 'scripted'}) must act; got actions for {sorted(action_dict)}")
        a = action_dict[role]
        a = int(a.item() if isinstance(a, np.ndarray) else a)
        if a not in self.game.legal_actions():
            self.illegal_actions += 1
            self._ep_illegal += 1
        self.decisions += 1
        obs, rew, term, trunc, info = super().step({s: a})
        return self._advance(obs, dict(rew), term, trunc, info)


def policy_mapping_fn(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """``learner`` -> the learning module; every exposed opponent seat -> the frozen ``snapshot``."""
    return LEARNER if agent_id == LEARNER else SNAPSHOT


class FandoniaCallbacks(RLlibCallback):
    """Logs the learner's result of every finished training game and the illegal-action count."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        ae = episode.agent_episodes.get(LEARNER) if hasattr(episode, "agent_episodes") else None
        if ae is None or metrics_logger is None or len(ae) == 0:
            return
        info = ae.get_infos(-1)
        if "result" not in info:
            return
        metrics_logger.log_value("learner_win_share", float(info["learner_won"]), window=500)
        metrics_logger.log_value(f"learner_win_share_vs_{info['opponent']}", float(info["learner_won"]), window=500)
        metrics_logger.log_value("illegal_actions", int(info["illegal_actions"]), reduce="lifetime_sum")
        metrics_logger.log_value("truncated_share", float(info["result"] == "truncated"), window=500)


# ---------------------------------------------------------------------------
# The RLModule: training.model.PolicyNet with the action mask applied
# ---------------------------------------------------------------------------


class MaskedPolicyModule(TorchRLModule, ValueFunctionAPI):
    """``PolicyNet`` (flat + entity heads, value head) as an RLlib module; illegal logits -> FLOAT_MIN.

    The observation is the env's Dict ``{"observation", "action_mask"}``.  ``model_config``: ``encoder``
    (``v1``), ``hidden``, ``entity_hidden``, ``entity_dim``, ``init`` (a ``.pt`` checkpoint to load)."""

    def setup(self) -> None:
        from fandonia_env.engine.core.actions import NUM_ACTIONS
        from fandonia_env.spaces.encoders import get_encoder

        from .model import PolicyNet, load_checkpoint, widen_input

        mc = dict(self.model_config or {})
        self.encoder_name = mc.get("encoder", "v1")
        enc = get_encoder(self.encoder_name)
        self.net = PolicyNet.for_encoder(enc, NUM_ACTIONS, list(mc.get("hidden", [256, 256])),
                                         int(mc.get("entity_hidden", 64)), int(mc.get("entity_dim", 32)))
        if mc.get("init"):
            src, ck = load_checkpoint(mc["init"])
            old = ck["header"].get("encoder")
            if old is not None and old != enc.name and enc.extends == old:
                src = widen_input(src, get_encoder(old), enc)  # the new inputs start at zero weight
            elif ck["header"].get("encoder_fingerprint") not in (None, enc.fingerprint):
                raise ValueError(f"init {mc['init']}: trained on another observation layout "
                                 f"({old}); this env uses {enc.name}")
            self.net.load_state_dict(src.state_dict())

    def _logits_value(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS]
        x = obs["observation"].float()
        legal = obs["action_mask"] > 0
        logits, value = self.net(x, None)
        return logits.masked_fill(~legal, FLOAT_MIN), value

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, _ = self._logits_value(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, value = self._logits_value(batch)
        # the value of the same forward pass rides along as the "embeddings" compute_values receives
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: value}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is not None:
            return embeddings
        return self._logits_value(batch)[1]


def _module_spec(cfg: dict[str, Any]) -> RLModuleSpec:
    return RLModuleSpec(module_class=MaskedPolicyModule,
                        model_config={"encoder": cfg["encoder"], "hidden": list(cfg["hidden"]),
                                      "entity_hidden": cfg["entity_hidden"], "entity_dim": cfg["entity_dim"],
                                      "init": cfg["init"]})


def env_config(cfg: dict[str, Any]) -> dict[str, Any]:
    return {"players": cfg["players"], "opponents": list(cfg["opponents"]), "max_turns": cfg["max_turns"],
            "rules": dict(cfg["rules"]), "shaped": cfg["shaped"], "seed": cfg["seed"], "encoder": cfg["encoder"]}


def check_config(cfg: dict[str, Any]) -> None:
    """Values the schema's types cannot check; a ConfigError naming the key."""
    p = cfg["players"]
    if isinstance(p, int):
        ok = 2 <= p <= 6
    else:
        ok = len(p) == 2 and all(isinstance(v, int) for v in p) and 2 <= p[0] <= p[1] <= 6
    if not ok:
        raise ConfigError(f"key 'players' must be an int 2..6 or [lo, hi] with 2 <= lo <= hi <= 6, got {p!r}")
    if not cfg["opponents"]:
        raise ConfigError("key 'opponents' must list at least one agent id or 'snapshot'")
    from fandonia_env.agents import check_agent

    for key in ("opponents", "eval_anchors"):
        for o in cfg[key]:
            if key == "opponents" and o == SNAPSHOT:
                continue
            try:
                check_agent(o)
            except ValueError as e:
                raise ConfigError(f"key {key!r}: {e}") from None
    for key in ("iterations", "train_batch_size", "minibatch_size", "num_epochs", "num_envs_per_env_runner",
                "checkpoint_every", "keep_checkpoints", "snapshot_every", "eval_games"):
        if cfg[key] < 1:
            raise ConfigError(f"key {key!r} must be >= 1, got {cfg[key]}")
    for key in ("num_env_runners", "num_learners"):
        if cfg[key] < 0:
            raise ConfigError(f"key {key!r} must be >= 0, got {cfg[key]}")
    if cfg["encoder"] not in ("v1", "v1r"):
        raise ConfigError(f"key 'encoder' must be 'v1' or 'v1r' (the env's vector, or it + the rule features), "
                          f"got {cfg['encoder']!r}")
    if not 2 <= cfg["eval_players"] <= 6:
        raise ConfigError(f"key 'eval_players' must be 2..6, got {cfg['eval_players']}")
    if not cfg["hidden"] or not all(isinstance(h, int) and h > 0 for h in cfg["hidden"]):
        raise ConfigError(f"key 'hidden' must list positive layer sizes, got {cfg['hidden']!r}")


def build_config(cfg: dict[str, Any]) -> PPOConfig:
    """The RLlib ``PPOConfig`` of a validated training config."""
    snapshot = SNAPSHOT in cfg["opponents"]
    modules = {LEARNER: _module_spec(cfg)}
    if snapshot:
        modules[SNAPSHOT] = _module_spec(cfg)
    c = (
        PPOConfig()
        .environment(FandoniaMultiAgentEnv, env_config=env_config(cfg), disable_env_checking=True)
        .multi_agent(policies=set(modules), policy_mapping_fn=policy_mapping_fn, policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .env_runners(num_env_runners=cfg["num_env_runners"], num_envs_per_env_runner=cfg["num_envs_per_env_runner"],
                     num_cpus_per_env_runner=cfg["num_cpus_per_env_runner"], rollout_fragment_length="auto")
        .learners(num_learners=cfg["num_learners"], num_gpus_per_learner=cfg["num_gpus_per_learner"])
        .training(train_batch_size_per_learner=cfg["train_batch_size"], minibatch_size=cfg["minibatch_size"],
                  num_epochs=cfg["num_epochs"], lr=cfg["lr"], gamma=cfg["gamma"], lambda_=cfg["lambda_"],
                  clip_param=cfg["clip_param"], entropy_coeff=cfg["entropy_coeff"],
                  vf_loss_coeff=cfg["vf_loss_coeff"], grad_clip=cfg["grad_clip"], vf_clip_param=10.0)
        .callbacks(FandoniaCallbacks)
        .debugging(seed=cfg["seed"], log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=200)
    )
    return c


def _count(v: Any, default: int) -> int:
    """An RLlib counter as an int; ``default`` when it is missing or not finite (NaN after a runner restart)."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return default
    return int(f) if math.isfinite(f) else default


def init_ray(cfg: dict[str, Any]) -> None:
    """``ray.init``: the cluster at ``address``, else a local Ray on ``num_cpus`` cores."""
    if ray.is_initialized():
        return
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    if cfg["address"]:
        # a cluster: every node needs this project (installed, or shipped by `ray job submit --working-dir .`)
        ray.init(address=cfg["address"], log_to_driver=False)
    else:
        ray.init(num_cpus=cfg["num_cpus"], include_dashboard=False, log_to_driver=False,
                 object_store_memory=cfg["object_store_mb"] * 2**20)


# ---------------------------------------------------------------------------
# Weights, export, checkpoints
# ---------------------------------------------------------------------------


def learner_net(algo: Any) -> Any:
    """A ``fandonia_env.training.model.PolicyNet`` holding the learner module's current weights (from the learner)."""
    state = algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]
    return net_from_state(state, algo.config.rl_module_spec.rl_module_specs[LEARNER].model_config)


def net_from_state(state: dict[str, Any], model_config: dict[str, Any]) -> Any:
    from fandonia_env.engine.core.actions import NUM_ACTIONS
    from fandonia_env.spaces.encoders import get_encoder

    from .model import PolicyNet

    enc = get_encoder(model_config.get("encoder", "v1"))
    net = PolicyNet.for_encoder(enc, NUM_ACTIONS, list(model_config["hidden"]), int(model_config["entity_hidden"]),
                                int(model_config["entity_dim"]))
    sd = {k[len("net."):]: torch.as_tensor(np.asarray(v)) for k, v in state.items() if k.startswith("net.")}
    net.load_state_dict(sd)
    return net


def export_policy(net: Any, path: str | Path, steps: int, extra: dict[str, Any] | None = None,
                  encoder: str = "v1") -> Path:
    """``net`` as the ``.npz`` agent format (``ppo:PATH``), with the training step in its header."""
    from fandonia_env.spaces.encoders import get_encoder

    from .model import export_npz

    return export_npz(net, path, get_encoder(encoder), extra={"steps": int(steps), "trainer": "rllib-ppo",
                                                           "ray": ray.__version__, **(extra or {})})


def module_checkpoint_dir(checkpoint: str | Path, module_id: str = LEARNER) -> Path:
    """Where an Algorithm checkpoint keeps a module's own checkpoint."""
    return Path(checkpoint) / "learner_group" / "learner" / "rl_module" / module_id


def load_module(checkpoint: str | Path, module_id: str = LEARNER) -> MaskedPolicyModule:
    """The module ``module_id`` restored from an Algorithm checkpoint directory (no Ray needed)."""
    d = module_checkpoint_dir(checkpoint, module_id)
    if not d.is_dir():
        raise FileNotFoundError(f"{checkpoint}: no module checkpoint {module_id!r} (expected {d})")
    return RLModule.from_checkpoint(str(d.resolve()))


def latest_checkpoint(out: str | Path) -> Path | None:
    cks = sorted((Path(out) / "checkpoints").glob("iter_*"))
    return cks[-1] if cks else None


def module_act(module: MaskedPolicyModule, obs: dict[str, np.ndarray], greedy: bool = True,
               generator: torch.Generator | None = None) -> int:
    """The module's action for one env observation (argmax, or a sample of the masked policy)."""
    batch = {Columns.OBS: {"observation": torch.as_tensor(obs["observation"][None]),
                           "action_mask": torch.as_tensor(obs["action_mask"][None])}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    if greedy:
        return int(logits.argmax())
    return int(torch.multinomial(torch.softmax(logits, -1), 1, generator=generator))


def play_games(module: MaskedPolicyModule, players: int, games: int, opponent: str = "random-v1",
               seed: int = 0, max_turns: int | None = 60, greedy: bool = False) -> dict[str, Any]:
    """Play ``games`` complete games of ``players`` with ``module`` in the learner's seat (the env
    above: ``opponent`` in every other seat); results, learner wins and illegal actions."""
    env = FandoniaMultiAgentEnv({"players": players, "opponents": [opponent], "max_turns": max_turns, "seed": seed})
    gen = torch.Generator().manual_seed(seed)
    results: list[str] = []
    wins = decisions = 0
    for _ in range(games):
        obs, _ = env.reset()
        while True:
            actions = {role: module_act(module, ob, greedy, gen) for role, ob in obs.items()}
            decisions += len(actions)
            obs, _rew, term, trunc, info = env.step(actions)
            if term["__all__"] or trunc["__all__"]:
                results.append(info[LEARNER]["result"])
                wins += int(info[LEARNER]["learner_won"])
                break
    return {"players": players, "games": games, "results": results, "learner_wins": wins,
            "decisions": decisions, "illegal_actions": env.illegal_actions}


def count_illegal(algo: Any) -> tuple[int, int]:
    """(illegal actions, decisions) summed over every env of every env runner."""

    def f(er: Any) -> tuple[int, int]:
        if getattr(er, "env", None) is None:
            return (0, 0)
        envs = [e.unwrapped for e in er.env.envs]
        return (sum(e.illegal_actions for e in envs), sum(e.decisions for e in envs))

    res = algo.env_runner_group.foreach_env_runner(f, local_env_runner=True)
    return sum(r[0] for r in res), sum(r[1] for r in res)


def refresh_snapshot(algo: Any) -> None:
    """Copy the learner's weights into the frozen ``snapshot`` module (learner and env runners)."""
    state = algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]
    algo.set_state({"learner_group": {"learner": {"rl_module": {SNAPSHOT: state}}}})


# ---------------------------------------------------------------------------
# The loop
# ---------------------------------------------------------------------------


TRAIN_FIELDS = ("iteration", "env_steps", "episodes", "samples_per_s", "iter_s", "learner_win_share",
                "illegal_actions", "truncated_share", "policy_loss", "vf_loss", "entropy")


def _get(d: Any, *keys: str, default: Any = None) -> Any:
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return default
        d = d[k]
    return d


def _evaluate(cfg: dict[str, Any], out: Path, policy: Path, step: int) -> list[dict[str, Any]]:
    from .evaluate import evaluate

    ecfg = {"policy": str(policy), "anchors": list(cfg["eval_anchors"]), "players": cfg["eval_players"],
            "games": cfg["eval_games"], "seed": 10_000, "max_turns": cfg["max_turns"], "jobs": cfg["eval_jobs"],
            "csv": str(out / "eval.csv"), "out": None, "step": step, "rules": dict(cfg["rules"]), "plot": True,
            "progress": False}
    rows = evaluate(ecfg)
    for r in rows:
        print(f"  eval step {step}: vs {r['players'] - 1}x {r['anchor']}: win share {r['win_share']:.3f} "
              f"[{r['ci_lo']:.3f}, {r['ci_hi']:.3f}] ({r['games']} games, fair {r['fair']:.3f})", flush=True)
    return rows


def train(cfg: dict[str, Any], resume: bool = False) -> dict[str, Any]:
    """Run the training loop of a validated config; a summary dict."""
    check_config(cfg)
    seed_everything(cfg["seed"])
    out = prepare_out(cfg["out"], cfg, "rllib")
    init_ray(cfg)
    algo = build_config(cfg).build_algo()
    start = 0
    if resume:
        ck = latest_checkpoint(out)
        if ck is None:
            raise ConfigError(f"--resume: no checkpoint under {out / 'checkpoints'}")
        algo.restore_from_path(str(ck.resolve()))
        start = int(ck.name.split("_")[1])
        print(f"resumed from {ck} (iteration {start})", flush=True)
    snapshot = SNAPSHOT in cfg["opponents"]
    if snapshot and not resume:
        refresh_snapshot(algo)
    if cfg["eval_every"] > 0 and not resume:  # the starting point of the learning curve
        _evaluate(cfg, out, export_policy(learner_net(algo), out / "policies" / "step_0.npz", 0, encoder=cfg["encoder"]), 0)
    new_csv = not (out / "train.csv").exists() or not resume
    fcsv = open(out / "train.csv", "w" if new_csv else "a", newline="")
    w = csv.DictWriter(fcsv, fieldnames=TRAIN_FIELDS)
    if new_csv:
        w.writeheader()
    steps = 0
    last: dict[str, Any] = {}
    t_all = time.perf_counter()
    try:
        for it in range(start + 1, cfg["iterations"] + 1):
            t0 = time.perf_counter()
            res = algo.train()
            dt = time.perf_counter() - t0
            er = res.get("env_runners", {})
            # an iteration whose env runner was restarted by Ray reports NaN counts: keep the last total
            steps = _count(_get(res, "num_env_steps_sampled_lifetime", default=0)
                           or er.get("num_env_steps_sampled_lifetime", 0), steps)
            sampled = _count(er.get("num_env_steps_sampled", 0), 0)
            lr_stats = _get(res, "learners", LEARNER, default={}) or {}
            row = {"iteration": it, "env_steps": steps, "episodes": er.get("num_episodes_lifetime", ""),
                   "samples_per_s": round(sampled / dt, 1) if dt > 0 else "", "iter_s": round(dt, 2),
                   "learner_win_share": er.get("learner_win_share", ""),
                   "illegal_actions": er.get("illegal_actions", 0), "truncated_share": er.get("truncated_share", ""),
                   "policy_loss": lr_stats.get("policy_loss", ""), "vf_loss": lr_stats.get("vf_loss", ""),
                   "entropy": lr_stats.get("entropy", "")}
            w.writerow(row)
            fcsv.flush()
            last = row
            if cfg["progress"]:
                def fmt(v: Any) -> str:
                    return f"{v:.3f}" if isinstance(v, float) else str(v)

                print(f"iter {it}/{cfg['iterations']}: {steps} env steps, {row['samples_per_s']} samples/s, "
                      f"learner win share {fmt(row['learner_win_share'])}, illegal {row['illegal_actions']}, "
                      f"entropy {fmt(row['entropy'])}", flush=True)
            if snapshot and it % cfg["snapshot_every"] == 0:
                refresh_snapshot(algo)
            final = it == cfg["iterations"]
            if it % cfg["checkpoint_every"] == 0 or final:
                ck = out / "checkpoints" / f"iter_{it:05d}"
                algo.save_to_path(str(ck.resolve()))
                for old in sorted((out / "checkpoints").glob("iter_*"))[:-cfg["keep_checkpoints"]]:
                    shutil.rmtree(old, ignore_errors=True)
            if (cfg["eval_every"] > 0 and it % cfg["eval_every"] == 0) or (final and cfg["eval_every"] >= 0):
                pol = export_policy(learner_net(algo), out / "policies" / f"step_{steps}.npz", steps,
                                    encoder=cfg["encoder"])
                _evaluate(cfg, out, pol, steps)
        policy = export_policy(learner_net(algo), out / "policy.npz", steps, encoder=cfg["encoder"])
        illegal, decisions = count_illegal(algo)
    finally:
        fcsv.close()
        algo.stop()
    summary = {"iterations": cfg["iterations"], "env_steps": steps, "illegal_actions": illegal,
               "decisions": decisions, "policy": str(policy), "checkpoint": str(latest_checkpoint(out)),
               "wall_s": round(time.perf_counter() - t_all, 1), "last": last}
    (out / "rllib_summary.json").write_text(json.dumps(summary, indent=2, default=str))
    plot_curve(out, out / "curve.png")
    return summary


def plot_curve(out: str | Path, png: str | Path) -> bool:
    """The learner's win share vs env steps: in its training games (the sampled policy, from
    ``train.csv``) and in the tournament evaluations (argmax, ``eval.csv``, 95% CI), one line per
    anchor; False without matplotlib or data."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    out = Path(out)
    train_rows = list(csv.DictReader(open(out / "train.csv"))) if (out / "train.csv").exists() else []
    eval_rows = list(csv.DictReader(open(out / "eval.csv"))) if (out / "eval.csv").exists() else []
    if not train_rows and not eval_rows:
        return False
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    # training games: the iteration's win share x its new episodes = its wins; a rolling share over 5 iterations
    pts, hist, prev = [], [], 0.0
    for r in train_rows:
        eps = float(r["episodes"] or 0)
        new, prev = eps - prev, eps
        if r["learner_win_share"] != "" and new > 0:
            hist.append((float(r["learner_win_share"]) * new, new))
            w, n = (sum(h[i] for h in hist[-5:]) for i in (0, 1))
            pts.append((int(r["env_steps"]), w / n))
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], ".-", alpha=0.6,
                label="training games (sampled policy), rolling over 5 iterations")
    series: dict[tuple[str, int], list[tuple[int, float, float, float]]] = {}
    for r in eval_rows:
        series.setdefault((r["anchor"], int(r["players"])), []).append(
            (int(r["step"]), float(r["win_share"]), float(r["ci_lo"]), float(r["ci_hi"])))
    for (anchor, n), ps in sorted(series.items()):
        ps.sort()
        x, y = [p[0] for p in ps], [p[1] for p in ps]
        ax.errorbar(x, y, yerr=[[max(0.0, v - p[2]) for v, p in zip(y, ps)], [max(0.0, p[3] - v) for v, p in zip(y, ps)]],
                    marker="o", capsize=3, label=f"tournament vs {n - 1}x {anchor} (argmax, 95% CI)")
        ax.axhline(1 / n, ls=":", color="grey", lw=1)
    ax.set_xlabel("env steps (learner decisions)")
    ax.set_ylabel("learner win share")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(f"RLlib PPO ({out.name})", fontsize=9)
    fig.tight_layout()
    Path(png).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return True


def bench_sampling(cfg: dict[str, Any], steps: int, repeats: int = 3) -> dict[str, Any]:
    """Sampling throughput alone: every remote env runner samples ``steps`` env steps at once
    (``repeats`` times after one warm-up); samples/s over all runners (no learning)."""
    check_config(cfg)
    init_ray(cfg)
    algo = build_config(cfg).build_algo()
    group = algo.env_runner_group
    remote = cfg["num_env_runners"] > 0

    def sample(er: Any) -> int:
        return int(sum(e.env_steps() for e in er.sample(num_timesteps=steps, explore=True)))

    try:
        group.foreach_env_runner(sample, local_env_runner=not remote)  # warm-up
        rates = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            n = sum(group.foreach_env_runner(sample, local_env_runner=not remote))
            rates.append(n / (time.perf_counter() - t0))
    finally:
        algo.stop()
    r = {"num_env_runners": cfg["num_env_runners"], "num_envs_per_env_runner": cfg["num_envs_per_env_runner"],
         "steps_per_runner": steps, "samples_per_s": [round(x, 1) for x in rates],
         "median_samples_per_s": round(float(np.median(rates)), 1)}
    return r


def main(argv: list[str] | None = None) -> int:
    ap = arg_parser("python -m fandonia_env.training.rllib_train", __doc__)
    ap.add_argument("--address", default=None, help="Ray cluster address (overrides the config's address)")
    ap.add_argument("--resume", action="store_true", help="continue from the last checkpoint in out")
    ap.add_argument("--plot", default=None, metavar="PNG", help="only redraw the curve of out into PNG")
    ap.add_argument("--bench", type=int, default=None, metavar="STEPS",
                    help="measure sampling throughput only: each env runner samples STEPS env steps, 3 times")
    a = ap.parse_args(argv)
    try:
        cfg = load_config(a.config, SCHEMA, a.set)
        if a.address is not None:
            cfg["address"] = a.address
        if a.plot is not None:
            print(f"wrote {a.plot}" if plot_curve(cfg["out"], a.plot) else "nothing to plot")
            return 0
        if a.bench is not None:
            print(json.dumps(bench_sampling(cfg, a.bench)))
            return 0
        summary = train(cfg, resume=a.resume)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"done: {summary['env_steps']} env steps, {summary['illegal_actions']} illegal actions in "
          f"{summary['decisions']} decisions; policy {summary['policy']}; checkpoint {summary['checkpoint']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Minari datasets of a noble's games, written through Minari's own ``DataCollector`` (docs/datasets.md).

One episode is one game from one seat, as the Gymnasium environment ``fandonia_env/Fandonia-v1`` (or -v0)
plays it: the noble decides for the recorded seat (a seat drawn per episode), the other seats are played
inside ``step()`` by the opponents (the noble itself unless told otherwise).  Each step stores:

* ``observations``: ``{"observation": the seat's encoder vector (float16 by default, as the project's own
  training data; the largest rounding error is in the metadata), "action_mask": the legal ids, int8 of 252}``;
  an episode has one more observation than actions (its last one, after the game, has an empty mask);
* ``actions`` (catalogue ids), ``rewards`` (docs/rewards.md: +1 / -1/(n-1) at the end, else 0),
  ``terminations`` (a win or a draw), ``truncations`` (the turn limit);
* ``infos``: ``seat``, ``players``, ``turn`` and ``kind`` (the index of the decision kind in the metadata's
  ``decision_kinds``, -1 after the game).

Episode ``k`` is ``env.reset(seed=seed + k)`` (Minari keeps each episode's seed), so an episode replays:
the same reset and the recorded actions give the same game.  The dataset's metadata (``fandonia`` key):
the noble and opponent ids, the table size, preset, edition, optional rules, turn limit, observation
encoder and dtype, the seeds, the decision kinds and the project's version.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import time
import warnings
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from minari import DataCollector, StepDataCallback

from fandonia_env.agents import check_agent, make_agent
from fandonia_env.engine import InfoSet, make_config
from fandonia_env.engine.core.actions import NUM_ACTIONS
from fandonia_env.engine.core.records import DECISION_CONTEXTS
from fandonia_env.envs.common import DEFAULT_MAX_TURNS
from fandonia_env.spaces.encoders import Encoder, get_encoder
from fandonia_env.tools.cli import Progress

__all__ = ["DECISION_KINDS", "DTYPES", "OBSERVATIONS", "check_dataset", "create_dataset", "dataset_id_for", "project_version"]

#: the decision kinds, in a fixed order: ``infos["kind"]`` indexes it
DECISION_KINDS: tuple[str, ...] = tuple(sorted(DECISION_CONTEXTS))
#: the encoders a dataset's observations may come from, and the registered environment each is recorded with
#: (its own observation is the encoder's for v1 and v0; v1r, v1b and v1c extend v1's vector)
OBSERVATIONS = {"v1": "fandonia_env/Fandonia-v1", "v1r": "fandonia_env/Fandonia-v1", "v1b": "fandonia_env/Fandonia-v1",
                "v1c": "fandonia_env/Fandonia-v1", "v0": "fandonia_env/Fandonia-v0"}
DTYPES = ("float16", "float32")


def project_version() -> str:
    try:
        return importlib.metadata.version("fandonia_env")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a source tree not installed
        return "unknown"


def dataset_id_for(noble: str, players: int, rules: dict[str, Any], observation: str = "v1") -> str:
    """The default id: ``fandonia/<noble>-<n>p-<preset or edition[-optional...]>[-<observation>]-v0`` (the
    observation named when it is not ``v1``)."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", noble).strip("-")
    if rules.get("preset"):
        r = rules["preset"]
    else:
        cfg = make_config(**rules)
        r = cfg["edition"] + ("-" + "-".join(cfg["optional"]) if cfg["optional"] else "")
    obs = "" if observation == "v1" else f"-{observation}"
    return f"fandonia/{slug}-{players}p-{re.sub(r'[^A-Za-z0-9]+', '-', r)}{obs}-v0"


class _Steps(StepDataCallback):
    """The step data: the seat's encoder vector with its action mask (the env's ``info["action_mask"]``), numeric
    infos.  An encoder with memory (``v1c``) reads the kind of the seat's previous decision, kept here."""

    encoder: Encoder
    dtype: Any = np.float16
    stats: dict[str, float]  # the collection's: the largest rounding error to dtype

    def __init__(self) -> None:
        self.prev: str | None = None  # the seat's previous decision kind (encoders with memory)
        self.pending: str | None = None  # the kind of the decision the next action answers

    def __call__(self, env: gym.Env, obs: Any, info: dict[str, Any], action: Any = None, rew: Any = None,
                 terminated: Any = None, truncated: Any = None) -> Any:
        data = super().__call__(env, obs, info, action, rew, terminated, truncated)
        base = env.unwrapped
        g = base.game
        self.prev = None if action is None else self.pending
        d = g.pending_decision() if not g.over else None
        mine = d is not None and d.player == base.seat
        self.pending = d.kind if mine else None
        x = seat_vector(self.encoder, g, base.seat, self.prev)
        xd = x.astype(self.dtype)
        self.stats["max_abs_error"] = max(self.stats["max_abs_error"], float(np.abs(xd.astype(np.float32) - x).max()))
        data["observation"] = {"observation": xd, "action_mask": np.asarray(info["action_mask"], dtype=np.int8)}
        data["info"] = {"seat": np.int8(base.seat), "players": np.int8(g.n_players), "turn": np.int16(g.state.turn),
                        "kind": np.int16(DECISION_KINDS.index(d.kind) if mine else -1)}
        return data


def seat_vector(encoder: Encoder, g: Any, seat: int, prev_kind: str | None) -> np.ndarray:
    """The seat's observation by ``encoder`` (what a playing agent computes from its own view)."""
    return encoder.encode(g.state, seat, prev_kind) if encoder.memory else encoder.encode(g.state, seat)


def _steps_class(observation: str, dtype: str, stats: dict[str, float]) -> type[_Steps]:
    return type(f"Steps_{observation}_{dtype}", (_Steps,),
                {"encoder": get_encoder(observation), "dtype": np.dtype(dtype).type, "stats": stats})


def _check_args(noble: str, players: int, episodes: int, opponents: str | Sequence[str] | None, observation: str,
                dtype: str) -> list[str]:
    """``create_dataset``'s arguments checked (a ValueError naming what is allowed); the opponents' ids."""
    check_agent(noble)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise ValueError(f"players must be an int from 2 to 6, got {players!r}")
    opp = [noble] * (players - 1) if opponents is None else \
        ([opponents] * (players - 1) if isinstance(opponents, str) else list(opponents))
    for o in dict.fromkeys(opp):
        check_agent(o)
    if len(opp) != players - 1:
        raise ValueError(f"give one opponent id or {players - 1} (one per other seat), got {len(opp)}")
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 1:
        raise ValueError(f"episodes must be an int >= 1, got {episodes!r}")
    if observation not in OBSERVATIONS:
        raise ValueError(f"observation must be one of {list(OBSERVATIONS)}, got {observation!r}")
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {list(DTYPES)}, got {dtype!r}")
    return opp


def create_dataset(noble: str, players: int, episodes: int, rules: dict[str, Any] | None = None,
                   opponents: str | Sequence[str] | None = None, seed: int = 0,
                   max_turns: int | None = DEFAULT_MAX_TURNS, observation: str = "v1", dtype: str = "float16",
                   dataset_id: str | None = None, out: str | None = None, progress: bool = True) -> Any:
    """Play ``episodes`` games with ``noble`` at a drawn seat and the ``opponents`` (default: the noble) at the
    others, record the noble's seat with Minari's ``DataCollector`` and create the dataset ``dataset_id``
    (default ``dataset_id_for``) under ``out`` (Minari's ``MINARI_DATASETS_PATH``; default Minari's own
    folder).  Returns the ``MinariDataset``.  Bad arguments raise ValueError naming what is allowed."""
    rules = dict(rules or {})
    opp = _check_args(noble, players, episodes, opponents, observation, dtype)
    cfg = make_config(players=players, max_turns=max_turns, **rules)  # the rules checked: ConfigError names them
    dataset_id = dataset_id or dataset_id_for(noble, players, rules, observation)
    if out is not None:
        os.makedirs(out, exist_ok=True)
        os.environ["MINARI_DATASETS_PATH"] = os.path.abspath(out)
    env = gym.make(OBSERVATIONS[observation], players=players, seat=None, opponents=opp, max_turns=max_turns,
                   **rules)
    base = env.unwrapped
    enc = get_encoder(observation)
    obs_space = gym.spaces.Dict({
        "observation": gym.spaces.Box(-np.inf, np.inf, (enc.size,), np.dtype(dtype)),
        "action_mask": gym.spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
    })
    stats = {"max_abs_error": 0.0}
    collector = DataCollector(env, step_data_callback=_steps_class(observation, dtype, stats), record_infos=True,
                              observation_space=obs_space, data_format="hdf5")
    agent = make_agent(noble, seed=seed)
    bar = Progress(episodes, unit="episode", desc="dataset", enabled=progress)
    steps = 0
    t0 = time.perf_counter()
    try:
        for k in range(episodes):
            collector.reset(seed=seed + k)
            agent.reset(seed + k)
            done = False
            while not done:
                g, p = base.game, base.seat
                a = agent.act(g.seat_view(p), g.legal_actions(), InfoSet(g.state, p))
                _, _, term, trunc, _ = collector.step(a)
                done = term or trunc
                steps += 1
            bar.update(1)
        meta = {
            "noble": noble, "opponents": opp, "players": players, "preset": rules.get("preset"),
            "edition": cfg["edition"], "optional": list(cfg["optional"]), "max_turns": max_turns,
            "observation": observation, "env_id": OBSERVATIONS[observation], "observation_dtype": dtype,
            "float16_max_abs_error": stats["max_abs_error"] if dtype == "float16" else 0.0,
            "seeds": {"first": seed, "last": seed + episodes - 1, "episode_k": "env.reset(seed=first + k)"},
            "decision_kinds": list(DECISION_KINDS), "project_version": project_version(),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        with warnings.catch_warnings():  # Minari asks for an author e-mail, which a generated dataset has none of
            warnings.filterwarnings("ignore", message=".*author_email.*", category=UserWarning)
            ds = collector.create_dataset(
                dataset_id=dataset_id, eval_env=env.spec, algorithm_name=noble, author="fandonia_env",
                code_permalink="fandonia_env.datasets create (docs/datasets.md)",
                description=(f"{noble} at one seat of {players}-player games of Down With The King "
                             f"({cfg['edition']} edition, optional rules: {', '.join(cfg['optional']) or 'none'}; "
                             f"turn limit {max_turns or 'none'}), the other seats {', '.join(dict.fromkeys(opp))}; "
                             f"observations: the {observation} encoder ({dtype}) with the action mask"),
                requirements=[f"fandonia_env[datasets]=={project_version()}"],
            )
        ds.storage.update_metadata({"fandonia": meta})
    finally:
        bar.close()
        collector.close()
    return ds


def check_dataset(ds: Any, episodes: int | None = None) -> dict[str, Any]:
    """Replay the dataset's episodes (the first ``episodes``, default all) in the environment it names: the
    same reset seed, then its actions.  At every step the recorded action mask must be the engine's legal
    actions of the noble's seat (empty after the game), the action one of them, and the observation the
    environment's (rounded to the dataset's dtype); the rewards, terminations and truncations the env's.
    Returns the counts; a ValueError names the first step that disagrees."""
    meta = ds.storage.metadata.get("fandonia")
    if not isinstance(meta, dict):
        raise ValueError("the dataset has no 'fandonia' metadata: make it with python -m fandonia_env.datasets create")
    env = ds.recover_environment()
    base = env.unwrapped
    dtype = np.dtype(meta["observation_dtype"])
    enc = get_encoder(meta["observation"])
    ids = list(ds.episode_indices)[:episodes]
    seeds = {m["id"]: m["seed"] for m in ds.storage.get_episode_metadata(ids)}
    steps = 0
    try:
        for ep in ds.iterate_episodes(ids):
            env.reset(seed=int(seeds[ep.id]))
            o = ep.observations
            prev: str | None = None
            for t in range(len(ep.actions) + 1):
                g = base.game
                legal = sorted(g.legal_actions(base.seat)) if t < len(ep.actions) else []
                got = np.flatnonzero(o["action_mask"][t]).tolist()
                if got != legal:
                    raise ValueError(f"episode {ep.id} step {t}: the action mask {got} is not the engine's legal "
                                     f"actions {legal}")
                if not np.array_equal(o["observation"][t], seat_vector(enc, g, base.seat, prev).astype(dtype)):
                    raise ValueError(f"episode {ep.id} step {t}: the observation differs from the seat's "
                                     f"{enc.name} vector")
                if t == len(ep.actions):
                    break
                prev = g.pending_decision().kind
                a = int(ep.actions[t])
                if a not in legal:
                    raise ValueError(f"episode {ep.id} step {t}: action {a} is not legal ({legal})")
                _, r, term, trunc, _ = env.step(a)
                if (r, term, trunc) != (ep.rewards[t], ep.terminations[t], ep.truncations[t]):
                    raise ValueError(f"episode {ep.id} step {t}: reward/termination/truncation {(r, term, trunc)} "
                                     f"!= recorded {(ep.rewards[t], ep.terminations[t], ep.truncations[t])}")
                steps += 1
            if not (term or trunc):
                raise ValueError(f"episode {ep.id}: the recorded actions end before the game does")
    finally:
        env.close()
    return {"episodes": len(ids), "steps": steps}

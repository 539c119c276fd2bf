"""Behaviour cloning from a Minari dataset (docs/datasets.md): the dataset's steps become the project's
imitation shards and ``fandonia_env.training.imitate`` trains its masked policy on them; the exported
``policy.npz`` plays anywhere as ``ppo:<out>/policy.npz`` (the tournament measures it).

    python -m fandonia_env.datasets bc --dataset fandonia/noble-rule-v1-4p-errata-v0 --out runs/bc

Each step of an episode is a decision of the dataset's noble: the observation (the encoder the dataset
names), its action mask, the action, the decision kind (``infos["kind"]``) and the episode's outcome for
that seat (the sum of its rewards), split into train and held-out sets by episode.  Needs the ``datasets``
and ``train`` extras.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from fandonia_env.engine.core.actions import NUM_ACTIONS
from fandonia_env.spaces.encoders import get_encoder
from fandonia_env.training.common import validate

__all__ = ["behaviour_clone", "fandonia_metadata", "load", "to_shards"]

SHARD_EPISODES = 100


def load(dataset_id: str, path: str | None = None) -> Any:
    """``minari.load_dataset(dataset_id)``, from ``path`` (Minari's ``MINARI_DATASETS_PATH``) when given."""
    import os

    import minari

    if path is not None:
        os.environ["MINARI_DATASETS_PATH"] = os.path.abspath(path)
    return minari.load_dataset(dataset_id)


def fandonia_metadata(ds: Any) -> dict[str, Any]:
    """The ``fandonia`` block of a dataset's metadata (``create_dataset``); a ValueError if it has none."""
    meta = ds.storage.metadata.get("fandonia")
    if not isinstance(meta, dict):
        raise ValueError(f"dataset {ds.spec.dataset_id if hasattr(ds, 'spec') else ds}: no 'fandonia' metadata; "
                         "make it with python -m fandonia_env.datasets create")
    return meta


def to_shards(ds: Any, out: str | Path) -> dict[str, Any]:
    """Write the dataset's steps as the collect stage's shards (``out/shard_NNNNN.npz``, ``SHARD_EPISODES``
    episodes each; game number = episode id); returns a summary."""
    meta = fandonia_metadata(ds)
    enc = get_encoder(meta["observation"])
    kinds: list[str] = meta["decision_kinds"]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    parts: dict[str, list[np.ndarray]] = {}
    shard, steps, episodes = 0, 0, 0

    def flush() -> None:
        nonlocal shard, parts
        if not parts:
            return
        cat = {k: np.concatenate(v) for k, v in parts.items()}
        used = sorted(set(cat["kind"].tolist()))
        names = [kinds[i] if i >= 0 else "none" for i in used]
        remap = {k: j for j, k in enumerate(used)}
        arrays = {
            "obs": cat["obs"].astype(np.float16),
            "mask": np.packbits(cat["mask"].astype(bool), axis=-1),
            "action": cat["action"].astype(np.int16),
            "shadow": np.full(len(cat["action"]), -1, np.int16),
            "kind": np.asarray([remap[k] for k in cat["kind"].tolist()], np.int16),
            "agent": np.zeros(len(cat["action"]), np.int8),
            "seat": cat["seat"].astype(np.int8),
            "players": cat["players"].astype(np.int8),
            "turn": cat["turn"].astype(np.int16),
            "game": cat["game"].astype(np.int32),
            "outcome": cat["outcome"].astype(np.float32),
            "kind_names": np.asarray(names, dtype=str),
            "agent_names": np.asarray([meta["noble"]], dtype=str),
            "meta": np.array(json.dumps({"encoder": enc.name, "encoder_version": enc.version,
                                         "encoder_fingerprint": enc.fingerprint, "obs_size": enc.size,
                                         "num_actions": NUM_ACTIONS,
                                         "float16_max_abs_error": meta.get("float16_max_abs_error", 0.0),
                                         "source": "minari", "games": [int(cat["game"].min()),
                                                                       int(cat["game"].max()) + 1]})),
        }
        np.savez_compressed(out / f"shard_{shard:05d}.npz", **arrays)
        shard += 1
        parts = {}

    for ep in ds.iterate_episodes():
        o = ep.observations
        t = len(ep.actions)
        if o["observation"].shape[1] != enc.size:
            raise ValueError(f"episode {ep.id}: observations of size {o['observation'].shape[1]}, the {enc.name} "
                             f"encoder's are {enc.size}")
        cols = {
            "obs": o["observation"][:t], "mask": o["action_mask"][:t], "action": np.asarray(ep.actions),
            "kind": np.asarray(ep.infos["kind"][:t]), "seat": np.asarray(ep.infos["seat"][:t]),
            "players": np.asarray(ep.infos["players"][:t]), "turn": np.asarray(ep.infos["turn"][:t]),
            "game": np.full(t, ep.id), "outcome": np.full(t, float(np.sum(ep.rewards))),
        }
        for k, v in cols.items():
            parts.setdefault(k, []).append(v)
        steps += t
        episodes += 1
        if episodes % SHARD_EPISODES == 0:
            flush()
    flush()
    return {"episodes": episodes, "decisions": steps, "shards": shard, "encoder": enc.name, "out": str(out)}


def behaviour_clone(dataset_id: str, out: str | Path, path: str | None = None, **imitate_cfg: Any) -> dict[str, Any]:
    """Shards from the dataset under ``out/shards``, then ``imitate`` (its config keys as keyword arguments,
    e.g. ``epochs=4``; ``data``, ``out`` and ``teacher`` are set here) into ``out``; returns imitate's metrics
    with ``policy`` (the exported ``policy.npz``) and ``agent`` (``ppo:<policy>``)."""
    from fandonia_env.training.imitate import SCHEMA, imitate

    for k in ("data", "out", "teacher"):
        if k in imitate_cfg:
            raise ValueError(f"behaviour_clone sets {k!r} itself; give the other imitate keys: "
                             f"{sorted(set(SCHEMA) - {'data', 'out', 'teacher'})}")
    ds = load(dataset_id, path)
    out = Path(out)
    summary = to_shards(ds, out / "shards")
    cfg = validate({**imitate_cfg, "data": str(out / "shards"), "out": str(out / "imitate"),
                    "teacher": fandonia_metadata(ds)["noble"]}, SCHEMA, "imitate config")
    metrics = imitate(cfg)
    policy = out / "imitate" / "policy.npz"
    return {**metrics, "dataset": dataset_id, "shards": summary, "policy": str(policy), "agent": f"ppo:{policy}",
            "epochs_per_decision": cfg["epochs"], "batches": math.ceil(summary["decisions"] / cfg["batch_size"])}

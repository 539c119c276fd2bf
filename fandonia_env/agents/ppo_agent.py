"""Nobles that play a trained policy: ``ppo:PATH``, ``noble-ppo-v1`` and ``noble-ppo-v2``.

    make_agent("ppo:runs/imitate/policy.npz", seed=1)            # any exported policy
    make_agent("ppo:runs/imitate/policy.npz", temperature=1.0)   # sample instead of argmax
    make_agent("noble-ppo-v1")                                   # fandonia_env/agents/weights/noble-ppo-v1.npz
    make_agent("noble-ppo-v2")                                   # fandonia_env/agents/weights/noble-ppo-v2.npz

``noble-ppo-v2`` is the network of expert iteration (issue 27; how it was trained: docs/training.md),
played alone like any policy file.

The policy file is the ``.npz`` that ``fandonia_env.training.model.export_npz`` writes (every weight plus a
JSON header naming the observation encoder, its fingerprint and the layer sizes); a ``.pt``
checkpoint of the training stages also loads, through torch.  The agent encodes its own seat's
observation (``fandonia_env.spaces.encoders`` ``Encoder.observe``) from its view alone: a ``SeatView`` of
the live game or one read from a ``player_view`` document (the bot protocol's ``view`` + ``legal``, as a
front end sends it), which encode the same; never the true state), runs the forward pass
in numpy and plays the argmax of the logits over the legal ids (``temperature`` > 0: a sample of
softmax(logits / temperature) over the legal ids, from the agent's own seeded generator).
Playing needs numpy only, no torch.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from fandonia_env.engine.face.seat import SeatView, as_seat_view

from .base import PPO_PREFIX, Agent, register, register_prefix

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
NOBLE_PPO_V1 = WEIGHTS_DIR / "noble-ppo-v1.npz"
NOBLE_PPO_V2 = WEIGHTS_DIR / "noble-ppo-v2.npz"
#: the registered nobles whose weights ship in WEIGHTS_DIR -> the name of the constant holding the file
#: (looked up when the noble is made, so a test may point one elsewhere)
SHIPPED = {"noble-ppo-v1": "NOBLE_PPO_V1", "noble-ppo-v2": "NOBLE_PPO_V2"}


class MissingWeightsError(FileNotFoundError, ValueError):
    """A policy file that is not there (a ValueError too, as for an unknown agent id)."""


class PolicyError(ValueError):
    """A policy file that cannot be used (wrong format, encoder or shapes)."""


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


#: batches up to this size use numpy's own loops instead of BLAS: a multi-threaded BLAS on a busy
#: machine (tournament workers on every core) made one 2937x512 product 30x slower (20 ms vs 0.7 ms)
SMALL_BATCH = 8


def _dense(h: np.ndarray, wb: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    W, b = wb
    if h.shape[0] <= SMALL_BATCH:
        return np.einsum("bi,ij->bj", h, W, optimize=False) + b
    return h @ W + b


class NumpyPolicy:
    """The forward pass of ``fandonia_env.training.model.PolicyNet`` in numpy, from exported weights."""

    def __init__(self, header: dict[str, Any], w: dict[str, np.ndarray], source: str = "") -> None:
        if header.get("format") != "fandonia-policy":
            raise PolicyError(f"{source}: not a fandonia policy file (header format {header.get('format')!r})")
        self.header, self.source = header, source
        self.obs_size = int(header["obs_size"])
        self.num_actions = int(header["num_actions"])
        try:
            self.trunk = [(w[f"trunk.{2 * i}.weight"].T.copy(), w[f"trunk.{2 * i}.bias"])
                          for i in range(len(header["hidden"]))]
            self.flat = (w["flat.weight"].T.copy(), w["flat.bias"])
            self.value = (w["value.weight"].T.copy(), w["value.bias"])
            self.blocks = []
            #: the trunk projection appended to every entity row (training.model ``entity_context``)
            self.entity_context = int(header.get("entity_context", 0))
            for b in header["blocks"]:
                n = b["name"]
                amap = np.asarray(w[f"action_index.{n}"], dtype=np.int64)
                ids = np.flatnonzero(amap >= 0)
                feats = int(b["feats"])
                e1 = w[f"entity.{n}.0.weight"].T.copy()
                self.blocks.append({
                    "off": int(b["offset"]), "rows": int(b["rows"]), "feats": feats,
                    "q": (w[f"query.{n}.weight"].T.copy(), w[f"query.{n}.bias"]),
                    # the row part and the context part of the first entity layer
                    "e1": (e1[:feats], w[f"entity.{n}.0.bias"]), "e1c": e1[feats:],
                    "c": (w[f"context.{n}.weight"].T.copy(), w[f"context.{n}.bias"]) if self.entity_context else None,
                    "e2": (w[f"entity.{n}.2.weight"].T.copy(), w[f"entity.{n}.2.bias"]),
                    "ids": ids, "rows_of": amap[ids],
                })
        except KeyError as e:
            raise PolicyError(f"{source}: weight {e.args[0]!r} is missing") from None
        if self.trunk[0][0].shape[0] != self.obs_size:
            raise PolicyError(f"{source}: first layer takes {self.trunk[0][0].shape[0]} inputs, header says "
                              f"{self.obs_size}")
        self.input_scale = w.get("input_scale")
        self.skip = None  # optional linear map from a few inputs straight to the logits
        if header.get("skip"):
            try:
                outs = header.get("skip_actions") or list(range(self.num_actions))
                self.skip = (np.asarray(header["skip"], dtype=np.int64), np.asarray(outs, dtype=np.int64),
                             (w["skip.weight"].T.copy(), w["skip.bias"]))
            except KeyError as e:
                raise PolicyError(f"{source}: weight {e.args[0]!r} is missing") from None
        self.encoder = None
        enc_name = header.get("encoder")
        if enc_name is not None:
            from fandonia_env.spaces.encoders import get_encoder

            enc = get_encoder(enc_name)
            fp = header.get("encoder_fingerprint")
            if enc.size != self.obs_size or (fp is not None and fp != enc.fingerprint):
                raise PolicyError(
                    f"{source}: trained with encoder {enc_name} (size {self.obs_size}, fingerprint {fp}) but the "
                    f"installed encoder {enc_name} has size {enc.size}, fingerprint {enc.fingerprint}: "
                    "the observation changed since this policy was trained")
            self.encoder = enc

    def forward(self, x: np.ndarray, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(logits (B, A), -inf at illegal ids when ``mask`` is given; value (B,)) for x (B, obs_size)."""
        x = np.asarray(x, dtype=np.float32)
        if x.ndim == 1:
            x = x[None]
        if self.input_scale is not None:
            x = x * self.input_scale
        h = x
        for wb in self.trunk:
            h = _relu(_dense(h, wb))
        logits = _dense(h, self.flat)
        if self.skip is not None:
            logits[:, self.skip[1]] += _dense(x[:, self.skip[0]], self.skip[2])
        for bl in self.blocks:
            rows = x[:, bl["off"]: bl["off"] + bl["rows"] * bl["feats"]].reshape(len(x), bl["rows"], bl["feats"])
            pre = rows @ bl["e1"][0] + bl["e1"][1]
            if bl["c"] is not None:  # the decision's context, the same for every row
                pre += (_dense(h, bl["c"]) @ bl["e1c"])[:, None, :]
            e = _relu(pre) @ bl["e2"][0] + bl["e2"][1]                                # (B, rows, d)
            q = _dense(h, bl["q"])                                                    # (B, d)
            score = np.einsum("bd,brd->br", q, e)
            logits[:, bl["ids"]] += score[:, bl["rows_of"]]
        if mask is not None:
            logits = np.where(mask, logits, -np.inf)
        value = _dense(h, self.value)[:, 0]
        return logits, value


_CACHE: dict[tuple[str, int, int], NumpyPolicy] = {}


def _checkpoint_weights(p: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(header, numpy weights) of a training checkpoint (``fandonia_env.training.model.save_checkpoint``:
    header, entity maps and the torch state dict), read with torch alone: the agents never import
    the training package, which sits above them."""
    try:
        import torch
    except ImportError:
        raise PolicyError(f"{p}: a .pt checkpoint needs torch (pip install 'fandonia_env[train]'); "
                          "an exported .npz policy plays with numpy alone") from None
    try:
        ck = torch.load(p, map_location="cpu", weights_only=False)
        w = {k: v.detach().cpu().numpy().astype(np.float32 if v.is_floating_point() else np.int64)
             for k, v in ck["model"].items()}
        w.update({f"action_index.{k}": np.asarray(v, dtype=np.int64) for k, v in ck["maps"].items()})
        return ck["header"], w
    except (OSError, RuntimeError, KeyError, TypeError, AttributeError) as e:
        raise PolicyError(f"{p}: not a training checkpoint ({type(e).__name__}: {e})") from None


def load_policy(path: str | os.PathLike[str]) -> NumpyPolicy:
    """The policy in ``path`` (``.npz`` export, or a ``.pt`` checkpoint through torch); cached per file."""
    p = Path(path)
    if not p.is_file():
        raise MissingWeightsError(f"no policy file {str(p)!r}")
    st = p.stat()
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    if key in _CACHE:
        return _CACHE[key]
    if p.suffix == ".pt":
        header, w = _checkpoint_weights(p)
    else:
        try:
            with np.load(p, allow_pickle=False) as z:
                w = {k: z[k] for k in z.files}
        except (OSError, ValueError) as e:
            raise PolicyError(f"{p}: not a readable .npz policy file ({e})") from None
        if "__header__" not in w:
            raise PolicyError(f"{p}: no __header__ entry; not a policy exported by fandonia_env.training.model.export_npz")
        header = json.loads(str(w.pop("__header__")))
        w = {k: v.astype(np.float32) if v.dtype == np.float16 else v for k, v in w.items()}  # half exports
    pol = NumpyPolicy(header, w, str(p))
    _CACHE[key] = pol
    return pol


def greedy(legal: list[int], z: np.ndarray) -> int:
    """The id of ``legal`` with the highest logit ``z`` (the first of equals): what a noble at temperature 0
    plays, and what the advisor suggests."""
    return int(legal[int(np.argmax(z))])


class PPOAgent(Agent):
    """Plays a trained policy from its own view (argmax, or a sample at ``temperature`` > 0)."""

    id = "ppo"

    def __init__(self, path: str | os.PathLike[str], seed: int | None = None, temperature: float = 0.0,
                 agent_id: str | None = None) -> None:
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        self.policy = load_policy(path)
        if self.policy.encoder is None:
            raise PolicyError(f"{path}: the header names no observation encoder")
        self.path, self.temperature = str(path), float(temperature)
        self.id = agent_id or f"ppo:{path}"
        self.rng = np.random.default_rng(seed)
        #: the kind of this seat's previous decision with two or more options, for an encoder with
        #: memory (v1c); a game's own history, so ``reset`` (a new game) forgets it
        self.prev_kind: str | None = None

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.prev_kind = None

    def scores(self, view: SeatView | dict[str, Any], legal: list[int]) -> tuple[np.ndarray, float]:
        """(the logits of ``legal``, in their order; the value head's estimate) from the seat's view, as
        ``act`` reads them; changes nothing (the advisor, ``agents.advisor``, asks this)."""
        enc = self.policy.encoder
        assert enc is not None  # __init__ refuses a policy without one
        sv = as_seat_view(view)  # the seat's view is all an encoder reads
        x = enc.observe(sv, None, self.prev_kind) if enc.memory else enc.observe(sv)
        logits, value = self.policy.forward(x)
        return logits[0, legal], float(value[0])

    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        sv = as_seat_view(view)
        z, _ = self.scores(sv, legal)
        if self.policy.encoder is not None and self.policy.encoder.memory and len(legal) > 1:
            self.prev_kind = "other" if sv.decision is None else sv.decision.kind
        if self.temperature == 0.0:
            return greedy(legal, z)
        z = (z - z.max()) / self.temperature
        p = np.exp(z)
        p /= p.sum()
        return int(legal[int(self.rng.choice(len(legal), p=p))])


def shipped_weights(agent_id: str) -> Path:
    """The weights file of a registered noble of ``SHIPPED`` (read when asked: a test may move it)."""
    return globals()[SHIPPED[agent_id]]


def _shipped_noble(agent_id: str, seed: int | None = None, **kw: Any) -> PPOAgent:
    """A registered noble whose weights ship in ``WEIGHTS_DIR`` (``SHIPPED``)."""
    path = shipped_weights(agent_id)
    if not path.is_file():
        raise MissingWeightsError(
            f"{agent_id} needs its weights file {path}, which is not there; train one "
            "(docs/training.md) and export it there, or use ppo:PATH with a policy file")
    return PPOAgent(path, seed=seed, agent_id=agent_id, **kw)


def _from_spec(spec: str, seed: int | None = None, **kw: Any) -> PPOAgent:
    """``ppo:PATH`` -> the policy in PATH."""
    return PPOAgent(spec[len(PPO_PREFIX):], seed=seed, agent_id=spec, **kw)


for _id in SHIPPED:
    register(_id, functools.partial(_shipped_noble, _id))
register_prefix(PPO_PREFIX, _from_spec)

"""The masked policy + value network (torch), and its export to plain numpy.

Architecture (``PolicyNet``), for an observation ``x`` and a legal mask ``m``:

    h        = trunk(x)                         MLP, ReLU after every layer (``hidden``)
    logit[a] = flat(h)[a]                       one logit per action id
             + <q_B(h), e_B(rows_B(x)[map_B[a]])> for each entity block B that names a row for a
                                                (characters, seats): ``rows_B`` are the block's rows
                                                of ``x``, ``e_B`` a small MLP shared by the rows
                                                (``entity_hidden`` -> ``entity_dim``), ``q_B`` a
                                                linear query; ``map_B`` the encoder's action map.
                                                With ``entity_context`` k > 0, ``e_B`` reads each row
                                                followed by ``c_B(h)`` (a linear map to k values), so
                                                a row is embedded in the decision's context
             + skip(x[skip_idx])[a]             optional: a linear map from a few named inputs (e.g. the
                                                rule features) straight to the logits (zero at start)
    logit[a] = -inf where m[a] is False         illegal actions are never chosen nor sampled
    value    = v(h)                             the outcome of the game for the deciding seat

So "choose character X" is scored from X's own row: the same weights serve every character.
For PPO: ``log_probs``, ``evaluate_actions`` (log-prob, entropy, value of given actions),
``state_dict``; ``export_npz`` writes every weight plus a JSON header that
``fandonia_env/agents/ppo_agent.py`` reads (numpy forward, no torch).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from fandonia_env.spaces.encoders import Encoder

FORMAT = "fandonia-policy"
FORMAT_VERSION = 1


def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


class PolicyNet(nn.Module):
    """Masked policy with a flat head, entity heads and a value head (see the module doc)."""

    def __init__(self, obs_size: int, num_actions: int, blocks: list[dict[str, Any]],
                 hidden: list[int], entity_hidden: int = 64, entity_dim: int = 32,
                 skip: list[int] | None = None, skip_actions: list[int] | None = None,
                 entity_context: int = 0) -> None:
        super().__init__()
        if not hidden:
            raise ValueError("hidden must list at least one layer size")
        self.obs_size, self.num_actions = obs_size, num_actions
        self.hidden, self.entity_hidden, self.entity_dim = list(hidden), entity_hidden, entity_dim
        self.block_specs = [dict(b) for b in blocks]
        #: size of the trunk's projection appended to every entity row (0: rows embedded alone)
        self.entity_context = int(entity_context)
        self.trunk = _mlp([obs_size, *hidden])
        #: multiplies the observation first: 0 for the features the policy ignores (Encoder.input_mask)
        self.register_buffer("input_scale", torch.ones(obs_size))
        h = hidden[-1]
        self.flat = nn.Linear(h, num_actions)
        self.value = nn.Linear(h, 1)
        #: the value head reads the trunk's features without passing its gradient back (a training
        #: setting, not saved): the value loss then moves the value head only, never the shared trunk
        #: the policy reads (``value_detached`` of the expert stage)
        self.detach_value = False
        #: input indices read by the skip head (a linear map to the logits, zero-initialised), or None
        self.skip_inputs = [int(i) for i in skip] if skip else None
        if self.skip_inputs:
            if min(self.skip_inputs) < 0 or max(self.skip_inputs) >= obs_size:
                raise ValueError(f"skip inputs must be indices 0..{obs_size - 1}")
            self.register_buffer("skip_idx", torch.as_tensor(self.skip_inputs, dtype=torch.long))
            #: the action ids the skip head adds to (all of them when not given)
            self.skip_actions = [int(a) for a in skip_actions] if skip_actions else list(range(num_actions))
            self.register_buffer("skip_out", torch.as_tensor(self.skip_actions, dtype=torch.long))
            self.skip = nn.Linear(len(self.skip_inputs), len(self.skip_actions))
            nn.init.zeros_(self.skip.weight)
            nn.init.zeros_(self.skip.bias)
        self.query = nn.ModuleDict()
        self.entity = nn.ModuleDict()
        self.context = nn.ModuleDict()
        for b in self.block_specs:
            amap = np.asarray(b["action_index"], dtype=np.int64)
            if amap.shape != (num_actions,):
                raise ValueError(f"block {b['name']}: action map has shape {amap.shape}, expected ({num_actions},)")
            if amap.max() >= b["rows"]:
                raise ValueError(f"block {b['name']}: action map names row {amap.max()} of {b['rows']}")
            ids = np.flatnonzero(amap >= 0)
            self.register_buffer(f"ids_{b['name']}", torch.as_tensor(ids, dtype=torch.long))
            self.register_buffer(f"rows_{b['name']}", torch.as_tensor(amap[ids], dtype=torch.long))
            self.query[b["name"]] = nn.Linear(h, entity_dim)
            if self.entity_context:
                self.context[b["name"]] = nn.Linear(h, self.entity_context)
            self.entity[b["name"]] = nn.Sequential(nn.Linear(b["feats"] + self.entity_context, entity_hidden),
                                                   nn.ReLU(), nn.Linear(entity_hidden, entity_dim))

    @classmethod
    def for_encoder(cls, enc: Encoder, num_actions: int, hidden: list[int], entity_hidden: int = 64,
                    entity_dim: int = 32, entity_blocks: list[str] | None = None,
                    skip: list[int] | None = None, skip_actions: list[int] | None = None,
                    entity_context: int = 0) -> PolicyNet:
        blocks = [{"name": b.name, "offset": b.offset, "rows": b.rows, "feats": b.feats,
                   "action_index": b.action_index}
                  for b in enc.entity_blocks if entity_blocks is None or b.name in entity_blocks]
        net = cls(enc.size, num_actions, blocks, hidden, entity_hidden, entity_dim, skip, skip_actions,
                  entity_context)
        if enc.input_mask is not None:
            net.input_scale.copy_(torch.as_tensor(enc.input_mask))
        return net

    def split_skip(self) -> tuple[list[Any], list[Any]]:
        """(every parameter but the skip head's, the skip head's): the two optimiser groups when the
        skip head has its own learning rate (``skip_lr``); the second is empty without a skip head."""
        skip = list(self.skip.parameters()) if self.skip_inputs else []
        return [q for q in self.parameters() if all(q is not r for r in skip)], skip

    def header(self, enc: Encoder | None = None) -> dict[str, Any]:
        """The JSON header of an export: what a numpy forward needs besides the weights."""
        hd: dict[str, Any] = {
            "format": FORMAT, "format_version": FORMAT_VERSION,
            "obs_size": self.obs_size, "num_actions": self.num_actions, "hidden": self.hidden,
            "entity_hidden": self.entity_hidden, "entity_dim": self.entity_dim,
            "blocks": [{k: v for k, v in b.items() if k != "action_index"} for b in self.block_specs],
        }
        if self.entity_context:  # absent when off: the headers of older policies stay as they were
            hd["entity_context"] = self.entity_context
        if self.skip_inputs:
            hd["skip"] = list(self.skip_inputs)
            hd["skip_actions"] = list(self.skip_actions)
        if enc is not None:
            hd.update(encoder=enc.name, encoder_version=enc.version, encoder_fingerprint=enc.fingerprint)
        return hd

    # -- forward ------------------------------------------------------------------------------
    def forward(self, obs: torch.Tensor, mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (B, A) with -inf at illegal ids, value (B,))."""
        scale = self.input_scale  # applied to the inputs each part reads (not the whole width every time)
        h = self._trunk(obs, scale)
        logits = self.flat(h)
        if self.skip_inputs:
            si = self.skip_idx
            logits = logits.index_add(1, self.skip_out, self.skip(obs[:, si] * scale[si]))
        for b in self.block_specs:
            name = b["name"]
            lo, hi = b["offset"], b["offset"] + b["rows"] * b["feats"]
            rows = (obs[:, lo:hi] * scale[lo:hi]).reshape(-1, b["rows"], b["feats"])
            if self.entity_context:
                c = self.context[name](h)                                  # (B, k)
                rows = torch.cat([rows, c.unsqueeze(1).expand(-1, b["rows"], -1)], dim=-1)
            emb = self.entity[name](rows)                                  # (B, rows, d)
            score = torch.einsum("bd,brd->br", self.query[name](h), emb)   # (B, rows)
            ids = getattr(self, f"ids_{name}")
            logits = logits.index_add(1, ids, score[:, getattr(self, f"rows_{name}")])
        if mask is not None:
            logits = logits.masked_fill(~mask, float("-inf"))
        return logits, self.value(h.detach() if self.detach_value else h).squeeze(-1)

    def _trunk(self, obs: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        """``trunk(obs * scale)``, its first layer reading only the columns of ``obs`` that are not zero in
        every row of the batch (a batch of observations is mostly zeros: of v1r's 6,551 inputs a position
        sets about 580, and a training minibatch of 1,024 fewer than half).  The same function and the
        same gradient: a column that is zero throughout adds nothing to the product and gets a zero
        gradient either way (autograd writes zeros there: the optimiser sees what the dense product gives)."""
        first = self.trunk[0]
        assert isinstance(first, nn.Linear)
        if obs.dim() != 2 or obs.shape[0] < 8:
            return self.trunk(obs * scale)
        cols = ((obs.amax(0) != 0) | (obs.amin(0) != 0)).nonzero().squeeze(1)
        if cols.numel() > 0.75 * obs.shape[1]:  # dense enough: the plain product is as cheap
            return self.trunk(obs * scale)
        x = obs.index_select(1, cols) * scale.index_select(0, cols)
        h = torch.nn.functional.linear(x, first.weight.index_select(1, cols), first.bias)
        return self.trunk[1:](h)

    def log_probs(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(log pi(.|obs) over all ids (-inf at illegal ones), value)."""
        logits, v = self(obs, mask)
        return torch.log_softmax(logits, dim=-1), v

    def evaluate_actions(self, obs: torch.Tensor, mask: torch.Tensor,
                         actions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(log-prob of ``actions``, entropy of the masked policy, value) for PPO updates."""
        logp, v = self.log_probs(obs, mask)
        p = logp.exp()
        ent = -(p * logp.masked_fill(~mask, 0.0)).sum(-1)
        return logp.gather(1, actions.long().unsqueeze(1)).squeeze(1), ent, v

    @torch.no_grad()
    def act(self, obs: torch.Tensor, mask: torch.Tensor, greedy: bool = True) -> torch.Tensor:
        logits, _ = self(obs, mask)
        if greedy:
            return logits.argmax(-1)
        return torch.distributions.Categorical(logits=logits).sample()


# ---------------------------------------------------------------------------
# Export / load
# ---------------------------------------------------------------------------


def widen_input(model: PolicyNet, old: Encoder, new: Encoder) -> PolicyNet:
    """A copy of ``model`` (trained on encoder ``old``) that reads encoder ``new``, whose vector is
    ``old``'s followed by new features (``new.extends == old.name``): the new inputs get zero
    weights, so the widened policy acts exactly as before until training gives them weight."""
    if new.extends != old.name or new.size < old.size or model.obs_size != old.size:
        raise ValueError(f"cannot widen a policy on encoder {old.name} (size {old.size}, the model reads "
                         f"{model.obs_size}) to encoder {new.name}: {new.name} does not extend {old.name}")
    for a, b in zip(old.entity_blocks, new.entity_blocks):
        if (a.name, a.offset, a.rows, a.feats) != (b.name, b.offset, b.rows, b.feats):
            raise ValueError(f"encoder {new.name} moves entity block {a.name}; cannot widen")
    wide = PolicyNet.for_encoder(new, model.num_actions, model.hidden, model.entity_hidden, model.entity_dim,
                                 [b["name"] for b in model.block_specs], model.skip_inputs,
                                 model.skip_actions if model.skip_inputs else None, model.entity_context)
    sd = model.state_dict()
    w = sd["trunk.0.weight"]
    sd["trunk.0.weight"] = torch.cat([w, torch.zeros(w.shape[0], new.size - old.size)], dim=1)
    sd["input_scale"] = torch.cat([sd["input_scale"], wide.input_scale[old.size:]])
    wide.load_state_dict(sd)
    return wide


def numpy_weights(model: PolicyNet) -> dict[str, np.ndarray]:
    """Every parameter and entity map as float32 / int64 numpy arrays, by state_dict name."""
    out = {k: v.detach().cpu().numpy().astype(np.float32 if v.is_floating_point() else np.int64)
           for k, v in model.state_dict().items()}
    for b in model.block_specs:
        out[f"action_index.{b['name']}"] = np.asarray(b["action_index"], dtype=np.int64)
    return out


def export_npz(model: PolicyNet, path: str | Path, enc: Encoder | None = None,
               extra: dict[str, Any] | None = None, half: bool = False) -> Path:
    """Write the policy as ``.npz``: all weights + ``__header__`` (a JSON string).

    ``half``: store the float weights as float16 (half the file; the agent computes in float32)."""
    hd = model.header(enc)
    if extra:
        hd["training"] = extra
    arrays = numpy_weights(model)
    if half:
        arrays = {k: v.astype(np.float16) if v.dtype == np.float32 else v for k, v in arrays.items()}
    arrays["__header__"] = np.array(json.dumps(hd, sort_keys=True))
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(p)
    return p


def model_from_header(hd: dict[str, Any], maps: dict[str, np.ndarray]) -> PolicyNet:
    blocks = [dict(b, action_index=maps[b["name"]]) for b in hd["blocks"]]
    return PolicyNet(hd["obs_size"], hd["num_actions"], blocks, hd["hidden"], hd["entity_hidden"], hd["entity_dim"],
                     hd.get("skip"), hd.get("skip_actions"), int(hd.get("entity_context", 0)))


def save_checkpoint(path: str | Path, model: PolicyNet, enc: Encoder | None, **state: Any) -> None:
    """A torch checkpoint a later run (or the league) resumes from: header, weights, extra state."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    maps = {b["name"]: np.asarray(b["action_index"], dtype=np.int64) for b in model.block_specs}
    torch.save({"header": model.header(enc), "maps": maps, "model": model.state_dict(), **state}, tmp)
    tmp.replace(p)


def load_checkpoint(path: str | Path) -> tuple[PolicyNet, dict[str, Any]]:
    """(model with its weights, the whole checkpoint dict).  An ``.npz`` export loads too (its
    weights, float16 ones widened; the dict then holds only ``header`` and ``maps``), so training
    can continue from a shipped policy."""
    if str(path).endswith(".npz"):
        with np.load(path, allow_pickle=False) as z:
            w = {k: z[k] for k in z.files}
        hd = json.loads(str(w.pop("__header__")))
        maps = {k.split(".", 1)[1]: w.pop(k) for k in list(w) if k.startswith("action_index.")}
        model = model_from_header(hd, maps)
        model.load_state_dict({k: torch.as_tensor(v.astype(np.float32) if v.dtype == np.float16 else v)
                               for k, v in w.items()})
        return model, {"header": hd, "maps": maps}
    ck = torch.load(path, map_location="cpu", weights_only=False)
    model = model_from_header(ck["header"], ck["maps"])
    model.load_state_dict(ck["model"])
    return model, ck

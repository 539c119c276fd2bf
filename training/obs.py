"""The observation encoders the training pipeline and ``agents/ppo_agent.py`` use, by name.

    enc = get_encoder("v1")           # or "v0"
    x = enc.encode(state, p)          # float32 vector of length enc.size (from the engine state)
    x = enc.encode_view(view)         # the same vector from ``game.view(p, log=False)`` alone
    off, rows, feats = enc.char_block # the character rows: x[off:off + rows*feats].reshape(rows, feats)
    enc.action_character[a]           # the character row action id ``a`` names, else -1
    enc.entity_blocks                 # every (block, action -> row map) a policy scores from rows

``v0`` is ``fandonia_env.spaces.observation`` (the ``fandonia_v0`` environment's vector);
``v1`` is ``fandonia_env.spaces.observation_v1``, loaded lazily.  A trained policy stores its
encoder's name, version and ``fingerprint`` (a hash of the layout), and refuses a different one.

``encode_view`` is what an agent uses: it sees only its own seat's view, never the state.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fandonia_env.engine.actions import NAME, NUM_ACTIONS
from fandonia_env.engine.data.components import ALL_CHARACTER_IDS

ENCODERS: tuple[str, ...] = ("v0", "v1")


@dataclass(frozen=True)
class EntityBlock:
    """A block of the vector made of equal rows, and which action ids name which row."""

    name: str
    offset: int
    rows: int
    feats: int
    action_index: np.ndarray  # int, length NUM_ACTIONS: the row action a names, else -1


@dataclass
class Encoder:
    name: str
    version: str
    size: int
    encode: Callable[[Any, int], np.ndarray]
    entity_blocks: tuple[EntityBlock, ...]
    layout: tuple[tuple[str, int, tuple[int, ...]], ...]
    _encode_view: Callable[[dict[str, Any]], np.ndarray] | None = field(default=None, repr=False)
    #: 1.0 for the features a policy reads, 0.0 for those it ignores (v1's exact 24-bit hash
    #: features: identities that only separate rare contexts, not magnitudes a network can use)
    input_mask: np.ndarray | None = field(default=None, repr=False)

    def observe(self, view: dict[str, Any], infoset: Any = None) -> np.ndarray:
        """What a playing agent encodes: its own ``view``, or, for an encoder that reads the engine
        state, a determinisation drawn from its ``infoset`` (``engine.hidden.InfoSet``: equal to the
        true state in everything the seat may know, hidden parts redrawn).  Both give exactly the
        seat's observation -- the encoders read only what ``player_view`` shows, which the
        hidden-information tests check byte for byte -- and never the true hidden state."""
        if self._encode_view is not None:
            return self._encode_view(view)
        if infoset is None:
            raise ValueError(f"encoder {self.name} encodes from a determinisation of the seat's information "
                             "set: give the agent an InfoSet (a saved game and a seat in the bot protocol)")
        import random

        return self.encode(infoset.sample(random.Random(0)), view["me"])

    @property
    def char_block(self) -> tuple[int, int, int]:
        b = self.block("characters")
        return b.offset, b.rows, b.feats

    @property
    def action_character(self) -> np.ndarray:
        return self.block("characters").action_index

    def block(self, name: str) -> EntityBlock:
        for b in self.entity_blocks:
            if b.name == name:
                return b
        raise KeyError(f"encoder {self.name} has no entity block {name!r}; "
                       f"it has {[b.name for b in self.entity_blocks]}")

    @property
    def fingerprint(self) -> str:
        h = hashlib.sha1(repr((self.name, self.size, self.layout)).encode())
        for b in self.entity_blocks:
            h.update(b.name.encode())
            h.update(np.asarray(b.action_index, dtype=np.int64).tobytes())
        return h.hexdigest()[:16]

    def encode_view(self, view: dict[str, Any]) -> np.ndarray:
        """The observation of ``view["me"]`` computed from his view alone."""
        if self._encode_view is None:
            raise NotImplementedError(
                f"encoder {self.name} cannot encode from a view: its module has no view entry point "
                f"({', '.join(VIEW_FUNCTIONS)}), so an agent cannot play a policy trained on it")
        return self._encode_view(view)


# ---------------------------------------------------------------------------
# Action -> entity maps
# ---------------------------------------------------------------------------


def catalogue_action_maps() -> tuple[np.ndarray, np.ndarray]:
    """(action -> character row in ALL_CHARACTER_IDS order, action -> relative seat), -1 elsewhere,
    read from the action names (``char_<id>``, ``player_rel_<k>``)."""
    row = {c: i for i, c in enumerate(ALL_CHARACTER_IDS)}
    ach = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    ase = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    for a, name in enumerate(NAME):
        if name.startswith("char_"):
            ach[a] = row[name[5:]]
        elif name.startswith("player_rel_"):
            ase[a] = int(name[len("player_rel_"):])
    return ach, ase


#: the names under which observation_v1 may offer ``f(view) -> vector`` (first found is used)
VIEW_FUNCTIONS = ("encode_view_v1", "encode_v1_view", "encode_view")
V1_NAMES = ("encode_v1", "OBS_V1_SIZE", "LAYOUT_V1", "ACTION_CHARACTER", "ACTION_SEAT")


def _v1_module() -> Any | None:
    """``fandonia_env.spaces.observation_v1`` when it is there with its whole interface, else None."""
    try:
        m = importlib.import_module("fandonia_env.spaces.observation_v1")
    except Exception:  # absent (ImportError), or a version that does not import
        return None
    return m if all(hasattr(m, k) for k in V1_NAMES) else None


def _v0_action_maps() -> tuple[np.ndarray, np.ndarray]:
    m = _v1_module()
    if m is not None:
        return (np.asarray(m.ACTION_CHARACTER, dtype=np.int64), np.asarray(m.ACTION_SEAT, dtype=np.int64))
    return catalogue_action_maps()


# ---------------------------------------------------------------------------
# v0
# ---------------------------------------------------------------------------


def _make_v0() -> Encoder:
    from fandonia_env.spaces import observation as ob

    off = dict(ob._OFFSET)
    n_char, n_seat = len(ob.CHAR_FEATURES), len(ob.SEAT_FEATURES)
    ach, ase = _v0_action_maps()
    blocks = (
        EntityBlock("characters", off["characters"], len(ALL_CHARACTER_IDS), n_char, ach),
        EntityBlock("seats", off["seats"], ob.MAX_PLAYERS, n_seat, ase),
    )
    layout = tuple((name, off[name], (n,)) for name, n in ob.LAYOUT)
    return Encoder("v0", "fandonia_v0", ob.OBS_SIZE, ob.encode, blocks, layout, _encode_view_v0)


def _encode_view_v0(view: dict[str, Any], rules: dict[str, Any] | None = None) -> np.ndarray:
    """``observation.encode(state, p)`` rebuilt from ``player_view(state, p)``, value for value.

    The view does not say which edition / optional rules are in play (the ``rules`` block): they
    are read from ``rules`` or ``view["rules"]`` when given, else taken as the default 1981 game."""
    from fandonia_env.spaces import observation as ob

    off = ob._OFFSET
    buf = [0.0] * ob.OBS_SIZE
    me = view["me"]
    n = view["n_players"]
    support = view["support"]
    clip = ob._clip
    chars = view["chars"]

    o = off["global"]
    buf[o] = clip(view["turn"] / 100)
    buf[o + 1] = support / 120
    buf[o + 2] = 1.0 if support == 0 else 0.0
    buf[o + 3] = view["deck_size"] / 120
    buf[o + 4] = view["loyalty_pool_size"] / 36
    buf[o + 5] = len(view["discard"]) / 120
    buf[o + 6 + (n - 2)] = 1.0
    o2 = o + 11
    i = ob._PHASE_INDEX.get(view["phase"])
    if i is not None:
        buf[o2 + i] = 1.0
    o2 += len(ob.PHASES)
    buf[o2 + ob._CROWN_INDEX.get(view["crown"], len(ob.CROWN_KEYS))] = 1.0
    o2 += len(ob.CROWN_KEYS) + 1
    buf[o2] = 1.0 if "court_ball" in view["forced_crown"] else 0.0
    o2 += 1
    reign = view["reign"]
    if reign:
        buf[o2] = 1.0
        turns = max(0, min(3, view["turn"] - int(reign.get("since", view["turn"]))))
        buf[o2 + 1 + turns] = 1.0

    o = off["problems"]
    for i, pk in enumerate(ob.PROBLEMS):
        pr = view["problems"].get(pk)
        if pr is not None:
            buf[o + 3 * i] = 1.0
            buf[o + 3 * i + 1] = clip(pr.get("fails", 0) / 3)
            buf[o + 3 * i + 2] = clip(pr.get("turns", 0) / 10)
    o = off["wars"]
    for i, c in enumerate(ob.COUNTRIES):
        if c in view["wars"]:
            buf[o + i] = 1.0

    o = off["seats"]
    order = view["order"]
    ns = len(ob.SEAT_FEATURES)
    npres = len(ob.PRESTIGE_TABLES)
    for pl in view["players"]:
        b = o + ((pl["idx"] - me) % n) * ns
        buf[b] = 1.0
        buf[b + 1] = clip(pl["ip"] / 50)
        buf[b + 2] = clip(pl["pp"] / 100)
        buf[b + 3] = clip(pl["hand_size"] / 15)
        buf[b + 4] = pl["ball_mod"] / 2
        buf[b + 5] = clip(pl["lost_turns"] / 2)
        buf[b + 6] = clip(len(pl["in_front"]) / 6)
        if pl["idx"] in order:
            buf[b + 7] = order.index(pl["idx"]) / (ob.MAX_PLAYERS - 1)
        buf[b + 8] = 1.0 if pl["idx"] == view["first_player"] else 0.0
        buf[b + 9] = 1.0 if pl["idx"] == view["active"] else 0.0
        buf[b + 10] = 1.0 if chars[pl["pc"]]["dead"] else 0.0
        pm = pl["prestige_mods"]
        for j, tk in enumerate(ob.PRESTIGE_TABLES):
            v = pm.get(tk)
            if v:
                buf[b + 11 + j] = v / 2
        cs = pl["counsels"]
        for j, tk in enumerate(ob.COUNSEL_TABLES):
            v = cs.get(tk)
            if v:
                buf[b + 11 + npres + j] = clip(len(v) / 4)

    o = off["characters"]
    nc = len(ob.CHAR_FEATURES)
    monarch = view["monarch"]
    stat = view["status"]
    for ci, cid in enumerate(ALL_CHARACTER_IDS):
        c = chars[cid]
        b = o + ci * nc
        buf[b + (0 if c["owner"] is None else 1 + (c["owner"] - me) % n)] = 1.0
        if c["is_pc"]:
            buf[b + ob._C_PC] = 1.0
        s = stat[cid] / 12
        buf[b + ob._C_STATUS] = 1.0 if s > 1 else s
        buf[b + ob._C_TITLES] = c["titles"] / 4
        if c["fixed_status"] is not None:
            buf[b + ob._C_FIXED] = 1.0
        li = ob._LOC_INDEX.get(c["location"])
        if li is not None:
            buf[b + ob._C_LOC + li] = 1.0
        for k, key in enumerate(("hiding", "banished", "imprisoned", "awaiting_execution", "wrongdoer", "dead")):
            if c[key]:
                buf[b + ob._C_SIT + k] = 1.0
        buf[b + ob._C_OFFICE + (0 if c["office"] is None else 1 + ob._OFFICE_INDEX[c["office"]])] = 1.0
        f = b + ob._C_FLAGS
        if c["henchman"]:
            buf[f] = 1.0
        if c["counselor"]:
            buf[f + 1] = 1.0
        if c["aligned"]:
            buf[f + 2] = 1.0
        if c["spouse"] is not None:
            buf[f + 3] = 1.0
        if c["consort"]:
            buf[f + 4] = 1.0
        if c["banned"]:
            buf[f + 5] = 1.0
        if c["engaged_to"] is not None:
            buf[f + 6] = 1.0
        if c["situation_turns"] > 0:
            buf[f + 7] = clip(c["situation_turns"] / 5)
        if cid == monarch:
            buf[f + 8] = 1.0
        if c["escaped"]:
            buf[f + 9] = 1.0
        if c["pending_justice"] is not None:
            buf[f + 10] = 1.0

    o = off["hand"]
    for t in view["hand"]:
        buf[o + ob._CARD_INDEX[t]] += 0.25
    o = off["loyalty_drawn"]
    for lc in view["loyalty_drawn"]:
        buf[o + ob._LOYALTY_INDEX[lc]] = 1.0
    o = off["opportunity_drawn"]
    for t in view["opportunity_drawn"]:
        buf[o + ob._OPP_INDEX[t]] += 0.5
    ts = view["turn_state"]
    if ts:
        o = off["turn_state"]
        buf[o] = len(ts.get("done", [])) / 4
        buf[o + 1] = clip(ts.get("extra", 0) / 4)
        buf[o + 2] = clip(ts.get("any_activity", 0) / 2)
        buf[o + 3] = clip(ts.get("intrigue", 0) / 2)
        buf[o + 4] = clip(ts.get("scandal", 0) / 2)
        buf[o + 5] = 1.0 if ts.get("favor") else 0.0
        buf[o + 6] = 1.0 if ts.get("no_more") else 0.0
        buf[o + 7] = 1.0 if ts.get("restricted") else 0.0
    o = off["discard"]
    for t in view["discard"]:
        buf[o + ob._CARD_INDEX[t]] += 1 / 14

    d = view["decision"]
    if d is not None:
        buf[off["decision_kind"] + ob._KIND_INDEX.get(d["kind"], 0)] = 1.0
        nums = 0
        for key, val in ob._flatten(d["ctx"]):
            if isinstance(val, bool):
                continue
            if isinstance(val, str):
                if val in ob._CHAR_INDEX:
                    buf[off["decision_ctx_chars"] + ob._CHAR_INDEX[val]] = 1.0
                elif val in ob._CTX_INDEX:
                    buf[off["decision_ctx_words"] + ob._CTX_INDEX[val]] = 1.0
            elif isinstance(val, int):
                if key in ("player", "victim", "target_player", "exposer") and 0 <= val < n:
                    buf[off["decision_ctx_seats"] + (val - me) % n] = 1.0
                elif nums < ob.CTX_NUM_SLOTS:
                    buf[off["decision_ctx_numbers"] + nums] = max(-1.0, min(1.0, val / 12))
                    nums += 1
    rules = rules if rules is not None else view.get("rules")
    if rules:
        o = off["rules"]
        if rules.get("edition") == "errata":
            buf[o] = 1.0
        for k in rules.get("optional", ()):
            buf[o + 1 + ob._OPT_INDEX[k]] = 1.0
    return np.clip(np.frombuffer(ob._PACK(*buf), dtype=np.float32), -1.0, 1.0)


# ---------------------------------------------------------------------------
# v1
# ---------------------------------------------------------------------------


def _make_v1() -> Encoder:
    m = _v1_module()
    if m is None:
        raise ValueError(f"encoder 'v1' needs fandonia_env/spaces/observation_v1.py with {list(V1_NAMES)}, "
                         "which is not there (or does not import); use encoder 'v0'")
    lay = m.LAYOUT_V1
    layout = tuple((name, int(off), tuple(int(s) for s in np.atleast_1d(shape))) for name, (off, shape) in lay.items())
    ach = np.asarray(m.ACTION_CHARACTER, dtype=np.int64)
    ase = np.asarray(m.ACTION_SEAT, dtype=np.int64)
    blocks = []
    for name, amap in (("characters", ach), ("seats", ase)):
        if name in lay:
            off, shape = lay[name]
            rows, feats = (int(s) for s in shape)
            blocks.append(EntityBlock(name, int(off), rows, feats, amap))
    view_fn = None
    for fname in VIEW_FUNCTIONS:
        if hasattr(m, fname):
            view_fn = getattr(m, fname)
            break
    version = str(getattr(m, "VERSION", "fandonia_v1"))
    keep = np.array(["hash" not in m.label_v1(i) for i in range(int(m.OBS_V1_SIZE))], dtype=np.float32)
    return Encoder("v1", version, int(m.OBS_V1_SIZE), m.encode_v1, tuple(blocks), layout, view_fn, keep)


_MAKERS: dict[str, Callable[[], Encoder]] = {"v0": _make_v0, "v1": _make_v1}
_CACHE: dict[str, Encoder] = {}


def v1_available() -> bool:
    return _v1_module() is not None


def v1_view_available() -> bool:
    """``observation_v1`` is there and can encode from a view (what a playing agent needs)."""
    return v1_available() and get_encoder("v1")._encode_view is not None


def default_encoder() -> str:
    """``v1`` (the player's whole information state) when ``observation_v1`` is there, else ``v0``."""
    return "v1" if v1_available() else "v0"


def get_encoder(name: str) -> Encoder:
    """The encoder called ``name`` (``v0`` or ``v1``)."""
    if name not in _MAKERS:
        raise ValueError(f"unknown encoder {name!r}; known: {list(ENCODERS)}")
    if name not in _CACHE:
        _CACHE[name] = _MAKERS[name]()
    return _CACHE[name]

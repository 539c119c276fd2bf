"""The observation encoders the training pipeline and ``fandonia_env/agents/ppo_agent.py`` use, by name.

    enc = get_encoder("v1")           # or "v0"
    x = enc.encode(state, p)          # float32 vector of length enc.size (from the engine state)
    x = enc.observe(view, infoset)    # the same vector, as a playing agent computes it
    off, rows, feats = enc.char_block # the character rows: x[off:off + rows*feats].reshape(rows, feats)
    enc.action_character[a]           # the character row action id ``a`` names, else -1
    enc.entity_blocks                 # every (block, action -> row map) a policy scores from rows

``v0`` is ``fandonia_env.spaces.observation`` (the ``fandonia_v0`` environment's vector);
``v1`` is ``fandonia_env.spaces.observation_v1``, loaded lazily; ``v1r`` is v1 followed by the
rule features of ``fandonia_env.spaces.rule_features`` (the engine's usurpation odds for every
seat), so a policy trained on v1 can be widened to it (``model.widen_input``); ``v1c`` is v1r
followed by the decision-context features of ``fandonia_env.spaces.context_features``, which read
the seat's previous decision kind: an encoder with ``memory`` takes it as ``prev_kind=`` (the
caller keeps it: the kind of the seat's last decision with two or more options); its entity blocks
add ``char_context`` (a row of decision facts per character) and ``prestige_tables`` (the
context block's row of each Prestige Table, which ``prestige_<table>`` names); ``v1b`` is v1r
followed by the belief features of ``fandonia_env.spaces.belief_features`` (what the seat can
believe of each opponent's usurpation odds with the Support cards his hand may hide, issue 27), so a
v1r policy can be widened to it.  A trained policy stores its encoder's name, version and
``fingerprint`` (a hash of the layout), and refuses a different one.

``observe`` is what an agent uses: its own view (when the encoder can read a view) or a
determinisation of its information set, never the true state.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fandonia_env.engine.core.actions import ID as ACTION_ID
from fandonia_env.engine.core.actions import NAME, NUM_ACTIONS
from fandonia_env.engine.data.components import ALL_CHARACTER_IDS
from fandonia_env.engine.face.seat import SeatView, as_seat_view

ENCODERS: tuple[str, ...] = ("v0", "v1", "v1r", "v1c", "v1b")


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
    #: 1.0 for the features a policy reads, 0.0 for those it ignores (v1's exact 24-bit hash
    #: features: identities that only separate rare contexts, not magnitudes a network can use)
    input_mask: np.ndarray | None = field(default=None, repr=False)
    #: the encoder whose vector is a prefix of this one (same blocks at the same offsets, new
    #: features appended): a policy trained on it can be widened to this one (``model.widen_input``)
    extends: str | None = None
    #: the vector also reads the seat's previous decision kind: ``encode(state, p, prev_kind)``,
    #: ``observe(view, infoset, prev_kind)``; the caller keeps it (None before the seat's first decision)
    memory: bool = False
    _observe_memory: Callable[[dict[str, Any], Any, str | None], np.ndarray] | None = field(default=None, repr=False)

    def observe(self, view: SeatView | dict[str, Any], infoset: Any = None,
                prev_kind: str | None = None) -> np.ndarray:
        """What a playing agent encodes: its own view, a ``SeatView`` (live, or read from a
        ``player_view`` document) or the document itself; ``infoset`` is not needed (kept for the
        callers that pass one).  Exactly the seat's observation -- the encoders read only what
        ``player_view`` shows -- and never the true hidden state."""
        sv = as_seat_view(view)
        if self._observe_memory is not None:
            return self._observe_memory(sv, infoset, prev_kind)
        return self.encode(sv, sv.me)

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

    def encode_view(self, view: SeatView | dict[str, Any]) -> np.ndarray:
        """The observation of the view's seat computed from his view alone (a ``SeatView`` or a
        ``player_view`` document)."""
        sv = as_seat_view(view)
        return self.encode(sv, sv.me)


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

    off = dict(ob.OFFSETS)
    n_char, n_seat = len(ob.CHAR_FEATURES), len(ob.SEAT_FEATURES)
    ach, ase = _v0_action_maps()
    blocks = (
        EntityBlock("characters", off["characters"], len(ALL_CHARACTER_IDS), n_char, ach),
        EntityBlock("seats", off["seats"], ob.MAX_PLAYERS, n_seat, ase),
    )
    layout = tuple((name, off[name], (n,)) for name, n in ob.LAYOUT)
    return Encoder("v0", "fandonia_v0", ob.OBS_SIZE, ob.encode, blocks, layout)


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
    version = str(getattr(m, "VERSION", "fandonia_v1"))
    keep = np.array(["hash" not in m.label_v1(i) for i in range(int(m.OBS_V1_SIZE))], dtype=np.float32)
    return Encoder("v1", version, int(m.OBS_V1_SIZE), m.encode_v1, tuple(blocks), layout, input_mask=keep)


# ---------------------------------------------------------------------------
# v1r: v1 + the rule features (fandonia_env.spaces.rule_features)
# ---------------------------------------------------------------------------


def _extended(base_name: str, name: str, block: str, size: int,
              features: Callable[[Any, int], np.ndarray]) -> Encoder:
    """Encoder ``name``: ``base_name``'s vector followed by the ``size`` features ``features(src, p)``
    computes from a ``GameState`` or from p's view (block ``block`` of the layout); same entity blocks,
    so a policy on ``base_name`` widens to it (``model.widen_input``)."""
    base = get_encoder(base_name)
    enc_base = base.encode

    def encode(state: Any, p: int) -> np.ndarray:
        if not isinstance(state, SeatView):  # one view for both parts
            state = SeatView.of(state, p)
        return np.concatenate([enc_base(state, p), features(state, p)])

    layout = (*base.layout, (block, base.size, (size,)))
    keep = np.concatenate([base.input_mask if base.input_mask is not None else np.ones(base.size, np.float32),
                           np.ones(size, np.float32)])
    return Encoder(name, f"{base.version}+{block}", base.size + size, encode,
                   base.entity_blocks, layout, input_mask=keep, extends=base_name)


def _make_v1r() -> Encoder:
    from fandonia_env.spaces.rule_features import RULE_FEATURES_SIZE, encode_rule_features

    return _extended("v1", "v1r", "rule_features", RULE_FEATURES_SIZE, encode_rule_features)


# ---------------------------------------------------------------------------
# v1c: v1r + the decision-context features (fandonia_env.spaces.context_features)
# ---------------------------------------------------------------------------


def _make_v1c() -> Encoder:
    from fandonia_env.spaces.context_features import (
        CHAR_CONTEXT,
        CHAR_CONTEXT_ROWS,
        CHAR_CONTEXT_SIZE,
        CONTEXT_FEATURES_SIZE,
        PRESTIGE_ROW_SIZE,
        PRESTIGE_ROWS_OFFSET,
        PRESTIGE_TABLES,
        encode_char_context,
        encode_context_features,
    )

    base = get_encoder("v1r")
    enc_r = base.encode

    def tail(src: Any, p: int, prev_kind: str | None) -> list[np.ndarray]:
        if not isinstance(src, dict):  # one view document for both blocks
            src = (src if isinstance(src, SeatView) else SeatView.of(src, p)).to_json()
        return [encode_context_features(src, p, prev_kind), encode_char_context(src, p)]

    def encode(state: Any, p: int, prev_kind: str | None = None) -> np.ndarray:
        if not isinstance(state, SeatView):
            state = SeatView.of(state, p)
        return np.concatenate([enc_r(state, p), *tail(state, p, prev_kind)])

    def observe(view: SeatView, infoset: Any, prev_kind: str | None) -> np.ndarray:
        # v1r from the seat's view, then the context blocks, which read its document
        return np.concatenate([base.observe(view, infoset), *tail(view, view.me, prev_kind)])

    off_rows = base.size + CONTEXT_FEATURES_SIZE
    layout = (*base.layout, ("context_features", base.size, (CONTEXT_FEATURES_SIZE,)),
              ("char_context", off_rows, (CHAR_CONTEXT_ROWS, len(CHAR_CONTEXT))))
    mask = base.input_mask if base.input_mask is not None else np.ones(base.size, np.float32)
    keep = np.concatenate([mask, np.ones(CONTEXT_FEATURES_SIZE + CHAR_CONTEXT_SIZE, np.float32)])
    rows = EntityBlock("char_context", off_rows, CHAR_CONTEXT_ROWS, len(CHAR_CONTEXT),
                       base.block("characters").action_index)
    # the Prestige Tables' rows of the context block: prestige_<table> is scored from its table's row
    table_index = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    for i, t in enumerate(PRESTIGE_TABLES):
        table_index[ACTION_ID[f"prestige_{t}"]] = i
    tables = EntityBlock("prestige_tables", base.size + PRESTIGE_ROWS_OFFSET, len(PRESTIGE_TABLES),
                         PRESTIGE_ROW_SIZE, table_index)
    return Encoder("v1c", base.version + "+context_features+char_context",
                   base.size + CONTEXT_FEATURES_SIZE + CHAR_CONTEXT_SIZE, encode,
                   (*base.entity_blocks, rows, tables), layout, input_mask=keep, extends="v1r", memory=True,
                   _observe_memory=observe)


# ---------------------------------------------------------------------------
# v1b: v1r + the belief features (fandonia_env.spaces.belief_features)
# ---------------------------------------------------------------------------


def _make_v1b() -> Encoder:
    from fandonia_env.spaces.belief_features import BELIEF_FEATURES_SIZE, encode_belief_features

    return _extended("v1r", "v1b", "belief_features", BELIEF_FEATURES_SIZE, encode_belief_features)


_MAKERS: dict[str, Callable[[], Encoder]] = {"v0": _make_v0, "v1": _make_v1, "v1r": _make_v1r, "v1c": _make_v1c,
                                              "v1b": _make_v1b}
_CACHE: dict[str, Encoder] = {}


def v1_available() -> bool:
    return _v1_module() is not None


def v1_view_available() -> bool:
    """``observation_v1`` is there and can encode from a view (what a playing agent needs): every
    encoder reads a ``SeatView``, so whenever it is there."""
    return v1_available()


def default_encoder() -> str:
    """``v1`` (the player's whole information state) when ``observation_v1`` is there, else ``v0``."""
    return "v1" if v1_available() else "v0"


def get_encoder(name: str) -> Encoder:
    """The encoder called ``name`` (``v0``, ``v1``, ``v1r``: v1 followed by the rule features of
    ``fandonia_env.spaces.rule_features``, ``v1c``: v1r followed by the context features, or ``v1b``:
    v1r followed by the belief features of ``fandonia_env.spaces.belief_features``)."""
    if name not in _MAKERS:
        raise ValueError(f"unknown encoder {name!r}; known: {list(ENCODERS)}")
    if name not in _CACHE:
        _CACHE[name] = _MAKERS[name]()
    return _CACHE[name]

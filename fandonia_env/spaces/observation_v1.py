"""Observation v1: a player's whole information state as one structured float32 vector.

Version 1 of the observation (package version 0.3.0, env ``fandonia_v1``).  It encodes
everything ``engine.player_view(state, observer)`` shows (the log aside), with nothing clipped,
in a documented **structured layout** that lets a policy score entities:

* ``characters``: ``N_CHARS`` rows x ``CHAR_FEATURES`` (contiguous, row-major), one row per
  character in ``ALL_CHARACTER_IDS`` order (36 nobles, then the 11 royals);
* ``seats``: ``MAX_PLAYERS`` rows x ``SEAT_FEATURES``, row k = the player k seats to the
  observer's left (row 0 = the observer; rows beyond the table are all zero), as in v0;
* ``globals``: the rest (sub-blocks in ``GLOBAL_BLOCKS``).

``LAYOUT_V1`` maps each block to ``(offset, shape)``; ``split_v1(vec)`` returns views of a
vector (or of a batch ``(..., OBS_V1_SIZE)``).  ``ACTION_CHARACTER`` / ``ACTION_SEAT`` /
``ACTION_CARD_TYPE`` map every action id to the row of the entity it names (else -1), so a
policy can score "choose character X" from X's row.  ``docs/observation_v1.md`` (written by
:func:`observation_v1_md`) lists every feature and its scale.

Context of the pending decision and the Player Turn bookkeeping are encoded by a generic
key-slot scheme: every key of a frozen, append-only vocabulary (``CTX_KEYS``, ``PT_KEYS``) has
a slot of ``KEY_SLOT_FEATURES``; a key not in the vocabulary (a future rule) lands in one of
``KEY_BUCKETS`` hashed slots, so nothing is dropped.  Characters named in the context mark
their character row (a column per role), players named mark their seat row, and strings are
one-hot in a vocabulary of words and text templates (character names, ``player N`` and numbers
taken out of free text such as a roll label "Assassination Table (Duke Henry against Sir
Robert)"), unknown ones hashed into buckets.  Each slot also carries an exact 24-bit hash of
its value so that two different contexts never encode alike.

Scales are fixed divisors chosen so that typical values are O(1); no value is clipped
(the Box is unbounded).  The encoder reads only what ``player_view`` shows (the hidden
information tests resample everything else and compare bytes).
"""

from __future__ import annotations

import re
import zlib
from array import array
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.core.actions import COUNSEL_TABLES, NAME, NUM_ACTIONS, PRESTIGE_TABLES, PROBLEMS
from ..engine.core.options import OPTIONAL_RULES
from ..engine.data.components import (
    ALL_CHARACTER_IDS,
    CARD_TYPE_KEYS,
    COUNTRIES,
    NEVER_ABROAD,
    NO_TITLE,
    NOBLES,
    OFFICE_ELIGIBLE,
    OFFICE_KEYS,
    OPPORTUNITY_TYPES,
    ROYALS,
    SUCCESSION,
    SUPPORT_CARDS,
    character_name,
    printed_status,
)
from ..engine.face.seat import SeatView
from .observation import DECISION_KINDS as _V0_DECISION_KINDS  # v1 appends to v0's kinds
from .observation import observer_rows

if TYPE_CHECKING:
    from ..engine import GameState
    from ..engine.face.seat import Character

OBS_VERSION = 1
MAX_PLAYERS = 6
N_CHARS = len(ALL_CHARACTER_IDS)
CHAR_ROW: dict[str, int] = {c: i for i, c in enumerate(ALL_CHARACTER_IDS)}

_NAME_ROW = {character_name(c): CHAR_ROW[c] for c in ALL_CHARACTER_IDS}
_NAME_RE = re.compile("|".join(re.escape(x) for x in sorted(_NAME_ROW, key=len, reverse=True)))
_PLAYER_RE = re.compile(r"\bplayer (\d+)")
_NUM_RE = re.compile(r"(§[\d.]*\d)|(\d+)")


def text_template(s: str) -> str:
    """The template of a free text: character names -> ``#C``, ``player N`` -> ``player #P``,
    numbers other than rule references (``§7.6``) -> ``#N``."""
    t = _NAME_RE.sub("#C", s)
    t = _PLAYER_RE.sub("player #P", t)
    return _NUM_RE.sub(lambda m: m.group(1) or "#N", t)


# ---------------------------------------------------------------------------
# Vocabularies (append-only: a new entry goes at the end, or the layout of trained
# policies shifts).  Anything not in a vocabulary is hashed into its *_BUCKETS.
# ---------------------------------------------------------------------------
PHASES: tuple[str, ...] = ("setup", "first_player", "offices", "problems", "crown", "player_turns",
                           "player_turn", "end_of_turn", "over")
CROWN_KEYS: tuple[str, ...] = ("royal_death", "famine", "intrigue", "court_ball", "two_problems",
                               "one_problem", "scandal", "plague")
LOCATIONS: tuple[str, ...] = ("fandonia",) + COUNTRIES
OPP_KINDS: tuple[str, ...] = tuple(OPPORTUNITY_TYPES)
JUSTICE_KINDS: tuple[str, ...] = ("accuse", "accuse_dwtk", "hearing", "trial")
RESULTS: tuple[str, ...] = ("win", "draw", "truncated")
#: Activity-like words: the catalogue's ``act_*`` and ``free_*`` suffixes, in catalogue order.
ACTIVITY_WORDS: tuple[str, ...] = tuple(dict.fromkeys(
    [n[4:] for n in NAME if n.startswith("act_")] + [n[5:] for n in NAME if n.startswith("free_")]))
#: Decision kinds (v0's list, then kinds added since); unknown kinds use KIND_BUCKETS.
DECISION_KINDS: tuple[str, ...] = _V0_DECISION_KINDS + ("halt",)
KIND_BUCKETS = 8
#: Keys of a decision's context (every key the engine's ``ask`` calls use, frozen).
CTX_KEYS: tuple[str, ...] = (
    "activities_left", "activity", "amount", "assassin", "avoid_cost_ip", "blackmailer_rel", "bought",
    "card", "cid", "cost", "counsel", "deceased", "done", "duellists", "event", "farc", "free",
    "hand_size", "hiding", "host", "left", "minister", "mod", "office", "over", "pairs", "phase",
    "player", "pp", "problem", "proposee", "proposer", "rating", "remaining", "required", "result",
    "role", "roll", "rule", "seducer", "side", "source", "spouse", "table", "target", "usurper",
    "victim", "victim_rel", "why",
)
#: Keys of the Player Turn bookkeeping (``view["turn_state"]``, the observer's own turn).
PT_KEYS: tuple[str, ...] = (
    "any_activity", "auto_proposal", "bought_mod", "bought_used", "counselled", "done", "extra",
    "favor", "free", "free_used", "imprisoned", "intrigue", "no_more", "player", "prestige_table",
    "proposals", "restricted", "scandal", "waiver",
)
KEY_BUCKETS = 8
KEY_SLOT_FEATURES: tuple[str, ...] = ("present", "none", "bool", "number", "count", "hash")
#: Integer context values under these keys are absolute seats (encoded relative to the
#: observer); keys ending in ``_rel`` are already relative to the decider (= the observer).
SEAT_INT_KEYS: frozenset[str] = frozenset({"player", "victim", "host", "target", "exposer", "winner"})
#: Character roles: a character named in the context under one of these keys marks that
#: column of its row; names found in free text mark text_first / text_other; other keys "other".
CHAR_CTX_ROLES: tuple[str, ...] = (
    "target", "cid", "assassin", "seducer", "proposer", "proposee", "minister", "spouse", "farc",
    "deceased", "required", "duellists", "usurper", "pairs", "text_first", "text_other", "other",
)
SEAT_CTX_ROLES: tuple[str, ...] = ("player", "victim", "host", "target", "blackmailer", "text", "other")

_WORDS: tuple[str, ...] = tuple(dict.fromkeys(
    ACTIVITY_WORDS + PRESTIGE_TABLES + COUNSEL_TABLES + OFFICE_KEYS + LOCATIONS + CARD_TYPE_KEYS
    + CROWN_KEYS + PHASES + OPP_KINDS + JUSTICE_KINDS + (
        "pc_advantage", "charity", "offer_bribe", "take_bribe", "monarch", "usurper", "fighter",
        "opponent", "counter", "prestige", "wrongdoing", "restricted draw",
    )))
_LITERAL_TEMPLATES: tuple[str, ...] = (
    "#C", "#C, §7.6", "#C, the stated Ambassador", "#C hearing the case is his FAC (§28.3)",
    "Assassination Table (#C against #C)", "Scandal Table (#C)", "Hearing of #C", "Interrogation of #C",
    "Trial of #C", "escape of #C", "Deliberate Incompetence (#C)", "Duel", "Duel (#C's die)",
    "Counseling Results Table", "Royal Favor Table", "Seduction", "Seduction (§38 Romantic Intrigue #N)",
    "Seduction (§38 Romantic Intrigue #Na)", "Seduction (§38 Romantic Intrigue #Nb)", "Proposal",
    "recruitment of a married character by treachery",
    "FARC Monarch (§15.11)", "FARC Monarch, §7.12", "Monarch's Counselor, §38", "T#N.#N.#N note #N",
    "ES §38 Matrimonio (D#N)", "§38 Romantic Intrigue #N", "§13.4.16", "§17.2.5", "§18.4", "§18.4.5",
    "§19.3", "§19.4", "§38",
)


def _text_templates() -> tuple[str, ...]:
    """Templates of the free texts the engine puts in decision contexts (roll labels,
    modifier reasons, rule references), derived from the game data where they are built
    from it: office names (§7.6 modifiers), problem names (resolution rolls), Prestige Table
    rows that send a character to the Scandal Table or justice (``prestige_designate``)."""
    from ..engine.data.components import OFFICES
    from ..engine.data.tables import PRESTIGE_TABLES as PT
    from ..engine.data.tables import PROBLEMS as PR

    out = list(_LITERAL_TEMPLATES)
    for o in OFFICES.values():
        out += [f"#C, {o.name}{x}" for x in ("", ", §7.6", ", bribed (ES §13.4.20)", ", §7.6, bribed (ES §13.4.20)")]
    out += [f"{p['name']} resolution (Ability #N)" for p in PR.values()]
    out += [f"player #P's {t['name']} Table" for t in PT.values()]
    for t in PT.values():
        for *_, row in t["rows"]:
            if set(row["special"]) & {"scandal", "wrongdoing", "hearing", "trial"}:
                out.append(text_template(f"{t['name']} Table: {row['text']}"))
    return tuple(dict.fromkeys(out))


#: Templates of free text in contexts (roll labels, modifier reasons, rule references):
#: character names -> ``#C``, ``player N`` -> ``player #P``, other numbers -> ``#N``.
TEXT_TEMPLATES: tuple[str, ...] = _text_templates()
#: Strings of the context (words, then text templates); unknown ones use STRING_BUCKETS.
CTX_STRINGS: tuple[str, ...] = tuple(dict.fromkeys(_WORDS + TEXT_TEMPLATES))
STRING_BUCKETS = 16
#: Strings of the Player Turn bookkeeping (activities, Prestige Tables).
PT_STRINGS: tuple[str, ...] = tuple(dict.fromkeys(ACTIVITY_WORDS + PRESTIGE_TABLES))
PT_STRING_BUCKETS = 4
ACT_BUCKETS = 2

# ---------------------------------------------------------------------------
# Feature lists
# ---------------------------------------------------------------------------
CHAR_FEATURES: tuple[str, ...] = tuple(
    ["owner_none"] + [f"owner_seat{k}" for k in range(MAX_PLAYERS)]
    + ["is_pc", "status", "titles", "has_fixed_status", "fixed_status"]
    + [f"loc_{x}" for x in LOCATIONS] + ["loc_other"]
    + ["hiding", "banished", "imprisoned", "awaiting_execution", "wrongdoer", "dead"]
    + ["office_none"] + [f"office_{o}" for o in OFFICE_KEYS] + ["office_other"]
    + ["henchman", "counselor", "aligned", "consort", "banned", "situation_turns", "is_monarch",
       "escaped"]
    + [f"justice_{k}" for k in JUSTICE_KINDS] + ["justice_other"]
    + ["married", "spouse_row", "spouse_royal", "spouse_status", "spouse_owner_none"]
    + [f"spouse_owner_seat{k}" for k in range(MAX_PLAYERS)]
    + ["engaged", "engaged_row"]
    + ["loyalty_drawn_by_me", "problem_minister", "reign_farc", "pt_proposals", "pt_other"]
    + [f"ctx_{r}" for r in CHAR_CTX_ROLES]
    + ["printed_status", "royal", "female", "ability", "dueling", "seduction", "never_abroad",
       "office_eligible", "no_title", "succession", "uv_dice", "uv_mult"]
)
SEAT_FEATURES: tuple[str, ...] = tuple(
    ["present", "ip", "pp", "hand_size", "ball_mod", "lost_turns", "pc_row", "pc_dead",
     "order_pos", "is_first", "is_active", "is_winner", "reign_player",
     "in_front_count", "in_front_seq"]
    + [f"in_front_{t}" for t in SUPPORT_CARDS] + ["in_front_other"]
    + [f"prestige_{t}" for t in PRESTIGE_TABLES] + [f"prestige_entry_{t}" for t in PRESTIGE_TABLES]
    + [f"counsels_{t}" for t in COUNSEL_TABLES] + [f"counsel_seq_{t}" for t in COUNSEL_TABLES]
    + [f"ctx_{r}" for r in SEAT_CTX_ROLES] + ["pt_named"]
)
CF = len(CHAR_FEATURES)
SF = len(SEAT_FEATURES)
_C = {f: i for i, f in enumerate(CHAR_FEATURES)}
_S = {f: i for i, f in enumerate(SEAT_FEATURES)}


# ---------------------------------------------------------------------------
# The globals block: sub-blocks and their feature names
# ---------------------------------------------------------------------------
_PROBLEM_FEATURES: tuple[str, ...] = ("present", "fails", "turns", "minister_row", "extra_hash") + tuple(
    f"country_{c}" for c in COUNTRIES)
_KS = len(KEY_SLOT_FEATURES)


def _slot_labels(prefix: str, keys: tuple[str, ...]) -> list[str]:
    names = list(keys) + [f"bucket{i}" for i in range(KEY_BUCKETS)]
    return [f"{prefix}_{k}_{f}" for k in names for f in KEY_SLOT_FEATURES]


GLOBAL_FEATURE_BLOCKS: tuple[tuple[str, tuple[str, ...]], ...] = tuple((name, tuple(labels)) for name, labels in (
    ("game", [f"n_players_{k}" for k in range(2, MAX_PLAYERS + 1)]
     + ["turn", "support", "crisis", "deck_size", "discard_size", "loyalty_pool_size", "over"]
     + [f"result_{r}" for r in RESULTS] + ["result_other"]),
    ("phase", [f"phase_{p}" for p in PHASES] + ["phase_other"]),
    ("crown", [f"crown_{c}" for c in CROWN_KEYS] + ["crown_none", "crown_other"]),
    ("forced_crown", [f"forced_{c}" for c in CROWN_KEYS] + ["forced_other"]
     + [f"forced_problem_{p}" for p in PROBLEMS] + ["forced_seq"]),
    ("wars", [f"war_{c}" for c in COUNTRIES] + ["wars_seq"]),
    ("reign", ["reign_active", "reign_turns", "reign_extra"]),
    ("problems", [f"problem_{p}_{f}" for p in PROBLEMS for f in _PROBLEM_FEATURES]),
    ("hand", [f"hand_{t}" for t in CARD_TYPE_KEYS]),
    ("opportunity_drawn", [f"opportunity_drawn_{k}" for k in OPP_KINDS]),
    ("discard", [f"discard_{t}" for t in CARD_TYPE_KEYS]),
    ("activities_done", [f"done_{a}" for a in ACTIVITY_WORDS] + [f"done_bucket{i}" for i in range(ACT_BUCKETS)]
     + ["done_count", "done_seq"]),
    ("decision_kind", [f"kind_{k}" for k in DECISION_KINDS] + [f"kind_bucket{i}" for i in range(KIND_BUCKETS)]),
    ("ctx_keys", _slot_labels("ctx", CTX_KEYS)),
    ("ctx_strings", [f"ctx_str_{s}" for s in CTX_STRINGS] + [f"ctx_str_bucket{i}" for i in range(STRING_BUCKETS)]),
    ("turn_state", ["pt_present"] + _slot_labels("pt", PT_KEYS)),
    ("pt_strings", [f"pt_str_{s}" for s in PT_STRINGS] + [f"pt_str_bucket{i}" for i in range(PT_STRING_BUCKETS)]),
    ("rules", ["rules_edition_errata"] + [f"rules_opt_{k}" for k in OPTIONAL_RULES]),
))
GLOBAL_FEATURES: tuple[str, ...] = tuple(x for _, labels in GLOBAL_FEATURE_BLOCKS for x in labels)

CHAR_BLOCK = N_CHARS * CF
SEAT_BLOCK = MAX_PLAYERS * SF
_CB = 0
_SB = CHAR_BLOCK
_GB = CHAR_BLOCK + SEAT_BLOCK
OBS_V1_SIZE: int = _GB + len(GLOBAL_FEATURES)
#: block name -> (offset, shape); the three blocks tile the vector in this order.
LAYOUT_V1: dict[str, tuple[int, tuple[int, ...]]] = {
    "characters": (_CB, (N_CHARS, CF)),
    "seats": (_SB, (MAX_PLAYERS, SF)),
    "globals": (_GB, (len(GLOBAL_FEATURES),)),
}
#: sub-block of ``globals`` -> (absolute offset in the vector, size).
GLOBAL_BLOCKS: dict[str, tuple[int, int]] = {}
_o = _GB
for _name, _labels in GLOBAL_FEATURE_BLOCKS:
    GLOBAL_BLOCKS[_name] = (_o, len(_labels))
    _o += len(_labels)
assert _o == OBS_V1_SIZE
del _o, _name, _labels

LABELS_V1: tuple[str, ...] = tuple(
    [f"char_{c}_{f}" for c in ALL_CHARACTER_IDS for f in CHAR_FEATURES]
    + [f"seat{s}_{f}" for s in range(MAX_PLAYERS) for f in SEAT_FEATURES]
    + list(GLOBAL_FEATURES))
assert len(LABELS_V1) == OBS_V1_SIZE


def label_v1(i: int) -> str:
    """The name of index ``i`` of a v1 observation."""
    if not 0 <= i < OBS_V1_SIZE:
        raise IndexError(f"observation v1 index must be 0..{OBS_V1_SIZE - 1}, got {i}")
    return LABELS_V1[i]


def split_v1(vec: np.ndarray) -> dict[str, np.ndarray]:
    """Views (no copy) of the blocks of a v1 observation ``(..., OBS_V1_SIZE)``:
    ``characters (..., N_CHARS, CHAR_FEATURES)``, ``seats (..., MAX_PLAYERS, SEAT_FEATURES)``
    and ``globals (..., G)``."""
    x = np.asarray(vec)
    if x.ndim == 0 or x.shape[-1] != OBS_V1_SIZE:
        raise ValueError(f"expected an array whose last axis has length {OBS_V1_SIZE} (OBS_V1_SIZE), "
                         f"got shape {x.shape}")
    lead = x.shape[:-1]
    out = {}
    for name, (off, shape) in LAYOUT_V1.items():
        size = int(np.prod(shape))
        out[name] = x[..., off:off + size].reshape(lead + shape)
    return out


# ---------------------------------------------------------------------------
# Static action -> entity maps (derived from the catalogue's names)
# ---------------------------------------------------------------------------
_CARD_INDEX = {t: i for i, t in enumerate(CARD_TYPE_KEYS)}


def _action_maps() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    chars = np.full(NUM_ACTIONS, -1, dtype=np.int16)
    seats = np.full(NUM_ACTIONS, -1, dtype=np.int16)
    cards = np.full(NUM_ACTIONS, -1, dtype=np.int16)
    for i, name in enumerate(NAME):
        if name.startswith("char_"):
            chars[i] = CHAR_ROW[name[len("char_"):]]
        elif name.startswith("player_rel_"):
            seats[i] = int(name[len("player_rel_"):])
        elif name.startswith("play_intrigue_as_"):
            cards[i] = _CARD_INDEX["intrigue"]  # the card spent is an Intrigue card (§14.5.7)
        else:
            for prefix in ("play_", "discard_", "fandonian_support_"):
                if name.startswith(prefix) and name[len(prefix):] in _CARD_INDEX:
                    cards[i] = _CARD_INDEX[name[len(prefix):]]
    for arr in (chars, seats, cards):
        arr.setflags(write=False)
    return chars, seats, cards


#: action id -> row of the character block it names (``char_*``), else -1.
#: action id -> relative seat it names (``player_rel_k`` -> k, the seat row k), else -1.
#: action id -> index in ``CARD_TYPE_KEYS`` of the card type it plays/discards/tries for, else -1.
ACTION_CHARACTER, ACTION_SEAT, ACTION_CARD_TYPE = _action_maps()

# ---------------------------------------------------------------------------
# Encoder
# ---------------------------------------------------------------------------
_PHASE_I = {p: i for i, p in enumerate(PHASES)}
_CROWN_I = {c: i for i, c in enumerate(CROWN_KEYS)}
_LOC_I = {x: i for i, x in enumerate(LOCATIONS)}
_OFFICE_I = {o: i for i, o in enumerate(OFFICE_KEYS)}
_JUST_I = {k: i for i, k in enumerate(JUSTICE_KINDS)}
_RESULT_I = {k: i for i, k in enumerate(RESULTS)}
_OPP_I = {k: i for i, k in enumerate(OPP_KINDS)}
_COUNTRY_I = {c: i for i, c in enumerate(COUNTRIES)}
_PROBLEM_I = {p: i for i, p in enumerate(PROBLEMS)}
_PRESTIGE_I = {t: i for i, t in enumerate(PRESTIGE_TABLES)}
_COUNSEL_I = {t: i for i, t in enumerate(COUNSEL_TABLES)}
_SUPPORT_I = {t: i for i, t in enumerate(SUPPORT_CARDS)}
_ACT_I = {a: i for i, a in enumerate(ACTIVITY_WORDS)}
_KIND_I = {k: i for i, k in enumerate(DECISION_KINDS)}
_NPF = len(_PROBLEM_FEATURES)


def _h(s: str) -> float:
    """An exact 24-bit hash of a string as a float in [0, 1)."""
    return (zlib.crc32(s.encode()) & 0xFFFFFF) / 16777216.0


def _bucket(s: str, n: int) -> int:
    return zlib.crc32(s.encode()) % n


_CHAR_HASH = {c: _h(c) for c in ALL_CHARACTER_IDS}


class _Spec:
    """Where one generic dict (decision context or turn bookkeeping) is encoded."""

    __slots__ = ("key_i", "n_keys", "key_off", "str_i", "n_str", "str_off", "n_buckets", "char_col",
                 "char_default", "text_first", "text_other", "seat_col", "seat_default", "seat_text")

    def __init__(self, keys: tuple[str, ...], key_block: str, strings: tuple[str, ...], str_block: str,
                 n_buckets: int, char_col: dict[str, int], char_default: int, text_first: int,
                 text_other: int, seat_col: dict[str, int], seat_default: int, seat_text: int,
                 key_off_extra: int = 0) -> None:
        self.key_i = {k: i for i, k in enumerate(keys)}
        self.n_keys = len(keys)
        self.key_off = GLOBAL_BLOCKS[key_block][0] + key_off_extra
        self.str_i = {s: i for i, s in enumerate(strings)}
        self.n_str = len(strings)
        self.str_off = GLOBAL_BLOCKS[str_block][0]
        self.n_buckets = n_buckets
        self.char_col, self.char_default = char_col, char_default
        self.text_first, self.text_other = text_first, text_other
        self.seat_col, self.seat_default, self.seat_text = seat_col, seat_default, seat_text


_CTX_SPEC = _Spec(
    CTX_KEYS, "ctx_keys", CTX_STRINGS, "ctx_strings", STRING_BUCKETS,
    {r: _C[f"ctx_{r}"] for r in CHAR_CTX_ROLES}, _C["ctx_other"], _C["ctx_text_first"], _C["ctx_text_other"],
    {"player": _S["ctx_player"], "victim": _S["ctx_victim"], "host": _S["ctx_host"], "target": _S["ctx_target"],
     "blackmailer": _S["ctx_blackmailer"]}, _S["ctx_other"], _S["ctx_text"])
_PT_SPEC = _Spec(
    PT_KEYS, "turn_state", PT_STRINGS, "pt_strings", PT_STRING_BUCKETS,
    {"proposals": _C["pt_proposals"]}, _C["pt_other"], _C["pt_other"], _C["pt_other"],
    {}, _S["pt_named"], _S["pt_named"], key_off_extra=1)


@lru_cache(maxsize=200_000)  # a pure function of its arguments (the text and the seats)
def _parse_str(s: str, me: int, n: int, sp: _Spec) -> tuple:
    """(string indices, character rows named, relative seats named, first number/10, hash)."""
    str_i = sp.str_i
    r: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], float, float]
    if s in str_i:
        r = ((str_i[s],), (), (), 0.0, _h(s))
    else:
        parts = s.split(":") if ":" in s else ()
        if parts and all(x in str_i or x in CHAR_ROW for x in parts):
            r = (tuple(str_i[x] for x in parts if x in str_i), tuple(CHAR_ROW[x] for x in parts if x in CHAR_ROW),
                 (), 0.0, _h(s))
        else:
            rows = tuple(_NAME_ROW[m.group()] for m in _NAME_RE.finditer(s))
            seats = []

            def rel(m: re.Match) -> str:
                k = int(m.group(1))
                if k < n:
                    seats.append((k - me) % n)
                    return f"player r{(k - me) % n}"
                return m.group(0)

            s_rel = _PLAYER_RE.sub(rel, s)
            t = text_template(s)
            nums = [int(m.group(2)) for m in _NUM_RE.finditer(_PLAYER_RE.sub("", _NAME_RE.sub("", s)))
                    if m.group(2)]
            idx = str_i.get(t)
            if idx is None:
                idx = sp.n_str + _bucket(t, sp.n_buckets)
            r = ((idx,), rows, tuple(seats), nums[0] / 10 if nums else 0.0, _h(s_rel))
    return r


def _canon(val: Any, key: str, me: int, n: int) -> str:
    """A canonical, observer-relative text of a context value (for its hash)."""
    t = type(val)
    if t is str:
        return _PLAYER_RE.sub(lambda m: f"player r{(int(m.group(1)) - me) % n}" if int(m.group(1)) < n
                              else m.group(0), val)
    if t is int and (key in SEAT_INT_KEYS and 0 <= val < n):
        return f"r{(val - me) % n}"
    if t is list or t is tuple:
        return "[" + "|".join(_canon(x, key, me, n) for x in val) + "]"
    if t is dict:
        return "{" + "|".join(f"{k}={_canon(v, k, me, n)}" for k, v in sorted(val.items())) + "}"
    return repr(val)


def _leaf(a: array, key: str, val: Any, me: int, n: int, sp: _Spec, top: bool) -> None:
    slot = sp.key_i.get(key)
    if slot is None:
        slot = sp.n_keys + _bucket(key, KEY_BUCKETS)
    o = sp.key_off + slot * _KS
    a[o] = 1.0
    t = type(val)
    if val is None:
        a[o + 1] += 1.0
    elif t is bool:
        a[o + 2] += 1.0 if val else -1.0
    elif t is int or t is float:
        rel = -1
        if t is int:
            if key in SEAT_INT_KEYS:
                if 0 <= val < n:
                    rel, base = (val - me) % n, key
            elif key.endswith("_rel") and 0 <= val < MAX_PLAYERS:
                rel, base = val, key[:-4]
        if rel >= 0:
            a[_SB + rel * SF + sp.seat_col.get(base, sp.seat_default)] = 1.0
            a[o + 3] += rel / 10
        else:
            a[o + 3] += val / 10
    elif t is str:
        row = CHAR_ROW.get(val)
        if row is not None:
            a[_CB + row * CF + sp.char_col.get(key, sp.char_default)] = 1.0
            if top:
                a[o + 5] += _CHAR_HASH[val]
        else:
            idxs, rows, seats, num, h = _parse_str(val, me, n, sp)
            so = sp.str_off
            for i in idxs:
                a[so + i] = 1.0
            first = True
            for row in rows:
                a[_CB + row * CF + (sp.text_first if first else sp.text_other)] = 1.0
                first = False
            for rel in seats:
                a[_SB + rel * SF + sp.seat_text] = 1.0
            a[o + 3] += num
            if top:
                a[o + 5] += h
    elif t is list or t is tuple:
        a[o + 4] += len(val) / 5
        for x in val:
            _leaf(a, key, x, me, n, sp, False)
        if top:
            a[o + 5] += _h(_canon(val, key, me, n))
    elif t is dict:
        a[o + 4] += len(val) / 5
        for k2, v2 in val.items():
            _leaf(a, k2, v2, me, n, sp, top)
        if top:
            a[o + 5] += _h(_canon(val, key, me, n))
    else:
        a[o + 5] += _h(repr(val))


def _template(cfg: dict[str, Any], n: int) -> array:
    """The constant part of every observation of a game with this configuration: printed
    character data, the player count, the present seats and the rules in play (not to modify)."""
    return _template_for(cfg["edition"], n, tuple(cfg["optional"]))


@cache  # a pure function of the configuration
def _template_for(edition: str, n: int, optional: tuple[str, ...]) -> array:
    cfg = {"edition": edition, "optional": list(optional)}
    a = array("f", bytes(4 * OBS_V1_SIZE))
    cfg_n = dict(cfg, players=n)
    for cid, row in CHAR_ROW.items():
        b = _CB + row * CF
        a[b + _C["printed_status"]] = printed_status(cfg_n, cid) / 10
        if cid in ROYALS:
            r = ROYALS[cid]
            a[b + _C["royal"]] = 1.0
            a[b + _C["female"]] = float(r.female)
            a[b + _C["uv_dice"]] = r.uv_dice / 2
            a[b + _C["uv_mult"]] = r.uv_mult / 3
            if cid in SUCCESSION:
                a[b + _C["succession"]] = (SUCCESSION.index(cid) + 1) / len(SUCCESSION)
        else:
            nb = NOBLES[cid]
            a[b + _C["female"]] = float(nb.female)
            a[b + _C["ability"]] = (nb.ability or 0) / 6
            a[b + _C["dueling"]] = (nb.dueling or 0) / 6
            a[b + _C["seduction"]] = (nb.seduction or 0) / 6
            a[b + _C["never_abroad"]] = float(cid in NEVER_ABROAD)
            a[b + _C["office_eligible"]] = float(cid in OFFICE_ELIGIBLE)
            a[b + _C["no_title"]] = float(cid in NO_TITLE)
    for s in range(n):
        a[_SB + s * SF + _S["present"]] = 1.0
    a[GLOBAL_BLOCKS["game"][0] + n - 2] = 1.0
    o = GLOBAL_BLOCKS["rules"][0]
    if cfg["edition"] == "errata":
        a[o] = 1.0
    opt = list(OPTIONAL_RULES)
    for k in cfg["optional"]:
        a[o + 1 + opt.index(k)] = 1.0
    return a


# column offsets used by the encoder's hot loop
_C_PC, _C_STATUS, _C_TITLES = _C["is_pc"], _C["status"], _C["titles"]
_C_HFS, _C_FS, _C_LOC, _C_LOC_OTHER = _C["has_fixed_status"], _C["fixed_status"], _C["loc_fandonia"], _C["loc_other"]
_C_HIDING, _C_OFFICE = _C["hiding"], _C["office_none"]
_C_HENCH, _C_JUST = _C["henchman"], _C["justice_accuse"]
_C_MARRIED, _C_SPOUSE_OWNER = _C["married"], _C["spouse_owner_none"]
_C_ENGAGED = _C["engaged"]
_N_OFFICES, _N_LOC, _N_JUST = len(OFFICE_KEYS), len(LOCATIONS), len(JUSTICE_KINDS)
_S_IP, _S_PCROW, _S_ORDER = _S["ip"], _S["pc_row"], _S["order_pos"]
_S_INFRONT, _S_SUPPORT, _S_PRESTIGE = _S["in_front_count"], _S["in_front_" + SUPPORT_CARDS[0]], _S["prestige_literary"]
_S_COUNSELS = _S["counsels_" + COUNSEL_TABLES[0]]
_N_SUPPORT, _N_COUNSEL, _N_PRESTIGE = len(SUPPORT_CARDS), len(COUNSEL_TABLES), len(PRESTIGE_TABLES)
_G = {name: off for name, (off, _) in GLOBAL_BLOCKS.items()}


def _seq(codes: list[int], base: int) -> float:
    """An order-sensitive code of small positive integers (< base): sum c_i * base^-(i+1)."""
    x, w = 0.0, 1.0
    for c in codes:
        w /= base
        x += c * w
    return x


_MEMO_V1 = "observation.v1"


def _char_row(a: array, b: int, chars: dict[str, Character], cid: str, st: dict[str, int]) -> None:
    """Write character ``cid``'s row at ``a[b:]`` (the template's row before): every column but the
    two that read the observer's seat (its owner's and its spouse's owner's relative seat) and
    ``is_monarch``.  Reads the character, its Status, and its spouse's row and Status."""
    c = chars[cid]
    if c.is_pc:
        a[b + _C_PC] = 1.0
    a[b + _C_STATUS] = st[cid] / 10
    if c.titles:
        a[b + _C_TITLES] = c.titles / 2
    fs = c.fixed_status
    if fs is not None:
        a[b + _C_HFS] = 1.0
        a[b + _C_FS] = fs / 10
    li = _LOC_I.get(c.location)
    a[b + _C_LOC + (_N_LOC if li is None else li)] = 1.0
    f = b + _C_HIDING
    if c.hiding:
        a[f] = 1.0
    if c.banished:
        a[f + 1] = 1.0
    if c.imprisoned:
        a[f + 2] = 1.0
    if c.awaiting_execution:
        a[f + 3] = 1.0
    if c.wrongdoer:
        a[f + 4] = 1.0
    if c.dead:
        a[f + 5] = 1.0
    of = c.office
    if of is None:
        a[b + _C_OFFICE] = 1.0
    else:
        oi = _OFFICE_I.get(of)
        a[b + _C_OFFICE + 1 + (_N_OFFICES if oi is None else oi)] = 1.0
    f = b + _C_HENCH
    if c.henchman_card is not None:
        a[f] = 1.0
    if c.counselor_card is not None:
        a[f + 1] = 1.0
    if c.alignment_card is not None:
        a[f + 2] = 1.0
    if c.consort:
        a[f + 3] = 1.0
    if c.banned:
        a[f + 4] = 1.0
    if c.situation_turns:
        a[f + 5] = c.situation_turns / 5
    if c.escaped:
        a[f + 7] = 1.0
    pj = c.pending_justice
    if pj is not None:
        a[b + _C_JUST + _JUST_I.get(pj, _N_JUST)] = 1.0
    sp = c.spouse
    if sp is not None:
        f = b + _C_MARRIED
        a[f] = 1.0
        a[f + 1] = (CHAR_ROW[sp] + 1) / N_CHARS
        if sp in ROYALS:
            a[f + 2] = 1.0
        a[f + 3] = st[sp] / 10
    en = c.engaged_to
    if en is not None:
        a[b + _C_ENGAGED] = 1.0
        a[b + _C_ENGAGED + 1] = (CHAR_ROW[en] + 1) / N_CHARS


def _mark_owners(a: array, b: int, chars: dict[str, Character], cid: str, me: int, n: int) -> None:
    """Write the observer's columns of ``cid``'s row at ``a[b:]``: its owner's seat and its spouse's
    owner's seat, relative to ``me``."""
    c = chars[cid]
    ow = c.owner
    a[b if ow is None else b + 1 + (ow - me) % n] = 1.0
    sp = c.spouse
    if sp is not None:
        so = chars[sp].owner
        a[b + _C_SPOUSE_OWNER + (0 if so is None else 1 + (so - me) % n)] = 1.0


class _RowsV1:
    """The ``characters`` block of one state without the observer's columns, the same for every
    observer, kept in the view's ``cache`` (a live game's memo; a view from JSON has a fresh one):

    * ``tpl`` the template it was made on (its printed columns), ``rest`` the template past the block;
    * ``block`` the 47 rows (``_char_row``);
    * ``writes`` the view's ``char_writes`` (every character written, in order) and ``seen`` the
      position read in it; ``crisis`` and ``st`` the crisis flag and the Statuses the rows hold;
    * ``log`` every character whose row was rewritten since it was made, and ``seats``: each
      observer's block (the rows and his columns: ``_mark_owners``) with the position read in ``log``.

    What a row reads and how it is kept: its character's fields (written, so in ``char_writes``);
    its Status and its spouse's, compared with ``st`` whenever a character was written or the crisis
    flag moved (a Status reads only the characters and the flag, the printed table being the game's);
    its spouse's row (a field of its own) and owner (the spouse written: every character naming a
    written or re-rated character as spouse is rewritten too).  The Monarch is marked per call."""

    __slots__ = ("tpl", "rest", "block", "writes", "seen", "crisis", "st", "log", "seats")

    def __init__(self, state: SeatView, tpl: array) -> None:
        chars = state.chars
        st = state.status
        self.tpl: array = tpl
        self.rest: array = tpl[CHAR_BLOCK:]
        self.block: array = tpl[:CHAR_BLOCK]
        self.writes: list[str] = state.char_writes
        self.seen: int = len(self.writes)
        self.crisis: bool = state.support == 0
        self.st: dict[str, int] = dict(st)
        self.log: list[str] = []
        self.seats: dict[int, tuple[int, array]] = {}
        block = self.block
        for row, cid in enumerate(ALL_CHARACTER_IDS):
            _char_row(block, row * CF, chars, cid, st)

    def sync(self, state: SeatView) -> None:
        """Rewrite the rows of the characters written since, of those whose Status changed, and of
        every character whose spouse is one of these."""
        writes = self.writes
        crisis = state.support == 0
        if self.seen == len(writes) and crisis == self.crisis:
            return  # no character written, the same flag: the same Statuses
        chars = state.chars
        st = state.status
        changed = set(writes[self.seen:])
        old = self.st
        if st != old:  # (most writes change no Status)
            for cid in ALL_CHARACTER_IDS:
                if st[cid] != old.get(cid):
                    changed.add(cid)
            self.st = dict(st)
        dirty = set(changed)
        for cid in ALL_CHARACTER_IDS:
            sp = chars[cid].spouse
            if sp is not None and sp in changed:
                dirty.add(cid)
        block, tpl = self.block, self.tpl
        for cid in dirty:
            b = CHAR_ROW[cid] * CF
            block[b:b + CF] = tpl[b:b + CF]
            _char_row(block, b, chars, cid, st)
        self.log.extend(dirty)
        self.seen = len(writes)
        self.crisis = crisis


def _char_rows(state: SeatView, tpl: array) -> _RowsV1:
    """The view's ``_RowsV1``, up to date (made on first use, or again for another template or
    write log: a state whose fields were put back starts a new log and memo)."""
    rows: _RowsV1 | None = state.cache.get(_MEMO_V1)
    writes = state.char_writes
    if rows is None or rows.tpl is not tpl or rows.writes is not writes or len(writes) < rows.seen:
        rows = _RowsV1(state, tpl)
        state.cache[_MEMO_V1] = rows
    else:
        rows.sync(state)
    return rows


def _observer_block(rows: _RowsV1, state: SeatView, me: int, n: int) -> array:
    """``me``'s ``characters`` block (not to modify): ``rows``' block with his columns marked
    (``observation.observer_rows``: only the rows rewritten since his last call are copied and marked)."""
    return observer_rows(rows.block, rows.log, rows.seats, state.chars, me, n, CHAR_ROW, CF, _mark_owners)


def encode_v1(src: SeatView | GameState, observer: int) -> np.ndarray:
    """The v1 observation of ``observer`` (float32, length ``OBS_V1_SIZE``; layout ``LAYOUT_V1``) from
    his ``SeatView`` (live, or read from a ``player_view`` document) or from the game state (read
    through his view).

    Reads only what ``engine.player_view(state, observer)`` shows: the public board, the
    observer's own hand, drawn counters, Player Turn bookkeeping and pending decision."""
    me = observer
    if isinstance(src, SeatView):
        state = src
        n = state.n
        if isinstance(me, bool) or not isinstance(me, (int, np.integer)) or me != state.me:
            raise ValueError(f"the view of player {state.me} encodes his observation, not {observer!r}'s")
    else:
        n = len(src.players)
        if isinstance(me, bool) or not isinstance(me, (int, np.integer)) or not 0 <= me < n:
            raise ValueError(f"observer must be a player index 0..{n - 1}, got {observer!r}")
        state = SeatView.of(src, int(me))
    me = int(me)

    # -- characters: the rows kept up to date in the view's cache (``_RowsV1``), the observer's
    # columns marked (``_observer_block``), then the template's other blocks; the Monarch per call
    rows = _char_rows(state, _template_for(state.edition, n, tuple(state.optional)))
    a = _observer_block(rows, state, me, n) + rows.rest
    a[CHAR_ROW[state.monarch] * CF + _C["is_monarch"]] = 1.0
    chars = state.chars

    # -- seats ----------------------------------------------------------------
    order = state.order
    first, active, winner = state.first_player, state.active, state.winner
    for pl in state.players:
        idx, pc = pl.idx, pl.pc  # each field read once: a seat's fields are properties
        b = _SB + ((idx - me) % n) * SF
        a[b + _S_IP] = pl.ip / 10
        a[b + _S_IP + 1] = pl.pp / 25
        a[b + _S_IP + 2] = pl.hand_size / 5
        if pl.ball_mod:
            a[b + _S_IP + 3] = pl.ball_mod / 2
        if pl.lost_turns:
            a[b + _S_IP + 4] = pl.lost_turns / 2
        a[b + _S_PCROW] = (CHAR_ROW[pc] + 1) / N_CHARS
        if chars[pc].dead:
            a[b + _S_PCROW + 1] = 1.0
        if idx in order:
            a[b + _S_ORDER] = (order.index(idx) + 1) / MAX_PLAYERS
        if idx == first:
            a[b + _S_ORDER + 1] = 1.0
        if idx == active:
            a[b + _S_ORDER + 2] = 1.0
        if idx == winner:
            a[b + _S_ORDER + 3] = 1.0
        types = pl.in_front
        if types:
            a[b + _S_INFRONT] = len(types) / 3
            a[b + _S_INFRONT + 1] = _h("|".join(types))
            for t in types:
                a[b + _S_SUPPORT + _SUPPORT_I.get(t, _N_SUPPORT)] += 1.0
        for tk, pmod in pl.prestige_mods.items():
            j = _PRESTIGE_I[tk]
            a[b + _S_PRESTIGE + j] = pmod / 2
            a[b + _S_PRESTIGE + _N_PRESTIGE + j] = 1.0
        for tk, rolls in pl.counsels.items():
            j = _COUNSEL_I[tk]
            a[b + _S_COUNSELS + j] = len(rolls) / 3
            a[b + _S_COUNSELS + _N_COUNSEL + j] = _seq(rolls, 11)

    # -- globals --------------------------------------------------------------
    o = _G["game"] + 5
    a[o] = state.turn / 25
    support = state.support
    a[o + 1] = support / 100
    if support == 0:
        a[o + 2] = 1.0
    a[o + 3] = state.deck_size / 50
    a[o + 4] = state.discard_size / 50
    a[o + 5] = state.loyalty_pool_size / 20
    if state.over:
        a[o + 6] = 1.0
    if state.result is not None:
        a[o + 7 + _RESULT_I.get(state.result, len(RESULTS))] = 1.0
    i = _PHASE_I.get(state.phase)
    a[_G["phase"] + (len(PHASES) if i is None else i)] = 1.0
    crown = state.crown
    a[_G["crown"] + (len(CROWN_KEYS) if crown is None else _CROWN_I.get(crown, len(CROWN_KEYS) + 1))] = 1.0
    if state.forced_crown:
        o = _G["forced_crown"]
        for x in state.forced_crown:
            head, _, tail = x.partition(":")
            i = _CROWN_I.get(head)
            a[o + (len(CROWN_KEYS) if i is None else i)] += 1.0
            if tail in _PROBLEM_I:
                a[o + len(CROWN_KEYS) + 1 + _PROBLEM_I[tail]] = 1.0
        a[o + len(CROWN_KEYS) + 1 + len(PROBLEMS)] = _h("|".join(state.forced_crown))
    if state.wars:
        o = _G["wars"]
        for x in state.wars:
            a[o + _COUNTRY_I[x]] = 1.0
        a[o + len(COUNTRIES)] = _seq([_COUNTRY_I[x] + 1 for x in state.wars], 7)
    reign = state.reign
    if reign:
        o = _G["reign"]
        a[o] = 1.0
        since = reign.get("since")
        if isinstance(since, int):
            a[o + 1] = (state.turn - since) / 4
        extra = 0.0
        for k, rv in reign.items():
            if k == "cid" and rv in CHAR_ROW:
                a[CHAR_ROW[rv] * CF + _C["reign_farc"]] = 1.0
            elif k == "player" and isinstance(rv, int) and 0 <= rv < n:
                a[_SB + ((rv - me) % n) * SF + _S["reign_player"]] = 1.0
            elif k != "since":
                extra += _h(f"{k}={_canon(rv, k, me, n)}")
        a[o + 2] = extra
    if state.problems:
        o0 = _G["problems"]
        for pk, pr in state.problems.items():
            i = _PROBLEM_I.get(pk)
            if i is None:
                continue
            o = o0 + i * _NPF
            a[o] = 1.0
            extra = 0.0
            for k, pv in pr.items():
                if k == "fails":
                    a[o + 1] = pv / 3
                elif k == "turns":
                    a[o + 2] = pv / 10
                elif k == "minister":
                    if pv in CHAR_ROW:
                        a[o + 3] = (CHAR_ROW[pv] + 1) / N_CHARS
                        a[CHAR_ROW[pv] * CF + _C["problem_minister"]] += 1.0
                elif k == "countries":
                    for px in pv:
                        a[o + 5 + _COUNTRY_I[px]] = 1.0
                    if len(pv) > 1:
                        extra += _h(f"countries={pv}")
                else:
                    extra += _h(f"{k}={_canon(pv, k, me, n)}")
            a[o + 4] = extra
    o = _G["hand"]
    for x in state.hand:
        a[o + _CARD_INDEX[x]] += 0.5
    o = _G["opportunity_drawn"]
    for x in state.opportunity_drawn:
        a[o + _OPP_I[x]] += 0.5
    for x in state.loyalty_drawn:
        a[CHAR_ROW[x] * CF + _C["loyalty_drawn_by_me"]] = 1.0
    o = _G["discard"]
    for tk, cnt in state.discard_counts.items():
        a[o + _CARD_INDEX[tk]] += 0.25 * cnt  # quarters: exact in float32, as one card at a time
    # the activities done this Player Turn (whoever's), and the observer's own bookkeeping
    done = state.activities_done
    if done:
        o = _G["activities_done"]
        for x in done:
            i = _ACT_I.get(x)
            a[o + (len(ACTIVITY_WORDS) + _bucket(x, ACT_BUCKETS) if i is None else i)] += 1.0
        a[o + len(ACTIVITY_WORDS) + ACT_BUCKETS] = len(done) / 4
        a[o + len(ACTIVITY_WORDS) + ACT_BUCKETS + 1] = _h("|".join(done))
    pt = state.turn_state
    if pt is not None:
        a[_G["turn_state"]] = 1.0
        for k, tv in pt.items():
            _leaf(a, k, tv, me, n, _PT_SPEC, True)
    d = state.decision
    if d is not None:
        kind = d.kind
        i = _KIND_I.get(kind)
        a[_G["decision_kind"] + (len(DECISION_KINDS) + _bucket(kind, KIND_BUCKETS) if i is None else i)] = 1.0
        for k, cv in d.ctx.items():
            _leaf(a, k, cv, me, n, _CTX_SPEC, True)
    return np.frombuffer(a, dtype=np.float32)


# ---------------------------------------------------------------------------
# Documentation (docs/observation_v1.md is generated from this)
# ---------------------------------------------------------------------------
_CHAR_DOC: tuple[tuple[str, str], ...] = (
    ("owner_none, owner_seat0..5", "faction one-hot: neutral, or the relative seat of its owner"),
    ("is_pc", "a player character"),
    ("status", "Status Rating (`view['status']`, titles, spouse, office included) / 10"),
    ("titles", "titles acquired / 2"),
    ("has_fixed_status, fixed_status", "a fixed Status (§18.10, §31.7) and its value / 10"),
    ("loc_fandonia..loc_besyzan, loc_other", "location one-hot"),
    ("hiding, banished, imprisoned, awaiting_execution, wrongdoer, dead", "situation flags"),
    ("office_none, office_<key>, office_other", "office one-hot (13 offices)"),
    ("henchman, counselor, aligned", "a Henchman / Monarch's Counselor / Royal Alignment card on it"),
    ("consort, banned", "a non-RC King/Queen; banned from Court Balls"),
    ("situation_turns", "turns banished or imprisoned / 5"),
    ("is_monarch, escaped", "the Monarch; an escaped prisoner"),
    ("justice_accuse..justice_trial, justice_other", "proceedings suspended by a war (one-hot)"),
    ("married, spouse_row, spouse_royal, spouse_status",
     "married; the spouse's row (row + 1) / 47; the spouse is a royal; the spouse's Status / 10"),
    ("spouse_owner_none, spouse_owner_seat0..5", "the spouse's faction one-hot (relative seat)"),
    ("engaged, engaged_row", "an accepted proposal and the fiance(e)'s (row + 1) / 47"),
    ("loyalty_drawn_by_me", "the observer drew its Loyalty counter this turn (hidden from others)"),
    ("problem_minister", "number of unresolved problems it is the responsible Minister of"),
    ("reign_farc", "the FARC whose reign is being recorded (§37)"),
    ("pt_proposals, pt_other", "named in the observer's own Player Turn bookkeeping (proposals made)"),
    ("ctx_<role>", "named in the observer's pending decision's context under that key (roles: "
     + ", ".join(CHAR_CTX_ROLES) + "); text_first/text_other: the first/later character named in a "
     "free text such as a roll label ('Assassination Table (A against B)': A first, B other)"),
    ("printed_status, royal, female, ability, dueling, seduction",
     "printed data (this edition and player count): Status / 10, royal, female, ratings / 6"),
    ("never_abroad, office_eligible, no_title", "printed restrictions"),
    ("succession, uv_dice, uv_mult", "royals: place in the order of succession / 9, Usurpation Value "
     "dice / 2 and multiplier / 3"),
)
_SEAT_DOC: tuple[tuple[str, str], ...] = (
    ("present", "a player sits there (seats >= the player count are all zero)"),
    ("ip, pp", "Influence Points / 10, Prestige Points / 25"),
    ("hand_size, ball_mod, lost_turns", "cards in hand / 5, Court Ball modifier / 2, Player Turns to lose / 2"),
    ("pc_row, pc_dead", "his PC's (row + 1) / 47; the PC is face-down"),
    ("order_pos, is_first, is_active, is_winner, reign_player",
     "(place in this turn's player order + 1) / 6; first player; whose Player Turn it is; the winner; "
     "the player whose FARC reign is recorded"),
    ("in_front_count, in_front_seq", "Support cards in front of him / 3; a 24-bit hash of their types in order"),
    ("in_front_<type>, in_front_other", "count of each Support card type in front of him (§14.5.2)"),
    ("prestige_<table>, prestige_entry_<table>", "Prestige Table modifiers / 2 (10 tables); the Record "
     "Sheet has an entry for the table (a modifier of 0 included)"),
    ("counsels_<table>, counsel_seq_<table>", "counsels made on each Counseling Table / 3, and their "
     "numbers in order as sum(k_i * 11^-i)"),
    ("ctx_<role>, pt_named", "named in the pending decision's context (roles: "
     + ", ".join(SEAT_CTX_ROLES) + "; text: 'player N' in a free text), or in the Player Turn bookkeeping"),
)
_GLOBAL_DOC: dict[str, str] = {
    "game": "player count one-hot (2..6); turn / 25; Monarch's Support / 100; crisis (Support 0); Event pile "
            "size / 50; discard pile size / 50; Loyalty pool size / 20; game over; result one-hot (win, draw, "
            "truncated, other).",
    "phase": "phase one-hot (+ other).",
    "crown": "this turn's Crown Events result one-hot (+ none, other).",
    "forced_crown": "next turn's automatic results: count per Crown result (+ other), the problem named by a "
                    "forced 'one problem', and a hash of the list in order.",
    "wars": "countries at war with Fandonia, and their order as sum(k_i * 7^-i).",
    "reign": "a FARC reign recorded (§37); (turn - since) / 4; hash of any other field.",
    "problems": "per political problem: unresolved, consecutive failures / 3, turns unresolved / 10, the "
                "responsible Minister's (row + 1) / 47, hash of any other field, countries (Foreign War).",
    "hand": "the observer's own hand: count / 2 per Event card type (CARD_TYPE_KEYS order).",
    "opportunity_drawn": "the observer's drawn Opportunity counters: count / 2 per kind.",
    "discard": "the discard pile: count / 4 per card type (the pile is a multiset: no rule reads its order).",
    "activities_done": "activities done in the current Player Turn (public): count per activity (+ hashed "
                       "buckets), number / 4, hash of the list in order.",
    "decision_kind": "the observer's pending decision kind one-hot (+ hashed buckets for kinds added later); "
                     "all zero when he is not deciding.",
    "ctx_keys": "the pending decision's context, one slot per key of CTX_KEYS (+ 8 hashed buckets for new "
                "keys), each: present, None, bool (+1/-1), number (/ 10; seats: relative seat / 10), list "
                "length / 5, 24-bit hash of the value (observer-relative).",
    "ctx_strings": "strings in the context: words (activities, tables, offices, countries, card types, Crown "
                   "results, ...) and free-text templates (TEXT_TEMPLATES), one-hot (+ 16 hashed buckets).",
    "turn_state": "pt_present (the observer's own Player Turn bookkeeping is shown), then one slot per key of "
                  "PT_KEYS (+ 8 buckets), as for ctx_keys (proposals made, activities granted...).",
    "pt_strings": "strings in the Player Turn bookkeeping (activities, Prestige Tables), one-hot (+ 4 buckets).",
    "rules": "the rules in play: errata edition, then one flag per optional rule (OPTIONAL_RULES order).",
}


def observation_v1_md() -> str:
    """The text of ``docs/observation_v1.md``."""
    g0 = LAYOUT_V1["globals"][0]
    out = [
        "# The observation, version 1",
        "",
        "Env `fandonia_v1` (package 0.3.0): `{\"observation\": Box(-inf, inf, (OBS_V1_SIZE,), float32),",
        "\"action_mask\": Box(0, 1, (NUM_ACTIONS,), int8)}`. Encoder:",
        "`fandonia_env.spaces.observation_v1.encode_v1(state, observer)`. Generated by",
        "`observation_v1_md()` (scripts/make_docs.py).",
        "",
        "It carries the observer's whole information state: everything `engine.player_view(state, p)`",
        "shows (the log aside; the pending decision's options are the action mask). Two states whose",
        "views for p differ encode differently for p (tests/test_observation_v1.py). Values are divided",
        "by the fixed scales below and never clipped. Seats are relative: seat row 0 is the observer,",
        "row k the player k seats to his left, so one policy serves every seat and player count 2-6.",
        "",
        f"Length `OBS_V1_SIZE` = {OBS_V1_SIZE}. `split_v1(vec)` returns views of the three blocks",
        "(also for a batch `(..., OBS_V1_SIZE)`); `label_v1(i)` names index i.",
        "",
        "| block | offset | shape | contents |",
        "|---|---|---|---|",
        f"| `characters` | 0 | ({N_CHARS}, {CF}) | one row per character, `ALL_CHARACTER_IDS` order "
        "(36 nobles 11..66, then the royals george..jane) |",
        f"| `seats` | {_SB} | ({MAX_PLAYERS}, {SF}) | one row per relative seat |",
        f"| `globals` | {g0} | ({len(GLOBAL_FEATURES)},) | sub-blocks below |",
        "",
        f"## Character row features ({CF})",
        "",
        "| features | meaning / scale |",
        "|---|---|",
    ]
    out += [f"| `{k}` | {v} |" for k, v in _CHAR_DOC]
    out += ["", "Columns, in order: " + ", ".join(f"`{f}`" for f in CHAR_FEATURES) + ".", "",
            f"## Seat row features ({SF})", "", "| features | meaning / scale |", "|---|---|"]
    out += [f"| `{k}` | {v} |" for k, v in _SEAT_DOC]
    out += ["", "Columns, in order: " + ", ".join(f"`{f}`" for f in SEAT_FEATURES) + ".", "",
            "## Globals", "", "| sub-block | offset | size | contents |", "|---|---|---|---|"]
    out += [f"| `{name}` | {off} | {size} | {_GLOBAL_DOC[name]} |" for name, (off, size) in GLOBAL_BLOCKS.items()]
    out += [
        "",
        "## The decision context and the Player Turn bookkeeping",
        "",
        "Both are dictionaries whose keys grow with the rules, so they are encoded by key slots.",
        "`CTX_KEYS` (frozen, append-only): " + ", ".join(f"`{k}`" for k in CTX_KEYS) + ".",
        "`PT_KEYS`: " + ", ".join(f"`{k}`" for k in PT_KEYS) + ".",
        "A key outside these lists (a rule added later) is hashed into one of 8 extra slots, so it is",
        "still encoded. Lists and nested values are walked: every character id marks the `ctx_<role>`",
        "column of its row (the role is the key: " + ", ".join(CHAR_CTX_ROLES[:-3]) + "; any other key:",
        "`ctx_other`); an integer under a seat key (" + ", ".join(sorted(SEAT_INT_KEYS)) + ") is a",
        "player, encoded as his relative seat (keys ending in `_rel` are relative already) and marks the",
        "seat row. A string is a word of the vocabulary, or a free text: character names, `player N`",
        "and numbers are taken out (`text_template`), the names mark rows (`ctx_text_first`,",
        "`ctx_text_other`), the players mark seats (`ctx_text`), the first number goes to the slot's",
        "number, and the template is looked up in `TEXT_TEMPLATES` (derived from the game data where",
        "the engine builds texts from it: offices, problems, Prestige Table rows). Each slot keeps a",
        "24-bit hash of its whole value, so that contexts differing anywhere encode differently.",
        "",
        f"{len(TEXT_TEMPLATES)} text templates: " + "; ".join(f"`{t}`" for t in TEXT_TEMPLATES) + ".",
        "",
        "## Action-to-entity maps",
        "",
        "Static `np.int16` arrays of length `NUM_ACTIONS`, derived from the catalogue's names",
        "(engine/core/actions.py), -1 where the action names no such entity:",
        "",
        "* `ACTION_CHARACTER[a]`: the character row named by `char_<id>` (row = index in",
        "  `ALL_CHARACTER_IDS`), so a policy scores \"choose character X\" from X's row;",
        "* `ACTION_SEAT[a]`: `player_rel_k` -> k, the seat row of the player k seats to the decider's left",
        "  (the decider is the observer, seat row 0);",
        "* `ACTION_CARD_TYPE[a]`: the card type (index in `CARD_TYPE_KEYS`, the `hand` sub-block's column)",
        "  of `play_<type>`, `discard_<type>`, `fandonian_support_<type>`; `play_intrigue_as_<type>`",
        "  spends an Intrigue card, so it maps to `intrigue`.",
        "",
        f"{int((ACTION_CHARACTER >= 0).sum())} character actions, {int((ACTION_SEAT >= 0).sum())} seat "
        f"actions, {int((ACTION_CARD_TYPE >= 0).sum())} card-type actions.",
        "",
        "## Version history",
        "",
        "* v0 (0.1.0, 0.2.0): `fandonia_env.spaces.observation` (docs/observation.md), 2,937 floats in",
        "  [-1, 1]: Support cards in front only counted, spouses only flagged, decision context as a bag",
        "  of words without keys, the Player Turn bookkeeping partly, values clipped (Status 12, IP 50,",
        "  PP 100).",
        f"* v1 (0.3.0): this layout, {OBS_V1_SIZE} floats, unbounded; env `fandonia_v1`.",
    ]
    return "\n".join(out) + "\n"

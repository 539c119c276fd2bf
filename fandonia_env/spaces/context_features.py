"""Decision-context features: what a seat's view says about the decision in front of it.

The v1 observation carries a roll's label as a text template with the characters it names
marked on their rows; reading "is this my character's trial?" from that is a join across 47 rows
that a network learns slowly.  This block states such facts directly, for one seat:

* ``prev_kind_*``: the kind of the seat's own previous decision (one with two or more options;
  ``prev_kind_none`` before the first).  This is the seat's own history, which neither the view
  nor the state records: the caller keeps it (``fandonia_env.training.collect`` per seat, ``fandonia_env/agents/ppo_agent.py``
  per game) and passes it in;
* ``roll_*``: the class of the roll named by the decision's ``ctx["roll"]`` (trial or hearing,
  scandal, assassination...), who owns the character it names (``roll_owner_me/opp/none/unknown``),
  for an Assassination Table whether the assassin / the target is the seat's and whether the target
  is the seat's Monarch, and whether a character named in ``ctx["why"]`` is the seat's;
* ``prestige_<table>_*``: for every Prestige Table, the outcome distribution of one roll with the
  seat's modifier (capped, plus a bought +1 when the decision says so): expected PP, expected IP in
  PP (§35.8 price), the expected loss or gain of the all-IP / all-PP rows, the table's IP cost in
  PP (these PP amounts / ``PP_SCALE``), the mean row modifier and the probability of every other
  effect code.

A second block, ``char_context`` (``encode_char_context``), gives every character a row of the
decision's facts about him, read by the policy's entity head next to his v1 row: ``royal``,
``shortfall_decision`` (the decision names a PP shortfall: ``ctx`` has ``required`` and ``pp``, as
the §35.5 PP-limit choice does), ``covers_shortfall`` (his Status is at least the shortfall),
``status_minus_shortfall`` / 10, ``row_position`` (his place in the catalogue / 47: the
order in which the characters' actions are listed) and ``status_gap_points`` (his Status minus the
shortfall, in points: one point of Status is a whole unit, so a policy tells neighbours apart).

Every value is a function of ``player_view(state, p)`` and ``prev_kind`` only, so the block carries
no hidden information.  ``encode_context_features(src, p, prev_kind)`` takes a ``GameState`` or
``p``'s view.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..engine.data.components import ALL_CHARACTER_IDS, ROYALS, character_name
from ..engine.data.tables import PRESTIGE_MODIFIER_CAP, PRESTIGE_TABLES, lookup
from ..engine.face.seat import SeatView
from ..engine.rules.rule_queries import gains_halved, pp_price
from .observation_v1 import DECISION_KINDS

ROLL_CLASSES: tuple[str, ...] = ("none", "hearing_trial", "interrogation", "scandal", "assassination", "duel",
                                 "royal_favor", "counseling", "seduction", "escape", "resolution", "other")
ROLL_FACTS: tuple[str, ...] = ("owner_me", "owner_opp", "owner_none", "owner_unknown", "assassin_mine",
                               "target_mine", "target_my_monarch", "why_mine", "my_turn")
#: divides the PP-valued Prestige features (typical values O(1), as v1's scales)
PP_SCALE = 10.0
_SUMS = ("e_pp", "e_ip", "lose_all_ip", "lose_all_pp", "double_pp", "double_ip", "e_mod", "cost_ip")
PRESTIGE_CODES: tuple[str, ...] = tuple(sorted(
    {s for t in PRESTIGE_TABLES.values() for r in t["rows"] for s in r[2]["special"]}
    - {"lose_all_ip", "lose_all_pp", "double_pp", "double_ip"}))
CONTEXT_FEATURES: tuple[str, ...] = tuple(
    [f"prev_kind_{k}" for k in DECISION_KINDS] + ["prev_kind_other", "prev_kind_none"]
    + [f"roll_{c}" for c in ROLL_CLASSES] + [f"roll_{f}" for f in ROLL_FACTS]
    + [f"prestige_{t}_{f}" for t in PRESTIGE_TABLES for f in (*_SUMS, *PRESTIGE_CODES)])
CONTEXT_FEATURES_SIZE: int = len(CONTEXT_FEATURES)
CHAR_CONTEXT: tuple[str, ...] = ("royal", "shortfall_decision", "covers_shortfall", "status_minus_shortfall",
                                 "row_position", "status_gap_points")
CHAR_CONTEXT_ROWS: int = len(ALL_CHARACTER_IDS)
CHAR_CONTEXT_SIZE: int = CHAR_CONTEXT_ROWS * len(CHAR_CONTEXT)
_ROYAL_COL = np.array([float(c in ROYALS) for c in ALL_CHARACTER_IDS], dtype=np.float32)
_POSITION_COL = np.arange(CHAR_CONTEXT_ROWS, dtype=np.float32) / CHAR_CONTEXT_ROWS
_KIND = {k: i for i, k in enumerate(DECISION_KINDS)}
_ROLL = len(DECISION_KINDS) + 2
_FACT = _ROLL + len(ROLL_CLASSES)
_PRESTIGE = _FACT + len(ROLL_FACTS)
_PER_TABLE = len(_SUMS) + len(PRESTIGE_CODES)
assert _PRESTIGE + len(PRESTIGE_TABLES) * _PER_TABLE == CONTEXT_FEATURES_SIZE
#: where the Prestige Tables' rows start in the block, and each row's width: the rows are equal
#: (one per table, in ``PRESTIGE_TABLES`` order), so a policy can score ``prestige_<table>`` from
#: its table's row with weights shared by the tables (the ``prestige_tables`` entity block of v1c)
PRESTIGE_ROWS_OFFSET: int = _PRESTIGE
PRESTIGE_ROW_SIZE: int = _PER_TABLE
_NAME_TO_CID = {character_name(c): c for c in ALL_CHARACTER_IDS}
_NAMES_BY_LEN = sorted(_NAME_TO_CID, key=len, reverse=True)  # "Sir Richard" never inside a longer name
_TWO_DICE = {s: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == s) / 36 for s in range(2, 13)}


def roll_class(label: str) -> str:
    """The class of a roll from its label (the engine's ``modified_roll`` labels)."""
    if not label:
        return "none"
    if label.startswith(("Hearing of", "Trial of")):
        return "hearing_trial"
    for prefix, cls in (("Interrogation of", "interrogation"), ("Scandal Table", "scandal"),
                        ("Assassination Table", "assassination"), ("Duel (", "duel"), ("escape of", "escape")):
        if label.startswith(prefix):
            return cls
    if label == "Royal Favor Table":
        return "royal_favor"
    if label == "Counseling Results Table":
        return "counseling"
    if label == "Seduction":
        return "seduction"
    if "resolution (Ability" in label:
        return "resolution"
    return "other"


def _owner_of(view: dict[str, Any], text: str) -> int | None | str:
    """The owner of the (longest-named) character ``text`` names; "?" when it names none."""
    for n in _NAMES_BY_LEN:
        if n in text:
            return view["chars"][_NAME_TO_CID[n]]["owner"]
    return "?"


@lru_cache(maxsize=4096)
def _prestige_row_sums(table: str, mod: int) -> tuple[float, ...]:
    """(E pp, E ip, P lose_all_ip, P lose_all_pp, P double_pp, P double_ip, E row mod, P code...)."""
    t = PRESTIGE_TABLES[table]
    acc = np.zeros(7 + len(PRESTIGE_CODES))
    for k, p in _TWO_DICE.items():
        r = lookup(t, k + mod)
        acc[0] += p * r["pp"]
        acc[1] += p * r["ip"]
        acc[6] += p * r["mod"]
        for s in r["special"]:
            if s in ("lose_all_ip", "lose_all_pp", "double_pp", "double_ip"):
                acc[2 + ("lose_all_ip", "lose_all_pp", "double_pp", "double_ip").index(s)] += p
            else:
                acc[7 + PRESTIGE_CODES.index(s)] += p
    return tuple(float(x) for x in acc)


def _view_of(src: Any, p: int) -> dict[str, Any]:
    """The view document of ``p``: ``src`` itself, or that of his ``SeatView`` (of a ``GameState``)."""
    if isinstance(src, dict):
        return src
    if not isinstance(src, SeatView):
        src = SeatView.of(src, p)
    return src.to_json()


def encode_char_context(src: Any, p: int) -> np.ndarray:
    """The ``char_context`` rows of seat ``p`` (float32, ``CHAR_CONTEXT_SIZE`` = 47 rows x
    ``CHAR_CONTEXT``, row-major) from a ``GameState`` or ``p``'s own view."""
    view = _view_of(src, p)
    out = np.zeros((CHAR_CONTEXT_ROWS, len(CHAR_CONTEXT)), dtype=np.float32)
    out[:, 0] = _ROYAL_COL
    out[:, 4] = _POSITION_COL
    ctx = (view.get("decision") or {}).get("ctx") or {}
    req, pp = ctx.get("required"), ctx.get("pp")
    if isinstance(req, int) and isinstance(pp, int):
        short = req - pp
        st = view["status"]
        out[:, 1] = 1.0
        for i, c in enumerate(ALL_CHARACTER_IDS):
            v = st.get(c)
            if v is not None:
                out[i, 2] = float(v >= short)
                out[i, 3] = (v - short) / 10.0
                out[i, 5] = float(v - short)
    return out.reshape(-1)


def encode_context_features(src: Any, p: int, prev_kind: str | None = None) -> np.ndarray:
    """The context features of seat ``p`` (float32, ``CONTEXT_FEATURES_SIZE``) from a ``GameState``
    or ``p``'s own view, and the kind of ``p``'s previous decision (None: none yet)."""
    view = _view_of(src, p)
    me = view["me"]
    out = np.zeros(CONTEXT_FEATURES_SIZE, dtype=np.float32)
    out[len(DECISION_KINDS) + 1 if prev_kind is None else _KIND.get(prev_kind, len(DECISION_KINDS))] = 1.0
    dec = view.get("decision") or {}
    ctx = dec.get("ctx") or {}
    label = ctx.get("roll")
    label = label if isinstance(label, str) else ""
    cls = roll_class(label)
    out[_ROLL + ROLL_CLASSES.index(cls)] = 1.0
    if label:
        o = _owner_of(view, label)
        out[_FACT + (0 if o == me else 3 if o == "?" else 2 if o is None else 1)] = 1.0
    if cls == "assassination":
        inner = label[label.find("(") + 1:label.rfind(")")]
        a_txt, _, t_txt = inner.partition(" against ")
        out[_FACT + 4] = float(_owner_of(view, a_txt) == me)
        out[_FACT + 5] = float(_owner_of(view, t_txt) == me)
        mon = view["monarch"]
        out[_FACT + 6] = float(bool(t_txt) and mon is not None and _NAME_TO_CID.get(t_txt.strip()) == mon
                               and view["chars"][mon]["owner"] == me)
    why = ctx.get("why")
    if isinstance(why, str):
        out[_FACT + 7] = float(any(n in why and view["chars"][_NAME_TO_CID[n]]["owner"] == me
                                   for n in _NAMES_BY_LEN))
    out[_FACT + 8] = float(view.get("turn_state") is not None)
    pl = view["players"][me]
    f = 0.5 if gains_halved(view, me) else 1.0
    price = float(pp_price(view))
    bonus = 1 if ctx.get("bought") else 0
    cap = PRESTIGE_MODIFIER_CAP
    for i, (t, spec) in enumerate(PRESTIGE_TABLES.items()):
        mod = max(-cap, min(cap, pl["prestige_mods"].get(t, 0))) + bonus
        s = _prestige_row_sums(t, mod)
        o = _PRESTIGE + i * _PER_TABLE
        pp_values = (f * s[0], f * s[1] / price, f * s[2] * pl["ip"] / price, f * s[3] * pl["pp"],
                     f * s[4] * pl["pp"], f * s[5] * pl["ip"] / price)
        out[o:o + 8] = (*(v / PP_SCALE for v in pp_values), s[6], int(spec.get("cost_ip", 0)) / price / PP_SCALE)
        out[o + 8:o + _PER_TABLE] = s[7:]
    return out

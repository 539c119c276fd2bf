"""Observation encoder: a player's view as one fixed-length float32 vector.

The same layout serves every seat and every player count 2-6: everything about players is
encoded *relative to the observer* (seat 0 = the observer, seat k = the player k seats to his
left; seats beyond the table size are flagged absent), and every character's faction is given
as a relative seat.  The encoder reads only ``engine.player_view(state, observer)``, so it
cannot see anything the observer may not know.

``LAYOUT`` lists the blocks in order (name, size); ``label(i)`` names index ``i``;
``docs/observation.md`` describes every block.  Scales: counts and points are divided by a
fixed constant and clipped to [0, 1] (or [-1, 1] for signed values).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.actions import ACTIVITIES, COUNSEL_TABLES, PRESTIGE_TABLES, PROBLEMS
from ..engine.data.components import (
    ALL_CHARACTER_IDS,
    CARD_TYPE_KEYS,
    COUNTRIES,
    LOYALTY_IDS,
    OFFICE_KEYS,
    OPPORTUNITY_TYPES,
)
from ..engine.game import player_view
from ..engine.state import GameState

MAX_PLAYERS = 6
PHASES = ("setup", "first_player", "offices", "problems", "crown", "player_turns", "player_turn",
          "end_of_turn", "over")
CROWN_KEYS = ("royal_death", "famine", "intrigue", "court_ball", "two_problems", "one_problem",
              "scandal", "plague")
LOCATIONS = ("fandonia",) + COUNTRIES
OPP_KINDS = tuple(OPPORTUNITY_TYPES)
ACTIVITY_KEYS = tuple(k for k, _ in ACTIVITIES)
#: Decision kinds known to the encoder (append-only); anything else is encoded as "other".
DECISION_KINDS: tuple[str, ...] = (
    "other", "assassin", "assassination_card", "assassination_target", "banish_country",
    "card_sign", "card_window", "choose_draw", "choose_judge", "counsel_choice",
    "counsel_counselor", "counsel_table", "counsel_target", "counselor_character", "court_ball_ban",
    "court_ball_designate", "crown_intrigue", "crown_order", "death_discard", "declare_modifier",
    "draw_choice", "duel_card_target", "duel_fighter", "escape_card", "escape_country",
    "escape_target", "extradite_target", "farc_pardon", "favor_farc", "favor_henchman",
    "favor_through_henchman", "fill_office_char", "fill_office_office", "hand_limit_discard",
    "hearing_hiding", "henchman_character", "hide_char", "hide_from_hearing", "intrigue_grant",
    "intrigue_victim", "mourning_discard", "office_fill", "office_select", "pardon_target",
    "pp_limit_lose", "prestige_designate", "prestige_roll_again", "prestige_table",
    "problem_leave_unresolved", "problem_order", "propose_proposee", "propose_proposer",
    "propose_use_auto", "recruit_character", "royal_alignment", "scandal_target", "seduce_target",
    "seducer", "suicide_char", "title_character", "travel_character", "travel_destination",
    "treachery_card", "treachery_target", "turn_main", "unhide_char", "use_any_activity",
    "usurp_farc", "usurp_support", "voluntary_discard", "wedding_attend", "wedding_pair",
)
_KIND_INDEX = {k: i for i, k in enumerate(DECISION_KINDS)}

CHAR_FEATURES = (
    ["owner_none"] + [f"owner_seat{k}" for k in range(MAX_PLAYERS)]
    + ["is_pc", "status", "titles", "fixed_status"]
    + [f"loc_{x}" for x in LOCATIONS]
    + ["hiding", "banished", "imprisoned", "awaiting_execution", "wrongdoer", "dead"]
    + ["office_none"] + [f"office_{o}" for o in OFFICE_KEYS]
    + ["henchman", "counselor", "aligned", "married", "consort", "banned", "engaged", "situation_turns",
       "is_monarch"]
)
SEAT_FEATURES = (
    ["present", "ip", "pp", "hand_size", "ball_mod", "lost_turns", "in_front", "order_pos",
     "is_first", "is_active", "pc_dead"]
    + [f"prestige_{t}" for t in PRESTIGE_TABLES]
    + [f"counsels_{t}" for t in COUNSEL_TABLES]
)
CTX_VOCAB: tuple[str, ...] = tuple(dict.fromkeys(
    ACTIVITY_KEYS + PRESTIGE_TABLES + COUNSEL_TABLES + OFFICE_KEYS + LOCATIONS + CARD_TYPE_KEYS + CROWN_KEYS
))
_CTX_INDEX = {k: i for i, k in enumerate(CTX_VOCAB)}
_CHAR_INDEX = {c: i for i, c in enumerate(ALL_CHARACTER_IDS)}
CTX_NUM_SLOTS = 4

LAYOUT: tuple[tuple[str, int], ...] = (
    ("global", 6 + 5 + len(PHASES) + len(CROWN_KEYS) + 1 + 1 + 5),
    ("problems", len(PROBLEMS) * 3),
    ("wars", len(COUNTRIES)),
    ("seats", MAX_PLAYERS * len(SEAT_FEATURES)),
    ("characters", len(ALL_CHARACTER_IDS) * len(CHAR_FEATURES)),
    ("hand", len(CARD_TYPE_KEYS)),
    ("loyalty_drawn", len(LOYALTY_IDS)),
    ("opportunity_drawn", len(OPP_KINDS)),
    ("turn_state", 8),
    ("discard", len(CARD_TYPE_KEYS)),
    ("decision_kind", len(DECISION_KINDS)),
    ("decision_ctx_words", len(CTX_VOCAB)),
    ("decision_ctx_chars", len(ALL_CHARACTER_IDS)),
    ("decision_ctx_seats", MAX_PLAYERS),
    ("decision_ctx_numbers", CTX_NUM_SLOTS),
)
OBS_SIZE: int = sum(n for _, n in LAYOUT)
_OFFSET: dict[str, int] = {}
_o = 0
for _name, _n in LAYOUT:
    _OFFSET[_name] = _o
    _o += _n


def _labels() -> list[str]:
    out: list[str] = []
    out += ["turn", "support", "crisis", "deck_size", "loyalty_pool", "discard_size"]
    out += [f"n_players_{k}" for k in range(2, 7)]
    out += [f"phase_{p}" for p in PHASES]
    out += [f"crown_{c}" for c in CROWN_KEYS] + ["crown_none", "forced_court_ball"]
    out += ["reign_active"] + [f"reign_turns_{i}" for i in range(4)]
    for p in PROBLEMS:
        out += [f"problem_{p}", f"problem_{p}_fails", f"problem_{p}_turns"]
    out += [f"war_{c}" for c in COUNTRIES]
    for s in range(MAX_PLAYERS):
        out += [f"seat{s}_{f}" for f in SEAT_FEATURES]
    for c in ALL_CHARACTER_IDS:
        out += [f"char_{c}_{f}" for f in CHAR_FEATURES]
    out += [f"hand_{t}" for t in CARD_TYPE_KEYS]
    out += [f"loyalty_drawn_{c}" for c in LOYALTY_IDS]
    out += [f"opportunity_drawn_{k}" for k in OPP_KINDS]
    out += ["pt_activities_done", "pt_extra", "pt_any_activity", "pt_intrigue", "pt_scandal", "pt_favor",
            "pt_no_more", "pt_restricted"]
    out += [f"discard_{t}" for t in CARD_TYPE_KEYS]
    out += [f"decision_kind_{k}" for k in DECISION_KINDS]
    out += [f"ctx_{w}" for w in CTX_VOCAB]
    out += [f"ctx_char_{c}" for c in ALL_CHARACTER_IDS]
    out += [f"ctx_seat{s}" for s in range(MAX_PLAYERS)]
    out += [f"ctx_number_{i}" for i in range(CTX_NUM_SLOTS)]
    return out


LABELS: tuple[str, ...] = tuple(_labels())
assert len(LABELS) == OBS_SIZE, (len(LABELS), OBS_SIZE)


def label(i: int) -> str:
    """The name of observation index ``i``."""
    return LABELS[i]


def _clip(x: float) -> float:
    return 0.0 if x < 0 else 1.0 if x > 1 else x


def encode(state: GameState, observer: int) -> np.ndarray:
    """The observation vector of ``observer`` (float32, length ``OBS_SIZE``)."""
    return encode_view(player_view(state, observer, log=False))


def encode_view(v: dict[str, Any]) -> np.ndarray:
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    me = v["me"]
    n = v["n_players"]

    def seat(p: int | None) -> int | None:
        return None if p is None else (p - me) % n

    o = _OFFSET["global"]
    obs[o + 0] = _clip(v["turn"] / 100)
    obs[o + 1] = v["support"] / 120
    obs[o + 2] = 1.0 if v["support"] == 0 else 0.0
    obs[o + 3] = v["deck_size"] / 120
    obs[o + 4] = v["loyalty_pool_size"] / 36
    obs[o + 5] = len(v["discard"]) / 120
    obs[o + 6 + (n - 2)] = 1
    o2 = o + 11
    ph = v["phase"]
    if ph in PHASES:
        obs[o2 + PHASES.index(ph)] = 1
    o2 += len(PHASES)
    if v["crown"] in CROWN_KEYS:
        obs[o2 + CROWN_KEYS.index(v["crown"])] = 1
    else:
        obs[o2 + len(CROWN_KEYS)] = 1
    o2 += len(CROWN_KEYS) + 1
    obs[o2] = 1.0 if "court_ball" in v["forced_crown"] else 0.0
    o2 += 1
    reign = v.get("reign") or {}
    if reign:
        obs[o2] = 1.0
        turns = max(0, min(3, v["turn"] - int(reign.get("since", v["turn"]))))
        obs[o2 + 1 + turns] = 1.0

    o = _OFFSET["problems"]
    for i, pk in enumerate(PROBLEMS):
        pr = v["problems"].get(pk)
        if pr is not None:
            obs[o + 3 * i] = 1
            obs[o + 3 * i + 1] = _clip(pr.get("fails", 0) / 3)
            obs[o + 3 * i + 2] = _clip(pr.get("turns", 0) / 10)
    o = _OFFSET["wars"]
    for i, c in enumerate(COUNTRIES):
        if c in v["wars"]:
            obs[o + i] = 1

    o = _OFFSET["seats"]
    nf = len(SEAT_FEATURES)
    order = v["order"]
    for pl in v["players"]:
        s = seat(pl["idx"])
        b = o + s * nf
        obs[b + 0] = 1
        obs[b + 1] = _clip(pl["ip"] / 50)
        obs[b + 2] = _clip(pl["pp"] / 100)
        obs[b + 3] = _clip(pl["hand_size"] / 15)
        obs[b + 4] = pl["ball_mod"] / 2
        obs[b + 5] = _clip(pl["lost_turns"] / 2)
        obs[b + 6] = _clip(len(pl["in_front"]) / 6)
        if pl["idx"] in order:
            obs[b + 7] = order.index(pl["idx"]) / (MAX_PLAYERS - 1)
        obs[b + 8] = 1.0 if pl["idx"] == v["first_player"] else 0.0
        obs[b + 9] = 1.0 if pl["idx"] == v["active"] else 0.0
        obs[b + 10] = 1.0 if v["chars"][pl["pc"]]["dead"] else 0.0
        for j, t in enumerate(PRESTIGE_TABLES):
            obs[b + 11 + j] = pl["prestige_mods"].get(t, 0) / 2
        for j, t in enumerate(COUNSEL_TABLES):
            obs[b + 11 + len(PRESTIGE_TABLES) + j] = _clip(len(pl["counsels"].get(t, [])) / 4)

    o = _OFFSET["characters"]
    cf = len(CHAR_FEATURES)
    statuses = v["status"]
    for ci, cid in enumerate(ALL_CHARACTER_IDS):
        c = v["chars"][cid]
        b = o + ci * cf
        s = seat(c["owner"])
        obs[b + (0 if s is None else 1 + s)] = 1
        k = 7
        obs[b + k] = c["is_pc"]
        obs[b + k + 1] = _clip(statuses.get(cid, 0) / 12)
        obs[b + k + 2] = c["titles"] / 4
        obs[b + k + 3] = 1.0 if c["fixed_status"] is not None else 0.0
        k += 4
        loc = c["location"]
        if loc in LOCATIONS:
            obs[b + k + LOCATIONS.index(loc)] = 1
        k += len(LOCATIONS)
        for j, f in enumerate(("hiding", "banished", "imprisoned", "awaiting_execution", "wrongdoer", "dead")):
            obs[b + k + j] = c[f]
        k += 6
        off = c["office"]
        obs[b + k + (0 if off is None else 1 + OFFICE_KEYS.index(off))] = 1
        k += 1 + len(OFFICE_KEYS)
        obs[b + k + 0] = c["henchman"]
        obs[b + k + 1] = c["counselor"]
        obs[b + k + 2] = c["aligned"]
        obs[b + k + 3] = c["spouse"] is not None
        obs[b + k + 4] = c["consort"]
        obs[b + k + 5] = c["banned"]
        obs[b + k + 6] = c["engaged_to"] is not None
        obs[b + k + 7] = _clip(c["situation_turns"] / 5)
        obs[b + k + 8] = cid == v["monarch"]

    o = _OFFSET["hand"]
    for t in v["hand"]:
        obs[o + CARD_TYPE_KEYS.index(t)] += 0.25
    o = _OFFSET["loyalty_drawn"]
    for c in v["loyalty_drawn"]:
        obs[o + LOYALTY_IDS.index(c)] = 1
    o = _OFFSET["opportunity_drawn"]
    for k_ in v["opportunity_drawn"]:
        obs[o + OPP_KINDS.index(k_)] += 0.5
    ts = v.get("turn_state")
    if ts:
        o = _OFFSET["turn_state"]
        obs[o + 0] = len(ts.get("done", [])) / 4
        obs[o + 1] = _clip(ts.get("extra", 0) / 4)
        obs[o + 2] = _clip(ts.get("any_activity", 0) / 2)
        obs[o + 3] = _clip(ts.get("intrigue", 0) / 2)
        obs[o + 4] = _clip(ts.get("scandal", 0) / 2)
        obs[o + 5] = bool(ts.get("favor"))
        obs[o + 6] = bool(ts.get("no_more"))
        obs[o + 7] = bool(ts.get("restricted"))
    o = _OFFSET["discard"]
    for t in v["discard"]:
        obs[o + CARD_TYPE_KEYS.index(t)] += 1 / 14

    d = v["decision"]
    if d is not None:
        obs[_OFFSET["decision_kind"] + _KIND_INDEX.get(d["kind"], 0)] = 1
        nums = 0
        for key, val in _flatten(d["ctx"]):
            if isinstance(val, bool):
                continue
            if isinstance(val, str):
                if val in _CHAR_INDEX:
                    obs[_OFFSET["decision_ctx_chars"] + _CHAR_INDEX[val]] = 1
                elif val in _CTX_INDEX:
                    obs[_OFFSET["decision_ctx_words"] + _CTX_INDEX[val]] = 1
            elif isinstance(val, int):
                if key in ("player", "victim", "target_player", "exposer") and 0 <= val < n:
                    obs[_OFFSET["decision_ctx_seats"] + seat(val)] = 1
                elif nums < CTX_NUM_SLOTS:
                    obs[_OFFSET["decision_ctx_numbers"] + nums] = max(-1.0, min(1.0, val / 12))
                    nums += 1
    np.clip(obs, -1.0, 1.0, out=obs)
    return obs


def _flatten(ctx: Any, key: str = ""):
    if isinstance(ctx, dict):
        for k, x in ctx.items():
            yield from _flatten(x, k)
    elif isinstance(ctx, (list, tuple)):
        for x in ctx:
            yield from _flatten(x, key)
    else:
        yield key, ctx

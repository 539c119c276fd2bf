"""Observation encoder: a player's view as one fixed-length float32 vector.

The same layout serves every seat and every player count 2-6: everything about players is
encoded *relative to the observer* (seat 0 = the observer, seat k = the player k seats to his
left; seats beyond the table size are flagged absent), and every character's faction is given
as a relative seat.  The encoder reads only the observer's ``SeatView`` (``engine.face.seat``: what
``player_view(state, observer)`` shows), so it cannot see anything the observer may not know.

``LAYOUT`` lists the blocks in order (name, size); ``label(i)`` names index ``i``;
``docs/observation.md`` describes every block.  Scales: counts and points are divided by a
fixed constant and clipped to [0, 1] (or [-1, 1] for signed values).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ..engine.core.actions import ACTIVITIES, COUNSEL_TABLES, PRESTIGE_TABLES, PROBLEMS
from ..engine.core.options import OPTIONAL_RULES
from ..engine.data.components import (
    ALL_CHARACTER_IDS,
    CARD_TYPE_KEYS,
    COUNTRIES,
    LOYALTY_IDS,
    OFFICE_KEYS,
    OPPORTUNITY_TYPES,
)
from ..engine.face.seat import Character, SeatView

if TYPE_CHECKING:
    from ..engine import GameState

MAX_PLAYERS: Final = 6
PHASES: Final = ("setup", "first_player", "offices", "problems", "crown", "player_turns", "player_turn",
          "end_of_turn", "over")
CROWN_KEYS: Final = ("royal_death", "famine", "intrigue", "court_ball", "two_problems", "one_problem",
              "scandal", "plague")
LOCATIONS: Final = ("fandonia",) + COUNTRIES
OPP_KINDS: Final = tuple(OPPORTUNITY_TYPES)
ACTIVITY_KEYS: Final = tuple(k for k, _ in ACTIVITIES)
#: Decision kinds known to the encoder (append-only); anything else is encoded as "other".
DECISION_KINDS: Final[tuple[str, ...]] = (
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
    "funeral_attend",
    "counsel_prevent",
    "dissolve_government", "dissolve_office", "dissolve_char",
    "pc_advantage_table", "pc_advantage_office", "sweet_charity",
    "bribe_demand", "bribe_target", "bribe_offerer", "bribe_amount",
    "foreign_support_country", "fandonian_support_card", "emissary_character", "emissary_country",
    "blackmail_choice", "blackmail_pay", "blackmail_keep",
    "extradite_intrigue", "extradition_veto", "unhide_abroad", "escape_hide_choice", "prison_death_pay",
    "clemency_ask",
    "ri_elope", "ri_elope_romance", "marriage_spouse",
)
_KIND_INDEX: Final = {k: i for i, k in enumerate(DECISION_KINDS)}
_OPT_INDEX: Final = {k: i for i, k in enumerate(OPTIONAL_RULES)}

CHAR_FEATURES: Final = (
    ["owner_none"] + [f"owner_seat{k}" for k in range(MAX_PLAYERS)]
    + ["is_pc", "status", "titles", "fixed_status"]
    + [f"loc_{x}" for x in LOCATIONS]
    + ["hiding", "banished", "imprisoned", "awaiting_execution", "wrongdoer", "dead"]
    + ["office_none"] + [f"office_{o}" for o in OFFICE_KEYS]
    + ["henchman", "counselor", "aligned", "married", "consort", "banned", "engaged", "situation_turns",
       "is_monarch", "escaped", "pending_justice"]
)
SEAT_FEATURES: Final = (
    ["present", "ip", "pp", "hand_size", "ball_mod", "lost_turns", "in_front", "order_pos",
     "is_first", "is_active", "pc_dead"]
    + [f"prestige_{t}" for t in PRESTIGE_TABLES]
    + [f"counsels_{t}" for t in COUNSEL_TABLES]
)
CTX_VOCAB: Final[tuple[str, ...]] = tuple(dict.fromkeys(
    ACTIVITY_KEYS + PRESTIGE_TABLES + COUNSEL_TABLES + OFFICE_KEYS + LOCATIONS + CARD_TYPE_KEYS + CROWN_KEYS
))
_CTX_INDEX: Final = {k: i for i, k in enumerate(CTX_VOCAB)}
_CHAR_INDEX: Final = {c: i for i, c in enumerate(ALL_CHARACTER_IDS)}
CTX_NUM_SLOTS: Final = 4

LAYOUT: Final[tuple[tuple[str, int], ...]] = (
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
    ("rules", 1 + len(OPTIONAL_RULES)),
)
OBS_SIZE: Final[int] = sum(n for _, n in LAYOUT)
_OFFSET: Final[dict[str, int]] = {}
_o = 0
for _name, _n in LAYOUT:
    _OFFSET[_name] = _o
    _o += _n
#: where each block of ``LAYOUT`` starts in the observation vector (read-only use)
OFFSETS: Final[dict[str, int]] = _OFFSET


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
    out += ["rules_edition_errata"] + [f"rules_opt_{k}" for k in OPTIONAL_RULES]
    return out


LABELS: Final[tuple[str, ...]] = tuple(_labels())
assert len(LABELS) == OBS_SIZE, (len(LABELS), OBS_SIZE)


def label(i: int) -> str:
    """The name of observation index ``i``."""
    return LABELS[i]


_PHASE_INDEX: Final = {p: i for i, p in enumerate(PHASES)}
_PROBLEM_INDEX: Final = {p: i for i, p in enumerate(PROBLEMS)}
_COUNTRY_INDEX: Final = {c: i for i, c in enumerate(COUNTRIES)}
_PRESTIGE_INDEX: Final = {t: i for i, t in enumerate(PRESTIGE_TABLES)}
_COUNSEL_INDEX: Final = {t: i for i, t in enumerate(COUNSEL_TABLES)}
def _sums(k: int) -> list[float]:
    """``1/14`` added 0..k times, in order (the sums the encoder has always stored)."""
    out = [0.0]
    while len(out) <= k:
        out.append(out[-1] + 1 / 14)
    return out


#: made at import, never extended afterwards (no module state changes while games run, issue 26)
_SUMS: Final[tuple[float, ...]] = tuple(_sums(255))


def _fourteenths(k: int) -> float:
    """``1/14`` added ``k`` times, in order (the sum the encoder has always stored)."""
    return _SUMS[k] if k < len(_SUMS) else _sums(k)[k]

_CROWN_INDEX: Final = {c: i for i, c in enumerate(CROWN_KEYS)}
_LOC_INDEX: Final = {x: i for i, x in enumerate(LOCATIONS)}
_OFFICE_INDEX: Final = {o: i for i, o in enumerate(OFFICE_KEYS)}
_CARD_INDEX: Final = {t: i for i, t in enumerate(CARD_TYPE_KEYS)}
_LOYALTY_INDEX: Final = {c: i for i, c in enumerate(LOYALTY_IDS)}
_OPP_INDEX: Final = {k: i for i, k in enumerate(OPP_KINDS)}
_SEAT_N: Final = len(SEAT_FEATURES)
_CHAR_N: Final = len(CHAR_FEATURES)
_N_PRESTIGE: Final = len(PRESTIGE_TABLES)
# offsets of the per-character features (see CHAR_FEATURES)
_C_PC: Final = 7
_C_STATUS: Final = 8
_C_TITLES: Final = 9
_C_FIXED: Final = 10
_C_LOC: Final = 11
_C_SIT: Final = _C_LOC + len(LOCATIONS)
_C_OFFICE: Final = _C_SIT + 6
_C_FLAGS: Final = _C_OFFICE + 1 + len(OFFICE_KEYS)


_ZERO: Final = array("f", bytes(4 * OBS_SIZE))  # the vector is written straight into float32 storage


def _clip(x: float) -> float:
    return 0.0 if x < 0 else 1.0 if x > 1 else x


def _clip_signed(x: float) -> float:
    return -1.0 if x < -1 else 1.0 if x > 1 else x


# the blocks' offsets and sizes as module constants (read on every call: no dict lookup)
_O_CHARACTERS: Final = _OFFSET["characters"]
_O_DECISION_CTX_CHARS: Final = _OFFSET["decision_ctx_chars"]
_O_DECISION_CTX_NUMBERS: Final = _OFFSET["decision_ctx_numbers"]
_O_DECISION_CTX_SEATS: Final = _OFFSET["decision_ctx_seats"]
_O_DECISION_CTX_WORDS: Final = _OFFSET["decision_ctx_words"]
_O_DECISION_KIND: Final = _OFFSET["decision_kind"]
_O_DISCARD: Final = _OFFSET["discard"]
_O_GLOBAL: Final = _OFFSET["global"]
_O_HAND: Final = _OFFSET["hand"]
_O_LOYALTY_DRAWN: Final = _OFFSET["loyalty_drawn"]
_O_OPPORTUNITY_DRAWN: Final = _OFFSET["opportunity_drawn"]
_O_PROBLEMS: Final = _OFFSET["problems"]
_O_RULES: Final = _OFFSET["rules"]
_O_SEATS: Final = _OFFSET["seats"]
_O_TURN_STATE: Final = _OFFSET["turn_state"]
_O_WARS: Final = _OFFSET["wars"]
_N_CROWN: Final = len(CROWN_KEYS)
_N_PHASES: Final = len(PHASES)
_N_CARD_TYPES: Final = len(CARD_TYPE_KEYS)


def encode(src: SeatView | GameState, observer: int) -> np.ndarray:
    """The observation vector of ``observer`` (float32, length ``OBS_SIZE``) from his ``SeatView``
    (live, or read from a ``player_view`` document) or from the game state (read through his view).

    Reads only what ``engine.player_view(state, observer)`` shows (the public board and the
    observer's own hand, counters, turn bookkeeping and decision); the env-level leak test
    checks that resampling everything hidden from him leaves it byte-identical."""
    state = src if isinstance(src, SeatView) else SeatView.of(src, observer)
    if state.me != observer:
        raise ValueError(f"the view of player {state.me} encodes his observation, not player {observer}'s")
    buf = array("f", _ZERO)
    me = observer
    n = state.n
    support = state.support

    # the clips are written out inline (_clip, _clip_signed): a call each costs more than the test
    o = _O_GLOBAL
    x = state.turn / 100
    buf[o] = 0.0 if x < 0 else 1.0 if x > 1 else x
    x = support / 120
    buf[o + 1] = -1.0 if x < -1 else 1.0 if x > 1 else x
    buf[o + 2] = 1.0 if support == 0 else 0.0
    x = state.deck_size / 120
    buf[o + 3] = 0.0 if x < 0 else 1.0 if x > 1 else x
    x = state.loyalty_pool_size / 36
    buf[o + 4] = 0.0 if x < 0 else 1.0 if x > 1 else x
    x = state.discard_size / 120
    buf[o + 5] = 0.0 if x < 0 else 1.0 if x > 1 else x
    buf[o + 6 + (n - 2)] = 1.0
    o2 = o + 11
    i = _PHASE_INDEX.get(state.phase)
    if i is not None:
        buf[o2 + i] = 1.0
    o2 += _N_PHASES
    crown = state.crown
    buf[o2 + (_N_CROWN if crown is None else _CROWN_INDEX.get(crown, _N_CROWN))] = 1.0
    o2 += _N_CROWN + 1
    buf[o2] = 1.0 if "court_ball" in state.forced_crown else 0.0
    o2 += 1
    reign = state.reign
    if reign:
        buf[o2] = 1.0
        turns = max(0, min(3, state.turn - int(reign.get("since", state.turn))))
        buf[o2 + 1 + turns] = 1.0

    problems = state.problems
    if problems:
        for pk, pr in problems.items():
            i = _PROBLEM_INDEX.get(pk)
            if i is not None:
                b = _O_PROBLEMS + 3 * i
                buf[b] = 1.0
                buf[b + 1] = _clip(pr.get("fails", 0) / 3)
                buf[b + 2] = _clip(pr.get("turns", 0) / 10)
    for c in state.wars:
        i = _COUNTRY_INDEX.get(c)
        if i is not None:
            buf[_O_WARS + i] = 1.0

    o = _O_SEATS
    order = state.order
    chars = state.chars
    first, active = state.first_player, state.active
    for pl in state.players:
        # every field in one call (a seat's fields are properties)
        idx, pc, ip, pp, hand_size, ball_mod, lost_turns, n_front, prestige_mods, counsels = pl.numbers()
        b = o + ((idx - me) % n) * _SEAT_N
        buf[b] = 1.0
        x = ip / 50
        buf[b + 1] = 0.0 if x < 0 else 1.0 if x > 1 else x
        x = pp / 100
        buf[b + 2] = 0.0 if x < 0 else 1.0 if x > 1 else x
        x = hand_size / 15
        buf[b + 3] = 0.0 if x < 0 else 1.0 if x > 1 else x
        x = ball_mod / 2
        buf[b + 4] = -1.0 if x < -1 else 1.0 if x > 1 else x
        x = lost_turns / 2
        buf[b + 5] = 0.0 if x < 0 else 1.0 if x > 1 else x
        x = n_front / 6
        buf[b + 6] = 0.0 if x < 0 else 1.0 if x > 1 else x
        if idx in order:
            buf[b + 7] = order.index(idx) / (MAX_PLAYERS - 1)
        buf[b + 8] = 1.0 if idx == first else 0.0
        buf[b + 9] = 1.0 if idx == active else 0.0
        buf[b + 10] = 1.0 if chars[pc].dead else 0.0
        for tk, mod in prestige_mods.items():
            j = _PRESTIGE_INDEX.get(tk)
            if mod and j is not None:
                x = mod / 2
                buf[b + 11 + j] = -1.0 if x < -1 else 1.0 if x > 1 else x
        for tk, nums in counsels.items():
            j = _COUNSEL_INDEX.get(tk)
            if nums and j is not None:
                x = len(nums) / 4
                buf[b + 11 + _N_PRESTIGE + j] = 1.0 if x > 1 else x

    o = _O_CHARACTERS
    buf[o:o + _CHARS_SIZE] = _char_block(state, me)

    o = _O_HAND
    for card in state.hand:
        j = o + _CARD_INDEX[card]
        if buf[j] < 1.0:  # 0.25 a card, up to 1 (sums of quarters are exact in float32)
            buf[j] += 0.25
    o = _O_LOYALTY_DRAWN
    for lc in state.loyalty_drawn:
        buf[o + _LOYALTY_INDEX[lc]] = 1.0
    o = _O_OPPORTUNITY_DRAWN
    for oc in state.opportunity_drawn:
        j = o + _OPP_INDEX[oc]
        if buf[j] < 1.0:
            buf[j] += 0.5
    ts = state.turn_state
    if ts is not None:
        o = _O_TURN_STATE
        x = len(ts.get("done", ())) / 4
        buf[o] = 0.0 if x < 0 else 1.0 if x > 1 else x
        x = ts.get("extra", 0) / 4
        buf[o + 1] = 0.0 if x < 0 else 1.0 if x > 1 else x
        x = ts.get("any_activity", 0) / 2
        buf[o + 2] = 0.0 if x < 0 else 1.0 if x > 1 else x
        x = ts.get("intrigue", 0) / 2
        buf[o + 3] = 0.0 if x < 0 else 1.0 if x > 1 else x
        x = ts.get("scandal", 0) / 2
        buf[o + 4] = 0.0 if x < 0 else 1.0 if x > 1 else x
        buf[o + 5] = 1.0 if ts.get("favor") else 0.0
        buf[o + 6] = 1.0 if ts.get("no_more") else 0.0
        buf[o + 7] = 1.0 if ts.get("restricted") else 0.0
    o = _O_DISCARD
    buf[o:o + _N_CARD_TYPES] = _discard_block(state)

    d = state.decision
    if d is not None:
        buf[_O_DECISION_KIND + _KIND_INDEX.get(d.kind, 0)] = 1.0
        slot = 0
        for key, val in _flatten(d.ctx):
            t = type(val)
            if t is str:
                j = _CHAR_INDEX.get(val)
                if j is not None:
                    buf[_O_DECISION_CTX_CHARS + j] = 1.0
                else:
                    j = _CTX_INDEX.get(val)
                    if j is not None:
                        buf[_O_DECISION_CTX_WORDS + j] = 1.0
            elif t is int or (t is not bool and isinstance(val, int)):
                if key in ("player", "victim", "target_player", "exposer") and 0 <= val < n:
                    buf[_O_DECISION_CTX_SEATS + (val - me) % n] = 1.0
                elif slot < CTX_NUM_SLOTS:
                    buf[_O_DECISION_CTX_NUMBERS + slot] = max(-1.0, min(1.0, val / 12))
                    slot += 1
    o = _O_RULES
    if state.edition == "errata":
        buf[o] = 1.0
    for k in state.optional:
        buf[o + 1 + _OPT_INDEX[k]] = 1.0
    # every value was written within [-1, 1] (clipped where it could leave it; checked by
    # tests/test_observation_memo.py): a view of this call's own buffer
    return np.frombuffer(buf, dtype=np.float32)


_CHARS_SIZE: Final = len(ALL_CHARACTER_IDS) * _CHAR_N
_ZERO_ROW: Final = array("f", bytes(4 * _CHAR_N))
_MEMO_KEY: Final = "observation.v0"
_MEMO_DISCARD: Final = "observation.v0.discard"


def _discard_block(state: SeatView) -> array:
    """The ``discard`` block: 1/14 per card of each type (``_fourteenths``: summed as Python floats
    and stored once, float32 sums would round), from the view's counts per type; kept in the view's
    ``cache`` (a live game's memo) with the counts it was made from: the view gives the very same
    dict while the pile is unchanged, so the usual case is one identity test."""
    counts = state.discard_counts
    # typed, so that the compiled build reads the memo natively
    memo: tuple[dict[str, int], array] | None = state.cache.get(_MEMO_DISCARD)
    if memo is not None and memo[0] is counts:
        return memo[1]
    block = array("f", bytes(4 * len(CARD_TYPE_KEYS)))
    for tk, n in counts.items():
        block[_CARD_INDEX[tk]] = _clip(_fourteenths(n))
    state.cache[_MEMO_DISCARD] = (counts, block)
    return block


class _Rows:
    """The character rows of one state with no owner marked, the same for every observer, kept in
    ``state.cache``: ``block`` (47 rows), the position read in ``state.char_writes``, the Monarch and
    crisis flag the rows were made with, ``log``, every character whose row was rewritten since, and
    ``seats``: each observer's block with the position it has read in ``log``.  The Statuses are the
    view's (a live game's are kept up to date by the engine)."""

    __slots__ = ("block", "seen", "monarch", "crisis", "log", "seats", "spouse", "named_by")

    def __init__(self, state: SeatView) -> None:
        chars = state.chars
        st = state.status
        self.monarch: str = state.monarch
        self.crisis: bool = state.support == 0
        self.seen: int = len(state.char_writes)
        self.log: list[str] = []
        self.seats: dict[int, tuple[int, array]] = {}
        self.block = array("f", bytes(4 * _CHARS_SIZE))
        #: each character's spouse when its row was written, and who named each character as spouse
        #: then: a character not written since still names the same one
        self.spouse: dict[str, str | None] = {}
        self.named_by: dict[str, list[str]] = {}
        for ci, cid in enumerate(ALL_CHARACTER_IDS):
            c = chars[cid]
            _char_row(self.block, ci * _CHAR_N, c, cid, st[cid], self.monarch)
            self.spouse[cid] = c.spouse
            if c.spouse is not None:
                self.named_by.setdefault(c.spouse, []).append(cid)

    def sync(self, state: SeatView) -> None:
        """Rewrite the rows of the characters written since, of those whose Status changed with
        them (a Status reads the spouse, and every Status the crisis) and of the old and new Monarch."""
        writes = state.char_writes
        monarch = state.monarch
        crisis = state.support == 0
        if self.seen == len(writes) and crisis == self.crisis and monarch == self.monarch:
            return
        chars = state.chars
        written = set(writes[self.seen:])
        dirty = set(written)
        if crisis != self.crisis:  # every Status may change (§33.2.3)
            dirty.update(ALL_CHARACTER_IDS)
        else:
            # a Status reads the character and its spouse: add whoever names a written character as
            # spouse (the other side of a marriage, also one that has just ended); one not written
            # since its row still names whom it named then
            named_by = self.named_by
            for cid in written:
                others = named_by.get(cid)
                if others:
                    dirty.update(others)
        st = state.status
        if monarch != self.monarch:
            dirty.add(monarch)
            dirty.add(self.monarch)
        block = self.block
        spouse = self.spouse
        for cid in dirty:
            b = _CHAR_POS[cid] * _CHAR_N
            block[b:b + _CHAR_N] = _ZERO_ROW
            c = chars[cid]
            _char_row(block, b, c, cid, st[cid], monarch)
            old = spouse[cid]
            if c.spouse != old:
                if old is not None:
                    self.named_by[old].remove(cid)
                if c.spouse is not None:
                    self.named_by.setdefault(c.spouse, []).append(cid)
                spouse[cid] = c.spouse
        self.log.extend(dirty)
        self.seen = len(writes)
        self.monarch = monarch
        self.crisis = crisis


def _char_block(state: SeatView, me: int) -> array:
    """The ``characters`` block of ``me``'s observation, kept up to date in ``state.cache``.

    A row depends on its character's own fields, its Status, whether it is the Monarch, and on the
    observer's seat only through the owner's seat relative to his.  ``_Rows`` keeps the rows without
    the owner, for every observer at once, up to date with ``state.char_writes`` (every character
    written goes through ``wchar``); each observer's block, kept with its position in the rows' log,
    copies the rewritten rows and marks their owners.  A clone or a loaded state starts with no memo."""
    rows: _Rows | None = state.cache.get(_MEMO_KEY)  # typed: native calls in the compiled build
    if rows is None:
        rows = state.cache[_MEMO_KEY] = _Rows(state)
    else:
        rows.sync(state)
    return observer_rows(rows.block, rows.log, rows.seats, state.chars, me, state.n, _CHAR_POS, _CHAR_N, _mark_owner)


#: writes the observer's columns of a character's row: ``mark(block, row_start, chars, cid, me, n)``
MarkRow = Callable[[array, int, dict[str, Character], str, int, int], None]


def observer_rows(shared: array, log: list[str], seats: dict[int, tuple[int, array]], chars: dict[str, Character],
                  me: int, n: int, pos: dict[str, int], width: int, mark: MarkRow) -> array:
    """Observer ``me``'s copy of an encoder's ``shared`` character rows (rows of ``width`` at
    ``pos[cid]``, the same for every observer) with his own columns written by ``mark``; kept in
    ``seats`` with the position read in ``log`` (every character whose shared row was rewritten, in
    order): only the rows rewritten since are copied and marked again.  Not to modify."""
    entry = seats.get(me)
    cids: Iterable[str]
    if entry is None:
        block = shared[:]
        cids = ALL_CHARACTER_IDS
    else:
        seen, block = entry
        if seen == len(log):
            return block
        cids = set(log[seen:])
        for cid in cids:
            b = pos[cid] * width
            block[b:b + width] = shared[b:b + width]
    for cid in cids:
        mark(block, pos[cid] * width, chars, cid, me, n)
    seats[me] = (len(log), block)
    return block


_CHAR_POS: Final = {cid: i for i, cid in enumerate(ALL_CHARACTER_IDS)}


def _mark_owner(block: array, b: int, chars: dict[str, Character], cid: str, me: int, n: int) -> None:
    """The observer's column of ``cid``'s row at ``block[b:]``: its owner's seat relative to ``me``."""
    owner = chars[cid].owner
    block[b + (0 if owner is None else 1 + (owner - me) % n)] = 1.0


def _char_row(buf: array, b: int, c: Character, cid: str, status: int, monarch: str) -> None:
    """Write character ``cid``'s row at ``buf[b:]`` (all zeros before), all but its owner."""
    if c.is_pc:
        buf[b + _C_PC] = 1.0
    buf[b + _C_STATUS] = _clip_signed(status / 12)
    buf[b + _C_TITLES] = _clip(c.titles / 4)
    if c.fixed_status is not None:
        buf[b + _C_FIXED] = 1.0
    li = _LOC_INDEX.get(c.location)
    if li is not None:
        buf[b + _C_LOC + li] = 1.0
    if c.hiding:
        buf[b + _C_SIT] = 1.0
    if c.banished:
        buf[b + _C_SIT + 1] = 1.0
    if c.imprisoned:
        buf[b + _C_SIT + 2] = 1.0
    if c.awaiting_execution:
        buf[b + _C_SIT + 3] = 1.0
    if c.wrongdoer:
        buf[b + _C_SIT + 4] = 1.0
    if c.dead:
        buf[b + _C_SIT + 5] = 1.0
    buf[b + _C_OFFICE + (0 if c.office is None else 1 + _OFFICE_INDEX[c.office])] = 1.0
    f = b + _C_FLAGS
    if c.henchman_card is not None:
        buf[f] = 1.0
    if c.counselor_card is not None:
        buf[f + 1] = 1.0
    if c.alignment_card is not None:
        buf[f + 2] = 1.0
    if c.spouse is not None:
        buf[f + 3] = 1.0
    if c.consort:
        buf[f + 4] = 1.0
    if c.banned:
        buf[f + 5] = 1.0
    if c.engaged_to is not None:
        buf[f + 6] = 1.0
    if c.situation_turns > 0:
        buf[f + 7] = _clip(c.situation_turns / 5)
    if cid == monarch:
        buf[f + 8] = 1.0
    if c.escaped:
        buf[f + 9] = 1.0
    if c.pending_justice is not None:
        buf[f + 10] = 1.0


def _flatten(ctx: Any, key: str = "", out: list[tuple[str, Any]] | None = None) -> list[tuple[str, Any]]:
    """The scalars of a decision's context, depth first, each with the key it sits under (a list's
    items under the list's key)."""
    if out is None:
        out = []
    if isinstance(ctx, dict):
        for k, x in ctx.items():
            if isinstance(x, (dict, list, tuple)):
                _flatten(x, k, out)
            else:  # a scalar: most of a context (one call less each)
                out.append((k, x))
    elif isinstance(ctx, (list, tuple)):
        for x in ctx:
            _flatten(x, key, out)
    else:
        out.append((key, ctx))
    return out

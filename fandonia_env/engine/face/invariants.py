"""Invariants that hold after every step of every game, and the content checks of a saved game.

``check(state)`` raises ``InvariantError`` (an ``AssertionError``) naming the first broken
invariant, where it is (the field's path, e.g. ``players[1].hand[3]``), the bad value and what
was allowed.  It is cheap enough for the soak tests to call after every step:

* components: every one of the 120 Event cards, 36 Loyalty counters and the edition's 24
  Opportunity counters is in exactly one place, and every id is known;
* players: 2-6 seats as the config says, each at its own index; his PC is his; IP, PP and lost
  turns never negative; one DOWN WITH THE KING card in every hand;
* characters: the 47 characters are all there under their own ids; owners are seats (or
  null); a PC belongs to the player whose PC it is; locations, offices and pending justice are
  known words; each office held once, and not by a character who is not free; marriages both
  ways; the cards on a character are of their kind; titles and situation turns never negative;
  characters removed for good (D77, shorter_b) are out of play;
* board: the Monarch's Support a multiple of 5 in 0..120 (§32.1); the Monarch a known
  character holding the office; turn 0..max_turns (0 only at set-up); first player, active
  player and player order within the seats; phase, Crown Events, wars and problems known;
  ``over``/``result``/``winner`` agree; the unused DOWN WITH THE KING cards out of the game;
  nobody in an abnormal situation during the set-up;
* decision: a running game waits on a decision with two or more options (R10), those being
  distinct catalogue ids, for a seated player.

``check(state, deep=True)`` adds what a saved game from an untrusted source needs and the
engine itself never gets wrong (``Game.from_json`` runs it): the bookkeeping dictionaries
(``pt``, ``tstate``, ``misc``, ``problems``, ``reign``, ``log``) against their schemas, and every
frame of the pending stack: a registered operation, arguments matching its signature and types,
seats, characters, cards and table names in their domains (roll and duel records included).
The pending decision is re-derived where the engine can recompute it (the activity choice of
§13, the card windows and modifier signs of rolls); every other option is tried on a copy of
the game, and a save whose option cannot be taken, or leads to a broken state, is refused.
Unknown keys in ``pt``/``tstate``/``misc`` are allowed (plain JSON, ignored by the engine), so
that new rules can add bookkeeping without a schema change.
"""

from __future__ import annotations

import inspect
import operator
from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any, Final, NoReturn

from ..chapters.crown import CROWN_KEYS, FORCED_PROBLEM
from ..chapters.turn import activity_options
from ..core.actions import NAME, NUM_ACTIONS, PASS, SIGN_MINUS, SIGN_PLUS
from ..core.chance import KINDS as _CHANCE_KINDS
from ..core.chance import SCRIPT_KEY as _CHANCE_SCRIPT
from ..core.compiled import type_hints
from ..core.errors import InvariantError as InvariantError
from ..core.machine import OPS, apply
from ..core.records import Misc, PlayerTurn, TurnState
from ..core.state import GameState, type_problem
from ..data.components import (
    ALL_CHARACTER_IDS,
    CARD_IDS,
    CARD_TYPE_KEYS,
    CARD_TYPE_OF,
    COUNTRIES,
    ERRATA_OPPORTUNITY_IDS,
    FANDONIA,
    LOYALTY_IDS,
    OFFICE_KEYS,
    OPPORTUNITY_IDS,
    ROYAL_ALIGNMENT_CARD,
)
from ..data.tables import COUNSELING_TABLE_KEYS, PRESTIGE_TABLE_KEYS, PROBLEM_KEYS
from ..rules.queries import player_order
from ..rules.rolls import playable
from ..rules.ruleset import ruleset


def _fail(msg: str) -> NoReturn:
    raise InvariantError(msg)


def _short(v: Any, limit: int = 60) -> str:
    r = repr(v)
    return r if len(r) <= limit else r[:limit - 3] + "..."


_CHAR_SET: Final = frozenset(ALL_CHARACTER_IDS)
_CARD_SET: Final = frozenset(CARD_IDS)
_LOYALTY_SET: Final = frozenset(LOYALTY_IDS)
_OFFICE_SET: Final = frozenset(OFFICE_KEYS)
_LOCATIONS: Final = frozenset((FANDONIA,) + COUNTRIES)
_COUNTRY_SET: Final = frozenset(COUNTRIES)
_PROBLEM_SET: Final = frozenset(PROBLEM_KEYS)
_PTABLE_SET: Final = frozenset(PRESTIGE_TABLE_KEYS)
_CTABLE_SET: Final = frozenset(COUNSELING_TABLE_KEYS)
_CTYPE_SET: Final = frozenset(CARD_TYPE_KEYS)
_ACTIVITY_SET: Final = frozenset(a[4:] for a in NAME if a.startswith("act_"))  # the catalogue's activities
_JUSTICE: Final = frozenset({"accuse", "accuse_dwtk", "hearing", "trial"})
_PHASES: Final = frozenset({"setup", "first_player", "offices", "problems", "crown_events", "player_turns",
                     "player_turn", "end_of_turn", "over"})
_RESULTS: Final = frozenset({"win", "draw", "truncated"})


def _crown_keys() -> frozenset[str]:

    return frozenset(CROWN_KEYS) | {"political_problems"} | {FORCED_PROBLEM + k for k in PROBLEM_KEYS}


# ---------------------------------------------------------------------------
# Components: cards and counters
# ---------------------------------------------------------------------------
def card_places(state: GameState) -> Counter:
    seen: Counter = Counter()
    seen.update(state.deck)
    seen.update(state.discard)
    seen.update(state.removed)
    for pl in state.players:
        seen.update(pl.hand)
        seen.update(pl.in_front)
    for ch in state.chars.values():
        for c in (ch.henchman_card, ch.counselor_card, ch.alignment_card):
            if c is not None:
                seen[c] += 1
    return seen


def _card_slots(state: GameState) -> list[tuple[str, str]]:
    """Every (path, card id) of the game, in a fixed order (for error messages)."""
    out = [(f"deck[{i}]", c) for i, c in enumerate(state.deck)]
    out += [(f"discard[{i}]", c) for i, c in enumerate(state.discard)]
    out += [(f"removed[{i}]", c) for i, c in enumerate(state.removed)]
    for k, pl in enumerate(state.players):
        out += [(f"players[{k}].hand[{i}]", c) for i, c in enumerate(pl.hand)]
        out += [(f"players[{k}].in_front[{i}]", c) for i, c in enumerate(pl.in_front)]
    for cid, ch in state.chars.items():
        for f in ("henchman_card", "counselor_card", "alignment_card"):
            c = getattr(ch, f)
            if c is not None:
                out.append((f"chars[{cid!r}].{f}", c))
    return out


def _explain_places(slots: list[tuple[str, str]], known: tuple[str, ...], what: str, allowed: str) -> None:
    """Fail with the first unknown id, the first id in two places, or the first missing id."""
    known_set = frozenset(known)
    first: dict[str, str] = {}
    for path, x in slots:
        if x not in known_set:
            _fail(f"field {path}: unknown {what} id {_short(x)}; allowed: {allowed}")
        if x in first:
            _fail(f"field {path}: {what} {x!r} is in two places (also at {first[x]}); each must be in "
                  "exactly one place")
        first[x] = path
    missing = [x for x in known if x not in first]
    if missing:
        _fail(f"{what} {missing[:5]} in no place of the game (each must be in exactly one place)")


def _check_components(state: GameState, on_chars: list[str], counters: list[str]) -> None:
    """``on_chars``: the cards lying on characters; ``counters``: the characters whose Loyalty
    counter lies on their card (both gathered by ``_check_chars``)."""
    cards = state.deck + state.discard + state.removed + on_chars
    for pl in state.players:
        cards += pl.hand
        cards += pl.in_front
    if len(cards) != 120 or set(cards) != _CARD_SET:
        _explain_places(_card_slots(state), CARD_IDS, "Event card", "c000..c119")

    for i, pl in enumerate(state.players):
        if sum(1 for c in pl.hand if CARD_TYPE_OF[c] == "dwtk") != 1:
            _fail(f"field players[{i}].hand: player {i} must hold exactly one DOWN WITH THE KING card")
    if sum(1 for c in state.removed if CARD_TYPE_OF[c] == "dwtk") != 6 - len(state.players):
        _fail(f"field removed: the {6 - len(state.players)} DOWN WITH THE KING card(s) of the absent players "
              "must be out of the game (§3), the others in the players' hands")

    removed = state.misc.get("death_removed", ())
    lc = state.loyalty_pool + counters + list(removed)  # removed from the game (D77, shorter_b)
    for pl in state.players:
        lc += pl.loyalty_drawn
    if len(lc) != 36 or set(lc) != _LOYALTY_SET:
        slots = [(f"loyalty_pool[{i}]", x) for i, x in enumerate(state.loyalty_pool)]
        for k, pl in enumerate(state.players):
            slots += [(f"players[{k}].loyalty_drawn[{i}]", x) for i, x in enumerate(pl.loyalty_drawn)]
        slots += [(f"chars[{cid!r}].loyalty_counter", cid) for cid, ch in state.chars.items() if ch.loyalty_counter]
        slots += [(f"misc['death_removed'][{i}]", x) for i, x in enumerate(removed)]
        _explain_places(slots, LOYALTY_IDS, "Loyalty counter", "the noble ids 11..66")
    for cid in removed:
        ch = state.chars[cid]
        if not (ch.dead and ch.owner is None and ch.office is None and not ch.is_pc):
            _fail(f"field misc['death_removed']: permanently removed character {cid} is still in play")
        if (ch.spouse is not None or ch.engaged_to is not None or ch.loyalty_counter
                or ch.henchman_card is not None or ch.counselor_card is not None):
            _fail(f"field misc['death_removed']: permanently removed character {cid} still has a spouse, "
                  "an engagement, a counter or a card")

    oc = list(state.opportunity_pool)
    for pl in state.players:
        oc += pl.opportunity_drawn
    known = ruleset(state).opportunity_ids  # D6: the edition's 24
    if len(oc) != 24 or set(oc) != _OPP_SETS[known]:
        slots = [(f"opportunity_pool[{i}]", x) for i, x in enumerate(state.opportunity_pool)]
        for k, pl in enumerate(state.players):
            slots += [(f"players[{k}].opportunity_drawn[{i}]", x) for i, x in enumerate(pl.opportunity_drawn)]
        _explain_places(slots, tuple(known), "Opportunity counter", f"{known[0]}..{known[-1]} in this edition")


_OPP_SETS: Final = {ids: frozenset(ids) for ids in (OPPORTUNITY_IDS, ERRATA_OPPORTUNITY_IDS)}


# ---------------------------------------------------------------------------
# Players and characters
# ---------------------------------------------------------------------------
def _check_players(state: GameState, n: int) -> None:
    cfg_n = state.config.get("players")
    if not 2 <= n <= 6:
        _fail(f"field players: {n} players; allowed: 2 to 6")
    if cfg_n != n:
        _fail(f"field config.players: {_short(cfg_n)} disagrees with the {n} entries of the players list")
    if len(state.chars) != 47 or not _CHAR_SET.issuperset(state.chars):
        extra = [c for c in state.chars if c not in _CHAR_SET]
        if extra:
            _fail(f"field chars: unknown character id {_short(extra[0])}; allowed: {list(ALL_CHARACTER_IDS)}")
        _fail(f"field chars: character(s) {[c for c in ALL_CHARACTER_IDS if c not in state.chars]} missing; "
              "all 47 characters must be there, dead or alive")
    chars = state.chars
    for i, pl in enumerate(state.players):
        if pl.idx != i:
            _fail(f"field players[{i}].idx: {pl.idx}; must be its index {i}")
        if pl.pc not in chars:
            _fail(f"field players[{i}].pc: unknown character {_short(pl.pc)}")
        pcc = chars[pl.pc]
        if not pcc.is_pc or pcc.owner != i:
            _fail(f"field players[{i}].pc: player {i}'s PC {pl.pc} lost (is_pc={pcc.is_pc}, owner={pcc.owner})")
        if pl.ip < 0:
            _fail(f"field players[{i}].ip: player {i} has negative IP {pl.ip}; allowed: 0 or more (§34.3)")
        if pl.pp < 0:
            _fail(f"field players[{i}].pp: player {i} has negative PP {pl.pp}; allowed: 0 or more (§35.3)")
        if pl.lost_turns < 0:
            _fail(f"field players[{i}].lost_turns: {pl.lost_turns}; allowed: 0 or more")


def _check_chars(state: GameState, n: int) -> tuple[list[str], list[str]]:
    """Returns the cards lying on characters and the characters holding their Loyalty counter."""
    chars = state.chars
    players = state.players
    offices: set[str] = set()
    on_chars: list[str] = []
    counters: list[str] = []
    for cid, ch in chars.items():
        (_cid, o, is_pc, titles, fixed, loc, hiding, banished, imprisoned, off, hc, cc, ac, sp, lc, st, eng,
         pj) = _char_fields(ch)
        if _cid != cid:
            _fail(f"field chars[{cid!r}].cid: {_short(_cid)}; must be its key {cid!r}")
        if o is not None and not 0 <= o < n:
            _fail(f"field chars[{cid!r}].owner: seat {o} out of range; allowed: null or 0..{n - 1}")
        if is_pc and (o is None or players[o].pc != cid):
            _fail(f"field chars[{cid!r}].is_pc: {cid} is a PC but not the PC of its owner ({o})")
        if loc not in _LOCATIONS:
            _fail(f"field chars[{cid!r}].location: {_short(loc)}; allowed: {sorted(_LOCATIONS)}")
        if off is not None:
            if off not in _OFFICE_SET:
                _fail(f"field chars[{cid!r}].office: unknown office {_short(off)}; allowed: null or {list(OFFICE_KEYS)}")
            if off in offices:
                _fail(f"field chars[{cid!r}].office: office {off!r} held twice")
            offices.add(off)
            if off != "monarch" and (hiding or banished or imprisoned):
                _fail(f"field chars[{cid!r}].office: {cid} holds office while not free")
        if sp is not None and (sp not in chars or chars[sp].spouse != cid):
            _fail(f"field chars[{cid!r}].spouse: {cid} married to {_short(sp)} one-sidedly")
        if eng is not None and (eng not in chars or eng == cid):
            _fail(f"field chars[{cid!r}].engaged_to: unknown character {_short(eng)}")
        if titles < 0 or st < 0 or (fixed is not None and fixed < 0):
            _fail(f"field chars[{cid!r}]: titles {titles}, situation_turns {st} and fixed_status {fixed} "
                  "must be 0 or more (or fixed_status null)")
        if pj is not None and pj not in _JUSTICE:
            _fail(f"field chars[{cid!r}].pending_justice: {_short(pj)}; allowed: null or {sorted(_JUSTICE)}")
        if hc is not None:
            if CARD_TYPE_OF.get(hc) != "henchman":
                _fail(f"field chars[{cid!r}].henchman_card: {_short(hc)} is not a 'henchman' card")
            on_chars.append(hc)
        if cc is not None:
            if CARD_TYPE_OF.get(cc) != "monarchs_counselor":
                _fail(f"field chars[{cid!r}].counselor_card: {_short(cc)} is not a 'monarchs_counselor' card")
            on_chars.append(cc)
        if ac is not None:
            if CARD_TYPE_OF.get(ac) != ROYAL_ALIGNMENT_CARD.get(cid):
                _fail(f"field chars[{cid!r}].alignment_card: {_short(ac)} is not {cid}'s Royal Alignment card")
            on_chars.append(ac)
        if lc:
            counters.append(cid)
    return on_chars, counters


_char_fields = operator.attrgetter(
    "cid", "owner", "is_pc", "titles", "fixed_status", "location", "hiding", "banished", "imprisoned", "office",
    "henchman_card", "counselor_card", "alignment_card", "spouse", "loyalty_counter", "situation_turns",
    "engaged_to", "pending_justice")


# ---------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------
def _check_board(state: GameState, n: int) -> None:
    if not 0 <= state.support <= 120 or state.support % 5:
        _fail(f"field support: the Monarch's Support must be a multiple of 5 in 0..120 (§32.1), got {state.support}")
    if state.monarch not in state.chars:
        _fail(f"field monarch: unknown character {_short(state.monarch)}; allowed: {list(ALL_CHARACTER_IDS)}")
    if state.chars[state.monarch].office != "monarch" and not state.over:
        _fail(f"field monarch: the Monarch {state.monarch} does not hold the office")
    t = state.turn
    mt = state.config.get("max_turns")
    if t < 0 or (t == 0 and state.phase != "setup") or (isinstance(mt, int) and t > mt):
        _fail(f"field turn: {t}; allowed: 1..{mt if isinstance(mt, int) else 'any'} (0 only during set-up)")
    if state.steps < 0:
        _fail(f"field steps: {state.steps}; allowed: 0 or more")
    if not 0 <= state.first_player < n:
        _fail(f"field first_player: seat {state.first_player} out of range; allowed: 0..{n - 1}")
    if state.active is not None and not 0 <= state.active < n:
        _fail(f"field active: seat {state.active} out of range; allowed: null or 0..{n - 1}")
    order = state.order
    if order and (sorted(order) != list(range(n)) or order[0] != state.first_player):
        _fail(f"field order: {_short(order)}; must be every seat 0..{n - 1} once, beginning with the first "
              f"player {state.first_player} (or empty before the first turn)")
    if state.phase == "setup":
        for cid, ch in state.chars.items():
            if ch.wrongdoer or ch.banished or ch.imprisoned or ch.hiding or ch.awaiting_execution or ch.escaped:
                _fail(f"field chars[{cid!r}]: {cid} is a wrongdoer, banished, imprisoned, hiding or escaped "
                      "during the set-up; every character starts in a normal situation (§3)")
    if state.phase not in _PHASES:
        _fail(f"field phase: unknown phase {_short(state.phase)}; allowed: {sorted(_PHASES)}")
    if len(set(state.wars)) != len(state.wars) or not _COUNTRY_SET.issuperset(state.wars):
        _fail(f"field wars: {_short(state.wars)}; allowed: distinct countries from {list(COUNTRIES)}")
    if not _PROBLEM_SET.issuperset(state.problems):
        bad = next(k for k in state.problems if k not in _PROBLEM_SET)
        _fail(f"field problems: unknown political problem {_short(bad)}; allowed: {list(PROBLEM_KEYS)}")
    if state.over != (state.result is not None):
        _fail(f"field result: {_short(state.result)} while over is {state.over}; a finished game has a result, "
              "a running one none")
    if state.result is not None and state.result not in _RESULTS:
        _fail(f"field result: {_short(state.result)}; allowed: null or {sorted(_RESULTS)}")
    w = state.winner
    if (w is not None) != (state.result == "win") or (w is not None and not 0 <= w < n):
        _fail(f"field winner: {_short(w)}; allowed: a seat 0..{n - 1} when the result is 'win', else null")


def _check_decision(state: GameState, n: int) -> None:
    top = state.stack[-1] if state.stack else None
    if top is None or top.op != "decide":
        _fail("field stack: no decision pending in a running game")
    a = top.args
    opts = a["options"]
    if len(opts) < 2:
        _fail(f"field stack[-1].args.options: a pending decision with fewer than two options: {_short(opts)}")
    p = a["player"]
    if type(p) is not int or not 0 <= p < n:
        _fail(f"field stack[-1].args.player: decider seat {_short(p)} out of range; allowed: 0..{n - 1}")


# ---------------------------------------------------------------------------
# Deep checks (saved games): bookkeeping schemas
# ---------------------------------------------------------------------------
# A schema entry is (annotation, domain): the JSON type, then what the values (of a list, of a
# dictionary) mean.  Domains: "seat", "cid", "card", "ctype", "country", "office", "problem",
# "activity", "ptable", "ctable", "crown", "nat" (int >= 0), "face" (1-6), None (anything).
def _dom_problem(state: GameState, dom: str | None, v: Any, path: str) -> str | None:
    if dom is None:
        return None
    t = type(v)
    if t is list:
        for i, x in enumerate(v):
            p = _dom_problem(state, dom, x, f"{path}[{i}]")
            if p:
                return p
        return None
    if t is dict:
        for k, x in v.items():
            p = _dom_problem(state, dom, x, f"{path}[{k!r}]")
            if p:
                return p
        return None
    if v is None:
        return None
    n = state.n
    if dom == "seat":
        ok = t is int and 0 <= v < n
        allowed = f"a seat 0..{n - 1}"
    elif dom == "nat":
        ok = t is int and v >= 0
        allowed = "an int 0 or more"
    elif dom == "face":
        ok = t is int and 1 <= v <= 6
        allowed = "a die face 1-6"
    else:
        sets = _DOMAINS()
        ok = v in sets[dom]
        allowed = f"one of the {dom} ids {sorted(sets[dom])[:8]}..."
    return None if ok else f"field {path}: {_short(v)} is not {allowed}"


@cache  # a lazily built constant (a pure function of the tables)
def _DOMAINS() -> dict[str, frozenset]:  # noqa: N802
    return {
        "cid": _CHAR_SET, "card": _CARD_SET, "ctype": _CTYPE_SET, "country": _COUNTRY_SET,
        "location": _LOCATIONS, "office": _OFFICE_SET, "problem": _PROBLEM_SET, "activity": _ACTIVITY_SET,
        "ptable": _PTABLE_SET, "ctable": _CTABLE_SET, "crown": _crown_keys(),
        "justice_fate": frozenset({"hearing", "trial"}),
        "chance_kind": frozenset(k for k in _CHANCE_KINDS if k != "dice"),  # dice: rng.scripted
    }


def _check_schema(state: GameState, d: Mapping[str, Any], schema: Mapping[str, tuple[Any, str | None]],
                  path: str, required: frozenset[str] = frozenset(), exact: bool = False,
                  key_dom: dict[str, str] | None = None) -> None:
    for k in required:
        if k not in d:
            _fail(f"field {path}: missing key {k!r}")
    for k, v in d.items():
        if k in schema:
            tp, dom = schema[k]
        elif exact:
            _fail(f"field {path}: unknown key {_short(k)}; allowed: {sorted(schema)}")
        else:
            tp, dom = Any, None
        sub = f"{path}[{k!r}]"
        p = type_problem(v, tp, sub) or _dom_problem(state, dom, v, sub)
        if p:
            _fail(p)
        kd = (key_dom or {}).get(k)
        if kd:
            for kk in v:
                p = _dom_problem(state, kd, _seat_key(kk) if kd == "seat" else kk, f"{sub} key")
                if p:
                    _fail(p)


def _seat_key(k: str) -> Any:
    return int(k) if k.isdigit() and k.isascii() and len(k) < 3 else k


def _schema(record: Any, domains: Mapping[str, str]) -> dict[str, tuple[Any, str | None]]:
    """(type, domain) of every key of a declared record (``core/records.py``): the types are the
    record's own declarations, the domains (what a value may name) are this module's."""
    hints = type_hints(record)
    unknown = set(domains) - set(hints)
    if unknown:  # a domain for a key the record does not declare
        raise InvariantError(f"invariants: {record.__name__} declares no key {sorted(unknown)}")
    return {k: (t, domains.get(k)) for k, t in hints.items()}


_PT: Final = _schema(PlayerTurn, {
    "player": "seat", "done": "activity", "any_activity": "nat", "intrigue": "nat", "scandal": "nat",
    "proposals": "cid", "free": "activity", "free_used": "nat", "auto_proposal": "nat", "prestige_table": "ptable"})
_PT_REQUIRED: Final = frozenset({"player", "done", "extra", "no_more", "restricted", "imprisoned", "any_activity",
                          "intrigue", "scandal", "favor", "waiver", "bought_mod", "proposals", "counselled",
                          "free"})
_TSTATE: Final = _schema(TurnState, {
    "auto_proposal": "nat", "blackmail_paid": "seat", "bribe_accepted": "cid", "bribe_offered": "seat",
    "bribe_taken": "seat", "counsel_prevented_by": "seat", "crown_events": "crown", "ip_spent": "nat",
    "ip_start": "nat", "offices_passed": "office", "pp_check": "seat", "problems_attempted": "problem",
    "titled": "cid", "crown_problems": "problem"})
_TSTATE_KEYS: Final = {"auto_proposal": "seat", "ip_spent": "seat", "ip_start": "seat", "prestige_grants": "seat"}
_MISC: Final = _schema(Misc, {"death_removed": "cid", "emissary": "country", "justice_fate": "justice_fate",
                              "unres_no_ip_turn": "nat"})
_MISC_KEYS: Final = {"bribe_hearing": "cid", "bribery_bought": "cid", "emissary": "cid", "justice_fate": "cid",
              _CHANCE_SCRIPT: "chance_kind"}
_PROBLEM: Final = {"fails": (int, "nat"), "turns": (int, "nat"), "countries": (list[str], "country"),
            "minister": (str | None, "cid")}
_REIGN: Final = {"player": (int, "seat"), "cid": (str, "cid"), "since": (int, "nat")}
_LOG: Final = {"turn": (int, "nat"), "t": (str, None), "to": (int | None, "seat")}


def _check_waiver(state: GameState, p: int) -> None:
    """``pt['waiver']`` (A42: this activity is done through Any Activity, its card and counter
    requirements waived) is re-derived from the log: while the Player Turn goes on it is on only
    during an activity (an ``activity_done`` frame pending) that ``turn._start_activity`` started
    with an 'Any Activity' counter or as a free activity, which it logs just before "performs the
    activity"."""
    waiver = state.pt["waiver"]
    in_activity = any(fr.op == "activity_done" for fr in state.stack)
    turn_goes_on = any(fr.op == "turn_main" or (fr.op == "decide" and fr.args["then"] == "turn_main_choice")
                       for fr in state.stack)
    if not in_activity and not turn_goes_on:
        return  # a Player Turn cut short (mourning, §9.4) may leave a stale waiver: never read again
    expected = False
    if in_activity:
        start = f"Player {p} performs the activity: "
        public = [e["t"] for e in state.log if e["to"] is None]
        k = next((i for i in range(len(public) - 1, -1, -1) if public[i].startswith(start)), None)
        if k is None:
            _fail(f"field pt: player {p} is in an activity that the log never started")
        before = public[k - 1] if k else ""
        expected = (before == f"Player {p} uses an 'Any Activity' counter."
                    or before.startswith(f"Player {p} uses his free '"))
    if waiver != expected:
        _fail(f"field pt['waiver']: {waiver}, but the current {'activity' if in_activity else 'moment'} is "
              f"{'' if expected else 'not '}done through an Any Activity waiver (A42; the log records how "
              "each activity began)")


def _check_bookkeeping(state: GameState) -> None:
    if state.pt:
        _check_schema(state, state.pt, _PT, "pt", _PT_REQUIRED)
    # (a finished game keeps whatever was under way when it ended)
    if not state.over and (state.phase == "player_turn") != (state.active is not None):
        _fail(f"field active: {state.active} in phase {state.phase!r}; a player is active exactly during "
              "a Player Turn (phase 'player_turn')")
    if not state.over and state.active is not None and state.pt.get("player") != state.active:
        _fail(f"field pt: the Player Turn bookkeeping is not player {state.active}'s "
              f"(pt.player {_short(state.pt.get('player'))})")
    if not state.over and state.active is not None:
        _check_waiver(state, state.active)
    tst = state.tstate
    _check_schema(state, tst, _TSTATE, "tstate", key_dom=_TSTATE_KEYS)
    for k, v in tst.items():
        if k.startswith("restricted_") and type(v) is not bool:
            _fail(f"field tstate[{k!r}]: expected a bool (true/false), got {_short(v)}")
    for i, pair in enumerate(tst.get("blackmail_paid", ())):
        if len(pair) != 2:
            _fail(f"field tstate['blackmail_paid'][{i}]: expected [player, victim], got {_short(pair)}")
    for k, g in tst.get("prestige_grants", {}).items():
        _check_schema(state, g, {"intrigue": (int, "nat")}, f"tstate['prestige_grants'][{k!r}]")
    _check_schema(state, state.misc, _MISC, "misc", key_dom=_MISC_KEYS)
    for cid, rec in state.misc.get("bribery_bought", {}).items():
        _check_schema(state, rec, {"p": (int, "seat"), "turn": (int, "nat")}, f"misc['bribery_bought'][{cid!r}]",
                      frozenset({"p", "turn"}), exact=True)
    for k, rec in state.problems.items():
        if type(rec) is not dict:
            _fail(f"field problems[{k!r}]: expected a JSON object, got {_short(rec)}")
        _check_schema(state, rec, _PROBLEM, f"problems[{k!r}]", frozenset(_PROBLEM), exact=True)
    if state.reign:
        _check_schema(state, state.reign, _REIGN, "reign", frozenset(_REIGN), exact=True)
    n = state.n
    for i, e in enumerate(state.log):
        if type(e) is not dict or e.keys() != _LOG.keys():
            _fail(f"field log[{i}]: expected an object with the keys {sorted(_LOG)}, got {_short(e)}")
        to, t = e["to"], e["turn"]
        if (type(e["t"]) is not str or type(t) is not int or t < 0
                or not (to is None or (type(to) is int and 0 <= to < n))):
            _check_schema(state, e, _LOG, f"log[{i}]", frozenset(_LOG), exact=True)
    for i, k in enumerate(state.forced_crown):
        p = _dom_problem(state, "crown", k, f"forced_crown[{i}]")
        if p:
            _fail(p)
    if state.crown is not None:
        p = _dom_problem(state, "crown", state.crown, "crown")
        if p:
            _fail(p)
    for i, pl in enumerate(state.players):
        for t in pl.prestige_mods:
            if t not in _PTABLE_SET:
                _fail(f"field players[{i}].prestige_mods: unknown Prestige Table {_short(t)}; "
                      f"allowed: {list(PRESTIGE_TABLE_KEYS)}")
        for t, made in pl.counsels.items():
            if t not in _CTABLE_SET:
                _fail(f"field players[{i}].counsels: unknown Counseling Table {_short(t)}; "
                      f"allowed: {list(COUNSELING_TABLE_KEYS)}")
            bad = [x for x in made if not 1 <= x <= 10]
            if bad:
                _fail(f"field players[{i}].counsels[{t!r}]: counsel number {bad[0]}; allowed: 1..10")


# ---------------------------------------------------------------------------
# Deep checks: the stack of pending frames
# ---------------------------------------------------------------------------
#: What an operation's argument means, by its name (the engine's naming convention).
_ARG_DOMAINS: Final[dict[str, str]] = {
    "p": "seat", "q": "seat", "player": "seat", "host": "seat", "roller": "seat", "victim": "seat",
    "exposer": "seat", "attending": "seat", "asked": "seat",
    "cid": "cid", "a": "cid", "b": "cid", "assassin": "cid", "seducer": "cid", "farc": "cid", "offerer": "cid",
    "spouse": "cid", "judge": "cid", "counselor": "cid", "x": "cid", "attendees": "cid", "killers": "cid",
    "lost": "cid", "office": "office", "country": "country", "event": "crown", "remaining": "crown",
    "forced": "problem", "left": "nat", "i": "nat", "k": "nat",
}
#: Exceptions to the naming convention: (operation, argument) -> domain.
_ARG_DOMAIN_BY_OP: Final[dict[tuple[str, str], str | None]] = {
    ("turn_use_any", "key"): "activity",
}
_TABLE_DOM: Final = {"counsel": "ctable", "prestige": "ptable", "marriage_prestige": "ptable"}


def _arg_domain(op_name: str, arg: str) -> str | None:
    if (op_name, arg) in _ARG_DOMAIN_BY_OP:
        return _ARG_DOMAIN_BY_OP[(op_name, arg)]
    if arg == "key":
        return "problem" if op_name.startswith(("problem", "incompetence")) else None
    if arg == "table":
        return next((d for pre, d in _TABLE_DOM.items() if op_name.startswith(pre)), None)
    if arg == "target":
        return None  # a character, a seat or null depending on the operation (checked by type)
    return _ARG_DOMAINS.get(arg)


def _signature(op_name: str) -> tuple[dict[str, Any], frozenset[str]]:
    """(annotation of every argument, the required ones) of a registered operation."""

    return _fn_signature(OPS[op_name])


@cache  # a pure function of the operation's code
def _fn_signature(fn: Any) -> tuple[dict[str, Any], frozenset[str]]:
    hints = type_hints(fn)
    params = list(inspect.signature(fn).parameters.values())[1:]  # after ``state``
    ann = {p.name: hints.get(p.name, Any) for p in params}
    req = frozenset(p.name for p in params if p.default is inspect.Parameter.empty)
    return ann, req


def _check_call(state: GameState, op_name: str, args: dict[str, Any], path: str, supplied: tuple[str, ...] = ()) -> None:
    """``args`` fit operation ``op_name`` (``supplied``: arguments the engine adds when it runs it)."""

    if op_name not in OPS:
        _fail(f"field {path}: unknown operation {_short(op_name)}")
    ann, req = _signature(op_name)
    for a in supplied:
        if a not in ann:
            _fail(f"field {path}: operation {op_name!r} takes no {a!r} argument")
    for a in req:
        if a not in args and a not in supplied:
            _fail(f"field {path}.args: missing argument {a!r} of operation {op_name!r}")
    for a, v in args.items():
        if a not in ann or a in supplied:
            _fail(f"field {path}.args: operation {op_name!r} takes no argument {_short(a)}; "
                  f"allowed: {sorted(x for x in ann if x not in supplied)}")
        sub = f"{path}.args.{a}"
        p = type_problem(v, ann[a], sub) or _dom_problem(state, _arg_domain(op_name, a), v, sub)
        if p:
            _fail(p)
        if a == "spec":
            _check_roll_spec(state, v, sub)
        elif a == "d":
            _check_duel(state, v, sub)
        elif a == "roll":
            _check_roll_result(state, v, sub)
        elif a == "victims":
            _check_schema(state, v, {}, sub, key_dom={})
            for k in v:
                p = _dom_problem(state, "cid", k, f"{sub} key")
                if p:
                    _fail(p)


_SPEC: Final = {
    "label": (str, None), "dice": (str, None), "base": (int, None), "mod": (int, None),
    "signs": (list[dict[str, Any]], None), "cards": (list[dict[str, Any]], None),
    "absent": (dict[str, Any] | None, None), "clamp": (list[int] | None, None), "then": (str, None),
    "then_args": (dict[str, Any], None), "played": (dict[str, int], "nat"), "by": (dict[str, int], "nat"),
    "negated": (bool, None), "i": (int, "nat"), "signs_done": (int, "nat"),
}
_SIGN: Final = {"player": (int, "seat"), "amount": (int, None), "why": (str, None)}
_CARD_ENTRY: Final = {"card": (str, "ctype"), "who": (Any, None), "effect": (Any, None), "amount": (int, None),
               "max_total": (int | None, "nat"), "max_per_player": (int | None, "nat")}
_DICE: Final = frozenset({"2d", "1d", "count", "none"})


def _check_roll_spec(state: GameState, s: dict[str, Any], path: str) -> None:
    """A modified roll in progress (``rolls.py``)."""
    _check_schema(state, s, _SPEC, path, frozenset(_SPEC), exact=True)
    if s["dice"] not in _DICE:
        _fail(f"field {path}.dice: {_short(s['dice'])}; allowed: {sorted(_DICE)}")
    for i, sg in enumerate(s["signs"]):
        _check_schema(state, sg, _SIGN, f"{path}.signs[{i}]", frozenset(_SIGN), exact=True)
    for i, e in enumerate(s["cards"]):
        sub = f"{path}.cards[{i}]"
        _check_schema(state, e, _CARD_ENTRY, sub, frozenset({"card", "who", "effect"}), exact=True)
        who, eff = e["who"], e["effect"]
        if who != "any" and (type(who) is not list or _dom_problem(state, "seat", who, f"{sub}.who")):
            _fail(f"field {sub}.who: {_short(who)}; allowed: 'any' or a list of seats")
        if eff not in ("pm", "negate") and type(eff) is not int:
            _fail(f"field {sub}.effect: {_short(eff)}; allowed: an int, 'pm' or 'negate'")
        if eff == "pm" and "amount" not in e:
            _fail(f"field {sub}: a 'pm' card entry needs an 'amount'")
    for k in s["played"]:
        if k not in _CTYPE_SET:
            _fail(f"field {path}.played: unknown card type {_short(k)}")
    for k in s["by"]:
        seat, _, ctype = k.partition(":")
        if _dom_problem(state, "seat", _seat_key(seat), "") or ctype not in _CTYPE_SET:
            _fail(f"field {path}.by: key {_short(k)}; allowed: '<seat>:<card type>'")
    ab = s["absent"]
    if ab is not None:
        _check_schema(state, ab, {"card": (str, "ctype"), "amount": (int, None)}, f"{path}.absent",
                      frozenset({"card", "amount"}), exact=True)
    cl = s["clamp"]
    if cl is not None and (len(cl) != 2 or cl[0] > cl[1]):
        _fail(f"field {path}.clamp: {_short(cl)}; allowed: null or [low, high]")
    if s["i"] > state.n:
        _fail(f"field {path}.i: {s['i']}; allowed: 0..{state.n} (position in the player order)")
    _check_call(state, s["then"], s["then_args"], f"{path}.then", supplied=("roll",))


_DUEL: Final = {"source": (str, None), "attendees": (list[str] | None, "cid"), "req": (str | None, "cid"),
         "req_player": (int | None, "seat"), "fighter": (str | None, "cid"), "opp": (str | None, "cid"),
         "exclude": (list[str], "cid"), "mod": (dict[str, int], None)}
_DUEL_REQUIRED: Final = frozenset(_DUEL) - {"mod"}


def _check_duel(state: GameState, d: dict[str, Any], path: str) -> None:
    """A duel in progress (``romance.py``, §19)."""
    _check_schema(state, d, _DUEL, path, _DUEL_REQUIRED, exact=True)
    if "mod" in d:
        for k in d["mod"]:
            if k not in _CHAR_SET:
                _fail(f"field {path}.mod: unknown character {_short(k)}")


_ROLL: Final = {"natural": (int, None), "total": (int, None), "mod": (int, None), "dice": (list[int], "face"),
         "negated": (bool, None), "played": (dict[str, int], "nat")}


def _check_roll_result(state: GameState, r: dict[str, Any], path: str) -> None:
    _check_schema(state, r, _ROLL, path, frozenset(_ROLL), exact=True)


def _check_stack(state: GameState) -> None:

    stack = state.stack
    if not state.over:
        # the shape of a running game's stack: the game turn's closing frame at the bottom (the
        # next turn's opening one between turns), one decision, on top (the machine's contract)
        turn_frames = [i for i, fr in enumerate(stack) if fr.op in ("new_turn", "end_of_turn")]
        if turn_frames != [0]:
            _fail(f"field stack: a running game's stack must hold one 'end_of_turn' (or, between turns, "
                  f"'new_turn') frame, at the bottom; found at {turn_frames} of {[fr.op for fr in stack][:8]}")
        decides = [i for i, fr in enumerate(stack) if fr.op == "decide"]
        if decides != [len(stack) - 1]:
            _fail(f"field stack: a running game's stack must hold one decision, on top; found at {decides} "
                  f"of {len(stack)} frames")
    for i, fr in enumerate(stack):
        path = f"stack[{i}]"
        if fr.op != "decide":
            _check_call(state, fr.op, fr.args, path)
            continue
        a = fr.args
        dec = {"player": (int, "seat"), "kind": (str, None), "options": (list[int], None), "ctx": (dict[str, Any], None),
               "then": (str, None), "then_args": (dict[str, Any], None)}
        _check_schema(state, a, dec, f"{path}.args", frozenset(dec), exact=True)
        opts = a["options"]
        if not opts or opts != sorted(set(opts)) or opts[0] < 0 or opts[-1] >= NUM_ACTIONS:
            _fail(f"field {path}.args.options: {_short(opts)}; allowed: distinct action ids in increasing "
                  f"order, from the catalogue 0..{NUM_ACTIONS - 1}")
        if not a["kind"]:
            _fail(f"field {path}.args.kind: empty")
        _check_call(state, a["then"], a["then_args"], f"{path}.args.then_args", supplied=("choice",))


# ---------------------------------------------------------------------------
# Deep checks: re-deriving the pending decision
# ---------------------------------------------------------------------------
def _expected_options(state: GameState) -> list[int] | None:
    """The options the engine would offer now for the pending decision, where it can recompute
    them from the state; None where it cannot."""

    a = state.stack[-1].args
    then = a["then"]
    p = a["player"]
    if then == "turn_main_choice":

        if a["then_args"]["p"] != p or state.active != p or state.pt.get("player") != p:
            _fail(f"field stack[-1].args: the activity choice of player {p} outside his Player Turn "
                  f"(active {state.active}, pt.player {state.pt.get('player')})")
        return sorted(set(activity_options(state.clone(), p) + [PASS]))
    if then in ("roll_card", "roll_sign"):
        spec = a["then_args"]["spec"]
        order = player_order(state)
        if spec["i"] >= len(order) or order[spec["i"]] != p:
            _fail(f"field stack[-1].args.player: {p} is not the player whose turn it is in the roll's card "
                  f"window (position {spec['i']} of the order {order})")
        if then == "roll_card":
            return sorted(set(playable(state, spec, p) + [PASS]))
        mine = [sg for sg in spec["signs"] if sg["player"] == p]
        if spec["signs_done"] >= len(mine) or spec["negated"]:
            _fail(f"field stack[-1].args: player {p} has no modifier sign left to declare in this roll")
        return sorted([SIGN_PLUS, SIGN_MINUS, PASS])
    if then == "roll_card_sign":
        return sorted([SIGN_PLUS, SIGN_MINUS])
    return None


def _check_options_playable(state: GameState, n: int) -> None:
    """Re-derive the pending decision where possible, then take every option on a copy: each
    must run to the next decision (or the end) and leave the invariants intact."""

    top = state.stack[-1].args
    exp = _expected_options(state)
    if exp is not None and exp != top["options"]:
        _fail(f"field stack[-1].args.options: {_short(top['options'])} but the engine offers {_short(exp)} "
              f"for this {top['kind']!r} decision of player {top['player']}")
    for o in top["options"]:
        g = state.clone()
        try:
            apply(g, o)
            check(g)
        except InvariantError as e:
            _fail(f"field stack[-1].args.options: taking option {o} ({NAME[o]}) breaks the game: {e}")
        except Exception as e:  # noqa: BLE001 - any failure of the engine on this save is the save's
            _fail(f"field stack[-1].args.options: option {o} ({NAME[o]}) of the pending {top['kind']!r} "
                  f"decision cannot be taken in this state ({type(e).__name__}: {e})")


# ---------------------------------------------------------------------------
# The entry point
# ---------------------------------------------------------------------------
def check(state: GameState, decision: bool = True, deep: bool = False) -> None:
    """Raise ``InvariantError`` naming the first broken invariant (see the module docstring).

    ``decision``: a running game must wait on a decision.  ``deep``: also the saved-game checks
    (bookkeeping schemas, every stack frame, the pending decision re-derived and tried)."""
    n = len(state.players)
    if deep:
        _check_bookkeeping(state)
    _check_players(state, n)
    on_chars, counters = _check_chars(state, n)
    _check_components(state, on_chars, counters)
    _check_board(state, n)
    if deep:
        _check_stack(state)
    if decision and not state.over:
        _check_decision(state, n)
        if deep:
            _check_options_playable(state, n)


__all__ = ["InvariantError", "card_places", "check"]

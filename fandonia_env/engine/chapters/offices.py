"""§6 Offices (the Office Phase), §16 Office Holders, §13.4.2 Fill A Vacant Office.

Operations registered here:

* ``offices_phase`` (§6.1-§6.4): the first player selects a vacant office (decision
  ``office_<key>``); each player in player order, beginning with the first player, may
  fill it by paying Two IP and placing his PC or a FAC in it (decision ``char_<cid>`` or
  ``pass``); once every vacant office has been offered, the offices still vacant are
  filled at random by dice counts (§6.1.2, ruling A49).
* ``discharge`` {cid} (§16.4, §16.5): the character leaves his office.
* activity ``fill_office`` (§13.4.2): Three IP, one vacant office per turn.
* ``dissolve_offer`` (errata D85, ES §36.14, A35): at the start of the Office Phase of the
  turn after a successful usurpation, the player whose FARC is Monarch may dissolve the
  government (decision ``dissolve_government``, YES/NO): every Office Holder is
  discharged; he then fills up to three vacant offices at no IP cost (decisions
  ``dissolve_office`` with ``pass`` to stop, then ``dissolve_char``) with any character
  eligible to hold an office (A35: his PC, FACs, other players' PCs/FACs, NCs); the Office
  Phase then goes on as usual.

* Reading (D85, A35): the offer is made only at the Office Phase of the turn after the
  usurpation (``state.reign["since"] == turn - 1``), while that FARC still reigns; the
  three placements are one office then one character each, and the player may decline
  the remaining ones.

Rules applied everywhere an office is filled:

* §16.1: only characters 11-44 (PCs, FACs, NCs) may hold an office; RCs only as Monarch.
* §6.3, §16.4, §7.10.1: a character who is banished, imprisoned, in hiding or stuck in a
  country at war may not fill an office; neither may a dead PC whose card is face-down
  (§31.5, A47).
* §16.2, §6.2: one office at a time; a PC/FAC who already holds an office may move to a
  vacant one (still paying), which leaves his old office vacant; a Monarch's Counselor
  who takes an office loses his 'Monarch's Counselor' card (discarded).
* §7.10.4 (A49): no new Ambassador to a country at war with Fandonia: that post stays
  vacant until the war ends.
* §20.4: an Ambassador (and his wife) is abroad in the country of his post
  (``turn_steps.place_ambassador``).

Readings:

* Reading: an Ambassador who leaves his post (discharged/recalled, §16.5, or moved to
  another office, §6.2) returns to Fandonia, with his wife if she went abroad with him,
  unless he is banished or in hiding there.  The rules only say Ambassadors "are always
  assumed to be abroad"; the post is what keeps them there.  This holds even when the
  country is at war with Fandonia: §7.10.4 says the Ambassador is stuck there "unless he
  dies or is recalled", and the Foreign War counsel 2 ("Recall The Ambassador ... to
  country that is at war") exists to bring him home; the specific §7.10.4 overrides the
  general "may not return" of §7.10.1 for the recalled Ambassador and his wife.
* Reading (§16.1, §9.2): the King/Queen consort (a non-RC married to the Monarch) is a
  NRC, not a PC, FAC or NC, so may not hold an office; the random fill (§6.1.2) rerolls
  a dice count naming the consort.
* Reading: the wife who goes abroad with a new Ambassador (§20.4) is only a non-PC wife
  in a normal situation; an RC wife never goes abroad (§20.7), nor one who is stuck in
  a country at war.
* Reading: the offices still vacant after the offers are filled at random in Office
  Deck order (High Minister first, Ambassador To Besyzan last); the rules give no order.
* Reading: when no player could pay for any office (or has no eligible character), the
  first player's selection of offices is meaningless and is skipped: the offices go
  straight to the random fill.
* Reading (A3, A32): if no character at all could fill an office, it stays vacant (the
  termination guard); likewise an office whose dice counts keep naming ineligible
  characters is only ever rerolled while some eligible character exists.
* Reading: an office that was vacated during the phase by a move (§6.2) is offered like
  any other vacant office ("must be filled in the Office Phase of this turn"), even if it
  had been offered and filled earlier in the same phase.
* Reading: a player whose PC is face-down (§31.5) may still fill an office with a FAC.
* Reading: §13.4.2 moves (PC/FAC already in office) follow §6.2: the old office becomes
  vacant and is filled in the next Office Phase.
"""

from __future__ import annotations

from typing import Final

from ..core import chance, registry
from ..core.actions import ID, NO, PASS, YES, action_char, char_action, suffix
from ..core.machine import ask, log, op, seq
from ..core.state import Character, GameState
from ..data.components import COUNTRY_NAMES, FANDONIA, NON_MONARCH_OFFICES, OFFICE_ELIGIBLE, OFFICES, ROYALS
from ..rules.court import office_name, vacate
from ..rules.queries import can_spend, discard, free, monarch_owner, name, spend_ip, stuck_at_war
from ..rules.ruleset import ruleset
from ..rules.turn_steps import place_ambassador

OFFICE_ELIGIBLE_SET: Final = frozenset(OFFICE_ELIGIBLE)
PHASE_COST: Final = 2  # §6.1.1
ACTIVITY_COST: Final = 3  # §13.4.2


# ---------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------


def holders(state: GameState) -> dict[str, str]:
    """office -> holder for every held office."""
    return {c.office: cid for cid, c in state.chars.items() if c.office is not None}


def may_be_filled(state: GameState, office: str) -> bool:
    """§7.10.4: no Ambassador may be appointed to a country at war with Fandonia."""
    country = OFFICES[office].country
    return country is None or country not in state.wars


def fillable_offices(state: GameState) -> list[str]:
    """Vacant offices (never the Monarch's) that may be filled now, in Office Deck order."""
    held = holders(state)
    return [o for o in NON_MONARCH_OFFICES if o not in held and may_be_filled(state, o)]


def eligible(state: GameState, cid: str) -> bool:
    """May ``cid`` be placed in an office now? (§16.1, §6.3, §16.4, §7.10.1, §31.5).

    §16.1, §9.2: the consort of the Monarch is a NRC and may never hold an office."""
    if cid not in OFFICE_ELIGIBLE_SET:
        return False
    c = state.chars[cid]
    return not c.consort and free(state, c) and not _es_fugitive(state, c)


def _es_fugitive(state: GameState, c: Character) -> bool:
    """Errata ES §20.8: a wrongdoer living openly abroad is a fugitive from Fandonian justice
    and may not be given an office (Reading: in 1981 a wrongdoer abroad is always hiding or
    banished, which ``free`` already excludes)."""
    return (c.wrongdoer or c.escaped or c.awaiting_execution) and c.location != FANDONIA and ruleset(state).wrongdoer_abroad_no_office


def candidates(state: GameState, p: int) -> list[str]:
    """Player p's PC and FACs who may fill a vacant office (office holders may move, §6.2)."""
    return [cid for cid, c in state.chars.items()
            if c.owner == p and cid in OFFICE_ELIGIBLE_SET and not c.consort and free(state, c)
            and not _es_fugitive(state, c)]


# ---------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------


def appoint(state: GameState, cid: str, office: str, how: str) -> None:
    """Place ``cid`` in the vacant ``office`` (§6.1, §6.2, §13.4.2, §16.2, §20.4)."""
    c = state.wchar(cid)
    if c.office is not None:
        vacate(state, cid, "to take another office, §6.2", moving=True)
    if c.counselor_card is not None:  # §6.2, §16.2
        discard(state, c.counselor_card)
        c.counselor_card = None
        log(state, f"{name(cid)} is no longer a Monarch's Counselor: the 'Monarch's Counselor' card is "
                   "discarded (§16.2).")
    c.office = office
    log(state, f"{name(cid)} becomes {office_name(office)} ({how}).")
    country = OFFICES[office].country
    if country:
        sp = state.chars[c.spouse] if c.spouse else None
        sp_before = sp.location if sp is not None else None
        sp_stays = sp is not None and (c.spouse in ROYALS or sp.banished or sp.imprisoned or sp.hiding
                                       or sp.dead or stuck_at_war(state, sp))
        place_ambassador(state, cid)  # §20.4
        if sp is not None and sp_stays and sp_before is not None:
            state.wchar(sp.cid).location = sp_before  # §20.7 (RCs never abroad), §7.10.1
        log(state, f"{name(cid)} goes abroad to {COUNTRY_NAMES[country]} (§20.4).")


# ---------------------------------------------------------------------------
# §6 Office Phase
# ---------------------------------------------------------------------------


def _anyone_can_fill(state: GameState) -> bool:
    return any(can_spend(state, p, PHASE_COST) and candidates(state, p) for p in range(state.n))


@op("offices_phase")
def offices_phase(state: GameState) -> None:
    """§6.1: every vacant office must be filled; §6.4: skipped when none is vacant.

    Before it: the §38 effects of unresolved problems (optional) and, in the errata
    edition, the FARC Monarch's player's offer to dissolve the government (D85)."""
    state.phase = "offices"
    pre: list[tuple[str, dict]] = []
    rs = ruleset(state)
    if rs.unresolved_problems:
        pre.append(("unresolved_effects", {}))
    if rs.government_dissolution and dissolve_player(state) is not None:  # D85
        pre.append(("dissolve_offer", {}))
    if pre:
        seq(state, *pre, ("offices_phase_main", {}))
        return
    offices_phase_main(state)


@op("offices_phase_main")
def offices_phase_main(state: GameState) -> None:
    state.phase = "offices"
    state.tstate["offices_passed"] = []
    if not fillable_offices(state):
        log(state, "Office Phase: no vacant office to fill (§6.4).")
        return
    log(state, "Office Phase: vacant offices: " + ", ".join(office_name(o) for o in fillable_offices(state))
        + ".")
    seq(state, ("offices_next", {}))


@op("offices_next")
def offices_next(state: GameState) -> None:
    """§6.1.1: the first player selects the next vacant office to offer."""
    passed = state.tstate.setdefault("offices_passed", [])
    left = [o for o in fillable_offices(state) if o not in passed]
    if not left or not _anyone_can_fill(state):
        seq(state, ("offices_random", {}))
        return
    seq(state, ask(state.first_player, "office_select", [ID[f"office_{o}"] for o in left],
                   "offices_selected", {"phase": "offices"}))


@op("offices_selected")
def offices_selected(state: GameState, choice: int) -> None:
    office = suffix(choice, "office_")
    log(state, f"Player {state.first_player} offers the office of {office_name(office)}.")
    seq(state, ("office_offer", {"office": office, "i": 0}))


@op("office_offer")
def office_offer(state: GameState, office: str, i: int) -> None:
    """§6.1.1: each player in player order may pay Two IP and place his PC or a FAC."""
    order = state.order or list(range(state.n))
    while i < len(order):
        p = order[i]
        if can_spend(state, p, PHASE_COST):
            cands = candidates(state, p)
            if cands:
                seq(state, ask(p, "office_fill", [char_action(c) for c in cands] + [PASS],
                               "office_offer_choice", {"office": office, "cost": PHASE_COST},
                               office=office, i=i))
                return
        i += 1
    log(state, f"No player fills the office of {office_name(office)}.")
    state.tstate.setdefault("offices_passed", []).append(office)
    seq(state, ("offices_next", {}))


@op("office_offer_choice")
def office_offer_choice(state: GameState, choice: int, office: str, i: int) -> None:
    if choice == PASS:
        seq(state, ("office_offer", {"office": office, "i": i + 1}))
        return
    order = state.order or list(range(state.n))
    p = order[i]
    cid = action_char(choice)
    spend_ip(state, p, PHASE_COST, f"the office of {office_name(office)} (§6.1.1)")
    appoint(state, cid, office, f"placed by player {p}, §6.1.1")
    seq(state, ("offices_next", {}))


@op("offices_random")
def offices_random(state: GameState) -> None:
    """§6.1.2 (A49, A3): the offices still vacant are filled by dice counts, at no IP cost."""
    for office in fillable_offices(state):
        if not any(eligible(state, cid) and state.chars[cid].office is None for cid in OFFICE_ELIGIBLE):
            log(state, f"No character can fill the office of {office_name(office)}: it stays vacant "
                       "(ruling A3).")
            continue
        while True:
            count = chance.dice_count(state, "random office fill (§6.1.2)")
            cid = str(count)
            if cid not in OFFICE_ELIGIBLE_SET:
                log(state, f"Random office fill for {office_name(office)}: dice count {count} names "
                           f"{name(cid)}, who may never hold an office; roll again (§6.1.2).")
                continue
            c = state.chars[cid]
            if c.office is not None:
                log(state, f"Random office fill for {office_name(office)}: dice count {count} names "
                           f"{name(cid)}, already {office_name(c.office)}; roll again (§6.1.2).")
                continue
            if not eligible(state, cid):
                why = "the Monarch's consort, a NRC (§16.1)" if c.consort else "who cannot fill an office now (§6.3)"
                log(state, f"Random office fill for {office_name(office)}: dice count {count} names "
                           f"{name(cid)}, {why}; roll again.")
                continue
            log(state, f"Random office fill for {office_name(office)}: dice count {count} names {name(cid)}.")
            appoint(state, cid, office, "selected at random, no IP cost, §6.1.2")
            break


# ---------------------------------------------------------------------------
# Errata D85 (ES §36.14, A35): dissolving the government
# ---------------------------------------------------------------------------

DISSOLVE_FILLS: Final = 3  # ES §36.14


def dissolve_player(state: GameState) -> int | None:
    """ES §36.14, A35: the player whose FARC took the throne by usurpation last turn, while
    that FARC still reigns (the offer comes at the start of the next Office Phase only)."""
    r = state.reign
    if not r or r.get("since") != state.turn - 1:
        return None
    p = monarch_owner(state)
    return p if p is not None and p == r.get("player") and state.monarch == r.get("cid") else None


def _dissolve_candidates(state: GameState) -> list[str]:
    """A35: any character eligible to hold an office (§16.1, §6.3), his PC included."""
    return [cid for cid in OFFICE_ELIGIBLE if eligible(state, cid) and state.chars[cid].office is None]


@op("dissolve_offer")
def dissolve_offer(state: GameState) -> None:
    p = dissolve_player(state)
    if p is None:
        return
    seq(state, ask(p, "dissolve_government", [YES, NO], "dissolve_choice", {"phase": "offices"}, p=p))


@op("dissolve_choice")
def dissolve_choice(state: GameState, choice: int, p: int) -> None:
    """ES §36.14: all Office Holders are discharged; the player fills three offices at no IP cost."""
    if choice != YES:
        log(state, f"Player {p} does not dissolve the government (ES §36.14).")
        return
    log(state, f"Player {p}, whose FARC is Monarch, dissolves the government: every Office Holder is "
               "discharged (ES §36.14).")
    for cid, c in state.chars.items():
        if c.office is not None and c.office != "monarch":
            vacate(state, cid, "the government is dissolved, ES §36.14")
    seq(state, ("dissolve_fill", {"p": p, "left": DISSOLVE_FILLS}))


@op("dissolve_fill")
def dissolve_fill(state: GameState, p: int, left: int) -> None:
    offices = fillable_offices(state)
    if left <= 0 or not offices or not _dissolve_candidates(state):
        return
    seq(state, ask(p, "dissolve_office", [ID[f"office_{o}"] for o in offices] + [PASS], "dissolve_office_chosen",
                   {"phase": "offices", "left": left}, p=p, left=left))


@op("dissolve_office_chosen")
def dissolve_office_chosen(state: GameState, choice: int, p: int, left: int) -> None:
    if choice == PASS:
        log(state, f"Player {p} declines to fill more offices (ES §36.14).")
        return
    office = suffix(choice, "office_")
    seq(state, ask(p, "dissolve_char", [char_action(c) for c in _dissolve_candidates(state)],
                   "dissolve_char_chosen", {"phase": "offices", "office": office}, p=p, office=office, left=left))


@op("dissolve_char_chosen")
def dissolve_char_chosen(state: GameState, choice: int, p: int, office: str, left: int) -> None:
    appoint(state, action_char(choice), office, f"placed by player {p}, no IP cost, ES §36.14")
    seq(state, ("dissolve_fill", {"p": p, "left": left - 1}))


# ---------------------------------------------------------------------------
# §16.4, §16.5 discharge
# ---------------------------------------------------------------------------


@op("discharge")
def discharge(state: GameState, cid: str, why: str = "") -> None:
    """§16.4, §16.5: the character leaves his office (an Ambassador is recalled)."""
    vacate(state, cid, why)


# ---------------------------------------------------------------------------
# §13.4.2 Fill A Vacant Office (activity)
# ---------------------------------------------------------------------------


def fill_office_legal(state: GameState, p: int) -> bool:
    if not can_spend(state, p, ACTIVITY_COST):
        return False
    if not fillable_offices(state):
        return False
    return bool(candidates(state, p))


@op("fill_office_start")
def fill_office_start(state: GameState, p: int) -> None:
    seq(state, ask(p, "fill_office_office", [ID[f"office_{o}"] for o in fillable_offices(state)],
                   "fill_office_office_chosen", {"activity": "fill_office"}, p=p))


@op("fill_office_office_chosen")
def fill_office_office_chosen(state: GameState, choice: int, p: int) -> None:
    office = suffix(choice, "office_")
    seq(state, ask(p, "fill_office_char", [char_action(c) for c in candidates(state, p)],
                   "fill_office_char_chosen", {"activity": "fill_office", "office": office},
                   p=p, office=office))


@op("fill_office_char_chosen")
def fill_office_char_chosen(state: GameState, choice: int, p: int, office: str) -> None:
    cid = action_char(choice)
    spend_ip(state, p, ACTIVITY_COST, f"filling the office of {office_name(office)} (§13.4.2)")
    appoint(state, cid, office, f"placed by player {p}, §13.4.2")


registry.activity("fill_office", fill_office_legal, "fill_office_start")


__all__ = ["holders", "fillable_offices", "may_be_filled", "eligible", "candidates", "appoint"]

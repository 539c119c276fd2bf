"""§24 Hiding and §25 Extradition: the activities Escape (§13.4.10) and Extradite A Wrongdoer
(§13.4.11) with their Event cards (§14.5.13-§14.5.16), the free actions hide / unhide (§24.2,
§24.8); errata: wrongdoers abroad (ES §20.8, D62, A31), NCs never hide (ES §24.7, D64),
extradition (ES §25, D66-D74, with ruling R2 and A30's fallback).

Operations other chapters schedule: ``justice_go_hiding`` {cid, why} (hiding from a hearing,
``trials``), and the errata hooks ``justice_es_enter_fandonia`` {cid} (in
``activities.act_travel_dest``), ``justice_d64_unhide`` {cid} (in
``activities.release_character``), ``justice_es_extradite_counsel`` {cid} (the
``extradite`` effect, ``effects.py``), ``justice_es_turn_start`` {p} (a ``registry.TURN_START`` entry).  In the
1981 rules the extradited character is tried by ``to_trial`` {extradited: True} (``trials``); in
the errata edition he goes to the justice that awaited him when he fled (ES §25.10,
``state.misc["justice_fate"]``).  Persecution rolls, the ±1 of a FAC Ambassador on them
(§25.8), the "already persecuted" countries (§25.9) and the persecution of ES §25.11 do not
exist (R2): nothing is put in their place.
"""

from __future__ import annotations

from typing import Any

from ..core import registry
from ..core.actions import ID, NAME, NO, YES, char_action, suffix
from ..core.machine import ask, log, op, seq
from ..core.state import Character, GameState
from ..data.components import COUNTRIES, COUNTRY_NAMES, FANDONIA, NEVER_ABROAD, OFFICES, ROYALS
from ..rules.court import leaves_court
from ..rules.queries import (
    abroad,
    card_options,
    discard,
    has_card,
    hiding_ids,
    imprisoned_or_hiding_ids,
    name,
    owned_ids,
    play_card,
    stuck_at_war,
    take_card,
)
from ..rules.rolls import modified_roll
from ..rules.ruleset import ruleset
from ..rules.situation import card_entry, country_ids, extraditable_es, imprison, is_wrongdoer, living_abroad
from ..rules.turn_steps import base_activities, card_or_waiver, spend_card, waived

# ---------------------------------------------------------------------------
# §24 Hiding
# ---------------------------------------------------------------------------


@op("justice_go_hiding")
def justice_go_hiding(state: GameState, cid: str, why: str = "") -> None:
    c = state.wchar(cid)
    c.hiding = True
    c.hid_turn = state.turn
    where = "Fandonia" if not abroad(c) else COUNTRY_NAMES[c.location]
    log(state, f"{name(cid)} goes into hiding in {where}{' ' + why if why else ''} (§24.1).")
    leaves_court(state, cid, "in hiding")  # §13.1 (R19); D27 (errata)


# ---------------------------------------------------------------------------
# Activity: Escape (§13.4.10, §14.5.13-§14.5.15)
# ---------------------------------------------------------------------------


def _escape_kind(state: GameState, c: Character) -> str | None:
    """How ``c`` may escape (the Ruleset's ``escape_kind_hook``), or None."""
    kind: str | None = registry.HOOKS[ruleset(state).escape_kind_hook](state, c)
    return kind


@registry.hook("escape_kind_1981")
def _escape_kind_1981(state: GameState, c: Character) -> str | None:
    """§13.4.10: from prison ("prison") or from hiding in Fandonia ("hiding")."""
    if c.dead:
        return None
    if c.imprisoned:
        return "prison"
    if c.hiding and c.location == FANDONIA:
        return "hiding"
    return None


@registry.hook("escape_kind_d71")
def _escape_kind_d71(state: GameState, c: Character) -> str | None:
    """ES §25.9 (D71): also "abroad", a fugitive hiding abroad fleeing to another country."""
    kind = _escape_kind_1981(state, c)
    if (kind is None and c.hiding and not c.dead and not c.banished and not stuck_at_war(state, c)
            and country_ids(state, c.location)):
        return "abroad"
    return kind


def _escape_cards(state: GameState, p: int, kind: str) -> list[int]:
    out = card_options(state, p, "escape")
    if kind == "abroad":
        return out  # only an 'Escape' card (ES §25.9)
    guard = "prison_guards" if kind == "prison" else "port_guards"
    if has_card(state, p, guard):
        out.append(ID[f"play_{guard}"])
    return out


def _escapees(state: GameState) -> list[tuple[str, str]]:
    kind_of = registry.HOOKS[ruleset(state).escape_kind_hook]
    out = []
    for cid, c in state.chars.items():
        k = kind_of(state, c)
        if k is not None and cid not in NEVER_ABROAD:
            out.append((cid, k))
    return out


def _escape_legal(state: GameState, p: int) -> bool:
    wars = state.wars
    if wars and all(k in wars for k in COUNTRIES):  # not country_ids(state): no country to go to
        return False
    ids = imprisoned_or_hiding_ids(state)  # the others' _escape_kind is None
    if not ids:
        return False
    kind_of = registry.HOOKS[ruleset(state).escape_kind_hook]
    w = waived(state)
    tried: set[str] = set()
    chars = state.chars
    for cid in ids:
        c = chars[cid]
        k = kind_of(state, c)
        if k is None or cid in NEVER_ABROAD or k in tried:
            continue
        if w or _escape_cards(state, p, k):
            return True
        tried.add(k)  # the cards needed depend only on the kind
    return False


@op("justice_escape")
def justice_escape(state: GameState, p: int) -> None:
    w = waived(state)
    opts = [char_action(cid) for cid, k in _escapees(state) if w or _escape_cards(state, p, k)]
    seq(state, ask(p, "escape_target", opts, "justice_escape_target", {"activity": "escape"}, p=p))


@op("justice_escape_target")
def justice_escape_target(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    kind = _escape_kind(state, state.chars[cid])
    assert kind is not None
    if waived(state):
        seq(state, ("justice_escape_country", {"p": p, "cid": cid}))
        return
    seq(state, ask(p, "escape_card", _escape_cards(state, p, kind), "justice_escape_card",
                   {"activity": "escape", "target": cid}, p=p, cid=cid))


@op("justice_escape_card")
def justice_escape_card(state: GameState, choice: int, p: int, cid: str) -> None:
    _, shown = play_card(state, p, choice)
    log(state, f"Player {p} plays {shown} for {name(cid)} (§13.4.10).")
    seq(state, ("justice_escape_country", {"p": p, "cid": cid}))


@op("justice_escape_country")
def justice_escape_country(state: GameState, p: int, cid: str) -> None:
    c = state.chars[cid]
    here = c.location if _escape_kind(state, c) == "abroad" else None  # ES §25.9: to another country
    seq(state, ask(p, "escape_country", country_ids(state, here), "justice_escape_window",
                   {"activity": "escape", "target": cid}, p=p, cid=cid))


@op("justice_escape_window")
def justice_escape_window(state: GameState, choice: int, p: int, cid: str) -> None:
    country = suffix(choice, "country_")
    kind = _escape_kind(state, state.chars[cid])
    guard = "prison_guards" if kind == "prison" else "port_guards"
    spec = {
        "label": f"escape of {name(cid)}",
        "dice": "none",
        "cards": [] if kind == "abroad" else [card_entry(guard, "any", "negate", max_total=1)],
        "then": "justice_escape_result",
        "then_args": {"cid": cid, "country": country},
    }
    seq(state, modified_roll(spec))


@op("justice_escape_result")
def justice_escape_result(state: GameState, roll: dict[str, Any], cid: str, country: str) -> None:
    c = state.wchar(cid)
    if roll["negated"]:
        log(state, f"The escape of {name(cid)} is negated (§13.4.10).")
        return
    registry.HOOKS[ruleset(state).escaped_hook](state, cid, c, country)


@registry.hook("escaped_1981")
def _escaped(state: GameState, cid: str, c: Character, country: str) -> None:
    """§13.4.10: ``c`` (``state.wchar(cid)``) escapes to ``country`` and hides there; an escaped
    prisoner is a wrongdoer (§24.10)."""
    was_prisoner = c.imprisoned
    c.imprisoned = False
    c.suicide = False  # §29.9, §30.10: only a banished or imprisoned character
    c.hiding = True
    c.location = country
    if was_prisoner:
        c.hid_turn = state.turn
        c.wrongdoer = True  # §24.10
        c.situation_turns = 0
        c.escaped = not c.awaiting_execution
    log(state, f"{name(cid)} escapes to {COUNTRY_NAMES[country]} and is in hiding there (§13.4.10).")


@registry.hook("escaped_es")
def _escaped_es(state: GameState, cid: str, c: Character, country: str) -> None:
    """ES §25.9 (D71): a fugitive hiding abroad flees to another country.  Otherwise he escapes
    (§13.4.10) and chooses hiding or living openly there (ES §20.8, D62); a NC cannot hide
    (ES §24.7, D64)."""
    if c.hiding and abroad(c):
        src = c.location
        c.location = country
        log(state, f"{name(cid)} flees in hiding from {COUNTRY_NAMES[src]} to {COUNTRY_NAMES[country]} "
                   "(ES §25.9, D71).")
        return
    _escaped(state, cid, c, country)
    if c.owner is None:  # ES §24.7 (D64): a NC cannot hide; he lives openly abroad (ES §20.8)
        c.hiding = False
        log(state, f"{name(cid)} is a NC and cannot hide: he lives openly in {COUNTRY_NAMES[country]} "
                   "(ES §24.7, §20.8).")
    else:
        seq(state, ask(c.owner, "escape_hide_choice", [YES, NO], "justice_es_escape_hide",
                       {"target": cid}, cid=cid))


# ---------------------------------------------------------------------------
# Activity: Extradite A Wrongdoer (§13.4.11, §14.5.16, §25)
# ---------------------------------------------------------------------------


@registry.hook("extraditable_1981")
def _extraditable(state: GameState, cid: str, c: Character) -> bool:
    """§25, §7.10.1: a wrongdoer in hiding, not in a country at war."""
    return (not c.dead and c.hiding and cid not in ROYALS and is_wrongdoer(c)
            and not stuck_at_war(state, c))


def _extradite_legal(state: GameState, p: int) -> bool:
    if not card_or_waiver(state, p, "extradition"):
        return False
    ok = registry.HOOKS[ruleset(state).extraditable_hook]  # §25; ES §25.1, §25.12 (D66, D74)
    return any(ok(state, cid, c) for cid, c in state.chars.items())


@op("justice_extradite")
def justice_extradite(state: GameState, p: int) -> None:
    ok = registry.HOOKS[ruleset(state).extraditable_hook]  # §25; ES §25.1, §25.12 (D66, D74)
    opts = [char_action(cid) for cid, c in state.chars.items() if ok(state, cid, c)]
    seq(state, ask(p, "extradite_target", opts, "justice_extradite_target", {"activity": "extradite"}, p=p))


@op("justice_extradite_target")
def justice_extradite_target(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    spend_card(state, p, "extradition", "an 'Extradition'")
    registry.HOOKS[ruleset(state).extradite_hook](state, p, cid)


@registry.hook("extradite_1981")
def _extradite_1981(state: GameState, p: int, cid: str) -> None:
    """§25: the wrongdoer is returned to Fandonia for trial (``trials.to_trial``)."""
    seq(state, ("to_trial", {"cid": cid, "extradited": True}))


@registry.hook("extradite_es")
def _extradite_es(state: GameState, p: int, cid: str) -> None:
    """ES §25 (D66-D74): the Intrigue, veto and hiding rules (``justice_es_extradite``)."""
    seq(state, ("justice_es_extradite", {"p": p, "cid": cid}))


# ---------------------------------------------------------------------------
# Free actions: hide, unhide (§24.2, §24.8)
# ---------------------------------------------------------------------------


def _own_turn(state: GameState, p: int) -> bool:
    return state.active == p and state.pt.get("player") == p


def _hideable(state: GameState, p: int, cid: str, c: Character) -> bool:
    return (c.owner == p and cid not in ROYALS and not c.dead and not c.hiding and not c.imprisoned
            and c.office is None and c.hid_turn != state.turn
            and (c.banished or not is_wrongdoer(c) or (ruleset(state).wrongdoers_live_abroad and living_abroad(state, c))))


@registry.hook("unhideable_d62")
def _unhideable_d62(state: GameState, p: int, cid: str, c: Character) -> bool:
    """§24.8, ES §20.8 (D62): p's character in hiding (not since this turn) may come out of it,
    wherever he is (a wrongdoer in a country at war lives openly there).  Reading: the first
    player decides for NCs (§5, R9), so during his own Player Turn he may also bring a NC out of
    hiding."""
    mine = c.owner == p or (c.owner is None and p == state.first_player)
    return mine and c.hiding and not c.dead and c.hid_turn != state.turn


@registry.hook("unhideable_1981")
def _unhideable_1981(state: GameState, p: int, cid: str, c: Character) -> bool:
    """§24.8, §7.10.1: as ``unhideable_d62``, but a wrongdoer in a country at war cannot return
    to Fandonia, so he stays in hiding."""
    if not _unhideable_d62(state, p, cid, c):
        return False
    return not (is_wrongdoer(c) and not c.banished and stuck_at_war(state, c))


def _hide_legal(state: GameState, p: int) -> bool:
    # the cheap owner/hiding filters first: these run at every main decision
    if not _own_turn(state, p):
        return False
    chars = state.chars
    for cid in owned_ids(state, p):  # the cheap owner/hiding filters first
        c = chars[cid]
        if not c.hiding and _hideable(state, p, cid, c):
            return True
    return False


def _unhide_legal(state: GameState, p: int) -> bool:
    if not _own_turn(state, p):
        return False
    ids = hiding_ids(state)
    if not ids:
        return False
    ok = registry.HOOKS[ruleset(state).unhideable_hook]  # §24.8; ES §20.8 (D62)
    chars = state.chars
    for cid in ids:
        if ok(state, p, cid, chars[cid]):
            return True
    return False


@op("justice_hide")
def justice_hide(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _hideable(state, p, cid, c)]
    seq(state, ask(p, "hide_char", opts, "justice_hide_char", {}, p=p))


@op("justice_hide_char")
def justice_hide_char(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    justice_go_hiding(state, cid)
    if cid == state.players[p].pc and state.pt:
        state.pt["restricted"] = True  # §24.3, §13.1: one activity while the PC is in hiding


@op("justice_unhide")
def justice_unhide(state: GameState, p: int) -> None:
    ok = registry.HOOKS[ruleset(state).unhideable_hook]  # §24.8; ES §20.8 (D62)
    opts = [char_action(cid) for cid, c in state.chars.items() if ok(state, p, cid, c)]
    seq(state, ask(p, "unhide_char", opts, "justice_unhide_char", {}, p=p))


@op("justice_unhide_char")
def justice_unhide_char(state: GameState, choice: int, p: int) -> None:
    """§24.8: a wrongdoer who comes out of hiding (other than a banished one) is returned
    to Fandonia and sent to a hearing; an escaped prisoner is imprisoned again (§30.6)
    and one awaiting execution is executed (§31.6)."""
    cid = NAME[choice][len("char_"):]
    c = state.wchar(cid)
    c.hiding = False
    c.hid_turn = state.turn
    log(state, f"{name(cid)} comes out of hiding (§24.8).")
    if c.banished or not is_wrongdoer(c):
        return
    registry.HOOKS[ruleset(state).unhidden_wrongdoer_hook](state, p, cid)


@registry.hook("unhidden_1981")
def _unhidden_1981(state: GameState, p: int, cid: str) -> None:
    """§24.8: the wrongdoer out of hiding faces justice."""
    _back_to_justice(state, cid)


@registry.hook("unhidden_d62")
def _unhidden_d62(state: GameState, p: int, cid: str) -> None:
    """ES §20.8 (D62): a wrongdoer out of hiding abroad may live openly there instead of
    returning to Fandonia and to justice (§24.8)."""
    c = state.chars[cid]
    if abroad(c):
        opts = [YES] if stuck_at_war(state, c) else [YES, NO]
        seq(state, ask(p, "unhide_abroad", opts, "justice_es_unhide_abroad", {"target": cid}, cid=cid))
        return
    _back_to_justice(state, cid)


def _back_to_justice(state: GameState, cid: str) -> None:
    """§24.8: a wrongdoer out of hiding (not banished) is back in Fandonia and faces justice."""
    c = state.wchar(cid)
    c.location = FANDONIA
    if c.awaiting_execution:
        log(state, f"{name(cid)} was awaiting execution: he is executed at once (§31.6).")
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))
    elif c.escaped:
        imprison(state, cid, False, "an escaped prisoner back in Fandonia: imprisoned again (§30.6)")
    else:
        state.misc.get("justice_fate", {}).pop(cid, None)  # what awaited him, if remembered (ES §25.10, D72)
        log(state, f"{name(cid)} is a wrongdoer: sent to a hearing (§24.8).")
        seq(state, ("hearing", {"cid": cid, "cont": True}))


# ---------------------------------------------------------------------------
# Errata edition: wrongdoers abroad (ES §20.8, D62, A31), hiding (ES §24.7, D64),
# extradition (ES §25, D66-D74, ruling R2, A30)
# ---------------------------------------------------------------------------


def _captured(state: GameState, cid: str) -> None:
    """ES §25.10 (D72): a captured fugitive, now in Fandonia and out of hiding, goes to the
    hearing, interrogation and trial, or execution, that awaited him when he fled; an
    escaped prisoner is imprisoned again (§30.6).  He cannot hide (§24.2)."""
    c = state.wchar(cid)
    if c.hiding:
        c.hiding = False
        c.hid_turn = state.turn
    c.location = FANDONIA
    fate = state.misc.get("justice_fate", {}).pop(cid, None)
    if c.awaiting_execution:
        log(state, f"{name(cid)} was awaiting execution: he is executed at once (§31.6).")
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))
    elif c.escaped:
        imprison(state, cid, False, "an escaped prisoner back in Fandonia: imprisoned again (§30.6)")
    elif fate == "trial":
        log(state, f"{name(cid)} goes to the trial he fled (ES §25.10).")
        seq(state, ("to_trial", {"cid": cid, "cont": True}))
    else:
        log(state, f"{name(cid)} goes to the hearing he fled (ES §25.10).")
        seq(state, ("hearing", {"cid": cid, "cont": True}))


@op("justice_es_escape_hide")
def justice_es_escape_hide(state: GameState, choice: int, cid: str) -> None:
    """ES §20.8: after an escape abroad the player chooses hiding or living openly there."""
    c = state.chars[cid]
    if choice == NO:
        c = state.wchar(cid)
        c.hiding = False
        log(state, f"{name(cid)} lives openly in {COUNTRY_NAMES[c.location]} (ES §20.8).")
    else:
        log(state, f"{name(cid)} stays in hiding in {COUNTRY_NAMES[c.location]} (ES §20.8).")


@op("justice_es_unhide_abroad")
def justice_es_unhide_abroad(state: GameState, choice: int, cid: str) -> None:
    """ES §20.8 / §24.8: out of hiding abroad, a wrongdoer lives openly there (YES) or
    returns to Fandonia and to justice (NO)."""
    c = state.chars[cid]
    if choice == YES:
        log(state, f"{name(cid)} lives openly in {COUNTRY_NAMES[c.location]} (ES §20.8).")
        return
    _back_to_justice(state, cid)


@op("justice_es_enter_fandonia")
def justice_es_enter_fandonia(state: GameState, cid: str) -> None:
    """ES §20.8 (D62): a wrongdoer living abroad who visits Fandonia goes at once to
    Fandonian justice (ES §25.10).  Scheduled by the travel activity in the errata edition only."""
    c = state.chars[cid]
    if c.dead or c.banished or c.location != FANDONIA or not is_wrongdoer(c):
        return
    log(state, f"{name(cid)} is a wrongdoer who comes to Fandonia: he faces Fandonian justice at once "
               "(ES §20.8, §25.10).")
    _captured(state, cid)


@op("justice_es_turn_start")
def justice_es_turn_start(state: GameState, p: int) -> None:
    """A ``registry.TURN_START`` entry: the Ruleset's ``abroad_turn_start_hook``."""
    registry.HOOKS[ruleset(state).abroad_turn_start_hook](state, p)


@registry.hook("one_activity_abroad")
def _one_activity_abroad(state: GameState, p: int) -> None:
    """ES §20.8, A31: a player whose PC is a wrongdoer living abroad has one activity this
    turn, more only through Extra Activity (checked when his Player Turn begins)."""
    if not state.pt:
        return
    c = state.chars[state.players[p].pc]
    if not living_abroad(state, c):
        return

    state.pt["extra"] -= base_activities(state) - 1
    log(state, f"Player {p}'s PC is a wrongdoer living abroad: one activity this turn unless an Extra "
               "Activity card or counter is used (ES §20.8, A31).")


@op("justice_d64_unhide")
def justice_d64_unhide(state: GameState, cid: str) -> None:
    """ES §24.7 (D64): a FAC in hiding who becomes a NC comes out of hiding at once and
    faces the consequences (§24.8, §25.10).  Scheduled in the errata edition only (the
    activities and crown chapters ask ``nc_may_not_hide``)."""
    c = state.chars[cid]
    if c.dead or not c.hiding or c.owner is not None:
        return
    c = state.wchar(cid)
    c.hiding = False
    c.hid_turn = state.turn
    log(state, f"{name(cid)} is now a NC and cannot hide: he comes out of hiding at once (ES §24.7).")
    if is_wrongdoer(c) and not c.banished:
        if stuck_at_war(state, c):
            log(state, f"{name(cid)} is in a country at war: he lives openly there (§7.10.1, ES §20.8).")
            return
        _captured(state, cid)


# -- ES §25 Extradition -------------------------------------------------------


def _ambassador_veto(state: GameState, p: int, cid: str) -> int | None:
    """ES §25.2: the player whose FAC (Reading: or PC, as A50 reads "FAC") is the
    Ambassador to the fugitive's country, if that is another player, may veto."""
    where = state.chars[cid].location
    for aid, a in state.chars.items():
        if a.office is None or a.dead or aid == cid or OFFICES[a.office].country != where:
            continue
        if a.owner is not None and a.owner != p:
            return a.owner
    return None


def _es_intrigue_options(state: GameState, p: int) -> list[int]:
    """ES §25.3: an Intrigue counter (the turn's grant) or an Intrigue card."""
    out = []
    if state.pt.get("intrigue", 0) > 0:
        out.append(YES)
    if has_card(state, p, "intrigue"):
        out.append(ID["play_intrigue"])
    return out


@op("justice_es_extradite")
def justice_es_extradite(state: GameState, p: int, cid: str) -> None:
    """The Extradition card has been played (or waived): offer the Intrigue combination
    where it matters (a fugitive hiding abroad, or a possible veto)."""
    c = state.chars[cid]
    matters = c.hiding or _ambassador_veto(state, p, cid) is not None
    opts = _es_intrigue_options(state, p) if matters else []
    if opts:
        seq(state, ask(p, "extradite_intrigue", [NO] + opts, "justice_es_extradite_intrigue",
                       {"activity": "extradite", "target": cid}, p=p, cid=cid))
        return
    justice_es_extradite_intrigue(state, NO, p, cid)


@op("justice_es_extradite_intrigue")
def justice_es_extradite_intrigue(state: GameState, choice: int, p: int, cid: str) -> None:
    c = state.chars[cid]
    intrigue = choice != NO
    if choice == YES:
        state.pt["intrigue"] -= 1
        log(state, f"Player {p} adds his Intrigue counter to the extradition (ES §25.3).")
    elif intrigue:
        discard(state, take_card(state, p, "intrigue"))
        log(state, f"Player {p} plays an 'Intrigue' card with the extradition (ES §25.3).")
    if c.hiding:
        if not intrigue:
            log(state, f"{name(cid)} is hiding abroad: an Extradition alone does not return him (ES §25.5); "
                       "the Persecution it could start is not part of this edition (ruling R2), so it has no "
                       "effect (A30).")
            return
        log(state, f"With Intrigue, {name(cid)} hiding abroad is extradited and no Ambassador may obstruct "
                   "it (ES §25.6, A30).")
        seq(state, ("justice_es_extradited", {"cid": cid}))
        return
    vetoer = None if intrigue else _ambassador_veto(state, p, cid)
    if vetoer is not None:
        seq(state, ask(vetoer, "extradition_veto", [YES, NO], "justice_es_veto",
                       {"activity": "extradite", "target": cid}, cid=cid))
        return
    why = "with Intrigue no Ambassador may obstruct it (ES §25.3)" if intrigue else "(ES §25.2)"
    log(state, f"{name(cid)}, living openly abroad, is extradited without a chance to hide {why}.")
    seq(state, ("justice_es_extradited", {"cid": cid}))


@op("justice_es_veto")
def justice_es_veto(state: GameState, choice: int, cid: str) -> None:
    if choice == YES:
        log(state, f"The Ambassador to {COUNTRY_NAMES[state.chars[cid].location]} vetoes the extradition of "
                   f"{name(cid)} (ES §25.2).")
        return
    log(state, f"The Ambassador does not veto: {name(cid)} is extradited without a chance to hide (ES §25.2).")
    seq(state, ("justice_es_extradited", {"cid": cid}))


@op("justice_es_extradite_counsel")
def justice_es_extradite_counsel(state: GameState, cid: str) -> None:
    """ES §25.4, §25.7 (D69): an accepted Extradition counsel proceeds as §25.3 (no veto, no
    hiding); against a fugitive hiding abroad it succeeds (A30's fallback)."""
    c = state.chars[cid]
    if not extraditable_es(state, cid, c):
        log(state, f"{name(cid)} can no longer be extradited: no effect.")
        return
    log(state, f"By counsel {name(cid)} is extradited: no Ambassador may veto and he cannot hide "
               "(ES §25.4, §25.7, A30).")
    seq(state, ("justice_es_extradited", {"cid": cid}))


@op("justice_es_extradited")
def justice_es_extradited(state: GameState, cid: str) -> None:
    c = state.chars[cid]
    if not extraditable_es(state, cid, c):
        log(state, f"{name(cid)} can no longer be extradited: no effect.")
        return
    log(state, f"{name(cid)} is extradited and returned to Fandonia (ES §25).")
    _captured(state, cid)


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

registry.activity("escape", _escape_legal, "justice_escape")
registry.activity("extradite", _extradite_legal, "justice_extradite")
registry.free_action("hide", _hide_legal, "justice_hide")
registry.free_action("unhide", _unhide_legal, "justice_unhide")

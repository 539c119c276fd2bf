"""§26 Hearings, §27 Interrogation, §28 Trials, §29 Banishment, §30 Imprisonment; the free
action suicide (§29.9, §30.10); errata ES §29.1 (D75) and ES §30.10 (D76).

Cross-chapter operations (docs/engine.md): ``hearing`` {cid}, ``to_trial`` {cid, extradited}.
``hearing`` and ``to_trial`` also take ``cont=True`` when they continue proceedings already
under way (a hearing after coming out of hiding, a trial after a hearing), and
``resumed=True`` for proceedings suspended by a war that has ended (§7.10.1, A61); neither is
ignored as "another accusation" of a wrongdoer.  A resumed hearing or trial still respects
hiding (§24.2, §24.10): the character may hide from the hearing (or stay hidden), and one in
hiding does not attend the trial.  ``to_trial`` with ``extradited=True`` is the return of §25.

Links to the other chapters: hiding from a hearing schedules ``justice_go_hiding``
(``hiding``); a sentence of Banished, Imprisoned or Awaiting Execution schedules
``justice_clemency`` (``clemency``, §38); ``imprison`` (§30.4, in ``rules/situation.py``) is also called by
``hiding`` and ``clemency``; §13.1 (R19) and D27 (errata): ``leaves_court`` (``rules/court.py``) when a
character is imprisoned or banished.  ES §30.10: ``death.py`` rolls the prison death and schedules
``justice_es_prison_death`` in the errata edition.
"""

from __future__ import annotations

from typing import Any, Final

from ..core import chance, registry
from ..core.actions import NAME, NO, YES, char_action, suffix
from ..core.machine import ask, log, op, seq
from ..core.state import Character, GameState
from ..data.components import COUNTRY_NAMES, FANDONIA, JUDGES, NOBLES, ROYALS
from ..data.tables import INTERROGATION, TRIAL, lookup
from ..rules.court import leaves_court, vacate_step
from ..rules.effects import Ctx, apply_row, minister_of_justice
from ..rules.queries import (
    abroad,
    actor_for,
    banished_or_imprisoned_ids,
    ip_spendable,
    name,
    player_order,
    spend_ip,
    status,
    stuck_at_war,
)
from ..rules.rolls import modified_roll
from ..rules.ruleset import ruleset
from ..rules.situation import CLAMP, card_entry, imprison, is_wrongdoer, set_situation, spared

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _can_hide_now(state: GameState, cid: str, c: Character) -> bool:
    """May go into hiding now to avoid a hearing (§24.2, §24.4, §24.5, §30.6)."""
    return (cid not in ROYALS and not c.dead and not c.hiding and not c.imprisoned
            and c.hid_turn != state.turn and not (c.owner is None and ruleset(state).nc_may_not_hide))  # errata D64


def _fate(state: GameState, cid: str, what: str) -> None:
    """ES §25.10 (D72): remember what awaited a fugitive when he fled ("hearing" or
    "trial"); errata edition only (``state.misc["justice_fate"]``)."""
    if ruleset(state).fugitive_fate_remembered:
        state.misc.setdefault("justice_fate", {})[cid] = what


# ---------------------------------------------------------------------------
# §26 Hearings (with the hiding decision of §24.2, §24.10, A60)
# ---------------------------------------------------------------------------


def _waits_for_peace(state: GameState, cid: str, c: Character, step: str, sent: str, waits: str) -> bool:
    """§7.10.1, A61: a character stuck in a country at war is a wrongdoer whose ``step`` waits for the
    war's end (``sent``, ``waits``: the log's words)."""
    if not stuck_at_war(state, c):
        return False
    c.wrongdoer = True
    c.pending_justice = step
    log(state, f"{name(cid)} is {sent} but is stuck in a country at war: {waits} until the war is over "
               "(§7.10.1, A61).")
    return True


@op("hearing")
def hearing(state: GameState, cid: str, cont: bool = False, resumed: bool = False) -> None:
    """§26 (with §24.2, §24.10, A60).  ``cont``: the hearing continues proceedings under
    way (after coming out of hiding, §24.8): no hiding offer.  ``resumed``: a hearing
    suspended by a war that has ended (§7.10.1, A61): the character is already a
    wrongdoer, but the hiding choices of §24.2/§24.10 are offered as when he was sent."""
    if spared(state, cid, "may never be sent to a hearing (§26.3)"):
        return
    c = state.chars[cid]
    if not (cont or resumed) and is_wrongdoer(c):
        log(state, f"{name(cid)} is already a wrongdoer: the hearing is ignored (§24.10, §29.7, §30.8).")
        return
    c = state.wchar(cid)
    if _waits_for_peace(state, cid, c, "hearing", "sent to a hearing", "it waits"):
        return
    c.wrongdoer = True  # §23.5
    decider = actor_for(state, cid)
    if not cont:
        if c.hiding:
            if c.hid_turn == state.turn:
                _fate(state, cid, "hearing")
                log(state, f"{name(cid)} is in hiding and does not go to the hearing: a wrongdoer (§24.10).")
                return
            seq(state, ask(decider, "hearing_hiding", [YES, NO], "justice_hearing_hide",
                           {"target": cid, "hiding": True}, cid=cid))
            return
        if _can_hide_now(state, cid, c):
            seq(state, ask(decider, "hide_from_hearing", [YES, NO], "justice_hearing_hide",
                           {"target": cid, "hiding": False}, cid=cid))
            return
    seq(state, ("justice_hearing_roll", {"cid": cid}))


@op("justice_hearing_hide")
def justice_hearing_hide(state: GameState, choice: int, cid: str) -> None:
    c = state.chars[cid]
    if c.hiding:
        if choice == YES:
            _fate(state, cid, "hearing")
            log(state, f"{name(cid)} stays in hiding and does not go to the hearing: a wrongdoer (§24.10).")
            return
        c = state.wchar(cid)
        c.hiding = False
        c.hid_turn = state.turn
        if abroad(c) and not c.banished:
            c.location = FANDONIA
        log(state, f"{name(cid)} comes out of hiding and goes to the hearing.")
        seq(state, ("justice_hearing_roll", {"cid": cid}))
        return
    if choice == YES:
        _fate(state, cid, "hearing")
        seq(state, vacate_step(state, cid), ("justice_go_hiding", {"cid": cid, "why": "to avoid a hearing"}))
        return
    seq(state, ("justice_hearing_roll", {"cid": cid}))


@op("justice_hearing_roll")
def justice_hearing_roll(state: GameState, cid: str) -> None:
    """§26.1-§26.2: 2d; Evidence +1 each (none: -1), Alibi -3 each, Informer ±1 each."""
    spec: dict[str, Any] = {
        "label": f"Hearing of {name(cid)}",
        "dice": "2d",
        "cards": [
            card_entry("evidence", "any", 1),
            card_entry("alibi", "any", -3),
            card_entry("informer", "any", "pm", amount=1),
        ],
        "absent": {"card": "evidence", "amount": -1},
        "then": "justice_hearing_result",
        "then_args": {"cid": cid},
    }
    if state.misc.get("bribe_hearing", {}).get(cid):  # errata ES §13.4.20 (bribery.py)
        spec["base"] = state.misc["bribe_hearing"].pop(cid)
        log(state, f"The bribe adds +{spec['base']} to the hearing roll of {name(cid)} (ES §13.4.20).")
    seq(state, modified_roll(spec))


@op("justice_hearing_result")
def justice_hearing_result(state: GameState, roll: dict[str, Any], cid: str) -> None:
    st = status(state, cid)
    if roll["total"] < st:
        state.wchar(cid).wrongdoer = False
        log(state, f"Hearing of {name(cid)}: {roll['total']} is less than Status {st}: the accusation is "
                   "false, innocent of all wrongdoing (§26.1).")
        return
    log(state, f"Hearing of {name(cid)}: {roll['total']} is not less than Status {st}: sent to trial (§26.1).")
    seq(state, ("to_trial", {"cid": cid, "cont": True}))


# ---------------------------------------------------------------------------
# §25 Extradition arrival, §27 Interrogation, §28 Trials
# ---------------------------------------------------------------------------


@op("to_trial")
def to_trial(state: GameState, cid: str, extradited: bool = False, cont: bool = False,
             resumed: bool = False) -> None:
    """§25, §27, §28.  ``cont``: after a hearing (no hiding escape, §24.2); ``resumed``: a
    trial suspended by a war that has ended (§7.10.1, A61), which a character in hiding
    does not attend (§24.10)."""
    c = state.chars[cid]
    if cid in ROYALS:
        log(state, f"{name(cid)} is a RC and may never be sent to trial (§28.5).")
        return
    if c.dead:
        return
    c = state.wchar(cid)
    if extradited:
        if stuck_at_war(state, c):
            log(state, f"{name(cid)} is in a country at war and cannot be extradited (§7.10.1, §25).")
            return
        log(state, f"{name(cid)} is extradited and returned to Fandonia (§25).")
        if c.hiding:
            c.hiding = False
            c.hid_turn = state.turn
        c.banished = False
        c.location = FANDONIA
        if c.awaiting_execution:
            log(state, f"{name(cid)} was awaiting execution: he is executed at once (§31.6).")
            seq(state, ("kill", {"cid": cid, "cause": "execution"}))
            return
        if c.escaped:
            imprison(state, cid, False, "an escaped prisoner, he is imprisoned again (§30.6)")
            return
    elif not cont:
        if not resumed and is_wrongdoer(c):
            log(state, f"{name(cid)} is already a wrongdoer: the trial is ignored (§24.10, §29.7, §30.8).")
            return
        if c.hiding:
            c.wrongdoer = True
            _fate(state, cid, "trial")
            log(state, f"{name(cid)} is in hiding and does not go to trial: a wrongdoer (§24.10).")
            return
    if _waits_for_peace(state, cid, c, "trial", "sent to trial", "the trial waits"):
        return
    c.wrongdoer = True  # §23.5
    c.pending_justice = None
    if c.is_pc:
        seq(state, ("justice_trial", {"cid": cid, "mod": 0}))
        return
    # §27.1-§27.3: a NC or FAC is interrogated first
    spec = {
        "label": f"Interrogation of {name(cid)}",
        "dice": "2d",
        "cards": [
            card_entry("treachery", "any", -1, max_total=1),
            card_entry("prison_guards", "any", "pm", amount=2, max_total=1),
        ],
        "clamp": CLAMP,
        "then": "justice_interrogation_result",
        "then_args": {"cid": cid},
    }
    seq(state, modified_roll(spec))


#: the order in which an Interrogation row's effect codes apply (``effects.apply_row``).
INTERROGATION_ORDER: Final = ("character_dies", "pc_accused", "no_effect")


@op("justice_interrogation_result")
def justice_interrogation_result(state: GameState, roll: dict[str, Any], cid: str) -> None:
    row = lookup(INTERROGATION, roll["total"])
    log(state, f"Interrogation Table {roll['total']}: {row['text']}")
    ctx = Ctx(cid=cid)
    steps = apply_row(state, row, INTERROGATION_ORDER, ctx)
    if ctx.flags.get("dies"):
        seq(state, *steps)
        return
    seq(state, ("justice_trial", {"cid": cid, "mod": row["trial_mod"]}), *steps)


def _judge_ok(state: GameState, j: str, accused: str) -> bool:
    c = state.chars[j]
    return j != accused and not (c.dead or c.banished or c.imprisoned or c.hiding)


@op("justice_trial")
def justice_trial(state: GameState, cid: str, mod: int) -> None:
    """§28.2: the Judge: chosen by a PC/FAC Minister Of Justice (not on trial himself),
    else by the first player's die (1-3 the 1st Judge, 4-6 the 2nd); a Judge never
    hears his own trial (§28.3, A50)."""
    ok = [j for j in JUDGES if _judge_ok(state, j, cid)]
    if not ok:
        log(state, "No Judge can hear the case: it is heard without a Judge's influence.")
        seq(state, ("justice_trial_roll", {"cid": cid, "mod": mod, "judge": None}))
        return
    mj = minister_of_justice(state)
    if mj is not None and mj != cid and state.chars[mj].owner is not None and mj not in ROYALS:
        owner = state.chars[mj].owner
        seq(state, ask(owner, "choose_judge", [char_action(j) for j in ok], "justice_judge_chosen",  # type: ignore[arg-type]
                       {"target": cid}, cid=cid, mod=mod))
        return
    if len(ok) == 1:
        judge = ok[0]
    else:
        n = chance.d6(state, "the Judge (§28.2)")
        judge = next(j for j in JUDGES if n in NOBLES[j].trial_numbers)
        log(state, f"Player {state.first_player} rolls {n} for the Judge (§28.2).")
    log(state, f"{name(judge)} hears the case of {name(cid)}.")
    seq(state, ("justice_trial_roll", {"cid": cid, "mod": mod, "judge": judge}))


@op("justice_judge_chosen")
def justice_judge_chosen(state: GameState, choice: int, cid: str, mod: int) -> None:
    judge = NAME[choice][len("char_"):]
    log(state, f"The Minister Of Justice's player chooses {name(judge)} to hear the case of {name(cid)} (§28.2).")
    seq(state, ("justice_trial_roll", {"cid": cid, "mod": mod, "judge": judge}))


@op("justice_trial_roll")
def justice_trial_roll(state: GameState, cid: str, mod: int, judge: str | None) -> None:
    """§28.3-§28.4: Judge a FAC ±5; Evidence +1 each (none: -3), Alibi -1 each,
    Informer ±1 each; Interrogation 7/8: +1/+2."""
    signs = []
    if judge is not None and state.chars[judge].owner is not None:
        signs.append({"player": state.chars[judge].owner, "amount": 5,
                      "why": f"{name(judge)} hearing the case is his FAC (§28.3)"})
    spec = {
        "label": f"Trial of {name(cid)}",
        "dice": "2d",
        "base": mod,
        "signs": signs,
        "cards": [
            card_entry("evidence", "any", 1),
            card_entry("alibi", "any", -1),
            card_entry("informer", "any", "pm", amount=1),
        ],
        "absent": {"card": "evidence", "amount": -3},
        "clamp": CLAMP,
        "then": "justice_trial_result",
        "then_args": {"cid": cid},
    }
    seq(state, modified_roll(spec))


#: the Trial Table's verdicts (``effects.apply_row``).
TRIAL_ORDER: Final = ("not_guilty", "banished", "imprisoned", "awaiting_execution", "executed")


@op("justice_trial_result")
def justice_trial_result(state: GameState, roll: dict[str, Any], cid: str) -> None:
    row = lookup(TRIAL, roll["total"])
    log(state, f"Trial Table {roll['total']}: {name(cid)} - {row['text']}.")
    if row["verdict"] != "not_guilty" and cid in JUDGES:
        log(state, f"{name(cid)} is a Judge found guilty: immediately executed (§28.3).")
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))
        return
    # §38 Clemency (optional): asked once the sentence is carried out
    clem = ("justice_clemency", {"cid": cid, "i": 0}) if ruleset(state).clemency else None
    seq(state, *apply_row(state, row, TRIAL_ORDER, Ctx(cid=cid, params={"then": clem})))


# ---------------------------------------------------------------------------
# §29 Banishment, §30 Imprisonment
# ---------------------------------------------------------------------------


registry.hook("imprison")(imprison)  # for the Clemency verdicts (effects.py)


@op("justice_imprison")
def justice_imprison(state: GameState, cid: str, execute: bool) -> None:
    if execute:
        imprison(state, cid, True, "imprisoned awaiting execution at the end of the next turn (§28.6.4)")
    else:
        imprison(state, cid, False, "imprisoned (§28.6.3, §30)")


@op("justice_banish")
def justice_banish(state: GameState, choice: int, cid: str) -> None:
    country = suffix(choice, "country_")
    seq(state, vacate_step(state, cid), ("justice_banish_apply", {"cid": cid, "country": country}))


@op("justice_banish_apply")
def justice_banish_apply(state: GameState, cid: str, country: str) -> None:
    set_situation(state.wchar(cid), country, banished=True, wrongdoer=True)
    log(state, f"{name(cid)} is banished to {COUNTRY_NAMES[country]} (§28.6.2, §29).")
    leaves_court(state, cid, "banished")  # §13.1 (R19); D27 (errata)


# ---------------------------------------------------------------------------
# Free action: suicide (§29.9, §30.10)
# ---------------------------------------------------------------------------


def _own_turn(state: GameState, p: int) -> bool:
    return state.active == p and state.pt.get("player") == p


def _suicidable(p: int, c: Character) -> bool:
    return (c.owner == p and not c.dead and not c.suicide and (c.banished or c.imprisoned)
            and c.situation_turns >= 3)


def _suicide_legal(state: GameState, p: int) -> bool:
    if not _own_turn(state, p):
        return False
    chars = state.chars
    for cid in banished_or_imprisoned_ids(state):
        if _suicidable(p, chars[cid]):
            return True
    return False


@op("justice_suicide")
def justice_suicide(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _suicidable(p, c)]
    seq(state, ask(p, "suicide_char", opts, "justice_suicide_char", {}, p=p))


@op("justice_suicide_char")
def justice_suicide_char(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    state.wchar(cid).suicide = True
    log(state, f"{name(cid)} will commit suicide at the end of all Player Turns (§29.9, §30.10).")


# ---------------------------------------------------------------------------
# ES §30.10 Death in prison: One IP for -2 (D76)
# ---------------------------------------------------------------------------


@op("justice_es_prison_death")
def justice_es_prison_death(state: GameState, cid: str, roller: int, i: int = 0, mod: int = 0) -> None:
    """ES §30.10 (D76): before the roll (§2.3, A11), in player order, a player may pay One
    IP to subtract two; one payment already makes death impossible (11-12 less 2), so the
    window closes after the first payment."""
    c = state.chars[cid]
    if c.dead or not c.imprisoned:
        return
    order = player_order(state)
    while mod == 0 and i < len(order):
        q = order[i]
        if ip_spendable(state, q) >= 1:
            seq(state, ask(q, "prison_death_pay", [YES, NO], "justice_es_prison_pay", {"target": cid},
                           cid=cid, roller=roller, i=i))
            return
        i += 1
    r = chance.dice_sum(state, "prison death roll (ES §30.10)")
    total = r + mod
    dies = total >= 11
    ms = f" {mod:+d} = {total}" if mod else ""
    log(state, f"Prison death roll for {name(cid)} (player {roller} rolls): {r}{ms} - "
               f"{'11-12, the character dies in prison' if dies else 'survives'} (§30.10).")
    if dies:
        seq(state, ("kill", {"cid": cid, "cause": "died in prison"}))


@op("justice_es_prison_pay")
def justice_es_prison_pay(state: GameState, choice: int, cid: str, roller: int, i: int) -> None:
    q = player_order(state)[i]
    if choice == YES:
        spend_ip(state, q, 1, f"-2 to the prison death roll of {name(cid)} (ES §30.10)")
        seq(state, ("justice_es_prison_death", {"cid": cid, "roller": roller, "i": i + 1, "mod": -2}))
        return
    seq(state, ("justice_es_prison_death", {"cid": cid, "roller": roller, "i": i + 1}))


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

registry.free_action("suicide", _suicide_legal, "justice_suicide")

"""§21 Assassination, §22 Scandal, §23 Wrongdoing, §24 Hiding, §25 Extradition,
§26 Hearings, §27 Interrogation, §28 Trials, §29 Banishment, §30 Imprisonment;
the activities Render A Pardon (§13.4.5), Announce An Amnesty (§13.4.6), Conduct An
Assassination Attempt (§13.4.8), Expose A Scandal (§13.4.9), Escape (§13.4.10) and
Extradite A Wrongdoer (§13.4.11) with their Event cards (§14.5.4-§14.5.18); the
free actions hide / unhide (§24.2, §24.8) and suicide (§29.9, §30.10).
§31 (death) and the end-of-turn bookkeeping live in ``death.py``.

Cross-chapter operations (docs/engine.md): ``accuse`` {cid, dwtk, why}, ``hearing``
{cid}, ``to_trial`` {cid, extradited}, ``scandal`` {cid, exposer, why},
``amnesty_all`` {}; ``kill`` is in ``death.py``.  ``hearing`` and ``to_trial`` also
take ``cont=True`` when they continue proceedings already under way (a hearing
after coming out of hiding, a trial after a hearing), and ``resumed=True`` for
proceedings suspended by a war that has ended (§7.10.1, A61); neither is ignored as
"another accusation" of a wrongdoer.  A resumed hearing or trial still respects
hiding (§24.2, §24.10): the character may hide from the hearing (or stay hidden),
and one in hiding does not attend the trial.

Who is a wrongdoer (§23.5, §24.10, §29.7, §30.8): ``Character.wrongdoer`` is set
when a character is sent to a hearing, an interrogation or a trial, and stays set
while he is banished, imprisoned or an escaped prisoner; a pardon, an amnesty, an
innocent verdict or death clears it.  Further accusations, hearings and trials
ordered against a wrongdoer by other rules are ignored (§24.10, §29.7, §30.8).

Readings (where rules and rulings are silent):

* Reading: a character already in hiding who is sent to trial by a table result
  is out of reach, like one sent to a hearing (§24.10): he stays in hiding and is
  a wrongdoer.
* Reading: a hidden character sent to a hearing may choose to go only if he could
  come out of hiding this turn (§24.2 "not in and out the same turn").  One hiding
  abroad who goes to the hearing returns to Fandonia (as in §24.8).
* Reading: "FAC Exposes PC" (§27) is resolved after the FAC's trial, which follows
  the interrogation immediately (§27.4).
* Reading: a Judge who is banished, imprisoned or hiding cannot hear a case; the
  other Judge hears it (as for a Judge on trial, A50); with neither, the trial has
  no Judge modifier.
* Reading: when no country may receive the banished character (all at war, §29.1)
  or the character may never be abroad (Magistrate, Judges, Sheriff, Archbishop,
  §20.7), "Banished" becomes imprisonment (as ES §29.1 does for the first case).
* Reading: when the Minister of Justice himself is on trial, the first player
  chooses the country of banishment (as §28.2 does for the Judge).
* Reading: a pardoned or amnestied banished character returns to Fandonia (unless
  stuck in a country at war, §7.10.1); a wrongdoer hiding abroad comes out of
  hiding and stays in that country.
* Reading: the assassin (PC or henchman, §13.4.8, §17.2.1) must not be dead,
  imprisoned or stuck at war; a henchman abroad only attempts targets abroad in
  his country (§17.6, §20.4); a PC abroad is restricted only by §20.6.3 (a target
  abroad must be in his country).  Thomas, who can only die in a usurpation
  (§31.2), is not a legal target.
* Reading: an Intrigue Event card may stand for the Intrigue counter (§14.5.7
  "perform the same activity as if he had drawn an 'Intrigue' Opportunity
  counter") and for the Assassination card (§14.5.7), so two cards may be played.
  Under an Any Activity waiver (A42) no card is needed and every Assassination card
  the attacker plays in the window adds two.
* Reading: who exposes a scandal (PC or henchman, §17.2.1) changes nothing (A54:
  the accusing PC is the player's PC), so no designation is asked.
* Reading: a character who may never be abroad (§20.7) cannot escape abroad;
  escapes go to a country not at war with Fandonia (§7.10.1).
* Reading: free hiding (§24.2) is for the player's own PC and FACs that are not
  Office Holders (§24.4), not imprisoned (§30.6) and not wrongdoers, except that a
  banished character may hide (§29.5).  A wrongdoer hiding abroad in a country at
  war cannot come out (he could not return to Fandonia, §7.10.1).
* Reading: coming out of hiding (§24.8 "at any time") is a free action of the
  character's player during his Player Turn; a NC in hiding stays there until a
  pardon, amnesty, escape or extradition changes his situation (the first player
  decides for NCs only when they are sent to a hearing, A60).
* Reading: a character abroad (not in a country at war) who attends a hearing or a
  trial is not moved by it: one found innocent stays where he was (an Ambassador
  at his post, §20.4); the verdicts place the others (prison in Fandonia, §28.6).
* Reading: a hearing or trial suspended by a war (§7.10.1, A61) resumes at the end
  of the turn in which the war ended, with the hiding choices of §24.2/§24.10 that
  the character would have had when he was sent.
"""

from __future__ import annotations

from typing import Any

from . import registry
from .actions import ID, NAME, NO, YES, char_action, suffix
from .data.components import (
    COUNTRIES,
    COUNTRY_NAMES,
    FANDONIA,
    JUDGES,
    NEVER_ABROAD,
    NOBLES,
    ROYALS,
)
from .data.tables import ASSASSINATION, INTERROGATION, SCANDAL, TRIAL, lookup
from .death import set_situation, vacate_step
from .machine import ask, log, op, seq
from .queries import (
    abroad,
    actor_for,
    card_options,
    count_cards,
    d6,
    discard,
    has_card,
    henchmen,
    lose_ip,
    lose_pp,
    name,
    play_card,
    status,
    stuck_at_war,
    take_card,
)
from .rolls import modified_roll
from .state import Character, GameState
from .turn import waived

CLAMP = [2, 12]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def is_wrongdoer(c: Character) -> bool:
    """§23.5, §24.10, §29.7, §30.8."""
    return c.wrongdoer or c.banished or c.imprisoned or c.awaiting_execution or c.escaped


def _pardonable(cid: str, c: Character) -> bool:
    return not c.dead and cid not in ROYALS and is_wrongdoer(c)


def restore(state: GameState, cid: str) -> None:
    """Return a character to a normal situation (§13.4.5, §13.4.6, §24.9, §28.6.1)."""
    c = state.chars[cid]
    keep_hiding = c.hiding and not is_wrongdoer(c)  # an innocent in hiding stays hidden
    if c.hiding and not keep_hiding:
        c.hid_turn = state.turn
    home = c.banished and not stuck_at_war(state, c)  # a banished character comes home
    set_situation(c, FANDONIA if home else c.location)
    c.hiding = keep_hiding


def _can_hide_now(state: GameState, cid: str, c: Character) -> bool:
    """May go into hiding now to avoid a hearing (§24.2, §24.4, §24.5, §30.6)."""
    return (cid not in ROYALS and not c.dead and not c.hiding and not c.imprisoned
            and c.hid_turn != state.turn)


def _minister_of_justice(state: GameState) -> str | None:
    for cid, c in state.chars.items():
        if c.office == "minister_of_justice":
            return cid
    return None


def _country_ids(state: GameState, exclude: str | None = None) -> list[int]:
    return [ID[f"country_{k}"] for k in COUNTRIES if k not in state.wars and k != exclude]


def _card_entry(card: str, who: Any, effect: Any, **kw: Any) -> dict[str, Any]:
    e = {"card": card, "who": who, "effect": effect}
    e.update(kw)
    return e


# ---------------------------------------------------------------------------
# §23 Wrongdoing
# ---------------------------------------------------------------------------


@op("accuse")
def accuse(state: GameState, cid: str, dwtk: bool = False, why: str = "") -> None:
    """§23.2-§23.4: one die (DOWN WITH THE KING +2, nothing else): < Status innocent;
    otherwise, or on a natural 6 (A5), to a hearing."""
    c = state.chars[cid]
    w = f" ({why})" if why else ""
    if cid in ROYALS:
        log(state, f"{name(cid)} is a RC and may never be accused of wrongdoing (§23.4).")
        return
    if c.dead:
        return
    if is_wrongdoer(c):
        log(state, f"{name(cid)} is already a wrongdoer: the accusation{w} is ignored (§24.10, §29.7, §30.8).")
        return
    if stuck_at_war(state, c):
        if c.pending_justice is None:
            c.pending_justice = "accuse_dwtk" if dwtk else "accuse"
        log(state, f"{name(cid)} is accused of wrongdoing{w} but is stuck in a country at war: the accusation "
                   "waits until the war is over (§7.10.1, A61).")
        return
    roller = actor_for(state, cid)
    n = d6(state)
    total = n + 2 if dwtk else n
    st = status(state, cid)
    mod = " +2 (DOWN WITH THE KING)" if dwtk else ""
    if n == 6 or total >= st:
        why6 = "a 6" if n == 6 else f"not less than Status {st}"
        log(state, f"{name(cid)} is accused of wrongdoing{w}: player {roller} rolls {n}{mod} = {total}, "
                   f"{why6}: sent to a hearing (§23.2).")
        seq(state, ("hearing", {"cid": cid}))
    else:
        log(state, f"{name(cid)} is accused of wrongdoing{w}: player {roller} rolls {n}{mod} = {total}, "
                   f"less than Status {st}: found innocent (§23.2).")


# ---------------------------------------------------------------------------
# §26 Hearings (with the hiding decision of §24.2, §24.10, A60)
# ---------------------------------------------------------------------------


@op("hearing")
def hearing(state: GameState, cid: str, cont: bool = False, resumed: bool = False) -> None:
    """§26 (with §24.2, §24.10, A60).  ``cont``: the hearing continues proceedings under
    way (after coming out of hiding, §24.8): no hiding offer.  ``resumed``: a hearing
    suspended by a war that has ended (§7.10.1, A61): the character is already a
    wrongdoer, but the hiding choices of §24.2/§24.10 are offered as when he was sent."""
    c = state.chars[cid]
    if cid in ROYALS:
        log(state, f"{name(cid)} is a RC and may never be sent to a hearing (§26.3).")
        return
    if c.dead:
        return
    if not (cont or resumed) and is_wrongdoer(c):
        log(state, f"{name(cid)} is already a wrongdoer: the hearing is ignored (§24.10, §29.7, §30.8).")
        return
    if stuck_at_war(state, c):
        c.wrongdoer = True
        c.pending_justice = "hearing"
        log(state, f"{name(cid)} is sent to a hearing but is stuck in a country at war: it waits until the "
                   "war is over (§7.10.1, A61).")
        return
    c.wrongdoer = True  # §23.5
    decider = actor_for(state, cid)
    if not cont:
        if c.hiding:
            if c.hid_turn == state.turn:
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
            log(state, f"{name(cid)} stays in hiding and does not go to the hearing: a wrongdoer (§24.10).")
            return
        c.hiding = False
        c.hid_turn = state.turn
        if abroad(c) and not c.banished:
            c.location = FANDONIA
        log(state, f"{name(cid)} comes out of hiding and goes to the hearing.")
        seq(state, ("justice_hearing_roll", {"cid": cid}))
        return
    if choice == YES:
        seq(state, vacate_step(state, cid), ("justice_go_hiding", {"cid": cid, "why": "to avoid a hearing"}))
        return
    seq(state, ("justice_hearing_roll", {"cid": cid}))


@op("justice_go_hiding")
def justice_go_hiding(state: GameState, cid: str, why: str = "") -> None:
    c = state.chars[cid]
    c.hiding = True
    c.hid_turn = state.turn
    where = "Fandonia" if not abroad(c) else COUNTRY_NAMES[c.location]
    log(state, f"{name(cid)} goes into hiding in {where}{' ' + why if why else ''} (§24.1).")


@op("justice_hearing_roll")
def justice_hearing_roll(state: GameState, cid: str) -> None:
    """§26.1-§26.2: 2d; Evidence +1 each (none: -1), Alibi -3 each, Informer ±1 each."""
    spec = {
        "label": f"Hearing of {name(cid)}",
        "dice": "2d",
        "cards": [
            _card_entry("evidence", "any", 1),
            _card_entry("alibi", "any", -3),
            _card_entry("informer", "any", "pm", amount=1),
        ],
        "absent": {"card": "evidence", "amount": -1},
        "then": "justice_hearing_result",
        "then_args": {"cid": cid},
    }
    seq(state, modified_roll(spec))


@op("justice_hearing_result")
def justice_hearing_result(state: GameState, roll: dict[str, Any], cid: str) -> None:
    c = state.chars[cid]
    st = status(state, cid)
    if roll["total"] < st:
        c.wrongdoer = False
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
            _imprison(state, cid, False, "an escaped prisoner, he is imprisoned again (§30.6)")
            return
    elif not cont:
        if not resumed and is_wrongdoer(c):
            log(state, f"{name(cid)} is already a wrongdoer: the trial is ignored (§24.10, §29.7, §30.8).")
            return
        if c.hiding:
            c.wrongdoer = True
            log(state, f"{name(cid)} is in hiding and does not go to trial: a wrongdoer (§24.10).")
            return
    if stuck_at_war(state, c):
        c.wrongdoer = True
        c.pending_justice = "trial"
        log(state, f"{name(cid)} is sent to trial but is stuck in a country at war: the trial waits until "
                   "the war is over (§7.10.1, A61).")
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
            _card_entry("treachery", "any", -1, max_total=1),
            _card_entry("prison_guards", "any", "pm", amount=2, max_total=1),
        ],
        "clamp": CLAMP,
        "then": "justice_interrogation_result",
        "then_args": {"cid": cid},
    }
    seq(state, modified_roll(spec))


@op("justice_interrogation_result")
def justice_interrogation_result(state: GameState, roll: dict[str, Any], cid: str) -> None:
    row = lookup(INTERROGATION, roll["total"])
    c = state.chars[cid]
    log(state, f"Interrogation Table {roll['total']}: {row['text']}")
    if "character_dies" in row["special"]:
        seq(state, ("kill", {"cid": cid, "cause": "died under interrogation"}))
        return
    after = None
    if "pc_accused" in row["special"]:
        if c.owner is None:
            log(state, f"{name(cid)} is a NC: no effect (§27).")
        else:
            pcid = state.players[c.owner].pc
            after = ("accuse", {"cid": pcid, "why": f"exposed by {name(cid)} under interrogation"})
    seq(state, ("justice_trial", {"cid": cid, "mod": row["trial_mod"]}), after)


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
    mj = _minister_of_justice(state)
    if mj is not None and mj != cid and state.chars[mj].owner is not None and mj not in ROYALS:
        owner = state.chars[mj].owner
        seq(state, ask(owner, "choose_judge", [char_action(j) for j in ok], "justice_judge_chosen",
                       {"target": cid}, cid=cid, mod=mod))
        return
    if len(ok) == 1:
        judge = ok[0]
    else:
        n = d6(state)
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
            _card_entry("evidence", "any", 1),
            _card_entry("alibi", "any", -1),
            _card_entry("informer", "any", "pm", amount=1),
        ],
        "absent": {"card": "evidence", "amount": -3},
        "clamp": CLAMP,
        "then": "justice_trial_result",
        "then_args": {"cid": cid},
    }
    seq(state, modified_roll(spec))


@op("justice_trial_result")
def justice_trial_result(state: GameState, roll: dict[str, Any], cid: str) -> None:
    row = lookup(TRIAL, roll["total"])
    verdict = row["verdict"]
    log(state, f"Trial Table {roll['total']}: {name(cid)} - {row['text']}.")
    if verdict == "not_guilty":
        restore(state, cid)
        log(state, f"{name(cid)} is innocent and returns to a normal situation (§28.6.1).")
        return
    if cid in JUDGES:
        log(state, f"{name(cid)} is a Judge found guilty: immediately executed (§28.3).")
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))
        return
    if verdict == "banished":
        opts = _country_ids(state)
        if cid in NEVER_ABROAD or not opts:
            log(state, f"{name(cid)} cannot be banished abroad: imprisoned instead.")
            seq(state, vacate_step(state, cid), ("justice_imprison", {"cid": cid, "execute": False}))
            return
        mj = _minister_of_justice(state)
        decider = state.first_player
        if mj is not None and mj != cid and state.chars[mj].owner is not None:
            decider = state.chars[mj].owner  # §29.1, A9
        seq(state, ask(decider, "banish_country", opts, "justice_banish", {"target": cid}, cid=cid))
    elif verdict == "imprisoned":
        seq(state, vacate_step(state, cid), ("justice_imprison", {"cid": cid, "execute": False}))
    elif verdict == "awaiting_execution":
        seq(state, vacate_step(state, cid), ("justice_imprison", {"cid": cid, "execute": True}))
    else:  # executed
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))


def _imprison(state: GameState, cid: str, execute: bool, why: str) -> None:
    set_situation(state.chars[cid], imprisoned=True, awaiting_execution=execute, wrongdoer=True)
    log(state, f"{name(cid)} is {why}.")


@op("justice_imprison")
def justice_imprison(state: GameState, cid: str, execute: bool) -> None:
    if execute:
        _imprison(state, cid, True, "imprisoned awaiting execution at the end of the next turn (§28.6.4)")
    else:
        _imprison(state, cid, False, "imprisoned (§28.6.3, §30)")


@op("justice_banish")
def justice_banish(state: GameState, choice: int, cid: str) -> None:
    country = suffix(choice, "country_")
    seq(state, vacate_step(state, cid), ("justice_banish_apply", {"cid": cid, "country": country}))


@op("justice_banish_apply")
def justice_banish_apply(state: GameState, cid: str, country: str) -> None:
    set_situation(state.chars[cid], country, banished=True, wrongdoer=True)
    log(state, f"{name(cid)} is banished to {COUNTRY_NAMES[country]} (§28.6.2, §29).")


# ---------------------------------------------------------------------------
# §22 Scandal
# ---------------------------------------------------------------------------


@op("scandal")
def scandal(state: GameState, cid: str, exposer: int | None = None, why: str = "") -> None:
    """§22: the object's player (first player for a NC) rolls on the Scandal Table;
    Informer -1 each by the exposer, +1 each by the owner of a PC/FAC object (A40)."""
    c = state.chars[cid]
    if cid in ROYALS:
        log(state, f"{name(cid)} is a RC and cannot be the object of a scandal (§22).")
        return
    if c.dead:
        return
    owner = c.owner
    cards = []
    if exposer is not None and owner == exposer:
        cards.append(_card_entry("informer", [owner], "pm", amount=1))
    else:
        if exposer is not None:
            cards.append(_card_entry("informer", [exposer], -1))
        if owner is not None:
            cards.append(_card_entry("informer", [owner], 1))
    w = f" ({why})" if why else ""
    log(state, f"{name(cid)} is the object of a scandal{w}; player {actor_for(state, cid)} rolls (§22).")
    spec = {
        "label": f"Scandal Table ({name(cid)})",
        "dice": "2d",
        "cards": cards,
        "clamp": CLAMP,
        "then": "justice_scandal_result",
        "then_args": {"cid": cid, "exposer": exposer},
    }
    seq(state, modified_roll(spec))


@op("justice_scandal_result")
def justice_scandal_result(state: GameState, roll: dict[str, Any], cid: str, exposer: int | None) -> None:
    row = lookup(SCANDAL, roll["total"])
    sp = row["special"]
    log(state, f"Scandal Table {roll['total']}: {row['text']}")
    owner = state.chars[cid].owner
    steps: list = []
    lost_pp = False
    if "lose_half_pp" in sp or "lose_half_ip" in sp:
        if owner is None:
            log(state, f"{name(cid)} is a NC: no points are lost (A54).")
        elif "lose_half_pp" in sp:
            lost_pp = lose_pp(state, owner, (state.players[owner].pp + 1) // 2, "scandal, half rounded up") > 0
        else:
            lose_ip(state, owner, (state.players[owner].ip + 1) // 2, "scandal, half rounded up")
    if "trial" in sp:
        steps.append(("to_trial", {"cid": cid}))
    if "hearing" in sp:
        steps.append(("hearing", {"cid": cid}))
    if "wrongdoing" in sp:
        steps.append(("accuse", {"cid": cid, "why": "scandal"}))
    if "accuser_wrongdoing" in sp:
        if exposer is None:
            log(state, "The scandal did not come from 'Expose A Scandal': treated as no effect (§22).")
        else:
            steps.append(("accuse", {"cid": state.players[exposer].pc, "why": "accusing PC of a scandal"}))
    if lost_pp:
        steps.append(("pp_check_all", {}))
    seq(state, *steps)


# ---------------------------------------------------------------------------
# Amnesty (§13.4.6, §14.5.5, §24.9, §29.8, §30.9)
# ---------------------------------------------------------------------------


@op("amnesty_all")
def amnesty_all(state: GameState) -> None:
    freed = [cid for cid, c in state.chars.items() if _pardonable(cid, c)]
    for cid in freed:
        restore(state, cid)
    if freed:
        log(state, "Amnesty: " + ", ".join(name(x) for x in freed) + " return to a normal situation (§13.4.6).")
    else:
        log(state, "Amnesty: there is nobody to free.")


# ---------------------------------------------------------------------------
# Activity: Render A Pardon (§13.4.5, §14.5.4)
# ---------------------------------------------------------------------------


def _pardon_legal(state: GameState, p: int) -> bool:
    if not waived(state) and not has_card(state, p, "pardon"):
        return False
    return any(_pardonable(cid, c) for cid, c in state.chars.items())


@op("justice_pardon")
def justice_pardon(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _pardonable(cid, c)]
    seq(state, ask(p, "pardon_target", opts, "justice_pardon_target", {"activity": "pardon"}, p=p))


@op("justice_pardon_target")
def justice_pardon_target(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    if not waived(state):
        discard(state, take_card(state, p, "pardon"))
        log(state, f"Player {p} plays a 'Pardon' card.")
    restore(state, cid)
    log(state, f"Player {p} pardons {name(cid)}, who returns to a normal situation (§13.4.5).")


# ---------------------------------------------------------------------------
# Activity: Announce An Amnesty (§13.4.6, §14.5.5)
# ---------------------------------------------------------------------------


def _amnesty_legal(state: GameState, p: int) -> bool:
    if not waived(state) and not has_card(state, p, "amnesty"):
        return False
    return any(_pardonable(cid, c) for cid, c in state.chars.items())


@op("justice_amnesty")
def justice_amnesty(state: GameState, p: int) -> None:
    if not waived(state):
        discard(state, take_card(state, p, "amnesty"))
        log(state, f"Player {p} plays an 'Amnesty' card.")
    seq(state, ("amnesty_all", {}))


# ---------------------------------------------------------------------------
# Activity: Conduct An Assassination Attempt (§13.4.8, §14.5.8-§14.5.12, §21)
# ---------------------------------------------------------------------------


def _intrigue_subst(state: GameState) -> bool:
    return state.config["edition"] == "1981"


def _assassins(state: GameState, p: int) -> list[str]:
    pcid = state.players[p].pc
    out = []
    for cid in [pcid] + henchmen(state, p):
        c = state.chars[cid]
        if not (c.dead or c.imprisoned or stuck_at_war(state, c)) and cid not in out:
            out.append(cid)
    return out


def _targets(state: GameState, p: int, assassin: str) -> list[str]:
    a = state.chars[assassin]
    hench_abroad = assassin != state.players[p].pc and abroad(a)
    out = []
    for cid, c in state.chars.items():
        if cid == assassin or cid == "thomas" or c.dead or c.imprisoned or c.hiding:
            continue
        if c.location != FANDONIA:
            if c.location != a.location or c.location in state.wars:
                continue  # §13.4.8, §20.6.3, §7.10.1
        elif hench_abroad:
            continue  # §17.6
        out.append(cid)
    return out


def _has_target(state: GameState, p: int, assassin: str) -> bool:
    a = state.chars[assassin]
    hench_abroad = assassin != state.players[p].pc and abroad(a)
    for cid, c in state.chars.items():
        if cid == assassin or cid == "thomas" or c.dead or c.imprisoned or c.hiding:
            continue
        if c.location != FANDONIA:
            if c.location == a.location and c.location not in state.wars:
                return True
        elif not hench_abroad:
            return True
    return False


def _assassination_cards_ok(state: GameState, p: int) -> bool:
    if waived(state):
        return True
    na = count_cards(state, p, "assassination")
    ni = count_cards(state, p, "intrigue") if _intrigue_subst(state) else 0
    if state.pt.get("intrigue", 0) > 0:
        return na + ni >= 1
    return ni >= 1 and na + ni >= 2


def _assassinate_legal(state: GameState, p: int) -> bool:
    if not _assassination_cards_ok(state, p):
        return False
    return any(_has_target(state, p, a) for a in _assassins(state, p))


@op("justice_assassinate")
def justice_assassinate(state: GameState, p: int) -> None:
    opts = [char_action(a) for a in _assassins(state, p) if _has_target(state, p, a)]
    seq(state, ask(p, "assassin", opts, "justice_assassin_chosen", {"activity": "assassinate"}, p=p))


@op("justice_assassin_chosen")
def justice_assassin_chosen(state: GameState, choice: int, p: int) -> None:
    assassin = NAME[choice][len("char_"):]
    opts = [char_action(t) for t in _targets(state, p, assassin)]
    seq(state, ask(p, "assassination_target", opts, "justice_assassin_target",
                   {"activity": "assassinate", "assassin": assassin}, p=p, assassin=assassin))


@op("justice_assassin_target")
def justice_assassin_target(state: GameState, choice: int, p: int, assassin: str) -> None:
    target = NAME[choice][len("char_"):]
    log(state, f"Player {p} designates {name(assassin)} to assassinate {name(target)} (§13.4.8).")
    args = {"p": p, "assassin": assassin, "target": target}
    if waived(state):
        seq(state, ("justice_assassination_roll", args))
        return
    na = count_cards(state, p, "assassination")
    ni = count_cards(state, p, "intrigue") if _intrigue_subst(state) else 0
    grant = state.pt.get("intrigue", 0) > 0
    if grant and ni >= 1 and (na >= 1 or ni >= 2):
        seq(state, ask(p, "intrigue_grant", [YES, ID["play_intrigue"]], "justice_assassin_grant",
                       {"activity": "assassinate"}, **args))
        return
    justice_assassin_grant(state, YES if grant else ID["play_intrigue"], **args)


@op("justice_assassin_grant")
def justice_assassin_grant(state: GameState, choice: int, p: int, assassin: str, target: str) -> None:
    if choice == YES:
        state.pt["intrigue"] -= 1
        log(state, f"Player {p} uses his Intrigue grant (§12.3.3).")
    else:
        discard(state, take_card(state, p, "intrigue"))
        log(state, f"Player {p} plays an 'Intrigue' card in place of an Intrigue counter (§14.5.7).")
    args = {"p": p, "assassin": assassin, "target": target}
    seq(state, ask(p, "assassination_card", card_options(state, p, "assassination"), "justice_assassin_card",
                   {"activity": "assassinate"}, **args))


@op("justice_assassin_card")
def justice_assassin_card(state: GameState, choice: int, p: int, assassin: str, target: str) -> None:
    _, shown = play_card(state, p, choice)
    rule = "§14.5.7" if choice == ID["play_intrigue_as_assassination"] else "§14.5.8"
    log(state, f"Player {p} plays {shown} ({rule}).")
    seq(state, ("justice_assassination_roll", {"p": p, "assassin": assassin, "target": target}))


@op("justice_assassination_roll")
def justice_assassination_roll(state: GameState, p: int, assassin: str, target: str) -> None:
    t = state.chars[target]
    cards = [
        _card_entry("assassination", [p], 2),
        _card_entry("treachery", "any", -2, max_total=1),
        _card_entry("informer", "any", "pm", amount=2, max_total=1),
    ]
    if target in ROYALS or t.office is not None:
        cards.append(_card_entry("palace_guards", "any", "pm", amount=2))
    else:
        cards.append(_card_entry("personal_guards", "any", -2))
    base = -1 if target == state.monarch else 0
    spec = {
        "label": f"Assassination Table ({name(assassin)} against {name(target)})",
        "dice": "2d",
        "base": base,
        "cards": cards,
        "clamp": CLAMP,
        "then": "justice_assassination_result",
        "then_args": {"p": p, "assassin": assassin, "target": target},
    }
    seq(state, modified_roll(spec))


@op("justice_assassination_result")
def justice_assassination_result(state: GameState, roll: dict[str, Any], p: int, assassin: str,
                                 target: str) -> None:
    row = lookup(ASSASSINATION, roll["total"])
    log(state, f"Assassination Table {roll['total']}: {row['text']}")
    steps: list = []
    sp = row["special"]
    if "trial" in sp:
        steps.append(("to_trial", {"cid": assassin}))
    elif "hearing" in sp:
        steps.append(("hearing", {"cid": assassin}))
    elif "wrongdoing" in sp:
        steps.append(("accuse", {"cid": assassin, "why": "caught assassin"}))
    if row["success"]:
        steps.append(("kill", {"cid": target, "cause": "assassinated"}))
    seq(state, *steps)


# ---------------------------------------------------------------------------
# Activity: Expose A Scandal (§13.4.9)
# ---------------------------------------------------------------------------


def _scandal_object(cid: str, c: Character) -> bool:
    return cid not in ROYALS and not c.dead


def _expose_legal(state: GameState, p: int) -> bool:
    return waived(state) or state.pt.get("scandal", 0) > 0


@op("justice_expose")
def justice_expose(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _scandal_object(cid, c)]
    seq(state, ask(p, "scandal_target", opts, "justice_expose_target", {"activity": "expose_scandal"}, p=p))


@op("justice_expose_target")
def justice_expose_target(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    if not waived(state):
        state.pt["scandal"] -= 1
    log(state, f"Player {p} exposes a scandal about {name(cid)} (§13.4.9).")
    seq(state, ("scandal", {"cid": cid, "exposer": p, "why": "Expose A Scandal"}))


# ---------------------------------------------------------------------------
# Activity: Escape (§13.4.10, §14.5.13-§14.5.15)
# ---------------------------------------------------------------------------


def _escape_kind(c: Character) -> str | None:
    if c.dead:
        return None
    if c.imprisoned:
        return "prison"
    if c.hiding and c.location == FANDONIA:
        return "hiding"
    return None


def _escape_cards(state: GameState, p: int, kind: str) -> list[int]:
    out = card_options(state, p, "escape")
    guard = "prison_guards" if kind == "prison" else "port_guards"
    if has_card(state, p, guard):
        out.append(ID[f"play_{guard}"])
    return out


def _escapees(state: GameState) -> list[tuple[str, str]]:
    out = []
    for cid, c in state.chars.items():
        k = _escape_kind(c)
        if k is not None and cid not in NEVER_ABROAD:
            out.append((cid, k))
    return out


def _escape_legal(state: GameState, p: int) -> bool:
    if not _country_ids(state):
        return False
    w = waived(state)
    for cid, c in state.chars.items():
        k = _escape_kind(c)
        if k is None or cid in NEVER_ABROAD:
            continue
        if w or _escape_cards(state, p, k):
            return True
    return False


@op("justice_escape")
def justice_escape(state: GameState, p: int) -> None:
    w = waived(state)
    opts = [char_action(cid) for cid, k in _escapees(state) if w or _escape_cards(state, p, k)]
    seq(state, ask(p, "escape_target", opts, "justice_escape_target", {"activity": "escape"}, p=p))


@op("justice_escape_target")
def justice_escape_target(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    kind = _escape_kind(state.chars[cid])
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
    seq(state, ask(p, "escape_country", _country_ids(state), "justice_escape_window",
                   {"activity": "escape", "target": cid}, p=p, cid=cid))


@op("justice_escape_window")
def justice_escape_window(state: GameState, choice: int, p: int, cid: str) -> None:
    country = suffix(choice, "country_")
    kind = _escape_kind(state.chars[cid])
    guard = "prison_guards" if kind == "prison" else "port_guards"
    spec = {
        "label": f"escape of {name(cid)}",
        "dice": "none",
        "cards": [_card_entry(guard, "any", "negate", max_total=1)],
        "then": "justice_escape_result",
        "then_args": {"cid": cid, "country": country},
    }
    seq(state, modified_roll(spec))


@op("justice_escape_result")
def justice_escape_result(state: GameState, roll: dict[str, Any], cid: str, country: str) -> None:
    c = state.chars[cid]
    if roll["negated"]:
        log(state, f"The escape of {name(cid)} is negated (§13.4.10).")
        return
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


# ---------------------------------------------------------------------------
# Activity: Extradite A Wrongdoer (§13.4.11, §14.5.16, §25)
# ---------------------------------------------------------------------------


def _extraditable(state: GameState, cid: str, c: Character) -> bool:
    return (not c.dead and c.hiding and cid not in ROYALS and is_wrongdoer(c)
            and not stuck_at_war(state, c))


def _extradite_legal(state: GameState, p: int) -> bool:
    if not waived(state) and not has_card(state, p, "extradition"):
        return False
    return any(_extraditable(state, cid, c) for cid, c in state.chars.items())


@op("justice_extradite")
def justice_extradite(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _extraditable(state, cid, c)]
    seq(state, ask(p, "extradite_target", opts, "justice_extradite_target", {"activity": "extradite"}, p=p))


@op("justice_extradite_target")
def justice_extradite_target(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    if not waived(state):
        discard(state, take_card(state, p, "extradition"))
        log(state, f"Player {p} plays an 'Extradition' card.")
    seq(state, ("to_trial", {"cid": cid, "extradited": True}))


# ---------------------------------------------------------------------------
# Free actions: hide, unhide (§24.2, §24.8), suicide (§29.9, §30.10)
# ---------------------------------------------------------------------------


def _own_turn(state: GameState, p: int) -> bool:
    return state.active == p and state.pt.get("player") == p


def _hideable(state: GameState, p: int, cid: str, c: Character) -> bool:
    return (c.owner == p and cid not in ROYALS and not c.dead and not c.hiding and not c.imprisoned
            and c.office is None and c.hid_turn != state.turn
            and (c.banished or not is_wrongdoer(c)))


def _unhideable(state: GameState, p: int, cid: str, c: Character) -> bool:
    """§24.8.  Reading: the first player decides for NCs (§5, R9), so during his own Player
    Turn he may also bring a NC out of hiding."""
    mine = c.owner == p or (c.owner is None and p == state.first_player)
    if not mine or not c.hiding or c.dead or c.hid_turn == state.turn:
        return False
    if is_wrongdoer(c) and not c.banished and stuck_at_war(state, c):
        return False  # cannot return to Fandonia (§7.10.1)
    return True


def _hide_legal(state: GameState, p: int) -> bool:
    return _own_turn(state, p) and any(_hideable(state, p, cid, c) for cid, c in state.chars.items())


def _unhide_legal(state: GameState, p: int) -> bool:
    return _own_turn(state, p) and any(_unhideable(state, p, cid, c) for cid, c in state.chars.items())


@op("justice_hide")
def justice_hide(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _hideable(state, p, cid, c)]
    seq(state, ask(p, "hide_char", opts, "justice_hide_char", {}, p=p))


@op("justice_hide_char")
def justice_hide_char(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    justice_go_hiding(state, cid)
    if cid == state.players[p].pc and state.pt:
        # §24.3, §13.1: one activity while the PC is in hiding
        state.pt["restricted"] = True
        state.tstate[f"restricted_{p}"] = True


@op("justice_unhide")
def justice_unhide(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _unhideable(state, p, cid, c)]
    seq(state, ask(p, "unhide_char", opts, "justice_unhide_char", {}, p=p))


@op("justice_unhide_char")
def justice_unhide_char(state: GameState, choice: int, p: int) -> None:
    """§24.8: a wrongdoer who comes out of hiding (other than a banished one) is returned
    to Fandonia and sent to a hearing; an escaped prisoner is imprisoned again (§30.6)
    and one awaiting execution is executed (§31.6)."""
    cid = NAME[choice][len("char_"):]
    c = state.chars[cid]
    c.hiding = False
    c.hid_turn = state.turn
    log(state, f"{name(cid)} comes out of hiding (§24.8).")
    if c.banished or not is_wrongdoer(c):
        return
    c.location = FANDONIA
    if c.awaiting_execution:
        log(state, f"{name(cid)} was awaiting execution: he is executed at once (§31.6).")
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))
    elif c.escaped:
        _imprison(state, cid, False, "an escaped prisoner back in Fandonia: imprisoned again (§30.6)")
    else:
        log(state, f"{name(cid)} is a wrongdoer: sent to a hearing (§24.8).")
        seq(state, ("hearing", {"cid": cid, "cont": True}))


def _suicidable(p: int, c: Character) -> bool:
    return (c.owner == p and not c.dead and not c.suicide and (c.banished or c.imprisoned)
            and c.situation_turns >= 3)


def _suicide_legal(state: GameState, p: int) -> bool:
    return _own_turn(state, p) and any(_suicidable(p, c) for c in state.chars.values())


@op("justice_suicide")
def justice_suicide(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _suicidable(p, c)]
    seq(state, ask(p, "suicide_char", opts, "justice_suicide_char", {}, p=p))


@op("justice_suicide_char")
def justice_suicide_char(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    state.chars[cid].suicide = True
    log(state, f"{name(cid)} will commit suicide at the end of all Player Turns (§29.9, §30.10).")


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

registry.activity("pardon", _pardon_legal, "justice_pardon")
registry.activity("amnesty", _amnesty_legal, "justice_amnesty")
registry.activity("assassinate", _assassinate_legal, "justice_assassinate")
registry.activity("expose_scandal", _expose_legal, "justice_expose")
registry.activity("escape", _escape_legal, "justice_escape")
registry.activity("extradite", _extradite_legal, "justice_extradite")
registry.free_action("hide", _hide_legal, "justice_hide")
registry.free_action("unhide", _unhide_legal, "justice_unhide")
registry.free_action("suicide", _suicide_legal, "justice_suicide")

__all__ = ["is_wrongdoer", "restore"]

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

Errata edition (ruling R1; ``errata(state)``):

* ES §20.8 (D62, A30, A31): a non-banished wrongdoer abroad either hides there or lives
  openly there ("living abroad" = no Hiding marker, A30).  He chooses after an escape
  (``escape_hide_choice``) and when he comes out of hiding abroad (``unhide_abroad``: live
  openly, or return to Fandonia and the hearing of §24.8); one living openly may hide again
  (free action ``hide``).  A PC living abroad has one activity a turn unless Extra Activity
  adds more (checked when his Player Turn begins, ``justice_es_turn_start``; A31: PC only).
  A wrongdoer living abroad who travels to Fandonia faces justice at once (ES §25.10; hook in
  ``activities.act_travel_dest``).
* ES §24.7 (D64): a NC is never offered hiding (the hearing offer, an escape: an escaped NC
  lives openly abroad).  A FAC in hiding who becomes a NC (``release``, hook in
  ``activities.release_character``) comes out at once; a wrongdoer (not banished) then faces
  the justice that awaited him (as a captured fugitive, ES §25.10).
* ES §25 (D66-D74) with ruling R2 and A30's fallback.  Extraditable: a wrongdoer, not
  banished, not imprisoned, living or hiding abroad, not in a country at war (ES §25.1,
  §25.12); never one hiding in Fandonia.  The Extradition activity: the card is played, then
  the player may add an Intrigue counter or card (asked only where it matters).  Living
  openly: extradited with no chance to hide, unless the Ambassador to that country is
  another player's PC/FAC, whose player may veto (ES §25.2); with Intrigue no veto (§25.3).
  Hiding abroad: without Intrigue no effect - the Persecution ES §25.5 would start is absent
  (R2), A30; with Intrigue it succeeds as in the 1981 rules, no veto (A30, §25.6).  By counsel
  (ES §25.4, §25.7, D69): succeeds, no veto, no hiding, whether living or hiding abroad
  (hooks in ``counsel._extraditable`` / ``counsel._extradite``).  Persecution rolls, the ±1
  of a FAC Ambassador on them (§25.8), the "already persecuted" countries (§25.9) and the
  persecution of ES §25.11 do not exist (R2): nothing is put in their place.
* Reading (ES §25.10, D72): the captured fugitive goes to what awaited him when he fled:
  recorded in ``state.misc["justice_fate"]`` ({cid: "hearing" | "trial"}) when he hides from
  a hearing or is sent to trial while hiding (errata only); an escaped prisoner is
  imprisoned again, one awaiting execution executed; with no record, a hearing (§24.8).
* Reading (ES §25.9, D71): a fugitive hiding abroad (not banished: §29.5 forbids travel) may
  play an 'Escape' card to flee, still hiding, to another country not at war (never to
  Fandonia); no Guards card can stop it (§14.5.14-§14.5.15 name prisons and Fandonian hiding).
* Reading (ES §25.11, D73): no rule of the game makes a character a wrongdoer under a foreign
  country's law, so §25.11 has no trigger; its Persecution is absent (R2).
* Reading (ES §25.2): "un EAC" names the usual target; any extraditable wrongdoer (NC, EAC or
  the player's own FAC) may be named, as §25.1 and §13.4.11 allow.
* ES §29.1 (D75): Fandonia at war with every country: imprisoned instead of banished.
* ES §30.10 (D76): before the prison death roll (§2.3, A11), in player order, each player who
  can spend One IP is asked whether he pays it for -2; one payment already makes 11-12
  impossible, so the window closes after it.  The roll itself lives in ``death.py``, which
  schedules ``justice_es_prison_death`` in the errata edition (two hook lines).

§38 Clemency (``opt(state, "clemency")``):

* After a trial whose result was Banished, Imprisoned or Awaiting Execution (also when
  Banished became imprisonment), once the sentence is applied, every player with a Monarch's
  Counselor (his PC or FAC holding the card, not banished, imprisoned or dead) is asked in
  player order whether he asks clemency for the character, whoever he is.
* Reading (several requests): each request is rolled at once and applied before the next
  player is asked - "no effect" and "imprisoned regardless" leave the next player free to
  ask; an execution or a pardon ends the matter; a new trial (the §28 trial only, no new
  interrogation, no interrogation modifier, the character brought back to Fandonia) ends
  the round and its own sentence may open a new one.  A player asks at most once per
  character per game turn (so the process ends); one who declined is asked again when a new
  trial gives a new sentence.  The Clemency Table roll has no modifiers.
* "King overrules judge": a banished or awaiting-execution character becomes a plain prisoner.
* ES D93 (errata with Clemency on, A51): a FARC Monarch may pardon any wrongdoer, on the
  terms of §36.10.4 (free, during his own Player Turn); the pardon of another player's or a
  neutral character lifts no Court Ball ban (hook in ``usurpation._pardon_targets``).
"""

from __future__ import annotations

from typing import Any

from . import registry, turn
from .actions import ID, NAME, NO, YES, char_action, suffix
from .data.components import (
    COUNTRIES,
    COUNTRY_NAMES,
    FANDONIA,
    JUDGES,
    NEVER_ABROAD,
    NOBLES,
    OFFICES,
    ROYALS,
)
from .data.tables import ASSASSINATION, CLEMENCY, INTERROGATION, SCANDAL, TRIAL, lookup
from .death import set_situation, vacate_step
from .machine import ask, log, op, seq
from .options import errata, opt
from .queries import (
    abroad,
    actor_for,
    card_options,
    count_cards,
    d6,
    dice_sum,
    discard,
    has_card,
    henchmen,
    ip_spendable,
    lose_ip,
    lose_pp,
    name,
    play_card,
    player_order,
    spend_ip,
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
    if errata(state):
        state.misc.get("justice_fate", {}).pop(cid, None)
        state.misc.get("bribe_hearing", {}).pop(cid, None)  # no stale bribe for a later hearing


def _can_hide_now(state: GameState, cid: str, c: Character) -> bool:
    """May go into hiding now to avoid a hearing (§24.2, §24.4, §24.5, §30.6)."""
    return (cid not in ROYALS and not c.dead and not c.hiding and not c.imprisoned
            and c.hid_turn != state.turn and not (c.owner is None and errata(state)))  # errata D64


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
def accuse(state: GameState, cid: str, dwtk: bool = False, why: str = "", bribe: int = 0) -> None:
    """§23.2-§23.4: one die (DOWN WITH THE KING +2, nothing else): < Status innocent;
    otherwise, or on a natural 6 (A5), to a hearing.  ``bribe``: errata ES §13.4.20 (D42,
    D43, A27 iii) adds the bribe to this roll and to the hearing roll (bribery.py)."""
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
    if bribe:  # errata ES §13.4.20 (bribery.py)
        total += bribe
        mod += f" +{bribe} (the bribe, ES §13.4.20)"
    if n == 6 or total >= st:
        if bribe:  # the bribe also modifies the hearing roll (ES §13.4.20)
            state.misc.setdefault("bribe_hearing", {})[cid] = bribe
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


@op("justice_go_hiding")
def justice_go_hiding(state: GameState, cid: str, why: str = "") -> None:
    c = state.chars[cid]
    c.hiding = True
    c.hid_turn = state.turn
    where = "Fandonia" if not abroad(c) else COUNTRY_NAMES[c.location]
    log(state, f"{name(cid)} goes into hiding in {where}{' ' + why if why else ''} (§24.1).")
    _counselor_leaves_court(state, cid, "in hiding")  # D27 (errata)


def _counselor_leaves_court(state: GameState, cid: str, why: str) -> None:
    """D27 (errata): the counsel chapter discards a Monarch's Counselor card (counsel group)."""
    from .counsel import counselor_leaves_court

    counselor_leaves_court(state, cid, why)


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
    if state.misc.get("bribe_hearing", {}).get(cid):  # errata ES §13.4.20 (bribery.py)
        spec["base"] = state.misc["bribe_hearing"].pop(cid)
        log(state, f"The bribe adds +{spec['base']} to the hearing roll of {name(cid)} (ES §13.4.20).")
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
            _fate(state, cid, "trial")
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
    # §38 Clemency (optional): asked once the sentence is carried out
    clem = ("justice_clemency", {"cid": cid, "i": 0}) if opt(state, "clemency") else None
    if verdict == "banished":
        opts = _country_ids(state)
        if cid in NEVER_ABROAD or not opts:
            if errata(state) and not opts:
                log(state, f"{name(cid)} cannot be banished: Fandonia is at war with every country, so he is "
                           "imprisoned instead (ES §29.1, D75).")
            else:
                log(state, f"{name(cid)} cannot be banished abroad: imprisoned instead.")
            seq(state, vacate_step(state, cid), ("justice_imprison", {"cid": cid, "execute": False}), clem)
            return
        mj = _minister_of_justice(state)
        decider = state.first_player
        if mj is not None and mj != cid and state.chars[mj].owner is not None:
            decider = state.chars[mj].owner  # §29.1, A9
        seq(state, ask(decider, "banish_country", opts, "justice_banish", {"target": cid}, cid=cid), clem)
    elif verdict == "imprisoned":
        seq(state, vacate_step(state, cid), ("justice_imprison", {"cid": cid, "execute": False}), clem)
    elif verdict == "awaiting_execution":
        seq(state, vacate_step(state, cid), ("justice_imprison", {"cid": cid, "execute": True}), clem)
    else:  # executed
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))


def _imprison(state: GameState, cid: str, execute: bool, why: str) -> None:
    """§30.4: an imprisoned character leaves his office (the trial flows have usually vacated
    it already; e.g. an escaped prisoner living openly abroad in the errata edition has not)."""
    vac = vacate_step(state, cid)
    set_situation(state.chars[cid], imprisoned=True, awaiting_execution=execute, wrongdoer=True)
    log(state, f"{name(cid)} is {why}.")
    _counselor_leaves_court(state, cid, "imprisoned")  # D27 (errata)
    seq(state, vac)


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
    _counselor_leaves_court(state, cid, "banished")  # D27 (errata)


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


def _escape_kind(c: Character, state: GameState | None = None) -> str | None:
    """``state`` given: the errata edition adds "abroad", a fugitive hiding abroad fleeing
    to another country (ES §25.9, D71)."""
    if c.dead:
        return None
    if c.imprisoned:
        return "prison"
    if c.hiding and c.location == FANDONIA:
        return "hiding"
    if (state is not None and c.hiding and not c.banished and errata(state)
            and not stuck_at_war(state, c) and _country_ids(state, c.location)):
        return "abroad"
    return None


def _escape_cards(state: GameState, p: int, kind: str) -> list[int]:
    out = card_options(state, p, "escape")
    if kind == "abroad":
        return out  # only an 'Escape' card (ES §25.9)
    guard = "prison_guards" if kind == "prison" else "port_guards"
    if has_card(state, p, guard):
        out.append(ID[f"play_{guard}"])
    return out


def _escapees(state: GameState) -> list[tuple[str, str]]:
    out = []
    for cid, c in state.chars.items():
        k = _escape_kind(c, state)
        if k is not None and cid not in NEVER_ABROAD:
            out.append((cid, k))
    return out


def _escape_legal(state: GameState, p: int) -> bool:
    if not _country_ids(state):
        return False
    w = waived(state)
    tried: set[str] = set()
    for cid, c in state.chars.items():
        if not (c.imprisoned or c.hiding):
            continue  # cheap filter: _escape_kind is None
        k = _escape_kind(c, state)
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
    kind = _escape_kind(state.chars[cid], state)
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
    here = c.location if _escape_kind(c, state) == "abroad" else None  # ES §25.9: to another country
    seq(state, ask(p, "escape_country", _country_ids(state, here), "justice_escape_window",
                   {"activity": "escape", "target": cid}, p=p, cid=cid))


@op("justice_escape_window")
def justice_escape_window(state: GameState, choice: int, p: int, cid: str) -> None:
    country = suffix(choice, "country_")
    kind = _escape_kind(state.chars[cid], state)
    guard = "prison_guards" if kind == "prison" else "port_guards"
    spec = {
        "label": f"escape of {name(cid)}",
        "dice": "none",
        "cards": [] if kind == "abroad" else [_card_entry(guard, "any", "negate", max_total=1)],
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
    if errata(state) and c.hiding and abroad(c):
        src = c.location
        c.location = country
        log(state, f"{name(cid)} flees in hiding from {COUNTRY_NAMES[src]} to {COUNTRY_NAMES[country]} "
                   "(ES §25.9, D71).")
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
    if errata(state):
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


def _extraditable(state: GameState, cid: str, c: Character) -> bool:
    return (not c.dead and c.hiding and cid not in ROYALS and is_wrongdoer(c)
            and not stuck_at_war(state, c))


def _extradite_legal(state: GameState, p: int) -> bool:
    if not waived(state) and not has_card(state, p, "extradition"):
        return False
    ok = extraditable_es if errata(state) else _extraditable
    return any(ok(state, cid, c) for cid, c in state.chars.items())


@op("justice_extradite")
def justice_extradite(state: GameState, p: int) -> None:
    ok = extraditable_es if errata(state) else _extraditable
    opts = [char_action(cid) for cid, c in state.chars.items() if ok(state, cid, c)]
    seq(state, ask(p, "extradite_target", opts, "justice_extradite_target", {"activity": "extradite"}, p=p))


@op("justice_extradite_target")
def justice_extradite_target(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    if not waived(state):
        discard(state, take_card(state, p, "extradition"))
        log(state, f"Player {p} plays an 'Extradition' card.")
    if errata(state):
        seq(state, ("justice_es_extradite", {"p": p, "cid": cid}))
        return
    seq(state, ("to_trial", {"cid": cid, "extradited": True}))


# ---------------------------------------------------------------------------
# Free actions: hide, unhide (§24.2, §24.8), suicide (§29.9, §30.10)
# ---------------------------------------------------------------------------


def _own_turn(state: GameState, p: int) -> bool:
    return state.active == p and state.pt.get("player") == p


def _hideable(state: GameState, p: int, cid: str, c: Character) -> bool:
    return (c.owner == p and cid not in ROYALS and not c.dead and not c.hiding and not c.imprisoned
            and c.office is None and c.hid_turn != state.turn
            and (c.banished or not is_wrongdoer(c) or (errata(state) and living_abroad(state, c))))


def _unhideable(state: GameState, p: int, cid: str, c: Character) -> bool:
    """§24.8.  Reading: the first player decides for NCs (§5, R9), so during his own Player
    Turn he may also bring a NC out of hiding."""
    mine = c.owner == p or (c.owner is None and p == state.first_player)
    if not mine or not c.hiding or c.dead or c.hid_turn == state.turn:
        return False
    if is_wrongdoer(c) and not c.banished and stuck_at_war(state, c) and not errata(state):
        return False  # cannot return to Fandonia (§7.10.1); ES §20.8: he may live openly there
    return True


def _hide_legal(state: GameState, p: int) -> bool:
    # the cheap owner/hiding filters first: these run at every main decision
    return _own_turn(state, p) and any(_hideable(state, p, cid, c) for cid, c in state.chars.items()
                                       if c.owner == p and not c.hiding)


def _unhide_legal(state: GameState, p: int) -> bool:
    return _own_turn(state, p) and any(_unhideable(state, p, cid, c) for cid, c in state.chars.items()
                                       if c.hiding)


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
    if errata(state) and abroad(c):
        # ES §20.8 (D62): he may live openly abroad instead of returning (§24.8)
        opts = [YES] if stuck_at_war(state, c) else [YES, NO]
        seq(state, ask(p, "unhide_abroad", opts, "justice_es_unhide_abroad", {"target": cid}, cid=cid))
        return
    _back_to_justice(state, cid)


def _back_to_justice(state: GameState, cid: str) -> None:
    """§24.8: a wrongdoer out of hiding (not banished) is back in Fandonia and faces justice."""
    c = state.chars[cid]
    c.location = FANDONIA
    if c.awaiting_execution:
        log(state, f"{name(cid)} was awaiting execution: he is executed at once (§31.6).")
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))
    elif c.escaped:
        _imprison(state, cid, False, "an escaped prisoner back in Fandonia: imprisoned again (§30.6)")
    else:
        if errata(state):
            state.misc.get("justice_fate", {}).pop(cid, None)
        log(state, f"{name(cid)} is a wrongdoer: sent to a hearing (§24.8).")
        seq(state, ("hearing", {"cid": cid, "cont": True}))


def _suicidable(p: int, c: Character) -> bool:
    return (c.owner == p and not c.dead and not c.suicide and (c.banished or c.imprisoned)
            and c.situation_turns >= 3)


def _suicide_legal(state: GameState, p: int) -> bool:
    return _own_turn(state, p) and any(_suicidable(p, c) for c in state.chars.values()
                                       if c.banished or c.imprisoned)


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
# Errata edition: wrongdoers abroad (ES §20.8, D62, A31), hiding (ES §24.7, D64),
# extradition (ES §25, D66-D74, ruling R2, A30), death in prison (ES §30.10, D76)
# ---------------------------------------------------------------------------


def _fate(state: GameState, cid: str, what: str) -> None:
    """ES §25.10 (D72): remember what awaited a fugitive when he fled ("hearing" or
    "trial"); errata edition only (``state.misc["justice_fate"]``)."""
    if errata(state):
        state.misc.setdefault("justice_fate", {})[cid] = what


def living_abroad(state: GameState, c: Character) -> bool:
    """ES §20.8, A30: a non-banished wrongdoer abroad who is not in hiding lives openly there."""
    return (abroad(c) and not c.hiding and not c.banished and not c.imprisoned and not c.dead
            and is_wrongdoer(c))


def extraditable_es(state: GameState, cid: str, c: Character) -> bool:
    """ES §25.1 (D66): a wrongdoer, not banished, living or hiding abroad (never one hiding
    in Fandonia); ES §25.12 (D74): not in a country at war."""
    return (not c.dead and cid not in ROYALS and is_wrongdoer(c) and not c.banished and not c.imprisoned
            and abroad(c) and not stuck_at_war(state, c))


def _captured(state: GameState, cid: str) -> None:
    """ES §25.10 (D72): a captured fugitive, now in Fandonia and out of hiding, goes to the
    hearing, interrogation and trial, or execution, that awaited him when he fled; an
    escaped prisoner is imprisoned again (§30.6).  He cannot hide (§24.2)."""
    c = state.chars[cid]
    if c.hiding:
        c.hiding = False
        c.hid_turn = state.turn
    c.location = FANDONIA
    fate = state.misc.get("justice_fate", {}).pop(cid, None)
    if c.awaiting_execution:
        log(state, f"{name(cid)} was awaiting execution: he is executed at once (§31.6).")
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))
    elif c.escaped:
        _imprison(state, cid, False, "an escaped prisoner back in Fandonia: imprisoned again (§30.6)")
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
    Fandonian justice (ES §25.10)."""
    c = state.chars[cid]
    if not errata(state) or c.dead or c.banished or c.location != FANDONIA or not is_wrongdoer(c):
        return
    log(state, f"{name(cid)} is a wrongdoer who comes to Fandonia: he faces Fandonian justice at once "
               "(ES §20.8, §25.10).")
    _captured(state, cid)


@op("justice_es_turn_start")
def justice_es_turn_start(state: GameState, p: int) -> None:
    """ES §20.8, A31: a player whose PC is a wrongdoer living abroad has one activity this
    turn, more only through Extra Activity (checked when his Player Turn begins)."""
    if not errata(state) or not state.pt:
        return
    c = state.chars[state.players[p].pc]
    if not living_abroad(state, c):
        return
    from .turn import base_activities

    state.pt["extra"] -= base_activities(state) - 1
    log(state, f"Player {p}'s PC is a wrongdoer living abroad: one activity this turn unless an Extra "
               "Activity card or counter is used (ES §20.8, A31).")


@op("justice_d64_unhide")
def justice_d64_unhide(state: GameState, cid: str) -> None:
    """ES §24.7 (D64): a FAC in hiding who becomes a NC comes out of hiding at once and
    faces the consequences (§24.8, §25.10)."""
    c = state.chars[cid]
    if not errata(state) or c.dead or not c.hiding or c.owner is not None:
        return
    c.hiding = False
    c.hid_turn = state.turn
    log(state, f"{name(cid)} is now a NC and cannot hide: he comes out of hiding at once (ES §24.7).")
    if is_wrongdoer(c) and not c.banished:
        if stuck_at_war(state, c):
            log(state, f"{name(cid)} is in a country at war: he lives openly there (§7.10.1, ES §20.8).")
            return
        _captured(state, cid)


# -- ES §25 Extradition ------------------------------------------------------


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


# -- ES §30.10 Death in prison: One IP for -2 (D76) ---------------------------


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
    r = dice_sum(state)
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
# §38 Clemency (optional) and ES D93
# ---------------------------------------------------------------------------


def _clemency_case(c: Character) -> bool:
    return not c.dead and (c.banished or c.imprisoned)


def _has_counselor(state: GameState, q: int) -> bool:
    """§38 Clemency: q has a Monarch's Counselor (a PC or FAC holding the card, §13.4.3)."""
    for c in state.chars.values():
        if (c.owner == q and c.counselor_card is not None and not c.dead and not c.banished
                and not c.imprisoned):
            return True
    return False


@op("justice_clemency")
def justice_clemency(state: GameState, cid: str, i: int = 0) -> None:
    """§38 Clemency, after a trial whose result was banished, imprisoned or awaiting
    execution.  Reading: the players with a Monarch's Counselor are asked in player order
    (§5); each who asks rolls at once and his result applies before the next is asked;
    the round ends when the character is no longer banished or imprisoned (executed,
    pardoned, or sent to a new trial, whose own sentence opens a new round); a player asks
    at most once per character per game turn."""
    c = state.chars[cid]
    if state.monarch is None or not _clemency_case(c):
        return
    order = player_order(state)
    asked = state.tstate.setdefault("clemency_asked", [])
    while i < len(order):
        q = order[i]
        if f"{q}:{cid}" not in asked and _has_counselor(state, q):
            seq(state, ask(q, "clemency_ask", [YES, NO], "justice_clemency_answer", {"target": cid},
                           cid=cid, i=i))
            return
        i += 1


@op("justice_clemency_answer")
def justice_clemency_answer(state: GameState, choice: int, cid: str, i: int) -> None:
    q = player_order(state)[i]
    if choice != YES:
        seq(state, ("justice_clemency", {"cid": cid, "i": i + 1}))
        return
    # only a request counts (a player who declined may still ask after a new trial's sentence)
    state.tstate.setdefault("clemency_asked", []).append(f"{q}:{cid}")
    c = state.chars[cid]
    r = dice_sum(state)
    row = lookup(CLEMENCY, r)
    log(state, f"Player {q} asks the Monarch for clemency for {name(cid)}: rolls {r} on the Clemency Table - "
               f"{row['text']} (§38).")
    v = row["verdict"]
    if v == "executed":
        seq(state, ("kill", {"cid": cid, "cause": "execution"}))
        return
    if v == "pardoned":
        restore(state, cid)
        log(state, f"{name(cid)} is pardoned and returns to a normal situation (§38 Clemency).")
        return
    if v == "new_trial":
        set_situation(c, FANDONIA, wrongdoer=True)
        log(state, f"{name(cid)} is brought back to Fandonia for a new trial (§38 Clemency).")
        seq(state, ("justice_trial", {"cid": cid, "mod": 0}))
        return
    if v == "imprisoned" and (c.banished or c.awaiting_execution):
        _imprison(state, cid, False, "imprisoned, the King overruling the judge (§38 Clemency)")
    seq(state, ("justice_clemency", {"cid": cid, "i": i + 1}))


def d93_pardonable(state: GameState, c: Character) -> bool:
    """ES Clemency (D93, A51): with the Clemency rule in the errata edition a FARC Monarch
    may pardon any character accused of wrongdoing (any wrongdoer), on the terms of
    §36.10.4."""
    return not c.dead and is_wrongdoer(c) and errata(state) and opt(state, "clemency")


if "justice_es_turn_start" not in turn.START_HOOKS:
    turn.START_HOOKS.append("justice_es_turn_start")


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

__all__ = ["is_wrongdoer", "restore", "living_abroad", "extraditable_es", "d93_pardonable"]

"""§15 Counseling the Monarch: the thirteen Counseling Tables (ruling R7) and the
Counseling Results Table (T1.13); the counsel effects are applied by ``effects.py``.

The step ``counsel_step`` {p} runs at the end of each Player Turn, after the
activities (§10, §15.1).  The player may decline (PASS).  Otherwise he states, in
this order (§15.7 "Once chosen, a player may not change his mind"):

1. the table (``counsel_table_<key>``) among those open (§15.4),
2. the counsel (``counsel_<i>``, 1-based within the table) allowed by the
   repetition rule (§15.9),
3. its target when the counsel names one ("state specific wrongdoer / PC or EAC /
   opponent / EARC / PC, EAC or NC / Ambassador": ``char_<id>`` or
   ``player_rel_k``),
4. the character who counsels (``char_<id>``): a PC/FAC Office Holder or
   Monarch's Counselor (§15.2), or a henchman standing in for one (§15.3, §17.2.2).

Then two dice are rolled on the Counseling Results Table through
``rolls.modified_roll``: every listed modifying character of the chosen counsel
that is a PC or FAC gives its owner a ±1 sign (§15.7; NCs are ignored), the
player with a FARC Monarch a further ±1 (§15.11, §36.10.2); the total is clamped
to 2..12 (A6).  Results (§15.8, T1.13): pleased → PP; pleased and accepted → the
counsel's effect; displeased → nothing, plus the ill effects (Five PP on a 2; the
counseling character loses his office, scheduled as ``discharge``, or his
Monarch's Counselor card, discarded), none of which apply to a free counsel
(§15.10); a henchman standing in keeps the real counselor's office (§15.8).

Who may counsel (§15.2, §15.3, §7.10.4, §20.4, §36.10.2):

* the player's PC or a FAC (not an RC) holding an office other than Monarch, or a
  Monarch's Counselor; an Ambassador may counsel from abroad unless his country is
  at war with Fandonia; other Office Holders and Monarch's Counselors abroad may not;
* a player with a Court Ball free counsel (§8.4.4) even without such a character;
* never the player whose FARC is Monarch (§36.10.2), never during a Famine or
  Plague turn or a government crisis (§15.5, §33.2.4), and only once a turn (§15.6).

Readings (where the rules are silent):

* Ruling R18: a Monarch's Counselor counsels unless he is dead or abroad (a banished
  one is abroad): imprisoned or in hiding in Fandonia he keeps his card in the 1981
  edition and still counsels (the errata edition discards the card then, D27).
  Reading: an Office Holder, or a henchman standing in, who is dead, imprisoned, in
  hiding or banished cannot counsel (an Office Holder loses his office then anyway,
  §24.4, §29.3, §30.4); a face-down PC's player does not counsel at all (A47: the
  player has no Player Turn).
* Reading: with a free counsel the whole counsel is free, whichever character
  speaks (§15.9/§15.10 attach the protection to the player), so the character
  choice is skipped and the player counsels through his PC, who attended the Court
  Ball (A43).  Free counsels are recorded on the Record Sheet like the others;
  the repetition rule simply does not restrict them.
* Reading: "the respective player" of §15.7 is the owner of the listed PC/FAC,
  whoever counsels ("the modifying player choosing to add or subtract"); T1.15's
  gloss "the counseling player's PC or FAC" is read as this, the rules text winning.
  A dead (face-down) PC cannot modify.
* Reading: a listed office with no holder, or held by an NC, gives no modifier.
* Reading: a counsel that needs a stated target may be chosen only while a legal
  target exists; the target is checked again when the effect is executed and the
  effect lapses (logged) if it has become impossible.
  - wrongdoer to extradite: a wrongdoer in hiding, not in a country at war (§25,
    §7.10.1);
  - new Ambassador To Besyzan: any player's PC or an EAC (A57) of 11-44 (§16.1) who
    may hold office (§16.4: not banished, imprisoned, hiding or stuck at war) and
    is not that Ambassador already; not while Besyzan is at war (§7.10.4);
  - opponent whose card is intrigued: another player holding four or more Event
    cards and without a FARC Monarch (§13.4.12, §14.2.7);
  - EARC: another player's FARC who is not the Monarch (A59);
  - PC, EAC or NC (scandal, witchcraft): a noble who is any player's PC, another
    player's FAC or neutral, not dead; for witchcraft not already a wrongdoer,
    imprisoned or banished (§24.10 "ignore any other accusations");
  - Ambassador to recall: a current Ambassador (Foreign War: of a country at war).
* Reading: "Act Against Speculators" halves IP rounding the loss up (A1 viii).
* Reading: a second accepted "Royal Extravagance" counsel in the same turn changes
  nothing: next turn's Crown Events result is Court Ball once (one Crown result).
* Reading: the player's own PC may be stated where a counsel names "a PC" (A57 "any
  player's PC"); his own FACs never (they are not EACs).
* Reading: the counsel to discard Support cards discards them from hands only,
  never the cards kept in front of a player after a usurpation (§14.2.6).
* Reading: an extradited wrongdoer comes out of hiding and is brought back to
  Fandonia before the ``to_trial`` step (§25 "immediately returned to trial in
  Fandonia"); this is not an activity.

Errata edition (ruling R1), each chosen by its ``Ruleset`` field:

* D7/A26 (ES §12.3.9, §15.2): a player who drew the 'Free Counsel' Opportunity counter
  (kind ``free_counsel``) this Player Turn may counsel; it is a free counsel (§15.9 any
  counsel, §15.10 no ill effects, A26) on the tables open under §15.4 only.
* D48/D51/A25/A58 (ES §15.3, §17.2.2 removed): no henchman stands in for a counselor; a
  henchman who is himself an Office Holder or Monarch's Counselor (D29) counsels in his
  own right.
* D49 (ES §15.4): a 'Political Problems' Crown result opens no table when its problems
  were resolved: in the errata edition only the unresolved problems' tables open.  In the
  1981 edition (ruling R13) the table of each problem that a Crown Events result brought
  this turn (``state.tstate["crown_problems"]``, recorded by ``problems.new_problem``) is
  open this turn even if the problem was resolved at once.
* D79/A24 (ES §33.2.4): counseling is allowed in a government crisis, -1 to the roll.
* D27 (ES §13.4.3, §14.2.4, §29.3, §30.4): ``court.leaves_court``, called by the justice
  chapters where a character is imprisoned, banished or goes into hiding, discards his
  'Monarch's Counselor' card (the Ruleset's ``counselor_leaves_court_hook``).  D28 (+2 Status) is in ``queries.status``,
  D29 (henchman and Monarch's Counselor at once) in the activities chapter.

Optional rule "Additional Monarch's Counselor Powers" (§38, ``counselor_powers``):

* when a player states that he counsels (he picks a table), each opponent with a
  Monarch's Counselor, in player order, may prevent it (YES/NO, decision
  ``counsel_prevent``) unless the counseling player also has one; each player prevents
  at most one counsel a game turn; the prevented player's Player Turn is then over.
* :func:`counselor_problem_signs`: each player with a Monarch's Counselor declares ±1 on
  every political problem roll (hooked into ``problems.roll_spec``).
* Reading: a player "has a Monarch's Counselor" while a living PC/FAC of his holds the
  card, wherever that character is; a player with several declares one sign.
* Reading: the counsel is prevented after the table is stated and before the counsel is
  named; a free counsel (Court Ball, Free Counsel counter) may be prevented too.
"""

from __future__ import annotations

from typing import Any, Final

from ..core import registry
from ..core.actions import ID, NAME, NO, PASS, YES, action_char, action_player, char_action, player_action
from ..core.machine import ask, log, op, seq
from ..core.state import Character, GameState
from ..data.components import AMBASSADOR_OF, NOBLES, OFFICES, OPPORTUNITY_TYPE_OF, ROYALS
from ..data.tables import COUNSELING_RESULTS, COUNSELING_TABLES, lookup
from ..rules.court import bribe_signs, counselor_present, has_counselor
from ..rules.effects import Ctx, apply_effect, apply_row, office_ok
from ..rules.queries import abroad, discard, henchmen, monarch_owner, name, pc, stuck_at_war
from ..rules.rolls import modified_roll
from ..rules.ruleset import ruleset
from ..rules.turn_steps import place_ambassador

ALL_COUNSELS: Final = frozenset({1, 2, 3, 4})
_NO_COUNSEL_CROWNS: Final = frozenset({"famine", "plague"})


# ---------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------


def counsel_def(table: str, i: int) -> dict[str, Any]:
    """Counsel number ``i`` (1-based) of a Counseling Table."""
    return COUNSELING_TABLES[table]["counsels"][i - 1]


def counsel_banned(state: GameState) -> str | None:
    """§15.5, §33.2.4: why nobody may counsel this turn, or None."""
    if state.crown in _NO_COUNSEL_CROWNS:
        return f"the Crown Events result is {state.crown.capitalize()} (§15.5)"
    if state.support == 0 and not ruleset(state).counsel_in_crisis:  # D79/A24: allowed at -1 in the errata edition
        return "the government is in crisis (§15.5, §33.2.4)"
    return None


def open_tables(state: GameState) -> list[str]:
    """§15.4: the tables open this turn, as the Ruleset's ``open_tables_hook`` lists them."""
    out: list[str] = registry.HOOKS[ruleset(state).open_tables_hook](state)
    return out


@registry.hook("open_tables_d49")
def _open_tables_d49(state: GameState) -> list[str]:
    """§15.4 (D49, ES §15.4): the tables of this turn's Crown result and of the unresolved
    problems."""
    out: list[str] = []
    if state.crown in ("court_ball", "intrigue", "scandal"):
        out.append(state.crown)
    for k, v in state.problems.items():
        key = k if k in COUNSELING_TABLES else (v.get("problem") if isinstance(v, dict) else None)
        if key in COUNSELING_TABLES and key not in out:
            out.append(key)
    return out


@registry.hook("open_tables_r13")
def _open_tables_r13(state: GameState) -> list[str]:
    """§15.4, ruling R13 (1981 edition): also the table of each political problem that a Crown
    Events result brought this turn (``problems.new_problem``), even if it was resolved at once."""
    out = _open_tables_d49(state)
    for key in state.tstate.get("crown_problems", ()):
        if key in COUNSELING_TABLES and key not in out:
            out.append(key)
    return out


def _at_court(c: Character) -> bool:
    return not (c.dead or c.imprisoned or c.hiding or c.banished)


def counselor_can_speak(state: GameState, c: Character) -> bool:
    """§15.2, §7.10.4, §20.4: may this Office Holder / Monarch's Counselor counsel now?  A Monarch's
    Counselor: unless dead or abroad (``court.counselor_present``, ruling R18)."""
    if c.office is not None and c.office != "monarch":
        if not _at_court(c):
            return False
        country = OFFICES[c.office].country
        if country is not None:  # an Ambassador, abroad by office (§20.4)
            return country not in state.wars and not stuck_at_war(state, c)
        return not abroad(c)
    if c.counselor_card is not None:
        return counselor_present(c)
    return False


def counselors(state: GameState, p: int) -> list[str]:
    """§15.2: p's PC and FACs (not RCs) able to counsel by office or Monarch's Counselor card."""
    out = []
    for cid, c in state.chars.items():
        if c.owner != p or cid in ROYALS:
            continue
        if (c.office is not None and c.office != "monarch") or c.counselor_card is not None:
            if counselor_can_speak(state, c):
                out.append(cid)
    return out


def stand_ins(state: GameState, p: int) -> list[str]:
    """§15.3, §17.2.2: henchmen who may counsel in place of a real counselor (the Ruleset's
    ``stand_ins_hook``)."""
    out: list[str] = registry.HOOKS[ruleset(state).stand_ins_hook](state, p)
    return out


@registry.hook("no_stand_ins")
def _no_stand_ins(state: GameState, p: int) -> list[str]:
    """D48, D51, A25 (ES §15.3): "henchmen cannot be used to counsel"."""
    return []


@registry.hook("henchmen_stand_in")
def _henchmen_stand_in(state: GameState, p: int) -> list[str]:
    """§15.3, §17.2.2: p's henchmen at court (not abroad)."""
    out = []
    for cid in henchmen(state, p):
        c = state.chars[cid]
        if _at_court(c) and not abroad(c) and not stuck_at_war(state, c):
            out.append(cid)
    return out


def counsel_targets(state: GameState, p: int, table: str, i: int) -> list[int] | None:
    """Action ids of the legal stated targets of a counsel, or None if it states none."""
    kind = counsel_def(table, i)["target"]
    if kind is None:
        return None
    chars = state.chars
    if kind == "opponent":
        mo = monarch_owner(state)
        return [player_action(p, q, state.n) for q in range(state.n)
                if q != p and len(state.players[q].hand) > 3 and mo != q]
    if kind == "wrongdoer":
        return [char_action(cid) for cid in _extraditable(state)]
    if kind == "pc_or_eac":
        return [char_action(cid) for cid in _besyzan_candidates(state, p)]
    if kind == "earc":
        return [char_action(cid) for cid, c in chars.items()
                if cid in ROYALS and c.owner is not None and c.owner != p and not c.dead
                and cid != state.monarch]
    if kind == "pc_eac_or_nc":
        witchcraft = counsel_def(table, i)["effect"]["code"] == "wrongdoing"
        out = []
        for cid, c in chars.items():
            if cid in ROYALS or c.dead or (c.owner == p and not c.is_pc):
                continue
            if witchcraft and (c.wrongdoer or c.imprisoned or c.banished):
                continue
            out.append(char_action(cid))
        return out
    if kind in ("ambassador", "ambassador_at_war"):
        out = []
        for cid, c in chars.items():
            if c.office is None or c.dead:
                continue
            country = OFFICES[c.office].country
            if country is None or (kind == "ambassador_at_war" and country not in state.wars):
                continue
            out.append(char_action(cid))
        return out
    raise ValueError(f"unknown counsel target kind {kind!r}")


def _extraditable(state: GameState) -> list[str]:
    """The wrongdoers an Extradition counsel may name (the Ruleset's ``counsel_extraditable_hook``:
    §25 or ES §25.1, §25.12, D66, D74, ``situation.extraditable_es``)."""
    ok = registry.HOOKS[ruleset(state).counsel_extraditable_hook]
    return [cid for cid, c in state.chars.items() if ok(state, cid, c)]


@registry.hook("counsel_extraditable_1981")
def _counsel_extraditable(state: GameState, cid: str, c: Character) -> bool:
    """§25, §7.10.1: a wrongdoer in hiding, not in a country at war."""
    return c.wrongdoer and c.hiding and not c.dead and not stuck_at_war(state, c)


def _besyzan_candidates(state: GameState, p: int) -> list[str]:
    """A57: any player's PC or an EAC who may hold the office (not while Besyzan is at war)."""
    if "besyzan" in state.wars:
        return []
    out = []
    for cid, c in state.chars.items():
        if c.owner is None or cid in ROYALS or c.office == "amb_besyzan":
            continue
        if not c.is_pc and c.owner == p:
            continue  # own FACs are not EACs
        if office_ok(state, c):
            out.append(cid)
    return out


def makeable(state: GameState, p: int, table: str, free: bool) -> list[int]:
    """§15.9: counsel numbers p may make now on ``table`` (with a legal target)."""
    made = set(state.players[p].counsels.get(table, []))
    allowed = sorted(ALL_COUNSELS) if free or made >= ALL_COUNSELS else sorted(ALL_COUNSELS - made)
    out = []
    for i in allowed:
        t = counsel_targets(state, p, table, i)
        if t is None or t:
            out.append(i)
    return out


def modifier_signs(state: GameState, table: str, i: int, target: str | None) -> list[dict[str, Any]]:
    """§15.7, §15.11: one ±1 sign per listed PC/FAC (to its owner), one for a FARC Monarch."""
    cd = counsel_def(table, i)
    listed: list[tuple[str, str]] = []
    holders = {c.office: cid for cid, c in state.chars.items() if c.office is not None}
    for off in cd["modifying_offices"]:
        if off in holders:
            listed.append((holders[off], OFFICES[off].name))
    for n in cd["modifying_characters"]:
        listed.append((str(n), NOBLES[str(n)].name))
    if cd["modified_by_stated_ambassador"] and target is not None:
        listed.append((target, "the stated Ambassador"))
    signs: list[dict[str, Any]] = []
    seen: set[str] = set()
    for cid, role in listed:
        if cid in seen:
            continue
        seen.add(cid)
        c = state.chars[cid]
        if c.owner is None and c.office is not None and state.misc.get("bribery_bought"):  # errata ES §13.4.20
            signs += bribe_signs(state, cid, f"{name(cid)}, {role}")
        if c.owner is None or cid in ROYALS or c.dead:
            continue  # NC: the modifier is ignored (§15.7)
        why = name(cid) if role == name(cid) else f"{name(cid)}, {role}"
        signs.append({"player": c.owner, "amount": 1, "why": why})
    mo = monarch_owner(state)
    if mo is not None:
        signs.append({"player": mo, "amount": 1, "why": "FARC Monarch (§15.11)"})
    return signs


# ---------------------------------------------------------------------------
# The counsel step
# ---------------------------------------------------------------------------


def has_free_counsel_counter(state: GameState, p: int) -> bool:
    """D7 (ES §12.3.9): p drew the 'Free Counsel' Opportunity counter this Player Turn."""
    return any(OPPORTUNITY_TYPE_OF.get(oc) == "free_counsel" for oc in state.players[p].opportunity_drawn)


def _eligible(state: GameState, p: int) -> tuple[bool, list[str]]:
    """(free counsel?, real counselors) or (False, []) when p may not counsel at all."""
    if state.active != p or not state.pt or state.pt.get("counselled"):
        return False, []  # §15.6 one counsel a turn; or the turn was cut short
    if pc(state, p).dead or monarch_owner(state) == p:
        return False, []  # A47; §36.10.2
    free = state.players[p].free_counsel
    if not free and has_free_counsel_counter(state, p):
        free = True  # D7, A26: the Free Counsel counter (errata counters only, D6), a free counsel like the Court Ball's
    return free, counselors(state, p)


def _counter_only(state: GameState, p: int, free: bool) -> bool:
    """D7: p may counsel only through his (hidden) Free Counsel counter, so his choices
    must not be logged publicly (the counter is drawn face down, §12.1)."""
    return free and not state.players[p].free_counsel and not counselors(state, p)


@op("counsel_step")
def counsel_step(state: GameState, p: int) -> None:
    """§15.1: at the end of his Player Turn the player may counsel the Monarch."""
    free, real = _eligible(state, p)
    if not free and not real:
        return
    why = counsel_banned(state)
    if why is not None:
        if _counter_only(state, p, free):  # D7: his eligibility is hidden information
            log(state, f"No counseling is allowed this turn: {why}.", to=p)
            return
        if not state.tstate.get("counsel_ban_logged"):
            state.tstate["counsel_ban_logged"] = True
            log(state, f"No counseling is allowed this turn: {why}.")
        return
    opts = [ID[f"counsel_table_{t}"] for t in open_tables(state) if makeable(state, p, t, free)]
    if not opts:
        return
    seq(state, ask(p, "counsel_table", opts + [PASS], "counsel_table_chosen",
                   {"free": free}, p=p, free=free))


@op("counsel_table_chosen")
def counsel_table_chosen(state: GameState, choice: int, p: int, free: bool) -> None:
    if choice == PASS:
        # D7: declining a counsel the hidden Free Counsel counter allowed is told to him only
        log(state, f"Player {p} does not counsel the Monarch.", to=p if _counter_only(state, p, free) else None)
        return
    table = NAME[choice][len("counsel_table_"):]
    registry.HOOKS[ruleset(state).counsel_stated_hook](state, p, free, table)  # §38: counsel_prevention


@registry.hook("ask_counsel")
def _ask_counsel(state: GameState, p: int, free: bool, table: str) -> None:
    """§15.7: the table stated, the player names the counsel."""
    opts = [ID[f"counsel_{i}"] for i in makeable(state, p, table, free)]
    seq(state, ask(p, "counsel_choice", opts, "counsel_chosen", {"table": table},
                   p=p, free=free, table=table))


@op("counsel_chosen")
def counsel_chosen(state: GameState, choice: int, p: int, free: bool, table: str) -> None:
    i = int(NAME[choice][len("counsel_"):])
    targets = counsel_targets(state, p, table, i)
    if targets is None:
        _choose_counselor(state, p, free, table, i, None)
        return
    seq(state, ask(p, "counsel_target", targets, "counsel_target_chosen",
                   {"table": table, "counsel": i}, p=p, free=free, table=table, i=i))


@op("counsel_target_chosen")
def counsel_target_chosen(state: GameState, choice: int, p: int, free: bool, table: str, i: int) -> None:
    if NAME[choice].startswith("player_rel_"):
        target: Any = action_player(p, choice, state.n)
    else:
        target = action_char(choice)
    _choose_counselor(state, p, free, table, i, target)


def _choose_counselor(state: GameState, p: int, free: bool, table: str, i: int, target: Any) -> None:
    if free:
        _counsel(state, p, table, i, target, None, True, False)
        return
    real = counselors(state, p)
    extra = [h for h in stand_ins(state, p) if h not in real] if real else []
    opts = [char_action(c) for c in real + extra]
    seq(state, ask(p, "counsel_counselor", opts, "counsel_counselor_chosen",
                   {"table": table, "counsel": i, "target": target},
                   p=p, table=table, i=i, target=target))


@op("counsel_counselor_chosen")
def counsel_counselor_chosen(state: GameState, choice: int, p: int, table: str, i: int, target: Any) -> None:
    cid = action_char(choice)
    substitute = cid not in counselors(state, p)
    _counsel(state, p, table, i, target, cid, False, substitute)


def _target_text(state: GameState, p: int, target: Any) -> str:
    if target is None:
        return ""
    if isinstance(target, int):
        return f" against player {target}"
    return f" naming {name(target)}"


def _counsel(state: GameState, p: int, table: str, i: int, target: Any, counselor: str | None,
             free: bool, substitute: bool) -> None:
    """Record the counsel (§15.9 Record Sheet) and roll on the Counseling Results Table."""
    cd = counsel_def(table, i)
    tname = COUNSELING_TABLES[table]["name"]
    state.pt["counselled"] = True
    state.players[p].counsels.setdefault(table, []).append(i)
    if counselor is None and not state.players[p].free_counsel:  # D7: the Free Counsel counter
        who = f"player {p} makes a free counsel (Free Counsel counter, A26) through {name(pc(state, p).cid)}"
    elif counselor is None:
        who = f"player {p} makes a free counsel (Court Ball) through {name(pc(state, p).cid)}"
    elif substitute:
        who = f"player {p}'s henchman {name(counselor)} counsels the Monarch"
    else:
        who = f"player {p}'s {name(counselor)} counsels the Monarch"
    log(state, f"{who[0].upper()}{who[1:]}: {tname} Counseling Table, counsel {i} "
               f"'{cd['text']}'{_target_text(state, p, target)}.")
    spec: dict[str, Any] = {
        "label": "Counseling Results Table",
        "dice": "2d",
        "signs": modifier_signs(state, table, i, target if isinstance(target, str) else None),
        "clamp": [COUNSELING_RESULTS["lo"], COUNSELING_RESULTS["hi"]],
        "then": "counsel_result",
        "then_args": {"p": p, "table": table, "i": i, "target": target, "counselor": counselor,
                      "free": free, "substitute": substitute},
    }
    if state.support == 0 and ruleset(state).counsel_in_crisis:  # D79, A24
        spec["base"] = -1
        log(state, "The government is in crisis: -1 to the counseling roll (ES §33.2.4).")
    seq(state, modified_roll(spec))


#: the order in which a Counseling Results row's effect codes apply (``effects.apply_row``).
COUNSELING_RESULTS_ORDER: Final = ("pp", "lose_office")


@op("counsel_result")
def counsel_result(state: GameState, roll: dict[str, Any], p: int, table: str, i: int, target: Any,
                   counselor: str | None, free: bool, substitute: bool) -> None:
    """§15.8, §15.10, T1.13."""
    row = lookup(COUNSELING_RESULTS, roll["total"])
    log(state, f"Counseling Results Table row {roll['total']}: '{row['text']}'")
    if free and "lose_office" in row["special"]:
        log(state, f"Player {p}'s counsel is free: the ill effects are treated as no effect (§15.10).")
        return
    ctx = Ctx(p=p, label="the Monarch is pleased", loss_label="the Monarch is displeased",
              params={"counselor": counselor, "substitute": substitute})
    steps = apply_row(state, row, COUNSELING_RESULTS_ORDER, ctx)
    if row["accepted"]:
        steps[:0] = _execute(state, p, table, i, target)
    seq(state, *steps)


# ---------------------------------------------------------------------------
# Counsel effects (COUNSEL_EFFECT_CODES, applied by ``effects``)
# ---------------------------------------------------------------------------


def _execute(state: GameState, p: int, table: str, i: int, target: Any) -> list[Any]:
    """The accepted counsel's effect; returns the steps to schedule (other chapters' ops)."""
    cd = counsel_def(table, i)
    log(state, f"The Monarch accepts the counsel '{cd['text']}'.")
    ctx = Ctx(p=p, cid=target if isinstance(target, str) else None, why=f"counsel '{cd['text']}'",
              params={"effect": cd["effect"], "target": target, "check_dead": True, "exposer": None})
    apply_effect(state, cd["effect"]["code"], ctx)
    return ctx.steps + ctx.after


def _extradite(state: GameState, cid: str) -> list[Any]:
    """§25: extradition of ``cid`` by counsel (the ``extradite`` effect); returns the steps."""
    ctx = Ctx(params={"target": cid})
    apply_effect(state, "extradite", ctx)
    return ctx.steps


@op("counsel_place_besyzan")
def counsel_place_besyzan(state: GameState, cid: str) -> None:
    """A57, §16.2, §20.4: the new Ambassador loses a Monarch's Counselor card and goes to
    Besyzan with his wife (not an RC wife, §20.7, nor one who is not free)."""
    c = state.chars[cid]
    holder = next((x for x, ch in state.chars.items() if ch.office == "amb_besyzan"), None)
    if holder is not None or c.office is not None or "besyzan" in state.wars or not office_ok(state, c):
        log(state, f"{name(cid)} cannot take the office of Ambassador To Besyzan: no effect.")
        return
    c = state.wchar(cid)
    if c.counselor_card is not None:
        discard(state, c.counselor_card)
        c.counselor_card = None
        log(state, f"{name(cid)}'s 'Monarch's Counselor' card is discarded (§16.2).")
    c.office = AMBASSADOR_OF["besyzan"]
    sp = state.chars[c.spouse] if c.spouse else None
    sp_before = sp.location if sp is not None else None
    sp_stays = sp is not None and (sp.cid in ROYALS or sp.banished or sp.imprisoned or sp.hiding
                                   or sp.dead or stuck_at_war(state, sp))
    place_ambassador(state, cid)
    if sp is not None and sp_stays and sp_before is not None:
        state.wchar(sp.cid).location = sp_before
    log(state, f"{name(cid)} becomes Ambassador To Besyzan and goes abroad to Besyzan (§16.5, §20.4).")


# ---------------------------------------------------------------------------
# Errata D27: the Monarch's Counselor card is lost away from court
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# §38 Additional Monarch's Counselor Powers (switch ``counselor_powers``)
# ---------------------------------------------------------------------------


@registry.hook("counsel_prevention")
def _counsel_prevention(state: GameState, p: int, free: bool, table: str) -> None:
    """§38: once the table is stated, the opponents with a Monarch's Counselor may prevent the
    counsel before it is named."""
    if preventers(state, p):
        seq(state, ("counsel_prevent_next", {"p": p, "free": free, "table": table}))
        return
    _ask_counsel(state, p, free, table)


def preventers(state: GameState, p: int) -> list[int]:
    """§38: opponents, in player order, who may still prevent p's counsel this turn."""
    if has_counselor(state, p):
        return []  # never against a player who also has a Monarch's Counselor
    used = state.tstate.get("counsel_prevented_by", [])
    order = state.order or list(range(state.n))
    return [q for q in order if q != p and q not in used and has_counselor(state, q)]


@op("counsel_prevent_next")
def counsel_prevent_next(state: GameState, p: int, free: bool, table: str, asked: list[int] | None = None) -> None:
    """Ask the next opponent with a Monarch's Counselor whether he prevents the counsel."""
    asked = asked or []
    left = [q for q in preventers(state, p) if q not in asked]
    if not left:
        _ask_counsel(state, p, free, table)
        return
    q = left[0]
    seq(state, ask(q, "counsel_prevent", [YES, NO], "counsel_prevent_choice", {"table": table, "player": p},
                   p=p, q=q, free=free, table=table, asked=asked + [q]))


@op("counsel_prevent_choice")
def counsel_prevent_choice(state: GameState, choice: int, p: int, q: int, free: bool, table: str,
                           asked: list[int]) -> None:
    if choice != YES:
        seq(state, ("counsel_prevent_next", {"p": p, "free": free, "table": table, "asked": asked}))
        return
    state.tstate.setdefault("counsel_prevented_by", []).append(q)
    log(state, f"Player {q}, who has a Monarch's Counselor, prevents player {p} from counseling the Monarch: "
               f"player {p}'s Player Turn is over (§38 Additional Monarch's Counselor Powers).")

"""§7 Political Problems (foreign wars §7.10, pirates §7.11, FARC Monarch §7.12),
§32 Monarch's Support and §33 Government in Crisis (the Support bookkeeping).

Operations registered here:

* ``problems_phase`` (§7.1-§7.9): the first player orders the unresolved problems
  (decision ``problem_<key>``); one attempt is made on each.
* ``new_problem`` (§8.4.5, §7.2, ruling A12): roll the Political Problems Table, reroll a
  problem already unresolved, roll the Foreign War Table for a Foreign War (§7.10), and
  attempt the new problem at once (this is its attempt for the turn).  The problem's key is
  added to ``state.tstate["crown_problems"]``: in the 1981 edition its Counseling Table is
  open this turn even if it is resolved at once (§15.4, ruling R13; ``counsel.open_tables``).
* ``support_bonus`` (§32.2, ruling A8): +5 when there were no problems at the start of
  the turn and the Crown Events result is not a political-problem result (7-10).
* ``problem_attempt`` {key} (internal): one attempt (§7.3-§7.8).

* ``unresolved_effects`` (optional §38 ``unresolved_problems``; T1.17; errata item h,
  D87): run at the start of the Office Phase, before anything else of the turn.
* ``incompetence_roll`` {key, cid} (optional §38 ``deliberate_incompetence``).

Errata edition: D13/D14 (ES §7.9, A8) the bonus is +10, only when the Crown Events result
is Court Ball or Intrigue; D15 (ES §7.10.4) when a war begins the Ambassador to that
country is expelled, loses his office and returns to Fandonia, and the post does not
exist until that war ends (``offices.may_be_filled``); D16 (ES §7.10.6) any other Minister
in that country is expelled and returns to Fandonia, and the 1981 "automatically
unresolved" rule of §7.10.6 does not apply (``expel_at_war``).

Optional rules:

* Effects of Unresolved Political Problems: a problem whose ``turns`` (turns it went
  unresolved in a row: the record is dropped when it is resolved) is 3 or more at the
  start of a turn has its effect that turn: a no IP spending (``misc["unres_no_ip_turn"]``,
  read by ``queries.ip_spendable``), b each player loses One IP, c/d forced Famine/Plague,
  e/g a forced 'One Political Problem' that is Foreign War/Peasant Unrest, f war with
  every country, h (errata only) two characters accused of wrongdoing.
* Deliberate Incompetence: a PC/FAC Minister left deliberately unresolved rolls one die
  (``rolls.modified_roll``; any player may play one Informer card for +1, one in all);
  6 or more: discharged (§16.4).

Readings (optional rules):

* Reading (§38 "the next turn"): the effects are evaluated at the start of each turn (the
  Office Phase), so a problem unresolved three turns running affects the fourth turn
  whatever happens to it during that turn; they recur each turn it is still unresolved.
* Reading (§38 e/g): if the forced problem is already unresolved, the result is an
  ordinary 'One Political Problem' (roll the table, rerolling unresolved problems, §7.2).
* Reading (§38 f): the added countries join the Foreign War problem's countries, so all
  the wars end when it is resolved; characters there are stuck (§7.10.1); in the errata
  edition the D15/D16 expulsions apply.
* Reading (§38 h, D87, A3): the dice counts also reroll dead characters; if fewer than
  two characters can be named, fewer are accused.
* Reading (Deliberate Incompetence): a Minister already discharged by his third failure
  in a row (§7.8) makes no roll; "a '6'" is a total of 6 or more (6, or 5 + Informer).

Functions: ``change_support(state, delta, why="")`` (§32.1 clamp 0..120, logs entering
and leaving a crisis, §33.1, §33.3), ``set_support(state, value, why)`` (§32.4),
``in_crisis``, ``at_war``, ``pirates_active`` (§7.11, for the Navy Support value),
``resolving_minister``.

``state.problems`` maps a problem key to ``{"fails": consecutive failures of the current
Minister, "turns": times it went unresolved (§7.7 Record Sheet), "countries": countries
at war (Foreign War only, else []), "minister": the Minister whose failures "fails"
counts}``; ``state.wars`` lists the countries at war with Fandonia (§7.10).

The attempt (§7.3-§7.6, §7.10.6, §20.3, A5, A8, A9):

* no Minister in the resolving office: automatically unresolved (§7.4);
* the Minister is stuck in a country at war: automatically unresolved (§7.10.6);
* a Minister abroad returns to Fandonia (§20.3), not an activity;
* a PC/FAC Minister's player may deliberately leave the problem unresolved (§7.4), a
  YES/NO decision before the roll; an NC Minister always attempts, the first player
  rolling for him (§7.3, §5);
* one die, modified (``rolls.modified_roll``) by: ±1 declared by the player of each listed
  modifying Minister or character who is a PC or FAC (NC modifiers ignored, §7.6), ±1 by
  the player with a FARC Monarch (§7.12, §36.10.3), +1 in a crisis (§33.2.2);
* resolved if the modified roll is less than the Minister's Ability Rating; a natural 6
  always fails (§7.5, A5);
* Monarch's Support +10 per resolved problem, -10 per unresolved attempt, applied at the
  attempt (§7.9, §32.2, A8); a resolved problem is removed and, for a Foreign War, the
  war ends (§7.10);
* three failures in a row by the same Minister: he is discharged (§7.8, §16.4); an NC goes
  back to the Office Holder pile (he just leaves office), a PC/FAC stays with his player.

Readings:

* Reading: deliberately leaving a problem unresolved (§7.4) and being stuck in a country
  at war (§7.10.6) are failures of that Minister for the three-in-a-row count of §7.8 (the
  rule counts turns the Minister "fails to resolve" the problem; otherwise a Minister of
  the Army stuck abroad could never be replaced and the war never end).  A vacant office
  counts no failure for anybody.
* Reading: the three-in-a-row count belongs to the Minister: it restarts at zero whenever
  another character attempts the problem (a new Minister "must attempt to resolve it").
* Reading: a Minister abroad returns to Fandonia (§20.3) at any attempt he must make (the
  immediate attempt of a new problem, or a Problems Phase attempt after he was appointed
  while abroad); a Minister who failed may not travel (§20.3), which ``Character.
  failed_problem`` records while he is the Minister of a problem he failed and it stays
  unresolved.
* Reading: a Minister abroad in a country that a new Foreign War puts at war with
  Fandonia is stuck there before his immediate attempt: §7.10.6 (automatically
  unresolved) applies, not the return home of §20.3 (§7.10.1: characters in a country at
  war may not return).
* Reading: listed modifying characters (Magistrate, Judges, Sheriff, General, Admiral,
  Archbishop) modify while they are PCs/FACs whatever their situation (§7.6 sets no
  other condition); a dead character does not.
* Reading: if all ten problems are unresolved, a new problem result has no effect (the
  reroll of §7.2 could never end; termination guard as in A3).
* Reading: a new Foreign War while some countries are already at war adds the new
  countries; the war of a Foreign War problem is with the countries its Foreign War Table
  roll named, and ends (those countries only) when it is resolved.
* Reading (A8): the +5 of §32.2 is applied after the Crown Events phase when there were no
  unresolved problems at the start of the turn (``state.problems_at_start``) and the
  Crown Events result is not "One/Two Political Problems".
"""

from __future__ import annotations

from typing import Any, Final

from ..core import chance, registry
from ..core.actions import ID, NO, YES, suffix
from ..core.machine import ask, log, op, seq
from ..core.state import GameState
from ..data.components import COUNTRIES, COUNTRY_NAMES, FANDONIA, NOBLES, OFFICES
from ..data.tables import (
    ERRATA_BONUS_CROWN_EVENTS,
    FOREIGN_WAR,
    POLITICAL_PROBLEMS,
    PROBLEM_KEYS,
    PROBLEMS,
    UNRESOLVED_PROBLEM_TURNS,
    lookup,
)
from ..rules.court import bribe_signs, holder, office_name, problem_name, vacate
from ..rules.queries import abroad, lose_ip, monarch_owner, name, stuck_at_war
from ..rules.rolls import modified_roll
from ..rules.ruleset import ruleset

SUPPORT_MIN: Final = 0  # §32.1
SUPPORT_MAX: Final = 120
RESOLVED_SUPPORT: Final = 10  # §7.9, §32.2
UNRESOLVED_SUPPORT: Final = -10
DISCHARGE_AFTER: Final = 3  # §7.8
CRISIS_MOD: Final = 1  # §33.2.2

#: Crown Events results that are political-problem results (rows 7-10, §32.2).
PROBLEM_CROWN_EVENTS: Final = frozenset({"two_problems", "one_problem"})


# ---------------------------------------------------------------------------
# §32 Monarch's Support, §33 crisis
# ---------------------------------------------------------------------------


def in_crisis(state: GameState) -> bool:
    """§33.1: the Monarch's Support is zero."""
    return state.support == 0


def _support_log(state: GameState, old: int, new: int, why: str) -> None:
    why_s = f" ({why})" if why else ""
    if new != old:
        log(state, f"The Monarch's Support goes from {old} to {new}{why_s}.")
    else:
        log(state, f"The Monarch's Support stays at {new}{why_s}.")
    if old > 0 and new == 0:
        log(state, "The Monarch's Support has fallen to 0: the government is in crisis (§33.1).")
    elif old == 0 and new > 0:
        log(state, "The Monarch's Support is positive again: the crisis ends (§33.3).")


def change_support(state: GameState, delta: int, why: str = "") -> int:
    """Add ``delta`` to the Monarch's Support, clamped to 0..120 (§32.1); returns the change."""
    old = state.support
    new = max(SUPPORT_MIN, min(SUPPORT_MAX, old + delta))
    state.support = new
    _support_log(state, old, new, why)
    return new - old


def set_support(state: GameState, value: int, why: str = "") -> None:
    """Set the Monarch's Support (re-established on a new Monarch, §32.4, §33.3)."""
    old = state.support
    state.support = max(SUPPORT_MIN, min(SUPPORT_MAX, value))
    _support_log(state, old, state.support, why)


@op("support_bonus")
def support_bonus(state: GameState) -> None:
    """§32.2, §7.9, A8: +5 when no problems were pending at the start of the turn and the
    Crown Events result is not a political-problem result."""
    if state.problems_at_start:
        return
    events = set(state.tstate.get("crown_events", [])) | {state.crown or ""}
    if events & PROBLEM_CROWN_EVENTS:  # every result of the turn (several forced results, A10 i)
        return
    registry.HOOKS[ruleset(state).no_problem_bonus_hook](state, events)


@registry.hook("no_problem_bonus_32_2")
def _no_problem_bonus(state: GameState, events: set[str]) -> None:
    """§32.2: +5 whatever the other Crown Events result."""
    change_support(state, ruleset(state).no_problem_bonus, "no political problems this turn, §32.2")


@registry.hook("no_problem_bonus_d13")
def _no_problem_bonus_d13(state: GameState, events: set[str]) -> None:
    """ES §7.9 (D13, D14, A8): +10, only when the Crown Events result is 'Court Ball' or 'Intrigue'."""
    if events & ERRATA_BONUS_CROWN_EVENTS:
        change_support(state, ruleset(state).no_problem_bonus,
                       "no political problems and a Court Ball or Intrigue this turn, ES §7.9")


# ---------------------------------------------------------------------------
# Queries other chapters use
# ---------------------------------------------------------------------------


def at_war(state: GameState) -> bool:
    """§7.10.5: Fandonia is at war with some country."""
    return bool(state.wars)


def pirates_active(state: GameState) -> bool:
    """§7.11: the 'Pirates' problem is unresolved (Navy Support 1dx2)."""
    return "pirates" in state.problems


def resolving_minister(state: GameState, key: str) -> str | None:
    """The character holding the office that must resolve problem ``key`` (Table 1.9)."""
    return holder(state, PROBLEMS[key]["resolving_office"])


def refresh_failed_flags(state: GameState) -> None:
    """§20.3: a Minister who failed an unresolved problem may not travel."""
    flagged: set[str] = set()
    for key, rec in state.problems.items():
        cid = rec.get("minister")
        if cid and rec.get("fails", 0) > 0 and state.chars[cid].office == PROBLEMS[key]["resolving_office"]:
            flagged.add(cid)
    for cid, c in state.chars.items():
        if c.failed_problem != (cid in flagged):  # written only where it changes (copy-on-write)
            state.wchar(cid).failed_problem = cid in flagged


# ---------------------------------------------------------------------------
# §7.1 Political Problems Phase
# ---------------------------------------------------------------------------


@op("problems_phase")
def problems_phase(state: GameState) -> None:
    """§7.1: an attempt on every unresolved problem, in the order the first player picks;
    skipped when there are none."""
    state.phase = "problems"
    state.tstate["problems_attempted"] = []
    refresh_failed_flags(state)
    if not state.problems:
        log(state, "Political Problems Phase: there are no unresolved political problems (§7.1).")
        return
    log(state, "Political Problems Phase: unresolved problems: "
        + ", ".join(problem_name(k) for k in PROBLEM_KEYS if k in state.problems) + ".")
    seq(state, ("problems_next", {}))


@op("problems_next")
def problems_next(state: GameState) -> None:
    done = state.tstate.setdefault("problems_attempted", [])
    left = [k for k in PROBLEM_KEYS if k in state.problems and k not in done]
    if not left:
        return
    seq(state, ask(state.first_player, "problem_order", [ID[f"problem_{k}"] for k in left],
                   "problems_pick", {"phase": "problems"}))


@op("problems_pick")
def problems_pick(state: GameState, choice: int) -> None:
    key = suffix(choice, "problem_")
    seq(state, ("problem_attempt", {"key": key}), ("problems_next", {}))


# ---------------------------------------------------------------------------
# §8.4.5, §7.2, §7.10 a new problem
# ---------------------------------------------------------------------------


@op("new_problem")
def new_problem(state: GameState, forced: str | None = None) -> None:
    """§8.4.5: the first player rolls on the Political Problems Table (a problem already
    unresolved is rerolled, §7.2); a Foreign War rolls the Foreign War Table (§7.10); the
    Minister attempts the new problem at once (A12).  ``forced`` (§38 unresolved problems
    e/g): the problem is that one, with no roll, unless it is already unresolved."""
    if len(state.problems) >= len(PROBLEM_KEYS):
        log(state, "Every political problem is already unresolved: no new problem can arise.")
        return
    if forced is not None and forced in state.problems:
        log(state, f"The political problem should automatically be the {problem_name(forced)}, which is "
                   "already unresolved: roll on the Political Problems Table instead (§7.2, §38).")
        forced = None
    while forced is None:
        total = chance.dice_sum(state, "Political Problems Table (§7.2)")
        row = lookup(POLITICAL_PROBLEMS, total)
        key = row["problem"]
        if key in state.problems:
            log(state, f"Political Problems Table: rolled {total} - {row['text']}, which is already "
                       "unresolved; roll again (§7.2).")
            continue
        break
    if forced is not None:
        key = forced
        log(state, f"The political problem is automatically the {problem_name(key)} (§38, effects of "
                   "unresolved political problems).")
    else:
        log(state, f"Political Problems Table: rolled {total} - {row['text']}.")
    rec: dict[str, Any] = {"fails": 0, "turns": 0, "countries": [], "minister": None}
    if key == "foreign_war":
        wtotal = chance.dice_sum(state, "Foreign War Table")
        wrow = lookup(FOREIGN_WAR, wtotal)
        countries = list(wrow["countries"])
        rec["countries"] = countries
        new = [k for k in countries if k not in state.wars]
        state.wars.extend(new)
        log(state, f"Foreign War Table: rolled {wtotal} - {wrow['text']}: Fandonia is at war with "
                   + ", ".join(COUNTRY_NAMES[k] for k in countries) + " (§7.10).")
        registry.HOOKS[ruleset(state).war_expulsion_hook](state, new)  # D15, D16: expel_at_war
        for cid, c in state.chars.items():
            if c.location in countries and not c.dead:
                log(state, f"{name(cid)} is stuck in {COUNTRY_NAMES[c.location]} (§7.10.1).")
        if new:
            seq(state, *[(h, {"countries": list(new)}) for h in registry.WAR_START])
    state.problems[key] = rec
    # §15.4, ruling R13: a Crown Events problem's Counseling Table is open this turn (counsel.open_tables)
    state.tstate.setdefault("crown_problems", []).append(key)
    seq(state, ("problem_attempt", {"key": key, "immediate": True}))


# ---------------------------------------------------------------------------
# §7.3-§7.8 one attempt
# ---------------------------------------------------------------------------


@op("problem_attempt")
def problem_attempt(state: GameState, key: str, immediate: bool = False) -> None:
    if key not in state.problems:
        return
    done = state.tstate.setdefault("problems_attempted", [])
    if key not in done:
        done.append(key)
    office = PROBLEMS[key]["resolving_office"]
    cid = holder(state, office)
    pn = problem_name(key)
    if cid is None:
        log(state, f"{pn}: there is no {office_name(office)}; the problem is automatically unresolved "
                   "this turn (§7.4).")
        _unresolved(state, key, None)
        return
    c = state.chars[cid]
    if stuck_at_war(state, c):  # D16: expelled (ES §7.10.6); 1981: stays, automatically unresolved
        registry.HOOKS[ruleset(state).stuck_minister_hook](state, cid, office)
        c = state.chars[cid]
    if stuck_at_war(state, c):
        log(state, f"{pn}: the {office_name(office)}, {name(cid)}, is stuck in "
                   f"{COUNTRY_NAMES[c.location]}, at war with Fandonia; the problem is automatically "
                   "unresolved this turn (§7.10.6).")
        _unresolved(state, key, cid)
        return
    if abroad(c):
        log(state, f"{name(cid)}, the {office_name(office)}, returns to Fandonia from "
                   f"{COUNTRY_NAMES[c.location]} to attempt the problem (§20.3).")
        c = state.wchar(cid)
        c.location = FANDONIA
    if c.owner is not None:
        seq(state, ask(c.owner, "problem_leave_unresolved", [YES, NO], "problem_leave_choice",
                       {"problem": key, "minister": cid}, key=key, cid=cid))
        return
    seq(state, ("problem_roll", {"key": key, "cid": cid}))


@op("problem_leave_choice")
def problem_leave_choice(state: GameState, choice: int, key: str, cid: str) -> None:
    """§7.4: a PC/FAC Minister's player may deliberately let the problem remain unresolved."""
    if choice == YES:
        log(state, f"Player {state.chars[cid].owner} deliberately lets the {problem_name(key)} remain "
                   f"unresolved this turn (§7.4).")
        _unresolved(state, key, cid)
        # §38 Deliberate Incompetence: ``incompetence_roll``
        seq(state, *[(o, {"key": key, "cid": cid}) for o in ruleset(state).deliberately_unresolved_ops])
        return
    seq(state, ("problem_roll", {"key": key, "cid": cid}))


def roll_spec(state: GameState, key: str, cid: str) -> dict[str, Any]:
    """The modified roll of §7.5-§7.6, §7.12, §33.2.2 for problem ``key`` attempted by ``cid``."""
    info = PROBLEMS[key]
    signs: list[dict[str, Any]] = []
    for office in info["modifying_offices"]:
        h = holder(state, office)
        if h is not None:
            hc = state.chars[h]
            if hc.owner is not None and not hc.dead:
                signs.append({"player": hc.owner, "amount": 1,
                              "why": f"{name(h)}, {office_name(office)}, §7.6"})
            elif hc.owner is None and state.misc.get("bribery_bought"):  # errata ES §13.4.20
                signs += bribe_signs(state, h, f"{name(h)}, {office_name(office)}, §7.6")
    for n in info["modifying_characters"]:
        mc = state.chars[str(n)]
        if mc.owner is not None and not mc.dead:
            signs.append({"player": mc.owner, "amount": 1, "why": f"{name(str(n))}, §7.6"})
    mo = monarch_owner(state)
    if mo is not None:
        signs.append({"player": mo, "amount": 1, "why": "FARC Monarch, §7.12"})
    for h in ruleset(state).problem_sign_hooks:  # §38 Additional Monarch's Counselor Powers
        signs += registry.HOOKS[h](state)
    crisis = in_crisis(state)
    return {
        "label": f"{problem_name(key)} resolution (Ability {NOBLES[cid].ability})",
        "dice": "1d",
        "base": CRISIS_MOD if crisis else 0,
        "signs": signs,
        "then": "problem_rolled",
        "then_args": {"key": key, "cid": cid},
    }


@op("problem_roll")
def problem_roll(state: GameState, key: str, cid: str) -> None:
    if in_crisis(state):
        log(state, f"{problem_name(key)}: the government is in crisis, +1 to the roll (§33.2.2).")
    seq(state, modified_roll(roll_spec(state, key, cid)))


@op("problem_rolled")
def problem_rolled(state: GameState, roll: dict[str, Any], key: str, cid: str) -> None:
    """§7.5 (A5): resolved if the modified roll is below the Ability Rating; a natural 6 fails."""
    ability = NOBLES[cid].ability or 0
    pn = problem_name(key)
    if roll["natural"] == 6:
        log(state, f"{pn}: a natural 6 - the problem is unresolved whatever the modifiers (§7.5).")
        _unresolved(state, key, cid)
    elif roll["total"] < ability:
        log(state, f"{pn}: {roll['total']} is less than {name(cid)}'s Ability Rating {ability}: "
                   "the problem is resolved (§7.5).")
        _resolved(state, key)
    else:
        log(state, f"{pn}: {roll['total']} is not less than {name(cid)}'s Ability Rating {ability}: "
                   "the problem is unresolved (§7.5).")
        _unresolved(state, key, cid)


def _resolved(state: GameState, key: str) -> None:
    rec = state.problems.pop(key)
    change_support(state, RESOLVED_SUPPORT, f"{problem_name(key)} resolved, §7.9")
    if key == "foreign_war":
        still = {k for r in state.problems.values() for k in r.get("countries", [])}
        ended = [k for k in rec.get("countries", []) if k in state.wars and k not in still]
        state.wars = [k for k in state.wars if k not in ended]
        if ended:
            log(state, "The war with " + ", ".join(COUNTRY_NAMES[k] for k in ended) + " is over (§7.10).")
            seq(state, *[(h, {"countries": list(ended)}) for h in registry.WAR_END])
    refresh_failed_flags(state)


def _unresolved(state: GameState, key: str, cid: str | None) -> None:
    rec = state.problems[key]
    rec["turns"] = rec.get("turns", 0) + 1
    change_support(state, UNRESOLVED_SUPPORT, f"{problem_name(key)} unresolved, §7.9")
    if cid is None:
        rec["minister"] = None
        rec["fails"] = 0
    else:
        if rec.get("minister") != cid:
            rec["minister"] = cid
            rec["fails"] = 0
        rec["fails"] += 1
        if rec["fails"] >= DISCHARGE_AFTER:
            log(state, f"{name(cid)} has failed to resolve the {problem_name(key)} {rec['fails']} turns in a "
                       "row and is discharged (§7.8).")
            vacate(state, cid, "three failures in a row, §7.8")
            rec["minister"] = None
            rec["fails"] = 0
        else:
            log(state, f"{name(cid)} has failed to resolve the {problem_name(key)} {rec['fails']} "
                       f"time{'s' if rec['fails'] > 1 else ''} in a row (§7.8).")
    refresh_failed_flags(state)


# ---------------------------------------------------------------------------
# Errata D15/D16: expulsion when a war begins (ES §7.10.4, §7.10.6)
# ---------------------------------------------------------------------------


@registry.hook("minister_expelled_d16")
def _minister_expelled(state: GameState, cid: str, office: str) -> None:
    """ES §7.10.6 (D16): the Minister (``cid``, holding ``office``) in a country at war when he
    must attempt his problem is expelled and returns to Fandonia: no automatic failure."""
    c = state.wchar(cid)
    log(state, f"{name(cid)}, the {office_name(office)}, is expelled from {COUNTRY_NAMES[c.location]} "
               "and returns to Fandonia (ES §7.10.6).")
    c.location = FANDONIA


@registry.hook("expel_at_war")
def expel_at_war(state: GameState, countries: list[str]) -> None:
    """Errata D15, D16: when war begins with ``countries``, their Ambassadors are expelled,
    lose their office (which ceases to exist until the war ends, ``offices.may_be_filled``)
    and return to Fandonia; any other Minister (Office Holder) there returns to Fandonia.
    An Ambassador to such a country who is not there (e.g. extradited home and acquitted)
    loses his office all the same: the office itself ceases to exist (ES §7.10.4)."""

    for cid, c in state.chars.items():
        if c.dead or c.office is None or c.office == "monarch":
            continue
        post = OFFICES[c.office].country
        if post in countries and c.location != post:
            log(state, f"{name(cid)}, the {office_name(c.office)}, loses his office, which ceases to exist "
                       "until the war ends (ES §7.10.4).")
            vacate(state, cid, "war, ES §7.10.4")
            continue
        if c.location not in countries:
            continue
        if post == c.location:
            log(state, f"{name(cid)}, the {office_name(c.office)}, is expelled: he loses his office, which "
                       "ceases to exist until the war ends (ES §7.10.4).")
            vacate(state, cid, "expelled, war, ES §7.10.4")
        else:
            log(state, f"{name(cid)}, the {office_name(c.office)}, is in {COUNTRY_NAMES[c.location]} when the "
                       "war begins: he is expelled and returns to Fandonia (ES §7.10.6).")
            state.wchar(cid).location = FANDONIA


def _war_with_all(state: GameState) -> None:
    """§38 unresolved effect f: Fandonia is at war with every other country."""

    new = [k for k in COUNTRIES if k not in state.wars]
    rec = state.problems.get("foreign_war")
    if rec is not None:
        rec["countries"] = list(dict.fromkeys(list(rec.get("countries", [])) + list(COUNTRIES)))
    if not new:
        log(state, "The war spreads, but Fandonia is already at war with every country (§38 f).")
        return
    state.wars.extend(new)
    log(state, "The war spreads: Fandonia is now at war with " + ", ".join(COUNTRY_NAMES[k] for k in new)
        + " as well (§38 f).")
    registry.HOOKS[ruleset(state).war_expulsion_hook](state, new)  # D15, D16: expel_at_war
    for cid, c in state.chars.items():
        if c.location in new and not c.dead:
            log(state, f"{name(cid)} is stuck in {COUNTRY_NAMES[c.location]} (§7.10.1).")
    seq(state, *[(h, {"countries": list(new)}) for h in registry.WAR_START])


# ---------------------------------------------------------------------------
# §38 Deliberate Incompetence (optional)
# ---------------------------------------------------------------------------

INCOMPETENCE_DISCHARGE: Final = 6  # §38: discharged on a '6'


@op("incompetence_roll")
def incompetence_roll(state: GameState, key: str, cid: str) -> None:
    """§38 Deliberate Incompetence: the Minister's player rolls one die; any player may play
    one 'Informer' card for +1 (no more than one); on a 6 the Minister is discharged."""
    c = state.chars[cid]
    if c.office != PROBLEMS[key]["resolving_office"]:
        return  # already discharged (three failures, §7.8)
    log(state, f"Deliberate Incompetence (§38): player {c.owner} must roll one die for {name(cid)}.")
    seq(state, modified_roll({
        "label": f"Deliberate Incompetence ({name(cid)})",
        "dice": "1d",
        "cards": [{"card": "informer", "who": "any", "effect": 1, "max_total": 1}],
        "then": "incompetence_rolled",
        "then_args": {"key": key, "cid": cid},
    }))


@op("incompetence_rolled")
def incompetence_rolled(state: GameState, roll: dict[str, Any], key: str, cid: str) -> None:
    c = state.chars[cid]
    if roll["total"] >= INCOMPETENCE_DISCHARGE:
        log(state, f"Deliberate Incompetence: {roll['total']}: {name(cid)} is discharged (§38).")
        if c.office == PROBLEMS[key]["resolving_office"]:
            vacate(state, cid, "deliberate incompetence, §38")
            rec = state.problems.get(key)
            if rec is not None and rec.get("minister") == cid:
                rec["minister"] = None
                rec["fails"] = 0
            refresh_failed_flags(state)
    else:
        log(state, f"Deliberate Incompetence: {roll['total']}: {name(cid)} keeps his office (§38).")


# ---------------------------------------------------------------------------
# §38 Effects of Unresolved Political Problems (optional; errata item h, D87)
# ---------------------------------------------------------------------------


def _accuse_two(state: GameState) -> list[str]:
    """Item h (D87): two dice counts name two characters; reroll a PC, a repeat (and, ruling
    A3, a dead character); fewer if fewer can be named."""
    usable = {cid for cid in NOBLES if not state.chars[cid].is_pc and not state.chars[cid].dead}
    out: list[str] = []
    for _ in range(2):
        if not usable - set(out):
            log(state, "No other character can be accused (ruling A3).")
            break
        while True:
            r, w = chance.roll(state, 2, "character accused (dice count)")
            cid = str(r * 10 + w)
            if cid in usable and cid not in out:
                break
            why = ("the same character again" if cid in out else "a PC" if state.chars[cid].is_pc
                   else "out of play")
            log(state, f"Treason & Conspiracy Trials: dice count {r}{w} names {name(cid)} ({why}); roll again.")
        log(state, f"Treason & Conspiracy Trials: dice count {r}{w} names {name(cid)}.")
        out.append(cid)
    return out


@op("unresolved_effects")
def unresolved_effects(state: GameState) -> None:
    """§38 (T1.17): at the start of a turn, every problem unresolved three turns in a row (or
    more) has its effect this turn; cumulative; forced Crown results are resolved together
    (A10 i)."""

    steps: list[Any] = []
    for key, eff in ruleset(state).unresolved_problem_effects.items():  # item h in the errata only (D87)
        rec = state.problems.get(key)
        if rec is None or rec.get("turns", 0) < UNRESOLVED_PROBLEM_TURNS:
            continue
        log(state, f"Effects of Unresolved Political Problems (§38 {eff['item']}): the {problem_name(key)} has "
                   f"been unresolved {rec['turns']} turns in a row: {eff['text']}")
        code = eff["code"]
        if code == "no_ip_spending":
            state.misc["unres_no_ip_turn"] = state.turn
        elif code == "all_players_lose_ip":
            for pl in state.players:
                lose_ip(state, pl.idx, eff["amount"], f"unresolved {problem_name(key)}, §38 b")
                state.tstate.setdefault("ip_start", {})[str(pl.idx)] = pl.ip  # held when the turn began
        elif code == "force_crown_event":
            if eff["event"] not in state.forced_crown:
                state.forced_crown.append(eff["event"])
        elif code == "force_political_problem":
            k = "one_problem:" + eff["problem"]
            if k not in state.forced_crown:
                state.forced_crown.append(k)
        elif code == "war_with_all":
            _war_with_all(state)
        elif code == "two_accused":
            steps += [("accuse", {"cid": cid, "why": "Treason & Conspiracy Trials unresolved, §38 h"})
                      for cid in _accuse_two(state)]
    if steps:
        seq(state, *steps)


__all__ = ["change_support", "set_support", "in_crisis", "at_war", "pirates_active", "resolving_minister", "refresh_failed_flags", "roll_spec", "expel_at_war"]

"""§13.4.17 Consult The Prestige Tables, and the wedding guests' Socializing roll (§13.4.16).

Registered here:

* activity ``prestige`` (§13.4.17): the player chooses one of the ten Prestige Tables
  (``data/tables.py`` ``PRESTIGE_TABLES``, T1.14), pays its cost (Socializing One IP,
  Patronage Two IP, Business Speculation Three IP; the others none, T1.14), rolls two
  dice plus his own cumulative modifier for that table (plus a bought +1) and applies
  the row hit.  A player with a female PC may never consult Sporting (§13.4.17).  One
  table per Player Turn (§13.4.17; the activity is performed at most once, §13.1).
* free action ``buy_modifier`` (§13.4.17, Activities Chart 17): Two IP for a +1 to use
  on a Prestige Table on which the player's modifier is below +2; one per Player Turn,
  used once (on the current turn).
* operation ``socializing_roll`` {p, guest=True}: a wedding guest's roll on the
  Socializing Table (§13.4.16): not an activity, no IP cost, modified by the guest's
  existing Socializing modifier; a new modifier is added to it.
* start-of-Player-Turn hook ``prestige_turn_start`` (see the free intrigue below).

The roll (§13.4.17, §2.3): 2d + own modifier (+1 bought), through
``rolls.modified_roll`` with no signs and no cards (no card modifies a Prestige roll),
clamped to 2..12 (ruling A6).  Each row's modifier is added to the player's modifier
for that table on the Record Sheet (``Player.prestige_mods[table]``), capped at +-2
(§13.4.17, ``PRESTIGE_MODIFIER_CAP``).

Results (T1.14.11, ``PRESTIGE_RESULT_NOTES``):

* IP/PP gains and losses (``queries.gain_ip/lose_ip/gain_pp/lose_pp``, floors at 0,
  §34.3/§35.3); "Lose All IP/PP" and "Double Current IP/PP".
* note 1 'Roll Again': optional ("may"); the player may roll again on the same table
  with the same modifier used on the first roll; it may chain and every reroll is part
  of the same activity, halved the same way; each reroll's row modifier is then applied
  (A45).
* note 2 'No Effect': the player may perform no more activities this turn (A45).
* notes 5/6 'Fight A Duel' / 'Roll On Scandal Table': no more activities this turn; a
  duel is the operation ``duel`` {player, cid: None, source} (the romance chapter lets
  the player designate his PC or a henchman, §19.3); a Carousing duel has source
  ``"carousing"`` (+1 to the duellist's die, §19.9), any other ``"prestige"``.  The
  scandal: the player designates his PC or a henchman (§17.2.5), then ``scandal``
  {cid, why}.
* notes 7-9: designate PC or a henchman (§17.2.5), then ``accuse`` {cid, why},
  ``hearing`` {cid} or ``to_trial`` {cid}.
* notes 10/11: ``pt["extra"] += n``; note 12: ``pt["any_activity"] += 1`` (the §12.3.1
  waiver, which does not give an extra activity, §12.3.1).
* note 4: operation ``auto_proposal`` {p} (romance chapter, §18.4.5).
* note 3 'Intrigue Opponent's Card': see the free intrigue below.

Halving (§20.5, §24.3, §29.2, T1.14 footnote, A1, A2): when the player's PC is abroad,
in hiding or banished, every IP and PP gain or loss of a Prestige roll is halved once
(A2), its magnitude rounded up; "Lose All IP" loses ceil(IP/2), "Double Current IP"
gains ceil(IP/2) (A1).  Modifiers, extra activities, duels, scandals and wrongdoing are
not halved (A1).  'Fight A Duel' is ignored while the PC is in hiding or banished
(§24.3, §29.2).  Abroad, a duel is fought only against another character abroad in the
same country (§20.5): that is the duel procedure's opponent search (§19.7.4), which
finds no opponent and then fights no duel.

Wedding guests (§13.4.16, A44): the activity-loss clauses (notes 2, 5, 6) apply only to
a roll made in the roller's own Player Turn; outside it only the duel or scandal itself
happens.  A guest never has a bought +1 (bought modifiers are used on the buyer's own
turn).

Readings (rules and rulings silent):

* Reading (free intrigue, T1.14.11 note 3): "perform activity §13.4.12 as a free,
  additional activity this turn" is granted as a free activity
  (``pt["free"].append("intrigue_card")``, see ``turn._free_ok``): Intrigue An
  Opponent's Card without its counter or card, outside the activity budget, and only
  that activity.  Because §13.1 forbids the same activity twice in a turn, the result is
  lost if the player has already performed Intrigue An Opponent's Card this turn.  A
  player whose PC is banished or in hiding may never perform more than one activity
  (§24.3, §29.2, §13.1), so he can use it only as his single activity.  A free intrigue won as a
  wedding guest outside his own Player Turn is kept (``tstate["prestige_grants"]``) for
  his own Player Turn later in the same game turn, if it is still to come (the same
  reading the romance chapter takes for 'Proposal Automatically Accepted'); other
  "this turn" grants (extra activities, Any Activity) are kept the same way, though the
  Socializing Table, the only one a guest rolls on, has none.
* Reading ('Fight A Duel' ignored, §24.3/§29.2): the whole result is ignored - the duel
  and note 5's loss of the remaining activities; the row's modifier is still recorded
  (each result gives a modifier, §13.4.17).
* Reading (bought +1): it is added to the table consulted this turn if the player's
  modifier on that table is below +2 (otherwise it cannot be used and is lost), and it
  is part of "the same modifier used on the first roll" of a 'Roll Again'.  It is
  offered only while the player may still consult a table on which his modifier is
  below +2 and can pay both the Two IP and that table's cost.
* Reading (designation, §17.2.5): the PC may always be designated; a henchman must be
  alive, not imprisoned and not abroad (§17.6, §20.4: a henchman abroad may be used for
  nothing but an assassination attempt), and for wrongdoing, a hearing or a trial he must be in a
  normal situation (not already a wrongdoer, banished, imprisoned or in hiding), so that
  the henchman really suffers the consequence; for a scandal any situation will do
  (§22 "any character in any situation").
* Reading (halving of 'Double Current IP/PP' and 'Lose All'): computed on the current
  total at the moment the row is applied, after the row's fixed PP/IP amounts.
"""

from __future__ import annotations

from typing import Any, Final

from ..core import registry
from ..core.actions import ID, YES, action_char, char_action, suffix
from ..core.machine import ask, log, op, seq
from ..core.state import GameState
from ..data.tables import PRESTIGE_BOUGHT_MODIFIER, PRESTIGE_MODIFIER_CAP, PRESTIGE_TABLE_KEYS, PRESTIGE_TABLES, lookup
from ..rules.effects import Ctx, apply_grant, apply_row, own_turn, send
from ..rules.queries import abroad, henchmen, ip_spendable, is_female, name, normal, spend_ip
from ..rules.rolls import modified_roll
from ..rules.rule_queries import gains_halved
from ..rules.ruleset import ruleset
from ..rules.turn_steps import activities_left

#: §13.4.17: the price of the bought +1 modifier.
BUY_COST_IP: Final = 2
CAP: Final = PRESTIGE_MODIFIER_CAP

#: the order in which a Prestige row's effect codes apply (``effects.apply_row``).
PRESTIGE_ORDER: Final = (
    "pp", "ip", "lose_all_pp", "lose_all_ip", "double_pp", "double_ip", "duel", "lose_remaining_activities",
    "extra_activities", "any_activity", "intrigue_card", "auto_proposal", "scandal", "wrongdoing", "hearing",
    "trial", "roll_again", "no_effect", "designate_pc_or_henchman",
)

_COSTS: Final = {k: int(PRESTIGE_TABLES[k].get("cost_ip", 0)) for k in PRESTIGE_TABLE_KEYS}
_MALE_ONLY: Final = frozenset(k for k in PRESTIGE_TABLE_KEYS if PRESTIGE_TABLES[k]["male_only"])


def table_name(key: str) -> str:
    return PRESTIGE_TABLES[key]["name"]


def _may_consult(state: GameState, p: int, key: str) -> bool:
    """§13.4.17: a player with a female PC may never consult Sporting."""
    return key not in _MALE_ONLY or not is_female(state.players[p].pc)


def _tables(state: GameState, p: int, extra_ip: int = 0, below_cap: bool = False) -> list[str]:
    """Tables p may consult now and afford (cost plus ``extra_ip``)."""
    sp = ip_spendable(state, p)
    mods = state.players[p].prestige_mods
    return [k for k in PRESTIGE_TABLE_KEYS
            if _COSTS[k] + extra_ip <= sp and _may_consult(state, p, k)
            and (not below_cap or mods.get(k, 0) < CAP)]


def halved(state: GameState, p: int) -> bool:
    """§20.5, §24.3, §29.2: PC abroad, in hiding or banished (halve once, A2); the rule is
    ``rule_queries.gains_halved`` (shared with the agents)."""
    return gains_halved(state, p)


# ---------------------------------------------------------------------------
# The activity (§13.4.17)
# ---------------------------------------------------------------------------


def _legal_prestige(state: GameState, p: int) -> bool:
    sp = ip_spendable(state, p)
    for k in PRESTIGE_TABLE_KEYS:
        if _COSTS[k] <= sp and _may_consult(state, p, k):
            return True
    return False


@op("prestige_start")
def prestige_start(state: GameState, p: int) -> None:
    opts = [ID[f"prestige_{k}"] for k in _tables(state, p)]
    seq(state, ask(p, "prestige_table", opts, "prestige_pick",
                   {"activity": "prestige", "bought": bool(state.pt.get("bought_mod"))}, p=p))


@op("prestige_pick")
def prestige_pick(state: GameState, choice: int, p: int) -> None:
    key = suffix(choice, "prestige_")
    pt = state.pt
    pt["prestige_table"] = key
    cost = _COSTS[key]
    log(state, f"Player {p} consults the {table_name(key)} Table (§13.4.17).")
    if cost:
        spend_ip(state, p, cost, f"consulting the {table_name(key)} Table")
    own = state.players[p].prestige_mods.get(key, 0)
    mod = own
    if pt.get("bought_mod") and not pt.get("bought_used"):
        pt["bought_used"] = True
        if own < CAP:
            mod += PRESTIGE_BOUGHT_MODIFIER
            log(state, f"Player {p} uses his bought +1 modifier on the {table_name(key)} Table.")
        else:
            log(state, f"Player {p}'s bought +1 modifier cannot be used on a table where his modifier "
                       f"is already +{CAP}; it is lost (§13.4.17).")
    marriage = ruleset(state).prestige_marriage_hook  # ES optional Marriage (D97): romantic_intrigue
    if marriage is not None and registry.HOOKS[marriage](state, p, key, mod):
        return
    _roll(state, p, key, mod, own_turn=True)


def _roll(state: GameState, p: int, key: str, mod: int, own_turn: bool) -> None:
    T = PRESTIGE_TABLES[key]
    seq(state, modified_roll({
        "label": f"player {p}'s {T['name']} Table",
        "dice": "2d",
        "base": mod,
        "clamp": [T["lo"], T["hi"]],
        "then": "prestige_result",
        "then_args": {"p": p, "table": key, "mod": mod, "own": own_turn},
    }))


@op("prestige_result")
def prestige_result(state: GameState, roll: dict[str, Any], p: int, table: str, mod: int, own: bool) -> None:
    """Apply the row hit (T1.14, T1.14.11)."""
    T = PRESTIGE_TABLES[table]
    total = roll["total"]
    row = lookup(T, total)
    sp = row["special"]
    half = halved(state, p)
    log(state, f"{T['name']} Table, row {total}: \"{row['text']}\"")
    why = f"{T['name']} Table: {row['text']}"
    pl = state.players[p]

    # the Record Sheet modifier (§13.4.17), capped at +-2
    old = pl.prestige_mods.get(table, 0)
    new = max(-CAP, min(CAP, old + row["mod"]))
    pl.prestige_mods[table] = new
    if new != old:
        log(state, f"Player {p}'s {T['name']} modifier goes from {old:+d} to {new:+d}.")
    else:
        log(state, f"Player {p}'s {T['name']} modifier stays {new:+d}.")

    if half and (row["pp"] or row["ip"] or any(c.startswith(("lose_all", "double")) for c in sp)):
        log(state, f"Player {p}'s PC is abroad, in hiding or banished: the gains and losses are halved, "
                   "rounded up (§20.5, §24.3, §29.2).")

    ctx = Ctx(p=p, why=why, label=T["name"], half=half,
              designate=lambda code: _designate(state, p, code, why),
              params={"table": table, "mod": mod, "own": own,
                      "duel_source": "carousing" if table == "carousing" else "prestige", "duel_check_pc": True})
    seq(state, *apply_row(state, row, PRESTIGE_ORDER, ctx))


@op("prestige_turn_start")
def prestige_turn_start(state: GameState, p: int) -> None:
    """Grants won outside the player's own Player Turn (wedding guest) take effect now."""
    grants = state.tstate.get("prestige_grants", {}).pop(str(p), None)
    if not grants or not state.pt:
        return
    for what in ("extra", "any_activity", "intrigue"):
        if grants.get(what):
            apply_grant(state, p, what, grants[what])


# ---------------------------------------------------------------------------
# Designating the PC or a henchman (§17.2.5, T1.14.11 notes 6-9)
# ---------------------------------------------------------------------------


def designees(state: GameState, p: int, code: str) -> list[str]:
    """The PC, or a henchman able to suffer the result (see the module's reading)."""
    out = [state.players[p].pc]
    for h in henchmen(state, p):
        c = state.chars[h]
        if c.dead or c.imprisoned or abroad(c):
            continue  # §17.6, §20.4: a henchman abroad may only assassinate
        if code != "scandal" and not normal(c):
            continue
        out.append(h)
    return out


def _designate(state: GameState, p: int, code: str, why: str):
    opts = [char_action(x) for x in designees(state, p, code)]
    return ask(p, "prestige_designate", opts, "prestige_designated",
               {"result": code, "rule": "§17.2.5", "why": why}, p=p, code=code, why=why)


@op("prestige_designated")
def prestige_designated(state: GameState, choice: int, p: int, code: str, why: str) -> None:
    cid = action_char(choice)
    what = {"scandal": "consult the Scandal Table", "wrongdoing": "be accused of wrongdoing",
            "hearing": "go to a hearing", "trial": "go to trial"}[code]
    log(state, f"Player {p} designates {name(cid)} to {what} (§17.2.5).")
    seq(state, send(code, cid, why))


# ---------------------------------------------------------------------------
# Roll Again (T1.14.11 note 1, A45)
# ---------------------------------------------------------------------------


@op("prestige_again")
def prestige_again(state: GameState, choice: int, p: int, table: str, mod: int, own: bool) -> None:
    if choice == YES:
        log(state, f"Player {p} rolls again on the {table_name(table)} Table with the same modifier "
                   f"({mod:+d}) (T1.14.11 note 1).")
        _roll(state, p, table, mod, own_turn=own)
    else:
        log(state, f"Player {p} does not roll again.")


# ---------------------------------------------------------------------------
# The bought +1 modifier (§13.4.17)
# ---------------------------------------------------------------------------


def _legal_buy(state: GameState, p: int) -> bool:
    pt = state.pt
    if pt.get("bought_mod") or pt.get("imprisoned") or "prestige" in pt.get("done", ()):
        return False
    if ip_spendable(state, p) < BUY_COST_IP or activities_left(state) <= 0:
        return False
    return bool(_tables(state, p, extra_ip=BUY_COST_IP, below_cap=True))


@op("prestige_buy")
def prestige_buy(state: GameState, p: int) -> None:
    spend_ip(state, p, BUY_COST_IP, "a +1 Prestige Table modifier (§13.4.17)")
    state.pt["bought_mod"] = True
    log(state, f"Player {p} buys a +1 modifier for his Prestige Table roll this turn.")


# ---------------------------------------------------------------------------
# §13.4.16 the wedding guests' Socializing roll
# ---------------------------------------------------------------------------


@op("socializing_roll")
def socializing_roll(state: GameState, p: int, guest: bool = True) -> None:
    """§13.4.16: not an activity, no cost, modified by the existing Socializing modifier."""
    own = (not guest) and own_turn(state, p)
    mod = state.players[p].prestige_mods.get("socializing", 0)
    who = "a wedding guest" if guest else "the host of the wedding (ES §13.4.16, D38)"
    log(state, f"Player {p} rolls on the Socializing Table as {who} (§13.4.16: not an activity, "
               "no IP cost).")
    _roll(state, p, "socializing", mod, own_turn=own)


registry.activity("prestige", _legal_prestige, "prestige_start")
registry.free_action("buy_modifier", _legal_buy, "prestige_buy")

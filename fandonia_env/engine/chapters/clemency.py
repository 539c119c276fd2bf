"""The activities Render A Pardon (§13.4.5, §14.5.4) and Announce An Amnesty (§13.4.6,
§14.5.5); the optional rule §38 Clemency (``Ruleset.clemency``) and ES D93.

Cross-chapter operation (docs/engine.md): ``amnesty_all`` {} (an amnesty without the activity,
a counsel's effect).  ``trials`` schedules ``justice_clemency`` {cid} after a trial whose result
was Banished, Imprisoned or Awaiting Execution (also when Banished became imprisonment), once
the sentence is applied.

§38 Clemency: every player with a Monarch's Counselor (his PC or FAC holding the card, alive and in
Fandonia, imprisoned or hiding there included: ruling R18) is asked in player order whether he asks
clemency for the character, whoever he is; "King overrules judge": a banished or awaiting-execution
character becomes a plain prisoner.  ES D93 (errata with Clemency on, A51): a FARC Monarch may pardon any
wrongdoer, on the terms of §36.10.4 (``d93_pardonable`` of ``rules/situation.py``, asked by the
FARC Monarch's pardon in ``usurpation``, where the pardon of another player's or a neutral
character lifts no Court Ball ban).
"""

from __future__ import annotations

from typing import Final

from ..core import chance, registry
from ..core.actions import NAME, NO, YES, char_action
from ..core.machine import ask, log, op, seq
from ..core.state import Character, GameState
from ..data.components import ROYALS
from ..data.tables import CLEMENCY, lookup
from ..rules.court import counselor_present
from ..rules.effects import Ctx, apply_row
from ..rules.queries import name, player_order
from ..rules.situation import is_wrongdoer, restore
from ..rules.turn_steps import card_or_waiver, spend_card

# ---------------------------------------------------------------------------
# Amnesty (§13.4.6, §14.5.5, §24.9, §29.8, §30.9)
# ---------------------------------------------------------------------------


def _pardonable(cid: str, c: Character) -> bool:
    return not c.dead and cid not in ROYALS and is_wrongdoer(c)


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
    return card_or_waiver(state, p, "pardon") and any(_pardonable(cid, c) for cid, c in state.chars.items())


@op("justice_pardon")
def justice_pardon(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _pardonable(cid, c)]
    seq(state, ask(p, "pardon_target", opts, "justice_pardon_target", {"activity": "pardon"}, p=p))


@op("justice_pardon_target")
def justice_pardon_target(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    spend_card(state, p, "pardon", "a 'Pardon'")
    restore(state, cid)
    log(state, f"Player {p} pardons {name(cid)}, who returns to a normal situation (§13.4.5).")


# ---------------------------------------------------------------------------
# Activity: Announce An Amnesty (§13.4.6, §14.5.5)
# ---------------------------------------------------------------------------


def _amnesty_legal(state: GameState, p: int) -> bool:
    return card_or_waiver(state, p, "amnesty") and any(_pardonable(cid, c) for cid, c in state.chars.items())


@op("justice_amnesty")
def justice_amnesty(state: GameState, p: int) -> None:
    spend_card(state, p, "amnesty", "an 'Amnesty'")
    seq(state, ("amnesty_all", {}))


# ---------------------------------------------------------------------------
# §38 Clemency (optional) and ES D93
# ---------------------------------------------------------------------------


def _clemency_case(c: Character) -> bool:
    return not c.dead and (c.banished or c.imprisoned)


def _has_counselor(state: GameState, q: int) -> bool:
    """§38 Clemency: q has a Monarch's Counselor (a PC or FAC holding the card, §13.4.3) who may act
    for him: not dead or abroad, a banished one included; imprisoned or hiding in Fandonia he may
    (§15.2, ruling R18; ``court.counselor_present``)."""
    for c in state.chars.values():
        if c.owner == q and c.counselor_card is not None and counselor_present(c):
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


#: the Clemency Table's verdicts (``effects.apply_row``).
CLEMENCY_ORDER: Final = ("executed", "pardoned", "new_trial", "imprisoned", "no_effect")


@op("justice_clemency_answer")
def justice_clemency_answer(state: GameState, choice: int, cid: str, i: int) -> None:
    q = player_order(state)[i]
    if choice != YES:
        seq(state, ("justice_clemency", {"cid": cid, "i": i + 1}))
        return
    # only a request counts (a player who declined may still ask after a new trial's sentence)
    state.tstate.setdefault("clemency_asked", []).append(f"{q}:{cid}")
    r = chance.dice_sum(state, "Clemency Table (§38)")
    row = lookup(CLEMENCY, r)
    log(state, f"Player {q} asks the Monarch for clemency for {name(cid)}: rolls {r} on the Clemency Table - "
               f"{row['text']} (§38).")
    ctx = Ctx(cid=cid, params={"clemency": True, "then": ("justice_clemency", {"cid": cid, "i": i + 1})})
    seq(state, *apply_row(state, row, CLEMENCY_ORDER, ctx))


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

registry.activity("pardon", _pardon_legal, "justice_pardon")
registry.activity("amnesty", _amnesty_legal, "justice_amnesty")

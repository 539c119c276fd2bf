"""Offices, counselors and problems as the chapters share them (§6, §7, §15, §16): who holds an
office and its name, leaving an office, a counselor leaving court, the signs of a problem roll
that a counselor or a bribe may change (§15, ES §13.4.20), the name of a problem, who attends a
Court Ball.  Vocabulary: the chapters import these, never each other.
"""

from __future__ import annotations

from typing import Any, Final

from ..core import registry
from ..core.machine import log
from ..core.records import mark_restricted
from ..core.state import Character, GameState
from ..data.components import COUNTRY_NAMES, FANDONIA, OFFICES
from ..data.tables import PROBLEMS
from .queries import abroad, discard, name
from .ruleset import ruleset


def office_name(office: str) -> str:
    return OFFICES[office].name


def holder(state: GameState, office: str) -> str | None:
    """The character holding ``office``, or None when it is vacant."""
    for cid, c in state.chars.items():
        if c.office == office:
            return cid
    return None


def _bring_home(state: GameState, cid: str, country: str) -> None:
    """Reading: a former Ambassador (and his wife who went with him) returns to Fandonia
    unless he is banished/hiding there; a recalled Ambassador to a country at war is no
    longer stuck there (§7.10.4 "unless he dies or is recalled")."""
    c = state.chars[cid]
    if c.location == country and not (c.banished or c.hiding or c.dead):
        c = state.wchar(cid)
        c.location = FANDONIA
        war = f" ({ruleset(state).recalled_from_war})" if country in state.wars else ""
        log(state, f"{name(cid)} returns to Fandonia from {COUNTRY_NAMES[country]}{war}.")
        sp = state.chars[c.spouse] if c.spouse else None
        if sp is not None and not sp.is_pc and sp.location == country and not (sp.banished or sp.hiding):
            state.wchar(sp.cid).location = FANDONIA
            log(state, f"{name(c.spouse)} returns to Fandonia with her husband.")  # type: ignore[arg-type]


def vacate(state: GameState, cid: str, why: str = "", moving: bool = False) -> None:
    """The character leaves his office (discharged, recalled, or moving, §16.4, §16.5).

    An NC simply goes back to the Office Holder pile (§7.8); a PC/FAC stays in front of
    his player (§7.8, §16.1).  Never the Monarch (succession is §9)."""
    c = state.chars[cid]
    office = c.office
    if office is None or office == "monarch":
        return
    c = state.wchar(cid)
    c.office = None
    c.failed_problem = False  # §20.3 no longer a Minister
    if moving:
        verb = "leaves the office of"
    else:
        verb = "is recalled as" if OFFICES[office].country else "is discharged as"
    log(state, f"{name(cid)} {verb} {office_name(office)}{' (' + why + ')' if why else ''}; "
               "the office is vacant.")
    country = OFFICES[office].country
    if country:
        _bring_home(state, cid, country)


def vacate_step(state: GameState, cid: str) -> tuple[str, dict] | None:
    """The step that makes ``cid`` leave his office (§16.4, §24.4, §29.3, §30.4, §31.3),
    through the offices chapter's ``discharge``."""
    c = state.chars[cid]
    if c.office is None or c.office == "monarch":
        return None
    return ("discharge", {"cid": cid})


@registry.hook("nothing")
def nothing(state: GameState, *args: Any) -> None:
    """The hook of a variant that has no step at that point: the Ruleset names it where only the
    other edition, or only an optional rule, does something there (``rs.war_expulsion_hook``...)."""


def leaves_court(state: GameState, cid: str, why: str) -> None:
    """``cid`` is imprisoned, banished or goes into hiding (``why``: "imprisoned"...): the justice
    chapters call this where the situation is set.

    * §13.1, ruling R19: if he is a PC, his player may perform one activity in this game turn, also
      when the PC is back in a normal situation before that player's turn comes (the turn's
      ``restricted_<seat>`` flag, read when his Player Turn begins);
    * the Ruleset's ``counselor_leaves_court_hook`` says what becomes of his 'Monarch's Counselor'
      card: nothing in the 1981 edition (ruling R18), discarded in the errata (D27)."""
    for pl in state.players:
        if pl.pc == cid:
            mark_restricted(state.tstate, pl.idx)
    registry.HOOKS[ruleset(state).counselor_leaves_court_hook](state, cid, why)


@registry.hook("counselor_card_discarded")
def counselor_card_discarded(state: GameState, cid: str, why: str) -> None:
    """D27 (ES §13.4.3, §14.2.4, §29.3, §30.4), errata only: a Monarch's Counselor who is
    imprisoned, banished or goes into hiding loses his card (discarded)."""
    c = state.chars[cid]
    if c.counselor_card is None:
        return
    discard(state, c.counselor_card)
    state.wchar(cid).counselor_card = None
    log(state, f"{name(cid)} is {why}: his 'Monarch's Counselor' card is discarded (ES §14.2.4).")


def counselor_present(c: Character) -> bool:
    """§15.2, ruling R18: may this Monarch's Counselor act for his player (counsel the Monarch, ask
    for §38 Clemency)?  Not when dead or abroad, a banished one included; imprisoned or in hiding in
    Fandonia he still may (in the errata edition he has lost the card by then, D27)."""
    return not c.dead and c.location == FANDONIA


def has_counselor(state: GameState, p: int) -> bool:
    """p has a Monarch's Counselor: a living PC/FAC of his holds the card."""
    return any(c.owner == p and c.counselor_card is not None and not c.dead for c in state.chars.values())


@registry.hook("counselor_problem_signs")
def counselor_problem_signs(state: GameState) -> list[dict[str, Any]]:
    """§38 Additional Monarch's Counselor Powers (one of ``rs.problem_sign_hooks``): each player
    with a Monarch's Counselor may add or subtract one from every political problem roll (one
    sign per player, in player order)."""
    order = state.order or list(range(state.n))
    return [{"player": q, "amount": 1, "why": "Monarch's Counselor, §38"} for q in order if has_counselor(state, q)]


#: phases of the next game turn during which a bought modifier still counts (A27 iv)
_EARLY_PHASES: Final = ("first_player", "offices", "problems")


def bribe_signs(state: GameState, cid: str, why: str) -> list[dict[str, Any]]:
    """The sign a bribed NC Office Holder adds to a problem-resolution or counseling roll
    (``[]`` unless errata and ``cid`` accepted a bribe still valid, A27 iv); using it
    consumes it.  Called by the roll builders of problems.py and counsel.py for a NC."""
    if not ruleset(state).bribery:
        return []
    bought = state.misc.get("bribery_bought")
    if not bought or cid not in bought:
        return []
    b = bought.pop(cid)
    c = state.chars[cid]
    valid = state.turn == b["turn"] or (state.turn == b["turn"] + 1 and state.phase in _EARLY_PHASES)
    if not valid or c.owner is not None or c.office is None or c.dead:
        return []
    log(state, f"{name(cid)}, bribed by player {b['p']}, modifies this roll by +1 or -1 as player "
               f"{b['p']} wishes (ES §13.4.20).")
    return [{"player": b["p"], "amount": 1, "why": f"{why}, bribed (ES §13.4.20)"}]


def problem_name(key: str) -> str:
    return PROBLEMS[key]["name"]


def attends(state: GameState, cid: str) -> bool:
    """§8.4.4, A43: can this character attend a Court Ball?"""
    c = state.chars[cid]
    return not (c.dead or c.banned or c.banished or c.imprisoned or c.hiding or abroad(c))

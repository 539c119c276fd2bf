"""A character's situation and the justice chapters' shared steps (§23.5, §24.10, §28.6, §29.7, §30.8):
who is a wrongdoer, living abroad, extraditable (ES §25.1), back to a normal situation, a new
sentence, imprisonment, where one may be banished to, the D93 pardon (§38 Clemency).  Vocabulary:
the chapters import these, never each other.
"""

from __future__ import annotations

from typing import Any, Final

from ..core import registry
from ..core.actions import ID
from ..core.machine import log, seq
from ..core.state import Character, GameState
from ..data.components import COUNTRIES, FANDONIA, ROYALS
from .court import leaves_court, vacate_step
from .queries import abroad, name, stuck_at_war
from .ruleset import ruleset

CLAMP: Final = [2, 12]


def is_wrongdoer(c: Character) -> bool:
    """§23.5, §24.10, §29.7, §30.8."""
    return c.wrongdoer or c.banished or c.imprisoned or c.awaiting_execution or c.escaped


def spared(state: GameState, cid: str, rc_rule: str) -> bool:
    """A RC (``rc_rule``, what the rules say of him, is logged) or a dead character: no proceedings."""
    if cid in ROYALS:
        log(state, f"{name(cid)} is a RC and {rc_rule}.")
        return True
    return state.chars[cid].dead


def living_abroad(state: GameState, c: Character) -> bool:
    """ES §20.8, A30: a non-banished wrongdoer abroad who is not in hiding lives openly there."""
    return (abroad(c) and not c.hiding and not c.banished and not c.imprisoned and not c.dead
            and is_wrongdoer(c))


@registry.hook("extraditable_es")
def extraditable_es(state: GameState, cid: str, c: Character) -> bool:
    """ES §25.1 (D66): a wrongdoer, not banished, living or hiding abroad (never one hiding
    in Fandonia); ES §25.12 (D74): not in a country at war."""
    return (not c.dead and cid not in ROYALS and is_wrongdoer(c) and not c.banished and not c.imprisoned
            and abroad(c) and not stuck_at_war(state, c))


def restore(state: GameState, cid: str) -> None:
    """Return a character to a normal situation (§13.4.5, §13.4.6, §24.9, §28.6.1)."""
    c = state.wchar(cid)
    keep_hiding = c.hiding and not is_wrongdoer(c)  # an innocent in hiding stays hidden
    if c.hiding and not keep_hiding:
        c.hid_turn = state.turn
    home = c.banished and not stuck_at_war(state, c)  # a banished character comes home
    set_situation(c, FANDONIA if home else c.location)
    c.hiding = keep_hiding
    # what awaited him as a fugitive (ES §25.10, D72) and a bribe for a later hearing (ES §13.4.20):
    # forgotten (only the errata edition remembers them)
    state.misc.get("justice_fate", {}).pop(cid, None)
    state.misc.get("bribe_hearing", {}).pop(cid, None)  # no stale bribe for a later hearing


def country_ids(state: GameState, exclude: str | None = None) -> list[int]:
    """The action ids of the countries not at war with Fandonia (§7.10.1), ``exclude`` left out:
    where a character may be banished (§29.1) or escape to (§13.4.10)."""
    return [ID[f"country_{k}"] for k in COUNTRIES if k not in state.wars and k != exclude]


def card_entry(card: str, who: Any, effect: Any, **kw: Any) -> dict[str, Any]:
    """A card entry of a ``modified_roll`` spec (``rolls.py``)."""
    e = {"card": card, "who": who, "effect": effect}
    e.update(kw)
    return e


def set_situation(c, location: str = FANDONIA, *, imprisoned: bool = False,
                  awaiting_execution: bool = False, banished: bool = False, wrongdoer: bool = False) -> None:
    """Put a character in one situation, clearing every other situation marker (a new
    sentence, §28.6, or a normal situation).  ``c`` is writable: ``state.wchar(cid)``."""
    c.location = location
    c.hiding = False
    c.banished = banished
    c.imprisoned = imprisoned
    c.awaiting_execution = awaiting_execution
    c.wrongdoer = wrongdoer
    c.situation_turns = 0
    c.escaped = False
    c.pending_justice = None
    c.suicide = False


def imprison(state: GameState, cid: str, execute: bool, why: str) -> None:
    """§30.4: an imprisoned character leaves his office (the trial flows have usually vacated
    it already; e.g. an escaped prisoner living openly abroad in the errata edition has not)."""
    vac = vacate_step(state, cid)
    set_situation(state.wchar(cid), imprisoned=True, awaiting_execution=execute, wrongdoer=True)
    log(state, f"{name(cid)} is {why}.")
    leaves_court(state, cid, "imprisoned")  # §13.1 (R19); D27 (errata)
    seq(state, vac)


def d93_pardonable(state: GameState, c: Character) -> bool:
    """ES Clemency (D93, A51): with the Clemency rule in the errata edition a FARC Monarch
    may pardon any character accused of wrongdoing (any wrongdoer), on the terms of
    §36.10.4."""
    return not c.dead and is_wrongdoer(c) and ruleset(state).clemency_pardons_any_wrongdoer

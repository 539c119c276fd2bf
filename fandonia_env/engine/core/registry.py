"""Registries through which chapter modules plug into the turn sequence.

* ``ACTIVITIES``: the nineteen activities of §13.4.  Each chapter module that
  implements one registers ``Activity(key, legal, start)``: ``legal(state, p)``
  says whether player p may start it now (cards, counters, targets, IP...), and
  ``start`` is the operation run (with ``p=``) when he chooses it.  Inside an
  activity, ``state.pt["waiver"]`` is True when it is performed through an
  'Any Activity' counter (§12.3.1, ruling A42: card and counter requirements are
  waived), and the activity must then not require or consume those cards.
* ``FREE_ACTIONS``: things done during one's Player Turn that are not activities
  (§18.4 propose, §35.8 buy PP, §24.2 hide, §36 usurp...), same shape.
* ``END_OF_TURN``, ``TURN_START``: the operations run at the end of all Player Turns (executions,
  suicides, prison deaths, romance, victory) and at the start of each Player Turn,
  declared here in their order (the chapters register the operations, not their order).
* ``ACTIVITY_ORDER``, ``FREE_ACTION_ORDER``: the order in which a Player Turn's decision offers
  the activities and free actions.  Every order is declared once in this module, never the
  order in which modules happen to be imported; registering a key that is not in its table is
  an error.
* ``HOOKS``: plain functions (not operations: they return a value or schedule steps) that a
  chapter offers to another without an import between them; the ``Ruleset`` names the hook
  that applies in a game (``ruleset(state).seduction_hook``...), where the editions or an
  optional rule run a different procedure.  Register with ``@registry.hook("name")``; call
  ``registry.HOOKS[name](...)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from .actions import ID
from .state import GameState


@dataclass(frozen=True)
class Activity:
    key: str
    legal: Callable[[GameState, int], bool]
    start: str  # operation name, called with p=<player>
    aid: int = -1  # its action id (act_<key> or free_<key>)


ACTIVITIES: Final[dict[str, Activity]] = {}
FREE_ACTIONS: Final[dict[str, Activity]] = {}
HOOKS: Final[dict[str, Callable[..., Any]]] = {}

#: §12.3.1: activities an 'Any Activity' counter allows.
ANY_ACTIVITY_SET: Final[frozenset[str]] = frozenset({
    "pardon", "amnesty", "assassinate", "expose_scandal", "escape", "extradite",
    "intrigue_card", "recruit_treachery", "seduce",
})
#: §12.3.3: activities an 'Intrigue' counter allows.
INTRIGUE_SET: Final[frozenset[str]] = frozenset({"assassinate", "intrigue_card", "recruit_treachery", "seduce"})
#: §30.3: the only activities of a player whose PC is imprisoned.
IMPRISONED_SET: Final[frozenset[str]] = frozenset({"pardon", "amnesty", "escape"})


#: §13.4 / §10: the activities offered in a Player Turn's decision, in this order
ACTIVITY_ORDER: Final[tuple[str, ...]] = (
    "fill_office", "intrigue_card", "acquire_title", "become_counselor", "court_favor", "create_henchman",
    "recruit", "recruit_treachery", "seduce", "travel", "draw", "prestige", "hold_wedding", "pardon", "amnesty",
    "assassinate", "expose_scandal", "escape", "extradite", "foreign_support", "fandonian_support", "emissary")
#: the free actions of a Player Turn (not activities), in this order
FREE_ACTION_ORDER: Final[tuple[str, ...]] = (
    "buy_pp", "discard", "play_extra_activity", "royal_alignment", "buy_modifier", "propose", "suicide", "hide",
    "unhide", "usurp", "farc_pardon", "abdicate", "take_bribe", "offer_bribe")
#: operations (``{p}``) run at the start of every Player Turn, in this order: §30.10 prison deaths,
#: the Prestige Table's turn-start effects, the errata's turn start of characters abroad (ES §20.8)
TURN_START: Final[tuple[str, ...]] = ("justice_prison_deaths", "prestige_turn_start", "justice_es_turn_start")
#: operations (no arguments) run at the end of all Player Turns, in this order: §30 executions /
#: suicides / prison deaths, §18 romance sweep, §37 victory (the §35 PP limit holds after every step,
#: ruling R17: ``queries.pp_limit_watch``)
END_OF_TURN: Final[tuple[str, ...]] = ("justice_end_of_turn", "romance_sweep", "victory_check")
#: operations (``{countries}``) run when a war starts / ends (§7.10; none yet: proceedings frozen
#: by a war resume by themselves, ruling A61), in this order
WAR_START: Final[tuple[str, ...]] = ()
WAR_END: Final[tuple[str, ...]] = ()

#: what ``turn.activity_options`` walks, in registration order, made anew at each registration:
#: (key, action id, legality check, allowed by an 'Any Activity' counter, allowed to an imprisoned PC)
#: for each activity, and (action id, legality check) for each free action
ACTIVITY_ROWS: Final[list[tuple[str, int, Callable[[GameState, int], bool], bool, bool]]] = []
FREE_ACTION_ROWS: Final[list[tuple[int, Callable[[GameState, int], bool]]]] = []


def _check_key(key: str, order: tuple[str, ...], table: str) -> None:
    if key not in order:
        raise KeyError(f"{key!r} is not in registry.{table}; declare its place there")


def activity(key: str, legal: Callable[[GameState, int], bool], start: str) -> None:
    _check_key(key, ACTIVITY_ORDER, "ACTIVITY_ORDER")
    ACTIVITIES[key] = Activity(key, legal, start, ID[f"act_{key}"])
    ACTIVITY_ROWS[:] = [(a.key, a.aid, a.legal, a.key in ANY_ACTIVITY_SET, a.key in IMPRISONED_SET)
                        for a in (ACTIVITIES[k] for k in ACTIVITY_ORDER if k in ACTIVITIES)]


def free_action(key: str, legal: Callable[[GameState, int], bool], start: str) -> None:
    _check_key(key, FREE_ACTION_ORDER, "FREE_ACTION_ORDER")
    FREE_ACTIONS[key] = Activity(key, legal, start, ID[f"free_{key}"])
    FREE_ACTION_ROWS[:] = [(a.aid, a.legal) for a in (FREE_ACTIONS[k] for k in FREE_ACTION_ORDER if k in FREE_ACTIONS)]


def hook(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn`` as hook ``name`` (see ``HOOKS``); returns it unchanged."""
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        HOOKS[name] = fn
        return fn
    return deco

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
* ``END_OF_TURN``: operations run at the end of all Player Turns (executions,
  suicides, prison deaths, victory), ordered by priority.
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
END_OF_TURN: Final[list[tuple[int, str]]] = []
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


#: what ``turn.activity_options`` walks, in registration order, made anew at each registration:
#: (key, action id, legality check, allowed by an 'Any Activity' counter, allowed to an imprisoned PC)
#: for each activity, and (action id, legality check) for each free action
ACTIVITY_ROWS: Final[list[tuple[str, int, Callable[[GameState, int], bool], bool, bool]]] = []
FREE_ACTION_ROWS: Final[list[tuple[int, Callable[[GameState, int], bool]]]] = []


def activity(key: str, legal: Callable[[GameState, int], bool], start: str) -> None:
    ACTIVITIES[key] = Activity(key, legal, start, ID[f"act_{key}"])
    ACTIVITY_ROWS[:] = [(a.key, a.aid, a.legal, a.key in ANY_ACTIVITY_SET, a.key in IMPRISONED_SET)
                        for a in ACTIVITIES.values()]


def free_action(key: str, legal: Callable[[GameState, int], bool], start: str) -> None:
    FREE_ACTIONS[key] = Activity(key, legal, start, ID[f"free_{key}"])
    FREE_ACTION_ROWS[:] = [(a.aid, a.legal) for a in FREE_ACTIONS.values()]


def end_of_turn(priority: int, op_name: str) -> None:
    if (priority, op_name) not in END_OF_TURN:
        END_OF_TURN.append((priority, op_name))
        END_OF_TURN.sort()


def hook(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn`` as hook ``name`` (see ``HOOKS``); returns it unchanged."""
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        HOOKS[name] = fn
        return fn
    return deco

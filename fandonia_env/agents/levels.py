"""Difficulty levels for front ends: ``noble-level-1`` (a beginner's opponent) ... ``noble-level-6`` (the
strongest shipped noble).  Each level is measured against the one below (``LEVELS``, docs/agents.md).

Levels 1-4 are ``noble-rule-v1`` that blunders the way a weaker player does, not a random button
between good moves (``NobleLevel``):

* **it misses chances**: in its turn, each option it would consider (an activity, a free action) is
  noticed only with probability ``1 - overlook``; what it does not notice it does not play, and it
  takes the next thing it would do among what it saw (often: it ends its turn early);
* **it mistimes usurpations**: it doubts, judging its exact odds lower than they are by the size of a
  normal error (``usurp_error``, its standard deviation), so it sometimes waits while the throne is
  there to take (never higher: a rash usurper beats other rash ones, so rashness does not make a
  weaker player at every table);
* **it forgets to defend and to press**: in a card window or when a roll's modifier may be declared
  (``card_window``, ``declare_modifier``) it lets the moment pass with probability ``overlook``.

Every other decision (which character to recruit, where to travel, what to discard) it takes as
``noble-rule-v1`` does: a weaker player still makes the obvious choice once he sees one.  Level 5 is
``noble-rule-v1`` itself and level 6 ``noble-ppo-v2``.  A level sees only its seat's view (it reads the
view and the legal ids like every noble) and has its own seeded RNG.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from fandonia_env.engine.core.actions import ID
from fandonia_env.engine.face.seat import SeatView, as_seat_view

from .base import Agent, make_agent, register
from .noble_rule import PASS, NobleRuleV1, best_usurp

#: decision kinds where "doing nothing" is a real choice a weaker player falls into (letting a card
#: window or a roll's modifier pass): with probability ``overlook`` the level passes there
_PASSIVE_KINDS = frozenset({"card_window", "declare_modifier"})
_FREE_USURP = ID["free_usurp"]


@dataclass(frozen=True)
class Level:
    """One difficulty level: its id, the noble it plays as (``base``, with the blunder knobs for the
    levels built on ``noble-rule-v1``), the sentence a front end shows, and its measured strength."""

    level: int
    id: str
    base: str
    overlook: float = 0.0
    usurp_error: float = 0.0
    sentence: str = ""
    #: measured on fresh deals (docs/agents.md, "Difficulty levels"; 1,000 games in each edition, the mean
    #: of the two): the win share against the level below at 2 players and against noble-rule-v1 at 2
    #: players (None where not measured)
    vs_below_2p: float | None = None
    vs_rule_v1_2p: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "id": self.id, "sentence": self.sentence, "plays_as": self.base,
                "vs_below_2p": self.vs_below_2p, "vs_rule_v1_2p": self.vs_rule_v1_2p}


class NobleLevel(NobleRuleV1):
    """``noble-rule-v1`` with a weaker player's blunders (see the module): ``overlook`` and
    ``usurp_error``."""

    id = "noble-level"

    def __init__(self, seed: int | None = None, overlook: float = 0.0, usurp_error: float = 0.0,
                 agent_id: str = "noble-level") -> None:
        if not 0.0 <= overlook < 1.0 or usurp_error < 0.0:
            raise ValueError(f"overlook must be in [0, 1) and usurp_error >= 0; got {overlook}, {usurp_error}")
        super().__init__(seed)
        self.overlook = overlook
        self.usurp_error = usurp_error
        self.id = agent_id

    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        if len(legal) > 1 and PASS in legal and self.overlook > 0.0:
            sv = as_seat_view(view)
            d = sv.decision
            if d is not None and d.kind in _PASSIVE_KINDS and self.rng.random() < self.overlook:
                self._last_kind = d.kind
                return PASS
            return super().act(sv, legal, infoset)
        return super().act(view, legal, infoset)

    def _k_turn_main(self, view: SeatView, legal: list[int], ctx: dict[str, Any]) -> int | None:
        rng = self.rng
        seen = [a for a in legal if a == PASS or rng.random() >= self.overlook] if self.overlook > 0.0 else list(legal)
        if _FREE_USURP in seen:
            _, p = best_usurp(view)
            # a weaker player doubts: he judges his odds lower than they are (never higher: a rash
            # usurper beats other rash ones, so rashness would not make a weaker level at every table)
            judged = p - (abs(rng.gauss(0.0, self.usurp_error)) if self.usurp_error > 0.0 else 0.0)
            if judged >= self.usurp_threshold:
                return _FREE_USURP
            seen.remove(_FREE_USURP)  # judged too soon: not this turn
        return super()._k_turn_main(view, seen, ctx)


#: the six levels, weakest first (ids never change meaning: noble-level-K is always the K-th step of the ladder;
#: when a change of rules moves the ladder, the knobs are retuned to keep it, and docs/agents.md records each tuning)
LEVELS: tuple[Level, ...] = (
    Level(1, "noble-level-1", "noble-rule-v1", overlook=0.92, usurp_error=0.22, vs_rule_v1_2p=0.052,
          sentence="A beginner: notices few of its chances, ends most turns early and hesitates to strike "
                   "for the throne."),
    Level(2, "noble-level-2", "noble-rule-v1", overlook=0.81, usurp_error=0.14, vs_below_2p=0.638,
          sentence="A casual player: sees the obvious moves but misses most chances and waits too long "
                   "for the throne."),
    Level(3, "noble-level-3", "noble-rule-v1", overlook=0.69, usurp_error=0.10, vs_below_2p=0.612,
          sentence="A club player: a sound plan, but it overlooks many chances and sometimes waits too "
                   "long to strike."),
    Level(4, "noble-level-4", "noble-rule-v1", overlook=0.52, usurp_error=0.08, vs_below_2p=0.582,
          sentence="A good player: misses a chance now and then and is a little slow to strike for the "
                   "throne."),
    Level(5, "noble-level-5", "noble-rule-v1", vs_below_2p=0.573,
          sentence="A strong player: the scripted noble-rule-v1, who never misses a chance it knows of "
                   "and usurps at exact odds of 60 %."),
    Level(6, "noble-level-6", "noble-ppo-v2", vs_below_2p=0.624, vs_rule_v1_2p=0.624,
          sentence="The strongest noble: the trained noble-ppo-v2."),
)
LEVEL_BY_ID: dict[str, Level] = {lv.id: lv for lv in LEVELS}


def make_level(level_id: str, seed: int | None = None) -> Agent:
    """The noble of ``level_id`` (``noble-level-1`` ... ``noble-level-6``)."""
    lv = LEVEL_BY_ID.get(level_id)
    if lv is None:
        raise ValueError(f"unknown level {level_id!r}; levels: {sorted(LEVEL_BY_ID)}")
    if lv.overlook or lv.usurp_error:
        return NobleLevel(seed, overlook=lv.overlook, usurp_error=lv.usurp_error, agent_id=lv.id)
    return make_agent(lv.base, seed=seed)  # levels 5 and 6: the noble itself


for _lv in LEVELS:
    register(_lv.id, functools.partial(make_level, _lv.id))
del _lv

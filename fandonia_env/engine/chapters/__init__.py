"""Imports every chapter module so that their operations and activities register.

One module per rules chapter group:

* ``turn``        §3 setup, §4 sequence, §5 first player, §10-§12 Player Turn, draws, counters
* ``rolls``       §2.3/§14.1 modifier declarations and card-play windows before rolls
* ``offices``     §6 Office Phase, §16 office holders
* ``problems``    §7 political problems, foreign wars, pirates; §32-§33 Monarch's Support, crisis
* ``crown``       §8 Crown Events incl. Court Ball; §9 succession
* ``activities``  §13 activities (titles, offices, counselors, favor, henchmen, recruiting,
                  treachery, seduction, travel, drawing); §17 henchmen; §20 abroad
* ``prestige``    §13.4.17 Prestige Tables
* ``counsel``     §15 counseling
* ``romance``     §18 romance and marriage, §19 duels
* ``wrongdoing``  §23 wrongdoing, who is a wrongdoer (what the justice chapters share)
* ``trials``      §26 hearings, §27 interrogation, §28 trials, §29 banishment, §30 imprisonment
* ``clemency``    §13.4.5 pardon, §13.4.6 amnesty, §38 Clemency
* ``assassination`` §21 assassination, §22 scandal
* ``hiding``      §24 hiding, §25 extradition, §13.4.10 escape
* ``death``       §31 death, succession of a PC, mourning
* ``usurpation``  §34-§35 IP/PP limits, §36 usurpation, §37 victory
* ``bribery``, ``opt_activities``, ``romantic_intrigue``: ES §13.4.20 bribery, §38 optional
                  activities, ES §13.4.15 seduction / §38 Romantic Intrigue / ES Matrimonio

§14's Event cards played outside roll windows have no chapter of their own: Pardon and Amnesty
are activities of ``clemency``, Escape and Extradition of ``hiding``, Intrigue of ``crown``, Royal
Alignment and Extra Activity free actions of ``activities``; cards in roll windows are ``rolls``'.
The steps several chapters share live below them, in ``situation``, ``court``, ``turn_steps`` and
``marriage`` (issue 29): no chapter imports another.
"""

from __future__ import annotations

from typing import Final

# the order in which the chapters register their operations is kept (the orders that matter in
# play are declared in ``core.registry``, not here)
# isort: off
from ..rules import rolls  # noqa: F401  (roll windows' operations registered)
from . import (  # noqa: F401  (imported for their registrations)
    turn,
    offices,
    problems,
    crown,
    activities,
    prestige,
    counsel,
    romance,
    wrongdoing,
    trials,
    clemency,
    assassination,
    hiding,
    death,
    usurpation,
    bribery,
    opt_activities,
    romantic_intrigue,
)
# isort: on

#: the chapter modules, in import order (after ``rolls`` and ``turn``)
CHAPTERS: Final = (
    "offices", "problems", "crown", "activities", "prestige", "counsel",
    "romance", "wrongdoing", "trials", "clemency", "assassination", "hiding",  # issue 12: justice split
    "death", "usurpation",
    "bribery", "opt_activities",  # issue 5: ES §13.4.20 bribery (errata), §38 optional activities
    "romantic_intrigue",  # issue 5: ES §13.4.15 seduction, §38 Romantic Intrigue, ES Matrimonio
)

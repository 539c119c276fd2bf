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
* ``cards``       §14 Event cards played outside windows (pardon, amnesty, escape, extradition,
                  intrigue), Royal Alignment
* ``counsel``     §15 counseling
* ``romance``     §18 romance and marriage, §19 duels
* ``justice``     §21 assassination, §22 scandal, §23-§31 wrongdoing to execution and death
* ``usurpation``  §34-§35 IP/PP limits, §36 usurpation, §37 victory
"""

from __future__ import annotations

import importlib

from . import rolls, turn  # noqa: F401

CHAPTERS = (
    "offices", "problems", "crown", "activities", "prestige", "cards", "counsel",
    "romance", "justice", "death", "usurpation",
    "bribery", "opt_activities",  # issue 5: ES §13.4.20 bribery (errata), §38 optional activities
    "romantic_intrigue",  # issue 5: ES §13.4.15 seduction, §38 Romantic Intrigue, ES Matrimonio
)

for _m in CHAPTERS:
    try:
        importlib.import_module(f"{__package__}.{_m}")
    except ModuleNotFoundError as e:  # pragma: no cover - only while a chapter is being written
        if e.name != f"{__package__}.{_m}":
            raise

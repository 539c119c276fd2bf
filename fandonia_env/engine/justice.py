"""Compatibility module: the justice chapter (§21-§30) is split by rule chapter (issue 12).

* ``wrongdoing``     §23 wrongdoing; who is a wrongdoer; what the justice chapters share
* ``trials``         §26 hearings, §27 interrogation, §28 trials, §29 banishment, §30 imprisonment
* ``hiding``         §24 hiding, §25 extradition (errata ES §25, ES §20.8), Escape (§13.4.10)
* ``assassination``  §21 assassination, §22 scandal
* ``clemency``       Pardon (§13.4.5), Amnesty (§13.4.6), §38 Clemency (ES D93)

Importing this module imports the five (so every justice operation is registered) and gives the
public names that used to be imported from here.  The engine imports the chapter modules directly;
``rules.py`` loads them.  Operation names are unchanged.
"""

from __future__ import annotations

from . import assassination, clemency, hiding, trials, wrongdoing  # noqa: F401  (their registrations)
from .clemency import d93_pardonable
from .wrongdoing import extraditable_es, is_wrongdoer, living_abroad, restore

__all__ = ["is_wrongdoer", "restore", "living_abroad", "extraditable_es", "d93_pardonable"]

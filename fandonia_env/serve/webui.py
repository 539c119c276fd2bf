"""The browser pages (play, spectate, replay) and the public endpoints they need beyond the game API.

* ``/ui/`` the static pages (``fandonia_env/serve/static``: plain HTML/CSS/JS, no build step); ``/`` redirects
  there.
* ``GET /meta``: the game's fixed public data - names of characters, offices, cards, counters, problems,
  tables and counsels, the order of succession, the title ladders, the rules presets, the agents this
  server may seat and its difficulty levels (``levels``: id, sentence, measured strength) - so that a front
  end can write readable labels. Nothing in it depends on a game.
* ``GET /help``: plain explanations of the cards, counters, offices, titles and terms (``wording.HELP``), for
  people learning the game; nothing in it depends on a game.
* ``POST /replays`` and ``GET /replays/{id}/frames/{i}``: open a finished or saved game and step through it
  (``replays.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from fandonia_env import words as wording
from fandonia_env.agents.levels import LEVELS
from fandonia_env.engine import OPTIONAL_RULES, preset_names
from fandonia_env.engine.core.actions import COUNSEL_TABLES, PRESTIGE_TABLES, PROBLEMS
from fandonia_env.engine.data import components as C
from fandonia_env.engine.data.tables import COUNSELING_TABLES

from .replays import ReplayStore
from .workers import Manager, encode

STATIC = Path(__file__).resolve().parent / "static"


def meta(manager: Manager) -> dict[str, Any]:
    chars: dict[str, Any] = {}
    for cid, n in C.NOBLES.items():
        chars[cid] = {"name": n.name, "royal": False, "female": n.female, "title": n.title,
                      "title_errata": C.ERRATA_TITLE.get(cid, n.title), "status": n.status,
                      "status_errata": C.ERRATA_STATUS.get(cid, n.status)}
    for cid, r in C.ROYALS.items():
        chars[cid] = {"name": r.name, "royal": True, "female": r.female, "title": "", "title_errata": "",
                      "status": r.status, "status_errata": C.ERRATA_STATUS.get(cid, r.status)}
    counsels = {t: {"name": COUNSELING_TABLES[t]["name"],
                    "counsels": [f"{c['text']}: {c['effect_text']}" for c in COUNSELING_TABLES[t]["counsels"]]}
                for t in COUNSEL_TABLES}
    return {
        "characters": chars,
        "succession": list(C.SUCCESSION),
        "offices": {k: o.name for k, o in C.OFFICES.items()},
        "cards": {k: t.name for k, t in C.CARD_TYPES.items()},
        "opportunities": {k: v[0] for k, v in C.OPPORTUNITY_TYPES.items()},
        "countries": dict(C.COUNTRY_NAMES),
        "problems": {k: COUNSELING_TABLES[k]["name"] for k in PROBLEMS},
        "prestige_tables": list(PRESTIGE_TABLES),
        "counsel_tables": counsels,
        "titles": {k: v for k, v in C.TITLE_NAMES.items() if k},
        "title_ladders": {"male": list(C.MALE_TITLES), "female": list(C.FEMALE_TITLES),
                          "female_errata": list(C.ERRATA_FEMALE_TITLES)},
        "presets": preset_names(),
        "optional_rules": sorted(OPTIONAL_RULES),
        "agents": sorted(manager.allowed_agents),
        # the difficulty levels this server offers, weakest first, with the sentence a page shows and
        # their measured strength (fandonia_env.agents.levels, docs/agents.md)
        "levels": [lv.to_json() for lv in LEVELS if lv.id in manager.allowed_agents],
    }


def add_ui(app: FastAPI, manager: Manager) -> None:
    """Put what ``/meta``, ``/help`` and ``/replays`` serve on ``app.state`` (their routes are in
    ``routes/meta.py`` and ``routes/replays.py``) and mount the pages at ``/ui``."""
    app.state.replays = ReplayStore(manager.allowed_agents)
    app.state.meta_body = encode(meta(manager))
    app.state.help_body = encode(wording.HELP)
    app.mount("/ui", StaticFiles(directory=str(STATIC), html=True), name="ui")

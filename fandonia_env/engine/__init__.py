"""The rules engine of Down With The King (Avalon Hill, 1981): pure Python, optionally compiled
with mypyc (``python -m fandonia_env.compile``; ``COMPILED`` says which one runs, and the
environment variable ``FANDONIA_ENGINE=pure|compiled`` picks one).

**The engine's public surface** (issue 41; ``docs/engine.md``, "The public surface") is declared
here, in one place, and ``tests/test_structure.py`` holds every module above the engine to it:

* the names of ``__all__`` below, imported from ``fandonia_env.engine``: the face (``Game``,
  ``make_config``, ``player_view``, ``SeatView``, ``Decision``, ``InfoSet``, ``seat_information``...),
  the errors, the option and preset names a front end offers;
* the modules of ``PUBLIC_MODULES``, imported by their own names: the whole face package
  (``engine.face.*``), the action catalogue (``engine.core.actions``), the data tables
  (``engine.data``), the rule queries agents may ask (``engine.rules.rule_queries``, which also
  answers the state-wide ``status``/``statuses``/``faction``/``pp_totals``), the option names
  (``engine.core.options``), the decision contexts' documentation (``engine.core.records``) and the
  compiled switch (``engine.core.compiled``).

Everything else (``core.machine``, ``core.state``, ``core.rng``, ``rules.queries``, the chapters...)
is the engine's inside.  A type needed for hints only (``GameState``) is imported from here under
``if TYPE_CHECKING``.
"""

from .core.compiled import choose as _choose

#: True when the engine's modules run as mypyc-compiled C extensions (``compiled.choose``)
COMPILED = _choose()

from .core.actions import CATALOGUE, ID, NAME, NUM_ACTIONS, describe  # noqa: E402 - after the choice
from .core.machine import EngineError, IllegalActionError  # noqa: E402 - after the choice
from .core.options import EDITIONS, OPTIONAL_RULES, preset_names  # noqa: E402 - after the choice
from .core.state import GameState, StateError  # noqa: E402 - after the choice
from .face.game import ConfigError, Game, make_config  # noqa: E402 - after the choice
from .face.hidden import InfoSet, resample, reseed, seat_information  # noqa: E402 - after the choice
from .face.seat import (  # noqa: E402 - after the choice
    CHAR_VIEW_FIELDS,
    Decision,
    SeatPlayer,
    SeatView,
    as_seat_view,
    decision_of,
    player_view,
)

#: the engine modules above-engine code may import by name (besides ``fandonia_env.engine`` itself);
#: an entry ending in ``.*`` stands for the package and every module under it
PUBLIC_MODULES: tuple[str, ...] = (
    "fandonia_env.engine.face.*",
    "fandonia_env.engine.core.actions",
    "fandonia_env.engine.data.*",
    "fandonia_env.engine.rules.rule_queries",
    "fandonia_env.engine.core.options",
    "fandonia_env.engine.core.records",
    "fandonia_env.engine.core.compiled",
)

__all__ = [
    "CATALOGUE", "CHAR_VIEW_FIELDS", "COMPILED", "ConfigError", "Decision", "EDITIONS", "EngineError", "Game",
    "GameState", "ID", "IllegalActionError", "InfoSet", "NAME", "NUM_ACTIONS", "OPTIONAL_RULES", "PUBLIC_MODULES",
    "SeatPlayer", "SeatView", "StateError", "as_seat_view", "decision_of", "describe", "make_config", "player_view", "preset_names",
    "resample", "reseed", "seat_information",
]

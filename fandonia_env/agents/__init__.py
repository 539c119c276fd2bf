"""Computer nobles.  Every agent sees only its own player's view (``engine.player_view``) and
the legal action ids, and has its own RNG.

    >>> from agents import make_agent
    >>> bot = make_agent("random-v1", seed=3)
    >>> action = bot.act(game.view(p, log=False), game.legal_actions())

Registered ids never change meaning; a changed strategy gets a new version.
"""

from __future__ import annotations

from .base import AGENTS, Agent, check_agent, make_agent, register, register_prefix
from .ismcts import NobleISMCTSV1
from .ismcts_v2 import NobleISMCTSV2
from .ismcts_v3 import NobleISMCTSV3
from .levels import LEVELS, NobleLevel
from .noble_rule import NobleRuleV1, NobleRuleV2
from .openspiel_bot import OPENSPIEL_PREFIX
from .openspiel_bot import from_spec as _openspiel_from_spec
from .ppo_agent import PPOAgent
from .random_agent import RandomAgent
from .search_noble import SEARCH_PREFIX, SearchAgent
from .search_noble import from_spec as _search_from_spec

register_prefix(SEARCH_PREFIX, _search_from_spec)  # search:PATH?knob=value (docs/agents.md)
register_prefix(OPENSPIEL_PREFIX, _openspiel_from_spec)  # openspiel:ismcts?knob=value (docs/openspiel.md)

__all__ = ["AGENTS", "LEVELS", "Agent", "NobleLevel", "NobleISMCTSV1", "NobleISMCTSV2", "NobleISMCTSV3", "NobleRuleV1", "NobleRuleV2", "PPOAgent", "RandomAgent", "SearchAgent", "check_agent", "make_agent", "register"]

"""PettingZoo AEC environment ``fandonia_v1``: ``fandonia_v0`` with observation v1.

Everything but the observation is ``fandonia_v0``'s (agents, turn order, actions, masks,
rewards, ``max_turns`` truncation, rendering, configuration keywords).  The observation is
version 1 (``fandonia_env.spaces.observation_v1``, ``docs/observation_v1.md``): the player's
whole information state, unclipped, in a structured layout (character rows, seat rows,
globals) with static maps from action ids to the character/seat/card type they name::

    {"observation": Box(-inf, inf, (OBS_V1_SIZE,), float32),   # split_v1(obs) -> blocks
     "action_mask": Box(0, 1, (NUM_ACTIONS,), int8)}          # all zeros unless deciding

Registered as ``pettingzoo.make("aec", "fandonia/Fandonia-v1", players=4)``.

Version History
---------------
* v1 (0.3.0): observation v1 (support cards in front by type, spouses, every field of the
  decision context and of the Player Turn bookkeeping, no clipping, structured layout,
  action-to-entity maps).  Actions, rewards and game play are v0's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.core.actions import NUM_ACTIONS
from ..spaces.observation_v1 import OBS_V1_SIZE, encode_v1
from . import fandonia_v0
from .fandonia_v0 import action_to_string, string_to_action

__all__ = ["env", "raw_env", "action_to_string", "string_to_action", "metadata", "observation_space_v1"]

metadata = {**fandonia_v0.metadata, "name": "fandonia_v1"}


def observation_space_v1() -> spaces.Dict:
    """The observation space of every agent (the same for every seat and player count)."""
    return spaces.Dict({
        "observation": spaces.Box(-np.inf, np.inf, (OBS_V1_SIZE,), np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
    })


def env(**kwargs: Any) -> AECEnv:
    """The environment with v0's order-enforcing wrapper (calls before ``reset()`` raise RuntimeError)."""
    return fandonia_v0.OrderEnforcing(raw_env(**kwargs))


class raw_env(fandonia_v0.raw_env):
    """``fandonia_v0.raw_env`` with observation v1 (same constructor keywords)."""

    metadata = metadata

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        space = observation_space_v1()
        self.observation_spaces = {a: space for a in self.possible_agents}

    _encode = staticmethod(encode_v1)


fandonia_v0.register_pettingzoo("v1")

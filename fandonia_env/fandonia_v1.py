"""PettingZoo AEC environment ``fandonia_v1``: ``fandonia_v0`` with observation v1.

The code lives in ``fandonia_env.envs.fandonia_v1``; this module keeps the old import path.
"""

from .envs.fandonia_v1 import action_to_string, env, metadata, observation_space_v1, raw_env, string_to_action

__all__ = ["action_to_string", "env", "metadata", "observation_space_v1", "raw_env", "string_to_action"]

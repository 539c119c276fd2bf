"""What the two environments (``fandonia_v0`` and ``FandoniaGymEnv``) share: action checking, the illegal-move modes and ``reset(options=...)`` parsing.

The code lives in ``fandonia_env.envs.common``; this module keeps the old import path.
"""

from .envs.common import (
    DEFAULT_MAX_TURNS,
    ILLEGAL_MODES,
    InvalidActionError,
    check_action,
    check_illegal_mode,
    parse_reset_options,
    warn_illegal_move,
)

__all__ = [
    "DEFAULT_MAX_TURNS", "ILLEGAL_MODES", "InvalidActionError", "check_action", "check_illegal_mode",
    "parse_reset_options", "warn_illegal_move",
]

"""What the two environments (``fandonia_v0`` and ``FandoniaGymEnv``) share: action checking,
the illegal-move modes and ``reset(options=...)`` parsing.

* :func:`check_action` is the one place where an env action is checked.  A *malformed* action
  (not a Python ``int`` or a numpy integer, or an id outside ``0..NUM_ACTIONS-1``) always raises
  :class:`InvalidActionError`, whatever the illegal-move mode; the state is untouched.
* An in-range id that is not legal now is an *illegal move*, handled by the env's ``illegal=``
  mode (:data:`ILLEGAL_MODES`): ``"terminate"`` (PettingZoo's classic-env convention: the game
  ends, the offender gets -1, the others 0, and PettingZoo's illegal-move warning is logged),
  ``"raise"`` (the engine's ``IllegalActionError``, state untouched) or, in the Gym env only,
  ``"penalize"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..engine import Game, IllegalActionError
from ..engine.core.actions import NUM_ACTIONS

__all__ = ["DEFAULT_MAX_TURNS", "ILLEGAL_MODES", "InvalidActionError", "check_action", "check_illegal_mode", "parse_reset_options",
           "warn_illegal_move"]

ILLEGAL_MODES = ("terminate", "raise", "penalize")

#: The turn limit (ruling R11: the game ends *truncated*) that the envs, the tournament, the demo,
#: the soak and the training configs use unless told otherwise -- stated once, here.  60 game
#: turns: 4-player games between the scripted nobles end by a win in ~20 turns (docs/training.md);
#: the engine itself has no limit unless ``max_turns`` is given (``0`` on the command lines).
DEFAULT_MAX_TURNS = 60


class InvalidActionError(IllegalActionError, TypeError):
    """A malformed env action: not an int action id, or an id outside the action space.

    A subclass of the engine's ``IllegalActionError`` (so of ``ValueError``) and of ``TypeError``;
    raised whatever the env's ``illegal=`` mode, with the state untouched."""


def check_illegal_mode(value: Any, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed`` illegal-move modes, else a ValueError naming them."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"illegal must be one of {list(allowed)}, got {value!r}")
    return value


def check_action(action: Any, legal: Iterable[int], *, who: str) -> int:
    """The action id as a Python int, or :class:`InvalidActionError` if it is malformed.

    Well-formed: a Python ``int`` (not ``bool``), a numpy integer scalar, or a 0-d numpy integer
    array (what ``model.predict`` returns for one observation), within ``0..NUM_ACTIONS-1``.
    Whether the id is *legal now* is the caller's business (``legal`` is only quoted)."""
    if type(action) is int and 0 <= action < NUM_ACTIONS:
        return action
    legal = [int(x) for x in legal]
    space = f"the action space is Discrete({NUM_ACTIONS}), ids 0..{NUM_ACTIONS - 1}"
    if isinstance(action, np.ndarray) and action.ndim == 0 and np.issubdtype(action.dtype, np.integer):
        action = action[()]
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise InvalidActionError(
            f"{who}: an action must be an int action id (a Python int or a numpy integer), got "
            f"{type(action).__name__} {action!r}; legal ids now: {legal} ({space})", legal=legal)
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise InvalidActionError(
            f"{who}: action id {a} is outside {space}; legal ids now: {legal}", legal=legal)
    return a


def warn_illegal_move() -> None:
    """Log the warning PettingZoo's classic envs log on an illegal move (``TerminateIllegalWrapper``)."""
    from pettingzoo.utils.env_logger import EnvLogger

    EnvLogger.warn_on_illegal_move()


def parse_reset_options(options: Any, extra_keys: Sequence[str] = ()) -> Game | None:
    """The saved position of ``reset(options={"position": ...})`` loaded as a Game, or None.

    ``position`` is what ``Game.to_json()`` returns, as a dict or its JSON string, loaded with
    ``Game.from_json`` (a damaged save raises ``StateError``).  Keys other than ``position`` and
    ``extra_keys`` (accepted and ignored) are rejected with the list of allowed ones."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise ValueError(f"reset options must be a dict or None, got {type(options).__name__} {options!r}")
    unknown = set(options) - {"position"} - set(extra_keys)
    if unknown:
        raise ValueError(f"unknown reset option(s) {sorted(map(str, unknown))}; allowed: ['position']")
    if "position" not in options or options["position"] is None:
        return None
    pos = options["position"]
    if not isinstance(pos, (dict, str)):
        raise ValueError("reset option 'position' must be a saved game as returned by Game.to_json() "
                         f"(a dict or its JSON string), got {type(pos).__name__}")
    game = Game.from_json(pos)
    if game.over:
        raise ValueError(f"reset option 'position' is a finished game (result {game.result!r}): "
                         "there is nothing left to play")
    if game.current_player() is None:
        raise ValueError("reset option 'position' has no pending decision: save games with Game.to_json()")
    return game

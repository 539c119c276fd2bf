"""The engine's exceptions, in one module that is never compiled.

The modules that raise them re-export them (``state.StateError``, ``machine.IllegalActionError``
...), so both import paths name the same class.  This module stays plain Python when the engine is
compiled with mypyc (``python -m fandonia_env.compile``): mypyc cannot make a native class of a
``RuntimeError`` or ``AssertionError`` subclass, and a plain class here is the same class in both
builds (``docs/engine.md``, "The compiled engine")."""

from __future__ import annotations

from typing import Any


class StateError(ValueError):
    """A saved game document is malformed; the message names the field."""


class EngineError(RuntimeError):
    """An internal inconsistency (a bug in the engine, never the player's fault)."""


class IllegalActionError(ValueError):
    """An action that is not among the pending decision's legal options."""

    def __init__(self, message: str, *, player: int | None = None, kind: str | None = None,
                 legal: list[int] | None = None) -> None:
        super().__init__(message)
        self.player = player
        self.kind = kind
        self.legal = legal or []


class ChanceNeeded(Exception):  # noqa: N818 - a signal, not an error
    """Raised by ``chance_outcome`` when a draw of an explicit-mode step has no chosen outcome yet;
    the machine catches it and stops at a chance node.  ``request``: ``{"kind", "why", "outcomes"}``."""

    def __init__(self, request: dict[str, Any]) -> None:
        super().__init__(request["why"])
        self.request = request


class ChanceError(ValueError):
    """A scripted outcome that the draw cannot give."""


class ConfigError(ValueError):
    """An impossible game configuration; the message names the field and what is allowed."""


class InvariantError(AssertionError):
    """A broken invariant; the message names the field, the bad value and what is allowed."""

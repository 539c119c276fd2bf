"""The agent interface and registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Agent:
    """A computer noble: ``act(view, legal) -> action id``.

    ``view`` is the engine's ``player_view`` of the agent's own player (never the full state);
    ``legal`` the legal action ids of the pending decision.  ``reset(seed)`` starts a new game.
    """

    id: str = "agent"

    def reset(self, seed: int | None = None) -> None:  # pragma: no cover - default
        pass

    def act(self, view: dict[str, Any], legal: list[int]) -> int:  # pragma: no cover - abstract
        raise NotImplementedError


AGENTS: dict[str, Callable[..., Agent]] = {}


def register(agent_id: str, factory: Callable[..., Agent]) -> None:
    if agent_id in AGENTS:
        raise ValueError(f"agent id {agent_id!r} is already registered")
    AGENTS[agent_id] = factory


def make_agent(agent_id: str, seed: int | None = None, **kw: Any) -> Agent:
    try:
        factory = AGENTS[agent_id]
    except KeyError:
        raise ValueError(f"unknown agent {agent_id!r}; registered: {sorted(AGENTS)}") from None
    return factory(seed=seed, **kw)

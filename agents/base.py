"""The agent interface and registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Agent:
    """A computer noble: ``act(view, legal, infoset=None) -> action id``.

    ``view`` is the engine's ``player_view`` of the agent's own player (never the full state);
    ``legal`` the legal action ids of the pending decision; ``infoset`` an
    ``engine.hidden.InfoSet`` that search agents use to sample determinisations consistent
    with the view (it never exposes the true hidden state).  ``reset(seed)`` starts a game.
    """

    id: str = "agent"

    def reset(self, seed: int | None = None) -> None:  # pragma: no cover - default
        pass

    def act(self, view: dict[str, Any], legal: list[int], infoset: Any = None) -> int:  # pragma: no cover
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

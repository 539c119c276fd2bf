"""The agent interface and registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fandonia_env.engine.face.seat import SeatView


class Agent:
    """A computer noble: ``act(view, legal, infoset=None) -> action id``.

    ``view`` is what the agent's own player may know (never the full state): a ``SeatView``
    (``engine.face.seat``: of the live game, or read from a ``player_view`` document that came over
    the wire) or the ``player_view`` document itself, and an agent decides the same from any of them;
    ``legal`` the legal action ids of the pending decision; ``infoset`` an
    ``engine.hidden.InfoSet`` that search agents use to sample determinisations consistent
    with the view (it never exposes the true hidden state).  ``reset(seed)`` starts a game.
    """

    id: str = "agent"

    def reset(self, seed: int | None = None) -> None:  # pragma: no cover - default
        pass

    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:  # pragma: no cover
        raise NotImplementedError


def view_document(view: SeatView | dict[str, Any]) -> dict[str, Any]:
    """The ``player_view`` document of an agent's view (the nobles that read the document)."""
    return view.to_json() if isinstance(view, SeatView) else view


AGENTS: dict[str, Callable[..., Agent]] = {}


def register(agent_id: str, factory: Callable[..., Agent]) -> None:
    if agent_id in AGENTS:
        raise ValueError(f"agent id {agent_id!r} is already registered")
    AGENTS[agent_id] = factory


#: ``ppo:PATH`` names a trained policy file (``.npz`` export or ``.pt`` checkpoint) instead of an id
PPO_PREFIX = "ppo:"

#: prefix -> factory(spec, seed=..., **kw) for agent specs that name a file (``ppo:PATH``); each
#: registered by the module that builds such agents (``ppo_agent``), so this module imports none
PREFIXES: dict[str, Callable[..., Agent]] = {}


def register_prefix(prefix: str, factory: Callable[..., Agent]) -> None:
    """Agent ids starting with ``prefix`` are built by ``factory(spec, seed=..., **kw)``.  By default the
    rest of the id names a policy file (``ppo:PATH``, ``search:PATH?knob=value``), which ``check_agent``
    looks for; a factory with a ``check_spec(spec)`` attribute checks its ids itself (``openspiel:...``)."""
    if prefix in PREFIXES:
        raise ValueError(f"agent prefix {prefix!r} is already registered")
    PREFIXES[prefix] = factory


def check_agent(agent_id: str) -> None:
    """Raise ValueError unless ``agent_id`` is a registered id, a ``ppo:PATH`` of an existing file, or an id
    that its prefix's ``check_spec`` accepts."""
    if agent_id in AGENTS:
        return
    if isinstance(agent_id, str):
        for prefix, factory in PREFIXES.items():
            if agent_id.startswith(prefix):
                check = getattr(factory, "check_spec", None)
                if check is not None:  # a prefix whose ids name no file (openspiel:ismcts?...)
                    check(agent_id)
                    return
                import os

                path = agent_id[len(prefix):].split("?", 1)[0]  # search:PATH?knob=value
                if path and not os.path.isfile(path):
                    raise ValueError(f"agent {agent_id!r}: no policy file {path!r}")
                if not path and prefix == PPO_PREFIX:
                    raise ValueError(f"agent {agent_id!r}: ppo: needs the path of a policy file")
                return
    files = [p + "PATH" for p in sorted(PREFIXES) if not hasattr(PREFIXES[p], "check_spec")] or ["ppo:PATH"]
    specs = [p + "..." for p in sorted(PREFIXES) if hasattr(PREFIXES[p], "check_spec")]
    raise ValueError(f"unknown agent {agent_id!r}; registered: {sorted(AGENTS)} (or {' / '.join(files)} to a "
                     f"policy file{''.join(', or ' + s for s in specs)})")


def make_agent(agent_id: str, seed: int | None = None, **kw: Any) -> Agent:
    if isinstance(agent_id, str):
        for prefix, build in PREFIXES.items():
            if agent_id.startswith(prefix):
                return build(agent_id, seed=seed, **kw)
    try:
        factory = AGENTS[agent_id]
    except KeyError:
        raise ValueError(f"unknown agent {agent_id!r}; registered: {sorted(AGENTS)} "
                         "(or ppo:PATH to a policy file)") from None
    return factory(seed=seed, **kw)

"""The server's routes, one ``APIRouter`` a resource; ``create_app`` includes them in this order:

* ``meta``: ``GET /health``, ``GET /`` (to the pages), ``GET /meta``, ``GET /help``;
* ``games``: ``POST /games``, ``GET /games``, ``GET /games/{id}``, ``.../public``, ``.../replay``;
* ``seats``: ``GET /games/{id}/seats/{seat}``, ``POST .../act``;
* ``live``: the WebSocket ``/games/{id}/ws``;
* ``replays``: ``POST /replays``, ``GET /replays/{id}``, ``GET /replays/{id}/frames/{i}``;
* ``advice``: ``GET /games/{id}/seats/{seat}/advice``, ``GET /replays/{id}/frames/{i}/advice`` (issue 43).

The handlers are module-level functions; the app's shared objects (the ``Manager`` with its store and
limits, the ``ReplayStore``, the fixed ``/meta`` and ``/help`` bodies) are on ``app.state``, reached
through the dependencies of ``common``.
"""

from . import advice, games, live, meta, replays, seats

ROUTERS = (meta.router, games.router, seats.router, live.router, replays.router, advice.router)

__all__ = ["ROUTERS"]

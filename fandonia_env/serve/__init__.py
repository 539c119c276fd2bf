"""The game server: ``python -m fandonia_env.serve`` (HTTP + WebSocket, durable games).

See ``docs/server.md``.  ``create_app(db_path, limits)`` builds the FastAPI application."""

from fandonia_env.tools.cli import require_extra

require_extra("serve", "fandonia_env.serve")  # before anything imports FastAPI (one line and exit 2 without it)

from .app import create_app  # noqa: E402
from .workers import Limits  # noqa: E402

__all__ = ["Limits", "create_app"]

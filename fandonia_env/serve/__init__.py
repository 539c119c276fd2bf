"""The game server: ``python -m fandonia_env.serve`` (HTTP + WebSocket, durable games).

See ``docs/server.md``.  ``create_app(db_path, limits)`` builds the FastAPI application."""

from .app import create_app
from .workers import Limits

__all__ = ["Limits", "create_app"]

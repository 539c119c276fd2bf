"""The HTTP + WebSocket API (FastAPI).  ``create_app(db_path, limits)`` builds it; see docs/server.md.

The routes are module-level handlers in ``routes/`` (one ``APIRouter`` a resource); this module holds the
app: its shared objects on ``app.state``, the body limit, and the JSON error responses."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .models import ApiError
from .routes import ROUTERS
from .routes.common import VERSION
from .store import Store
from .workers import Limits, Manager

__all__ = ["VERSION", "BodyLimit", "create_app"]


def _error(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail, **extra}, status_code=status)


class BodyLimit:
    """Reads a request's whole body before the app sees it: over ``limit`` bytes it is refused with 413,
    and one that takes longer than ``timeout`` seconds to arrive with 408 ``body_timeout`` (the connection
    is closed, so a slowly sent body holds no connection open for long)."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for k, v in scope.get("headers", []):
            if k == b"content-length":
                try:
                    n = int(v)
                except ValueError:
                    n = -1
                if n < 0 or n > self.limit:
                    await _error(413 if n > self.limit else 400, "body_too_large" if n > self.limit else "bad_length",
                                 f"request body over the limit of {self.limit} bytes" if n > self.limit
                                 else "bad Content-Length header")(scope, receive, send)
                    return
        chunks, size, more = [], 0, True
        deadline = asyncio.get_running_loop().time() + self.timeout
        while more:
            left = deadline - asyncio.get_running_loop().time()
            try:
                if left <= 0:
                    raise TimeoutError
                msg = await asyncio.wait_for(receive(), timeout=left)
            except TimeoutError:
                resp = _error(408, "body_timeout", f"the request body did not arrive within {self.timeout:g} s "
                                                   "of its headers; the connection is closed")
                resp.headers["connection"] = "close"
                await resp(scope, receive, send)
                return
            if msg["type"] == "http.disconnect":
                return
            body = msg.get("body", b"")
            size += len(body)
            if size > self.limit:
                await _error(413, "body_too_large", f"request body over the limit of {self.limit} bytes")(
                    scope, receive, send)
                return
            chunks.append(body)
            more = msg.get("more_body", False)
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return _error(exc.status, exc.code, exc.detail, **exc.extra)


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errs = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errs):
        return _error(400, "malformed_json", "the request body is not valid JSON")
    parts = []
    for e in errs[:10]:
        where = ".".join(str(x) for x in e.get("loc", ()))
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return _error(422, "invalid_request", "; ".join(parts) or "invalid request")


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return _error(exc.status_code, code, str(exc.detail))


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    manager: Manager = app.state.manager
    manager.start(asyncio.get_running_loop())
    yield
    manager.stop()
    manager.store.close()


def create_app(db_path: str = "fandonia-games.sqlite3", limits: Limits | None = None,
               extra_agents: tuple[str, ...] = (), synchronous: str = "NORMAL") -> FastAPI:
    """The server: its ``Manager`` (with the ``Store`` and the ``Limits``) on ``app.state.manager``, the
    routers of ``routes``, the browser pages, ``/meta``, ``/help`` and ``/replays`` (``webui.add_ui``)."""
    limits = limits or Limits()
    store = Store(db_path, synchronous=synchronous)
    manager = Manager(store, limits, extra_agents)
    app = FastAPI(
        title="fandonia_env game server",
        version=VERSION,
        description="Host games of Down With The King between people and computer nobles. Each seat sees only "
                    "its own view; spectators see public information; games are durable (SQLite).",
        lifespan=_lifespan,
    )
    app.state.manager = manager
    app.add_middleware(BodyLimit, limit=limits.max_body, timeout=limits.body_timeout_s)
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http)
    for router in ROUTERS:
        app.include_router(router)

    from .webui import add_ui  # the state of /meta, /help and /replays, and the browser pages

    add_ui(app, manager)
    return app

"""What the routers share: the error responses documented, the bearer token, the ``log`` flag, the JSON
response of an already-encoded body, and the app's shared objects as dependencies."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..models import ErrorBody
from ..replays import ReplayStore
from ..workers import Manager, encode

VERSION = "2"
BEARER = HTTPBearer(auto_error=False, description="the seat's secret token from POST /games")
Creds = Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]
LogFlag = Annotated[bool, Query(description="false: leave out view.log (null), for clients that poll")]
ERRORS: dict[int | str, dict[str, Any]] = {
    s: {"model": ErrorBody} for s in (400, 401, 403, 404, 409, 413, 422, 429)
}


def json_response(obj: Any, status: int = 200) -> Response:
    """``obj`` encoded once by the server's encoder (no validation pass through the response model)."""
    return Response(encode(obj), status_code=status, media_type="application/json")


def token(creds: HTTPAuthorizationCredentials | None) -> str | None:
    return None if creds is None else creds.credentials


def get_manager(request: Request) -> Manager:
    return request.app.state.manager


def get_replays(request: Request) -> ReplayStore:
    return request.app.state.replays


Mgr = Annotated[Manager, Depends(get_manager)]
Replays = Annotated[ReplayStore, Depends(get_replays)]

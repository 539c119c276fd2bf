"""The HTTP + WebSocket API (FastAPI).  ``create_app(db_path, limits)`` builds it; see docs/server.md."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .models import (
    Act,
    ApiError,
    CreateGame,
    CreateGameResponse,
    ErrorBody,
    GameList,
    GameSummary,
    PublicState,
    Replay,
    SeatState,
)
from .seeds import config_shown, saved_out, seed_text, seeding_out
from .store import Store
from .workers import HUMAN, Limits, Manager, Subscriber, encode, seat_infos

VERSION = "2"
BEARER = HTTPBearer(auto_error=False, description="the seat's secret token from POST /games")
Creds = Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]
LogFlag = Annotated[bool, Query(description="false: leave out view.log (null), for clients that poll")]
ERRORS: dict[int | str, dict[str, Any]] = {
    s: {"model": ErrorBody} for s in (400, 401, 403, 404, 409, 413, 422, 429)
}


def _error(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail, **extra}, status_code=status)


def _json(obj: Any, status: int = 200) -> Response:
    return Response(encode(obj), status_code=status, media_type="application/json")


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


def create_app(db_path: str = "fandonia-games.sqlite3", limits: Limits | None = None,
               extra_agents: tuple[str, ...] = (), synchronous: str = "NORMAL") -> FastAPI:
    limits = limits or Limits()
    store = Store(db_path, synchronous=synchronous)
    manager = Manager(store, limits, extra_agents)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager.start(asyncio.get_running_loop())
        yield
        manager.stop()
        store.close()

    app = FastAPI(
        title="fandonia_env game server",
        version=VERSION,
        description="Host games of Down With The King between people and computer nobles. Each seat sees only "
                    "its own view; spectators see public information; games are durable (SQLite).",
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.add_middleware(BodyLimit, limit=limits.max_body, timeout=limits.body_timeout_s)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.detail, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errs):
            return _error(400, "malformed_json", "the request body is not valid JSON")
        parts = []
        for e in errs[:10]:
            where = ".".join(str(x) for x in e.get("loc", ()))
            parts.append(f"{where}: {e.get('msg', 'invalid')}")
        return _error(422, "invalid_request", "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail))

    def _creds(c: HTTPAuthorizationCredentials | None) -> str | None:
        return None if c is None else c.credentials

    @app.get("/health", summary="Liveness and counts")
    def health() -> dict[str, Any]:
        with manager.lock:
            active = sum(1 for r in manager.active.values() if r.status == "playing")
        return {"ok": True, "version": VERSION, "active_games": active, "journal_mode": store.journal_mode()}

    @app.post("/games", status_code=201, response_model=CreateGameResponse, responses=ERRORS,
              summary="Create a game: seats are 'human' or agent ids")
    def create_game(body: CreateGame) -> Any:
        rules = body.rules.model_dump() if body.rules is not None else None
        r, tokens = manager.create(body.seats, rules, None if body.seed is None else int(body.seed), body.start,
                                   body.public_seed)
        seats = []
        for info, tok in zip(seat_infos(r.seats), tokens):
            url = f"/games/{r.gid}/seats/{info['seat']}" if info["kind"] == HUMAN else None
            seats.append({**info, "token": tok, "url": url})
        return {"game_id": r.gid, "seats": seats, "spectator_url": f"/games/{r.gid}/public",
                "websocket_url": f"/games/{r.gid}/ws"}

    @app.get("/games", response_model=GameList, responses=ERRORS, summary="All games, finished ones included")
    def list_games(limit: int = Query(100, ge=1, le=limits.max_list), offset: int = Query(0, ge=0, le=2**31)) -> Any:
        total, rows = store.summaries(limit, offset)
        games = [{"game_id": g["id"], "status": g["status"], "players": len(g["seats"]), "seats": g["seats"],
                  # never the seed (unless its creator made it public): the replay publishes it, after the end
                  "config": config_shown(g["config"], g.get("seeding")), "result": g["result"], "winner": g["winner"],
                  "created": g["created"],
                  # while playing, the time of the last action would tell when a seat passed in secret
                  "updated": g["created"] if g["status"] == "playing" else g["updated"]} for g in rows]
        return {"total": total, "games": games}

    @app.get("/games/{game_id}", response_model=GameSummary, responses=ERRORS,
             summary="One game's public summary (its config without the seed)")
    def get_game(game_id: str) -> Any:
        r = manager.runner(game_id)
        with r.lock:
            return r.summary()

    @app.get("/games/{game_id}/public", response_model=PublicState, responses=ERRORS,
             summary="Spectator: public information only")
    def get_public(game_id: str, log: LogFlag = True) -> Any:
        r = manager.runner(game_id)
        with r.lock:
            return _json(r.public_state(log))

    @app.get("/games/{game_id}/seats/{seat}", response_model=SeatState, responses=ERRORS,
             summary="A seat's view and, when it must decide, its options")
    def get_seat(game_id: str, seat: int, creds: Creds, log: LogFlag = True) -> Any:
        r = manager.runner(game_id)
        manager.authorize(r, seat, _creds(creds))
        with r.lock:
            return _json(r.seat_state(seat, log))

    @app.post("/games/{game_id}/seats/{seat}/act", response_model=SeatState, responses=ERRORS,
              summary="Take an action: {action, step}")
    def act(game_id: str, seat: int, body: Act, creds: Creds, log: LogFlag = True) -> Any:
        r = manager.runner(game_id)
        token = _creds(creds)
        manager.authorize(r, seat, token)
        assert token is not None
        manager.rate_check(token)
        return _json(r.human_act(seat, body.action, body.step, log))

    @app.get("/games/{game_id}/replay", response_model=Replay, responses=ERRORS,
             summary="After the game: every action and the full log (private lines included)")
    def replay(game_id: str) -> Any:
        r = manager.runner(game_id)
        with r.lock:
            if r.status == "playing":
                raise ApiError(409, "game_not_over", "the full log and actions are published only after the game ends")
            g = r.game
            final = g.to_json()
            summary = r.summary()
        acts = [{"idx": i, "seat": s, "action": a, "name": _name(a)} for i, s, a in store.actions(game_id)]
        row = store.load_game(game_id)
        assert row is not None
        # seeds as decimal strings: 63-bit integers lose their last digits in a JavaScript number
        return _json({"game_id": game_id, "status": summary["status"], "config": seed_text(r.config),
                      "seeding": seeding_out(r.seeding, r.config.get("seed")), "seats": summary["seats"],
                      "start": saved_out(row["start"]), "actions": acts,
                      "log": [{"turn": e["turn"], "text": e["t"], "to": e["to"]} for e in g.state.log],
                      "result": g.result, "winner": g.winner, "final": saved_out(final)})

    @app.websocket("/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str) -> None:
        """First message: ``{"seat": N, "token": "..."}`` or ``{"spectator": true}``, optionally with
        ``"log_from": K`` (the client has the first K lines of its log) or ``"log": false`` (no log lines);
        then the server pushes ``{"type": "state", "state": ..., "log_start": K, "log": [...],
        "log_private": [...]}`` now and after every change this client may see: the state without the log
        and the log lines the client lacks (``log[k]`` is line ``log_start + k`` of the whole log;
        ``log_private`` names private lines by that index in the whole log, not by their place in ``log``).
        Actions go over HTTP (``POST .../act``)."""
        await websocket.accept()
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), timeout=limits.ws_hello_timeout_s)
        except (TimeoutError, WebSocketDisconnect, RuntimeError, KeyError):
            await _ws_close(websocket, "no_hello", f"send {{\"seat\": N, \"token\": ...}} or {{\"spectator\": true}} "
                                                   f"within {limits.ws_hello_timeout_s:g} s")
            return
        try:
            if len(raw) > 4096:
                raise ApiError(413, "message_too_large", "the first message must be under 4096 characters")
            try:
                hello = json.loads(raw)
            except ValueError:
                raise ApiError(400, "malformed_json", "the first message is not valid JSON") from None
            if not isinstance(hello, dict):
                raise ApiError(422, "invalid_request", "the first message must be a JSON object")
            extra = set(hello) - {"seat", "token", "spectator", "log", "log_from"}
            if extra:
                raise ApiError(422, "invalid_request", f"unknown field(s) {sorted(extra)} in the first message; "
                                                       "allowed: seat, token, spectator, log, log_from")
            want_log, log_from = hello.get("log", True), hello.get("log_from", 0)
            if not isinstance(want_log, bool):
                raise ApiError(422, "invalid_request", f"'log' must be true or false, got {str(want_log)[:40]}")
            if isinstance(log_from, bool) or not isinstance(log_from, int) or log_from < 0:
                raise ApiError(422, "invalid_request", "'log_from' must be an int >= 0 (the number of log lines "
                                                       f"the client has), got {str(log_from)[:40]}")
            r = await run_in_threadpool(manager.runner, game_id)
            seat = hello.get("seat")
            if hello.get("spectator") is True and seat is None:
                seat = None
            elif isinstance(seat, int) and not isinstance(seat, bool):
                tok = hello.get("token")
                manager.authorize(r, seat, tok if isinstance(tok, str) else None)
            else:
                raise ApiError(422, "invalid_request", "first message: {\"seat\": N, \"token\": ...} or "
                                                       "{\"spectator\": true}")

            def log_length() -> int:
                with r.lock:
                    st = r.public_state() if seat is None else r.seat_state(seat)
                    return len(st["view"]["log"])

            if want_log and log_from > 0:  # a log only grows: valid now, valid for every later push
                n = await run_in_threadpool(log_length)
                if log_from > n:
                    raise ApiError(422, "invalid_request", f"'log_from' {log_from} is beyond this client's log "
                                                           f"of {n} lines")
            sub = Subscriber(seat, limits.ws_queue, log=want_log, log_from=log_from)
            manager.subscribe(game_id, sub)
        except ApiError as e:
            await _ws_close(websocket, e.code, e.detail)
            return
        try:
            def first() -> tuple[Any, int]:
                with r.lock:
                    return r.push(seat), r.pub_seq
            p, seq = await run_in_threadpool(first)
            # it goes through the same queue as pushes, so the client never gets one state twice nor an
            # older after a newer: a push of a later change delivered meanwhile makes it unneeded
            if seq >= sub.seq:
                sub.seq = seq
                manager.offer(game_id, sub, p)

            async def reader() -> None:
                try:
                    while True:
                        await websocket.receive_text()  # messages after the first are ignored
                except Exception:
                    pass
                with contextlib.suppress(asyncio.QueueFull):
                    sub.queue.put_nowait(None)

            task = asyncio.create_task(reader())
            try:
                while True:
                    msg = await sub.queue.get()
                    if msg is None:
                        break
                    await websocket.send_text(msg.decode())
            finally:
                task.cancel()
            if sub.closing == "too_slow":
                await _ws_close(websocket, "too_slow", f"more than {limits.ws_queue} pushes waited for this client; "
                                                       "reconnect with log_from for the current state", close_code=4001)
        except Exception:
            pass
        finally:
            manager.unsubscribe(game_id, sub)
            with contextlib.suppress(Exception):
                await websocket.close()

    from .webui import add_ui  # the browser pages, /meta and /replays

    add_ui(app, manager)
    return app


async def _ws_close(websocket: WebSocket, code: str, detail: str, close_code: int = 4000) -> None:
    """An error frame ``{"type": "error", "error": code, "detail": ...}``, then the close (4000; 4001 too slow)."""
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "error": code, "detail": detail}))
        await websocket.close(code=close_code)


def _name(a: int) -> str:
    from fandonia_env.engine.core.actions import NAME

    return NAME[a]

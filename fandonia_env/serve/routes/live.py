"""The WebSocket ``/games/{game_id}/ws``: a seat's or a spectator's pushed states."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from ..models import ApiError
from ..workers import GameRunner, Limits, Manager, Subscriber

router = APIRouter()
HELLO_FIELDS = ("seat", "token", "spectator", "log", "log_from")


async def close_with(websocket: WebSocket, code: str, detail: str, close_code: int = 4000) -> None:
    """An error frame ``{"type": "error", "error": code, "detail": ...}``, then the close (4000; 4001 too slow)."""
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "error": code, "detail": detail}))
        await websocket.close(code=close_code)


def parse_hello(raw: str) -> tuple[dict[str, Any], bool, int]:
    """The first message as ``(hello, want_log, log_from)``; ``ApiError`` when it is malformed."""
    if len(raw) > 4096:
        raise ApiError(413, "message_too_large", "the first message must be under 4096 characters")
    try:
        hello = json.loads(raw)
    except ValueError:
        raise ApiError(400, "malformed_json", "the first message is not valid JSON") from None
    if not isinstance(hello, dict):
        raise ApiError(422, "invalid_request", "the first message must be a JSON object")
    extra = set(hello) - set(HELLO_FIELDS)
    if extra:
        raise ApiError(422, "invalid_request", f"unknown field(s) {sorted(extra)} in the first message; "
                                               "allowed: seat, token, spectator, log, log_from")
    want_log, log_from = hello.get("log", True), hello.get("log_from", 0)
    if not isinstance(want_log, bool):
        raise ApiError(422, "invalid_request", f"'log' must be true or false, got {str(want_log)[:40]}")
    if isinstance(log_from, bool) or not isinstance(log_from, int) or log_from < 0:
        raise ApiError(422, "invalid_request", "'log_from' must be an int >= 0 (the number of log lines "
                                               f"the client has), got {str(log_from)[:40]}")
    return hello, want_log, log_from


async def subscribe(manager: Manager, game_id: str, raw: str) -> tuple[GameRunner, int | None, Subscriber]:
    """Check the first message and the seat's token, subscribe: ``(runner, seat or None, subscriber)``."""
    hello, want_log, log_from = parse_hello(raw)
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
    sub = Subscriber(seat, manager.limits.ws_queue, log=want_log, log_from=log_from)
    manager.subscribe(game_id, sub)
    return r, seat, sub


async def pump(websocket: WebSocket, manager: Manager, game_id: str, r: GameRunner, seat: int | None,
               sub: Subscriber) -> None:
    """The first state, then every push of the subscriber's queue, until either side ends."""
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
        await close_with(websocket, "too_slow", f"more than {manager.limits.ws_queue} pushes waited for this "
                                                "client; reconnect with log_from for the current state",
                         close_code=4001)


@router.websocket("/games/{game_id}/ws")
async def ws(websocket: WebSocket, game_id: str) -> None:
    """First message: ``{"seat": N, "token": "..."}`` or ``{"spectator": true}``, optionally with
    ``"log_from": K`` (the client has the first K lines of its log) or ``"log": false`` (no log lines);
    then the server pushes ``{"type": "state", "state": ..., "log_start": K, "log": [...],
    "log_private": [...]}`` now and after every change this client may see: the state without the log
    and the log lines the client lacks (``log[k]`` is line ``log_start + k`` of the whole log;
    ``log_private`` names private lines by that index in the whole log, not by their place in ``log``).
    Actions go over HTTP (``POST .../act``)."""
    manager: Manager = websocket.app.state.manager
    limits: Limits = manager.limits
    await websocket.accept()
    try:
        raw = await asyncio.wait_for(websocket.receive_text(), timeout=limits.ws_hello_timeout_s)
    except (TimeoutError, WebSocketDisconnect, RuntimeError, KeyError):
        await close_with(websocket, "no_hello", f"send {{\"seat\": N, \"token\": ...}} or {{\"spectator\": true}} "
                                                f"within {limits.ws_hello_timeout_s:g} s")
        return
    try:
        r, seat, sub = await subscribe(manager, game_id, raw)
    except ApiError as e:
        await close_with(websocket, e.code, e.detail)
        return
    try:
        await pump(websocket, manager, game_id, r, seat, sub)
    except Exception:
        pass
    finally:
        manager.unsubscribe(game_id, sub)
        with contextlib.suppress(Exception):
            await websocket.close()

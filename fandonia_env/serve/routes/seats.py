"""``GET /games/{id}/seats/{seat}`` (a seat's view and options) and ``POST .../act`` (a seat's action)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..models import Act, SeatState
from .common import ERRORS, Creds, LogFlag, Mgr, json_response, token

router = APIRouter()


@router.get("/games/{game_id}/seats/{seat}", response_model=SeatState, responses=ERRORS,
            summary="A seat's view and, when it must decide, its options")
def get_seat(game_id: str, seat: int, creds: Creds, manager: Mgr, log: LogFlag = True) -> Any:
    r = manager.runner(game_id)
    manager.authorize(r, seat, token(creds))
    with r.lock:
        return json_response(r.seat_state(seat, log))


@router.post("/games/{game_id}/seats/{seat}/act", response_model=SeatState, responses=ERRORS,
             summary="Take an action: {action, step}")
def act(game_id: str, seat: int, body: Act, creds: Creds, manager: Mgr, log: LogFlag = True) -> Any:
    r = manager.runner(game_id)
    tok = token(creds)
    manager.authorize(r, seat, tok)
    assert tok is not None
    manager.rate_check(tok)
    return json_response(r.human_act(seat, body.action, body.step, log))

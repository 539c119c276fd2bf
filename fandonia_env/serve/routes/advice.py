"""The advisor (issue 43): ``GET /games/{id}/seats/{seat}/advice`` (a seat's own decision, with its token, in a
game that allows it) and ``GET /replays/{rid}/frames/{i}/advice`` (the seat deciding at a replay's frame)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..advice import frame_advice, seat_advice
from ..models import Advice
from .common import ERRORS, Creds, Mgr, Replays, json_response, token

router = APIRouter()


@router.get("/games/{game_id}/seats/{seat}/advice", response_model=Advice, responses=ERRORS,
            summary="The advisor: what the strongest noble would play in this seat's decision, from its view only")
def get_advice(game_id: str, seat: int, creds: Creds, manager: Mgr) -> Any:
    r = manager.runner(game_id)
    manager.authorize(r, seat, token(creds))
    return json_response(seat_advice(r, seat))


@router.get("/replays/{replay_id}/frames/{index}/advice", response_model=Advice, responses=ERRORS,
            summary="The advisor at a replay's frame, for the seat deciding there (from that seat's view)")
def get_frame_advice(replay_id: str, index: int, replays: Replays) -> Any:
    return json_response(frame_advice(replays.get(replay_id), index))

"""``POST /replays``, ``GET /replays/{id}`` and ``GET /replays/{id}/frames/{i}``: open a finished or saved game
and step through it (the ``ReplayStore`` of ``serve/replays.py``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..models import OpenReplay, ReplayFrame, ReplayInfo
from .common import Replays, json_response

router = APIRouter()


@router.post("/replays", response_model=ReplayInfo, summary="Open a finished or saved game to step through")
def open_replay(body: OpenReplay, replays: Replays) -> Any:
    return json_response(replays.open(body.doc, body.game))


@router.get("/replays/{replay_id}", response_model=ReplayInfo, summary="An opened replay's actions")
def get_replay(replay_id: str, replays: Replays) -> Any:
    return json_response(replays.get(replay_id).info())


@router.get("/replays/{replay_id}/frames/{index}", response_model=ReplayFrame,
            summary="The game before action `index` (everything shown: the game is over or is the uploader's)")
def get_frame(replay_id: str, index: int, replays: Replays) -> Any:
    return json_response(replays.get(replay_id).frame(index))

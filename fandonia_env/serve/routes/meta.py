"""``GET /health``, ``GET /`` (to the pages), ``GET /meta`` and ``GET /help``: nothing here depends on a game."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from ..models import Help, Meta
from .common import VERSION, Mgr

router = APIRouter()


@router.get("/health", summary="Liveness and counts")
def health(manager: Mgr) -> dict[str, Any]:
    with manager.lock:
        active = sum(1 for r in manager.active.values() if r.status == "playing")
    return {"ok": True, "version": VERSION, "active_games": active, "journal_mode": manager.store.journal_mode()}


@router.get("/", include_in_schema=False)
def root() -> RedirectResponse:
    return RedirectResponse("/ui/")


@router.get("/meta", response_model=Meta, summary="Names and tables for readable labels; agents and presets")
def get_meta(request: Request) -> Any:
    return Response(request.app.state.meta_body, media_type="application/json")


@router.get("/help", response_model=Help, summary="Plain explanations of cards, counters, offices, titles, terms")
def get_help(request: Request) -> Any:
    return Response(request.app.state.help_body, media_type="application/json")

"""``POST /games`` (create), ``GET /games`` (the list), ``GET /games/{id}`` (a summary), ``GET /games/{id}/public``
(the spectator's state) and ``GET /games/{id}/replay`` (after the end: every action and the whole log)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from fastapi.exceptions import RequestValidationError

from ...engine.core.actions import NAME
from ..models import ApiError, CreateGame, CreateGameResponse, GameList, GameSummary, PublicState, Replay
from ..seeds import config_shown, saved_out, seed_text, seeding_out
from ..workers import HUMAN, game_options, seat_infos
from .common import ERRORS, LogFlag, Mgr, json_response

router = APIRouter()


@router.post("/games", status_code=201, response_model=CreateGameResponse, responses=ERRORS,
             summary="Create a game: seats are 'human' or agent ids")
def create_game(body: CreateGame, manager: Mgr) -> Any:
    rules = body.rules.model_dump() if body.rules is not None else None
    r, tokens = manager.create(body.seats, rules, None if body.seed is None else int(body.seed), body.start,
                               body.public_seed, body.rated, body.advisor)
    seats = []
    for info, tok in zip(seat_infos(r.seats), tokens):
        url = f"/games/{r.gid}/seats/{info['seat']}" if info["kind"] == HUMAN else None
        seats.append({**info, "token": tok, "url": url})
    return {"game_id": r.gid, "seats": seats, "spectator_url": f"/games/{r.gid}/public",
            "websocket_url": f"/games/{r.gid}/ws"}


def _check_limit(limit: int, most: int) -> None:
    """``limit`` at most the server's ``Limits.max_list``: refused as the query's own bounds are."""
    if limit > most:
        raise RequestValidationError([{"type": "less_than_equal", "loc": ("query", "limit"), "input": limit,
                                       "msg": f"Input should be less than or equal to {most}", "ctx": {"le": most}}])


@router.get("/games", response_model=GameList, responses=ERRORS, summary="All games, finished ones included")
def list_games(manager: Mgr,
               limit: int = Query(100, ge=1, description="games per page, at most the server's max_list (500)"),
               offset: int = Query(0, ge=0, le=2**31)) -> Any:
    _check_limit(limit, manager.limits.max_list)
    total, rows = manager.store.summaries(limit, offset)
    games = [{"game_id": g["id"], "status": g["status"], "players": len(g["seats"]), "seats": g["seats"],
              # never the seed (unless its creator made it public): the replay publishes it, after the end
              "config": config_shown(g["config"], g.get("seeding")), "result": g["result"], "winner": g["winner"],
              "created": g["created"],
              # while playing, the time of the last action would tell when a seat passed in secret
              "updated": g["created"] if g["status"] == "playing" else g["updated"],
              **game_options(g.get("options"))} for g in rows]
    return {"total": total, "games": games}


@router.get("/games/{game_id}", response_model=GameSummary, responses=ERRORS,
            summary="One game's public summary (its config without the seed)")
def get_game(game_id: str, manager: Mgr) -> Any:
    r = manager.runner(game_id)
    with r.lock:
        return r.summary()


@router.get("/games/{game_id}/public", response_model=PublicState, responses=ERRORS,
            summary="Spectator: public information only")
def get_public(game_id: str, manager: Mgr, log: LogFlag = True) -> Any:
    r = manager.runner(game_id)
    with r.lock:
        return json_response(r.public_state(log))


@router.get("/games/{game_id}/replay", response_model=Replay, responses=ERRORS,
            summary="After the game: every action and the full log (private lines included)")
def replay(game_id: str, manager: Mgr) -> Any:
    r = manager.runner(game_id)
    with r.lock:
        if r.status == "playing":
            raise ApiError(409, "game_not_over", "the full log and actions are published only after the game ends")
        g = r.game
        final = g.to_json()
        summary = r.summary()
    store = manager.store
    acts = [{"idx": i, "seat": s, "action": a, "name": NAME[a]} for i, s, a in store.actions(game_id)]
    row = store.load_game(game_id)
    assert row is not None
    # seeds as decimal strings: 63-bit integers lose their last digits in a JavaScript number
    return json_response({"game_id": game_id, "status": summary["status"], "config": seed_text(r.config),
                          "seeding": seeding_out(r.seeding, r.config.get("seed")), "seats": summary["seats"],
                          "start": saved_out(row["start"]), "actions": acts,
                          "log": [{"turn": e["turn"], "text": e["t"], "to": e["to"]} for e in g.state.log],
                          "result": g.result, "winner": g.winner, "final": saved_out(final)})

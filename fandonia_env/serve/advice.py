"""The advisor on the server (issue 43): a seat asks what the strongest noble would play in its decision
(``GET /games/{id}/seats/{seat}/advice``, with the seat's token, while the game allows it), and after a game
anyone stepping through its replay asks the same for the seat deciding at a frame
(``GET /replays/{rid}/frames/{i}/advice``).  Both read one seat's view only (``fandonia_env.words.advice``);
neither changes anything."""

from __future__ import annotations

import time
from typing import Any

from fandonia_env.agents.advisor import AdvisorError
from fandonia_env.words.advice import advice_words

from .models import ApiError
from .replays import ReplayData
from .workers import GameRunner

__all__ = ["frame_advice", "seat_advice"]


def _advise(view: dict[str, Any]) -> dict[str, Any]:
    t0 = time.perf_counter()
    try:
        a = advice_words(view)
    except AdvisorError as e:  # the server's noble cannot advise (a test swapping it): say so, change nothing
        raise ApiError(409, "no_advice", str(e)) from None
    return {**a, "ms": round(1000 * (time.perf_counter() - t0), 3)}


def seat_advice(r: GameRunner, seat: int) -> dict[str, Any]:
    """The advice for ``seat``'s pending decision (the caller has authorised the seat)."""
    with r.lock:
        if not r.options["advisor"]:
            why = "this is a rated game" if r.options["rated"] else "the game was created with advisor: false"
            raise ApiError(403, "advisor_off", f"the advisor is off in this game ({why}); it is set when the game "
                                               "is created (POST /games 'advisor')")
        if r.status != "playing":
            raise ApiError(409, "game_over", f"game {r.gid} is {r.status}: no decision to advise on (the replay "
                                             f"page shows the advice at every decision: GET /replays/ID/frames/I/advice)")
        if r.game.current_player() != seat:
            raise ApiError(409, "not_your_decision", f"seat {seat} has no decision to make now; ask again when "
                                                     "its state has a decision")
        view, step = r.game.view(seat, log=False), r.counts[seat]
    return {"seat": seat, "step": step, **_advise(view)}  # outside the lock: the noble's forward pass


def frame_advice(data: ReplayData, i: int) -> dict[str, Any]:
    """The advice for the seat deciding at frame ``i`` of a replay (a finished game or the uploader's own
    record: every seat may be shown), from that seat's view, and the move actually played there."""
    with data.lock:
        g = data.game_at(i)
    d = g.decision()
    if d is None:
        raise ApiError(409, "no_decision", f"nobody decides at frame {i} (the end of the record)")
    seat = int(d["player"])
    out = {"seat": seat, "step": i, "index": i, **_advise(g.view(seat, log=False))}
    out["played"] = data.actions[i][1] if i < len(data.actions) else None
    return out

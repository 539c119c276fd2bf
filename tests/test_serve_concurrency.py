"""Games played at once on one server play exactly as each played alone: 4 games of search nobles
(noble-ismcts-v1, which plays thousands of engine decisions in its rollouts for every searched move) run in
the server's worker threads (``--workers 4``) at the same time, then each is played again alone on the same
server; the records (every action, the final state, the log) must be equal.  Any engine state shared between
threads (a module-level scan, memo or remembered ruleset) makes games read each other's and shows here.

The server runs in this process (the app of ``create_app``, its manager and worker pool, driven through
FastAPI's TestClient) so that the thread switch interval can be made tiny while the games run together:
with Python's default 5 ms a thread rarely stops inside the few bytecodes where a shared scan is read, and
the engine before the fix (a module-level scan and ruleset) passed by luck; at 10 us every game differs."""

from __future__ import annotations

import sys
import time
import warnings

import pytest

pytest.importorskip("fastapi")

with warnings.catch_warnings():  # starlette asks for httpx2 in TestClient; httpx works
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fandonia_env.serve import Limits, create_app  # noqa: E402

GAMES = [  # seats, rules, seed: a few seconds of search in all; three rule sets side by side
    (["noble-ismcts-v1", "noble-ismcts-v1"], {"max_turns": 6}, 1),
    (["noble-ismcts-v1", "noble-ismcts-v1", "noble-ismcts-v1"], {"max_turns": 4, "preset": "errata"}, 2),
    (["noble-ismcts-v1", "noble-ismcts-v1"], {"max_turns": 8, "preset": "1981-all-optional"}, 3),
    (["noble-ismcts-v1", "noble-rule-v1", "noble-ismcts-v1"], {"max_turns": 6}, 4),
]


def create(c: TestClient, seats: list[str], rules: dict, seed: int) -> str:
    # a public seed, so the game is the one played alone from that seed (a chosen private seed is mixed
    # with the game's own secret: issue 41)
    r = c.post("/games", json={"seats": seats, "rules": rules, "seed": seed, "public_seed": True})
    assert r.status_code == 201, r.text
    return r.json()["game_id"]


def wait_over(c: TestClient, gids: list[str], timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while any(c.get(f"/games/{g}").json()["status"] == "playing" for g in gids):
        assert time.monotonic() < deadline, "the nobles' games did not end"
        time.sleep(0.05)


def record(c: TestClient, gid: str) -> dict:
    rp = c.get(f"/games/{gid}/replay").json()
    return {"actions": [(a["seat"], a["action"]) for a in rp["actions"]], "final": rp["final"], "log": rp["log"],
            "result": rp["result"], "winner": rp["winner"], "config": rp["config"]}


def test_four_ismcts_games_at_once_equal_each_game_played_alone(tmp_path, caplog):
    with TestClient(create_app(str(tmp_path / "g.sqlite3"), Limits(workers=4))) as c:
        old = sys.getswitchinterval()
        sys.setswitchinterval(1e-5)
        try:
            together = [create(c, *g) for g in GAMES]
            wait_over(c, together)
        finally:
            sys.setswitchinterval(old)
        # they did overlap: each ended after the last one was created (a game takes a second or more)
        last_created = max(c.get(f"/games/{g}").json()["created"] for g in together)
        assert all(c.get(f"/games/{g}").json()["updated"] > last_created for g in together)
        alone = []
        for g in GAMES:
            alone.append(create(c, *g))
            wait_over(c, alone[-1:])
        for i, (a, b) in enumerate(zip(together, alone)):
            ra, rb = record(c, a), record(c, b)
            assert len(ra["actions"]) > 20
            assert ra["actions"] == rb["actions"], f"game {i}: the actions differ from the game played alone"
            assert ra == rb, f"game {i}"
    # no noble failed (a failing noble takes the first legal action, which could be the same in both runs)
    assert "failed" not in caplog.text

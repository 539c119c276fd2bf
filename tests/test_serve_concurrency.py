"""Games played at once on one server play exactly as each played alone: 4 games of search nobles
(noble-ismcts-v1, which plays thousands of engine decisions in its rollouts for every searched move) run in
the server's worker threads at the same time, then each is played again alone on the same server; the
records (every action, the final state, the log) must be equal.  Any engine state shared between threads
(a module-level scan, memo or remembered ruleset) makes games read each other's and shows here."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from fandonia_env.serve.client import Client, ServerProcess  # noqa: E402

GAMES = [  # seats, rules, seed: a few seconds of search in all
    (["noble-ismcts-v1", "noble-ismcts-v1"], {"max_turns": 6}, 1),
    (["noble-ismcts-v1", "noble-ismcts-v1", "noble-ismcts-v1"], {"max_turns": 4, "preset": "errata"}, 2),
    (["noble-ismcts-v1", "noble-ismcts-v1"], {"max_turns": 8, "preset": "1981-all-optional"}, 3),
    (["noble-ismcts-v1", "noble-rule-v1", "noble-ismcts-v1"], {"max_turns": 6}, 4),
]


def record(c: Client, gid: str) -> dict:
    rp = c.replay(gid)
    return {"actions": [(a["seat"], a["action"]) for a in rp["actions"]], "final": rp["final"], "log": rp["log"],
            "result": rp["result"], "winner": rp["winner"], "config": rp["config"]}


def wait_over(c: Client, gids: list[str], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while any(c.summary(g)["status"] == "playing" for g in gids):
        assert time.monotonic() < deadline, "the nobles' games did not end"
        time.sleep(0.05)


def test_four_ismcts_games_at_once_equal_each_game_played_alone(tmp_path):
    with ServerProcess(str(tmp_path / "g.sqlite3"), "--workers", "4") as srv:
        c = Client(srv.url)
        together = [c.create(seats, rules=rules, seed=seed)["game_id"] for seats, rules, seed in GAMES]
        wait_over(c, together)
        # they did overlap: each ended after the last one was created (a game takes a second or more)
        last_created = max(c.summary(g)["created"] for g in together)
        assert all(c.summary(g)["updated"] > last_created for g in together)
        alone = []
        for seats, rules, seed in GAMES:
            gid = c.create(seats, rules=rules, seed=seed)["game_id"]
            wait_over(c, [gid])
            alone.append(gid)
        for i, (a, b) in enumerate(zip(together, alone)):
            ra, rb = record(c, a), record(c, b)
            assert len(ra["actions"]) > 20
            assert ra["actions"] == rb["actions"], f"game {i}: the actions differ from the game played alone"
            assert ra == rb, f"game {i}"

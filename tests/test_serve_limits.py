"""Server limits and bad game requests: each is refused with the right 4xx and a JSON error naming
the problem, and none crashes the server (in-process, FastAPI's TestClient)."""

from __future__ import annotations

import random
import time
import warnings

import pytest

pytest.importorskip("fastapi")

with warnings.catch_warnings():  # starlette asks for httpx2 in TestClient; httpx works
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.serve import Limits, create_app  # noqa: E402
from fandonia_env.serve.__main__ import parse_args  # noqa: E402
from fandonia_env.serve.client import auth  # noqa: E402


def client(tmp_path, **kw) -> TestClient:
    return TestClient(create_app(str(tmp_path / "g.sqlite3"), Limits(**kw)))


def err(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == code and body["detail"], body
    return body


def test_bad_game_requests_name_the_problem(tmp_path):
    done = Game(players=2, seed=1, max_turns=1)
    rng = random.Random(1)
    while not done.over:
        done.apply(rng.choice(done.legal_actions()))
    mid = Game(players=3, seed=2)
    with client(tmp_path) as c:
        cases = [
            ({"seats": ["human"]}, 422, "invalid_request", "seats"),
            ({"seats": ["human"] * 7}, 422, "invalid_request", "seats"),
            ({"seats": ["human", "robot-9"]}, 422, "unknown_agent", "noble-rule-v1"),
            ({"seats": ["human", "ppo:/etc/passwd"]}, 422, "unknown_agent", "allowed"),
            ({"seats": ["human", "human"], "rules": {"preset": "nope"}}, 422, "bad_rules", "short-game"),
            ({"seats": ["human", "human"], "rules": {"optional": ["flying"]}}, 422, "bad_rules", "flying"),
            ({"seats": ["human", "human"], "rules": {"edition": "2024"}}, 422, "bad_rules", "errata"),
            ({"seats": ["human", "human"], "rules": {"colour": 1}}, 422, "invalid_request", "colour"),
            ({"seats": ["human", "human"], "seed": -1}, 422, "invalid_request", "seed"),
            ({"seats": ["human", "human"], "seed": "1"}, 422, "invalid_request", "seed"),
            ({"seats": ["human", "human"], "start": done.to_json()}, 422, "bad_start", "finished"),
            ({"seats": ["human", "human"], "start": mid.to_json()}, 422, "bad_start", "3 players"),
            ({"seats": ["human"] * 3, "start": mid.to_json(), "seed": 3}, 422, "start_with_rules", "omit"),
            ({"seats": ["human"] * 3, "start": {"players": "x"}}, 422, "bad_start", "rejected"),
            ({"seats": ["human", "human"], "extra": 1}, 422, "invalid_request", "extra"),
        ]
        for body, status, code, word in cases:
            e = err(c.post("/games", json=body), status, code)
            assert word in e["detail"], (body, e)
        err(c.post("/games", content=b"{not json", headers={"content-type": "application/json"}), 400,
            "malformed_json")
        ok = c.post("/games", json={"seats": ["human"] * 3, "start": mid.to_json()})
        assert ok.status_code == 201
        assert c.get("/games").json()["total"] == 1
        assert c.get("/health").json()["ok"] is True


def test_body_size_games_per_server_rate_and_idle_expiry_limits(tmp_path):
    with client(tmp_path, max_body=4000, max_games=2, actions_per_s=0.5, burst=2, idle_expiry_s=0.6) as c:
        big = {"seats": ["human", "human"], "rules": {"optional": ["x" * 5000]}}
        err(c.post("/games", json=big), 413, "body_too_large")
        a = c.post("/games", json={"seats": ["human", "human"], "seed": 1}).json()
        c.post("/games", json={"seats": ["human", "human"], "seed": 2})
        err(c.post("/games", json={"seats": ["human", "human"]}), 429, "server_full")
        gid, toks = a["game_id"], {s["seat"]: s["token"] for s in a["seats"]}
        # rate: a burst of 2 actions per token, then 429 (refusals count too)
        p = next(s for s in toks if c.get(f"/games/{gid}/seats/{s}", headers=auth(toks[s])).json()["decision"])
        st = c.get(f"/games/{gid}/seats/{p}", headers=auth(toks[p])).json()
        body = {"action": st["decision"]["options"][0]["id"], "step": st["step"]}
        codes = [c.post(f"/games/{gid}/seats/{p}/act", headers=auth(toks[p]), json=body).status_code
                 for _ in range(3)]
        assert codes == [200, 409, 429]  # accepted, replay refused as stale, then over the burst
        before = c.get(f"/games/{gid}/seats/{p}", headers=auth(toks[p])).content
        err(c.post(f"/games/{gid}/seats/{p}/act", headers=auth(toks[p]), json={"action": 0, "step": 0}), 429,
            "rate_limited")
        assert c.get(f"/games/{gid}/seats/{p}", headers=auth(toks[p])).content == before
        # idle expiry: no action for 0.6 s -> expired, listed, replayable, slot freed
        deadline = time.monotonic() + 10
        while c.get(f"/games/{gid}").json()["status"] == "playing" and time.monotonic() < deadline:
            time.sleep(0.1)
        assert c.get(f"/games/{gid}").json()["status"] == "expired"
        q = 1 - p  # the other seat's token has its own, full bucket
        err(c.post(f"/games/{gid}/seats/{q}/act", headers=auth(toks[q]), json={"action": 0, "step": 0}), 409,
            "game_over")
        assert c.get(f"/games/{gid}/replay").json()["status"] == "expired"
        assert c.post("/games", json={"seats": ["human", "random-v1"]}).status_code == 201
        statuses = [g["status"] for g in c.get("/games").json()["games"]]
        assert statuses.count("expired") == 2
        assert c.get("/health").json()["ok"] is True


def test_command_line_rejects_bad_limits():
    for argv in (["--max-games", "0"], ["--actions-per-s", "0"], ["--port", "70000"], ["--workers", "0"]):
        with pytest.raises(SystemExit):
            parse_args(argv)
    a = parse_args([])
    assert a.host == "127.0.0.1"  # loopback by default

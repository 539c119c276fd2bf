"""Fuzzing the server with hypothesis: random and malformed requests (paths, methods, tokens, bodies,
JSON of every shape, valid and stale actions).  Never a 5xx; a rejected request never changes a game.

2,200 requests in-process (FastAPI's TestClient) and 150 against the real server process."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

with warnings.catch_warnings():  # starlette asks for httpx2 in TestClient; httpx works
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fandonia_env.serve import Limits, create_app  # noqa: E402
from fandonia_env.serve.client import ServerProcess  # noqa: E402

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10), kids, max_size=4),
    max_leaves=12,
)
SEAT_IDS = st.sampled_from(["human", "random-v1", "noble-rule-v1", "", "ppo:x", "HUMAN", "noble-ismcts-v9"])


class Pool:
    """A few all-human games (nothing moves in the background) that requests are aimed at."""

    def __init__(self, send, manager=None) -> None:
        self.send = send
        self.manager = manager
        self.games: list[tuple[str, dict[int, str]]] = []
        self.refill()

    def refill(self) -> None:
        live = []
        for gid, toks in self.games:
            if json.loads(self.send("GET", f"/games/{gid}", None, {})[1])["status"] == "playing":
                live.append((gid, toks))
        self.games = live
        seed = 0
        while len(self.games) < 2:
            seed += 1
            status, body = self.send("POST", "/games", json.dumps(
                {"seats": ["human"] * (2 + len(self.games) * 2), "rules": {"max_turns": 2}, "seed": seed,
                 "public_seed": True}).encode(),
                {"content-type": "application/json"})
            assert status == 201, body
            g = json.loads(body)
            self.games.append((g["game_id"], {s["seat"]: s["token"] for s in g["seats"]}))

    def fingerprint(self) -> list[bytes]:
        if self.manager is not None:  # in-process: the full hidden state of every game
            return [self.manager.runner(gid).game.dumps().encode() for gid, _ in self.games]
        out = []
        for gid, toks in self.games:
            out.append(self.send("GET", f"/games/{gid}/public", None, {})[1])
            for s, t in toks.items():
                out.append(self.send("GET", f"/games/{gid}/seats/{s}", None, {"authorization": f"Bearer {t}"})[1])
        return out

    def deciding(self, gid: str, toks: dict[int, str]) -> tuple[int, dict] | None:
        if self.manager is not None:
            r = self.manager.runner(gid)
            p = r.game.current_player()
            return None if p is None else (p, r.seat_state(p))
        for s, t in toks.items():
            stt = json.loads(self.send("GET", f"/games/{gid}/seats/{s}", None, {"authorization": f"Bearer {t}"})[1])
            if stt["decision"] is not None:
                return s, stt
        return None


@st.composite
def request(draw, pool: Pool):
    gid, toks = draw(st.sampled_from(pool.games))
    gid_x = draw(st.sampled_from([gid, gid, gid, "nosuch", gid + "x", "", "%00", "../../etc"]))
    dec = pool.deciding(gid, toks)
    seat = draw(st.sampled_from([dec[0] if dec else 0, 0, 1, -1, 6, 99]) | st.integers(-10**20, 10**20))
    seat_txt = draw(st.sampled_from([str(seat), str(seat), "x", "1.5", "", "0x1"]))
    tok = draw(st.sampled_from([None, "right", "right", "other", "junk", "empty", "basic"]))
    headers = {}
    if tok == "right":
        headers["authorization"] = f"Bearer {toks.get(seat, 'zz')}"
    elif tok == "other":
        headers["authorization"] = f"Bearer {toks[(seat + 1) % len(toks)] if isinstance(seat, int) else 'q'}"
    elif tok == "junk":
        headers["authorization"] = "Bearer " + draw(st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1,
                                                            max_size=40))
    elif tok == "empty":
        headers["authorization"] = "Bearer"
    elif tok == "basic":
        headers["authorization"] = "Basic dXNlcjpwYXNz"
    kind = draw(st.sampled_from(["act", "act", "act", "create", "get", "other"]))
    body: bytes | None = None
    if kind == "act":
        method = draw(st.sampled_from(["POST", "POST", "POST", "GET", "PUT"]))
        path = f"/games/{gid_x}/seats/{seat_txt}/act"
        legal = [o["id"] for o in dec[1]["decision"]["options"]] if dec else [0]
        step = dec[1]["step"] if dec else 0
        shape = draw(st.sampled_from(["good", "good", "stale", "illegal", "json", "types", "extra", "bytes"]))
        if shape == "good":
            obj = {"action": draw(st.sampled_from(legal)), "step": step}
        elif shape == "stale":
            obj = {"action": draw(st.sampled_from(legal)), "step": draw(st.integers(-5, step + 5))}
        elif shape == "illegal":
            obj = {"action": draw(st.integers(-2**40, 2**40)), "step": step}
        elif shape == "types":
            obj = {"action": draw(JSON), "step": draw(JSON)}
        elif shape == "extra":
            obj = {"action": legal[0], "step": step, draw(st.text(max_size=5)): draw(JSON)}
        else:
            obj = draw(JSON)
        body = draw(st.binary(max_size=64)) if shape == "bytes" else json.dumps(obj).encode()
    elif kind == "create":
        method = "POST"
        path = "/games"
        obj = draw(st.fixed_dictionaries(
            {"seats": st.lists(SEAT_IDS, min_size=0, max_size=8)},
            optional={"rules": st.fixed_dictionaries({}, optional={
                "preset": st.sampled_from(["1981", "errata", "short-game", "zzz"]) | JSON,
                "edition": st.sampled_from(["1981", "errata", "x"]),
                "optional": st.lists(st.sampled_from(["clemency", "funerals", "bogus"]), max_size=3),
                "max_turns": st.integers(-3, 3) | JSON}) | JSON,
                "seed": st.integers(-5, 2**64) | JSON,
                "start": JSON}))
        body = json.dumps(obj).encode()
    elif kind == "get":
        method = "GET"
        path = draw(st.sampled_from([f"/games/{gid_x}", f"/games/{gid_x}/public", f"/games/{gid_x}/replay",
                                     f"/games/{gid_x}/seats/{seat_txt}", "/games?limit=0", "/games?limit=5",
                                     "/games?offset=-1", "/games?limit=x", "/health", "/openapi.json"]))
    else:
        method = draw(st.sampled_from(["GET", "POST", "DELETE", "PATCH", "OPTIONS"]))
        path = "/" + draw(st.text(st.characters(min_codepoint=48, max_codepoint=122), max_size=30))
        body = draw(st.none() | st.binary(max_size=64))
    if body is not None and draw(st.booleans()):
        headers["content-type"] = "application/json"
    return method, path, body, headers


def run_fuzz(send, n: int, manager=None) -> dict[int, int]:
    pool = Pool(send, manager)
    seen: dict[int, int] = {}

    @settings(max_examples=n, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one(data):
        if len(seen) and sum(seen.values()) % 50 == 0:
            pool.refill()
        method, path, body, headers = data.draw(request(pool))
        before = pool.fingerprint()
        status, text = send(method, path, body, headers)
        seen[status] = seen.get(status, 0) + 1
        assert status < 500, (method, path, body, headers, text)
        if status >= 400:
            assert pool.fingerprint() == before, (method, path, body, status, text)
            if status != 405 and path.startswith("/games"):
                err = json.loads(text)
                assert isinstance(err["error"], str) and isinstance(err["detail"], str)

    one()
    return seen


def test_fuzz_2200_random_and_malformed_requests_in_process(tmp_path):
    app = create_app(str(tmp_path / "fuzz.sqlite3"), Limits(actions_per_s=1e9, burst=10**9, max_games=10_000))
    with TestClient(app, raise_server_exceptions=False) as c:
        def send(method, path, body, headers):
            r = c.request(method, path, content=body, headers=headers)
            return r.status_code, r.content
        seen = run_fuzz(send, 2200, app.state.manager)
        # the refusals the random draws usually reach (which ones they reach depends on the games'
        # progress, so on timing): each asked for on purpose too, each leaving every game as it was
        probe_refusals(send, Pool(send, app.state.manager))
    assert sum(seen.values()) >= 2000
    assert seen.get(200, 0) > 50 and seen.get(201, 0) > 0  # some actions and games were accepted
    for code in (404, 422):
        assert seen.get(code, 0) > 0, seen


def probe_refusals(send, pool: Pool) -> None:
    """401 (no token), 403 (another seat's token), 404 (no such game), 409 (a stale step), 422 (a
    malformed body): each refused with its code and an error body, nothing changed."""
    gid, toks = pool.games[0]
    p, stt = pool.deciding(gid, toks)
    other = next(s for s in toks if s != p)
    act = f"/games/{gid}/seats/{p}/act"
    good = {"action": stt["decision"]["options"][0]["id"], "step": stt["step"]}
    cases = {
        401: ("POST", act, good, {}),
        403: ("POST", act, good, {"authorization": f"Bearer {toks[other]}"}),
        404: ("POST", f"/games/nosuch/seats/{p}/act", good, {"authorization": f"Bearer {toks[p]}"}),
        409: ("POST", act, dict(good, step=good["step"] + 7), {"authorization": f"Bearer {toks[p]}"}),
        422: ("POST", act, {"action": "x"}, {"authorization": f"Bearer {toks[p]}"}),
    }
    for code, (method, path, obj, headers) in cases.items():
        before = pool.fingerprint()
        status, text = send(method, path, json.dumps(obj).encode(), dict(headers, **{"content-type": "application/json"}))
        assert status == code, (code, status, text)
        err = json.loads(text)
        assert isinstance(err["error"], str) and isinstance(err["detail"], str)
        assert pool.fingerprint() == before, (code, text)


def test_fuzz_sample_against_the_real_process(tmp_path):
    import httpx

    with ServerProcess(str(tmp_path / "fuzz.sqlite3"), "--actions-per-s", "1e6", "--burst", "1000000",
                       "--max-games", "10000") as srv:
        with httpx.Client(base_url=srv.url, timeout=30) as h:
            def send(method, path, body, headers):
                r = h.request(method, path, content=body, headers=headers)
                return r.status_code, r.content
            seen = run_fuzz(send, 150)
            assert h.get("/health").status_code == 200
    assert sum(seen.values()) >= 150 and max(seen) < 500

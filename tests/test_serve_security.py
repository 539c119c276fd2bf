"""Security of the game server (real process): tokens, seats, spectators, stale steps and replayed
requests, and hidden information (a seat's responses do not change when what it cannot see is
resampled)."""

from __future__ import annotations

import base64
import json
import random
import re
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from helpers import random_moves  # noqa: E402

from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.engine.face.hidden import resample  # noqa: E402
from fandonia_env.serve.client import (  # noqa: E402
    Client,
    ServerProcess,
    auth,
    play_humans,
    random_policy,
    record_config,
    saved_game,
)
from fandonia_env.serve.workers import agent_seed  # noqa: E402

PRIVATE = ("hand", "loyalty_drawn", "opportunity_drawn", "decision", "turn_state", "me")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("serve") / "games.sqlite3"
    with ServerProcess(str(db), "--burst", "1000", "--actions-per-s", "1000") as srv:
        yield srv


def new_game(c: Client, seats=("human", "human", "noble-rule-v1"), seed=11):
    g = c.create(list(seats), rules={"max_turns": 2}, seed=seed)
    return g["game_id"], {s["seat"]: s["token"] for s in g["seats"] if s["token"]}


def snapshot(c: Client, gid: str, toks: dict[int, str]) -> list[bytes]:
    out = [c.http.get(f"/games/{gid}/public").content]
    out += [c.http.get(f"/games/{gid}/seats/{s}", headers=auth(t)).content for s, t in sorted(toks.items())]
    return out


def deciding_seat(c: Client, gid: str, toks: dict[int, str]) -> tuple[int, dict]:
    for _ in range(500):
        for s, t in toks.items():
            st = c.seat(gid, s, t)
            if st["decision"] is not None:
                return s, st
    raise AssertionError("no human seat ever decides")


def test_tokens_are_secret_128_bit_and_stored_hashed(server):
    c = Client(server.url)
    gid, toks = new_game(c)
    assert len(set(toks.values())) == 2
    for t in toks.values():
        assert len(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))) * 8 >= 128
    con = sqlite3.connect(server.db)
    dump = "\n".join(con.iterdump())
    con.close()
    assert gid in dump and not any(t in dump for t in toks.values())


def test_no_token_other_seats_token_and_spectator_cannot_see_a_hand_or_act(server):
    c = Client(server.url)
    gid, toks = new_game(c)
    p, st = deciding_seat(c, gid, toks)
    q = next(s for s in toks if s != p)
    body = {"action": st["decision"]["options"][0]["id"], "step": st["step"]}
    before = snapshot(c, gid, toks)
    cases = [
        (c.http.get(f"/games/{gid}/seats/{p}"), 401, "missing_token"),
        (c.http.post(f"/games/{gid}/seats/{p}/act", json=body), 401, "missing_token"),
        (c.http.get(f"/games/{gid}/seats/{p}", headers=auth(toks[q])), 403, "wrong_seat"),
        (c.http.post(f"/games/{gid}/seats/{p}/act", json=body, headers=auth(toks[q])), 403, "wrong_seat"),
        (c.http.get(f"/games/{gid}/seats/{p}", headers=auth("A" * 32)), 401, "bad_token"),
        (c.http.post(f"/games/{gid}/seats/{p}/act", json=body, headers=auth("A" * 32)), 401, "bad_token"),
        (c.http.get(f"/games/{gid}/seats/2", headers=auth(toks[p])), 403, "wrong_seat"),  # a noble's seat
        (c.http.get(f"/games/{gid}/seats/2", headers=auth("A" * 32)), 401, "bad_token"),
        (c.http.post(f"/games/{gid}/seats/2/act", json=body, headers=auth(toks[p])), 403, "wrong_seat"),
        (c.http.get(f"/games/{gid}/seats/7", headers=auth(toks[p])), 404, "no_such_seat"),
        (c.http.get(f"/games/{gid}/replay"), 409, "game_not_over"),
        (c.http.get("/games/nosuchgame/seats/0", headers=auth(toks[p])), 404, "no_such_game"),
        (c.http.post(f"/games/{gid}/seats/{p}/act", json=body, headers={"Authorization": toks[p]}), 401,
         "missing_token"),
    ]
    for r, status, code in cases:
        assert r.status_code == status and r.json()["error"] == code, (r.request.url, r.text)
        assert "hand" not in r.text and toks[p] not in r.text
    assert snapshot(c, gid, toks) == before
    # another seat's token from another game does not open this one either
    gid2, toks2 = new_game(c, seed=12)
    r = c.http.get(f"/games/{gid}/seats/0", headers=auth(toks2[0]))
    assert r.status_code == 401 and r.json()["error"] == "bad_token"
    # the spectator's state and the summary hold no private item
    pub = c.public(gid)
    assert not set(PRIVATE) & set(pub["view"])
    summ = c.http.get(f"/games/{gid}").json()
    assert "view" not in summ and "token" not in json.dumps(summ)
    for s, t in toks.items():
        assert c.seat(gid, s, t)["view"]["hand"]  # a seat sees its own hand


def test_stale_steps_and_replayed_requests_are_refused_and_change_nothing(server):
    c = Client(server.url)
    gid, toks = new_game(c, seats=("human", "human"), seed=21)
    p, st = deciding_seat(c, gid, toks)
    a = st["decision"]["options"][0]["id"]
    step = st["step"]
    summary = c.summary(gid)
    ok = c.http.post(f"/games/{gid}/seats/{p}/act", json={"action": a, "step": step}, headers=auth(toks[p]))
    assert ok.status_code == 200 and ok.json()["step"] == step + 1
    # the public summary does not tell when the last action was taken (a secret pass would show)
    assert c.summary(gid) == summary and summary["updated"] == summary["created"]
    before = snapshot(c, gid, toks)
    # the very same request again (a replay) and older steps
    for s in (step, step - 1, step + 5, -1):
        r = c.http.post(f"/games/{gid}/seats/{p}/act", json={"action": a, "step": s}, headers=auth(toks[p]))
        assert r.status_code == 409, r.text
        assert r.json()["error"] in ("stale_step", "not_your_decision")
    # an illegal id at the right step, and a seat that has no decision now
    p, st = deciding_seat(c, gid, toks)
    legal = [o["id"] for o in st["decision"]["options"]]
    bad = next(x for x in range(200) if x not in legal)
    before = snapshot(c, gid, toks)
    r = c.http.post(f"/games/{gid}/seats/{p}/act", json={"action": bad, "step": st["step"]}, headers=auth(toks[p]))
    assert r.status_code == 422 and r.json()["error"] == "illegal_action" and r.json()["legal"] == legal
    q = 1 - p
    sq = c.seat(gid, q, toks[q])
    r = c.http.post(f"/games/{gid}/seats/{q}/act", json={"action": legal[0], "step": sq["step"]},
                    headers=auth(toks[q]))
    assert r.status_code == 409 and r.json()["error"] == "not_your_decision"
    assert snapshot(c, gid, toks) == before
    # after the end: nothing is accepted, everything is published
    play_humans(c, [(gid, toks)])
    r = c.http.post(f"/games/{gid}/seats/0/act", json={"action": 0, "step": 0}, headers=auth(toks[0]))
    assert r.status_code == 409 and r.json()["error"] == "game_over"
    assert c.replay(gid)["log"]


def _positions(n: int, seed: int, k: int):
    """Saved positions of a random game with n players, every k decisions."""
    g = Game(players=n, seed=seed, max_turns=3)
    for i in random_moves(g, random.Random(seed)):
        if i % k == k - 1:
            yield g


@pytest.mark.parametrize("n", [3, 5])
def test_seat_responses_byte_identical_when_hidden_cards_are_resampled(server, n):
    """A game started from a position and one from the same position with every card and counter
    seat p cannot see resampled: p's HTTP and WebSocket states, and the spectator's, are the same bytes."""
    c = Client(server.url)
    rng = random.Random(n)
    checked = 0
    for g in _positions(n, 300 + n, 5):
        # the deciding seat: resampling others' cards while another seat decides may change that
        # seat's pending options, which the engine rightly refuses to load as a saved game
        p = g.current_player()
        other = resample(g.state, p, rng)
        assert json.dumps(other.to_json(), sort_keys=True) != g.dumps()  # something hidden did change
        a = c.create(["human"] * n, start=g.to_json())
        b = c.create(["human"] * n, start=other.to_json())
        ta, tb = a["seats"][p]["token"], b["seats"][p]["token"]
        ra = c.http.get(f"/games/{a['game_id']}/seats/{p}", headers=auth(ta))
        rb = c.http.get(f"/games/{b['game_id']}/seats/{p}", headers=auth(tb))
        assert ra.status_code == rb.status_code == 200
        assert ra.content == rb.content
        assert c.http.get(f"/games/{a['game_id']}/public").content == \
            c.http.get(f"/games/{b['game_id']}/public").content
        st = ra.json()
        if st["decision"] is not None:  # the same choice is accepted in both, with the same reply
            act = {"action": st["decision"]["options"][-1]["id"], "step": st["step"]}
            xa = c.http.post(f"/games/{a['game_id']}/seats/{p}/act", json=act, headers=auth(ta))
            xb = c.http.post(f"/games/{b['game_id']}/seats/{p}/act", json=act, headers=auth(tb))
            assert xa.status_code == xb.status_code == 200
            checked += 1
        checked += 1
        if checked >= 12:
            break
    assert checked >= 6


# ---------------------------------------------------------------------------
# Secrets: no seed, no RNG state, no noble's seed while a game is played
# ---------------------------------------------------------------------------
SECRET_KEY = re.compile(r"seed|rng|random", re.I)
#: values for the path parameters of the app's routes; a route with another parameter fails the test below
#: until it is given one here (so that a new route is read too)
PARAMS = ("game_id", "seat", "replay_id", "index")


def _secret_keys(obj, path="$") -> list[str]:
    """Paths of keys that name a seed or generator, and of objects shaped like the generator's state."""
    out = []
    if isinstance(obj, dict):
        if {"state", "inc"} <= set(obj):
            out.append(path)
        for k, v in obj.items():
            if k == "public_seed" and isinstance(v, bool):
                continue  # whether the creator made the seed public (issue 41): a flag every seat is shown
            if SECRET_KEY.search(str(k)):
                out.append(f"{path}.{k}")
            out += _secret_keys(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _secret_keys(v, f"{path}[{i}]")
    return out


def _get_routes() -> tuple[list[str], list[str], list[str]]:
    """Every GET path, WebSocket path and static file of the app, enumerated from the app itself."""
    from starlette.routing import Mount, Route, WebSocketRoute

    from fandonia_env.serve import create_app

    with tempfile.TemporaryDirectory() as d:
        app = create_app(str(Path(d) / "routes.sqlite3"))
        gets, sockets, static = [], [], []
        routes = list(app.routes)
        for r in routes:  # FastAPI >= 0.165 keeps an included APIRouter whole: read its routes too
            routes += getattr(getattr(r, "original_router", None), "routes", [])
            if isinstance(r, WebSocketRoute):
                sockets.append(r.path)
            elif isinstance(r, Mount):
                root = Path(r.app.directory)
                static += [f"{r.path}/{p.relative_to(root).as_posix()}" for p in sorted(root.rglob("*")) if p.is_file()]
                static.append(r.path + "/")
            elif isinstance(r, Route) and "GET" in (r.methods or ()):
                gets.append(r.path)
        app.state.manager.pool.shutdown()
        app.state.manager.store.close()
    for path in gets + sockets:
        unknown = set(re.findall(r"{(\w+)(?::\w+)?}", path)) - set(PARAMS)
        assert not unknown, f"route {path} has parameter(s) {sorted(unknown)}: give them values in this test"
    return gets, sockets, static


class Watcher(threading.Thread):
    """A WebSocket client that records every message until the game is over."""

    def __init__(self, url: str, hello: dict) -> None:
        super().__init__(daemon=True)
        self.url, self.hello, self.messages = url, hello, []

    def run(self) -> None:
        from websockets.sync.client import connect

        with connect(self.url, max_size=2**24) as ws:
            ws.send(json.dumps(self.hello))
            while True:
                raw = ws.recv(timeout=120)
                self.messages.append(raw)
                msg = json.loads(raw)
                if msg["type"] != "state" or msg["state"]["status"] != "playing":
                    return


def test_no_endpoint_or_push_tells_a_running_games_seed_rng_or_nobles_seeds(server):
    """During play, every GET route of the app (enumerated from the app, so a new route is read too) as a
    stranger and with each seat's token, and every WebSocket push to a spectator and to each seat, is searched
    for keys naming a seed or the generator and for the values themselves: the game's 63-bit seed (drawn by the
    server: no seed given), the nobles' seeds and every state the generator went through.  The replay, after the
    end, publishes the seed as a decimal string."""
    gets, sockets, static = _get_routes()
    assert "/games/{game_id}" in gets and "/games/{game_id}/replay" in gets and sockets
    c = Client(server.url)
    # a finished game, for a real replay id (its own seed is not the one searched for)
    other = c.create(["noble-rule-v1", "random-v1"], rules={"max_turns": 1})
    play_humans(c, [(other["game_id"], {})], timeout=60)
    rid = c.http.post("/replays", json={"doc": c.replay(other["game_id"])}).json()["replay_id"]

    seats = ["human", "human", "noble-rule-v1"]
    g = c.create(seats, rules={"preset": "short-game", "max_turns": 3})
    gid = g["game_id"]
    toks = {s["seat"]: s["token"] for s in g["seats"] if s["token"]}
    ws_url = server.url.replace("http", "ws", 1)
    watchers = [Watcher(ws_url + p.replace("{game_id}", gid), hello)
                for p in sockets
                for hello in [{"spectator": True}] + [{"seat": s, "token": t} for s, t in toks.items()]]
    for w in watchers:
        w.start()
    bodies: list[tuple[str, str]] = []  # (what was read, the body)

    def sweep() -> None:
        viewers = [("stranger", {})] + [(f"seat {s}", auth(t)) for s, t in toks.items()]
        for path in gets + static:
            for seat in range(len(seats)) if "{seat}" in path else [None]:
                url = (path.replace("{game_id}", gid).replace("{replay_id}", rid).replace("{index}", "0")
                       .replace("{seat}", str(seat)))
                for who, headers in viewers:
                    r = c.http.get(url, headers=headers)
                    assert r.status_code < 500, (url, r.text)
                    bodies.append((f"GET {url} as {who}", r.text))

    actions, sweeps = 0, 0
    while True:
        p, st = None, None
        for s, t in toks.items():
            x = c.seat(gid, s, t)
            if x["status"] != "playing":
                break
            if x["decision"] is not None:
                p, st = s, x
        if st is None:
            if c.summary(gid)["status"] != "playing":
                break
            time.sleep(0.01)
            continue
        if actions in (0, 3) or actions % 12 == 11:  # the game waits for seat p: nothing moves during the sweep
            sweep()
            sweeps += 1
            assert c.summary(gid)["status"] == "playing"
        c.act(gid, p, toks[p], random_policy(st), st["step"])
        actions += 1
    assert sweeps >= 2, f"only {sweeps} sweep(s): the game ended after {actions} human actions"
    for w in watchers:
        w.join(60)
        assert not w.is_alive() and w.messages
        bodies += [(f"push to {w.hello}", m) for m in w.messages]

    # what was secret: now published by the replay, the seed as a string
    rp = c.replay(gid)
    seed = rp["config"]["seed"]
    assert isinstance(seed, str) and seed.isdigit()
    game = Game(**record_config(rp["config"]))
    secrets_ = {seed} | {str(agent_seed(int(seed), i, game.state.steps)) for i, s in enumerate(seats)
                         if s != "human"}
    assert rp["seeding"]["seed"] == seed and rp["seeding"]["secret"] is None  # no chosen seed: a drawn one
    for a in rp["actions"]:  # every state of the generator, and its increment
        secrets_ |= {game.state.rng.to_json()["state"], game.state.rng.to_json()["inc"]}
        game.apply(a["action"])
    assert game.to_json() == saved_game(rp["final"]).to_json()
    long_numbers = re.compile(r"\d{9,}")
    for what, body in bodies:
        try:
            doc = json.loads(body)
        except ValueError:
            doc = None  # a page or script: only its text is searched
        if what.startswith(("GET /openapi.json", f"GET /replays/{rid}")):
            # the API's schema names the field 'seed' of POST /games, and the replay opened is another, finished
            # game's (a running game's record cannot be had); only their values are searched
            doc = None
        assert not _secret_keys(doc), (what, _secret_keys(doc))
        assert seed not in body, what
        assert not set(long_numbers.findall(body)) & secrets_, what
    assert len(bodies) > 300

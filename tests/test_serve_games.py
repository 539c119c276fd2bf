"""The game server as a real process on a loopback port: complete games between humans (driven
by the test over HTTP and WebSocket) and nobles at 2-6 players under every rules preset."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")

from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.engine.game import make_config  # noqa: E402
from fandonia_env.engine.hidden import InfoSet  # noqa: E402
from fandonia_env.serve.client import Client, ServerProcess, play_humans, random_policy  # noqa: E402
from fandonia_env.serve.workers import make_agents, public_view  # noqa: E402

PRESETS = ["1981", "1981-all-optional", "errata", "errata-all-optional", "short-game"]
NOBLES = ["noble-rule-v1", "random-v1"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("serve") / "games.sqlite3"
    with ServerProcess(str(db), "--workers", "2") as srv:
        yield srv


def replay_in_python(rp: dict) -> Game:
    """Rebuild a finished server game from its config/start and actions, checking every noble action
    is the one the agent (same seed, same view) picks."""
    g = Game.from_json(rp["start"]) if rp["start"] else Game(**rp["config"])
    seats = [s["agent"] or "human" for s in rp["seats"]]
    bots = make_agents(seats, rp["config"]["seed"], g.state.steps)
    for a in rp["actions"]:
        p = g.current_player()
        assert p == a["seat"], f"action {a['idx']} recorded for seat {a['seat']} but seat {p} decides"
        if bots[p] is not None:
            assert bots[p].act(g.view(p, log=False), g.legal_actions(), InfoSet(g.state, p)) == a["action"]
        g.apply(a["action"])
    return g


def test_complete_games_2_to_6_players_every_preset_humans_and_nobles(server):
    c = Client(server.url)
    games, made = [], []
    for i, preset in enumerate(PRESETS):
        for n in range(2, 7):
            # seat 0 human; one more human at 4+ players; the rest nobles
            seats = ["human"] + [("human" if (k == 2 and n >= 4) else NOBLES[(k + i) % 2]) for k in range(1, n)]
            g = c.create(seats, rules={"preset": preset, "max_turns": 1}, seed=100 * i + n)
            tokens = {s["seat"]: s["token"] for s in g["seats"] if s["kind"] == "human"}
            assert all(len(t) >= 22 for t in tokens.values())  # >= 128 bits of token_urlsafe
            games.append((g["game_id"], tokens))
            made.append((preset, n, seats))
    taken = play_humans(c, games, timeout=150)
    assert all(v > 0 for v in taken.values())
    for (gid, tokens), (preset, n, seats) in zip(games, made):
        s = c.summary(gid)
        assert s["status"] == "over" and s["players"] == n
        assert s["config"] == make_config(preset=preset, players=n, max_turns=1, seed=s["config"]["seed"])
        assert [x["agent"] or "human" for x in s["seats"]] == seats
        rp = c.replay(gid)
        g = replay_in_python(rp)
        assert g.over and g.result == rp["result"] and g.winner == rp["winner"]
        assert g.to_json() == rp["final"]
        assert [e["text"] for e in rp["log"]] == [e["t"] for e in g.state.log]
        # each human seat's last state is exactly Game.view(seat) of the final game
        for seat, tok in tokens.items():
            st = c.seat(gid, seat, tok)
            assert st["view"] == json.loads(json.dumps(g.view(seat)))
            assert st["step"] == sum(1 for a in rp["actions"] if a["seat"] == seat)
        assert c.public(gid)["view"] == json.loads(json.dumps(public_view(g.state)))
    listed = {x["game_id"] for x in c.http.get("/games", params={"limit": 500}).json()["games"]}
    assert {gid for gid, _ in games} <= listed


async def _ws_play(url: str, gid: str, seat: int, token: str, http: Client) -> tuple[int, list[dict]]:
    """Play a seat using only WebSocket pushes to learn of decisions; returns actions taken and pushes."""
    pushes = []
    taken = 0
    async with websockets.connect(url.replace("http", "ws") + f"/games/{gid}/ws") as ws:
        await ws.send(json.dumps({"seat": seat, "token": token}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            assert msg["type"] == "state"
            st = msg["state"]
            pushes.append(st)
            if st["status"] != "playing":
                return taken, pushes
            if st["decision"] is not None:
                await asyncio.to_thread(http.act, gid, seat, token, random_policy(st), st["step"])
                taken += 1


async def _ws_watch(url: str, gid: str) -> list[dict]:
    out = []
    async with websockets.connect(url.replace("http", "ws") + f"/games/{gid}/ws") as ws:
        await ws.send(json.dumps({"spectator": True}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            out.append(msg["state"])
            if msg["state"]["status"] != "playing":
                return out


@pytest.mark.parametrize("n", [2, 5])
def test_websocket_pushes_drive_human_seats_and_spectators_see_public_only(server, n):
    c = Client(server.url)
    seats = ["human", "human"] + ["noble-rule-v1"] * (n - 2)
    g = c.create(seats, rules={"preset": "short-game", "max_turns": 1}, seed=77 + n)
    gid = g["game_id"]
    toks = {s["seat"]: s["token"] for s in g["seats"] if s["token"]}

    async def main():
        return await asyncio.gather(_ws_watch(server.url, gid),
                                    *[_ws_play(server.url, gid, s, t, c) for s, t in toks.items()])

    watched, *played = asyncio.run(main())
    rp = c.replay(gid)
    for (taken, pushes), seat in zip(played, toks):
        assert taken == sum(1 for a in rp["actions"] if a["seat"] == seat) > 0
        assert all(p["seat"] == seat for p in pushes)
        # no two pushes alike: a push means something this seat may see changed
        assert all(json.dumps(a) != json.dumps(b) for a, b in zip(pushes, pushes[1:]))
    assert watched[-1]["status"] == "over"
    for st in watched:
        v = st["view"]
        for k in ("hand", "loyalty_drawn", "opportunity_drawn", "decision", "turn_state", "me"):
            assert k not in v
    private = {e["text"] for e in rp["log"] if e["to"] is not None} - {e["text"] for e in rp["log"] if e["to"] is None}
    assert private, "a game with draws has private log lines"
    assert not private & set(watched[-1]["view"]["log"])


def test_websocket_reconnect_gets_current_state_and_bad_hello_is_refused(server):
    c = Client(server.url)
    g = c.create(["human", "noble-rule-v1", "human"], rules={"max_turns": 1}, seed=5)
    gid = g["game_id"]
    toks = {s["seat"]: s["token"] for s in g["seats"] if s["token"]}
    play_humans(c, [(gid, toks)], max_actions=3)

    async def first(hello) -> dict:
        async with websockets.connect(server.url.replace("http", "ws") + f"/games/{gid}/ws") as ws:
            await ws.send(hello)
            return json.loads(await asyncio.wait_for(ws.recv(), timeout=30))

    for seat, tok in toks.items():
        m = asyncio.run(first(json.dumps({"seat": seat, "token": tok})))
        assert m["type"] == "state" and m["state"] == c.seat(gid, seat, tok)
    m = asyncio.run(first(json.dumps({"spectator": True})))
    assert m["state"] == c.public(gid)
    other = toks[2]
    for hello, code in [(json.dumps({"seat": 0, "token": other}), "wrong_seat"),
                        (json.dumps({"seat": 0}), "missing_token"),
                        (json.dumps({"seat": 1, "token": "x" * 30}), "bad_token"),
                        ("not json", "malformed_json"), ("[]", "invalid_request")]:
        m = asyncio.run(first(hello))
        assert m["type"] == "error" and m["error"] == code, (hello, m)


def test_games_of_nobles_only_finish_by_themselves(server):
    c = Client(server.url)
    rng = random.Random(3)
    gids = [c.create([rng.choice(NOBLES) for _ in range(n)], rules={"max_turns": 2}, seed=n)["game_id"]
            for n in (2, 4, 6)]
    assert all(c.create(["human", "random-v1"])["game_id"] for _ in range(1))
    play_humans(c, [(gid, {}) for gid in gids], timeout=60)
    for gid in gids:
        rp = c.replay(gid)
        assert rp["status"] == "over"
        assert replay_in_python(rp).to_json() == rp["final"]

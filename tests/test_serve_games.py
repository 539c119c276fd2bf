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
from fandonia_env.engine.face.game import make_config  # noqa: E402
from fandonia_env.engine.face.hidden import InfoSet  # noqa: E402
from fandonia_env.serve.client import (  # noqa: E402
    Client,
    ServerProcess,
    play_humans,
    random_policy,
    record_config,
    saved_game,
)
from fandonia_env.serve.seeds import derive_seed  # noqa: E402
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
    assert isinstance(rp["config"]["seed"], str)  # a 63-bit seed would lose digits in a JavaScript number
    config = record_config(rp["config"])
    g = saved_game(rp["start"]) if rp["start"] else Game(**config)
    seats = [s["agent"] or "human" for s in rp["seats"]]
    bots = make_agents(seats, config["seed"], g.state.steps)
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
            seed = 100 * i + n
            g = c.create(seats, rules={"preset": preset, "max_turns": 1}, seed=seed)
            tokens = {s["seat"]: s["token"] for s in g["seats"] if s["kind"] == "human"}
            assert all(len(t) >= 22 for t in tokens.values())  # >= 128 bits of token_urlsafe
            games.append((g["game_id"], tokens))
            made.append((preset, n, seats, seed))
    taken = play_humans(c, games, timeout=150)
    assert all(v > 0 for v in taken.values())
    for (gid, tokens), (preset, n, seats, seed) in zip(games, made):
        s = c.summary(gid)
        assert s["status"] == "over" and s["players"] == n
        rp = c.replay(gid)
        # the chosen seed was mixed with the game's secret into the seed played (issue 41)
        played = derive_seed(seed, rp["seeding"]["secret"])
        assert rp["seeding"] == {"public_seed": False, "chosen_seed": str(seed), "secret": rp["seeding"]["secret"],
                                 "seed": str(played)}
        config = make_config(preset=preset, players=n, max_turns=1, seed=played)
        assert rp["config"] == dict(config, seed=str(played))
        # the summary never has the seed
        assert s["config"] == dict({k: v for k, v in config.items() if k != "seed"}, public_seed=False)
        assert [x["agent"] or "human" for x in s["seats"]] == seats
        g = replay_in_python(rp)
        assert g.over and g.result == rp["result"] and g.winner == rp["winner"]
        assert saved_game(rp["final"]).to_json() == g.to_json()
        assert [e["text"] for e in rp["log"]] == [e["t"] for e in g.state.log]
        # each human seat's last state is exactly Game.view(seat) of the final game, its private lines marked
        for seat, tok in tokens.items():
            st = c.seat(gid, seat, tok)
            assert st["view"] == json.loads(json.dumps(g.view(seat)))
            assert st["step"] == sum(1 for a in rp["actions"] if a["seat"] == seat)
            mine = [e for e in g.state.log if e["to"] in (None, seat)]
            assert st["log_private"] == [k for k, e in enumerate(mine) if e["to"] == seat]
        assert c.public(gid)["view"] == json.loads(json.dumps(public_view(g.state)))
    listed = {x["game_id"] for x in c.http.get("/games", params={"limit": 500}).json()["games"]}
    assert {gid for gid, _ in games} <= listed


class PushLog:
    """A client's log put together from pushes (each carries the lines after the ones it had)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.private: list[int] = []

    def add(self, msg: dict) -> None:
        assert msg["log_start"] == len(self.lines), (msg["log_start"], len(self.lines))
        assert all(len(self.lines) <= k < len(self.lines) + len(msg["log"]) for k in msg["log_private"])
        self.private += msg["log_private"]
        self.lines += msg["log"]


async def _ws_play(url: str, gid: str, seat: int, token: str, http: Client) -> tuple[int, list[dict], PushLog]:
    """Play a seat using only WebSocket pushes to learn of decisions; returns actions taken, pushes (the
    messages) and the log the pushes add up to."""
    pushes = []
    taken = 0
    log = PushLog()
    async with websockets.connect(url.replace("http", "ws") + f"/games/{gid}/ws") as ws:
        await ws.send(json.dumps({"seat": seat, "token": token}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            assert msg["type"] == "state"
            st = msg["state"]
            assert st["view"]["log"] is None and st["log_private"] is None  # the log travels beside the state
            log.add(msg)
            pushes.append(msg)
            if st["status"] != "playing":
                return taken, pushes, log
            if st["decision"] is not None:
                await asyncio.to_thread(http.act, gid, seat, token, random_policy(st), st["step"])
                taken += 1


async def _ws_watch(url: str, gid: str) -> tuple[list[dict], PushLog]:
    out = []
    log = PushLog()
    async with websockets.connect(url.replace("http", "ws") + f"/games/{gid}/ws") as ws:
        await ws.send(json.dumps({"spectator": True}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            log.add(msg)
            out.append(msg["state"])
            if msg["state"]["status"] != "playing":
                return out, log


@pytest.mark.parametrize("n", [2, 5])
def test_websocket_pushes_drive_human_seats_and_spectators_see_public_only(server, n):
    c = Client(server.url)
    seats = ["human", "human"] + ["noble-rule-v1"] * (n - 2)
    g = c.create(seats, rules={"preset": "short-game", "max_turns": 1}, seed=77 + n, public_seed=True)
    gid = g["game_id"]
    toks = {s["seat"]: s["token"] for s in g["seats"] if s["token"]}

    async def main():
        return await asyncio.gather(_ws_watch(server.url, gid),
                                    *[_ws_play(server.url, gid, s, t, c) for s, t in toks.items()])

    (watched, watch_log), *played = asyncio.run(main())
    rp = c.replay(gid)
    for (taken, pushes, log), seat in zip(played, toks):
        assert taken == sum(1 for a in rp["actions"] if a["seat"] == seat) > 0
        assert all(p["state"]["seat"] == seat for p in pushes)
        # no two pushes alike: a push means something this seat may see changed (its state or new lines)
        assert all(a["state"] != b["state"] or b["log"] for a, b in zip(pushes, pushes[1:]))
        # the pushes' lines add up to the seat's whole log, its private lines marked
        final = c.seat(gid, seat, toks[seat])
        assert log.lines == final["view"]["log"] and log.private == final["log_private"]
        assert [rp["log"][k]["text"] for k in range(len(rp["log"])) if rp["log"][k]["to"] in (None, seat)] == log.lines
    assert watched[-1]["status"] == "over"
    for st in watched:
        v = st["view"]
        for k in ("hand", "loyalty_drawn", "opportunity_drawn", "decision", "turn_state", "me"):
            assert k not in v
    assert watch_log.lines == c.public(gid)["view"]["log"] and watch_log.private == []
    private = {e["text"] for e in rp["log"] if e["to"] is not None} - {e["text"] for e in rp["log"] if e["to"] is None}
    assert private, "a game with draws has private log lines"
    assert not private & set(watch_log.lines)


def test_websocket_reconnect_gets_current_state_and_bad_hello_is_refused(server):
    c = Client(server.url)
    g = c.create(["human", "noble-rule-v1", "human"], rules={"max_turns": 1}, seed=5, public_seed=True)
    gid = g["game_id"]
    toks = {s["seat"]: s["token"] for s in g["seats"] if s["token"]}
    play_humans(c, [(gid, toks)], max_actions=3)

    async def first(hello) -> dict:
        async with websockets.connect(server.url.replace("http", "ws") + f"/games/{gid}/ws") as ws:
            await ws.send(hello)
            return json.loads(await asyncio.wait_for(ws.recv(), timeout=30))

    for seat, tok in toks.items():
        m = asyncio.run(first(json.dumps({"seat": seat, "token": tok})))
        full = c.seat(gid, seat, tok)
        assert m["type"] == "state" and m["state"] == c.seat(gid, seat, tok, log=False)
        assert m["log_start"] == 0 and m["log"] == full["view"]["log"] and m["log_private"] == full["log_private"]
        # a client that has the first k lines gets the rest only; one that wants no log gets none
        k = len(full["view"]["log"]) - 3
        m = asyncio.run(first(json.dumps({"seat": seat, "token": tok, "log_from": k})))
        assert m["log_start"] == k and m["log"] == full["view"]["log"][k:]
        assert m["log_private"] == [i for i in full["log_private"] if i >= k]
        m = asyncio.run(first(json.dumps({"seat": seat, "token": tok, "log": False})))
        assert set(m) == {"type", "state"} and m["state"] == c.seat(gid, seat, tok, log=False)
    m = asyncio.run(first(json.dumps({"spectator": True})))
    assert m["state"] == c.public(gid, log=False) and m["log"] == c.public(gid)["view"]["log"]
    other = toks[2]
    for hello, code in [(json.dumps({"seat": 0, "token": other}), "wrong_seat"),
                        (json.dumps({"seat": 0}), "missing_token"),
                        (json.dumps({"seat": 1, "token": "x" * 30}), "bad_token"),
                        ("not json", "malformed_json"), ("[]", "invalid_request"),
                        (json.dumps({"spectator": True, "log_from": 10**6}), "invalid_request"),
                        (json.dumps({"spectator": True, "log_from": -1}), "invalid_request"),
                        (json.dumps({"spectator": True, "log": "yes"}), "invalid_request"),
                        (json.dumps({"spectator": True, "colour": 1}), "invalid_request")]:
        m = asyncio.run(first(hello))
        assert m["type"] == "error" and m["error"] == code, (hello, m)


def test_games_of_nobles_only_finish_by_themselves(server):
    c = Client(server.url)
    rng = random.Random(3)
    gids = [c.create([rng.choice(NOBLES) for _ in range(n)], rules={"max_turns": 2}, seed=n, public_seed=True)["game_id"]
            for n in (2, 4, 6)]
    assert all(c.create(["human", "random-v1"])["game_id"] for _ in range(1))
    play_humans(c, [(gid, {}) for gid in gids], timeout=60)
    for gid in gids:
        rp = c.replay(gid)
        assert rp["status"] == "over"
        assert replay_in_python(rp).to_json() == saved_game(rp["final"]).to_json()


#: The documented bound (docs/server.md, "Bytes per push") on every push after a connection's first one, at 6
#: players: the state without the log (~21 KB at 6 players) and the few log lines of one change.
PUSH_BOUND = 32 * 1024


def test_websocket_pushes_carry_only_new_log_lines_and_stay_under_the_bound_at_6_players(server):
    c = Client(server.url)
    g = c.create(["human"] + ["noble-rule-v1"] * 5, rules={"max_turns": 4}, seed=606, public_seed=True)
    gid = g["game_id"]
    tok = g["seats"][0]["token"]
    sizes: dict[str, list[int]] = {"seat": [], "spectator": []}

    async def play() -> PushLog:
        log = PushLog()
        async with websockets.connect(server.url.replace("http", "ws") + f"/games/{gid}/ws", max_size=2**24) as ws:
            await ws.send(json.dumps({"seat": 0, "token": tok}))
            while True:
                raw = await asyncio.wait_for(ws.recv(), timeout=60)
                sizes["seat"].append(len(raw))
                msg = json.loads(raw)
                log.add(msg)
                st = msg["state"]
                if st["status"] != "playing":
                    return log
                if st["decision"] is not None:
                    await asyncio.to_thread(c.act, gid, 0, tok, random_policy(st), st["step"])

    async def watch() -> PushLog:
        log = PushLog()
        async with websockets.connect(server.url.replace("http", "ws") + f"/games/{gid}/ws", max_size=2**24) as ws:
            await ws.send(json.dumps({"spectator": True}))
            while True:
                raw = await asyncio.wait_for(ws.recv(), timeout=60)
                sizes["spectator"].append(len(raw))
                msg = json.loads(raw)
                log.add(msg)
                if msg["state"]["status"] != "playing":
                    return log

    async def main():
        return await asyncio.gather(play(), watch())

    seat_log, watch_log = asyncio.run(main())
    assert seat_log.lines == c.seat(gid, 0, tok)["view"]["log"]
    assert watch_log.lines == c.public(gid)["view"]["log"]
    full = len(c.http.get(f"/games/{gid}/seats/0", headers={"Authorization": f"Bearer {tok}"}).content)
    for who, xs in sizes.items():
        assert len(xs) > 50, (who, len(xs))
        assert max(xs[1:]) < PUSH_BOUND, (who, max(xs[1:]))
    # the bound bites: a push of the whole state (the log included) would exceed it by the end of this game
    assert full > PUSH_BOUND

"""Bounded load run of the game server (loopback only; stops by itself).

Starts ``python -m fandonia_env.serve`` on a free 127.0.0.1 port with a throw-away database (or uses
``--url`` of a loopback server), then runs ``--games`` concurrent games: each has one human seat
played by this script over HTTP (poll the seat's state, act when it must decide) and nobles in every
other seat, moved by the server's worker pool.  Stops when every game is over, after ``--duration``
seconds, or after ``--max-requests`` requests, whichever comes first.  Prints requests/s and
p50/p99 latency (all requests and per kind).

With ``--ws`` the human seat learns of its decisions from WebSocket pushes instead of polling (acting
over HTTP with ``?log=false``), a spectator watches every game too, and the size of every push is
reported (``push_bytes``: the first message of each connection apart from the rest).

    .venv/bin/python scripts/load_server.py --games 50 --players 4 --max-turns 3 --duration 120
    .venv/bin/python scripts/load_server.py --ws --games 3 --players 6 --max-turns 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fandonia_env.serve.client import ServerProcess  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


class Load:
    def __init__(self, url: str, a: argparse.Namespace) -> None:
        self.url = url
        self.a = a
        self.lat: dict[str, list[float]] = {"create": [], "state": [], "act": []}
        self.errors: dict[int, int] = {}
        self.requests = 0
        self.actions = 0
        self.deadline = time.monotonic() + a.duration
        self.finished = 0
        self.push_first: list[int] = []   # bytes of the first message of each WebSocket connection
        self.push_rest: list[int] = []    # bytes of every later push

    def stop(self) -> bool:
        return time.monotonic() > self.deadline or self.requests >= self.a.max_requests

    async def req(self, c: httpx.AsyncClient, kind: str, method: str, path: str, **kw) -> httpx.Response:
        t = time.perf_counter()
        r = await c.request(method, path, **kw)
        self.lat[kind].append(time.perf_counter() - t)
        self.requests += 1
        if r.status_code >= 400:
            self.errors[r.status_code] = self.errors.get(r.status_code, 0) + 1
        return r

    async def create(self, c: httpx.AsyncClient, i: int) -> tuple[str, str, dict[str, str]]:
        """Game ``i``: seat 0 human, the others the agents in turn; its id, seat 0's token and auth header."""
        a = self.a
        seats = ["human"] + [a.agents[(i + k) % len(a.agents)] for k in range(a.players - 1)]
        r = await self.req(c, "create", "POST", "/games",
                           json={"seats": seats, "seed": i, "rules": {"max_turns": a.max_turns}})
        g = r.json()
        tok = g["seats"][0]["token"]
        return g["game_id"], tok, {"Authorization": f"Bearer {tok}"}

    async def game(self, c: httpx.AsyncClient, i: int) -> None:
        a = self.a
        rng = random.Random(i)
        gid, _, h = await self.create(c, i)
        q = "" if a.with_log else "?log=false"
        st = (await self.req(c, "state", "GET", f"/games/{gid}/seats/0{q}", headers=h)).json()
        while not self.stop():
            if st["status"] != "playing":
                self.finished += 1
                return
            if st["decision"] is None:
                await asyncio.sleep(a.poll)
                st = (await self.req(c, "state", "GET", f"/games/{gid}/seats/0{q}", headers=h)).json()
                continue
            action = rng.choice(st["decision"]["options"])["id"]
            r = await self.req(c, "act", "POST", f"/games/{gid}/seats/0/act{q}", headers=h,
                               json={"action": action, "step": st["step"]})
            self.actions += 1
            st = r.json() if r.status_code == 200 else \
                (await self.req(c, "state", "GET", f"/games/{gid}/seats/0{q}", headers=h)).json()

    async def ws_game(self, c: httpx.AsyncClient, i: int) -> None:
        """One game whose human seat is driven by WebSocket pushes; a spectator watches it as well."""
        rng = random.Random(i)
        gid, tok, h = await self.create(c, i)
        ws_url = self.url.replace("http", "ws", 1) + f"/games/{gid}/ws"

        async def listen(ws: websockets.ClientConnection, hello: dict) -> None:
            await ws.send(json.dumps(hello))
            first = True
            while not self.stop():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(1.0, self.deadline - time.monotonic()))
                except TimeoutError:
                    return
                (self.push_first if first else self.push_rest).append(len(raw))
                first = False
                msg = json.loads(raw)
                if msg.get("type") != "state":
                    raise RuntimeError(f"game {gid}: {msg}")
                st = msg["state"]
                if st["status"] != "playing":
                    return
                if hello.get("seat") == 0 and st.get("decision") is not None:
                    action = rng.choice(st["decision"]["options"])["id"]
                    await self.req(c, "act", "POST", f"/games/{gid}/seats/0/act?log=false", headers=h,
                                       json={"action": action, "step": st["step"]})
                    self.actions += 1

        async with websockets.connect(ws_url, max_size=2**24) as seat_ws, \
                websockets.connect(ws_url, max_size=2**24) as watch_ws:
            await asyncio.gather(listen(seat_ws, {"seat": 0, "token": tok}), listen(watch_ws, {"spectator": True}))
        if (await self.req(c, "state", "GET", f"/games/{gid}/seats/0?log=false", headers=h)).json()["status"] \
                != "playing":
            self.finished += 1

    async def run(self) -> dict:
        limits = httpx.Limits(max_connections=self.a.games, max_keepalive_connections=self.a.games)
        t0 = time.perf_counter()
        async with httpx.AsyncClient(base_url=self.url, timeout=60, limits=limits) as c:
            play = self.ws_game if self.a.ws else self.game
            await asyncio.gather(*[play(c, i) for i in range(self.a.games)])
            wall = time.perf_counter() - t0
            games = (await c.get("/games", params={"limit": 500})).json()["games"]
            server_actions = 0  # every action of finished games, nobles' included (not timed)
            for g in games:
                if g["status"] == "over":
                    server_actions += len((await c.get(f"/games/{g['game_id']}/replay")).json()["actions"])
        every = [x for v in self.lat.values() for x in v]
        pushes = {}
        if self.a.ws:
            rest = self.push_rest
            pushes = {"connections": len(self.push_first), "first_max": max(self.push_first, default=0),
                      "later_n": len(rest), "later_mean": round(sum(rest) / len(rest)) if rest else 0,
                      "later_p50": pct(rest, 0.5), "later_p99": pct(rest, 0.99), "later_max": max(rest, default=0),
                      "total": sum(self.push_first) + sum(rest)}
        return {
            "games": self.a.games, "players": self.a.players, "max_turns": self.a.max_turns,
            "agents": self.a.agents, "with_log": self.a.with_log, "finished": self.finished,
            "over_on_server": sum(1 for g in games if g["status"] == "over"),
            "requests": self.requests, "human_actions": self.actions, "errors": self.errors,
            "server_actions": server_actions, "server_actions_per_s": round(server_actions / wall, 1),
            "wall_s": round(wall, 2), "requests_per_s": round(self.requests / wall, 1),
            "p50_ms": round(pct(every, 0.50) * 1000, 2), "p99_ms": round(pct(every, 0.99) * 1000, 2),
            "by_kind": {k: {"n": len(v), "p50_ms": round(pct(v, 0.5) * 1000, 2),
                            "p99_ms": round(pct(v, 0.99) * 1000, 2)} for k, v in self.lat.items()},
            **({"push_bytes": pushes} if self.a.ws else {}),
        }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50, help="concurrent games (1-500)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--max-turns", type=int, default=3)
    ap.add_argument("--agents", default="noble-rule-v1,random-v1", help="comma-separated noble ids for the other seats")
    ap.add_argument("--duration", type=float, default=120.0, help="stop after this many seconds (max 900)")
    ap.add_argument("--max-requests", type=int, default=200_000, help="stop after this many requests (max 2,000,000)")
    ap.add_argument("--poll", type=float, default=0.02, help="seconds between polls while nobles move")
    ap.add_argument("--workers", type=int, default=4, help="the server's noble threads (when started here)")
    ap.add_argument("--with-log", action="store_true", help="fetch states with the full log (default: ?log=false)")
    ap.add_argument("--ws", action="store_true",
                    help="drive the human seat by WebSocket pushes, watch as a spectator, report bytes per push")
    ap.add_argument("--url", help="a running server on a loopback address instead of starting one")
    ap.add_argument("--json", help="also write the results to this file")
    a = ap.parse_args(argv)
    a.agents = [x for x in a.agents.split(",") if x]
    if not 1 <= a.games <= 500 or not 2 <= a.players <= 6 or not 0 < a.duration <= 900 \
            or not 0 < a.max_requests <= 2_000_000 or not a.agents:
        ap.error("bounds: --games 1..500, --players 2..6, --duration (0, 900], --max-requests (0, 2e6], --agents")
    if a.url:
        host = urlparse(a.url).hostname
        if host not in ("127.0.0.1", "localhost", "::1"):
            ap.error(f"--url must be a loopback address, got {host!r}")
        res = asyncio.run(Load(a.url, a).run())
    else:
        with tempfile.TemporaryDirectory() as d, ServerProcess(
                str(Path(d) / "load.sqlite3"), "--workers", str(a.workers), "--max-games", str(a.games + 10),
                "--actions-per-s", "1000", "--burst", "1000") as srv:
            res = asyncio.run(Load(srv.url, a).run())
    print(json.dumps(res, indent=2))
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A small Python client of the game server, and ``ServerProcess`` to run the real server
(``python -m fandonia_env.serve``) as a subprocess on a free loopback port (tests, load runs).

    >>> with ServerProcess(db="games.sqlite3") as srv:
    ...     c = Client(srv.url)
    ...     game = c.create(["human", "noble-rule-v1"], rules={"max_turns": 2}, seed=1)
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import httpx


class ServerProcess:
    """The server in a subprocess; ``url`` once started.  ``kill()`` sends SIGKILL."""

    def __init__(self, db: str, *args: str, host: str = "127.0.0.1", port: int = 0,
                 start_timeout: float = 60.0) -> None:
        self.db = db
        self.args = list(args)
        self.host = host
        self.port = port
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.output: list[str] = []

    def start(self) -> ServerProcess:
        cmd = [sys.executable, "-m", "fandonia_env.serve", "--host", self.host, "--port", str(self.port),
               "--db", self.db, *self.args]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        assert self.proc.stdout is not None
        found: dict[str, str] = {}
        ready = threading.Event()

        def pump() -> None:
            assert self.proc is not None and self.proc.stdout is not None
            for line in self.proc.stdout:
                self.output.append(line)
                m = re.search(r"listening on (http://\S+)", line)
                if m and not ready.is_set():
                    found["url"] = m.group(1)
                    ready.set()
            ready.set()

        threading.Thread(target=pump, daemon=True).start()
        if not ready.wait(self.start_timeout) or "url" not in found:
            self.kill()
            raise RuntimeError("server did not start:\n" + "".join(self.output))
        self.url = found["url"]
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:  # the socket is bound before uvicorn serves: wait for /health
            try:
                if httpx.get(self.url + "/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("server never answered /health:\n" + "".join(self.output))

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind runs in the server."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class Client:
    """Thin synchronous wrapper of the HTTP API (raises ``httpx.HTTPStatusError`` on 4xx/5xx)."""

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.http = httpx.Client(base_url=self.url, timeout=timeout)

    def close(self) -> None:
        self.http.close()

    def _ok(self, r: httpx.Response) -> Any:
        r.raise_for_status()
        return r.json()

    def create(self, seats: list[str], rules: dict[str, Any] | None = None, seed: int | None = None,
               start: dict[str, Any] | None = None, public_seed: bool = False, rated: bool | None = None,
               advisor: bool | None = None) -> dict[str, Any]:
        """``POST /games``.  A chosen ``seed`` is mixed with a secret of the game's unless ``public_seed``
        (then it is played as given and shown to every seat).  ``rated`` / ``advisor``: the game's options
        (the server's defaults when None: not rated, the advisor allowed unless rated)."""
        body: dict[str, Any] = {"seats": seats}
        for key, value in (("rated", rated), ("advisor", advisor)):
            if value is not None:
                body[key] = value
        if rules is not None:
            body["rules"] = rules
        if seed is not None:
            body["seed"] = seed
        if public_seed:
            body["public_seed"] = True
        if start is not None:
            body["start"] = start
        return self._ok(self.http.post("/games", json=body))

    def seat(self, gid: str, seat: int, token: str, log: bool = True) -> dict[str, Any]:
        return self._ok(self.http.get(f"/games/{gid}/seats/{seat}", headers=auth(token),
                                      params=None if log else {"log": "false"}))

    def advice(self, gid: str, seat: int, token: str) -> dict[str, Any]:
        """``GET /games/{id}/seats/{seat}/advice``: the advisor on the seat's pending decision."""
        return self._ok(self.http.get(f"/games/{gid}/seats/{seat}/advice", headers=auth(token)))

    def act(self, gid: str, seat: int, token: str, action: int, step: int) -> dict[str, Any]:
        return self._ok(self.http.post(f"/games/{gid}/seats/{seat}/act", headers=auth(token),
                                       json={"action": action, "step": step}))

    def public(self, gid: str, log: bool = True) -> dict[str, Any]:
        return self._ok(self.http.get(f"/games/{gid}/public", params=None if log else {"log": "false"}))

    def summary(self, gid: str) -> dict[str, Any]:
        return self._ok(self.http.get(f"/games/{gid}"))

    def replay(self, gid: str) -> dict[str, Any]:
        return self._ok(self.http.get(f"/games/{gid}/replay"))


def saved_game(doc: dict[str, Any]) -> Any:
    """``Game.from_json`` of a saved game the server published (``start`` or ``final`` of a replay), whose
    config's seed is a decimal string."""
    from fandonia_env.engine import Game

    from .seeds import saved_in

    return Game.from_json(saved_in(doc))


def record_config(config: dict[str, Any]) -> dict[str, Any]:
    """A replay's ``config`` as ``Game(**config)`` takes it (the seed, a decimal string, as an int)."""
    from .seeds import config_in

    return config_in(config)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def random_policy(state: dict[str, Any]) -> int:
    """A legal choice that depends only on what the seat sees (seat, step, decision): reproducible."""
    import random

    opts = [o["id"] for o in state["decision"]["options"]]
    return random.Random(f"{state['seat']}:{state['step']}:{state['decision']['kind']}").choice(opts)


def play_humans(client: Client, games: list[tuple[str, dict[int, str]]], policy: Any = random_policy,
                timeout: float = 120.0, max_actions: int | None = None) -> dict[str, int]:
    """Play every human seat of ``games`` (game id, {seat: token}) by polling until all are over.

    Returns the number of actions taken per game.  Stops after ``max_actions`` per game if given."""
    done: dict[str, int] = {gid: 0 for gid, _ in games}
    live = {gid: seats for gid, seats in games}
    deadline = time.monotonic() + timeout
    while live:
        if time.monotonic() > deadline:
            raise TimeoutError(f"games not finished in {timeout}s: {sorted(live)}")
        progressed = False
        for gid in list(live):
            for seat, token in live[gid].items():
                st = client.seat(gid, seat, token)
                if st["status"] != "playing" or (max_actions is not None and done[gid] >= max_actions):
                    live.pop(gid)
                    break
                while st["decision"] is not None and st["status"] == "playing":
                    st = client.act(gid, seat, token, policy(st), st["step"])  # the reply is the new state
                    done[gid] += 1
                    progressed = True
                    if max_actions is not None and done[gid] >= max_actions:
                        break
            else:
                if not live[gid]:  # no human seat: wait for the nobles
                    if client.summary(gid)["status"] != "playing":
                        live.pop(gid)
        if not progressed:
            time.sleep(0.01)
    return done

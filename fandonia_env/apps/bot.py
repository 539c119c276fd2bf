"""A computer noble for any front end: ``python -m fandonia_env.bot --agent ID``.

A line protocol over stdin/stdout in the spirit of UCI and GTP: every request and every reply
is one JSON object on one line (see ``docs/protocol.md`` and the JSON Schemas in
``docs/protocol/``).  Requests carry ``"cmd"``; replies carry ``"reply"`` and echo the request's
``"id"`` when it had one.  A bad request gets ``{"reply": "error", "error": code, "detail": text}``;
the bot never crashes on input.

Hidden information: the bot is only ever given its own seat's view.  A ``position`` is either
that view with the legal ids, or a saved game and a seat; a saved game is resampled at once
(``engine.hidden.resample``: every card and counter the seat cannot see redrawn) and the
original dropped, so nothing the seat may not know can reach the agent.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import IO, Any

from fandonia_env.engine.face.hidden import seat_information as seat_information  # the bot's saved-game positions

__all__ = ["COMMANDS", "MAX_LINE", "NAME_", "PROTOCOL", "Bot", "BotError", "bot_seeds", "main", "serve"]

PROTOCOL = 1
NAME_ = "fandonia-bot"
MAX_LINE = 16 * 1024 * 1024


class BotError(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("fandonia_env")
    except Exception:
        return "0"


def bot_seeds(seed: int) -> tuple[int, random.Random]:
    """The agent's seed and the resampling generator of a game started with ``seed``."""
    return seed, random.Random(f"fandonia-bot:{seed}")


class Bot:
    """The protocol's state machine (one agent, one game at a time)."""

    def __init__(self, agent_id: str, seed: int = 0) -> None:
        import fandonia_env.agents as agents
        if agent_id not in agents.AGENTS:
            agents.make_agent(agent_id, seed=0)  # ids make_agent accepts beyond the registry, or ValueError
        self.agent_id = agent_id
        self.default_seed = seed
        self.seat: int | None = None
        self.players: int | None = None
        self.rules: dict[str, Any] = {}
        self._new(seed)

    def _new(self, seed: int) -> None:
        import fandonia_env.agents as agents
        s, self.rng = bot_seeds(seed)
        self.agent = agents.make_agent(self.agent_id, seed=s)
        self.agent.reset(s)
        self.view: dict[str, Any] | None = None
        self.legal: list[int] = []
        self.infoset: Any = None

    # -- one request -> one reply -----------------------------------------------------
    def handle(self, line: str) -> dict[str, Any]:
        try:
            req = json.loads(line)
        except ValueError:
            return _err("malformed_json", "the line is not valid JSON; send one JSON object per line")
        rid = req.get("id") if isinstance(req, dict) else None
        if not _int(rid) and not isinstance(rid, str):
            rid = None  # never echoed: a reply's id is a string or an integer
        try:
            if not isinstance(req, dict):
                raise BotError("bad_request", "a request must be a JSON object with a 'cmd' field")
            if "id" in req and rid is None:
                raise BotError("bad_request", "'id' must be a string or an integer (or left out), got "
                                              f"{_json_value(req['id'])}")
            cmd = req.get("cmd")
            fn = getattr(self, f"cmd_{cmd}") if isinstance(cmd, str) and cmd in COMMANDS else None
            if fn is None:
                raise BotError("unknown_cmd", f"unknown cmd {cmd!r}; commands: {sorted(COMMANDS)}")
            extra = set(req) - COMMANDS[cmd] - {"cmd", "id"}
            if extra:
                raise BotError("bad_request", f"unknown field(s) {sorted(extra)} for {cmd!r}; allowed: "
                                              f"{sorted(COMMANDS[cmd] | {'cmd', 'id'})}")
            out = fn(req)
        except BotError as e:
            out = _err(e.code, e.detail)
        except Exception as e:  # an agent or engine failure is reported, never fatal
            out = _err("internal", f"{type(e).__name__}: {e}")
        if rid is not None:
            out["id"] = rid
        return out

    def cmd_hello(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"reply": "hello", "name": NAME_, "version": _version(), "protocol": PROTOCOL,
                "agent": self.agent_id}

    def cmd_name(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"reply": "name", "name": f"{NAME_} ({self.agent_id})"}

    def cmd_version(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"reply": "version", "version": _version(), "protocol": PROTOCOL}

    def cmd_new_game(self, req: dict[str, Any]) -> dict[str, Any]:
        from fandonia_env.engine.core.options import ConfigError
        from fandonia_env.engine.face.game import make_config

        players, seat, seed = req.get("players"), req.get("seat"), req.get("seed", self.default_seed)
        rules = req.get("rules", {})
        if not _int(players) or not 2 <= players <= 6:
            raise BotError("bad_request", f"'players' must be an int from 2 to 6, got {players!r}")
        if not _int(seat) or not 0 <= seat < players:
            raise BotError("bad_request", f"'seat' must be an int from 0 to {players - 1}, got {seat!r}")
        if not _int(seed) or seed < 0:
            raise BotError("bad_request", f"'seed' must be a non-negative int, got {seed!r}")
        if not isinstance(rules, dict):
            raise BotError("bad_request", "'rules' must be an object (preset, edition, optional, max_turns)")
        bad = set(rules) - {"preset", "edition", "optional", "max_turns"}
        if bad:
            raise BotError("bad_rules", f"unknown rules field(s) {sorted(bad)}; allowed: edition, max_turns, "
                                        "optional, preset")
        try:
            make_config(players=players, **rules)
        except (ConfigError, TypeError) as e:
            raise BotError("bad_rules", str(e)) from None
        self.seat, self.players, self.rules = seat, players, dict(rules)
        self._new(seed)
        return {"reply": "ok", "cmd": "new_game"}

    def cmd_position(self, req: dict[str, Any]) -> dict[str, Any]:
        from fandonia_env.engine.core.actions import NUM_ACTIONS

        self.view, self.legal, self.infoset = None, [], None  # a refused position leaves none to 'go' on
        if "game" in req:
            if "view" in req or "legal" in req:
                raise BotError("bad_request", "give either 'game' and 'seat' or 'view' and 'legal', not both")
            return self._position_game(req.get("game"), req.get("seat", self.seat))
        view, legal = req.get("view"), req.get("legal")
        if not isinstance(view, dict) or not _int(view.get("me")):
            raise BotError("bad_request", "'view' must be a seat's view (Game.view(seat)) with an int 'me'")
        if self.seat is not None and view["me"] != self.seat:
            raise BotError("wrong_seat", f"the view is seat {view['me']}'s; this bot plays seat {self.seat}")
        if legal is None and isinstance(view.get("decision"), dict):
            legal = view["decision"].get("options")
        if (not isinstance(legal, list) or not legal or not all(_int(a) and 0 <= a < NUM_ACTIONS for a in legal)
                or len(set(legal)) != len(legal)):
            raise BotError("bad_request", f"'legal' must be a non-empty list of distinct action ids 0..{NUM_ACTIONS - 1}")
        if self.players is not None and view.get("n_players") != self.players:
            raise BotError("bad_request", f"the view has n_players {view.get('n_players')!r}; new_game said "
                                          f"{self.players}")
        self.view, self.legal, self.infoset = view, list(legal), None
        return {"reply": "ok", "cmd": "position", "seat": view["me"], "legal": self.legal}

    def _position_game(self, doc: Any, seat: Any) -> dict[str, Any]:
        from fandonia_env.engine import Game, StateError
        from fandonia_env.engine.face.hidden import InfoSet

        if not isinstance(doc, (dict, str)):
            raise BotError("bad_game", "'game' must be a saved game (Game.to_json) object")
        try:
            g = Game.from_json(doc)
        except StateError as e:
            raise BotError("bad_game", f"saved game rejected: {e}") from None
        except Exception as e:
            raise BotError("bad_game", f"saved game rejected: {type(e).__name__}: {e}") from None
        if not _int(seat) or not 0 <= seat < g.n_players:
            raise BotError("bad_request", f"'seat' must be an int from 0 to {g.n_players - 1}, got {seat!r}")
        if self.seat is not None and seat != self.seat:
            raise BotError("wrong_seat", f"this bot plays seat {self.seat}, not {seat}")
        if g.over:
            raise BotError("game_over", "the saved game is finished: there is nothing to decide")
        if g.current_player() != seat:
            raise BotError("not_to_move", f"seat {seat} has no decision in this position")
        hidden = seat_information(g.state, seat, self.rng)  # the true state is dropped
        del g
        mine = Game.from_state(hidden, advance=False)
        self.view, self.legal, self.infoset = mine.view(seat, log=False), mine.legal_actions(), InfoSet(hidden, seat)
        return {"reply": "ok", "cmd": "position", "seat": seat, "legal": self.legal}

    def cmd_go(self, req: dict[str, Any]) -> dict[str, Any]:
        from fandonia_env.engine.core.actions import NAME, describe

        if self.view is None:
            raise BotError("no_position", "send a 'position' before 'go'")
        a = self.agent.act(self.view, list(self.legal), self.infoset)
        if a not in self.legal:
            raise BotError("internal", f"the agent chose {a!r}, not a legal id")
        a = int(a)
        return {"reply": "action", "action": a, "name": NAME[a], "label": describe(a)}

    def cmd_quit(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"reply": "bye"}


#: The fields each command may carry besides "cmd" and "id".
COMMANDS: dict[str, set[str]] = {
    "hello": set(), "name": set(), "version": set(), "go": set(), "quit": set(),
    "new_game": {"players", "seat", "seed", "rules"},
    "position": {"view", "legal", "game", "seat"},
}


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _json_value(x: Any) -> str:
    """A parsed JSON value for an error message: its JSON type and (the start of) its text."""
    if x is None:
        return "null"
    kind = ("a boolean" if isinstance(x, bool) else
            {dict: "an object", list: "an array", str: "a string", int: "an integer", float: "a number"}[type(x)])
    text = json.dumps(x)
    return f"{kind} {text if len(text) <= 60 else text[:57] + '...'}"


def _err(code: str, detail: str) -> dict[str, Any]:
    return {"reply": "error", "error": code, "detail": detail}


def serve(bot: Bot, inp: IO[bytes], out: IO[str]) -> int:
    """Read requests until ``quit`` or end of input."""
    while True:
        raw = inp.readline(MAX_LINE + 1)
        if not raw:
            return 0
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip the rest of the over-long line
                raw = inp.readline(MAX_LINE)
            reply = _err("line_too_long", f"a request line must be under {MAX_LINE} bytes")
        else:
            line = raw.decode("utf-8", errors="replace").strip()
            if not line:
                continue
            reply = bot.handle(line)
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()
        if reply.get("reply") == "bye":
            return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.bot",
                                 description="A computer noble speaking a JSON-lines protocol on stdin/stdout.")
    ap.add_argument("--agent", required=True, help="agent id (see agents.AGENTS), e.g. noble-rule-v1")
    ap.add_argument("--seed", type=int, default=0, help="seed used when new_game gives none")
    a = ap.parse_args(argv)
    try:
        bot = Bot(a.agent, a.seed)
    except Exception as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return serve(bot, sys.stdin.buffer, sys.stdout)

"""Replays of finished or saved games for the replay page (``POST /replays``, ``GET /replays/{id}/frames/{i}``).

A replay document is rebuilt by the engine on the server, then read one frame at a time:

* a **game record** - ``{"config", "seats", "start", "actions"}``: the server's ``GET /games/{id}/replay``
  and the terminal game's ``save FILE`` (``python -m fandonia_env.play``). Every action is re-applied
  (each must be legal for the seat it is recorded for), so it steps move by move;
* a **tournament's results.json** (``python -m fandonia_env.tournament --out DIR``) and the index of one of
  its games: the game is played again with the same agents and seeds (the tournament is reproducible) and
  checked against the record (result, winner, number of decisions);
* a **saved position** (``Game.to_json()``): it has no move history, so it is one frame with its whole log.

Frame ``i`` is the game before action ``i`` (the last frame is the end). A replay shows everything - every
hand, drawn counters and private log lines - because it is given whole to whoever opens it: the server's
own replays exist only once a game is over (``/games/{id}/replay`` refuses before), and a saved game or a
tournament is the uploader's own file.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from fandonia_env.engine import NAME, NUM_ACTIONS, ConfigError, Game, InfoSet, StateError, describe, make_config
from fandonia_env.engine.data.components import CARD_TYPE_OF, OPPORTUNITY_TYPE_OF

if TYPE_CHECKING:
    from fandonia_env.engine import GameState

from .models import ApiError
from .seeds import config_in, saved_in, seed_text
from .workers import public_view

#: A snapshot of the game every this many actions; a frame is the nearest snapshot plus the rest.
SNAPSHOT_EVERY = 16
MAX_ACTIONS = 50_000
MAX_TOURNAMENT_DECISIONS = 50_000


class ReplayData:
    """One rebuilt game: its actions and snapshots, from which any frame is computed."""

    def __init__(self, rid: str, source: str, config: dict[str, Any], seats: list[dict[str, Any]],
                 first: Game, actions: list[tuple[int, int]], note: str = "") -> None:
        self.rid = rid
        self.source = source
        self.config = config
        self.seats = seats
        self.actions = actions          # (seat, action id) of every move, in order
        self.note = note
        self.snapshots: list[GameState] = []
        g = first.clone()
        for i, (seat, a) in enumerate(actions):
            if i % SNAPSHOT_EVERY == 0:
                self.snapshots.append(g.state.clone())
            if g.over:
                raise ApiError(422, "bad_replay", f"action {i} ({_name(a)}) comes after the end of the game")
            p = g.current_player()
            if p != seat:
                raise ApiError(422, "bad_replay", f"action {i} is recorded for seat {seat} but seat {p} decides "
                                                  "there: the actions do not belong to this game")
            if a not in g.legal_actions():
                raise ApiError(422, "bad_replay", f"action {i} ({_name(a)}) is not legal there; legal ids: "
                                                  f"{g.legal_actions()}")
            g.apply(a)
        if len(actions) % SNAPSHOT_EVERY == 0:
            self.snapshots.append(g.state.clone())
        self.final = g
        self.lock = threading.Lock()

    @property
    def n_frames(self) -> int:
        return len(self.actions) + 1

    def info(self) -> dict[str, Any]:
        return {"replay_id": self.rid, "source": self.source, "config": seed_text(self.config), "seats": self.seats,
                "n_frames": self.n_frames, "note": self.note,
                "actions": [{"idx": i, "seat": s, "action": a, "name": NAME[a], "label": describe(a)}
                            for i, (s, a) in enumerate(self.actions)],
                "result": self.final.result, "winner": self.final.winner, "games": None}

    def game_at(self, i: int) -> Game:
        if not 0 <= i < self.n_frames:
            raise ApiError(404, "no_such_frame", f"frame must be 0..{self.n_frames - 1}, got {i}")
        k = i // SNAPSHOT_EVERY
        g = Game.from_state(self.snapshots[k].clone(), advance=False)
        for _, a in self.actions[k * SNAPSHOT_EVERY:i]:
            g.apply(a)
        return g

    def frame(self, i: int) -> dict[str, Any]:
        with self.lock:
            g = self.game_at(i)
        st = g.state
        d = g.decision()
        decision = None
        if d is not None:
            decision = {"player": d["player"], "kind": d["kind"], "ctx": d["ctx"],
                        "options": [{"id": a, "name": NAME[a], "label": describe(a)} for a in d["options"]]}
        nxt = None
        if i < len(self.actions):
            s, a = self.actions[i]
            nxt = {"idx": i, "seat": s, "action": a, "name": NAME[a], "label": describe(a)}
        view = public_view(st)
        view["log"] = [{"turn": e["turn"], "text": e["t"], "to": e["to"]} for e in st.log]
        hidden = [{"seat": pl.idx, "hand": sorted(CARD_TYPE_OF[c] for c in pl.hand),
                   "loyalty_drawn": sorted(pl.loyalty_drawn),
                   "opportunity_drawn": sorted(OPPORTUNITY_TYPE_OF[o] for o in pl.opportunity_drawn)}
                  for pl in st.players]
        return {"replay_id": self.rid, "index": i, "n_frames": self.n_frames, "decision": decision,
                "next_action": nxt, "view": view, "hidden": hidden}


class ReplayStore:
    """The replays opened on this server, the least recently used dropped beyond ``capacity``."""

    def __init__(self, allowed_agents: set[str], capacity: int = 16) -> None:
        self.allowed_agents = allowed_agents
        self.capacity = capacity
        self.items: OrderedDict[str, ReplayData] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, rid: str) -> ReplayData:
        with self.lock:
            r = self.items.get(rid)
            if r is None:
                raise ApiError(404, "no_such_replay", f"no replay {rid!r} (replays are kept in memory; open the "
                                                      "file again)")
            self.items.move_to_end(rid)
            return r

    def open(self, doc: dict[str, Any], game: int | None) -> dict[str, Any]:
        rid = secrets.token_urlsafe(9)
        if _is_tournament(doc):
            if game is None:
                return {"replay_id": None, "source": "tournament", "config": seed_text(doc.get("config") or {}),
                        "seats": [],
                        "n_frames": 0, "note": "a tournament: choose one of its games", "actions": [],
                        "result": None, "winner": None, "games": _tournament_games(doc)}
            r = self._tournament(rid, doc, game)
        elif game is not None:
            raise ApiError(422, "bad_replay", "'game' is only for a tournament's results.json")
        elif isinstance(doc.get("actions"), list) and isinstance(doc.get("config"), dict):
            r = self._record(rid, doc)
        elif isinstance(doc.get("players"), list) and isinstance(doc.get("chars"), dict):
            try:
                g = Game.from_json(saved_in(doc, "doc"))
            except (StateError, ValueError) as e:
                raise ApiError(422, "bad_replay", f"saved game rejected: {e}") from None
            seats = [{"seat": i, "kind": "human", "agent": None} for i in range(g.n_players)]
            r = ReplayData(rid, "saved_game", dict(g.state.config), seats, g, [],
                           note="a saved position has no move history: one frame with its whole log")
        else:
            raise ApiError(422, "bad_replay", "not a game this page can open: expected a game record "
                                              "(/games/{id}/replay or a 'save' of python -m fandonia_env.play: "
                                              "config + actions), a tournament's results.json, or a saved "
                                              "game (Game.to_json)")
        with self.lock:
            self.items[rid] = r
            while len(self.items) > self.capacity:
                self.items.popitem(last=False)
        return r.info()

    # -- the kinds of document -------------------------------------------------------------
    def _record(self, rid: str, doc: dict[str, Any]) -> ReplayData:
        config, start, acts = doc["config"], doc.get("start"), doc["actions"]
        if len(acts) > MAX_ACTIONS:
            raise ApiError(422, "bad_replay", f"{len(acts)} actions: at most {MAX_ACTIONS} are replayed")
        try:
            if start is not None:
                if not isinstance(start, dict):
                    raise ApiError(422, "bad_replay", "'start' must be a saved game (Game.to_json) or null")
                g = Game.from_json(saved_in(start, "start"))
                if not g.over and g.decision() is None:
                    g = Game.from_state(g.state)
            else:
                if not isinstance(config, dict) or config.get("seed") is None:
                    # without it the record would replay as seed 0, another deal, and fail on a legal action
                    raise ApiError(422, "bad_replay", "the game record's config has no seed: a record without a "
                                                      "start position replays from config.seed, the seed it was "
                                                      "played with (an integer or its decimal string)")
                g = Game(**make_config(**config_in(config)))
        except (StateError, ConfigError, TypeError, ValueError) as e:
            raise ApiError(422, "bad_replay", f"the game's config or start position is rejected: {e}") from None
        moves = []
        for i, a in enumerate(acts):
            ok = (isinstance(a, dict) and isinstance(a.get("seat"), int) and isinstance(a.get("action"), int)
                  and not isinstance(a.get("action"), bool) and 0 <= a["action"] < NUM_ACTIONS)
            if not ok:
                raise ApiError(422, "bad_replay", f"actions[{i}] must be {{\"seat\": int, \"action\": id 0.."
                                                  f"{NUM_ACTIONS - 1}}}, got {str(a)[:80]}")
            moves.append((a["seat"], a["action"]))
        seats = doc.get("seats")
        if not (isinstance(seats, list) and len(seats) == g.n_players and all(isinstance(s, dict) for s in seats)):
            seats = [{"seat": i, "kind": "human", "agent": None} for i in range(g.n_players)]
        seats = [{"seat": i, "kind": "agent" if s.get("agent") else "human",
                  "agent": str(s["agent"]) if s.get("agent") else None} for i, s in enumerate(seats)]
        r = ReplayData(rid, "record", dict(g.state.config), seats, g, moves)
        final = doc.get("final") or doc.get("game")
        if isinstance(final, dict) and final.get("steps") is not None and final.get("steps") != r.final.state.steps:
            raise ApiError(422, "bad_replay", "the actions do not lead to the saved final state "
                                              f"(step {r.final.state.steps}, the file says {final.get('steps')})")
        return r

    def _tournament(self, rid: str, doc: dict[str, Any], index: int) -> ReplayData:
        import fandonia_env.agents as agent_registry
        from fandonia_env.arena.tournament import agent_seed

        games = doc["games"]
        if not 0 <= index < len(games):
            raise ApiError(404, "no_such_game", f"game must be 0..{len(games) - 1}, got {index}")
        rec, cfg = games[index], doc.get("config") or {}
        try:
            seats_ids = [str(s) for s in rec["seats"]]
            seed, rot = int(rec["seed"]), int(rec["rotation"])
        except (KeyError, TypeError, ValueError):
            raise ApiError(422, "bad_replay", f"games[{index}] lacks seats/seed/rotation") from None
        for s in seats_ids:
            if s not in self.allowed_agents:
                raise ApiError(422, "unknown_agent", f"agent {s!r} of this tournament is not one the server may run; "
                                                     f"allowed: {sorted(self.allowed_agents)} (start the server "
                                                     "with --agent ID for more)")
        rules = {k: cfg[k] for k in ("edition", "optional") if cfg.get(k) is not None}
        try:
            config = make_config(players=len(seats_ids), seed=seed, max_turns=cfg.get("max_turns"), **rules)
        except (ConfigError, TypeError) as e:
            raise ApiError(422, "bad_replay", f"the tournament's config is rejected: {e}") from None
        g = Game(**config)
        first = g.clone()
        bots = []
        for i, aid in enumerate(seats_ids):
            bot_seed = agent_seed(seed, rot, i)
            bot = agent_registry.make_agent(aid, seed=bot_seed)
            bot.reset(bot_seed)
            bots.append(bot)
        moves: list[tuple[int, int]] = []
        while not g.over:
            if len(moves) >= MAX_TOURNAMENT_DECISIONS:
                raise ApiError(422, "bad_replay", f"over {MAX_TOURNAMENT_DECISIONS} decisions: not replayed")
            p = g.current_player()
            assert p is not None  # a game not over has a player to decide
            a = int(bots[p].act(g.seat_view(p), g.legal_actions(), InfoSet(g.state, p)))
            moves.append((p, a))
            g.apply(a)
        if (g.result, g.winner) != (rec.get("result"), rec.get("winner")) or \
                ("decisions" in rec and rec["decisions"] != g.state.steps):
            raise ApiError(422, "bad_replay", f"replaying games[{index}] gave {g.result}/{g.winner} in "
                                              f"{g.state.steps} decisions, the file says {rec.get('result')}/"
                                              f"{rec.get('winner')} in {rec.get('decisions')}: other agent "
                                              "versions or rules")
        seats = [{"seat": i, "kind": "agent", "agent": a} for i, a in enumerate(seats_ids)]
        return ReplayData(rid, "tournament", config, seats, first, moves,
                          note=f"tournament game {index} (deal {rec.get('deal')}, rotation {rot}), played again")


def _is_tournament(doc: dict[str, Any]) -> bool:
    return isinstance(doc.get("games"), list) and isinstance(doc.get("config"), dict) and "lineup" in doc["config"]


def _tournament_games(doc: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for i, g in enumerate(doc["games"]):
        if isinstance(g, dict):
            seed = g.get("seed")
            out.append({"index": i, "seats": g.get("seats"), "seed": None if seed is None else str(seed),
                        "result": g.get("result"),
                        "winner": g.get("winner"), "turns": g.get("turns"), "decisions": g.get("decisions")})
    return out


def _name(a: int) -> str:
    return NAME[a] if 0 <= a < NUM_ACTIONS else str(a)

"""The games held by the server: one ``GameRunner`` per game, a thread pool that moves the nobles,
WebSocket fan-out, rate limits and idle expiry (``Manager``).

Threads: requests run in the web framework's thread pool and take the game's lock only to
validate, apply and record an action (milliseconds).  A noble's move is a task of a shared
pool: it reads the seat's view and an ``InfoSet`` without holding the lock (no one else may
act while a noble decides), then takes the lock to apply and record its choice.  A slow search
agent therefore blocks neither requests nor other games.
"""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import hmac
import json
import logging
import pickle
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import fandonia_env.agents as agent_registry
from fandonia_env import words as wording
from fandonia_env.engine import NAME, ConfigError, Game, InfoSet, StateError, make_config, player_view
from fandonia_env.engine.face.preview import preview

if TYPE_CHECKING:
    from fandonia_env.engine import GameState

from .models import ApiError
from .seeds import config_shown, game_seed, saved_in
from .store import Store

log = logging.getLogger("fandonia_env.serve")

HUMAN = "human"
#: Keys of ``player_view`` that belong to the viewing player only; the spectator view drops them.
PRIVATE_KEYS = ("me", "hand", "loyalty_drawn", "opportunity_drawn", "turn_state", "decision")


@dataclass
class Limits:
    """Server limits (all configurable on the command line)."""

    max_body: int = 1_048_576         # bytes of a request body or WebSocket message
    max_games: int = 200              # unfinished games held at once
    actions_per_s: float = 20.0       # per token (token bucket)
    burst: int = 40                   # bucket size
    idle_expiry_s: float = 86_400.0   # an unfinished game with no accepted action for this long expires
    snapshot_every: int = 25          # actions between snapshots
    workers: int = 4                  # threads moving the nobles
    max_ws_per_game: int = 64
    ws_queue: int = 256               # pending pushes per WebSocket before it is closed as too slow
    max_list: int = 500               # games per page of GET /games
    cache_finished: int = 64          # finished games kept in memory
    header_timeout_s: float = 10.0    # a request's line and headers must arrive within this (else closed)
    body_timeout_s: float = 10.0      # its whole body within this after the headers (else 408, closed)
    keep_alive_s: float = 5.0         # an idle keep-alive connection is closed after this
    ws_hello_timeout_s: float = 10.0  # a WebSocket's first message must arrive within this (else no_hello)


def encode(obj: Any) -> bytes:
    """The one JSON encoding of every state the server sends (sorted keys: byte-stable)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def public_view(state: GameState, log: bool = True) -> dict[str, Any]:
    """What anyone watching the table knows: ``player_view`` less the viewer's own items, public log
    (None with ``log=False``)."""
    v = player_view(state, 0, log=False)
    for k in PRIVATE_KEYS:
        v.pop(k, None)
    v["log"] = [e["t"] for e in state.log if e["to"] is None] if log else None
    return v


def agent_seed(game_seed: int, seat: int, steps0: int) -> int:
    """The seed of the noble at ``seat`` (string seeding of ``random`` is stable across runs)."""
    return random.Random(f"fandonia-serve:{game_seed}:{seat}:{steps0}").getrandbits(32)


def initial_game(config: dict[str, Any], start: dict[str, Any] | None) -> Game:
    if start is None:
        return Game(**config)
    g = Game.from_json(start)
    if not g.over and g.decision() is None:
        g.advance()
    return g


def make_agents(seats: list[str], game_seed: int, steps0: int) -> list[Any]:
    out: list[Any] = []
    for i, sid in enumerate(seats):
        if sid == HUMAN:
            out.append(None)
            continue
        s = agent_seed(game_seed, i, steps0)
        bot = agent_registry.make_agent(sid, seed=s)
        bot.reset(s)
        out.append(bot)
    return out


@dataclass(frozen=True)
class Push:
    """What one client may see at one moment, for a push: its state without the log (encoded) and its
    log so far: ``lines[:n]`` of a list the runner only appends to, with the indices of the private
    lines in ``private[:n_private]`` (sorted)."""

    state: bytes
    lines: list[str]
    n: int
    private: list[int]
    n_private: int


NO_PRIVATE: list[int] = []
#: a game's set-up options when its row has none (a database from before issue 43): unrated, advisor allowed
DEFAULT_OPTIONS: Mapping[str, Any] = MappingProxyType({"rated": False, "advisor": True})


def game_options(stored: dict[str, Any] | None) -> dict[str, bool]:
    """A game's set-up options (``rated``, ``advisor``) from its row (None: a game from before issue 43)."""
    opts = {**DEFAULT_OPTIONS, **(stored or {})}
    return {"rated": bool(opts["rated"]), "advisor": bool(opts["advisor"])}


def seat_infos(seats: list[str]) -> list[dict[str, Any]]:
    return [{"seat": i, "kind": "human" if s == HUMAN else "agent", "agent": None if s == HUMAN else s}
            for i, s in enumerate(seats)]


class GameRunner:
    """One game in memory: the engine's ``Game``, its seats, nobles and counters."""

    def __init__(self, manager: Manager, gid: str, row: dict[str, Any], game: Game, agents: list[Any],
                 n_actions: int, counts: list[int], marks: list[int] | None = None) -> None:
        self.manager = manager
        self.gid = gid
        self.pub_seq = 0  # changes published so far (under ``lock``): orders pushes against first messages
        self.config: dict[str, Any] = row["config"]
        #: whether the seed is public, the chosen seed and its secret (``seeds.game_seed``; None: a game of a
        #: database from before chosen seeds were kept secret, or one started from a saved game)
        self.seeding: dict[str, Any] | None = row.get("seeding")
        #: set-up choices besides the rules: ``rated`` and whether the seats may ask the ``advisor`` (issue 43)
        self.options: dict[str, Any] = game_options(row.get("options"))
        self.seats: list[str] = [s["agent"] or HUMAN for s in row["seats"]]
        self.token_hashes: list[str | None] = row["tokens"]
        self.created: float = row["created"]
        self.updated: float = row["updated"]
        self.status: str = row["status"]
        self.game = game
        self.agents = agents
        self.n_actions = n_actions
        self.counts = counts
        # for each seat, the length of the engine's log when it last decided: its ``recent`` lines follow
        self.marks = list(marks) if marks is not None else [0] * len(counts)
        self.lock = threading.RLock()
        self.busy = False          # a noble task is queued or running
        self.closed = False        # expired or unloaded: no more moves
        self.last_activity = time.monotonic()
        # each client's log (key: seat, None for the public log), kept as the engine's log grows
        self._log_seen = 0
        self._logs: dict[int | None, list[str]] = {}
        self._private: dict[int | None, list[int]] = {}
        self._preview: tuple[tuple[int, int], dict[int, dict[str, Any]]] | None = None  # (n_actions, seat), preview

    # -- what clients see ---------------------------------------------------------
    def _sync_log(self) -> None:
        """Sort the engine's new log entries into every client's log (caller holds the lock)."""
        log = self.game.state.log
        if len(log) < self._log_seen or not self._logs:  # (re)built: new lists, old pushes keep theirs
            self._log_seen = 0
            self._logs = {k: [] for k in (None, *range(len(self.seats)))}
            self._private = {k: [] for k in range(len(self.seats))}
        for e in log[self._log_seen:]:
            to, text = e["to"], e["t"]
            if to is None:
                for lst in self._logs.values():
                    lst.append(text)
            elif to in self._private:
                self._private[to].append(len(self._logs[to]))
                self._logs[to].append(text)
        self._log_seen = len(log)

    def seat_state(self, p: int, log: bool = True) -> dict[str, Any]:
        """Seat ``p``'s state: ``Game.view(p)`` and its decision; ``log_private`` lists the indices of
        ``view.log`` that are private to ``p`` (null without the log)."""
        v = self.game.view(p, log=False)
        private = None
        if log:
            self._sync_log()
            v["log"] = list(self._logs[p])
            private = list(self._private[p])
        since = [e["t"] for e in self.game.state.log[self.marks[p]:] if e["to"] is None or e["to"] == p]
        return {"seat": p, "step": self.counts[p], "status": self.status,
                "decision": wording.decision_words(v, preview=self.preview(p)),
                "view": v, "log_private": private, **wording.seat_words(v, since)}

    def preview(self, p: int) -> dict[int, dict[str, Any]] | None:
        """What each option of seat ``p``'s pending decision does to it (``engine/face/preview.py``), made once
        per decision (caller holds the lock); None when the seat has no decision."""
        if self.game.current_player() != p:
            return None
        key = (self.n_actions, p)
        if self._preview is None or self._preview[0] != key:
            self._preview = (key, preview(self.game.state, p, seed=self.n_actions))
        return self._preview[1]

    def public_state(self, log: bool = True) -> dict[str, Any]:
        v = public_view(self.game.state, log=False)
        race = wording.race(v, public=True)
        if log:
            self._sync_log()
            v["log"] = list(self._logs[None])
        return {"status": self.status, "view": v, "race": race}

    def push(self, key: int | None) -> Push:
        """What client ``key`` (a seat, None for a spectator) may see now (caller holds the lock)."""
        self._sync_log()
        state = encode(self.seat_state(key, log=False) if key is not None else self.public_state(log=False))
        lines = self._logs[key]
        private = self._private.get(key, NO_PRIVATE)
        return Push(state, lines, len(lines), private, len(private))

    def summary(self) -> dict[str, Any]:
        """The public summary: never the seed (it would tell every hand and future roll), before or after the
        end, unless the creator asked for a public seed; the replay publishes it after the end."""
        return {"game_id": self.gid, "status": self.status, "players": len(self.seats),
                "seats": seat_infos(self.seats), "config": config_shown(self.config, self.seeding),
                "result": self.game.result,
                "winner": self.game.winner, "created": self.created,
                "updated": self.created if self.status == "playing" else self.updated,
                **self.options}

    def noble_to_move(self) -> int | None:
        if self.status != "playing" or self.closed or self.game.over:
            return None
        p = self.game.current_player()
        return p if p is not None and self.seats[p] != HUMAN else None

    # -- changes (caller holds the lock) -------------------------------------------
    def commit(self, seat: int, action: int) -> None:
        """Apply a legal action, record it durably, then publish; the game is unchanged if anything fails."""
        g2 = self.game.clone()
        mark = len(g2.state.log)
        g2.apply(action)
        idx = self.n_actions
        status = "over" if g2.over else "playing"
        snapshot = None
        if g2.over or (idx + 1) % self.manager.limits.snapshot_every == 0:
            snapshot = (g2.dumps(), self.manager.pickle_agents(self.agents))
        self.manager.store.add_action(self.gid, idx, seat, action, status=status, result=g2.result,
                                      winner=g2.winner, snapshot=snapshot)
        self.game = g2
        self.n_actions = idx + 1
        self.counts[seat] += 1
        self.marks[seat] = mark
        self.status = status
        self.updated = time.time()
        self.last_activity = time.monotonic()
        self.manager.publish(self)

    def human_act(self, seat: int, action: int, step: int, log: bool = True) -> dict[str, Any]:
        with self.lock:
            if self.status != "playing":
                raise ApiError(409, "game_over", f"game {self.gid} is {self.status}: no action is accepted")
            if step != self.counts[seat]:
                raise ApiError(409, "stale_step", f"step {step} is stale: seat {seat}'s current step is "
                                                  f"{self.counts[seat]} (fetch the state and decide again)")
            if self.game.current_player() != seat:
                raise ApiError(409, "not_your_decision", f"seat {seat} has no decision to make now; "
                                                         "wait for a state with a decision")
            legal = self.game.legal_actions()
            if action not in legal:
                shown = NAME[action] if 0 <= action < len(NAME) else "outside the catalogue"
                raise ApiError(422, "illegal_action",
                               f"action {action} ({shown}) is not legal for this decision; legal ids: {legal}",
                               legal=legal)
            self.commit(seat, action)
            state = self.seat_state(seat, log)
        self.manager.schedule(self)
        return state


class Subscriber:
    """One WebSocket client.  Its fields are read and written on the event loop only."""

    def __init__(self, seat: int | None, maxsize: int, log: bool = True, log_from: int = 0) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=maxsize)
        self.last_state: bytes | None = None  # the state (without log) of the last message queued
        self.want_log = log                   # False: pushes carry no log lines
        self.log_sent = log_from              # lines of its log the client has (sent or had before)
        self.seq = -1  # the newest published change this client's messages already reflect
        self.closing: str | None = None       # why the server closes it (an error code), if it does

    def message(self, p: Push) -> bytes | None:
        """The push of ``p`` for this client: its state without the log and the log lines it lacks, or
        None when nothing it may see changed (no push: the timing of others' secret moves stays hidden)."""
        if p.state == self.last_state and (not self.want_log or p.n <= self.log_sent):
            return None
        self.last_state = p.state
        if not self.want_log:
            return b'{"state":' + p.state + b',"type":"state"}'
        start = min(self.log_sent, p.n)
        lines = p.lines[start:p.n]
        private = p.private[bisect.bisect_left(p.private, start, 0, p.n_private):p.n_private]
        self.log_sent = p.n
        return (b'{"log":' + encode(lines) + b',"log_private":' + encode(private) + b',"log_start":'
                + str(start).encode() + b',"state":' + p.state + b',"type":"state"}')


class Manager:
    """Every game of the server, the noble pool, WebSocket subscribers, rate limits and expiry."""

    def __init__(self, store: Store, limits: Limits, extra_agents: tuple[str, ...] = ()) -> None:
        self.store = store
        self.limits = limits
        self.allowed_agents = set(agent_registry.AGENTS) | set(extra_agents)
        for aid in extra_agents:  # fail at start-up, not on the first game
            agent_registry.make_agent(aid, seed=0)
        self.active: dict[str, GameRunner] = {}
        self.finished: OrderedDict[str, GameRunner] = OrderedDict()
        self.lock = threading.RLock()
        self.pool = ThreadPoolExecutor(max_workers=limits.workers, thread_name_prefix="noble")
        self.subs: dict[str, list[Subscriber]] = {}
        self.sub_lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.buckets: dict[str, list[float]] = {}
        self.bucket_lock = threading.Lock()
        self.stopping = threading.Event()
        self.reaper: threading.Thread | None = None

    # -- life cycle --------------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop | None) -> None:
        self.loop = loop
        for gid in self.store.game_ids("playing"):
            try:
                r = self.restore(gid)
            except Exception:  # a broken game must not keep the server down
                log.exception("game %s could not be restored; marked expired", gid)
                self.store.set_status(gid, "expired")
                continue
            with self.lock:
                self.active[gid] = r
            self.schedule(r)
        self.reaper = threading.Thread(target=self._reap_loop, name="reaper", daemon=True)
        self.reaper.start()

    def stop(self) -> None:
        self.stopping.set()
        with self.lock:
            for r in self.active.values():
                r.closed = True
        self.pool.shutdown(wait=True, cancel_futures=True)

    def pickle_agents(self, agents: list[Any]) -> bytes | None:
        try:
            return pickle.dumps(agents)
        except Exception:  # an agent that cannot be pickled: restore replays from the start instead
            return None

    # -- games -----------------------------------------------------------------------
    def create(self, seats: list[str], rules: dict[str, Any] | None, seed: int | None,
               start: dict[str, Any] | None, public_seed: bool = False, rated: bool = False,
               advisor: bool | None = None) -> tuple[GameRunner, list[str | None]]:
        """A new game.  ``seed``: the creator's chosen seed, mixed with a secret of this game's
        (``seeds.game_seed``) unless ``public_seed``, when the game plays it (or a drawn one) as it is
        and shows it to every seat.  ``rated``: a rated game, where the advisor is off unless ``advisor``
        is true; ``advisor`` None: allowed unless rated."""
        for i, s in enumerate(seats):
            if s != HUMAN and s not in self.allowed_agents:
                raise ApiError(422, "unknown_agent", f"seat {i}: {s!r} is neither 'human' nor an agent of this "
                                                     f"server; allowed: {sorted(self.allowed_agents)}")
        seeding: dict[str, Any] | None = None
        if start is not None:
            if rules is not None or seed is not None or public_seed:
                raise ApiError(422, "start_with_rules", "a game from a start position takes its rules and seed "
                                                        "from the saved game: omit 'rules', 'seed' and "
                                                        "'public_seed'")
            try:
                game = initial_game({}, saved_in(start))
            except (StateError, ConfigError, ValueError) as e:  # ValueError: a bad seed (seeds.saved_in)
                raise ApiError(422, "bad_start", f"start position rejected: {e}") from None
            except Exception as e:  # the engine refusing a corrupt saved game in any other way
                raise ApiError(422, "bad_start", f"start position rejected: {type(e).__name__}: {e}") from None
            if game.over:
                raise ApiError(422, "bad_start", "start position is a finished game")
            if game.n_players != len(seats):
                raise ApiError(422, "bad_start", f"start position has {game.n_players} players but "
                                                 f"{len(seats)} seats were given")
            config = dict(game.state.config)
            start = game.to_json()
        else:
            kw = {k: v for k, v in (rules or {}).items() if v is not None}
            kw["players"] = len(seats)
            kw["seed"], seeding = game_seed(seed, public_seed)  # secret until the game ends unless public
            try:
                config = make_config(**kw)
            except ConfigError as e:
                raise ApiError(422, "bad_rules", str(e)) from None
            game = Game(**config)
        with self.lock:
            n_active = sum(1 for r in self.active.values() if r.status == "playing")
            if n_active >= self.limits.max_games:
                raise ApiError(429, "server_full", f"the server already holds {n_active} unfinished games "
                                                   f"(limit {self.limits.max_games}); try later")
            gid = secrets.token_urlsafe(12)
            tokens = [secrets.token_urlsafe(24) if s == HUMAN else None for s in seats]
            hashes = [None if t is None else hash_token(t) for t in tokens]
            agents = make_agents(seats, int(config["seed"]), game.state.steps)
            options = {"rated": rated, "advisor": (not rated) if advisor is None else advisor}
            self.store.create_game(gid, config, seat_infos(seats), start, hashes, seeding, options)
            row = self.store.load_game(gid)
            assert row is not None
            r = GameRunner(self, gid, row, game, agents, 0, [0] * len(seats))
            self.active[gid] = r
        self.schedule(r)
        return r, tokens

    def restore(self, gid: str) -> GameRunner:
        """Rebuild a game from the database: the last snapshot, then the actions after it."""
        row = self.store.load_game(gid)
        if row is None:
            raise ApiError(404, "no_such_game", f"no game {gid!r}")
        seats = [s["agent"] or HUMAN for s in row["seats"]]
        snap = self.store.snapshot(gid)
        if snap is not None and snap[2] is not None:
            first = snap[0]
            game = Game.from_json(snap[1])
            agents = pickle.loads(snap[2])
        else:
            first = 0
            game = initial_game(row["config"], row["start"])
            agents = make_agents(seats, int(row["config"]["seed"]), game.state.steps)
        all_actions = self.store.actions(gid)
        counts = [0] * len(seats)
        for _, seat, _ in all_actions:
            counts[seat] += 1
        # ``recent``: where each seat last decided; a seat whose last decision is older than the snapshot
        # gets the lines since the start of the previous turn
        prev_turn = game.state.turn - 1
        start = next((i for i, e in enumerate(game.state.log) if e["turn"] >= prev_turn), len(game.state.log))
        marks = [start if counts[s] else 0 for s in range(len(seats))]
        for idx, seat, action in all_actions[first:]:
            marks[seat] = len(game.state.log)
            bot = agents[seat]
            if bot is not None and row["status"] == "playing":  # the noble's RNG and memory move on as before
                p = game.current_player()
                assert p is not None  # a recorded action was taken at a decision
                try:
                    again = bot.act(game.seat_view(p), game.legal_actions(), InfoSet(game.state, p))
                except Exception:
                    again = None
                if again != action:
                    log.warning("game %s action %d: noble chose %r on replay, %r was recorded", gid, idx, again, action)
            game.apply(action)
        return GameRunner(self, gid, row, game, agents, len(all_actions), counts, marks)

    def runner(self, gid: str) -> GameRunner:
        with self.lock:
            r = self.active.get(gid) or self.finished.get(gid)
            if r is not None:
                if gid in self.finished:
                    self.finished.move_to_end(gid)
                return r
        if not isinstance(gid, str) or len(gid) > 64:
            raise ApiError(404, "no_such_game", "no such game")
        r = self.restore(gid)
        r.closed = r.status != "playing"
        with self.lock:
            if gid in self.active:
                return self.active[gid]
            self._cache_finished(r)
        return r

    def _cache_finished(self, r: GameRunner) -> None:
        self.finished[r.gid] = r
        self.finished.move_to_end(r.gid)
        while len(self.finished) > self.limits.cache_finished:
            self.finished.popitem(last=False)

    def _retire(self, r: GameRunner) -> None:
        with self.lock:
            if self.active.get(r.gid) is r:
                del self.active[r.gid]
                self._cache_finished(r)

    def expire(self, r: GameRunner) -> None:
        with r.lock:
            if r.status != "playing":
                return
            r.status = "expired"
            r.closed = True
            self.store.set_status(r.gid, "expired")
            self.publish(r)
        self._retire(r)

    # -- nobles ----------------------------------------------------------------------------
    def schedule(self, r: GameRunner) -> None:
        with r.lock:
            if r.status != "playing":
                self._retire(r)
                return
            if r.busy or r.noble_to_move() is None or self.stopping.is_set():
                return
            r.busy = True
        try:
            self.pool.submit(self._noble_move, r)
        except RuntimeError:  # the pool is shut down
            r.busy = False

    def _noble_move(self, r: GameRunner) -> None:
        try:
            with r.lock:
                p = r.noble_to_move()
                if p is None:
                    r.busy = False
                    return
                n = r.n_actions
                g = r.game
                view, legal = g.view(p, log=False), g.legal_actions()
                infoset = InfoSet(g.state, p)
                bot = r.agents[p]
            try:  # outside the lock: a search may take seconds; no one else can act meanwhile
                a = bot.act(view, legal, infoset)
                if a not in legal:
                    raise ValueError(f"agent returned {a!r}, not a legal id")
            except Exception:
                log.exception("game %s: noble %s at seat %d failed; taking the first legal action", r.gid,
                              r.seats[p], p)
                a = legal[0]
            with r.lock:
                r.busy = False
                if r.closed or r.n_actions != n:
                    return
                r.commit(p, int(a))
        except Exception:
            log.exception("game %s: noble move failed", r.gid)
            r.busy = False
            return
        self.schedule(r)

    # -- authentication and rate limits -------------------------------------------------------
    def authorize(self, r: GameRunner, seat: int, token: str | None) -> None:
        if not 0 <= seat < len(r.seats):
            raise ApiError(404, "no_such_seat", f"seat must be 0..{len(r.seats) - 1}, got {seat}")
        if not token:
            raise ApiError(401, "missing_token", "this seat needs its token: header 'Authorization: Bearer TOKEN'")
        h = hash_token(token)
        mine = r.token_hashes[seat]
        if mine is not None and hmac.compare_digest(h, mine):
            return
        if any(t is not None and hmac.compare_digest(h, t) for t in r.token_hashes):
            raise ApiError(403, "wrong_seat", f"this token belongs to another seat of the game, not to seat {seat}")
        if r.seats[seat] != HUMAN:
            raise ApiError(401, "bad_token", f"seat {seat} is played by the server ({r.seats[seat]}); no token opens it")
        raise ApiError(401, "bad_token", "the token is not valid for this game")

    def rate_check(self, token: str) -> None:
        rate, burst = self.limits.actions_per_s, self.limits.burst
        key = hash_token(token)
        now = time.monotonic()
        with self.bucket_lock:
            b = self.buckets.get(key)
            if b is None:
                if len(self.buckets) > 100_000:
                    self.buckets.clear()
                b = self.buckets[key] = [float(burst), now]
            b[0] = min(float(burst), b[0] + (now - b[1]) * rate)
            b[1] = now
            if b[0] < 1.0:
                raise ApiError(429, "rate_limited", f"more than {rate:g} actions per second with this token "
                                                    f"(burst {burst}); slow down")
            b[0] -= 1.0

    # -- pushes -------------------------------------------------------------------------------
    def subscribe(self, gid: str, sub: Subscriber) -> None:
        with self.sub_lock:
            lst = self.subs.setdefault(gid, [])
            if len(lst) >= self.limits.max_ws_per_game:
                raise ApiError(429, "too_many_watchers", f"game {gid} already has {len(lst)} WebSocket clients "
                                                         f"(limit {self.limits.max_ws_per_game})")
            lst.append(sub)

    def unsubscribe(self, gid: str, sub: Subscriber) -> None:
        with self.sub_lock:
            lst = self.subs.get(gid, [])
            if sub in lst:
                lst.remove(sub)
            if not lst:
                self.subs.pop(gid, None)

    def publish(self, r: GameRunner) -> None:
        """Called with ``r.lock`` held after every change: push each subscriber what it may see now."""
        r.pub_seq += 1
        with self.sub_lock:
            keys = {s.seat for s in self.subs.get(r.gid, [])}
        if not keys or self.loop is None:
            return
        pushes = {k: r.push(k) for k in keys}
        try:
            self.loop.call_soon_threadsafe(self._deliver, r.gid, pushes, r.pub_seq)
        except RuntimeError:  # the loop is closed (shutting down)
            pass

    def _deliver(self, gid: str, pushes: dict[int | None, Push], seq: int) -> None:
        with self.sub_lock:
            subs = list(self.subs.get(gid, []))
        for s in subs:
            if seq <= s.seq:  # older than what this client already has (its first message was newer)
                continue
            p = pushes.get(s.seat)
            if p is None:  # subscribed after this change was published: its first message is newer
                continue
            s.seq = seq
            self.offer(gid, s, p)

    def offer(self, gid: str, s: Subscriber, p: Push) -> None:
        """Queue ``s``'s message for ``p`` unless nothing ``s`` may see changed (called on the event loop)."""
        if s.closing is not None:
            return
        m = s.message(p)
        if m is None:
            return
        if s.queue.qsize() >= self.limits.ws_queue - 1:
            s.closing = "too_slow"  # closed (4001); it reconnects with log_from for the current state
            s.queue.put_nowait(None)
            self.unsubscribe(gid, s)
            return
        s.queue.put_nowait(m)

    # -- expiry ---------------------------------------------------------------------------------
    def _reap_loop(self) -> None:
        period = max(0.05, min(30.0, self.limits.idle_expiry_s / 4))
        while not self.stopping.wait(period):
            self.reap()

    def reap(self) -> None:
        now = time.monotonic()
        with self.lock:
            idle = [r for r in self.active.values()
                    if r.status == "playing" and now - r.last_activity > self.limits.idle_expiry_s]
        for r in idle:
            try:
                self.expire(r)
            except Exception:
                log.exception("expiring game %s failed", r.gid)

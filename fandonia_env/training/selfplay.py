"""Batched self-play (issue 27): many games in one process, one network call per batch.

An actor keeps ``games`` games running at once.  Each round it advances every game to its next
decision, groups the decisions that a network seat must take by policy, encodes each deciding seat's
own observation (``fandonia_env.spaces.encoders`` encoder: what that seat may know, never another seat's cards),
evaluates every group with **one** batched forward pass (``fandonia_env.agents.ppo_agent.NumpyPolicy.forward``:
numpy, no torch, no per-position call), samples or picks the actions and applies them.  Scripted
seats (``noble-rule-v1``, ``random-v1``, ...) answer inline from their own view.  A finished game is
replaced by a new one, so the batch stays full.

What the learner's seats decided is kept for training: observation (float16), legal mask, action,
log-probability, value estimate, the game's final reward for that seat (zero-sum: +1 for the winner,
-1/(n-1) for the others, 0 in a draw or a truncated game; ``docs/rewards.md``), the edition, the
player count.  ``run_actors`` runs one actor per core in worker processes and joins their batches.

    python -m fandonia_env.training.bench_selfplay --games 128 --seconds 30 --workers 2

measures learner decisions/s and games/s (``docs/benchmarks.md``, "Batched self-play").
"""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import NUM_ACTIONS
from fandonia_env.engine.face.hidden import InfoSet

#: the seat kinds of a table: the learner's network, a frozen network (``ppo:PATH`` / a registered
#: trained noble), or a scripted noble answering from its view
LEARNER = "self"
#: suffix of an opponent id that takes a whole table (``SelfPlayConfig.opponents``)
TABLE = "*"


@dataclass
class SelfPlayConfig:
    """What the actor plays.  ``players``: the table sizes drawn per game (uniformly);
    ``presets``: the rules presets drawn per game; ``opponents``: agent ids drawn per opponent seat
    (``"self"``: the learner's own network, so its decisions are recorded too; an id ending in
    ``*``, e.g. ``"random-v1*"``, is a whole table: when the one draw per game lands on it, it takes
    every opponent seat, otherwise each seat is drawn from the ids without ``*``); ``learner_seats``:
    how many seats of each game the learner holds (the rest are drawn from ``opponents``; None: all
    seats are the learner's -- pure self-play); ``temperature``: sampling temperature of the
    learner's network (0: argmax); ``max_turns``: the turn limit (ruling R11); ``drain``: once
    ``collect``'s decision target is reached, start no new game and play every running game to its
    end, so a batch holds every game its actor began (False: the running games are dropped, which
    keeps the long games -- the learner's draws and turn-limit games above all -- out of the batch;
    the expert-stage attempts 22-33 collected so)."""

    games: int = 64
    players: tuple[int, ...] = (4,)
    presets: tuple[str, ...] = ("1981", "errata")
    opponents: tuple[str, ...] = (LEARNER,)
    learner_seats: int | None = 1
    temperature: float = 1.0
    max_turns: int = 60
    seed: int = 0
    drain: bool = True

    def __post_init__(self) -> None:
        bad = [n for n in self.players if not isinstance(n, int) or not 2 <= n <= 6]
        if not self.players or bad:
            raise ValueError(f"players: table sizes 2-6, got {list(self.players)}")
        if self.games < 1:
            raise ValueError(f"games: at least 1, got {self.games}")
        if self.learner_seats is not None and not 1 <= self.learner_seats <= 6:
            raise ValueError(f"learner_seats: 1-6 or None (every seat), got {self.learner_seats}")
        if not self.opponents:
            raise ValueError("opponents: at least one agent id (or 'self')")
        if all(o.endswith(TABLE) for o in self.opponents):
            raise ValueError(f"opponents: at least one id without '{TABLE}' (drawn per seat), "
                             f"got {list(self.opponents)}")
        if self.temperature < 0:
            raise ValueError(f"temperature: >= 0, got {self.temperature}")


@dataclass
class Batch:
    """The learner's decisions of finished games, as arrays of one length (``len(batch)``)."""

    obs: np.ndarray  # (N, obs_size) float16
    mask: np.ndarray  # (N, NUM_ACTIONS) bool
    action: np.ndarray  # (N,) int16
    logp: np.ndarray  # (N,) float32: log-probability of the action under the acting policy
    value: np.ndarray  # (N,) float32: the acting network's value estimate
    reward: np.ndarray  # (N,) float32: the game's final reward for the deciding seat
    players: np.ndarray  # (N,) int8: table size
    errata: np.ndarray  # (N,) bool: the errata edition
    game: np.ndarray  # (N,) int32: the game's index within this batch
    seat: np.ndarray | None = None  # (N,) int8: the deciding seat (decisions of one seat in play order)
    target: np.ndarray | None = None  # (N, NUM_ACTIONS) float16: a search's visit distribution
    turns_left: np.ndarray | None = None  # (N,) int16: game turns from the decision to the game's end
    stats: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.action)

    @staticmethod
    def concat(batches: list[Batch]) -> Batch:
        """One batch of several (game indices renumbered, stats added up)."""
        if not batches:
            raise ValueError("no batches to join")
        off, games = 0, []
        for b in batches:
            games.append(b.game + off)
            off += int(b.stats.get("games", 0)) or (int(b.game.max()) + 1 if len(b) else 0)
        stats: dict[str, Any] = {}
        for b in batches:
            for k, v in b.stats.items():
                if isinstance(v, int | float):
                    stats[k] = stats.get(k, 0) + v
        optional = {f: (np.concatenate([getattr(b, f) for b in batches])
                        if all(getattr(b, f) is not None for b in batches) else None)
                    for f in ("seat", "target", "turns_left")}
        return Batch(*(np.concatenate([getattr(b, f) for b in batches]) for f in
                       ("obs", "mask", "action", "logp", "value", "reward", "players", "errata")),
                     game=np.concatenate(games), stats=stats, **optional)


def final_rewards(g: Game) -> list[float]:
    """Each seat's reward at the end of ``g`` (``docs/rewards.md``)."""
    n = g.n_players
    if g.result != "win" or g.winner is None:
        return [0.0] * n
    return [1.0 if p == g.winner else -1.0 / (n - 1) for p in range(n)]


class _Slot:
    """One running game: its seats' controllers and the learner's open records."""

    __slots__ = ("game", "ctrl", "records", "index", "active")

    def __init__(self, game: Game, ctrl: list[Any], index: int) -> None:
        self.game, self.ctrl, self.index = game, ctrl, index
        self.active = True  # False: its game ended while the actor drains (no new game started)
        self.records: list[tuple[int, np.ndarray, np.ndarray, int, float, float]] = []


class Actor:
    """``games`` games at once; ``collect(decisions=..)`` plays until that many learner decisions
    were recorded in finished games (or ``seconds`` ran out) and returns them as a ``Batch``."""

    def __init__(self, policy: Any, cfg: SelfPlayConfig, opponents: dict[str, Any] | None = None) -> None:
        from fandonia_env.agents import make_agent

        self.policy, self.cfg = policy, cfg
        self.enc = policy.encoder
        if self.enc is None:
            raise ValueError("the policy names no observation encoder")
        if self.enc.memory:
            raise ValueError(f"encoder {self.enc.name} keeps a memory of the seat's decisions; "
                             "batched self-play takes encoders without memory (v0, v1, v1r)")
        _limit_threads()  # one BLAS thread: several threads on a busy core make a product many times slower
        self.rng = random.Random(cfg.seed)
        self.np_rng = np.random.default_rng(cfg.seed)
        self._make_agent = make_agent
        #: agent id -> a frozen NumpyPolicy (network opponents), built once
        self.nets: dict[str, Any] = dict(opponents or {})
        self.games_started = 0
        #: the opponent ids drawn seat by seat (those without ``*``)
        self.per_seat = tuple(o for o in cfg.opponents if not o.endswith(TABLE))
        self.slots = [self._new_slot(i) for i in range(cfg.games)]
        self.done: list[Batch] = []
        #: no new game is started (``collect`` reached its target and plays the running games out)
        self.draining = False
        self.stats = {"games": 0, "learner_decisions": 0, "decisions": 0, "wins": 0, "draws": 0,
                      "truncated": 0, "learner_wins": 0.0, "learner_seats": 0}

    def set_policy(self, policy: Any, cfg: SelfPlayConfig | None = None) -> None:
        """Play the learner's seats with ``policy`` from now on (the running games included: their earlier
        decisions keep the log-probabilities and values of the network that took them), and draw new
        games from ``cfg`` (its table sizes, presets and opponents; the actor keeps its own generator)."""
        if policy.encoder is None or policy.encoder.name != self.enc.name:
            raise ValueError(f"the new policy's encoder must be {self.enc.name}, like the running games' records")
        self.policy = policy
        if cfg is not None:
            self.cfg = _with_seed(cfg, self.cfg.seed)  # the deals go on from this actor's own seed
            self.per_seat = tuple(o for o in cfg.opponents if not o.endswith(TABLE))

    # -- games -------------------------------------------------------------------------------------
    def _controller(self, agent_id: str, seed: int) -> Any:
        if agent_id == LEARNER:
            return LEARNER
        net = self.nets.get(agent_id)
        if net is None:
            bot = self._make_agent(agent_id, seed=seed)
            pol = getattr(bot, "policy", None)
            if pol is not None and getattr(pol, "encoder", None) is not None and hasattr(pol, "forward"):
                self.nets[agent_id] = pol  # a trained noble: batched with the others of its kind
                return ("net", agent_id)
            bot.reset(seed)
            return bot
        return ("net", agent_id)

    def _table_opponent(self) -> str | None:
        """A new game's whole-table draw: the id (``*`` removed) that takes every opponent seat, or
        None (its seats are drawn one by one from the ids without ``*``).  Draws only when
        ``opponents`` names a whole-table id, so other configs keep their draws."""
        if len(self.per_seat) < len(self.cfg.opponents):
            pick = self.rng.choice(self.cfg.opponents)
            if pick.endswith(TABLE):
                return pick.removesuffix(TABLE)
        return None

    def _new_slot(self, index: int) -> _Slot:
        cfg, rng = self.cfg, self.rng
        n = rng.choice(cfg.players)
        preset = rng.choice(cfg.presets)
        seed = cfg.seed * 1_000_003 + self.games_started
        self.games_started += 1
        g = Game(players=n, seed=seed, preset=preset, max_turns=cfg.max_turns)
        k = n if cfg.learner_seats is None else min(cfg.learner_seats, n)
        learners = set(rng.sample(range(n), k))
        table = self._table_opponent()
        ctrl = [LEARNER if p in learners else self._controller(table or rng.choice(self.per_seat), seed + p)
                for p in range(n)]
        return _Slot(g, ctrl, index)

    def _finish(self, s: _Slot) -> None:
        g = s.game
        rewards = final_rewards(g)
        st = self.stats
        st["games"] += 1
        st["wins"] += g.result == "win"
        st["draws"] += g.result == "draw"
        st["truncated"] += g.result == "truncated"
        seats = [p for p, c in enumerate(s.ctrl) if c == LEARNER]
        st["learner_seats"] += len(seats)
        st["learner_wins"] += sum(1 for p in seats if g.winner == p)
        if s.records:
            errata = g.state.config["edition"] == "errata"
            recs = s.records
            self.done.append(Batch(
                obs=np.stack([r[1] for r in recs]), mask=np.stack([r[2] for r in recs]),
                action=np.array([r[3] for r in recs], dtype=np.int16),
                logp=np.array([r[4] for r in recs], dtype=np.float32),
                value=np.array([r[5] for r in recs], dtype=np.float32),
                reward=np.array([rewards[r[0]] for r in recs], dtype=np.float32),
                players=np.full(len(recs), g.n_players, dtype=np.int8),
                errata=np.full(len(recs), errata, dtype=bool),
                game=np.zeros(len(recs), dtype=np.int32),  # numbered by collect's Batch.concat
                seat=np.array([r[0] for r in recs], dtype=np.int8),
                turns_left=np.array([g.state.turn - r[6] for r in recs], dtype=np.int16)))

    # -- the loop ----------------------------------------------------------------------------------
    def _advance(self, s: _Slot) -> None:
        """Play ``s``'s scripted seats until a network seat decides (or the game ends, when it is
        replaced by a new game)."""
        while True:
            g = s.game
            if g.over:
                self._finish(s)
                if self.draining:
                    s.active = False
                    return
                s2 = self._new_slot(s.index)
                s.game, s.ctrl, s.records = s2.game, s2.ctrl, s2.records
                continue
            p = g.current_player()
            c = s.ctrl[p]
            if c == LEARNER or type(c) is tuple:
                return
            legal = g.legal_actions()
            self.stats["decisions"] += 1
            # the live SeatView (no player_view document built): every agent reads one (agents.base)
            g.apply(c.act(g.seat_view(p), legal, InfoSet(g.state, p)))

    def step(self) -> int:
        """One round: every game to its next network decision, one forward pass per network,
        every action applied.  Returns the learner decisions made."""
        groups: dict[Any, list[_Slot]] = {}
        for s in self.slots:
            if not s.active:
                continue
            self._advance(s)
            if not s.active:
                continue
            c = s.ctrl[s.game.current_player()]
            groups.setdefault(LEARNER if c == LEARNER else c[1], []).append(s)
        made = 0
        for key, slots in groups.items():
            pol = self.policy if key == LEARNER else self.nets[key]
            enc = pol.encoder
            obs = np.empty((len(slots), enc.size), dtype=np.float32)
            mask = np.zeros((len(slots), NUM_ACTIONS), dtype=bool)
            for i, s in enumerate(slots):
                g = s.game
                p = g.current_player()
                obs[i] = enc.encode(g.state, p)
                mask[i, g.legal_actions()] = True
            logits, value = pol.forward(obs, mask)
            temp = self.cfg.temperature if key == LEARNER else 0.0
            actions, logp = sample(logits, temp, self.np_rng)
            half = obs.astype(np.float16) if key == LEARNER else obs  # one conversion per batch
            for i, s in enumerate(slots):
                g = s.game
                a = int(actions[i])
                if key == LEARNER:
                    s.records.append((g.current_player(), half[i], mask[i], a, float(logp[i]), float(value[i]),
                                      g.state.turn))
                    made += 1
                g.apply(a)
            self.stats["decisions"] += len(slots)
        self.stats["learner_decisions"] += made
        return made

    def collect(self, decisions: int | None = None, seconds: float | None = None) -> Batch:
        """Play until ``decisions`` learner decisions are recorded (or ``seconds`` passed); return
        those of the finished games (and the stats of this call) as one batch.  With ``cfg.drain``
        and a ``decisions`` target, the decisions of the running games count too, and once the
        target is reached no game starts and the running ones are played to their end: every game
        begun is in the batch, whatever its length (without it, a batch of ``decisions`` from
        finished games leaves out the games still running, which are the longest).  A ``seconds``
        limit (the bench's) stops at once either way."""
        if decisions is None and seconds is None:
            raise ValueError("collect needs decisions= or seconds=")
        t0 = time.perf_counter()
        drain = self.cfg.drain and decisions is not None

        def have() -> int:
            n = sum(len(b) for b in self.done)
            return n + sum(len(s.records) for s in self.slots if s.active) if drain else n

        t_drain = None  # when the target was reached and the running games began to be played out
        while True:
            if seconds is not None and time.perf_counter() - t0 >= seconds:
                break
            if decisions is not None and not self.draining and have() >= decisions:
                if not drain:
                    break
                self.draining = True
                t_drain = time.perf_counter()
            if self.draining and not any(s.active for s in self.slots):
                break
            self.step()
        out = Batch.concat(self.done) if self.done else _empty(self.enc.size)
        end = time.perf_counter()
        out.stats = dict(self.stats, seconds=end - t0, drain_seconds=0.0 if t_drain is None else end - t_drain)
        self.done = []
        for k in self.stats:
            self.stats[k] = 0
        if self.draining:  # the next call starts a full set of new games
            self.draining = False
            self.slots = [self._new_slot(i) for i in range(self.cfg.games)]
        return out


def _empty(obs_size: int) -> Batch:
    return Batch(np.zeros((0, obs_size), np.float16), np.zeros((0, NUM_ACTIONS), bool), np.zeros(0, np.int16),
                 np.zeros(0, np.float32), np.zeros(0, np.float32), np.zeros(0, np.float32), np.zeros(0, np.int8),
                 np.zeros(0, bool), np.zeros(0, np.int32), np.zeros(0, np.int8), turns_left=np.zeros(0, np.int16))


def sample(logits: np.ndarray, temperature: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(actions, their log-probabilities) for masked logits (-inf where illegal), one row each:
    softmax(logits / temperature) sampled, or the argmax when ``temperature`` is 0 (log-prob of the
    temperature-1 policy then)."""
    z = logits - logits.max(axis=1, keepdims=True)
    if temperature > 0:
        zt = z / temperature
        p = np.exp(zt)
        p /= p.sum(axis=1, keepdims=True)
        c = p.cumsum(axis=1)
        u = rng.random((len(z), 1)) * c[:, -1:]
        actions = (c < u).sum(axis=1)
        actions = np.minimum(actions, z.shape[1] - 1)
        # a sample can land on an illegal id only through rounding at the top end: take the last legal
        bad = ~np.isfinite(z[np.arange(len(z)), actions])
        if bad.any():
            actions[bad] = np.argmax(z[bad], axis=1)
    else:
        actions = np.argmax(z, axis=1)
    lse = np.log(np.exp(z).sum(axis=1))
    logp = z[np.arange(len(z)), actions] - lse
    return actions, logp


# -- several actors, one per core ------------------------------------------------------------------

def _worker(args: tuple[str, SelfPlayConfig, int | None, float | None]) -> Batch:
    path, cfg, decisions, seconds = args
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from fandonia_env.agents.ppo_agent import load_policy

    return Actor(load_policy(path), cfg).collect(decisions=decisions, seconds=seconds)


def run_actors(policy_path: str, cfg: SelfPlayConfig, workers: int = 2, decisions: int | None = None,
               seconds: float | None = None) -> Batch:
    """``workers`` actors (processes) of ``cfg`` (each its own seed), each collecting ``decisions``
    / ``workers`` learner decisions (or for ``seconds``); their batches joined."""
    if workers < 1:
        raise ValueError(f"workers: at least 1, got {workers}")
    per = None if decisions is None else math.ceil(decisions / workers)
    jobs = [(policy_path, _with_seed(cfg, cfg.seed * 100 + w), per, seconds) for w in range(workers)]
    if workers == 1:
        return _worker(jobs[0])
    ctx = mp.get_context("spawn")
    with ctx.Pool(workers, initializer=_limit_threads) as pool:
        return _join(pool.map(_worker, jobs))


def _join(batches: list[Batch]) -> Batch:
    """The batches of actors that ran side by side as one: their counts added, their seconds the
    longest actor's (``seconds``, ``drain_seconds``)."""
    out = Batch.concat(batches)
    for k in ("seconds", "drain_seconds"):
        out.stats[k] = max(b.stats.get(k, 0.0) for b in batches)
    return out


def _persistent_worker(conn: Any, path: str, cfg: SelfPlayConfig) -> None:
    """One actor process of ``ActorPool``: builds its actor once, then answers ``("collect", path, cfg,
    decisions)`` with a Batch (its games go on between calls) until ``("close",)``."""
    _limit_threads()
    from fandonia_env.agents.ppo_agent import load_policy

    actor = Actor(load_policy(path), cfg)
    while True:
        msg = conn.recv()
        if msg[0] == "close":
            conn.close()
            return
        _, path, cfg, decisions = msg
        try:
            actor.set_policy(load_policy(path), cfg)
            conn.send(("ok", actor.collect(decisions=decisions)))
        except Exception as e:  # pragma: no cover - reported to the caller, which raises it
            conn.send(("error", f"{type(e).__name__}: {e}"))


class ActorPool:
    """``workers`` actor processes that live across calls: each keeps its games in flight from one
    ``collect`` to the next, so no game is cut short or played out alone at an iteration's end (the
    ``drain`` of ``run_actors``, whose tail plays ever fewer games per forward pass: about 10 s of a 23 s
    collect at 128 games per actor) and none is dropped either: a game that runs past one call ends in a
    later one and is trained on then, its earlier decisions with the log-probabilities and values of the
    network that took them.  ``cfg.drain`` is not used (a call returns the games that ended during it).
    Use as a context manager, or ``close()``."""

    def __init__(self, policy_path: str, cfg: SelfPlayConfig, workers: int = 2) -> None:
        if workers < 1:
            raise ValueError(f"workers: at least 1, got {workers}")
        self.workers = workers
        cfg = _carry(cfg)
        ctx = mp.get_context("spawn")
        self._conns, self._procs = [], []
        for w in range(workers):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_persistent_worker, args=(child, policy_path, _with_seed(cfg, cfg.seed * 100 + w)),
                               daemon=True)
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)

    def collect(self, policy_path: str, cfg: SelfPlayConfig, decisions: int) -> Batch:
        """``decisions`` learner decisions of games that ended (about; split over the workers), played by
        ``policy_path`` from now on; new games are drawn from ``cfg`` (its seed is not used: each actor
        keeps its own generator)."""
        per = math.ceil(decisions / self.workers)
        for conn in self._conns:
            conn.send(("collect", policy_path, _carry(cfg), per))
        batches = []
        for conn in self._conns:
            kind, payload = conn.recv()
            if kind != "ok":
                raise RuntimeError(f"a self-play actor failed: {payload}")
            batches.append(payload)
        return _join(batches)  # drain_seconds 0: the actors never drain

    def close(self) -> None:
        for conn, proc in zip(self._conns, self._procs):
            try:
                conn.send(("close",))
            except (BrokenPipeError, OSError):
                pass
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []

    def __enter__(self) -> ActorPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _carry(cfg: SelfPlayConfig) -> SelfPlayConfig:
    """``cfg`` without ``drain``: a persistent actor's running games go on into its next call."""
    return SelfPlayConfig(**{**cfg.__dict__, "drain": False})


def _with_seed(cfg: SelfPlayConfig, seed: int) -> SelfPlayConfig:
    d = dict(cfg.__dict__)
    d["seed"] = seed
    return SelfPlayConfig(**d)


def _limit_threads() -> None:
    """One BLAS thread per actor process (one actor per core)."""
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[k] = "1"
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn / numpy stacks
        pass

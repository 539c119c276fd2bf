"""The search noble: a trained policy-value network steered by a small batched look-ahead.

    SearchAgent()                                           # fandonia_env/agents/weights/noble-ppo-v1.npz
    SearchAgent("runs/x/policy.npz", simulations=32, horizon=12, seed=1)
    from_spec("search:runs/x/policy.npz?simulations=32&max_seconds=0.5", seed=1)

Every decision starts like ``PPOAgent``'s: the seat's own observation (``Encoder.observe``: its
view, or a determinisation of its ``InfoSet``) through the network gives the prior (the logits
over the legal ids).  A decision whose kind is not in ``search_kinds`` plays the prior's argmax, so
with ``search_kinds=()`` the agent plays exactly as ``PPOAgent`` (argmax) on the same file.

**Search** (decision kinds in ``search_kinds``, two or more legal ids and an ``InfoSet``):

* *Candidates*: the ``top_k`` legal ids of the largest prior logits.
* *Worlds*: ``determinizations`` states drawn from the seat's information set, never the true
  state.  ``InfoSet.sample`` is put in a canonical form and redrawn (``fandonia_env.engine.face.hidden.
  seat_information``, an engine query): the other hands, drawn counters, pile order and the generator of future
  dice and shuffles are redrawn, so a world depends only on what the seat may know and on the
  agent's own seeded ``random.Random``.
* *Simulations*: a candidate applied to a copy of a world, then every seat (the agent's own
  included) plays the network's choice (argmax, or a sample at ``rollout_temperature``) for
  ``horizon`` decisions; the leaf is then valued by the network's value head for the searching
  seat (the seat's own observation of the leaf, whoever decides there); a finished game counts
  its outcome: +1 win, -1/(n-1) loss, 0 draw or turn limit.  The i-th simulation of every
  candidate runs on the same world with the same dice (world ``i % determinizations``; later
  passes over the worlds reseed the dice the same way for every candidate): the candidates are
  compared on common random numbers.
* *Batching*: the simulations of a wave run in lock-step; each step encodes every unfinished
  simulation's deciding seat (or the searching seat, at a leaf) and runs ONE forward pass over
  all of them.
* *Allocation*: a first wave gives every candidate the same number of simulations (up to
  ``determinizations``, and at most half the budget); the rest of the ``simulations`` budget goes,
  in waves of the same size, to the candidate of the largest PUCT score
  ``Q(a) + c_puct * P(a) * sqrt(N) / (1 + N(a))`` (P: the prior renormalised over the
  candidates; virtual visits spread a wave).
* *Choice*: the candidate of the largest ``Q(a) + prior_weight * P(a)`` (Q: the mean value of its
  simulations; the prior term breaks near-ties toward the network) among the prior's favourite and
  the candidates that beat it with confidence: paired over the simulations they share (same world,
  same dice), their mean advantage is > 0 with a z-score >= ``z_min``.
* *Time*: ``max_seconds`` is a hard cap per decision: when it runs out, every running
  simulation is valued where it stands (one last forward pass) and no new wave starts.  The
  agent is a pure function of (seed, its inputs) while the cap does not bind.

``search(view, legal, infoset)`` returns ``(action, policy_target, q)`` (the visit distribution
over the legal ids and the mean values of the simulated candidates: targets for expert
iteration) and ``last_search`` keeps the whole ``SearchInfo`` of the latest searched decision.
Playing needs numpy only; ``threadpoolctl``, when installed, holds BLAS to ``blas_threads``
threads during a decision (a multi-threaded BLAS on a busy machine made batched products many
times slower).
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fandonia_env.engine import Game
from fandonia_env.engine.face.hidden import reseed, seat_information
from fandonia_env.engine.face.seat import SeatView, as_seat_view

from .base import Agent
from .ppo_agent import NOBLE_PPO_V1, SMALL_BATCH, PolicyError, load_policy

#: ``search:PATH`` names a policy file played by ``SearchAgent`` (knobs: ``search:PATH?k=v&k=v``)
SEARCH_PREFIX = "search:"

#: the decision kinds searched by default: the Player Turn's activity choice, the usurpation
#: choices, assassination and scandal, intrigue against the crown, and the card windows of rolls
DEFAULT_SEARCH_KINDS: tuple[str, ...] = (
    "turn_main", "usurp_farc", "usurp_support", "assassin", "assassination_target", "assassination_card",
    "scandal_target", "crown_intrigue", "intrigue_victim", "card_window")

#: the outcome of a finished game for the searching seat
WIN, DRAW = 1.0, 0.0


def _loss(n: int) -> float:
    return -1.0 / (n - 1)


@dataclass
class SearchInfo:
    """What one searched decision found (``SearchAgent.last_search``)."""

    kind: str
    #: the action played
    action: int
    #: the candidates, best prior first
    candidates: list[int]
    #: the prior over the candidates (softmax of the logits over the legal ids)
    prior: dict[int, float]
    #: simulations run per candidate
    visits: dict[int, int]
    #: mean simulated value per candidate (candidates never simulated are absent)
    q: dict[int, float]
    #: visits / total over every legal id (0.0 for the ids not searched): an expert-iteration target
    policy_target: dict[int, float]
    #: simulations run in all, determinisations drawn, seconds taken, and whether the time cap bound
    simulations: int = 0
    worlds: int = 0
    seconds: float = 0.0
    timed_out: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


class _Sim:
    """One simulation: a candidate applied to a copy of a world, played on by the network."""

    __slots__ = ("cand", "done", "game", "prev", "steps", "value")

    def __init__(self, cand: int, game: Game, prev: list[str | None]) -> None:
        self.cand, self.game, self.prev = cand, game, prev
        self.steps = 0
        self.done = False
        self.value = 0.0


def _check_int(name: str, v: Any, lo: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
        raise ValueError(f"{name} must be an integer >= {lo}, got {v!r}")
    return int(v)


def _check_float(name: str, v: Any, lo: float, strict: bool = False) -> float:
    ok = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) and math.isfinite(v)
    if not ok or (v <= lo if strict else v < lo):
        raise ValueError(f"{name} must be a finite number {'>' if strict else '>='} {lo}, got {v!r}")
    return float(v)


_CONTROLLER: Any = None


def _blas_limit(threads: int | None) -> Any:
    """A context that holds BLAS to ``threads`` threads (threadpoolctl), or a no-op context."""
    global _CONTROLLER
    import contextlib

    if threads is None:
        return contextlib.nullcontext()
    if _CONTROLLER is None:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover - threadpoolctl comes with the numpy stacks
            _CONTROLLER = False
        else:
            _CONTROLLER = ThreadpoolController()
    if _CONTROLLER is False:  # pragma: no cover
        return contextlib.nullcontext()
    return _CONTROLLER.limit(limits=threads, user_api="blas")


class SearchAgent(Agent):
    """Plays a policy-value network with a batched determinised look-ahead on chosen decision kinds.

    Knobs (each checked; a bad value raises ValueError naming the allowed range):

    * ``path``: the policy file (``.npz`` export or ``.pt`` checkpoint), default noble-ppo-v1's.
    * ``simulations`` (>= 1, default 12): simulations per searched decision, all candidates together.
    * ``max_seconds`` (> 0 or None, default 1.5): hard time cap per decision; None: no cap.
    * ``determinizations`` (>= 1, default 4): worlds drawn from the information set per decision.
    * ``horizon`` (>= 0, default 8): decisions (of any seat) simulated after the candidate before
      the value head is read; 0 values the position right after the candidate.
    * ``top_k`` (>= 2, default 3): candidates, the legal ids of the largest prior logits.
    * ``search_kinds`` (decision kinds, default ``DEFAULT_SEARCH_KINDS``; ``"*"``: every kind):
      where search is applied; elsewhere the prior's argmax is played.
    * ``c_puct`` (>= 0, default 0.5): weight of the prior in the PUCT allocation after the first wave.
    * ``prior_weight`` (>= 0, default 0.05): the final choice maximises Q(a) + prior_weight * P(a).
    * ``z_min`` (>= 0, default 1.0): a candidate replaces the prior's favourite only when its paired
      advantage over it (simulations on the same worlds and dice) has a z-score >= z_min; 0: plain
      argmax of Q(a) + prior_weight * P(a).
    * ``rollout_temperature`` (>= 0, default 0): 0 plays the argmax in simulations, else a sample
      of softmax(logits / T) over the legal ids.
    * ``blas_threads`` (>= 1 or None, default 1): BLAS threads during a decision; None leaves BLAS as is.
    * ``seed``: the agent's own generator (worlds, dice reseeds, rollout samples).
    """

    id = "search"

    def __init__(self, path: str | os.PathLike[str] = NOBLE_PPO_V1, seed: int | None = None, *,
                 simulations: int = 12, max_seconds: float | None = 1.5, determinizations: int = 4,
                 horizon: int = 8, top_k: int = 3, search_kinds: Iterable[str] | str = DEFAULT_SEARCH_KINDS,
                 c_puct: float = 0.5, prior_weight: float = 0.05, z_min: float = 1.0,
                 rollout_temperature: float = 0.0,
                 blas_threads: int | None = 1, agent_id: str | None = None) -> None:
        self.simulations = _check_int("simulations", simulations, 1)
        self.max_seconds = None if max_seconds is None else _check_float("max_seconds", max_seconds, 0.0, strict=True)
        self.determinizations = _check_int("determinizations", determinizations, 1)
        self.horizon = _check_int("horizon", horizon, 0)
        self.top_k = _check_int("top_k", top_k, 2)
        self.c_puct = _check_float("c_puct", c_puct, 0.0)
        self.prior_weight = _check_float("prior_weight", prior_weight, 0.0)
        self.z_min = _check_float("z_min", z_min, 0.0)
        self.rollout_temperature = _check_float("rollout_temperature", rollout_temperature, 0.0)
        self.blas_threads = None if blas_threads is None else _check_int("blas_threads", blas_threads, 1)
        if isinstance(search_kinds, str):
            search_kinds = (search_kinds,) if search_kinds == "*" else tuple(k for k in search_kinds.split(",") if k)
        kinds = tuple(search_kinds)
        if not all(isinstance(k, str) and k for k in kinds):
            raise ValueError(f"search_kinds must be decision kinds (non-empty strings) or '*', got {kinds!r}")
        self.search_kinds: frozenset[str] = frozenset(kinds)
        self.search_all = "*" in self.search_kinds
        self.policy = load_policy(path)
        if self.policy.encoder is None:
            raise PolicyError(f"{path}: the header names no observation encoder")
        self.path = str(path)
        self.id = agent_id or f"{SEARCH_PREFIX}{path}"
        self.rng = random.Random(seed)
        #: the kind of this seat's previous decision with two or more options (memory encoders)
        self.prev_kind: str | None = None
        #: the latest searched decision (None until one is searched, and after ``reset``)
        self.last_search: SearchInfo | None = None
        self.decisions = self.searches = self.sims_run = self.timeouts = 0

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self.prev_kind = None
        self.last_search = None
        self.decisions = self.searches = self.sims_run = self.timeouts = 0

    # -- the network ----------------------------------------------------------
    def _encode(self, state: Any, seat: int, prev_kind: str | None) -> np.ndarray:
        enc = self.policy.encoder
        if enc.memory:
            return enc.encode(state, seat, prev_kind)
        return enc.encode(state, seat)

    def _forward(self, rows: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        x = np.stack(rows)
        b = len(x)
        if self.blas_threads is not None and 4 < b <= SMALL_BATCH:
            # numpy's own loops (ppo_agent's small-batch path) cost ~2x a single-threaded BLAS here
            x = np.concatenate([x, np.zeros((SMALL_BATCH + 1 - b, x.shape[1]), dtype=x.dtype)])
        logits, values = self.policy.forward(x)
        return logits[:b], values[:b]

    def _prior(self, view: SeatView, infoset: Any) -> tuple[np.ndarray, float]:
        enc = self.policy.encoder
        x = enc.observe(view, None, self.prev_kind) if enc.memory else enc.observe(view)
        logits, value = self.policy.forward(x)
        return logits[0], float(value[0])

    # -- acting ---------------------------------------------------------------
    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        view = as_seat_view(view)
        kind = "other" if view.decision is None else view.decision.kind
        search = infoset is not None and len(legal) > 1 and (self.search_all or kind in self.search_kinds)
        return self._decide(view, legal, infoset, search)[0]

    def search(self, view: SeatView | dict[str, Any], legal: list[int],
               infoset: Any) -> tuple[int, dict[int, float], dict[int, float]]:
        """Search this decision whatever its kind: (action, policy_target, q).

        ``policy_target`` is the visit distribution over every legal id (0.0 for ids not
        searched; all on the one id of a single-option decision), ``q`` the mean simulated value
        of each simulated candidate for this seat.  Also sets ``last_search``."""
        if infoset is None:
            raise ValueError("search needs the seat's InfoSet (worlds are drawn from it)")
        if not legal:
            raise ValueError("search needs at least one legal action id")
        a, info = self._decide(as_seat_view(view), legal, infoset, True)
        if info is None:  # one legal id
            return a, {a: 1.0}, {}
        return a, dict(info.policy_target), dict(info.q)

    def _decide(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any,
                search: bool) -> tuple[int, SearchInfo | None]:
        view = as_seat_view(view)  # a subclass may hand the document on (scripts/usurp_probes.py)
        self.decisions += 1
        kind = "other" if view.decision is None else view.decision.kind
        if len(legal) == 1:
            return legal[0], None
        t0 = time.perf_counter()
        with _blas_limit(self.blas_threads):
            logits, _ = self._prior(view, infoset)
            z = logits[legal]
            best = int(legal[int(np.argmax(z))])
            info = None
            if search:
                info = self._search(view, legal, infoset, z, kind, t0)
                best = info.action
        if self.policy.encoder.memory:
            self.prev_kind = kind
        return best, info

    # -- the search -----------------------------------------------------------
    def _search(self, view: SeatView, legal: list[int], infoset: Any, z: np.ndarray, kind: str,
                t0: float) -> SearchInfo:
        self.searches += 1
        me, n = view.me, view.n
        deadline = None if self.max_seconds is None else t0 + self.max_seconds
        cands, prior = self._candidates(legal, z)
        k = len(cands)
        visits = dict.fromkeys(cands, 0)
        total = dict.fromkeys(cands, 0.0)
        values: dict[int, list[float]] = {a: [] for a in cands}  # by simulation index: paired across candidates
        srng = random.Random(self.rng.getrandbits(64))
        nrng = np.random.default_rng(srng.getrandbits(64))
        base = infoset.sample(random.Random(0))  # a determinisation, made canonical below
        worlds: list[Any] = []
        reseeds: dict[tuple[int, int], int] = {}
        timed_out = False

        def sim_for(a: int, i: int) -> _Sim:
            w, rep = i % self.determinizations, i // self.determinizations
            while len(worlds) <= w:  # drawn in order of need: a pure function of the seed
                worlds.append(seat_information(base, me, srng))
            st = worlds[w].clone()
            if rep:
                if (w, rep) not in reseeds:
                    reseeds[(w, rep)] = srng.getrandbits(63)
                reseed(st, reseeds[(w, rep)])
            g = Game.from_state(st, advance=False)
            g.apply(a)
            prev: list[str | None] = [None] * n
            prev[me] = kind
            return _Sim(a, g, prev)

        first = max(1, min(self.determinizations, self.simulations // (2 * k)))
        plan = [(a, i) for i in range(first) for a in cands]
        wave = len(plan)
        used = 0
        while plan:
            sims = []
            for a, i in plan:
                if deadline is not None and time.perf_counter() >= deadline:
                    timed_out = True
                    break
                sims.append(sim_for(a, i))
            if sims:
                timed_out = self._run(sims, me, n, deadline, nrng) or timed_out
            for s in sims:
                visits[s.cand] += 1
                total[s.cand] += s.value
                values[s.cand].append(s.value)
            used += len(sims)
            self.sims_run += len(sims)
            remaining = self.simulations - used
            if timed_out or remaining <= 0:
                break
            plan = self._next_wave(cands, prior, visits, total, min(wave, remaining))
        q = {a: total[a] / visits[a] for a in cands if visits[a]}
        top = cands[0]
        ok = [a for a in q if a == top or self._beats(values[a], values[top])]
        action = max(ok, key=lambda a: q[a] + self.prior_weight * prior[a]) if ok else top
        nsum = sum(visits.values())
        target = {int(a): (visits.get(int(a), 0) / nsum if nsum else float(int(a) == action)) for a in legal}
        if timed_out:
            self.timeouts += 1
        info = SearchInfo(kind=kind, action=action, candidates=cands, prior=prior, visits=visits, q=q,
                          policy_target=target, simulations=nsum, worlds=len(worlds),
                          seconds=time.perf_counter() - t0, timed_out=timed_out)
        self.last_search = info
        return info

    def _candidates(self, legal: list[int], z: np.ndarray) -> tuple[list[int], dict[int, float]]:
        """The ``top_k`` legal actions by the network's prior (at most ``simulations``), and their prior
        renormalised over them."""
        p = np.exp(z - z.max())
        p /= p.sum()
        prior_all = {int(a): float(x) for a, x in zip(legal, p, strict=True)}
        order = np.argsort(-z, kind="stable")
        k = min(self.top_k, len(legal), self.simulations)
        cands = [int(legal[i]) for i in order[:k]]
        mass = sum(prior_all[a] for a in cands)
        return cands, {a: prior_all[a] / mass for a in cands}

    def _next_wave(self, cands: list[int], prior: dict[int, float], visits: dict[int, int],
                   total: dict[int, float], size: int) -> list[tuple[int, int]]:
        """The next ``size`` simulations ``(candidate, its simulation index)`` by PUCT, each counted as a
        virtual visit of its candidate for the next pick."""
        plan = []
        virtual = dict(visits)
        for _ in range(size):
            nsum = sum(virtual.values())
            a = max(cands, key=lambda c: (total[c] / visits[c] if visits[c] else 0.0)
                    + self.c_puct * prior[c] * math.sqrt(nsum) / (1 + virtual[c]))
            plan.append((a, virtual[a]))
            virtual[a] += 1
        return plan

    def _beats(self, va: list[float], vt: list[float]) -> bool:
        """Whether simulations ``va`` beat ``vt`` paired by index: mean > 0 and z-score >= z_min."""
        m = min(len(va), len(vt))
        if m == 0:
            return False
        d = np.asarray(va[:m], dtype=np.float64) - np.asarray(vt[:m], dtype=np.float64)
        mean = float(d.mean())
        if self.z_min == 0.0:
            return True
        if mean <= 0.0 or m < 2:
            return False
        sd = float(d.std(ddof=1))
        return sd == 0.0 or mean / (sd / math.sqrt(m)) >= self.z_min

    def _run(self, sims: list[_Sim], me: int, n: int, deadline: float | None, nrng: np.random.Generator) -> bool:
        """Play the simulations on in lock-step, one forward pass per step; True if the time cap bound."""
        from fandonia_env.engine.face.search import sample_chance

        timed_out = False
        chance_rng: random.Random | None = None
        active = sims
        temp = self.rollout_temperature
        while active:
            if deadline is not None and not timed_out and time.perf_counter() >= deadline:
                timed_out = True
            rows: list[np.ndarray] = []
            todo: list[tuple[_Sim, int, list[int] | None]] = []  # (sim, seat, legal); legal None: a leaf
            for s in active:
                g = s.game
                while g.is_chance_node():  # explicit-chance games: outcomes by their probabilities
                    if chance_rng is None:
                        chance_rng = random.Random(int(nrng.integers(2**63)))
                    g.apply_chance(sample_chance(g, chance_rng))
                if g.over:
                    s.value = WIN if (g.result == "win" and g.winner == me) else (
                        _loss(n) if g.result == "win" else DRAW)
                    s.done = True
                    continue
                if s.steps >= self.horizon or timed_out:
                    rows.append(self._encode(g.state, me, s.prev[me]))
                    todo.append((s, me, None))
                    continue
                seat = g.current_player()
                legal = g.legal_actions()
                if len(legal) == 1:  # nothing to choose: no forward pass, no step counted
                    g.apply(legal[0])
                    continue
                rows.append(self._encode(g.state, seat, s.prev[seat]))
                todo.append((s, seat, legal))
            if rows:
                logits, values = self._forward(rows)
            r = 0
            for s, seat, legal in todo:
                if legal is None:
                    s.value = float(values[r])
                    s.done = True
                    r += 1
                else:
                    zz = logits[r, legal]
                    if temp > 0.0:
                        zz = zz / temp + nrng.gumbel(size=len(legal))
                    g = s.game
                    kind = g.decision()["kind"] if self.policy.encoder.memory else None
                    g.apply(int(legal[int(np.argmax(zz))]))
                    s.prev[seat] = kind
                    s.steps += 1
                    r += 1
            active = [s for s in active if not s.done]
        return timed_out


def _parse_knobs(query: str) -> dict[str, Any]:
    """``k=v&k=v`` -> knobs: ints, floats, ``none``, and comma lists for ``search_kinds``."""
    out: dict[str, Any] = {}
    ints = {"simulations", "determinizations", "horizon", "top_k", "blas_threads"}
    floats = {"max_seconds", "c_puct", "prior_weight", "z_min", "rollout_temperature"}
    for part in query.split("&"):
        if not part:
            continue
        key, sep, val = part.partition("=")
        if not sep:
            raise ValueError(f"search spec knob {part!r} is not key=value")
        try:
            if key == "search_kinds":
                out[key] = val if val == "*" else tuple(x for x in val.split(",") if x)
            elif key in ints:
                out[key] = None if val.lower() == "none" else int(val)
            elif key in floats:
                out[key] = None if val.lower() == "none" else float(val)
            else:
                raise ValueError(f"unknown search knob {key!r}; known: {sorted(ints | floats | {'search_kinds'})}")
        except ValueError as e:
            if "unknown search knob" in str(e):
                raise
            raise ValueError(f"search knob {key}={val!r}: {e}") from None
    return out


def from_spec(spec: str, seed: int | None = None, **kw: Any) -> SearchAgent:
    """``search:PATH`` (or ``search:PATH?simulations=32&horizon=12&search_kinds=turn_main,card_window``)
    -> a ``SearchAgent`` on the policy in PATH; ``search:`` alone is noble-ppo-v1's file.  Keyword
    arguments override the knobs of the spec."""
    if not spec.startswith(SEARCH_PREFIX):
        raise ValueError(f"a search agent spec starts with {SEARCH_PREFIX!r}, got {spec!r}")
    rest = spec[len(SEARCH_PREFIX):]
    path, _, query = rest.partition("?")
    knobs = {**_parse_knobs(query), **kw}
    return SearchAgent(path or NOBLE_PPO_V1, seed=seed, agent_id=spec, **knobs)

"""``noble-ismcts-v1``: determinized Monte Carlo search (PIMC with a UCB1 bandit at the root).

At the decisions that matter (the first ``turn_main`` of each Player Turn and every
``turn_main`` where a usurpation has P(success) >= 0.25, the choice of usurper and of Royal
Alignment, card windows and modifier signs on hearings, trials and assassinations) the agent:

1. samples a determinisation from its ``infoset`` (other hands, drawn counters, pile order
   and future dice redrawn, ``engine.hidden``), wrapped as ``Game.from_state(..., advance=False)``;
2. picks a root action with UCB1 over the accumulated statistics (every determinisation
   shares the root, which is the agent's information set: the legal actions are the same);
3. applies it and plays on with ``noble-rule-v1`` for every seat for at most ``horizon``
   decisions (or to the end of the game);
4. scores the final position for itself: 1 for a win, 0 for another's win, 1/n for a draw,
   else a heuristic (PP, IP, faction statuses, FARCs, usurpation chance, reign progress),
   turned into a share between the players by a softmax.

The most visited root action is played.  Budget: ``iterations`` rollouts (default 12) of at
most ``horizon`` decisions (default 40) per searched decision, optionally capped by
``time_limit`` seconds (default None, so the agent is deterministic for a seed);
``max_candidates`` bounds the root actions (the rule policy's choice and ``pass`` are always
among them).  Every other
decision is taken by the embedded ``noble-rule-v1``.  All randomness comes from the agent's
own ``random.Random``; with ``time_limit=None`` (the default) the agent is a pure function
of (seed, inputs).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import ID
from fandonia_env.engine.face.seat import SeatView, as_seat_view

from .base import Agent, register
from .noble_rule import NobleRuleV1, best_usurp

PASS = ID["pass"]
_SEARCH_KINDS = frozenset({"usurp_farc", "royal_alignment"})
_ROLL_PREFIXES = ("Hearing of", "Trial of", "Assassination Table")


class NobleISMCTSV1(Agent):
    id = "noble-ismcts-v1"

    def __init__(self, seed: int | None = None, iterations: int = 12, time_limit: float | None = None,
                 horizon: int = 40, max_candidates: int = 6, c_uct: float = 0.7,
                 temperature: float = 25.0) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.horizon = horizon
        self.max_candidates = max_candidates
        self.c_uct = c_uct
        self.temperature = temperature
        self.rule = NobleRuleV1(seed=self.rng.getrandbits(32))
        self.searches = 0
        self._searched_turn = -1

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self.rule.reset(self.rng.getrandbits(32))
        self.searches = 0
        self._searched_turn = -1

    # -- which decisions are searched -------------------------------------
    def _worth_search(self, view: SeatView, legal: list[int]) -> bool:
        dec = view.decision
        if dec is None:
            return False
        kind = dec.kind
        if kind == "turn_main":
            # the first choice of each Player Turn, and any turn where usurping is plausible
            if ID["free_usurp"] in legal and best_usurp(view)[1] >= 0.25:
                return True
            if self._searched_turn == view.turn:
                return False
            self._searched_turn = view.turn
            return True
        if kind in _SEARCH_KINDS:
            return True
        if kind in ("card_window", "declare_modifier"):
            return str(dec.ctx.get("roll", "")).startswith(_ROLL_PREFIXES)
        return False

    def _candidates(self, view: SeatView, legal: list[int], default: int) -> list[int]:
        cands = [default]
        if PASS in legal and PASS not in cands:
            cands.append(PASS)
        kind = None if view.decision is None else view.decision.kind
        rest = [a for a in legal if a not in cands]
        if kind == "turn_main":
            # never search obviously useless free actions
            skip = {ID["free_discard"], ID["free_hide"], ID["free_suicide"], ID["free_unhide"]}
            rest = [a for a in rest if a not in skip]
            if ID["free_usurp"] in rest:
                _, p = best_usurp(view)
                if p < 0.25:
                    rest.remove(ID["free_usurp"])
        self.rng.shuffle(rest)
        return (cands + rest)[: max(2, self.max_candidates)]

    # -- acting -----------------------------------------------------------
    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        view = as_seat_view(view)
        default = self.rule.act(view, legal)
        if len(legal) < 2 or infoset is None or not self._worth_search(view, legal):
            return default
        cands = self._candidates(view, legal, default)
        if len(cands) < 2:
            return default
        return self._search(view, cands, infoset, default)

    def _search(self, view: SeatView, cands: list[int], infoset: Any, default: int) -> int:
        self.searches += 1
        me = view.me
        n_vis = {a: 0 for a in cands}
        tot = {a: 0.0 for a in cands}
        t0 = time.perf_counter()
        for it in range(self.iterations):
            if self.time_limit is not None and it >= len(cands) and time.perf_counter() - t0 > self.time_limit:
                break
            # UCB1 at the root (unvisited first, in candidate order)
            a = None
            for c in cands:
                if n_vis[c] == 0:
                    a = c
                    break
            if a is None:
                logn = math.log(it)
                a = max(cands, key=lambda c: tot[c] / n_vis[c] + self.c_uct * math.sqrt(logn / n_vis[c]))
            state = infoset.sample(self.rng)
            g = Game.from_state(state, advance=False)
            if a not in g.legal_actions():
                # cannot happen (the legal set is part of the information set); be safe
                n_vis[a] += 1
                continue
            g.apply(a)
            v = self._rollout(g, me)
            n_vis[a] += 1
            tot[a] += v
        best = max(cands, key=lambda c: (n_vis[c], tot[c] / n_vis[c] if n_vis[c] else 0.0, c == default))
        return best

    def _rollout(self, g: Game, me: int) -> float:
        n = g.n_players
        pols = [NobleRuleV1(seed=self.rng.getrandbits(32)) for _ in range(n)]
        steps = 0
        while not g.over and steps < self.horizon:
            p = g.current_player()
            if p is None:
                break
            legal = g.legal_actions()
            a = legal[0] if len(legal) == 1 else pols[p].act(g.seat_view(p), legal)
            g.apply(a)
            steps += 1
        return self.evaluate(g, me)

    # -- evaluation -------------------------------------------------------
    def evaluate(self, g: Game, me: int) -> float:
        st = g.state
        n = st.n
        if st.over:
            if st.result == "win":
                return 1.0 if st.winner == me else 0.0
            return 1.0 / n
        scores = []
        for q in range(n):
            scores.append(self._score(g, q))
        m = max(scores)
        ex = [math.exp((s - m) / self.temperature) for s in scores]
        return ex[me] / sum(ex)

    @staticmethod
    def _score(g: Game, q: int) -> float:
        st = g.state
        pl = st.players[q]
        pcc = st.chars[pl.pc]
        if pcc.dead:
            base = 0.0
        else:
            base = 5.0
        v = base + pl.pp + 0.2 * pl.ip
        v += sum(1.0 for c in st.chars.values() if c.owner == q and not c.dead)
        if st.reign and st.reign.get("player") == q and st.monarch == st.reign.get("cid"):
            held = st.turn - st.reign.get("since", st.turn)
            v += 60.0 + 20.0 * held
        elif not pcc.dead:
            view = g.seat_view(q)
            _, p = best_usurp(view)
            v += 40.0 * p
            v += 3.0 * sum(1 for cid, ch in view.chars.items()
                           if ch.owner == q and cid in ("alan", "anne", "john", "edward", "phillip",
                                                        "almery", "catherine", "alfred") and not ch.dead)
        return v


def seat_score(g: Game, q: int) -> float:
    """noble-ismcts-v1's heuristic score of seat ``q``'s position (``NobleISMCTSV1.evaluate`` turns the
    seats' scores into shares); the OpenSpiel agents' rollouts end with it (``openspiel_bot``)."""
    return NobleISMCTSV1._score(g, q)


register("noble-ismcts-v1", NobleISMCTSV1)

"""``noble-ismcts-v2``: determinized (PIMC) one-step lookahead over a rule policy, with a
learned value at a depth cut-off.  Tournament against ``noble-rule-v1``: ``docs/benchmarks.md``.

``noble-ismcts-v1`` spread a small budget over many decisions, with long noisy rollouts and a
hand-made evaluation.  v2 puts its budget on the decisions that matter and compares the
candidates on the *same* determinisations:

* **Default policy** (``DefaultPolicy``): ``noble-rule-v1`` plus two changes that won in
  rule-vs-rule play: usurp at any P(success) >= ``counter_threshold`` (0.05) while another
  player's FARC reigns (he wins after three full turns, §37: waiting loses), and draw an Event
  card instead of consulting a Prestige Table / courting favor / buying a +1 modifier (Support
  cards make usurpations; PP barely predict a win).  It answers every decision first (so its
  roll bookkeeping stays right) and keeps its choice for every decision that is not searched,
  including decision kinds it does not know (presets, optional rules: the rule's fallback).
* **Searched decisions**: ``turn_main`` only.  *Stakes* decisions, every one where a
  usurpation has exact P(success) >= ``usurp_floor`` (``noble_rule.usurp_chance``) and the first
  ``max_searches_per_turn`` of a Player Turn while another's FARC reigns: ``stakes_candidates``
  candidates, ``stakes_determinizations`` samples, a switch needs a paired z >= ``stakes_z_min``.
  *Ordinary* decisions, the first ``max_searches_per_turn`` of every other Player Turn:
  ``max_candidates`` candidates, ``determinizations`` samples, z >= ``z_min`` (strict: most
  activity choices move the win chance by well under 1%, below what a few samples can see).
  Candidates: the default, ``free_usurp`` (when P >= ``usurp_floor``), ``pass``, then other
  legal ids in random order; discard/hide/suicide/unhide never.
* **Search**: for each sample of the agent's ``InfoSet`` (other hands, drawn counters, pile
  order and future dice redrawn, ``engine.hidden``; the true state is never seen), every
  candidate is applied to a clone of that same sample with the same rollout-policy seeds
  (common random numbers: candidates are compared pairwise), then played on by
  ``DefaultPolicy`` at the agent's seat and ``noble-rule-v1`` at the others until the agent's
  next ``turn_main`` in a later game turn (at most ``horizon`` decisions) or the end.
* **Value at the cut-off**: a finished game is 1 (win), 0 (loss), 1/n (draw).  Otherwise the
  agent's share ``exp(s_me) / sum_q exp(s_q)`` of a conditional-logit score ``s_q = w . f(view_q)``
  fitted on ``noble-rule-v1`` self-play (2-6 players), with features exact P(usurpation),
  expected rating gap to the Monarch with and without the hand's Support cards
  (``usurp_gap``), reign (0/1/2+ full turns held) and PC dead (``WEIGHTS``).
* **Choice**: the candidate with the largest mean paired advantage over the default, if it is at
  least ``margin`` and its z-score passes; else the default.

All randomness comes from the agent's own ``random.Random``; with ``time_limit=None`` (the
default) the agent is a pure function of (seed, inputs).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import ID
from fandonia_env.engine.data.components import ROYALS
from fandonia_env.engine.face.seat import SeatView, as_seat_view
from fandonia_env.engine.rules.rule_queries import (
    SUPPORT_VALUES,
    faction_value,
    mean,
    royal_uv_distribution,
    support_multiplier,
    usurpation_parts,
    usurpers,
)

from .base import Agent, register
from .noble_rule import NobleRuleV1, best_usurp

PASS = ID["pass"]
USURP = ID["free_usurp"]
GAP_LO, GAP_HI = -250.0, 60.0
_SKIP = frozenset(ID[a] for a in ("free_discard", "free_hide", "free_suicide", "free_unhide") if a in ID)

#: every feature ``features`` computes (the candidates tried when fitting); ``WEIGHTS`` uses a subset
FEATURES = ("pu", "gap", "gap_front", "hand_sup", "front", "fv", "farcs", "ra", "pp", "ip", "pc_dead",
            "reign0", "reign1", "reign2", "other_reign", "hand", "turn", "inv_n")


def _support_ev(view: SeatView, q: int, cards: list[str]) -> float:
    return sum(3.5 * support_multiplier(view, q, t)[0] for t in cards if t in SUPPORT_VALUES)


def usurp_gap(view: SeatView | dict[str, Any], with_hand: bool = True) -> float:
    """Expected usurpation rating minus the Monarch's (best usurper), as ``usurp_chance`` counts
    them (§36.4-§36.5, §36.8: ``rule_queries.usurpation_parts``), clipped to [GAP_LO, GAP_HI];
    GAP_LO when the viewer cannot usurp.  A smooth version of P(success), informative while P
    is still 0."""
    view = as_seat_view(view)
    me = view.me
    cands = usurpers(view, me)
    if view.monarch is None or not cands:
        return GAP_LO
    best = GAP_LO
    for cid in cands:
        r = usurpation_parts(view, me, cid, with_hand)
        u = mean(royal_uv_distribution(cid)) + r.usurper_fixed + sum(3.5 * m for m in r.usurper_cards)
        m = mean(royal_uv_distribution(r.monarch, r.monarch_halved))
        if r.defender is None:
            m += r.monarch_fixed
            if r.monarch_extra is not None:
                m += mean(royal_uv_distribution(r.monarch_extra)) + r.monarch_bonus
            elif r.monarch_bonus:
                m += r.monarch_bonus
        else:
            m += r.monarch_bonus + r.monarch_fixed
            m += sum(3.5 * x for x in r.monarch_cards)
        best = max(best, u - m)
    return max(GAP_LO, min(GAP_HI, best))


def features(view: SeatView | dict[str, Any]) -> dict[str, float]:
    """The value features of the viewing player, from his view only."""
    view = as_seat_view(view)
    me, chars, hand = view.me, view.chars, view.hand
    pl = view.players[me]
    pcc = chars[pl.pc]
    r = view.reign or {}
    mine = bool(r) and r.get("player") == me
    other = bool(r) and r.get("player") != me
    held = view.turn - r.get("since", view.turn) if mine else -1
    pu = best_usurp(view)[1]
    return {
        "pu": pu, "gap": usurp_gap(view), "gap_front": usurp_gap(view, with_hand=False),
        "hand_sup": _support_ev(view, me, hand),
        "front": _support_ev(view, me, pl.in_front),
        "fv": float(sum(faction_value(view, me, None))),
        "farcs": float(sum(1 for c in ROYALS if chars[c].owner == me and not chars[c].dead)),
        "ra": float(sum(1 for c in hand if c.startswith("ra_"))),
        "pp": float(pl.pp), "ip": float(pl.ip), "pc_dead": float(pcc.dead),
        "reign0": float(mine and held == 0), "reign1": float(mine and held == 1), "reign2": float(mine and held >= 2),
        "other_reign": float(other), "hand": float(pl.hand_size), "turn": float(view.turn),
        "inv_n": 1.0 / view.n,
    }


#: conditional-logit weights for FEATURES, fitted on noble-rule-v1 self-play (2-6 players,
#: 360 games, every player's features at each first ``turn_main`` of a Player Turn, labelled
#: with the winner): P(q wins) ~ exp(w . f_q) / sum_r exp(w . f_r).
WEIGHTS: dict[str, float] = {"pu": 1.4766, "gap": 0.0275, "gap_front": -0.0051, "reign0": 8.2426,
                             "reign1": 8.7296, "reign2": 9.9217, "pc_dead": 2.0796}


def win_score(view: SeatView | dict[str, Any]) -> float:
    """w . f of the viewing player (a logit; only differences between players matter)."""
    f = features(view)
    return sum(w * f[k] for k, w in WEIGHTS.items())


class DefaultPolicy(NobleRuleV1):
    """``noble-rule-v1`` with two changes that won clearly in rule-vs-rule play (200 games, 2x
    this vs 2x v1, duplicate deals: 0.29 vs 0.21 win rate per seat): usurp at any P(success) >=
    ``counter_threshold`` while another player's FARC reigns, and draw an Event card (Support
    cards are what usurpations are made of) instead of consulting a Prestige Table, courting
    favor or buying a +1 modifier.  The search agent's default and its own rollout policy."""

    counter_threshold = 0.05
    _DRAW_INSTEAD = frozenset(ID[a] for a in ("act_prestige", "act_court_favor", "free_buy_modifier"))

    def _k_turn_main(self, view: SeatView, legal: list[int], ctx: dict[str, Any]) -> int | None:
        if USURP in legal:
            r = view.reign or {}
            if r and r.get("player") != view.me and best_usurp(view)[1] >= self.counter_threshold:
                return USURP
        a = super()._k_turn_main(view, legal, ctx)
        if a in self._DRAW_INSTEAD and ID["act_draw"] in legal:
            return ID["act_draw"]
        return a

    def _k_draw_choice(self, view: SeatView, legal: list[int], ctx: dict[str, Any]) -> int | None:
        if ID["draw_event"] in legal:
            return ID["draw_event"]
        return super()._k_draw_choice(view, legal, ctx)


class NobleISMCTSV2(Agent):
    id = "noble-ismcts-v2"

    def __init__(self, seed: int | None = None, determinizations: int = 6, stakes_determinizations: int = 8,
                 horizon: int = 150, max_candidates: int = 5, stakes_candidates: int = 6,
                 max_searches_per_turn: int = 1, z_min: float = 3.0, stakes_z_min: float = 1.0,
                 margin: float = 0.005, usurp_floor: float = 0.15, counter_threshold: float = 0.05,
                 time_limit: float | None = None) -> None:
        self.rng = random.Random(seed)
        self.determinizations = determinizations
        self.stakes_determinizations = stakes_determinizations
        self.horizon = horizon
        self.max_candidates = max_candidates
        self.stakes_candidates = stakes_candidates
        self.max_searches_per_turn = max_searches_per_turn
        self.z_min = z_min
        self.stakes_z_min = stakes_z_min
        self.margin = margin
        self.usurp_floor = usurp_floor
        self.counter_threshold = counter_threshold
        self.time_limit = time_limit
        self.rule = DefaultPolicy(seed=self.rng.getrandbits(32))
        self.rule.counter_threshold = counter_threshold
        self.searches = 0
        self.changed = 0
        self._turn_key: tuple[int, int] | None = None
        self._turn_searches = 0

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self.rule.reset(self.rng.getrandbits(32))
        self.searches = 0
        self.changed = 0
        self._turn_key = None
        self._turn_searches = 0

    # -- acting -----------------------------------------------------------
    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        view = as_seat_view(view)
        default = self.rule.act(view, legal)  # always: keeps the rule's bookkeeping right
        if len(legal) < 2:
            return default
        dec = view.decision
        if dec is None or dec.kind != "turn_main":
            return default
        usurp_p = best_usurp(view)[1] if USURP in legal else 0.0
        r = view.reign or {}
        other_reigns = bool(r) and r.get("player") != view.me
        if default == USURP and other_reigns:
            return USURP  # another's FARC reigns: waiting loses (§37)
        if infoset is None:
            return default
        key = (view.turn, view.me)
        if key != self._turn_key:
            self._turn_key, self._turn_searches = key, 0
        stakes = usurp_p >= self.usurp_floor or (other_reigns and self._turn_searches < self.max_searches_per_turn)
        if stakes:
            k, m, z = self.stakes_determinizations, self.stakes_candidates, self.stakes_z_min
        elif self._turn_searches < self.max_searches_per_turn:
            k, m, z = self.determinizations, self.max_candidates, self.z_min
        else:
            return default
        cands = self._candidates(legal, default, usurp_p, m)
        if len(cands) < 2 or k < 1:
            return default
        self._turn_searches += 1
        return self._search(view, cands, infoset, default, k, z)

    def _candidates(self, legal: list[int], default: int, usurp_p: float, m: int) -> list[int]:
        cands = [default]
        if USURP in legal and usurp_p >= self.usurp_floor and USURP not in cands:
            cands.append(USURP)
        if PASS in legal and PASS not in cands:
            cands.append(PASS)
        rest = [a for a in legal if a not in cands and a not in _SKIP and a != USURP]
        self.rng.shuffle(rest)
        return (cands + rest)[: max(2, m)]

    def _search(self, view: SeatView, cands: list[int], infoset: Any, default: int, k: int,
                z_min: float) -> int:
        """Paired comparison of every candidate with the rule's choice on ``k`` determinisations."""
        self.searches += 1
        me = view.me
        start_turn = view.turn
        diffs: dict[int, list[float]] = {a: [] for a in cands}
        t0 = time.perf_counter()
        for _ in range(k):
            if self.time_limit is not None and diffs[default] and time.perf_counter() - t0 > self.time_limit:
                break
            paired_sample(infoset, self.rng, cands, default, diffs,
                          lambda g, seeds: self._rollout(g, me, start_turn, seeds))
        best, best_mean = default, 0.0
        for a in cands:
            d = diffs[a]
            if a == default or not d:
                continue
            mean, z = paired_stats(d)
            if mean >= self.margin and mean > best_mean and z >= z_min:
                best, best_mean = a, mean
        if best != default:
            self.changed += 1
        return best

    def _rollout(self, g: Game, me: int, start_turn: int, seeds: list[int]) -> float:
        pols = [(DefaultPolicy if q == me else NobleRuleV1)(seed=s) for q, s in enumerate(seeds)]
        steps = 0
        st = g.state
        while not st.over and steps < self.horizon:
            p = g.current_player()
            if p is None:
                break
            if st.turn > start_turn + 1:
                break
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply(legal[0])
                steps += 1
                continue
            v = g.seat_view(p)
            if p == me and st.turn > start_turn and v.decision.kind == "turn_main":
                break
            g.apply(pols[p].act(v, legal))
            steps += 1
        return self.evaluate(g, me)

    # -- evaluation -------------------------------------------------------
    @staticmethod
    def evaluate(g: Game, me: int) -> float:
        st = g.state
        n = st.n
        if st.over:
            if st.result == "win":
                return 1.0 if st.winner == me else 0.0
            return 1.0 / n
        zs = [win_score(g.seat_view(q)) for q in range(n)]
        m = max(zs)
        ex = [math.exp(z - m) for z in zs]
        return ex[me] / sum(ex)


def paired_sample(infoset: Any, rng: random.Random, cands: list[int], default: int,
                  diffs: dict[int, list[float]], rollout: Any) -> None:
    """One determinisation of ``infoset``: every candidate is applied to a clone of the same
    sample and played on by ``rollout(game, seeds)`` with the same policy seeds (common random
    numbers); appends each candidate's value minus the default's to ``diffs``."""
    base = infoset.sample(rng)
    seeds = [rng.getrandbits(32) for _ in range(base.n)]
    vals = {}
    for a in cands:
        g = Game.from_state(base.clone(), advance=False)
        g.apply(a)
        vals[a] = rollout(g, seeds)
    for a in cands:
        diffs[a].append(vals[a] - vals[default])


def paired_stats(d: list[float]) -> tuple[float, float]:
    """Mean paired advantage and its z-score (inf when every sample agrees and the mean > 0)."""
    mean = sum(d) / len(d)
    var = sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)
    se = math.sqrt(var / len(d))
    if se == 0.0:
        return mean, (math.inf if mean > 0 else 0.0)
    return mean, mean / se


register("noble-ismcts-v2", NobleISMCTSV2)

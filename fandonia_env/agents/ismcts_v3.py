"""``noble-ismcts-v3``: determinized (PIMC) search on the decisions that decide games, with
long rollouts.  Tournament against ``noble-rule-v1``: ``docs/benchmarks.md``.

``noble-ismcts-v2`` searched one step ahead and valued the position at its next Player Turn,
so a usurpation's worth (visible only after the reign: three full turns, §37) was left to a
value model, and most of its budget went to activity choices that move the win chance by
<1%.  v3 searches only the *stakes* decisions (all ``turn_main``):

* **Usurpation timing**: ``free_usurp`` is legal with exact P(success) >= ``usurp_floor`` and
  no other player's FARC reigns.  Candidates: usurp now, or the default policy's other
  choice (wait: build Support cards / FARCs / odds).  Searched at every such decision.
* **Breaking another's reign**: another player's FARC reigns.  Candidates: the default, usurp
  (at any P > 0), assassinate, expose a scandal, play an Intrigue card, draw, pass.  The first
  ``max_searches_per_turn`` decisions of each Player Turn, and every decision where usurping is
  possible.
* **Keeping its own reign**: its own FARC reigns.  Candidates: the default, pass, and other
  legal activities.  The first ``max_searches_per_turn`` decisions of each Player Turn.

Every other decision plays the default policy (v2's ``DefaultPolicy``: ``noble-rule-v1`` +
counter-usurpation at P >= 0.05 + Event cards instead of Prestige), which also answers decision
kinds it does not know (presets, optional rules).

**Search**: for each of ``determinizations`` (8) samples of the agent's ``InfoSet`` (v2's
machinery: the true state is never seen), every candidate is applied to a clone of the same
sample and played on with the same rollout seeds (common random numbers) by
``DefaultPolicy`` at the agent's seat and ``noble-rule-v1`` elsewhere, to the end of the
game or ``turns_ahead`` game turns later (enough for a reign to win or be broken), at most
``horizon`` decisions; the cut-off is valued by v2's conditional-logit win model (a finished
game is 1 / 0 / 1/n).  The candidate with the largest mean paired advantage over the default
is played if it is at least ``margin`` and its paired z-score is at least ``z_min``.  Close
calls (a candidate ahead of the default with z within [z_min - 0.75, z_min + 1)) get more
samples, one at a time, up to ``max_determinizations`` (20).

All randomness comes from the agent's own ``random.Random``; the agent is a pure function of
(seed, inputs).
"""

from __future__ import annotations

import random
from typing import Any

from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import ID
from fandonia_env.engine.face.seat import SeatView, as_seat_view

from .base import Agent, register
from .ismcts_v2 import DefaultPolicy, NobleISMCTSV2, paired_sample, paired_stats
from .noble_rule import NobleRuleV1, best_usurp

PASS = ID["pass"]
USURP = ID["free_usurp"]
#: activities that can break another player's reign (or keep one's own), in order of trial
_BREAK = tuple(ID[a] for a in ("act_assassinate", "act_expose_scandal", "act_intrigue_card", "act_draw",
                               "act_extradite", "act_recruit_treachery") if a in ID)
_SKIP = frozenset(ID[a] for a in ("free_discard", "free_hide", "free_suicide", "free_unhide", "free_abdicate")
                  if a in ID)


class NobleISMCTSV3(Agent):
    id = "noble-ismcts-v3"

    def __init__(self, seed: int | None = None, determinizations: int = 8, max_determinizations: int = 20,
                 turns_ahead: int = 4,
                 horizon: int = 500, max_candidates: int = 4, max_searches_per_turn: int = 1,
                 z_min: float = 1.0, margin: float = 0.01, usurp_floor: float = 0.15,
                 counter_threshold: float = 0.05) -> None:
        self.rng = random.Random(seed)
        self.determinizations = determinizations
        self.max_determinizations = max(determinizations, max_determinizations)
        self.turns_ahead = turns_ahead
        self.horizon = horizon
        self.max_candidates = max_candidates
        self.max_searches_per_turn = max_searches_per_turn
        self.z_min = z_min
        self.margin = margin
        self.usurp_floor = usurp_floor
        self.counter_threshold = counter_threshold
        self.rule = DefaultPolicy(seed=self.rng.getrandbits(32))
        self.rule.counter_threshold = counter_threshold
        self.searches = 0
        self.changed = 0
        self.rollouts = 0
        self._turn_key: tuple[int, int] | None = None
        self._turn_searches = 0

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self.rule.reset(self.rng.getrandbits(32))
        self.searches = self.changed = self.rollouts = 0
        self._turn_key = None
        self._turn_searches = 0

    # -- acting -----------------------------------------------------------
    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        view = as_seat_view(view)
        default = self.rule.act(view, legal)  # always: keeps the rule's bookkeeping right
        if len(legal) < 2 or infoset is None:
            return default
        dec = view.decision
        if dec is None or dec.kind != "turn_main":
            return default
        me = view.me
        r = view.reign or {}
        other_reigns = bool(r) and r.get("player") != me
        my_reign = bool(r) and r.get("player") == me
        usurp_p = best_usurp(view)[1] if USURP in legal else 0.0
        key = (view.turn, me)
        if key != self._turn_key:
            self._turn_key, self._turn_searches = key, 0
        first = self._turn_searches < self.max_searches_per_turn
        if other_reigns:
            if not first and usurp_p <= 0.0:
                return default
            cands = [default]
            if usurp_p > 0.0:
                cands.append(USURP)
            cands += [a for a in _BREAK if a in legal]
            cands.append(PASS)
        elif my_reign:
            if not first:
                return default
            cands = [default, PASS]
            rest = [a for a in legal if a not in _SKIP and a != USURP]
            self.rng.shuffle(rest)
            cands += rest
        elif usurp_p >= self.usurp_floor:
            cands = [default, USURP] if default != USURP else [USURP]
            if default == USURP:  # the alternative: wait (the rule's next-best activity)
                alt = [a for a in (ID["act_draw"], PASS) if a in legal]
                cands += alt[:1]
        else:
            return default
        seen: list[int] = []
        for a in cands:
            if a in legal and a not in seen:
                seen.append(a)
        cands = seen[: max(2, self.max_candidates)]
        if len(cands) < 2:
            return default
        self._turn_searches += 1
        return self._search(view, cands, infoset, default)

    def _search(self, view: SeatView, cands: list[int], infoset: Any, default: int) -> int:
        """Paired comparison of every candidate with the default on the same determinisations."""
        self.searches += 1
        me = view.me
        stop_turn = view.turn + self.turns_ahead
        diffs: dict[int, list[float]] = {a: [] for a in cands}
        best, best_mean = default, 0.0
        while len(diffs[default]) < self.max_determinizations:
            paired_sample(infoset, self.rng, cands, default, diffs,
                          lambda g, seeds: self._rollout(g, me, stop_turn, seeds))
            if len(diffs[default]) < self.determinizations:
                continue
            best, best_mean, close = default, 0.0, False
            for a in cands:
                if a == default:
                    continue
                mean, z = paired_stats(diffs[a])
                if mean >= self.margin and mean > best_mean and z >= self.z_min:
                    best, best_mean = a, mean
                if mean > 0 and self.z_min - 0.75 <= z < self.z_min + 1.0:
                    close = True  # a close call: spend more samples on it
            if not close:
                break
        if best != default:
            self.changed += 1
        return best

    def _rollout(self, g: Game, me: int, stop_turn: int, seeds: list[int]) -> float:
        self.rollouts += 1
        pols = [(DefaultPolicy if q == me else NobleRuleV1)(seed=s) for q, s in enumerate(seeds)]
        pols[me].counter_threshold = self.counter_threshold
        st = g.state
        steps = 0
        while not st.over and steps < self.horizon and st.turn <= stop_turn:
            p = g.current_player()
            if p is None:
                break
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply(legal[0])
            else:
                g.apply(pols[p].act(g.seat_view(p), legal))
            steps += 1
        return NobleISMCTSV2.evaluate(g, me)


register("noble-ismcts-v3", NobleISMCTSV3)

"""The advisor (issue 43): what the strongest noble would play in a seat's decision, from that seat's view only.

    >>> from fandonia_env.agents.advisor import advise
    >>> a = advise(game.view(seat, log=False))        # the seat must be the one deciding
    >>> a["suggestion"], a["win_chance"], a["weighs"]

``advise(view, legal=None, noble="noble-ppo-v2")`` reads exactly what the noble reads when it plays: the
seat's ``player_view`` document (or ``SeatView``) and the legal ids (by default the options of the view's own
decision), never the true state, so it tells nothing a seat may not know.  It returns

* ``suggestion``: the id the noble plays there.  The policy nobles (``noble-ppo-v1``, ``noble-ppo-v2``,
  ``ppo:PATH``) play the argmax of their logits over the legal ids (temperature 0, no sampling,
  ``PPOAgent.act``); the advisor computes the same logits (``PPOAgent.scores``) and takes the same argmax
  (``ppo_agent.greedy``), so the suggestion *is* the noble's move, ties included;
* ``weighs``: the (up to) ``TOP`` options the policy rates highest, each with its probability under the
  policy's own distribution, softmax(logits) over the legal ids (what the noble samples from at temperature 1);
* ``value``: the network's value head, its estimate of the seat's return from here under the zero-sum
  reward it was trained on (docs/rewards.md: +1 a win, -1/(n-1) a loss, 0 a draw or a turn-limit end);
* ``win_chance``: ``value`` read as a chance of winning, ``((n-1) * value + 1) / n`` clipped to [0, 1]: the
  win probability p for which p * 1 + (1 - p) * (-1/(n-1)) = value, i.e. counting every game not won as a
  loss (draws and turn-limit ends, rare at the rules' end, are not separated).  It is the noble's own
  estimate, not a measured frequency (scripts/advisor_speed.py prints how it is calibrated).

A noble without a value head, one that samples, or one whose encoder remembers earlier decisions (the v1c
memory: a suggestion would then depend on the seat's history, not its view) is refused (``AdvisorError``).
The labels in plain words are added above the agents, by ``fandonia_env.words.advice``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fandonia_env.engine.core.actions import NAME
from fandonia_env.engine.face.seat import SeatView

from .base import make_agent
from .ppo_agent import PPOAgent, greedy

__all__ = ["DEFAULT_NOBLE", "TOP", "AdvisorError", "advise", "advisor_noble", "win_chance"]

#: the noble that advises unless another is named: the strongest shipped one (docs/benchmarks.md)
DEFAULT_NOBLE = "noble-ppo-v2"
#: how many options ``weighs`` lists at most
TOP = 3


class AdvisorError(ValueError):
    """No advice: a noble that cannot advise, or a view without a decision of its seat."""


def advisor_noble(noble: str = DEFAULT_NOBLE) -> PPOAgent:
    """The noble that advises: a policy noble at temperature 0 whose encoder reads the view alone.  Its
    network is loaded once per file (``ppo_agent.load_policy`` caches it), so this is cheap."""
    bot = make_agent(noble, seed=0)
    if not isinstance(bot, PPOAgent):
        raise AdvisorError(f"{noble!r} cannot advise: only a policy noble (noble-ppo-v2, ppo:PATH) has a value head "
                           "and a move computed from the view alone")
    if bot.temperature != 0.0 or bot.policy.encoder is None or bot.policy.encoder.memory:
        raise AdvisorError(f"{noble!r} cannot advise: its move is sampled or depends on earlier decisions")
    return bot


def win_chance(value: float, n_players: int) -> float:
    """The value head's zero-sum estimate read as a chance of winning (module docstring)."""
    return float(min(1.0, max(0.0, ((n_players - 1) * value + 1.0) / n_players)))


def _legal_of(view: SeatView | dict[str, Any]) -> list[int]:
    if isinstance(view, SeatView):
        return [] if view.decision is None else list(view.decision.options)
    d = view.get("decision")
    return list(d["options"]) if d else []


def _n_players(view: SeatView | dict[str, Any]) -> int:
    return view.n if isinstance(view, SeatView) else len(view["players"])


def advise(view: SeatView | dict[str, Any], legal: list[int] | None = None, noble: str = DEFAULT_NOBLE,
           bot: PPOAgent | None = None) -> dict[str, Any]:
    """The advice for the seat of ``view`` (module docstring): ``{noble, suggestion, value, win_chance,
    weighs: [{id, name, prob}], n_options}``.  ``bot``: an ``advisor_noble`` already made."""
    legal = _legal_of(view) if legal is None else list(legal)
    if not legal:
        raise AdvisorError("the seat has no decision to advise on")
    bot = bot if bot is not None else advisor_noble(noble)
    z, value = bot.scores(view, legal)
    best = greedy(legal, z)
    p = np.exp(z - z.max())
    p /= p.sum()
    order = sorted(range(len(legal)), key=lambda i: (-p[i], i))[:TOP]
    if legal.index(best) not in order:  # equal probabilities beyond TOP: the suggestion is always weighed
        order = [legal.index(best), *order[:TOP - 1]]
    weighs = [{"id": int(legal[i]), "name": NAME[legal[i]], "prob": float(p[i])} for i in order]
    return {"noble": bot.id, "suggestion": best, "value": value, "win_chance": win_chance(value, _n_players(view)),
            "weighs": weighs, "n_options": len(legal)}

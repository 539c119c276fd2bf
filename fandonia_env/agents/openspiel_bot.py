"""OpenSpiel bots as nobles: ``openspiel:ismcts?knob=value&...`` and ``openspiel:random`` (docs/openspiel.md).

An agent id ``openspiel:BOT`` seats an OpenSpiel bot wherever an agent id is accepted (the tournament,
the Gymnasium env's opponents...).  At each decision with two or more legal actions it samples a state
from its ``InfoSet`` (the other hands, counters, pile order and future dice redrawn; never the true
hidden state), wraps it as a ``python_fandonia`` state (``fandonia_env.openspiel``) and returns the bot's
``step``.  Needs the ``openspiel`` extra.

* ``openspiel:ismcts``: OpenSpiel's ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``), resampling
  from the seat's information each simulation, with a ``RolloutEvaluator``.  Knobs: ``simulations``
  (default 16), ``uct_c`` (2.0), ``horizon`` (player moves per rollout, 20), ``rollouts`` (1),
  ``rollout`` (``random`` or ``noble-rule-v1``: who plays the rollouts, default ``random``), ``score``
  (``heuristic``: a game not over after the rollout is scored by noble-ismcts-v1's evaluation, turned
  into values on the returns' scale; ``none``: 0; default ``heuristic``), ``worlds`` (OpenSpiel's
  ``max_world_samples``, -1: a new resample every simulation), ``final`` (``max_visit_count``,
  ``normalized_visited_count`` or ``max_value``).
* ``openspiel:random``: OpenSpiel's uniform random bot (``pyspiel.make_uniform_random_bot``), a check
  that any C++ bot plays through the adapter.

The other direction, a registered noble as an OpenSpiel bot, is ``noble_bot(agent_id, seed)``
(``fandonia_env.openspiel.NobleBot`` around ``make_agent``).
"""

from __future__ import annotations

import math
import random
from typing import Any

from fandonia_env.engine import Game, as_seat_view
from fandonia_env.extras import EXTRAS, extra_message, missing_modules, require_extra

from .base import Agent, make_agent
from .ismcts import seat_score
from .noble_rule import NobleRuleV1

__all__ = ["OPENSPIEL_PREFIX", "OpenSpielAgent", "check_spec", "from_spec", "heuristic_values", "noble_bot",
           "parse_spec"]

OPENSPIEL_PREFIX = "openspiel:"
BOTS = ("ismcts", "random")
_KNOBS: dict[str, tuple[type, Any]] = {  # knob -> (type, default) of openspiel:ismcts
    "simulations": (int, 16),
    "uct_c": (float, 2.0),
    "horizon": (int, 20),
    "rollouts": (int, 1),
    "rollout": (str, "random"),
    "score": (str, "heuristic"),
    "worlds": (int, -1),
    "final": (str, "max_visit_count"),
}
_CHOICES = {"rollout": ("random", "noble-rule-v1"), "score": ("heuristic", "none"),
            "final": ("max_visit_count", "normalized_visited_count", "max_value")}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``openspiel:BOT?k=v&k=v`` -> (BOT, knobs with their defaults); a ValueError naming what is wrong
    and what is allowed otherwise."""
    if not isinstance(spec, str) or not spec.startswith(OPENSPIEL_PREFIX):
        raise ValueError(f"an OpenSpiel agent id starts with {OPENSPIEL_PREFIX!r}, got {spec!r}")
    bot, _, query = spec[len(OPENSPIEL_PREFIX):].partition("?")
    if bot not in BOTS:
        raise ValueError(f"agent {spec!r}: unknown OpenSpiel bot {bot!r}; bots: {list(BOTS)} "
                         "(e.g. openspiel:ismcts?simulations=16)")
    knobs = {k: d for k, (_, d) in _KNOBS.items()} if bot == "ismcts" else {}
    for part in filter(None, query.split("&")):
        key, sep, val = part.partition("=")
        if not sep:
            raise ValueError(f"agent {spec!r}: knob {part!r} is not key=value")
        if key not in knobs:
            raise ValueError(f"agent {spec!r}: unknown knob {key!r}; {bot} takes {sorted(knobs) or 'none'}")
        typ = _KNOBS[key][0]
        try:
            value = typ(val)
        except ValueError:
            raise ValueError(f"agent {spec!r}: knob {key}={val!r} must be {typ.__name__}") from None
        if key in _CHOICES and value not in _CHOICES[key]:
            raise ValueError(f"agent {spec!r}: knob {key}={val!r}; allowed: {list(_CHOICES[key])}")
        if key in ("simulations", "rollouts") and value < 1 or key == "horizon" and value < 0 \
                or key == "uct_c" and not (math.isfinite(value) and value >= 0) or key == "worlds" and value < -1:
            raise ValueError(f"agent {spec!r}: knob {key}={val!r} is out of range (simulations, rollouts >= 1; "
                             "horizon >= 0; uct_c >= 0; worlds -1 or >= 0)")
        knobs[key] = value
    return bot, knobs


def check_spec(spec: str) -> None:
    """``check_agent``'s test of an ``openspiel:`` id: the bot, its knobs, and the ``openspiel`` extra
    (a ValueError with the extra's install line when it is missing)."""
    parse_spec(spec)
    if missing_modules(EXTRAS["openspiel"]):
        raise ValueError(f"agent {spec!r}: {extra_message('openspiel', 'fandonia_env.openspiel')}")


def heuristic_values(g: Game, temperature: float = 25.0) -> list[float]:
    """noble-ismcts-v1's evaluation of every seat (PP, IP, faction, reign, usurpation odds), as shares by a
    softmax, put on the returns' scale: share s -> (n s - 1)/(n - 1), so a certain win is 1 and a certain
    loss -1/(n-1), and the values sum to 0 like the returns."""
    n = g.n_players
    scores = [seat_score(g, q) for q in range(n)]
    m = max(scores)
    ex = [math.exp((s - m) / temperature) for s in scores]
    tot = sum(ex)
    return [(n * e / tot - 1.0) / (n - 1) for e in ex]


def _rule_policy(rng: random.Random) -> Any:
    def make(seat: int) -> Any:
        bot = NobleRuleV1(seed=rng.getrandbits(32))
        return lambda view, legal, infoset: bot.act(view, legal)
    return make


class OpenSpielAgent(Agent):
    """An OpenSpiel bot at the table (module docstring)."""

    def __init__(self, spec: str, seed: int | None = None) -> None:
        require_extra("openspiel", "fandonia_env.openspiel", cli=False)
        self.id = spec
        self.bot_name, self.knobs = parse_spec(spec)
        self.rng = random.Random(seed)
        self._games: dict[tuple[Any, ...], Any] = {}
        self._bots: dict[tuple[Any, ...], Any] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self._bots.clear()  # new bots drawing from the reseeded generator

    def _game(self, cfg: dict[str, Any]) -> tuple[tuple[Any, ...], Any]:
        from fandonia_env.openspiel import load

        key = (cfg["players"], cfg["edition"], tuple(cfg["optional"]), cfg["max_turns"])
        if key not in self._games:
            self._games[key] = load({"players": cfg["players"], "edition": cfg["edition"],
                                     "optional": "+".join(cfg["optional"]) or "none",
                                     "max_turns": cfg["max_turns"] or 0, "deals": 1})
        return key, self._games[key]

    def _bot(self, key: tuple[Any, ...], game: Any, player: int) -> Any:
        import pyspiel

        from fandonia_env.openspiel import RolloutEvaluator, ismcts_bot

        bkey = (*key, player)
        if bkey not in self._bots:
            if self.bot_name == "random":
                self._bots[bkey] = pyspiel.make_uniform_random_bot(player, self.rng.getrandbits(31))
            else:
                k = self.knobs
                policy = _rule_policy(random.Random(self.rng.getrandbits(32))) if k["rollout"] == "noble-rule-v1" else None
                ev = RolloutEvaluator(horizon=k["horizon"], rollouts=k["rollouts"], seed=self.rng.getrandbits(32),
                                      policy=policy, score=heuristic_values if k["score"] == "heuristic" else None)
                self._bots[bkey] = ismcts_bot(game, ev, simulations=k["simulations"], uct_c=k["uct_c"],
                                              seed=self.rng.getrandbits(32), max_world_samples=k["worlds"],
                                              final_policy=k["final"])
        return self._bots[bkey]

    def act(self, view: Any, legal: list[int], infoset: Any = None) -> int:
        if len(legal) == 1:
            return legal[0]
        if infoset is None:
            raise ValueError(f"agent {self.id!r} searches from its InfoSet: call act(view, legal, infoset) with "
                             "the engine's InfoSet(state, seat), as the tournament does")
        from fandonia_env.openspiel import state_from_engine

        me = as_seat_view(view).me
        st = infoset.sample(self.rng)  # a determinisation: what the seat knows, the rest redrawn
        st.config = {**st.config, "chance": "explicit"}
        key, game = self._game(st.config)
        state = state_from_engine(game, Game.from_state(st, advance=False))
        if state.current_player() != me:
            raise ValueError(f"agent {self.id!r}: seat {me} is asked to act, but seat {state.current_player()} decides")
        a = int(self._bot(key, game, me).step(state))
        if a not in legal:
            raise ValueError(f"agent {self.id!r} chose {a}, not among the legal ids {legal}")
        return a


def from_spec(spec: str, seed: int | None = None, **kw: Any) -> OpenSpielAgent:
    """The factory of ``register_prefix(OPENSPIEL_PREFIX, ...)``; keyword arguments are not taken."""
    if kw:
        raise ValueError(f"agent {spec!r}: give knobs in the id (openspiel:ismcts?simulations=16), not as {sorted(kw)}")
    return OpenSpielAgent(spec, seed=seed)


from_spec.check_spec = check_spec  # type: ignore[attr-defined]  # check_agent tests an id without building it


def noble_bot(agent_id: str, seed: int | None = None) -> Any:
    """The registered noble ``agent_id`` as an OpenSpiel bot on ``python_fandonia`` (a ``NobleBot``)."""
    require_extra("openspiel", "fandonia_env.openspiel", cli=False)
    from fandonia_env.openspiel import NobleBot

    return NobleBot(make_agent(agent_id, seed=seed), seed=seed)

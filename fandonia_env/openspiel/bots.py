"""Bots between OpenSpiel and the project (docs/openspiel.md).

* ``NobleBot(agent)``: any noble (an object with ``act(view, legal, infoset)``, e.g.
  ``fandonia_env.agents.make_agent("noble-rule-v1")``) as a ``pyspiel.Bot``, so OpenSpiel's
  ``evaluate_bots`` and its other bot runners play it on ``python_fandonia``.  It sees what it sees at
  the tournament: its seat's view, the legal ids and an ``InfoSet`` (never the hidden state).
* ``ismcts_bot(game, ...)``: OpenSpiel's own ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``) with
  the engine's resampling of what the deciding seat cannot see (``game.resample_state``) and a
  ``RolloutEvaluator``.
* ``RolloutEvaluator``: OpenSpiel's ``Evaluator`` interface; plays at most ``horizon`` player moves on
  from a state (uniformly random, or a given policy), then scores it: the returns at the end of the
  game, else ``score(game)`` (per-seat values on the returns' scale) or 0.  OpenSpiel's own
  ``RandomRolloutEvaluator`` plays to the end of the game, which here takes hundreds of moves: it works
  (``ismcts_bot(game, evaluator=mcts.RandomRolloutEvaluator())``) but costs seconds a simulation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from fandonia_env.engine import Game, InfoSet, SeatView, reseed

from .game import FandoniaGame, FandoniaState, resample_state

__all__ = ["FINAL_POLICIES", "ISMCTSBot", "NobleBot", "RolloutEvaluator", "default_mode_copy", "ismcts_bot"]

#: ``ismcts_bot(final_policy=...)``: OpenSpiel's ``ISMCTSFinalPolicyType`` members, by lower-case name
FINAL_POLICIES = ("max_visit_count", "normalized_visited_count", "max_value")

Policy = Callable[[SeatView, list[int], InfoSet], int]


def default_mode_copy(g: Game) -> Game:
    """A copy of an explicit-chance-mode game (at a decision) that draws its chance from the generator,
    as the tournament's games do: what a noble or a rollout plays on."""
    st = g.state.clone()
    st.config = {k: v for k, v in st.config.items() if k != "chance"}
    return Game.from_state(st, advance=False)


class NobleBot(pyspiel.Bot):
    """A noble as an OpenSpiel bot on ``python_fandonia``: ``step(state)`` hands the noble the deciding
    seat's view, the legal ids (in the engine's order, as at the tournament) and an ``InfoSet``, and
    returns its choice.  ``restart_at`` resets the noble with a seed of its own sequence."""

    def __init__(self, agent: Any, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        if not callable(getattr(agent, "act", None)):
            raise TypeError(f"NobleBot needs an agent with act(view, legal, infoset), got {type(agent).__name__}")
        self.agent = agent
        self._rng = random.Random(seed)

    def restart_at(self, state: Any) -> None:
        if hasattr(self.agent, "reset"):
            self.agent.reset(self._rng.getrandbits(31))

    def restart(self) -> None:
        self.restart_at(None)

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def inform_actions(self, state: Any, actions: Sequence[int]) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def step(self, state: FandoniaState) -> int:
        if not isinstance(state, FandoniaState):
            raise TypeError(f"NobleBot plays python_fandonia states, got {type(state).__name__}")
        p = state.current_player()
        if p < 0:
            raise ValueError(f"NobleBot.step: no seat decides at this state (current player {p})")
        g = state.engine_game()
        assert g is not None
        d = default_mode_copy(g)
        legal = d.legal_actions()
        a = int(self.agent.act(d.seat_view(p), legal, InfoSet(d.state, p)))
        if a not in legal:
            raise ValueError(f"noble {getattr(self.agent, 'id', self.agent)!r} chose {a}, not among the legal ids {legal}")
        return a


class RolloutEvaluator:
    """OpenSpiel's ``Evaluator`` interface (``evaluate``, ``prior``) for ``python_fandonia``.

    ``evaluate(state)``: the mean over ``rollouts`` of: play on a copy drawing chance from a fresh
    generator, at most ``horizon`` player moves, each seat by ``policy(view, legal, infoset)`` (uniformly
    random when None); then the returns if the game is over, else ``score(game)`` (a value per seat on the
    returns' scale, [-1/(n-1), 1]) or zeros when ``score`` is None.  ``prior(state)``: uniform over the
    legal actions (the chance outcomes' probabilities at a chance node)."""

    def __init__(self, horizon: int = 20, rollouts: int = 1, seed: int | None = None,
                 policy: Callable[[int], Policy] | None = None,
                 score: Callable[[Game], Sequence[float]] | None = None) -> None:
        if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0:
            raise ValueError(f"RolloutEvaluator: horizon must be an int >= 0, got {horizon!r}")
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"RolloutEvaluator: rollouts must be an int >= 1, got {rollouts!r}")
        self.horizon, self.rollouts = horizon, rollouts
        self.policy, self.score = policy, score
        self.rng = random.Random(seed)

    def _rollout(self, g0: Game) -> np.ndarray:
        g = g0.clone()
        while g.is_chance_node():  # resolve a pending node by its probabilities, then draw as the tournament does
            outs = g.chance_outcomes()
            g.apply_chance(self.rng.choices([o for o, _ in outs], weights=[float(p) for _, p in outs])[0])
        g = default_mode_copy(g)
        reseed(g.state, self.rng.getrandbits(63))
        n = g.n_players
        pols = [self.policy(q) for q in range(n)] if self.policy is not None else None
        for _ in range(self.horizon):
            if g.over:
                break
            p = g.current_player()
            assert p is not None
            legal = g.legal_actions()
            if pols is None or len(legal) == 1:
                a = legal[0] if len(legal) == 1 else self.rng.choice(legal)
            else:
                a = pols[p](g.seat_view(p), legal, InfoSet(g.state, p))
            g.apply(a)
        if g.over:
            if g.result != "win":
                return np.zeros(n)
            return np.array([1.0 if q == g.winner else -1.0 / (n - 1) for q in range(n)])
        if self.score is None:
            return np.zeros(n)
        return np.asarray(self.score(g), dtype=float)

    def evaluate(self, state: FandoniaState) -> np.ndarray:
        if state.is_terminal():
            return np.asarray(state.returns(), dtype=float)
        g = state.engine_game()
        assert g is not None
        return sum(self._rollout(g) for _ in range(self.rollouts)) / self.rollouts

    def prior(self, state: FandoniaState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ``ISMCTSBot`` as it is, plus the ``restart_at`` and ``inform_action`` that OpenSpiel's own
    runners (``evaluate_bots``) call: it searches afresh at every step, so there is nothing to restart."""

    def restart_at(self, state: Any) -> None:
        self.reset()

    def restart(self) -> None:
        self.reset()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def inform_actions(self, state: Any, actions: Sequence[int]) -> None:
        pass


def ismcts_bot(game: FandoniaGame, evaluator: Any = None, simulations: int = 20, uct_c: float = 2.0,
               seed: int | None = None, max_world_samples: int = -1,
               final_policy: str = "max_visit_count") -> Any:
    """OpenSpiel's ``ISMCTSBot`` on ``game``: ``simulations`` per decision, each from a state resampled from
    the deciding seat's information (``resample_state``; ``max_world_samples`` -1: a new one each
    simulation), nodes keyed by the information state string, ``evaluator`` at the leaves (default
    ``RolloutEvaluator(seed=seed)``)."""
    if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
        raise ValueError(f"ismcts_bot: simulations must be an int >= 1, got {simulations!r}")
    if final_policy not in FINAL_POLICIES:
        raise ValueError(f"ismcts_bot: final_policy must be one of {list(FINAL_POLICIES)}, got {final_policy!r}")
    rng = random.Random(seed)
    bot = ISMCTSBot(
        game, evaluator if evaluator is not None else RolloutEvaluator(seed=rng.getrandbits(32)), float(uct_c),
        simulations, max_world_samples=max_world_samples, random_state=np.random.RandomState(rng.getrandbits(32)),
        final_policy_type=ismcts.ISMCTSFinalPolicyType[final_policy.upper()])
    bot.set_resampler(lambda state, player: resample_state(state, player, rng))
    return bot

"""``FandoniaGymEnv``: a Gymnasium environment for one learner against opponents.

The learner sits in one seat; its opponents (agents with the ``agents`` interface, frozen
policies given as ``fn(obs, mask) -> action``, or registered agent ids such as
``"random-v1"``) play inside ``step()`` until the learner must decide again.  The episode ends
when the game does, whoever made the last move; the learner's reward is its own, whoever's move
earned it (never an opponent's reward).

* observation: ``Box(-1, 1, (OBS_SIZE,), float32)``, the learner's own view (docs/observation.md)
* action: ``Discrete(NUM_ACTIONS)``; ``action_masks()`` gives the legal ones (sb3-contrib's
  MaskablePPO calls it); ``info["action_mask"]`` holds the same.
* reward: +1 if the learner wins, -1/(n-1) if another player wins, 0 for a draw or a truncated
  game; ``shaped=True`` adds a potential-based term (0.01 x (PP + 2 IP) change), off by default.
* ``illegal_action``: ``"raise"`` (default: the engine's IllegalActionError, state untouched)
  or ``"penalize"``: the action is ignored, the learner gets ``-illegal_penalty`` and decides
  again (what Gymnasium's and SB3's ``check_env`` need, as they step with unmasked samples).
* ``players``: an int, or a tuple ``(lo, hi)`` to draw the table size per episode;
  ``seat``: an int, or None to draw the learner's seat per episode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .engine import Game, IllegalActionError
from .engine.actions import NUM_ACTIONS
from .engine.game import player_view
from .engine.hidden import InfoSet
from .spaces.observation import OBS_SIZE, encode

Opponent = Any  # an agents.Agent, a callable fn(obs, mask) -> int, or a registered agent id


class FandoniaGymEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, players: int | tuple[int, int] = 4, seat: int | None = None,
                 opponents: Opponent | Sequence[Opponent] = "random-v1", max_turns: int | None = 100,
                 shaped: bool = False, render_mode: str | None = None, illegal_action: str = "raise",
                 illegal_penalty: float = 0.1, **config: Any) -> None:
        super().__init__()
        if illegal_action not in ("raise", "penalize"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalize', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        if isinstance(players, int):
            lo = hi = players
        else:
            lo, hi = players
        if not (2 <= lo <= hi <= 6):
            raise ValueError(f"players must be an int 2..6 or a range (lo, hi) within 2..6, got {players!r}")
        if seat is not None and not 0 <= seat < lo:
            raise ValueError(f"seat must be None or 0..{lo - 1}, got {seat!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.players_range = (lo, hi)
        self.fixed_seat = seat
        self.max_turns = max_turns
        self.shaped = shaped
        self.render_mode = render_mode
        self.config = config
        self._opponent_spec = opponents
        self.observation_space = spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self.seat = 0
        self.opponents: list[Any] = []

    # -- helpers --------------------------------------------------------------
    def _make_opponents(self, n: int) -> list[Any]:
        spec = self._opponent_spec
        specs = list(spec) if isinstance(spec, (list, tuple)) else [spec] * (n - 1)
        if len(specs) < n - 1:
            specs = (specs * n)[: n - 1]
        out = []
        for _i, s in enumerate(specs[: n - 1]):
            if isinstance(s, str):
                from agents import make_agent

                s = make_agent(s, seed=int(self.np_random.integers(2**31 - 1)))
            out.append(s)
        return out

    def _mask(self) -> np.ndarray:
        m = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.game is not None and self.game.current_player() == self.seat:
            m[self.game.legal_actions()] = 1
        return m

    def action_masks(self) -> np.ndarray:
        return self._mask().astype(bool)

    def _phi(self) -> float:
        if not self.shaped:
            return 0.0
        pl = self.game.state.players[self.seat]
        return 0.01 * (pl.pp + 2 * pl.ip)

    def _play_opponents(self) -> None:
        g = self.game
        while not g.over and g.current_player() != self.seat:
            p = g.current_player()
            opp = self.opponents[(p - self.seat - 1) % g.n_players]
            legal = g.legal_actions()
            if hasattr(opp, "act"):
                a = opp.act(player_view(g.state, p, log=False), legal, InfoSet(g.state, p))
            else:
                mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
                mask[legal] = 1
                a = opp(encode(g.state, p), mask)
            g.apply(int(a))

    def _final_reward(self) -> float:
        st = self.game.state
        if st.result != "win":
            return 0.0
        return 1.0 if st.winner == self.seat else -1.0 / (st.n - 1)

    def _info(self) -> dict[str, Any]:
        st = self.game.state
        return {"action_mask": self._mask(), "seat": self.seat, "players": st.n,
                "result": st.result, "winner": st.winner, "turn": st.turn}

    # -- Gymnasium API ----------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        lo, hi = self.players_range
        n = int(self.np_random.integers(lo, hi + 1))
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(n))
        self.opponents = self._make_opponents(n)
        for o in self.opponents:
            if hasattr(o, "reset"):
                o.reset(int(self.np_random.integers(2**31 - 1)))
        self.game = Game(players=n, seed=int(self.np_random.integers(2**31 - 1)),
                         max_turns=self.max_turns, **self.config)
        self._play_opponents()
        self._potential = self._phi()
        return encode(self.game.state, self.seat), self._info()

    def step(self, action: int):
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self.game.over:
            raise RuntimeError("the episode is over: call reset()")
        if self.game.current_player() != self.seat:  # pragma: no cover - guarded by _play_opponents
            raise IllegalActionError("it is not the learner's decision")
        if self.illegal_action == "penalize" and int(action) not in self.game.legal_actions():
            info = self._info()
            info["illegal_action"] = int(action)
            return encode(self.game.state, self.seat), -self.illegal_penalty, False, False, info
        self.game.apply(int(action))
        self._play_opponents()
        reward = 0.0
        if self.shaped:
            phi = self._phi()
            reward += phi - self._potential
            self._potential = phi
        terminated = truncated = False
        if self.game.over:
            reward += self._final_reward()
            terminated = self.game.result in ("win", "draw")
            truncated = self.game.result == "truncated"
        return encode(self.game.state, self.seat), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        from .fandonia_v0 import render_text

        if self.render_mode is None or self.game is None:
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def make_gym_env(**kw: Any) -> Callable[[], FandoniaGymEnv]:
    """A factory for vectorised envs: ``make_vec_env(make_gym_env(players=4), n_envs=4)``."""
    return lambda: FandoniaGymEnv(**kw)

"""``FandoniaGymEnv``: a Gymnasium environment for one learner against opponents.

The learner sits in one seat; its opponents (agents with the ``agents`` interface, frozen
policies given as ``fn(obs, mask) -> action``, or registered agent ids such as
``"random-v1"``) play inside ``step()`` until the learner must decide again.  The episode ends
when the game does, whoever made the last move; the learner's reward is its own, whoever's move
earned it (never an opponent's reward).

* observation: the learner's own view as one float32 vector: ``observation="v1"`` (default; the
  whole information state, docs/observation_v1.md, ``Box(-inf, inf, (OBS_V1_SIZE,))``) or
  ``"v0"`` (the first release's vector, docs/observation.md, ``Box(-1, 1, (OBS_SIZE,))``).
  Registered as ``fandonia_env/Fandonia-v1`` (v1) and ``fandonia_env/Fandonia-v0`` (v0).
* action: ``Discrete(NUM_ACTIONS)``; ``action_masks()`` gives the legal ones (sb3-contrib's
  MaskablePPO calls it); ``info["action_mask"]`` holds the same.
* reward: +1 if the learner wins, -1/(n-1) if another player wins, 0 for a draw or a truncated
  game; ``shaped=True`` adds a potential-based term (0.01 x (PP + 2 IP) change), off by default.
* actions are checked as in PettingZoo's classic envs.  A **malformed** action (not a Python
  ``int`` or numpy integer: ``'3'``, ``3.0``, ``np.float32(3)``, ``True``, ``None``; or an id
  outside ``0..NUM_ACTIONS-1``) always raises ``InvalidActionError`` (a ``ValueError`` and
  ``TypeError``) naming the value and the legal ids; nothing changes.  An in-range id outside
  the mask follows ``illegal=``:

  - ``"terminate"`` (default): the episode ends (``terminated=True``) with reward -1, the
    info says ``result="illegal_move"`` and ``illegal_action``, and PettingZoo's classic-env
    warning "Illegal move made, game terminating with current player losing" is logged.  This
    is what lets Gymnasium's and SB3's ``check_env`` (which step with unmasked samples) pass;
  - ``"raise"``: the engine's ``IllegalActionError``, nothing changes;
  - ``"penalize"``: no move, reward ``-illegal_penalty`` (default 0.1), the episode goes on and
    the learner decides again (``info["illegal_action"]`` names the id).

  ``illegal_action=`` is the deprecated old name of ``illegal=``.
* ``players``: an int, or a tuple ``(lo, hi)`` to draw the table size per episode;
  ``seat``: an int, or None to draw the learner's seat per episode.  The rules config
  (``preset=``, ``edition=``, ``optional=``, ``max_turns``) and the opponents are validated in
  the constructor.
* ``reset(seed=None, options=None)``: ``seed`` seeds the episode's draws (table size, seat,
  opponents' and game's seeds); ``options={"position": saved}`` starts from a saved position,
  ``saved`` being what ``Game.to_json()`` returns (a dict or its JSON string): its player count
  must be within ``players`` and ``seat`` (when fixed) must be a seat of it; its own rules,
  turn limit and RNG state apply.  Opponents then move until the learner decides.  Other
  option keys are rejected.  ``step``, ``action_masks`` and ``render`` before ``reset()``
  raise ``RuntimeError``.
* registered as ``gymnasium.make("fandonia_env/Fandonia-v0", **kwargs)`` (also
  ``gymnasium.make_vec``) once ``fandonia_env`` is imported.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..engine import Game, IllegalActionError
from ..engine.core.actions import NUM_ACTIONS
from ..engine.face.game import make_config
from ..engine.face.hidden import InfoSet
from ..spaces.observation import OBS_SIZE, encode
from ..spaces.observation_v1 import OBS_V1_SIZE, encode_v1
from .common import (
    DEFAULT_MAX_TURNS,
    ILLEGAL_MODES,
    check_action,
    check_illegal_mode,
    parse_reset_options,
    warn_illegal_move,
)

__all__ = ["FandoniaGymEnv", "Opponent", "make_gym_env"]

Opponent = Any  # an agents.Agent, a callable fn(obs, mask) -> int, or a registered agent id


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


class FandoniaGymEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, players: int | tuple[int, int] = 4, seat: int | None = None,
                 opponents: Opponent | Sequence[Opponent] = "random-v1", max_turns: int | None = DEFAULT_MAX_TURNS,
                 shaped: bool = False, render_mode: str | None = None, illegal: str = "terminate",
                 illegal_penalty: float = 0.1, illegal_action: str | None = None, observation: str = "v1",
                 **config: Any) -> None:
        super().__init__()
        if illegal_action is not None:
            warnings.warn("FandoniaGymEnv(illegal_action=...) is deprecated: use illegal=...",
                          DeprecationWarning, stacklevel=2)
            if illegal != "terminate" and illegal != illegal_action:
                raise ValueError(f"illegal={illegal!r} and its deprecated alias illegal_action={illegal_action!r} "
                                 "disagree: give only illegal=")
            illegal = illegal_action
        self.illegal = check_illegal_mode(illegal, ILLEGAL_MODES)
        is_number = _is_int(illegal_penalty) or isinstance(illegal_penalty, (float, np.floating))
        if not (is_number and math.isfinite(illegal_penalty) and illegal_penalty >= 0):
            raise ValueError(f"illegal_penalty must be a finite number >= 0, got {illegal_penalty!r}")
        self.illegal_penalty = float(illegal_penalty)
        if _is_int(players):
            lo = hi = int(players)
        elif isinstance(players, (tuple, list)) and len(players) == 2 and all(map(_is_int, players)):
            lo, hi = (int(x) for x in players)
        else:
            lo, hi = 0, -1
        if not (2 <= lo <= hi <= 6):
            raise ValueError(f"players must be an int 2..6 or a range (lo, hi) within 2..6, got {players!r}")
        if seat is not None and not (_is_int(seat) and 0 <= seat < lo):
            raise ValueError(f"seat must be None or an int 0..{lo - 1} (a seat at the smallest table), got {seat!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if not isinstance(shaped, (bool, np.bool_)):
            raise ValueError(f"shaped must be a bool, got {shaped!r}")
        if "seed" in config:
            raise ValueError("FandoniaGymEnv takes no seed= argument: seed episodes with reset(seed=...)")
        for n in range(lo, hi + 1):  # the rules config: errors here, not at reset()
            make_config(players=n, max_turns=max_turns, **config)
        _check_opponents(opponents)
        self.players_range = (lo, hi)
        self.fixed_seat = None if seat is None else int(seat)
        self.max_turns = max_turns
        self.shaped = shaped
        self.render_mode = render_mode
        self.config = config
        self._opponent_spec = opponents
        if observation == "v1":
            self._encode = encode_v1
            self.observation_space = spaces.Box(-np.inf, np.inf, (OBS_V1_SIZE,), np.float32)
        elif observation == "v0":
            self._encode = encode
            self.observation_space = spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32)
        else:
            raise ValueError(f"observation must be 'v1' or 'v0', got {observation!r}")
        self.observation = observation
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self._ended = False  # the episode ended on an illegal move (the game itself goes on)
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
                from fandonia_env.agents import make_agent

                s = make_agent(s, seed=int(self.np_random.integers(2**31 - 1)))
            out.append(s)
        return out

    def _mask(self) -> np.ndarray:
        m = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.game is not None and not self._ended and self.game.current_player() == self.seat:
            m[self.game.legal_actions()] = 1
        return m

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (all False once the episode is over)."""
        if self.game is None:
            raise RuntimeError("FandoniaGymEnv: call reset() before action_masks()")
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
                a = opp.act(g.seat_view(p), legal, InfoSet(g.state, p))
            else:
                mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
                mask[legal] = 1
                a = opp(self._encode(g.state, p), mask)
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
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start an episode; ``options={"position": saved}`` continues a saved game (see the
        module docstring)."""
        position = parse_reset_options(options)
        lo, hi = self.players_range
        if position is not None and not lo <= position.n_players <= hi:
            raise ValueError(f"reset option 'position' is a {position.n_players}-player game; this env has "
                             f"players={lo if lo == hi else (lo, hi)}")
        super().reset(seed=seed)
        n = int(self.np_random.integers(lo, hi + 1)) if position is None else position.n_players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(n))
        self.opponents = self._make_opponents(n)
        for o in self.opponents:
            if hasattr(o, "reset"):
                o.reset(int(self.np_random.integers(2**31 - 1)))
        game_seed = int(self.np_random.integers(2**31 - 1))
        self.game = position if position is not None else Game(players=n, seed=game_seed,
                                                               max_turns=self.max_turns, **self.config)
        self._ended = False
        self._play_opponents()
        self._potential = self._phi()
        return self._encode(self.game.state, self.seat), self._info()

    def step(self, action: int):
        if self.game is None:
            raise RuntimeError("FandoniaGymEnv: call reset() before step()")
        if self.game.over or self._ended:
            raise RuntimeError("the episode is over: call reset()")
        if self.game.current_player() != self.seat:  # pragma: no cover - guarded by _play_opponents
            raise IllegalActionError("it is not the learner's decision")
        legal = self.game.legal_actions()
        a = check_action(action, legal, who=f"the learner (player {self.seat}) must act")
        if a not in legal and self.illegal == "penalize":
            info = self._info()
            info["illegal_action"] = a
            return self._encode(self.game.state, self.seat), -self.illegal_penalty, False, False, info
        if a not in legal and self.illegal == "terminate":
            warn_illegal_move()
            self._ended = True
            info = self._info()
            info.update(result="illegal_move", illegal_action=a)
            return self._encode(self.game.state, self.seat), -1.0, True, False, info
        self.game.apply(a)  # illegal="raise": the engine's IllegalActionError, nothing changed
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
        return self._encode(self.game.state, self.seat), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        from .fandonia_v0 import rendered

        if self.game is None:
            raise RuntimeError("FandoniaGymEnv: call reset() before render()")
        if self.render_mode is None:
            return None
        return rendered(self.game, self.render_mode)


def _check_opponents(spec: Any) -> None:
    """Registered agent ids, agents (with ``act``) or callables; anything else is a ValueError."""
    specs = list(spec) if isinstance(spec, (list, tuple)) else [spec]
    if not specs:
        raise ValueError("opponents must not be empty: give an agent id, an agent, a callable or a list of them")
    for s in specs:
        if isinstance(s, str):
            from fandonia_env.agents import AGENTS, check_agent

            try:
                check_agent(s)  # a registered id or ppo:PATH of a policy file
            except ValueError as e:
                raise ValueError(f"unknown opponent agent id {s!r}; registered: {sorted(AGENTS)} ({e})") from None
        elif not (hasattr(s, "act") or callable(s)):
            raise ValueError(f"an opponent must be a registered agent id, an agent with act() or a callable "
                             f"fn(obs, mask) -> action, got {type(s).__name__} {s!r}")


def make_gym_env(**kw: Any) -> Callable[[], FandoniaGymEnv]:
    """A factory for vectorised envs: ``make_vec_env(make_gym_env(players=4), n_envs=4)``."""
    return lambda: FandoniaGymEnv(**kw)

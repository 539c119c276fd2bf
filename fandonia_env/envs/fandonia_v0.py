"""PettingZoo AEC environment ``fandonia_v0``: Down With The King for 2-6 players.

Agents are ``player_0`` .. ``player_{n-1}``; ``agent_selection`` is whoever the engine says
must decide now (card windows, modifier signs and the first player's choices for neutral
characters are often not the player whose turn it is).

Observation (the same space for every agent and every player count)::

    {"observation": Box(0..1 / -1..1, (OBS_SIZE,), float32),   # see docs/observation.md
     "action_mask": Box(0, 1, (NUM_ACTIONS,), int8)}          # all zeros unless deciding

Actions: ``Discrete(NUM_ACTIONS)`` over the engine's fixed catalogue (docs/actions.md);
``action_to_string`` / ``string_to_action``.  ``step(action)`` checks the action the way
PettingZoo's classic envs (chess, connect_four) do:

* a **malformed** action (not a Python ``int`` or numpy integer, e.g. ``'3'``, ``3.0``,
  ``np.float32(3)``, ``True``, ``None`` while the agent must decide, or an id outside
  ``0..NUM_ACTIONS-1``) always raises ``InvalidActionError`` (a ``ValueError`` and
  ``TypeError``; ``fandonia_env.InvalidActionError``) naming the value and the legal ids; nothing
  changes;
* an in-range id that is **illegal now** (outside the mask) follows ``illegal=``:
  ``"terminate"`` (default, the classic envs' ``TerminateIllegalWrapper`` convention): the game
  ends, the offender gets -1 and every other agent 0, ``terminations`` are all True
  (``truncations`` stay False: they mean the turn limit only), the masks all zero, the infos
  say ``result="illegal_move"``, and PettingZoo's warning "Illegal move made, game terminating
  with current player losing" is logged; ``"raise"``: the engine's ``IllegalActionError``,
  nothing changes.

Rewards (docs/rewards.md): zero-sum at the end of the game: the winner +1, the others share
-1 (each -1/(n-1)); a draw or a truncated game gives 0.  ``shaped=True`` adds, after every
step, to every player the change of his potential ``0.01 x (PP + 2 x IP)`` since the previous
step (potential-based, off by default).  The turn limit (``max_turns``, ruling R11) sets
``truncations``, never ``terminations``.

Reset: ``reset(seed=None, options=None)``.  ``seed`` re-seeds the generator that draws each
game's seed (the constructor's ``seed=`` seeds it once; without either, games differ);
``options={"position": saved}`` starts from a saved position, ``saved`` being what
``Game.to_json()`` returns (a dict or its JSON string): its player count must equal
``players``; its own rules and turn limit and its RNG state apply, so ``seed`` does not change
it.  Other option keys are rejected (the key ``"options"``, which PettingZoo's ``api_test``
passes as a probe, is ignored).  ``observe``, ``last``, ``render`` and ``step`` before
``reset()`` raise ``RuntimeError``.

Version History
---------------
* v0 (0.1.0): first release; 1981 edition.
* v0 (0.2.0): ``preset=``, ``edition=`` and ``optional=`` (the errata edition and the §38
  optional rules). Action ids 0-232 keep their meaning (ids 233-251 appended). The observation
  grew from 2,887 to 2,937 floats (new decision kinds, the Free Counsel counter, a block naming
  the rules in play): policies trained on 0.1.0 observations must be retrained. Default-config
  games are move-for-move the same as in 0.1.0.
* v0 (next release, issue 9): actions are checked (``InvalidActionError`` for malformed ones);
  an illegal id now ends the game with -1 for the offender by default (``illegal="terminate"``;
  ``illegal="raise"`` keeps the old behaviour); ``reset(options={"position": ...})``; calls
  before ``reset()`` raise ``RuntimeError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from ..engine import Game
from ..engine.core.actions import CATALOGUE, ID, NAME, NUM_ACTIONS
from ..spaces.observation import OBS_SIZE, encode
from .common import (
    DEFAULT_MAX_TURNS,
    InvalidActionError,
    check_action,
    check_illegal_mode,
    parse_reset_options,
    warn_illegal_move,
)

__all__ = ["InvalidActionError", "env", "raw_env", "action_to_string", "string_to_action", "metadata"]

metadata = {
    "name": "fandonia_v0",
    "render_modes": ["ansi", "human"],
    "is_parallelizable": False,
    "render_fps": 1,
}


def action_to_string(action: int) -> str:
    """Catalogue name of an action id (``"act_acquire_title"``)."""
    if not 0 <= int(action) < NUM_ACTIONS:
        raise ValueError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
    return NAME[int(action)]


def string_to_action(name: str) -> int:
    try:
        return ID[name]
    except KeyError:
        raise ValueError(f"no action named {name!r}; see docs/actions.md") from None


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order-enforcing wrapper (calls before ``reset()`` raise
    ``RuntimeError``).  Keyword arguments: those of :class:`raw_env`."""
    return OrderEnforcing(raw_env(**kwargs))


def _before_reset(what: str) -> RuntimeError:
    return RuntimeError(f"fandonia_v0: call reset() before {what}")


class OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper, raising one clear RuntimeError for every call made
    before ``reset()`` (the wrapper itself raises AssertionError, or AttributeError in ``last``)."""

    def _check_reset(self, what: str) -> None:
        if not self._has_reset:
            raise _before_reset(what)

    # The calls of the agent loop go straight to the wrapped env once the order is checked (the same
    # results as PettingZoo's wrapper, without a wrapper-attribute lookup for every field they read).
    def observe(self, agent: str) -> Any:
        self._check_reset("observe()")
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check_reset("last()")
        return self.env.last(observe)

    def render(self) -> Any:
        self._check_reset("render()")
        return super().render()

    def step(self, action: Any) -> None:
        self._check_reset("step()")
        env = self.env
        if not env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        self._check_reset("agent_iter()")
        return _AgentIterable(self, max_iter)


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the wrapped env's fields directly."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


class raw_env(AECEnv):
    """The AEC environment without wrappers (see the module docstring).

    ``players`` 2-6; ``max_turns`` the turn limit (None: none); ``render_mode`` ``"ansi"`` /
    ``"human"`` / None; ``shaped`` adds the potential-based shaping; ``seed`` seeds the
    generator of game seeds; ``illegal`` ``"terminate"`` (default) or ``"raise"``: what an
    in-range action outside the mask does; ``**config``: the engine's rules config
    (``preset=``, ``edition=``, ``optional=``), validated here."""

    metadata = metadata

    def __init__(self, players: int = 4, max_turns: int | None = DEFAULT_MAX_TURNS, render_mode: str | None = None,
                 shaped: bool = False, seed: int | None = None, illegal: str = "terminate",
                 **config: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {metadata['render_modes']} or None, got {render_mode!r}")
        self.illegal = check_illegal_mode(illegal, ("terminate", "raise"))
        from ..engine.face.game import make_config

        make_config(players=players, max_turns=max_turns, **config)  # validate early
        self.n = players
        self.max_turns = max_turns
        self.config = config
        self.render_mode = render_mode
        self.shaped = shaped
        self._seed = seed
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.game: Game | None = None
        self._ended = False  # the episode ended on an illegal move (the game itself goes on)
        self._seed_rng = np.random.default_rng(seed)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- AEC API ------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game.  ``seed`` re-seeds the generator of game seeds; ``options`` may hold
        ``"position"``: a saved game (``Game.to_json()``, dict or JSON string) of ``players``
        players to continue from (see the module docstring)."""
        position = parse_reset_options(options, extra_keys=("options",))
        if position is not None and position.n_players != self.n:
            raise ValueError(f"reset option 'position' is a {position.n_players}-player game; "
                             f"this env has players={self.n}")
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        if position is not None:
            self.game = position
        else:
            game_seed = int(self._seed_rng.integers(0, 2**31 - 1))
            self.game = Game(players=self.n, seed=game_seed, max_turns=self.max_turns, **self.config)
        self._ended = False
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._potential = [self._phi(i) for i in range(self.n)]
        self._sync_selection()

    def _sync_selection(self) -> None:
        p = self.game.current_player()  # the deciding seat (CHANCE or None between decisions)
        if p is not None:
            self.agent_selection = self.possible_agents[p]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.game is None:
            raise _before_reset("observe()")
        i = self.agent_name_mapping[agent]
        view = self.game.seat_view(i)  # one view serves the mask and the encoder
        mask = bytearray(NUM_ACTIONS)  # a writable int8 array below (no numpy call per option)
        if not self._ended:
            d = view.decision  # the seat's own decision; the engine's own list: read, never kept
            if d is not None:
                for a in d.options:
                    mask[a] = 1
        return {"observation": self._encode(view, i), "action_mask": np.frombuffer(mask, np.int8)}

    #: the observation encoder ``(seat view, seat) -> vector``; ``fandonia_v1`` swaps in observation v1
    _encode = staticmethod(encode)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise _before_reset("last()")
        agent = self.agent_selection  # AECEnv.last, one call less per step
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def _phi(self, i: int) -> float:
        if not self.shaped:
            return 0.0
        pl = self.game.state.players[i]
        return 0.01 * (pl.pp + 2 * pl.ip)

    def step(self, action: int | None) -> None:
        """Play ``action`` for ``agent_selection`` (None for an agent that is done).  A malformed
        action raises ``InvalidActionError``; an illegal one follows ``illegal=``."""
        if self.game is None:
            raise _before_reset("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.game.pending_decision()  # the engine's own list of options: read here, never kept
        legal: list[int] = d.options if d is not None else []
        if type(action) is int and 0 <= action < NUM_ACTIONS:
            a = action  # well-formed: check_action's fast path, without building its message
        else:
            a = check_action(action, legal, who=f"{agent} must act")
        if a not in legal and self.illegal == "terminate":
            self._terminate_illegal(agent, a)
            return
        self.game.apply(a)  # illegal="raise": the engine's IllegalActionError, nothing changed
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if not self.shaped and not self.game.state.over:
            # no reward this step: nothing to accumulate
            self._sync_selection()
            if self.render_mode == "human":
                self.render()
            return
        if self.shaped:
            for i, a in enumerate(self.possible_agents):
                phi = self._phi(i)
                self.rewards[a] += phi - self._potential[i]
                self._potential[i] = phi
        if self.game.over:
            st = self.game.state
            if st.result == "win":
                for i, a in enumerate(self.possible_agents):
                    self.rewards[a] += 1.0 if i == st.winner else -1.0 / (self.n - 1)
            done_key = "truncations" if st.result == "truncated" else "terminations"
            for a in self.agents:
                getattr(self, done_key)[a] = True
                self.infos[a] = {"result": st.result, "winner": st.winner}
        self._accumulate_rewards()
        self._sync_selection()
        if self.render_mode == "human":
            self.render()

    def _terminate_illegal(self, agent: str, action: int) -> None:
        """PettingZoo's TerminateIllegalWrapper convention: -1 to the offender, 0 to the others."""
        warn_illegal_move()
        self._ended = True
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.rewards[agent] = -1.0
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = {"result": "illegal_move", "winner": None, "offender": agent,
                             "illegal_action": action}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.game is None:
            raise _before_reset("render()")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return rendered(self.game, self.render_mode)

    def close(self) -> None:
        pass


def rendered(g: Game, mode: str) -> str | None:
    """``render()`` in ``mode``: "human" prints ``render_text`` (and gives ``None``), "ansi" gives it."""
    text = render_text(g)
    if mode == "human":
        print(text)
        return None
    return text


def render_text(g: Game, last: int = 8) -> str:
    """A compact text picture of the court and the last log lines."""
    from ..engine.data.components import OFFICES, character_name
    from ..engine.rules.rule_queries import status

    st = g.state
    lines = [f"Turn {st.turn}  phase {st.phase}  first player {st.first_player}  "
             f"Monarch {character_name(st.monarch)}  Support {st.support}"
             + ("  (CRISIS)" if st.support == 0 else "")]
    if st.problems:
        lines.append("Unresolved problems: " + ", ".join(st.problems))
    if st.wars:
        lines.append("At war with: " + ", ".join(st.wars))
    for pl in st.players:
        fac = [f"{character_name(c)}[{status(st, c)}]" for c, ch in st.chars.items() if ch.owner == pl.idx]
        lines.append(f"P{pl.idx}: IP {pl.ip} PP {pl.pp} cards {len(pl.hand)} | " + ", ".join(fac))
    offices = [f"{OFFICES[ch.office].name}: {character_name(c)}" for c, ch in st.chars.items()
               if ch.office and ch.office != "monarch"]
    lines.append("Offices: " + "; ".join(sorted(offices)))
    d = g.decision()
    if d:
        lines.append(f"Deciding: player {d['player']} ({d['kind']})")
    elif st.over:
        lines.append(f"Game over: {st.result}" + (f", winner player {st.winner}" if st.winner is not None else ""))
    lines += ["  " + x for x in g.log_lines()[-last:]]
    return "\n".join(lines)


def register_pettingzoo(version: str = "v0") -> None:
    """Register ``fandonia/Fandonia-<version>`` in PettingZoo's registry (``pettingzoo.make``)."""
    try:
        from pettingzoo import register
    except ImportError:  # pettingzoo < 1.27 has no registry
        return
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        register("aec", f"fandonia/Fandonia-{version}", entry_point=f"fandonia_env.envs.fandonia_{version}:env")


register_pettingzoo("v0")
_ = CATALOGUE

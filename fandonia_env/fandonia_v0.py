"""PettingZoo AEC environment ``fandonia_v0``: Down With The King for 2-6 players.

Agents are ``player_0`` .. ``player_{n-1}``; ``agent_selection`` is whoever the engine says
must decide now (card windows, modifier signs and the first player's choices for neutral
characters are often not the player whose turn it is).

Observation (the same space for every agent and every player count)::

    {"observation": Box(0..1 / -1..1, (OBS_SIZE,), float32),   # see docs/observation.md
     "action_mask": Box(0, 1, (NUM_ACTIONS,), int8)}          # all zeros unless deciding

Actions: ``Discrete(NUM_ACTIONS)`` over the engine's fixed catalogue (docs/actions.md);
``action_to_string`` / ``string_to_action``.  An action outside the mask raises the engine's
``IllegalActionError`` (wrap with ``IllegalActionPenalty`` to penalise instead).

Rewards (docs/rewards.md): zero-sum at the end of the game: the winner +1, the others share
-1 (each -1/(n-1)); a draw or a truncated game gives 0.  ``shaped=True`` adds, after every
step, a small potential-based term (0.01 x change in the player's PP + 5*IP... see
``shaping``), off by default.  The turn limit (``max_turns``, ruling R11) sets
``truncations``, never ``terminations``.

Version History
---------------
* v0 (0.1.0): first release; 1981 edition.
* v0 (0.2.0): ``preset=``, ``edition=`` and ``optional=`` (the errata edition and the §38
  optional rules). Action ids 0-232 keep their meaning (ids 233-251 appended). The observation
  grew from 2,887 to 2,937 floats (new decision kinds, the Free Counsel counter, a block naming
  the rules in play): policies trained on 0.1.0 observations must be retrained. Default-config
  games are move-for-move the same as in 0.1.0.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .engine import Game, IllegalActionError
from .engine.actions import CATALOGUE, ID, NAME, NUM_ACTIONS
from .spaces.observation import OBS_SIZE, encode

__all__ = ["env", "raw_env", "action_to_string", "string_to_action", "metadata"]

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
    """The environment with PettingZoo's order-enforcing wrapper."""
    from pettingzoo.utils import wrappers

    e = raw_env(**kwargs)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    metadata = metadata

    def __init__(self, players: int = 4, max_turns: int | None = 100, render_mode: str | None = None,
                 shaped: bool = False, seed: int | None = None, **config: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {metadata['render_modes']} or None, got {render_mode!r}")
        from .engine.game import make_config

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
        self._seed_rng = np.random.default_rng(seed)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- AEC API ------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**31 - 1))
        self.game = Game(players=self.n, seed=game_seed, max_turns=self.max_turns, **self.config)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._potential = [self._phi(i) for i in range(self.n)]
        self._sync_selection()

    def _sync_selection(self) -> None:
        p = self.game.current_player()
        if p is not None:
            self.agent_selection = self.possible_agents[p]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        i = self.agent_name_mapping[agent]
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.game.current_player() == i:
            mask[self.game.legal_actions()] = 1
        return {"observation": encode(self.game.state, i), "action_mask": mask}

    def _phi(self, i: int) -> float:
        if not self.shaped:
            return 0.0
        pl = self.game.state.players[i]
        return 0.01 * (pl.pp + 2 * pl.ip)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: got None while the game is running")
        self.game.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
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

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def render_text(g: Game, last: int = 8) -> str:
    """A compact text picture of the court and the last log lines."""
    from .engine.data.components import OFFICES, character_name
    from .engine.queries import status

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


def _register() -> None:
    try:
        from pettingzoo import register
    except ImportError:  # pettingzoo < 1.27 has no registry
        return
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        register("aec", "fandonia/Fandonia-v0", entry_point="fandonia_env.fandonia_v0:env")


_register()
_ = CATALOGUE

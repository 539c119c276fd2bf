"""Down With The King as an OpenSpiel game: ``python_fandonia`` (docs/openspiel.md).

    import pyspiel, fandonia_env.openspiel               # registers the game
    game = pyspiel.load_game("python_fandonia", {"players": 4, "preset": "errata"})
    state = game.new_initial_state()                     # a chance node: the deal

The engine (``fandonia_env.engine``) plays the rules; this module only maps them onto OpenSpiel:

* **players and turns**: sequential; ``current_player()`` is the engine's deciding seat, OpenSpiel's
  ``CHANCE`` (-1) at a chance node and ``TERMINAL`` (-4) at the end.
* **actions**: the ids of the engine's fixed action catalogue (``num_distinct_actions`` = 252,
  ``docs/actions.md``), legal ones sorted; ``action_to_string`` is ``"<name>: <label>"`` of the
  catalogue.
* **chance**: the engine's explicit chance mode (``Game(..., chance="explicit")``).  A chance action is
  the index of an outcome in the pending node's list (dice faces, a counter or card drawn, a card
  picked), with the engine's exact probabilities.  The first node is the deal: outcome ``i`` of
  ``deals`` deals the engine's game ``seed + i`` (the set-up's shuffles, the starting hands and every
  later reshuffle come from that seed's generator, as the engine's explicit mode leaves them).
* **returns**: those of the environments (docs/rewards.md): +1 to the winner, -1/(n-1) to each other
  player, 0 to everyone in a draw or a truncated game; ``TERMINAL`` reward model, zero-sum.
* **length**: ``max_turns`` (default 60, the environments' ``DEFAULT_MAX_TURNS``; 0 for no limit, ruling
  R11) truncates in the engine; ``max_game_length`` (default 10,000 player moves) is OpenSpiel's bound
  and is enforced: a game that reaches it ends truncated too (returns 0).
* **observations**: the project's encoders (``fandonia_env.spaces.encoders``, ``observation`` parameter,
  default ``"v1"``) through ``make_py_observer``: the tensor is the seat's encoder vector, its blocks
  named as the encoder's layout; the observation string summarises the seat's view; the information
  state string adds a digest of everything the seat has seen and done (its log lines in order, its own
  actions, its view when the game began), so it has perfect recall while the tensor is the seat's
  information state as the encoders read it now.
* **saves**: ``serialize``/``deserialize`` and ``pickle`` carry the engine's JSON save
  (``Game.to_json`` / ``Game.from_json``, checked on load); ``clone`` is the engine's copy-on-write clone.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel

from fandonia_env.engine import NAME, NUM_ACTIONS, ConfigError, Game, SeatView, describe, make_config, resample
from fandonia_env.engine.data.components import CARD_IDS, LOYALTY_IDS, OPPORTUNITY_IDS_BY_EDITION, ROYALS
from fandonia_env.spaces.encoders import ENCODERS, Encoder, get_encoder

__all__ = [
    "DEFAULT_DEALS", "DEFAULT_MAX_GAME_LENGTH", "DEFAULT_MAX_TURNS", "GAME_TYPE", "MAX_ENGINE_OUTCOMES", "SHORT_NAME",
    "FandoniaGame", "FandoniaObserver", "FandoniaState", "game_params", "load", "resample_state", "state_from_engine",
]

SHORT_NAME = "python_fandonia"
#: the environments' turn limit (``fandonia_env.envs.common.DEFAULT_MAX_TURNS``, checked by the tests)
DEFAULT_MAX_TURNS = 60
#: OpenSpiel's ``max_game_length``: player moves after which a game ends truncated.  Measured: at most
#: 1,776 decisions in 60 turns (6 players, errata-all-optional, random play; at most 129 in one turn)
DEFAULT_MAX_GAME_LENGTH = 10_000
#: deals the first chance node draws from (engine seeds ``seed`` .. ``seed + deals - 1``)
DEFAULT_DEALS = 1_000
#: the most outcomes an engine chance node can list: a die roll (at most 2 dice, 36), a Loyalty or
#: Opportunity counter of its pool, an Event card of the pile (120 cards), a card picked from a hand
MAX_ENGINE_OUTCOMES = max(6 ** max(2, *(r.uv_dice for r in ROYALS.values())), len(CARD_IDS), len(LOYALTY_IDS),
                          *(len(ids) for ids in OPPORTUNITY_IDS_BY_EDITION.values()))

_PARAMS: dict[str, Any] = {
    "players": 4,
    "preset": "",  # "" = none (the 1981 rules, no optional rule); else a preset of fandonia_env/presets
    "edition": "",  # "" = the preset's (1981 without one); "1981" or "errata"
    "optional": "",  # "" = the preset's; "none" or switches of OPTIONAL_RULES joined by "+" (or ",")
    "seed": 0,
    "deals": DEFAULT_DEALS,
    "max_turns": DEFAULT_MAX_TURNS,  # 0 = no turn limit
    "max_game_length": DEFAULT_MAX_GAME_LENGTH,
    "observation": "v1",  # an encoder of fandonia_env.spaces.encoders
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Down With The King (Avalon Hill, 1981), fandonia_env",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_PARAMS),
)


def game_params(params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game's parameters completed with the defaults and checked, plus ``config`` (the engine's
    expanded config: players, edition, optional switches, max_turns).  A bad value raises ValueError
    naming the parameter and what is allowed."""
    p = dict(_PARAMS)
    for k, v in (params or {}).items():
        if k not in _PARAMS:
            raise ValueError(f"{SHORT_NAME}: unknown parameter {k!r}; allowed: {sorted(_PARAMS)}")
        p[k] = v
    for k in ("players", "seed", "deals", "max_turns", "max_game_length"):
        if isinstance(p[k], bool) or not isinstance(p[k], int):
            raise ValueError(f"{SHORT_NAME}: parameter {k!r} must be an int, got {p[k]!r}")
    for k in ("preset", "edition", "optional", "observation"):
        if not isinstance(p[k], str):
            raise ValueError(f"{SHORT_NAME}: parameter {k!r} must be a string, got {p[k]!r}")
    if p["deals"] < 1:
        raise ValueError(f"{SHORT_NAME}: parameter 'deals' must be >= 1, got {p['deals']}")
    if p["max_turns"] < 0:
        raise ValueError(f"{SHORT_NAME}: parameter 'max_turns' must be >= 0 (0: no turn limit), got {p['max_turns']}")
    if p["max_game_length"] < 1:
        raise ValueError(f"{SHORT_NAME}: parameter 'max_game_length' must be >= 1, got {p['max_game_length']}")
    if p["observation"] not in ENCODERS:
        raise ValueError(f"{SHORT_NAME}: parameter 'observation' must be one of {list(ENCODERS)}, "
                         f"got {p['observation']!r}")
    rules: dict[str, Any] = {"preset": p["preset"] or "1981"}  # the preset 1981: the defaults
    if p["edition"]:
        rules["edition"] = p["edition"]
    if p["optional"]:
        rules["optional"] = [] if p["optional"] == "none" else [o.strip() for o in p["optional"].replace("+", ",").split(",") if o.strip()]
    try:
        cfg = make_config(players=p["players"], seed=p["seed"], max_turns=p["max_turns"] or None, **rules)
    except ConfigError as e:
        raise ValueError(f"{SHORT_NAME}: {e}") from None
    if p["seed"] + p["deals"] - 1 >= 2**63:
        raise ValueError(f"{SHORT_NAME}: seed + deals - 1 must stay below 2**63")
    p["config"] = cfg
    # the parameters OpenSpiel keeps (the game's string, saves): the rules in one form, with no preset
    # and no value a game string would read as a number ("1981")
    p["canonical"] = {**{k: p[k] for k in _PARAMS}, "preset": "", "edition": "" if cfg["edition"] == "1981" else cfg["edition"],
                      "optional": "+".join(cfg["optional"])}  # a game string splits its parameters at commas
    return p


class FandoniaGame(pyspiel.Game):
    """``python_fandonia``: see the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params = game_params(params)
        cfg = self.params["config"]
        n = cfg["players"]
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=max(MAX_ENGINE_OUTCOMES, self.params["deals"]),
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.params["max_game_length"],
        )
        super().__init__(GAME_TYPE, info, self.params["canonical"])

    def new_initial_state(self) -> FandoniaState:
        """The state before the deal (a chance node when ``deals`` > 1)."""
        return FandoniaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> FandoniaObserver:
        """The observer of the seat's information: ``iig_obs_type.perfect_recall`` picks the information
        state (True) or the observation (False); ``params`` may name another encoder
        (``{"observation": "v1r"}``)."""
        return FandoniaObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                                params, self)

    def engine_config(self, seed: int) -> dict[str, Any]:
        """The engine's ``Game`` keywords for the deal of engine seed ``seed`` (explicit chance mode)."""
        cfg = self.params["config"]
        return {"players": cfg["players"], "seed": seed, "max_turns": cfg["max_turns"], "edition": cfg["edition"],
                "optional": list(cfg["optional"]), "chance": "explicit"}


class _Engine:
    """The engine ``Game`` a state holds: OpenSpiel's ``clone`` deep-copies a state's attributes, which
    for this holder is the engine's copy-on-write ``clone``; ``pickle`` (OpenSpiel's ``serialize``)
    stores the engine's JSON save and loads it back through ``Game.from_json`` (every check of a save).
    It keeps the pending chance node's outcomes, which OpenSpiel reads once per outcome for its label."""

    __slots__ = ("game", "_outs")

    def __init__(self, game: Game) -> None:
        self.game = game
        self._outs: list[tuple[Any, Fraction]] | None = None

    def outcomes(self) -> list[tuple[Any, Fraction]]:
        if self._outs is None:
            self._outs = self.game.chance_outcomes()
        return self._outs

    def changed(self) -> None:
        self._outs = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.game.clone())

    def __reduce__(self) -> tuple[Callable[[str], _Engine], tuple[str]]:
        return _load_engine, (self.game.dumps(),)


def _load_engine(save: str) -> _Engine:
    g = Game.from_json(save)
    if g.state.config.get("chance") != "explicit":
        raise ValueError(f"{SHORT_NAME}: a saved state must be an explicit-chance-mode game, got config "
                         f"{g.state.config!r}")
    return _Engine(g)


def _entry(e: dict[str, Any]) -> bytes:
    return f"{e['turn']}|{e['to']}|{e['t']}".encode()


class FandoniaState(pyspiel.State):
    """A state of ``python_fandonia``: the engine's game in explicit chance mode, plus what OpenSpiel
    needs beside it (the moves made, each seat's history digest and last decision kind)."""

    def __init__(self, game: FandoniaGame) -> None:
        super().__init__(game)
        self._engine: _Engine | None = None  # None until the deal (made at first use when deals == 1)
        self._moves = 0  # player moves applied (OpenSpiel's game length)
        self._chains: list[list[Any]] = []  # per seat: [history digest (hex), log entries read]
        self._prev_kind: list[str | None] = []  # per seat: the kind of its last decision (encoders with memory)

    # -- the engine ---------------------------------------------------------------
    @property
    def _params(self) -> dict[str, Any]:
        return self.get_game().params

    def _deal(self, i: int) -> None:
        p = self._params
        self._set_engine(Game(**self.get_game().engine_config(p["seed"] + i)))

    def _set_engine(self, g: Game) -> None:
        self._engine = _Engine(g)
        n = g.n_players
        self._chains = [[hashlib.sha256(json.dumps(SeatView.of(g.state, q).to_json(), sort_keys=True,
                                                   default=str).encode()).hexdigest(), 0] for q in range(n)]
        self._prev_kind = [None] * n

    def engine_game(self) -> Game | None:
        """The engine's game (None before the deal when ``deals`` > 1): read it, never change it."""
        if self._engine is None and self._params["deals"] == 1:
            self._deal(0)
        return None if self._engine is None else self._engine.game

    def _capped(self) -> bool:
        return self._moves >= self._params["max_game_length"]

    # -- OpenSpiel's state API -------------------------------------------------------
    def current_player(self) -> int:
        g = self.engine_game()
        if g is None:
            return int(pyspiel.PlayerId.CHANCE)
        if g.over or self._capped():
            return int(pyspiel.PlayerId.TERMINAL)
        p = g.current_player()
        return int(pyspiel.PlayerId.CHANCE) if p is None or p < 0 else p

    def is_terminal(self) -> bool:
        g = self.engine_game()
        return g is not None and (g.over or self._capped())

    def _legal_actions(self, player: int) -> list[int]:
        g = self.engine_game()
        assert g is not None
        return sorted(g.legal_actions(player))

    def _outcomes(self) -> list[tuple[Any, Fraction]]:
        g = self.engine_game()
        if g is None:
            return [(i, Fraction(1, self._params["deals"])) for i in range(self._params["deals"])]
        assert self._engine is not None
        outs = self._engine.outcomes()
        if len(outs) > MAX_ENGINE_OUTCOMES:  # pragma: no cover - a bound the tests check
            raise pyspiel.SpielError(f"{SHORT_NAME}: a chance node with {len(outs)} outcomes, over the "
                                     f"game's max_chance_outcomes {MAX_ENGINE_OUTCOMES}")
        return outs

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Outcome indices with the engine's exact probabilities (as floats)."""
        return [(i, float(pr)) for i, (_, pr) in enumerate(self._outcomes())]

    def _apply_action(self, action: int) -> None:
        g = self.engine_game()
        if g is None:
            self._deal(int(action))
            return
        assert self._engine is not None
        if g.is_chance_node():
            outcome = self._outcomes()[action][0]
            self._engine.changed()
            g.apply_chance(outcome)
            return
        p = g.current_player()
        assert p is not None
        kind = g.pending_decision().kind
        self._catch_up(p)
        ch = self._chains[p]
        ch[0] = hashlib.sha256(bytes.fromhex(ch[0]) + f"|move|{int(action)}".encode()).hexdigest()
        self._engine.changed()
        g.apply(int(action))
        self._prev_kind[p] = kind
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            g = self.engine_game()
            if g is None:
                return f"deal: engine seed {self._params['seed'] + action}"
            req = g.chance_request()
            outs = self._outcomes() if req is not None else []
            if req is None or not 0 <= action < len(outs):
                return f"chance outcome {action}"
            return f"{req['kind']}: {_plain(outs[action][0])} ({req['why']})"
        if not 0 <= action < NUM_ACTIONS:
            return f"action {action} (outside the catalogue 0..{NUM_ACTIONS - 1})"
        return f"{NAME[action]}: {describe(action)}"

    def returns(self) -> list[float]:
        n = self.get_game().num_players()
        g = self.engine_game()
        if g is None or not g.over or g.result != "win":
            return [0.0] * n
        return [1.0 if q == g.winner else -1.0 / (n - 1) for q in range(n)]

    def __str__(self) -> str:
        g = self.engine_game()
        if g is None:
            p = self._params
            return f"before the deal: one of {p['deals']} deals (engine seeds {p['seed']}..{p['seed'] + p['deals'] - 1})"
        st = g.state
        rng = st.rng
        lines = [f"turn {st.turn}, phase {st.phase}, {self._moves} moves, {len(st.log)} log lines, "
                 f"generator {rng.state:x}/{rng.inc:x}"]
        if self._capped() and not g.over:
            lines.append(f"truncated: max_game_length {self._params['max_game_length']} reached")
        elif g.over:
            lines.append(f"over: {g.result}, winner {g.winner}")
        elif g.is_chance_node():
            req = g.chance_request() or {}
            lines.append(f"chance: {req.get('kind')} ({req.get('why')}), {len(self._outcomes())} outcomes")
        else:
            d = g.pending_decision()
            lines.append(f"player {d.player} decides {d.kind}: {sorted(d.options)}")
        lines.append(f"support {st.support}, monarch {st.monarch}")
        for pl in st.players:
            lines.append(f"player {pl.idx}: PC {pl.pc}, PP {pl.pp}, IP {pl.ip}, hand {sorted(pl.hand)}")
        if st.log:
            lines.append(f"last log line: {st.log[-1]['t']}")
        return "\n".join(lines)

    # -- what a seat knows ----------------------------------------------------------
    def _catch_up(self, p: int) -> str:
        """Seat ``p``'s history digest, after folding in the log entries it may read since the last call."""
        g = self.engine_game()
        assert g is not None
        ch = self._chains[p]
        log = g.state.log
        h, i = bytes.fromhex(ch[0]), ch[1]
        for e in log[i:]:
            if e["to"] is None or e["to"] == p:
                h = hashlib.sha256(h + _entry(e)).digest()
        ch[0], ch[1] = h.hex(), len(log)
        return ch[0]

    def seat_vector(self, p: int, encoder: Encoder) -> np.ndarray | None:
        """Seat ``p``'s encoder vector (None before the deal)."""
        g = self.engine_game()
        if g is None:
            return None
        if encoder.memory:
            return encoder.encode(g.state, p, self._prev_kind[p])
        return encoder.encode(g.state, p)

    def observation_text(self, p: int) -> str:
        """A summary of seat ``p``'s view: the table, its own hand and counters, its decision."""
        g = self.engine_game()
        if g is None:
            return f"seat {p}: before the deal"
        v = g.seat_view(p)
        lines = [f"seat {p} of {v.n}, turn {v.turn}, phase {v.phase}, support {v.support}, monarch {v.monarch}, "
                 f"reign {json.dumps(v.reign, sort_keys=True)}"]
        for q in v.players:
            lines.append(f"player {q.idx}: PC {q.pc}, PP {q.pp}, IP {q.ip}, {q.hand_size} cards, "
                         f"in front {q.in_front}")
        lines.append(f"hand {v.hand}; loyalty drawn {v.loyalty_drawn}; opportunity drawn {v.opportunity_drawn}")
        d = v.decision
        if d is not None:
            lines.append(f"decides {d.kind}: {sorted(d.options)} {json.dumps(d.ctx, sort_keys=True, default=str)}")
        elif v.over:
            lines.append(f"over: {v.result}, winner {v.winner}")
        if self._capped() and not g.over:
            lines.append("truncated: max_game_length reached")
        return "\n".join(lines)

    def information_text(self, p: int) -> str:
        """``observation_text`` and the digest of seat ``p``'s history (its log lines, its moves, its view
        at the deal): two states give the same text only if the seat has seen and done the same."""
        if self.engine_game() is None:
            return self.observation_text(p)
        return f"{self.observation_text(p)}\nhistory {self._catch_up(p)}"


def _plain(x: Any) -> str:
    return "-".join(map(str, x)) if isinstance(x, tuple) else str(x)


class FandoniaObserver:
    """OpenSpiel's Python observer (``make_py_observer``): the tensor is a seat's encoder vector, with one
    ``dict`` entry per block of the encoder's layout; the string is its observation (``perfect_recall``
    False) or information state (True).  Only a seat's own information is offered
    (``private_info=SINGLE_PLAYER`` with the public information)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, game: FandoniaGame) -> None:
        params = dict(params or {})
        unknown = set(params) - {"observation"}
        if unknown:
            raise ValueError(f"{SHORT_NAME} observer: unknown parameter(s) {sorted(unknown)}; allowed: ['observation']")
        name = params.get("observation", game.params["observation"])
        if name not in ENCODERS:
            raise ValueError(f"{SHORT_NAME} observer: observation must be one of {list(ENCODERS)}, got {name!r}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(f"{SHORT_NAME} observer: only a seat's own information is offered "
                             "(IIGObservationType(public_info=True, private_info=SINGLE_PLAYER)), got "
                             f"{iig_obs_type}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = get_encoder(name)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        for block, off, shape in self.encoder.layout:
            size = int(np.prod(shape))
            self.dict[block] = self.tensor[off:off + size].reshape(shape)

    def set_from(self, state: FandoniaState, player: int) -> None:
        x = state.seat_vector(player, self.encoder)
        if x is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = x

    def string_from(self, state: FandoniaState, player: int) -> str:
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


# ---------------------------------------------------------------------------
# Building states from engine games (search bots, resampling)
# ---------------------------------------------------------------------------


def load(params: dict[str, Any] | None = None) -> FandoniaGame:
    """``pyspiel.load_game("python_fandonia", params)``, checked first so a bad value names itself."""
    game_params(params)
    return pyspiel.load_game(SHORT_NAME, dict(params or {}))


def state_from_engine(game: FandoniaGame, g: Game) -> FandoniaState:
    """A state of ``game`` holding the engine game ``g`` (explicit chance mode, the game's players and
    rules), e.g. a determinisation a search starts from.  Its OpenSpiel history starts empty and its
    seats' history digests start from their views now."""
    cfg = g.state.config
    want = game.params["config"]
    if cfg.get("chance") != "explicit":
        raise ValueError(f"{SHORT_NAME}: the engine game must be in explicit chance mode (chance='explicit')")
    for k in ("players", "edition", "optional", "max_turns"):
        if cfg[k] != want[k]:
            raise ValueError(f"{SHORT_NAME}: the engine game's {k} {cfg[k]!r} differs from the game's {want[k]!r}")
    s = game.new_initial_state()
    s._set_engine(g)
    return s


def resample_state(state: FandoniaState, player: int, rng: random.Random) -> FandoniaState:
    """A copy of ``state`` in which everything hidden from ``player`` (other hands, drawn counters, the
    pile's order, future dice and shuffles) is redrawn (``engine.resample``): the resampler OpenSpiel's
    ``ISMCTSBot.set_resampler`` takes (``lambda s, p: resample_state(s, p, rng)``)."""
    g = state.engine_game()
    if g is None:
        return state.clone()
    new = state.clone()
    new._engine = _Engine(Game.from_state(resample(g.state, player, rng), advance=False))
    return new


pyspiel.register_game(GAME_TYPE, FandoniaGame)

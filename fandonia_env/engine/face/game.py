"""The public face of the engine: ``Game``.

    >>> from fandonia_env.engine import Game
    >>> g = Game(players=4, seed=7)
    >>> while not g.over:
    ...     g.apply(g.rng_pick(g.legal_actions()))   # any legal id

``Game`` wraps a ``GameState`` (plain data).  It exposes who decides now
(``current_player``), what kind of decision (``decision``), the legal action ids
(``legal_actions``), ``apply``, per-player ``view``s, ``clone`` and JSON
save/load.  Building positions for tests and front ends: ``Game.from_json`` of
an edited document, or ``Game.from_state`` of a ``GameState`` changed in place
(see ``docs/engine.md``).

``Game(..., chance="explicit")`` (opt-in; saved in the config) stops at chance nodes instead of
drawing: ``is_chance_node``, ``chance_outcomes``, ``apply_chance`` (``docs/engine.md``, "Chance
nodes").
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from ..chapters.turn import setup
from ..core.actions import NAME, NUM_ACTIONS
from ..core.chance import node_outcomes, plain_outcome
from ..core.machine import (
    CHANCE,
    CHANCE_MODES,
    EngineError,
    IllegalActionError,
    chance_node,
    explicit,
    pending,
    resolve_chance,
    run,
)
from ..core.machine import apply as _apply
from ..core.options import EDITIONS, OPTIONAL_RULES, ConfigError, check_rules, load_preset
from ..core.state import GameState, StateError
from .invariants import InvariantError, check
from .seat import Decision, SeatView, decision_of, player_view

__all__ = ["CHANCE", "CHANCE_MODES", "EDITIONS", "OPTIONAL_RULES", "ConfigError", "DEFAULTS", "Decision", "Game",
           "SeatView", "make_config", "player_view"]

DEFAULTS: dict[str, Any] = {
    "players": 4,
    "seed": 0,
    "max_turns": None,
    "edition": "1981",
    "optional": [],
}


def make_config(**kw: Any) -> dict[str, Any]:
    """Validate and complete a configuration.

    ``preset="errata"`` (a name from ``configs/presets``) supplies ``edition`` and ``optional``;
    fields given explicitly override the preset's.  ``chance="explicit"`` (opt-in) makes the game
    stop at chance nodes; it is kept in the config only then (``"sampled"``, the default, leaves
    the config as it always was)."""
    unknown = set(kw) - set(DEFAULTS) - {"preset", "chance"}
    if unknown:
        raise ConfigError(f"unknown config field(s) {sorted(unknown)}; allowed: "
                          f"{sorted(DEFAULTS) + ['preset', 'chance']}")
    mode = kw.pop("chance", "sampled")
    if mode not in CHANCE_MODES:
        raise ConfigError(f"config field 'chance' must be one of {list(CHANCE_MODES)}, got {mode!r}")
    cfg = dict(DEFAULTS)
    preset = kw.pop("preset", None)
    if preset is not None:
        cfg.update(load_preset(preset))
    cfg.update(kw)
    n = cfg["players"]
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 6:
        raise ConfigError(f"config field 'players' must be an int from 2 to 6, got {n!r}")
    s = cfg["seed"]
    if isinstance(s, bool) or not isinstance(s, int) or s < 0:
        raise ConfigError(f"config field 'seed' must be a non-negative int, got {s!r}")
    mt = cfg["max_turns"]
    if mt is not None and (isinstance(mt, bool) or not isinstance(mt, int) or mt < 1):
        raise ConfigError(f"config field 'max_turns' must be None or a positive int, got {mt!r}")
    check_rules(cfg)  # edition and optional switches (options.py)
    if mode == "explicit":
        cfg["chance"] = mode
    return cfg


class Game:
    """A game of Down With The King at a decision point."""

    __slots__ = ("state",)

    def __init__(self, _state: Any = None, /, **config: Any) -> None:
        # ``_state`` (positional only, private) wraps a state as it stands: ``from_state`` and
        # ``clone`` build a Game through it, never ``cls.__new__(cls)``, which in the compiled
        # engine would run this constructor bare and so set up a whole default game first
        if _state is not None:
            if not isinstance(_state, GameState):
                raise TypeError(f"Game() takes the config as keywords (players=..., seed=..., ...: "
                                f"{sorted(DEFAULTS) + ['chance', 'preset']}), or a GameState to wrap; "
                                f"got the positional {_state!r}")
            self.state = _state
            return
        self.state = setup(make_config(**config))
        run(self.state)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied by its state, through the constructor (as above)."""
        return (Game, (self.state,))

    # -- construction -------------------------------------------------------
    @classmethod
    def from_state(cls, state: GameState, *, advance: bool = True) -> Game:
        g = cls(state)
        if advance:
            run(state)
        return g

    @classmethod
    def from_json(cls, doc: str | bytes | dict[str, Any]) -> Game:
        """Load a saved game (a JSON string or the parsed document), checked for trust.

        Checks the shape (every field of its type) and the content: the config (as
        ``make_config`` checks it, and agreeing with the players list) and every invariant of
        ``invariants.check(state, deep=True)`` - ids known and each card, counter and character
        in exactly one place, seats and bounds, the bookkeeping, every pending frame, and the
        pending decision re-derived or tried.  Any problem raises ``StateError`` naming the first
        one found (the field's path, the bad value, what was allowed); nothing else escapes.
        The document is not modified."""
        try:
            return cls._load(doc)
        except StateError:
            raise
        except RecursionError as e:
            raise StateError("saved game is nested too deeply") from e
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError,
                AssertionError) as e:  # last resort: the checks above should name the problem
            raise StateError(f"saved game is inconsistent: {type(e).__name__}: {e}") from e

    @classmethod
    def _load(cls, doc: Any) -> Game:

        if isinstance(doc, (str, bytes, bytearray)):
            try:
                doc = json.loads(doc)
            except ValueError as e:  # JSONDecodeError, or bytes that are not UTF-8
                raise StateError(f"saved game is not valid JSON: {e}") from e
        st = GameState.from_json(doc)
        try:
            cfg = make_config(**st.config)
        except ConfigError as e:
            raise StateError(f"field 'config': {e}") from e
        except TypeError as e:  # keys that are not strings
            raise StateError(f"field 'config': {e}") from e
        if cfg != st.config:
            raise StateError(f"field 'config': not in the engine's complete form: {st.config!r}; "
                             f"expected {cfg!r}")
        if cfg["players"] != st.n:
            raise StateError(f"field 'config.players': {cfg['players']} disagrees with the {st.n} entries "
                             "of the players list")
        try:
            check(_probe(st), deep=True)
        except InvariantError as e:
            raise StateError(f"saved game rejected: {e}") from e
        return cls.from_state(st, advance=False)

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    def clone(self) -> Game:
        return Game(self.state.clone())

    # -- the decision -------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def n_players(self) -> int:
        return self.state.n

    def current_player(self) -> int | None:
        """The deciding seat; ``CHANCE`` (-1) at a chance node; None when the game is over."""
        d = pending(self.state)
        if d is None:
            return CHANCE if chance_node(self.state) is not None else None
        return d.args["player"]

    # -- chance nodes (explicit chance mode only) --------------------------------
    def is_chance_node(self) -> bool:
        """Does the game wait for a chance outcome (``chance="explicit"`` games only)?"""
        return chance_node(self.state) is not None

    def chance_request(self) -> dict[str, Any] | None:
        """The pending chance node: ``{"kind", "why"}`` (kind ``"roll"``, a pile or ``"pick"``), or None."""
        node = chance_node(self.state)
        return None if node is None else {"kind": node.args["kind"], "why": node.args["why"]}

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """The pending chance node's outcomes with exact probabilities (summing to 1), as
        ``chance.roll_outcomes`` / ``draw_outcomes`` / ``pick_outcomes`` list them; [] elsewhere."""
        node = chance_node(self.state)
        return [] if node is None else node_outcomes(node.args)

    def apply_chance(self, outcome: Any) -> None:
        """Resume the pending chance node with one of its outcomes (a roll's faces as a tuple, a
        counter, card or picked item id) and run on to the next decision or chance node.  An
        outcome that is not offered raises IllegalActionError and changes nothing."""
        resolve_chance(self.state, plain_outcome(outcome))

    def decision(self) -> dict[str, Any] | None:
        """The pending decision: ``{"player", "kind", "options", "ctx"}`` or None."""
        d = pending(self.state)
        if d is None:
            return None
        a = d.args
        return {"player": a["player"], "kind": a["kind"], "options": list(a["options"]), "ctx": dict(a["ctx"])}

    def pending_decision(self) -> Decision | None:
        """The pending decision (whoever's) as a read-only ``Decision``: the engine's own options
        and context, not copied (read them, never write); None at a chance node or when over."""
        return decision_of(self.state)

    def seat_view(self, player: int) -> SeatView:
        """What ``player`` may know, as a read-only ``SeatView`` of the live game (nothing copied)."""
        return SeatView.of(self.state, player)

    def advance(self) -> None:
        """Run on to the next decision with two or more options (or the end): for a position built
        or loaded at a decision with a single option."""
        run(self.state)

    def legal_actions(self, player: int | None = None) -> list[int]:
        d = pending(self.state)
        if d is None or (player is not None and d.args["player"] != player):
            return []
        return list(d.args["options"])

    def apply(self, action: int) -> None:
        """Take a legal action; an illegal one (or any action at a chance node) raises
        IllegalActionError and changes nothing."""
        _apply(self.state, action)

    def action_name(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"action id {action} is outside the catalogue 0..{NUM_ACTIONS - 1}")
        return NAME[action]

    # -- results --------------------------------------------------------------
    @property
    def result(self) -> str | None:
        return self.state.result

    @property
    def winner(self) -> int | None:
        return self.state.winner

    # -- views ----------------------------------------------------------------
    def view(self, player: int, log: bool = True) -> dict[str, Any]:
        """What ``player`` may know; ``log=False`` leaves out the (long) log."""
        return player_view(self.state, player, log)

    def omniscient_view(self) -> dict[str, Any]:
        """Everything, hidden information included: for debugging and replays."""
        return self.state.to_json()

    def log_lines(self, player: int | None = None) -> list[str]:
        """The public log, plus ``player``'s private entries if given."""
        return [f"[{e['turn']}] {e['t']}" for e in self.state.log if e["to"] is None or e["to"] == player]


_NODE_KINDS = ("roll", "loyalty", "opportunity", "event", "pick")
_MAX_PROBE_NODES = 10_000


def _check_chance_node(a: dict[str, Any]) -> None:
    """The shape of a saved chance node's frame (its content is checked by running on from it)."""
    if set(a) != {"kind", "why", "outcomes", "chosen", "action"}:
        raise StateError(f"field stack[-1].args: a chance node has the keys ['action', 'chosen', 'kind', "
                         f"'outcomes', 'why'], got {sorted(a)}")
    if a["kind"] not in _NODE_KINDS or type(a["why"]) is not str:
        raise StateError(f"field stack[-1].args: chance node kind {a['kind']!r}; allowed: {list(_NODE_KINDS)}")
    outs = a["outcomes"]
    if (type(outs) is not list or len(outs) < 2
            or any(type(o) is not list or len(o) != 3 or type(o[1]) is not int or type(o[2]) is not int
                   or o[1] <= 0 or o[2] <= 0 for o in outs)
            or sum(Fraction(o[1], o[2]) for o in outs) != 1):
        raise StateError("field stack[-1].args.outcomes: a chance node needs two or more [outcome, numerator, "
                         "denominator] entries whose probabilities sum to 1")
    ch, act = a["chosen"], a["action"]
    if type(ch) is not list or any(type(c) is not list or len(c) != 2 or c[0] not in _NODE_KINDS for c in ch):
        raise StateError("field stack[-1].args.chosen: a list of [kind, outcome]")
    if act is not None and type(act) is not int:
        raise StateError(f"field stack[-1].args.action: null or an action id, got {act!r}")


def _probe(st: GameState) -> GameState:
    """What the saved-game checks run on: the game itself; in explicit chance mode a copy in the
    default mode, after its pending chance nodes are resolved (a paused step is checked by running
    it on; the outcomes taken vary, by a fixed rule, so that re-rolled ties end)."""
    if not explicit(st):
        return st
    pr = st.clone()
    for i in range(_MAX_PROBE_NODES):
        node = chance_node(pr)
        if node is None:
            break
        _check_chance_node(node.args)
        outs = node.args["outcomes"]
        try:
            resolve_chance(pr, outs[(i * 2654435761 >> 8) % len(outs)][0])
        except EngineError as e:  # the node does not fit the draw it stopped at
            raise StateError(f"field stack[-1]: the saved chance node cannot be resumed: {e}") from e
    else:
        raise StateError(f"saved game: more than {_MAX_PROBE_NODES} chance nodes before a decision")
    pr.config = {k: v for k, v in pr.config.items() if k != "chance"}
    return pr

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
"""

from __future__ import annotations

import json
from typing import Any

from . import rules  # noqa: F401  (registers every chapter's operations)
from .actions import NAME, NUM_ACTIONS
from .data.components import CARD_TYPE_OF, OPPORTUNITY_TYPE_OF
from .machine import IllegalActionError, pending, run
from .machine import apply as _apply
from .options import EDITIONS, OPTIONAL_RULES, ConfigError, check_rules, load_preset
from .queries import status
from .ruleset import ruleset
from .state import GameState, StateError
from .turn import setup

__all__ = ["EDITIONS", "OPTIONAL_RULES", "ConfigError", "DEFAULTS", "Game", "make_config", "player_view"]

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
    fields given explicitly override the preset's."""
    unknown = set(kw) - set(DEFAULTS) - {"preset"}
    if unknown:
        raise ConfigError(f"unknown config field(s) {sorted(unknown)}; allowed: {sorted(DEFAULTS) + ['preset']}")
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
    return cfg


class Game:
    """A game of Down With The King at a decision point."""

    __slots__ = ("state",)

    def __init__(self, **config: Any) -> None:
        self.state = setup(make_config(**config))
        run(self.state)

    # -- construction -------------------------------------------------------
    @classmethod
    def from_state(cls, state: GameState, *, advance: bool = True) -> Game:
        g = cls.__new__(cls)
        g.state = state
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
        from .invariants import InvariantError, check

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
            check(st, deep=True)
        except InvariantError as e:
            raise StateError(f"saved game rejected: {e}") from e
        return cls.from_state(st, advance=False)

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    def clone(self) -> Game:
        g = Game.__new__(Game)
        g.state = self.state.clone()
        return g

    # -- the decision -------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def n_players(self) -> int:
        return self.state.n

    def current_player(self) -> int | None:
        d = pending(self.state)
        return None if d is None else d.args["player"]

    def decision(self) -> dict[str, Any] | None:
        """The pending decision: ``{"player", "kind", "options", "ctx"}`` or None."""
        d = pending(self.state)
        if d is None:
            return None
        a = d.args
        return {"player": a["player"], "kind": a["kind"], "options": list(a["options"]), "ctx": dict(a["ctx"])}

    def legal_actions(self, player: int | None = None) -> list[int]:
        d = pending(self.state)
        if d is None or (player is not None and d.args["player"] != player):
            return []
        return list(d.args["options"])

    def apply(self, action: int) -> None:
        """Take a legal action; an illegal one raises IllegalActionError and changes nothing."""
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


def player_view(state: GameState, p: int, log: bool = True) -> dict[str, Any]:
    """What player p may know (§14.4 hidden hands, §11/§12 drawn counters; ruling R10).

    ``"rules"`` is the public rules in play (``{"edition", "optional"}``), so that the rule
    queries of ``rule_queries`` answer on a view as on the state.

    Never another player's hand or drawn counters, nor the decision of another
    player (which would tell who was offered a card window)."""
    if not 0 <= p < state.n:
        raise ValueError(f"player must be 0..{state.n - 1}, got {p}")
    chars = {}
    for cid, c in state.chars.items():
        chars[cid] = {
            "owner": c.owner, "is_pc": c.is_pc, "titles": c.titles, "fixed_status": c.fixed_status,
            "location": c.location, "hiding": c.hiding, "banished": c.banished, "imprisoned": c.imprisoned,
            "awaiting_execution": c.awaiting_execution, "wrongdoer": c.wrongdoer, "dead": c.dead,
            "office": c.office, "henchman": c.henchman_card is not None, "counselor": c.counselor_card is not None,
            "aligned": c.alignment_card is not None, "spouse": c.spouse, "consort": c.consort,
            "banned": c.banned, "engaged_to": c.engaged_to, "situation_turns": c.situation_turns,
            "escaped": c.escaped, "pending_justice": c.pending_justice,
        }
    players = []
    for pl in state.players:
        players.append({
            "idx": pl.idx, "pc": pl.pc, "ip": pl.ip, "pp": pl.pp, "hand_size": len(pl.hand),
            "in_front": [CARD_TYPE_OF[c] for c in pl.in_front], "prestige_mods": dict(pl.prestige_mods),
            "ball_mod": pl.ball_mod, "counsels": {k: list(v) for k, v in pl.counsels.items()},
            "lost_turns": pl.lost_turns,
        })
    me = state.players[p]
    d = pending(state)
    dec = None
    if d is not None and d.args["player"] == p:
        dec = {"kind": d.args["kind"], "options": list(d.args["options"]), "ctx": dict(d.args["ctx"])}
    return {
        "me": p,
        "n_players": state.n,
        "rules": {"edition": ruleset(state).edition, "optional": list(ruleset(state).optional)},
        "turn": state.turn,
        "phase": state.phase,
        "first_player": state.first_player,
        "order": list(state.order),
        "active": state.active,
        "support": state.support,
        "problems": {k: dict(v) for k, v in state.problems.items()},
        "wars": list(state.wars),
        "crown": state.crown,
        "forced_crown": list(state.forced_crown),
        "monarch": state.monarch,
        "reign": dict(state.reign),
        "chars": chars,
        "status": {cid: status(state, cid) for cid in state.chars},
        "players": players,
        "deck_size": len(state.deck),
        "discard": [CARD_TYPE_OF[c] for c in state.discard],
        "loyalty_pool_size": len(state.loyalty_pool),
        "activities_done": list(state.pt.get("done", [])) if state.pt else [],
        "hand": sorted(CARD_TYPE_OF[c] for c in me.hand),
        "loyalty_drawn": sorted(me.loyalty_drawn),
        "opportunity_drawn": sorted(OPPORTUNITY_TYPE_OF[o] for o in me.opportunity_drawn),
        "turn_state": dict(state.pt) if state.pt and state.pt.get("player") == p else None,
        "decision": dec,
        "over": state.over,
        "result": state.result,
        "winner": state.winner,
        "log": [e["t"] for e in state.log if e["to"] is None or e["to"] == p] if log else None,
    }

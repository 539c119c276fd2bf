"""The whole game state as plain data (dataclasses of str/int/bool/list/dict).

Everything the game needs to continue lives here: the board, hands, counters,
the Record Sheet, the stack of pending frames (the decision point machine, see
``machine.py``) and the RNG.  ``GameState.clone()`` is an independent copy that shares
its characters copy-on-write: every write to a character goes through ``state.wchar(cid)``
(``docs/engine.md``, "Copy-on-write characters"); ``to_json()``/``from_json()`` round-trip exactly.

Vocabulary used in field names: *PC* player character, *FAC* friendly aligned
character (a character with ``owner == p`` that is not p's PC), *NC* neutral
(``owner is None``); royals are RCs (FARC/NRC likewise).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache
from types import UnionType
from typing import Any, Final, Union, get_args, get_origin, is_typeddict

from .character import Character as Character
from .character import char_values
from .compiled import type_hints
from .errors import EngineError as EngineError
from .errors import StateError as StateError
from .records import Misc, PlayerTurn, TurnState
from .rng import RNG

#: ``GameState.scan``: (ids by owner, ids in hiding, ids banished or imprisoned, ids imprisoned
#: or hiding, memo, hand counts by seat, the Ruleset) -- see ``queries.open_scan``
Scan = tuple[dict[int, list[str]], list[str], list[str], list[str], dict[Any, Any], dict[int, dict[str, int]], Any]

SCHEMA_VERSION: Final = 3  # 3: GameState.misc (issue 5)


def pcopy(x: Any) -> Any:
    """Deep copy of plain JSON-like data (dict/list of scalars), much faster than deepcopy."""
    t = type(x)
    if t is dict:
        return {k: (v if type(v) in _SCALARS else pcopy(v)) for k, v in x.items()}
    if t is list:
        return [v if type(v) in _SCALARS else pcopy(v) for v in x]
    if t is tuple:
        return tuple(pcopy(v) for v in x)
    return x


_SCALARS: Final = frozenset({str, int, bool, float, type(None)})


@dataclass(slots=True)
class Player:
    """One noble: his PC, points, hand, counters and Record Sheet lines."""

    idx: int
    pc: str
    ip: int = 0
    pp: int = 0
    hand: list[str] = field(default_factory=list)  # card ids, hidden from the others
    in_front: list[str] = field(default_factory=list)  # Support cards kept after a usurpation (§14.5.2)
    loyalty_drawn: list[str] = field(default_factory=list)  # this turn, hidden (§11)
    opportunity_drawn: list[str] = field(default_factory=list)  # this turn, hidden (§12)
    prestige_mods: dict[str, int] = field(default_factory=dict)  # §13.4.17 Record Sheet
    ball_mod: int = 0  # §8.4.4 Record Sheet
    counsels: dict[str, list[int]] = field(default_factory=dict)  # §15.9 Record Sheet
    free_counsel: bool = False  # §8.4.4 Court Ball free counsel, this turn
    lost_turns: int = 0  # Player Turns still to lose (§31.5, §36.11)
    pc_dead_turn: int = -1  # turn the PC died (§31.5)
    restricted_turn: int = -1  # last turn that ended with the PC banished/imprisoned/hiding (§13.1)

    def copy(self) -> Player:
        # every field, in declaration order (checked below the class)
        return Player(self.idx, self.pc, self.ip, self.pp, list(self.hand), list(self.in_front),
                      list(self.loyalty_drawn), list(self.opportunity_drawn), dict(self.prestige_mods),
                      self.ball_mod, {k: list(v) for k, v in self.counsels.items()}, self.free_counsel,
                      self.lost_turns, self.pc_dead_turn, self.restricted_turn)


assert [f.name for f in fields(Player)] == [
    "idx", "pc", "ip", "pp", "hand", "in_front", "loyalty_drawn", "opportunity_drawn", "prestige_mods", "ball_mod",
    "counsels", "free_counsel", "lost_turns", "pc_dead_turn", "restricted_turn"], "Player.copy lists every field"


@dataclass(slots=True, init=False)
class Frame:
    """One entry of the pending stack: an operation to run, or a decision to take.

    A procedure frame has ``op`` = the registered operation name and ``args``.
    A decision frame has ``op == "decide"`` and ``args`` with ``player``,
    ``kind``, ``options`` (action ids), ``ctx`` (public context for encoders),
    ``then`` (op called with ``choice=<id>``) and ``then_args``.
    """

    op: str
    args: dict[str, Any]

    def __init__(self, op: str = "", args: dict[str, Any] | None = None) -> None:
        # written, not generated: the compiled engine then builds a frame natively (a generated
        # dataclass __init__ stays interpreted), and every step and decision builds one; every
        # parameter has a default, as unpickling a compiled class calls it with none
        self.op = op
        self.args = {} if args is None else args

    def copy(self) -> Frame:
        return Frame(self.op, pcopy(self.args))


@dataclass(slots=True)
class GameState:
    config: dict[str, Any]
    players: list[Player]
    chars: dict[str, Character]
    rng: RNG
    turn: int = 0  # game turn number, 1-based once started
    first_player: int = 0
    order: list[int] = field(default_factory=list)  # player order this turn (§5)
    phase: str = "setup"
    active: int | None = None  # whose Player Turn it is, if any
    deck: list[str] = field(default_factory=list)  # Event pile, top = last
    discard: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # out of the game (unused DWTK, dead RCs' alignment)
    loyalty_pool: list[str] = field(default_factory=list)
    opportunity_pool: list[str] = field(default_factory=list)
    support: int = 0  # Monarch's Support (§32)
    problems: dict[str, dict[str, Any]] = field(default_factory=dict)  # unresolved (§7.7)
    wars: list[str] = field(default_factory=list)  # countries at war with Fandonia (§7.10)
    crown: str | None = None  # this turn's Crown Events result (§8)
    forced_crown: list[str] = field(default_factory=list)  # next turn's automatic results (§9.4, §36.6)
    problems_at_start: bool = False  # were there problems at the start of this turn (§32.2, A8)
    monarch: str = "george"
    reign: dict[str, Any] = field(default_factory=dict)  # FARC Monarch record for §37
    pt: PlayerTurn = field(default_factory=PlayerTurn)  # the current Player Turn's bookkeeping (records.py)
    tstate: TurnState = field(default_factory=TurnState)  # this game turn's bookkeeping (records.py)
    misc: Misc = field(default_factory=Misc)  # game-long bookkeeping of optional/errata rules (records.py)
    stack: list[Frame] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)  # {"t": text, "to": None|player}
    over: bool = False
    result: str | None = None  # "win", "draw", "truncated"
    winner: int | None = None
    steps: int = 0  # decisions applied
    # -- not saved, compared or cloned (a clone, a loaded game and a restored step start them empty) --
    #: the id of every character written since this state was made, in order: ``wchar`` appends
    #: it, so a cache of data derived from the characters knows which ones to recompute
    writes: list[str] = field(default_factory=list, repr=False, compare=False)
    #: caches of data derived from this state, by owner (PP totals, the character index, encoder rows)
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: ``log`` is shared with a clone (or the state it was cloned from): ``machine.log``, the one
    #: writer of the log, copies it before its first append (log lines are never changed once written)
    log_shared: bool = field(default=False, repr=False, compare=False)
    #: the characters may be shared with a clone (set on both states by ``clone()``): ``wchar`` copies a
    #: character before its first write since then, and ``copied`` lists those it has copied
    cow: bool = field(default=False, repr=False, compare=False)
    copied: set[str] = field(default_factory=set, repr=False, compare=False)
    #: the character lists of a main decision's legality checks while ``queries.open_scan`` has a
    #: scan open on this state (else None): (ids by owner, ids in hiding, ids banished or
    #: imprisoned, ids imprisoned or hiding, memo, hand counts, the Ruleset).  It belongs to this
    #: state alone, so games stepped in other threads never see it (issue 26)
    scan: Scan | None = field(default=None, repr=False, compare=False)
    #: (edition, a copy of the optional list, its Ruleset): the last ``ruleset(state)`` answer,
    #: compared by value with the config at each question (a clone starts with its parent's)
    rules: tuple[str, list[str], Any] | None = field(default=None, repr=False, compare=False)

    @property
    def n(self) -> int:
        return len(self.players)

    def wchar(self, cid: str) -> Character:
        """The character ``cid`` of this state, to write: the one choke point of character writes.

        A character shared with a clone is first replaced, in this state only, by a private copy."""
        self.writes.append(cid)
        c = self.chars[cid]
        if self.cow and cid not in self.copied:
            c = self.chars[cid] = c.copy()
            self.copied.add(cid)
        return c

    def __getstate__(self) -> list[Any]:
        # characters as value tuples and a log of its own: each unpickled state owns its own (never
        # shared) characters and log, also when states that share them are pickled together
        return [{k: char_values(c) for k, c in v.items()} if f == "chars" else list(v) if f == "log" else v
                for f, v in zip(_STATE_FIELDS, map(self.__getattribute__, _STATE_FIELDS), strict=True)]

    def __setstate__(self, state: list[Any]) -> None:
        for f, v in zip(_STATE_FIELDS, state, strict=True):
            if f == "chars":  # value tuples (or, from an older pickle, characters)
                v = {k: Character(*t) if type(t) is tuple else Character(*char_values(t)) for k, t in v.items()}
            object.__setattr__(self, f, v)
        object.__setattr__(self, "writes", [])
        object.__setattr__(self, "memo", {})
        object.__setattr__(self, "log_shared", False)
        object.__setattr__(self, "cow", False)
        object.__setattr__(self, "copied", set())
        object.__setattr__(self, "scan", None)
        object.__setattr__(self, "rules", None)

    # -- copying ----------------------------------------------------------
    def clone(self) -> GameState:
        chars = self.chars
        self.cow = True  # both states now share every character: copy-on-write (wchar)
        self.copied = set()
        self.log_shared = True  # and the log: copied by the first append (machine.log)
        # every field, in declaration order (checked below the class); config is never mutated
        # after creation, log entries are never mutated once written
        return GameState(
            self.config, [p.copy() for p in self.players], dict(chars), self.rng.copy(), self.turn,
            self.first_player, list(self.order), self.phase, self.active, list(self.deck), list(self.discard),
            list(self.removed), list(self.loyalty_pool), list(self.opportunity_pool), self.support,
            pcopy(self.problems), list(self.wars), self.crown, list(self.forced_crown), self.problems_at_start,
            self.monarch, pcopy(self.reign), pcopy(self.pt), pcopy(self.tstate), pcopy(self.misc),
            [f.copy() for f in self.stack], self.log, self.over, self.result, self.winner, self.steps,
            log_shared=True, cow=True, rules=self.rules)

    # -- JSON -------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema": SCHEMA_VERSION}
        for name in _STATE_FIELDS:
            v = getattr(self, name)
            if name == "players":
                v = [_dc_dict(p) for p in v]
            elif name == "chars":
                v = {k: _dc_dict(c) for k, c in v.items()}
            elif name == "rng":
                v = v.to_json()
            elif name == "stack":
                v = [{"op": fr.op, "args": fr.args} for fr in v]
            out[name] = pcopy(v)
        return out

    @classmethod
    def from_json(cls, doc: Any) -> GameState:
        """Rebuild a state from ``to_json()`` output, checking the type of every field.

        Only the shape is checked here (every field present, of its JSON type: an int is never a
        bool or a str, a list never a dict); ``invariants.check(state, deep=True)`` checks the
        content.  Raises ``StateError`` naming the first bad field, its value and what was allowed."""
        if not isinstance(doc, dict):
            raise StateError(f"a saved game must be a JSON object, got {type(doc).__name__}")
        if doc.get("schema") != SCHEMA_VERSION:
            raise StateError(
                f"field 'schema': unsupported schema version {_show(doc.get('schema'))}; "
                f"this engine reads version {SCHEMA_VERSION}"
            )
        expected = set(_STATE_FIELDS)
        missing = expected - set(doc)
        if missing:
            raise StateError(f"missing field(s) {sorted(missing)!r} in saved game")
        extra = set(doc) - expected - {"schema"}
        if extra:
            raise StateError(f"unknown field(s) {sorted(extra, key=str)!r} in saved game")
        hints = _hints(GameState)
        kw: dict[str, Any] = {}
        for name in _STATE_FIELDS:
            v = doc[name]
            if name == "players":
                v = [_dc_from(Player, p, f"players[{i}]") for i, p in enumerate(_as(list, v, "players"))]
            elif name == "chars":
                v = {k: _dc_from(Character, c, f"chars[{k!r}]") for k, c in _as(dict, v, "chars").items()}
            elif name == "rng":
                v = _rng_from(v)
            elif name == "stack":
                v = [_frame_from(fr, f"stack[{i}]") for i, fr in enumerate(_as(list, v, "stack"))]
            elif name == "log":
                v = _log_from(v)
            else:
                check_type(v, hints[name], name)
                v = pcopy(v)
            kw[name] = v
        return cls(**kw)

    def __eq__(self, other: object) -> bool:
        """Field by field (dataclass equality of players, characters and frames)."""
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _STATE_FIELDS)


#: the fields that make a state (saved, compared, pickled, cloned); ``writes``, ``memo`` and
#: ``log_shared`` are not among them
_STATE_FIELDS: Final = tuple(f.name for f in fields(GameState) if f.compare)
assert _STATE_FIELDS == (
    "config", "players", "chars", "rng", "turn", "first_player", "order", "phase", "active", "deck", "discard",
    "removed", "loyalty_pool", "opportunity_pool", "support", "problems", "wars", "crown", "forced_crown",
    "problems_at_start", "monarch", "reign", "pt", "tstate", "misc", "stack", "log", "over", "result", "winner",
    "steps"), "GameState.clone lists every field"


def _show(v: Any, limit: int = 60) -> str:
    """A value for an error message: its type and a shortened repr."""
    r = repr(v)
    if len(r) > limit:
        r = r[:limit - 3] + "..."
    return f"{type(v).__name__} {r}"


def _as(t: type, v: Any, name: str) -> Any:
    if not isinstance(v, t) or (t is int and isinstance(v, bool)):
        raise StateError(f"field {name!r} must be a {_TYPE_WORD.get(t, t.__name__)}, got {_show(v)}")
    return v


_TYPE_WORD: Final = {dict: "JSON object", list: "JSON list", str: "string", int: "int", bool: "bool"}
@cache  # a pure function of the class (code, not a game): nothing a game writes (issue 26)
def _hints(cls: type) -> dict[str, Any]:
    return type_hints(cls)


def type_name(tp: Any) -> str:
    """An annotation in words: ``int | None`` -> 'an int or null'."""
    if is_typeddict(tp):
        return "an object (a dict with string keys)"
    if tp is Any:
        return "plain JSON data"
    origin = get_origin(tp)
    if origin in (Union, UnionType):
        return " or ".join("null" if a is type(None) else type_name(a) for a in get_args(tp))
    if origin is list:
        return f"a list of {type_name(get_args(tp)[0])}"
    if origin is dict:
        return f"a JSON object of {type_name(get_args(tp)[1])}"
    return {int: "an int", str: "a string", bool: "a bool (true/false)", dict: "a JSON object",
            list: "a list"}.get(tp, getattr(tp, "__name__", str(tp)))


def type_problem(v: Any, tp: Any, path: str) -> str | None:
    """None if ``v`` is JSON data of annotation ``tp`` (int, str, bool, ``X | None``, ``list[X]``,
    ``dict[str, X]``, ``Any`` = any plain JSON; a ``TypedDict`` of ``records.py``: a dict of plain
    JSON, its keys checked by ``invariants``), else a message naming the first bad place."""
    if is_typeddict(tp):
        tp = dict[str, Any]
    if tp is Any:
        return plain_problem(v, path)
    origin = get_origin(tp)
    if origin in (Union, UnionType):
        args = get_args(tp)
        if v is None and type(None) in args:
            return None
        probs = [type_problem(v, a, path) for a in args if a is not type(None)]
        if any(p is None for p in probs):
            return None
        first = probs[0]
        if len(probs) == 1 and first is not None and not first.startswith(f"field {path}:"):
            return first  # the problem lies deeper inside
        return f"field {path}: expected {type_name(tp)}, got {_show(v)}"
    if origin is list or tp is list:
        if type(v) is not list:
            return f"field {path}: expected {type_name(tp)}, got {_show(v)}"
        if origin is list:
            (et,) = get_args(tp)
            for i, x in enumerate(v):
                p = type_problem(x, et, f"{path}[{i}]")
                if p:
                    return p
        return None
    if origin is dict or tp is dict:
        if type(v) is not dict:
            return f"field {path}: expected {type_name(tp)}, got {_show(v)}"
        vt = get_args(tp)[1] if origin is dict else Any
        for k, x in v.items():
            if type(k) is not str:
                return f"field {path}: keys must be strings, got {_show(k)}"
            p = type_problem(x, vt, f"{path}[{k!r}]")
            if p:
                return p
        return None
    if tp in (int, str, bool):
        if type(v) is not tp:
            return f"field {path}: expected {type_name(tp)}, got {_show(v)}"
        return None
    raise TypeError(f"type_problem: unsupported annotation {tp!r}")  # pragma: no cover - engine bug


def check_type(v: Any, tp: Any, path: str) -> None:
    """Raise ``StateError`` unless ``v`` is JSON data of annotation ``tp`` (see ``type_problem``)."""
    if not is_type(v, tp):
        raise StateError(type_problem(v, tp, path) or f"field {path}: expected {type_name(tp)}")


def is_type(v: Any, tp: Any) -> bool:
    """Fast ``type_problem(v, tp, ...) is None`` (a test compiled once per annotation)."""
    return _compile(tp)(v)


@cache  # a pure function of the annotation
def _compile(tp: Any) -> Any:
    if is_typeddict(tp):
        return _compile(dict[str, Any])
    if tp is Any:
        return lambda v: plain_problem(v, "") is None
    origin = get_origin(tp)
    if origin in (Union, UnionType):
        tests = [_compile(a) for a in get_args(tp) if a is not type(None)]
        none_ok = type(None) in get_args(tp)
        return lambda v: (none_ok and v is None) or any(t(v) for t in tests)
    if tp in (int, str, bool):
        return lambda v: type(v) is tp
    if origin is list:
        (et,) = get_args(tp)
        if et in (int, str, bool):
            return lambda v: type(v) is list and all(type(x) is et for x in v)
        t = _compile(et)
        return lambda v: type(v) is list and all(map(t, v))
    if origin is dict:
        t = _compile(get_args(tp)[1])
        return lambda v: type(v) is dict and all(type(k) is str and t(x) for k, x in v.items())
    if tp is dict:
        return lambda v: type(v) is dict and plain_problem(v, "") is None
    if tp is list:
        return lambda v: type(v) is list and plain_problem(v, "") is None
    raise TypeError(f"is_type: unsupported annotation {tp!r}")  # pragma: no cover - engine bug


_PLAIN_SCALARS: Final = (str, int, float, bool, type(None))


def plain_problem(v: Any, path: str, depth: int = 0) -> str | None:
    """None if ``v`` is plain JSON data (str, int, float, bool, null, lists, objects with string
    keys), else a message naming the first place that is not."""
    t = type(v)
    if t in _PLAIN_SCALARS:
        return None
    if depth > 40:
        return f"field {path}: nested too deeply"
    if t is list:
        for i, x in enumerate(v):
            p = plain_problem(x, f"{path}[{i}]", depth + 1)
            if p:
                return p
        return None
    if t is dict:
        for k, x in v.items():
            if type(k) is not str:
                return f"field {path}: keys must be strings, got {_show(k)}"
            p = plain_problem(x, f"{path}[{k!r}]", depth + 1)
            if p:
                return p
        return None
    return f"field {path}: not JSON data: {_show(v)}"


def _dc_dict(obj: Any) -> dict[str, Any]:
    return {f.name: pcopy(getattr(obj, f.name)) for f in fields(obj)}


@cache  # a pure function of the class
def _dc_spec(cls: type) -> tuple[Any, list[tuple[str, Any, Any]]]:
    hints = _hints(cls)
    return ({f.name: None for f in fields(cls)}.keys(), [(f.name, hints[f.name], None) for f in fields(cls)])


def _dc_from(cls: type, d: Any, name: str) -> Any:
    names, tests = _dc_spec(cls)
    _as(dict, d, name)
    if d.keys() != names:
        missing = set(names) - set(d)
        if missing:
            raise StateError(f"field {name!r}: missing {sorted(missing)!r}")
        raise StateError(f"field {name!r}: unknown {sorted(set(d) - set(names), key=str)!r}")
    for f, tp, _ in tests:
        v = d[f]
        if not is_type(v, tp):
            check_type(v, tp, f"{name}.{f}")
    return cls(**pcopy(d))


_LOG_KEYS: Final = {"turn": 0, "t": 0, "to": 0}.keys()


def _log_from(v: Any) -> list[dict[str, Any]]:
    """The log: entries ``{"turn": int, "t": str, "to": int | None}`` (checked fast: it is long)."""
    _as(list, v, "log")
    for i, e in enumerate(v):
        if (type(e) is not dict or e.keys() != _LOG_KEYS or type(e["t"]) is not str
                or type(e["turn"]) is not int or not (e["to"] is None or type(e["to"]) is int)):
            raise StateError(f"field 'log[{i}]': expected {{'turn': int, 't': string, 'to': int or null}}, "
                             f"got {_show(e)}")
    return [dict(e) for e in v]


_MAX64: Final = (1 << 64) - 1


def _rng_from(d: Any) -> RNG:
    """The generator's state: two 64-bit integers written as decimal strings (``inc`` odd, as PCG32
    needs) and the queue of scripted die faces (1-6)."""
    _as(dict, d, "rng")
    if set(d) != {"state", "inc", "scripted"}:
        raise StateError(f"field 'rng' must have exactly the keys ['inc', 'scripted', 'state'], "
                         f"got {sorted(d, key=str)}")
    vals = {}
    for k in ("state", "inc"):
        v = d[k]
        if type(v) is str and v.isdigit() and v.isascii() and int(v) <= _MAX64:
            vals[k] = int(v)
        elif type(v) is int and 0 <= v <= _MAX64:
            vals[k] = v
        else:
            raise StateError(f"field 'rng.{k}' must be a decimal string of an integer in 0..2**64-1, "
                             f"got {_show(v)}")
    if not vals["inc"] & 1:
        raise StateError(f"field 'rng.inc' must be odd (a PCG32 increment), got {vals['inc']}")
    sc = _as(list, d["scripted"], "rng.scripted")
    for i, f in enumerate(sc):
        if type(f) is not int or not 1 <= f <= 6:
            raise StateError(f"field 'rng.scripted[{i}]' must be a die face, an int 1-6, got {_show(f)}")
    return RNG(0, 0, (vals["state"], vals["inc"], list(sc)))


def _frame_from(fr: Any, name: str) -> Frame:
    _as(dict, fr, name)
    if set(fr) != {"op", "args"}:
        raise StateError(f"field {name!r} must have exactly the keys ['args', 'op'], got {sorted(fr, key=str)}")
    op = _as(str, fr["op"], f"{name}.op")
    args = _as(dict, fr["args"], f"{name}.args")
    p = plain_problem(args, f"{name}.args")
    if p:
        raise StateError(p)
    return Frame(op, pcopy(args))

"""The decision point machine.

The game is a stack of frames (``GameState.stack``).  ``run()`` pops procedure
frames and calls the operation registered under their name, until the top frame
is a decision with two or more legal options; then it stops and the game waits
for ``apply(action)``.  A decision with exactly one option is taken at once and
shown to no one (ruling R10).

Operations are plain functions ``fn(state, **args)`` registered with ``@op``.
To continue after a sub-procedure or a decision, an operation schedules the
ordered steps it wants with ``seq(state, step, step, ...)``: the first step runs
first.  A step is ``(op_name, args_dict)`` or a decision made with ``ask(...)``.
No generators, callbacks or closures: every pending thing is plain data, so the
game can be cloned, saved and resumed at any decision.

Cross-module procedures are called by name (``"accuse"``, ``"kill"``...), so a
chapter module never imports another chapter's internals; the registry binds
them when ``fandonia_env.engine.chapters`` imports every chapter.

**Chance nodes** (opt-in, ``config["chance"] == "explicit"``): each step (one operation, or
one decision taken) runs on a snapshot; a draw of ``chance.py`` that needs an outcome raises
``ChanceNeeded``, the state goes back to the snapshot and a ``"chance"`` frame (the request,
plain data) is pushed on top.  ``apply_chance`` re-runs the step, giving the outcomes chosen so
far to its draws in order.  See ``docs/engine.md`` ("Chance nodes").
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import fields
from typing import Any, Final

from .actions import NAME, NUM_ACTIONS
from .errors import ChanceNeeded as ChanceNeeded
from .errors import IllegalActionError as IllegalActionError
from .records import DecisionContext
from .state import EngineError, Frame, GameState

OPS: Final[dict[str, Callable[..., None]]] = {}
#: what runs after every step (an operation, or a decision taken), given the state and the step's
#: frame: the rules that hold at all times and schedule their own step when broken (the PP limit,
#: ruling R17: ``queries.pp_limit_watch``).  Filled by ``watch`` while the modules are imported,
#: never during play.
WATCHES: Final[list[Callable[[GameState, Frame], None]]] = []

#: the player id of chance (OpenSpiel's ``kChancePlayerId``)
CHANCE: Final = -1
#: the op name of a pending chance node's frame (never registered: ``run`` stops at it)
CHANCE_OP: Final = "chance"
#: the values of ``config["chance"]``: ``"sampled"`` (the default: the key is left out) or ``"explicit"``
CHANCE_MODES: Final[tuple[str, ...]] = ("sampled", "explicit")

Step = tuple[str, dict[str, Any]] | Frame


def op(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register an operation under ``name``."""

    def deco(fn: Callable[..., None]) -> Callable[..., None]:
        if name in OPS and OPS[name] is not fn:
            raise EngineError(f"operation {name!r} registered twice")
        OPS[name] = fn
        _PARAMS[fn] = _params(fn)
        return fn

    return deco


def watch(fn: Callable[[GameState, Frame], None]) -> Callable[[GameState, Frame], None]:
    """Run ``fn(state, step)`` after every step of every game (see ``WATCHES``); returns it unchanged."""
    if fn not in WATCHES:
        WATCHES.append(fn)
    return fn


def ask(player: int, kind: str, options: Iterable[int], then: str, ctx: DecisionContext | None = None,
        **then_args: Any) -> Frame:
    """A decision step: ``player`` picks one of ``options``; then ``then(state, choice=id, **then_args)``.

    ``ctx`` is public context for observation encoders (the activity, target,
    roll...) and must not hold anything hidden from other players except what
    ``player`` himself may know.
    """
    opts = list(options)
    prev = -1
    for o in opts:  # usually given in increasing order already: sorted and made unique only if not
        if o <= prev:
            opts = sorted(set(opts))
            break
        prev = o
    return Frame("decide", {"player": player, "kind": kind, "options": opts,
                            "ctx": ctx or {}, "then": then, "then_args": then_args})


def seq(state: GameState, *steps: Step | None) -> None:
    """Schedule steps to run in the given order, before anything already pending."""
    for st in reversed(steps):
        if st is None:
            continue
        if isinstance(st, Frame):
            state.stack.append(st)
        else:
            name, args = st
            if name not in OPS:
                raise EngineError(f"unknown operation {name!r}")
            state.stack.append(Frame(name, dict(args)))


class ChanceStep:
    """The explicit-mode step being run: its state, the outcomes chosen for its draws so far (in
    order, ``[kind, outcome]``), how many were given, and a mark that ``chance.py`` may use."""

    __slots__ = ("chosen", "given", "mark", "state")

    def __init__(self, state: GameState, chosen: list[list[Any]]) -> None:
        self.state, self.chosen, self.given = state, chosen, 0
        self.mark: int | None = None


_STEP: Final[ContextVar[ChanceStep | None]] = ContextVar("fandonia_chance_step", default=None)


def explicit(state: GameState) -> bool:
    """Does this game stop at chance nodes (``config["chance"] == "explicit"``)?"""
    return state.config.get("chance") == "explicit"


def chance_step(state: GameState) -> ChanceStep | None:
    """The explicit-mode step running on ``state`` now, if any: a draw inside it asks
    ``chance_outcome`` instead of the generator (any other draw uses the generator)."""
    st = _STEP.get()
    return st if st is not None and st.state is state else None


def chance_outcome(state: GameState, request: dict[str, Any]) -> Any:
    """The outcome chosen for this draw of the running step (``request``: ``kind``, ``why`` and
    ``outcomes``, a list of ``[outcome, numerator, denominator]``); raises ``ChanceNeeded`` when
    none is chosen yet."""
    st = chance_step(state)
    if st is None:
        raise EngineError(f"chance_outcome outside an explicit-mode step ({request['why']})")
    if st.given < len(st.chosen):
        kind, outcome = st.chosen[st.given]
        st.given += 1
        if kind != request["kind"] or not any(o[0] == outcome for o in request["outcomes"]):
            raise EngineError(f"chance outcome {outcome!r} ({kind}) replayed at a {request['kind']} draw "
                              f"({request['why']}) that cannot give it")
        return outcome
    raise ChanceNeeded(request)


def chance_node(state: GameState) -> Frame | None:
    """The pending chance node's frame (explicit mode), or None."""
    if state.over or not state.stack:
        return None
    top = state.stack[-1]
    return top if top.op == CHANCE_OP else None


def _restore(state: GameState, snap: GameState) -> None:
    for f in fields(GameState):
        setattr(state, f.name, getattr(snap, f.name))


def _step(state: GameState, action: int | None, chosen: list[list[Any]]) -> bool:
    """Run one step in explicit mode: the top frame, or ``action`` for the pending decision.  A draw
    without a chosen outcome puts the state back as it was before the step, with a chance frame on
    top (``chosen``: the outcomes of its earlier draws; ``action``: the decision to take again);
    False then."""
    snap = state.clone()
    token = _STEP.set(ChanceStep(state, chosen))
    try:
        if action is None:
            _run_top(state)
        else:
            _take(state, action)
    except ChanceNeeded as need:
        _restore(state, snap)
        state.stack.append(Frame(CHANCE_OP, {**need.request, "chosen": chosen, "action": action}))
        return False
    finally:
        _STEP.reset(token)
    return True


def _run_top(state: GameState) -> None:
    """Pop the top frame and run it (a decision with one option is taken), then the watches."""
    top = state.stack.pop()
    if top.op == "decide":
        a = top.args
        _call_choice(state, OPS[a["then"]], a["options"][0], a["then_args"])
    else:
        _call(state, OPS[top.op], top.args)
    for w in WATCHES:
        w(state, top)


#: an operation -> the names of its parameters after ``state``, or None when it has other kinds
#: than plain ones (``*args``, ``**kw``, keyword-only): filled when ``op`` registers it (at import),
#: never while games are played (issue 26)
_PARAMS: Final[dict[Any, tuple[str, ...] | None]] = {}
#: a value no frame holds
_MISSING: Final = object()
#: ``_PARAMS``'s answer for a function not seen yet (no function has a parameter named "")
_UNSEEN: Final[tuple[str, ...]] = ("",)


def _params(fn: Callable[..., None]) -> tuple[str, ...] | None:
    try:
        ps = list(inspect.signature(fn).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    return None if any(x.kind is not x.POSITIONAL_OR_KEYWORD for x in ps) else tuple(x.name for x in ps)


def _call(state: GameState, fn: Callable[..., None], args: dict[str, Any]) -> None:
    """``fn(state, **args)``; the values are passed by position when ``args`` names exactly fn's
    first parameters (up to three), which a compiled operation takes without parsing keywords."""
    names = _PARAMS.get(fn, _UNSEEN)
    if names is _UNSEEN:
        names = _params(fn)
    k = len(args)
    if names is not None and k <= len(names) and k <= 3:
        if k == 0:
            fn(state)
            return
        v0 = args.get(names[0], _MISSING)
        if v0 is not _MISSING:
            if k == 1:
                fn(state, v0)
                return
            v1 = args.get(names[1], _MISSING)
            if v1 is not _MISSING:
                if k == 2:
                    fn(state, v0, v1)
                    return
                v2 = args.get(names[2], _MISSING)
                if v2 is not _MISSING:
                    fn(state, v0, v1, v2)
                    return
    fn(state, **args)


def _call_choice(state: GameState, fn: Callable[..., None], choice: int, args: dict[str, Any]) -> None:
    """``fn(state, choice=choice, **args)``, by position as ``_call`` does."""
    names = _PARAMS.get(fn, _UNSEEN)
    if names is _UNSEEN:
        names = _params(fn)
    k = len(args)
    if names is not None and names and names[0] == "choice" and k < len(names) and k <= 3:
        if k == 0:
            fn(state, choice)
            return
        v0 = args.get(names[1], _MISSING)
        if v0 is not _MISSING:
            if k == 1:
                fn(state, choice, v0)
                return
            v1 = args.get(names[2], _MISSING)
            if v1 is not _MISSING:
                if k == 2:
                    fn(state, choice, v0, v1)
                    return
                v2 = args.get(names[3], _MISSING)
                if v2 is not _MISSING:
                    fn(state, choice, v0, v1, v2)
                    return
    fn(state, choice=choice, **args)


def resolve_chance(state: GameState, outcome: Any) -> None:
    """Resume the game at its chance node with ``outcome`` (plain data, as in the node's
    ``outcomes``) and run on to the next decision or chance node."""
    node = chance_node(state)
    if node is None:
        raise IllegalActionError("no chance node is pending")
    a = node.args
    if a["action"] is not None:
        below = state.stack[-2] if len(state.stack) >= 2 else None
        if below is None or below.op != "decide" or a["action"] not in below.args["options"]:
            raise EngineError(f"chance node: action {a['action']!r} is not an option of the decision below it")
    if not any(o[0] == outcome for o in a["outcomes"]):
        raise IllegalActionError(f"{outcome!r} is not an outcome of the pending chance node ({a['why']}); "
                                 f"outcomes: {[o[0] for o in a['outcomes']][:12]}")
    state.stack.pop()
    if _step(state, a["action"], [*a["chosen"], [a["kind"], outcome]]):
        run(state)


def pending(state: GameState) -> Frame | None:
    """The decision waiting for a player, or None if the game is over."""
    if state.over or not state.stack:
        return None
    top = state.stack[-1]
    return top if top.op == "decide" else None


def run(state: GameState) -> None:
    """Advance until a decision with two or more options, or the end of the game (or, in explicit
    chance mode, a chance node: there each step runs through ``_step``)."""
    exp = explicit(state)
    stack = state.stack
    while stack and not state.over:
        top = stack[-1]
        if top.op == "decide":
            opts = top.args["options"]
            if len(opts) >= 2:
                return
            if not opts:
                raise EngineError(f"decision {top.args['kind']!r} for player {top.args['player']} has no options")
        elif top.op == CHANCE_OP:
            return
        if not exp:
            _run_top(state)
        elif not _step(state, None, []):
            return


def apply(state: GameState, action: int) -> None:
    """Take ``action`` for the pending decision and run on.  Illegal actions change nothing."""
    dec = pending(state)
    if dec is None:
        if chance_node(state) is not None:
            raise IllegalActionError("a chance node is pending: resume it with an outcome (Game.apply_chance)",
                                     player=CHANCE, kind=CHANCE_OP)
        raise IllegalActionError("the game is over: no decision is pending")
    a = dec.args
    if isinstance(action, bool) or not isinstance(action, int):
        try:
            if isinstance(action, bool):
                raise TypeError
            action = operator.index(action)  # numpy ints from policies are fine; floats, strings are not
        except TypeError:
            raise IllegalActionError(
                f"action must be an int id, got {action!r}; legal ids for player {a['player']} "
                f"deciding {a['kind']!r}: {a['options']}", player=a["player"], kind=a["kind"],
                legal=list(a["options"])) from None
    if action not in a["options"]:
        shown = "out of range" if not 0 <= action < NUM_ACTIONS else NAME[action]
        raise IllegalActionError(
            f"illegal action {action} ({shown}) for player {a['player']} deciding {a['kind']!r}; "
            f"legal: {[(o, NAME[o]) for o in a['options']]}",
            player=a["player"], kind=a["kind"], legal=list(a["options"]))
    if explicit(state):
        if _step(state, action, []):
            run(state)
        return
    _take(state, action)
    run(state)


def _take(state: GameState, action: int) -> None:
    """Take ``action`` (legal) for the decision on top, then the watches."""
    top = state.stack.pop()
    a = top.args
    state.steps += 1
    _call_choice(state, OPS[a["then"]], action, a["then_args"])
    for w in WATCHES:
        w(state, top)


# ---------------------------------------------------------------------------
# The log
# ---------------------------------------------------------------------------
def log(state: GameState, text: str, to: int | None = None) -> None:
    """Append a log line: public (``to=None``) or private to one player.  The one writer of the
    log: a log still shared with a clone is copied first (``GameState.clone``)."""
    if state.log_shared:
        state.log = list(state.log)
        state.log_shared = False
    state.log.append({"turn": state.turn, "t": text, "to": to})


def abort_turn(state: GameState) -> None:
    """End the current game turn at once (§9.4 mourning): drop everything pending
    down to the turn's closing frame, which then runs."""
    stack = state.stack
    while stack and stack[-1].op != "end_of_turn":
        stack.pop()
    if not stack:
        raise EngineError("abort_turn: no end_of_turn frame on the stack")
    state.tstate["aborted"] = True

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
them when ``fandonia_env.engine.rules`` imports every chapter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .state import Frame, GameState

OPS: dict[str, Callable[..., None]] = {}

Step = tuple[str, dict[str, Any]] | Frame


class IllegalActionError(ValueError):
    """An action that is not among the pending decision's legal options."""

    def __init__(self, message: str, *, player: int | None = None, kind: str | None = None,
                 legal: list[int] | None = None) -> None:
        super().__init__(message)
        self.player = player
        self.kind = kind
        self.legal = legal or []


class EngineError(RuntimeError):
    """An internal inconsistency (a bug in the engine, never the player's fault)."""


def op(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register an operation under ``name``."""

    def deco(fn: Callable[..., None]) -> Callable[..., None]:
        if name in OPS and OPS[name] is not fn:
            raise EngineError(f"operation {name!r} registered twice")
        OPS[name] = fn
        return fn

    return deco


def ask(player: int, kind: str, options: Iterable[int], then: str, ctx: dict[str, Any] | None = None,
        **then_args: Any) -> Frame:
    """A decision step: ``player`` picks one of ``options``; then ``then(state, choice=id, **then_args)``.

    ``ctx`` is public context for observation encoders (the activity, target,
    roll...) and must not hold anything hidden from other players except what
    ``player`` himself may know.
    """
    opts = sorted(set(options))
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


def pending(state: GameState) -> Frame | None:
    """The decision waiting for a player, or None if the game is over."""
    if state.over or not state.stack:
        return None
    top = state.stack[-1]
    return top if top.op == "decide" else None


def run(state: GameState) -> None:
    """Advance until a decision with two or more options, or the end of the game."""
    stack = state.stack
    while stack and not state.over:
        top = stack[-1]
        if top.op == "decide":
            opts = top.args["options"]
            if len(opts) >= 2:
                return
            if not opts:
                raise EngineError(f"decision {top.args['kind']!r} for player {top.args['player']} has no options")
            stack.pop()
            OPS[top.args["then"]](state, choice=opts[0], **top.args["then_args"])
            continue
        stack.pop()
        OPS[top.op](state, **top.args)


def apply(state: GameState, action: int) -> None:
    """Take ``action`` for the pending decision and run on.  Illegal actions change nothing."""
    from .actions import NAME, NUM_ACTIONS

    dec = pending(state)
    if dec is None:
        raise IllegalActionError("the game is over: no decision is pending")
    a = dec.args
    if isinstance(action, bool) or not isinstance(action, int):
        try:
            import numpy as _np  # numpy ints from policies are fine
            if isinstance(action, _np.integer):
                action = int(action)
            else:
                raise TypeError
        except (ImportError, TypeError):
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
    state.stack.pop()
    state.steps += 1
    OPS[a["then"]](state, choice=action, **a["then_args"])
    run(state)


# ---------------------------------------------------------------------------
# The log
# ---------------------------------------------------------------------------
def log(state: GameState, text: str, to: int | None = None) -> None:
    """Append a log line: public (``to=None``) or private to one player."""
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

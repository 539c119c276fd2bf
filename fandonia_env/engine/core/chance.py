"""Chance: the one module through which every random draw of the engine goes.

The game's generator is ``state.rng`` (``rng.py``: PCG32, plain data, saved with the game).
No other engine module calls it (``tests/test_chance.py`` scans the sources): a chapter
module asks for what it needs by name, and says why (``why``: a short text for traces and
error messages, e.g. ``"Funeral Table"``).

=================  ============================================  ===================================
draw               outcomes, probabilities (without drawing)     generator use (unscripted)
=================  ============================================  ===================================
``roll(n)``        ``roll_outcomes(n)``: every sequence of n     one ``rng.d6()`` per die, in order
                   faces 1-6, each 1/6**n
``d6``             one die (``roll(state, 1, why)[0]``)          as ``roll``
``dice_sum``       two dice added, 2-12 (§2.3)                   as ``roll``
``dice_count``     red die then white die read as 11-66 (§2.3)   as ``roll``
``shuffle``        ``shuffle_outcomes(items)``: every            ``rng.shuffle`` (Fisher-Yates)
                   permutation of the positions, each 1/n!
``draw(pile)``     ``draw_outcomes(state, pile)``: every item    loyalty, opportunity: one
                   of the pile, each 1/len (None, 1 when it is   ``rng.below(len)``; event: the top
                   empty)                                        card, none (a reshuffle of the
                                                                 discards when the pile is empty)
``pick``           ``pick_outcomes(items)``: each item           one ``rng.below(len)``
                   1/len (equal items merged)
=================  ============================================  ===================================

The outcome functions are what an OpenSpiel-style chance node exposes: they draw nothing and
change nothing.  Probabilities are exact fractions (``Fraction``) that sum to 1.  The Event
pile's order is fixed by the shuffle that made it, so the engine takes its top card; to anyone
who has not seen that order every card of the pile is equally likely, and ``draw_outcomes``
says so.

**Scripting (the test seam, and how a chosen chance outcome is applied).**  ``script(state,
kind, items)`` queues the next outcomes of a kind; the draw takes the next queued outcome
instead of a random one and does not touch the generator:

* ``"dice"``: die faces 1-6, queued on the generator itself (``rng.scripted``, as
  ``rng.script_dice``), so every die the engine rolls takes them first;
* ``"loyalty"``: character ids (a Loyalty counter's id is its noble's id);
* ``"opportunity"``: counter ids (``"o07"``) or kinds (``"duel"``: the first counter of that
  kind in the pool);
* ``"event"``: card ids (``"c042"``) or card types (``"assassination"``: the topmost card of
  that type in the pile; the order of the other cards is kept);
* ``"pick"``: the item to pick, or for an Event card its card type.

Queues other than dice live in ``state.misc["chance_script"]`` (``{kind: [item, ...]}``, plain
JSON, absent when empty), so they survive clone and save like the dice do and the save format
is unchanged.  A queued outcome that the draw cannot give (not in the pile, not among the
items) raises ``ChanceError``; a draw from an empty pile returns None and leaves the queue as
it is.  ``builder.Position`` scripts with ``dice``, ``next_draws`` and ``next_pick``.

**Tracing.**  ``with recording() as draws:`` collects a ``Draw(kind, why, outcome, scripted)``
for every draw made inside the block (in this thread/context only).

**Chance nodes** (``config["chance"] == "explicit"``, ``machine.py``): a roll, pile draw or pick
made inside a machine step, with nothing scripted and two or more outcomes, takes the outcome
chosen at a chance node instead of asking the generator (``_chosen``; the node lists this
module's ``*_outcomes``; a chosen outcome counts as scripted in ``recording``).  Shuffles, and
draws outside the machine (the set-up, §3), use the generator as in the default mode.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from math import factorial
from typing import Any, Final, NamedTuple, TypeVar

from ..data.components import CARD_TYPE_KEYS, CARD_TYPE_OF, LOYALTY_IDS, OPPORTUNITY_TYPE_OF, OPPORTUNITY_TYPES
from .errors import ChanceError as ChanceError
from .machine import ChanceNeeded, chance_outcome, chance_step, log
from .state import GameState

T = TypeVar("T")

FACES: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6)
#: the piles ``draw`` draws from
PILES: Final[tuple[str, ...]] = ("loyalty", "opportunity", "event")
#: the kinds ``script`` queues (dice are queued on the generator, the others in ``state.misc``)
KINDS: Final[tuple[str, ...]] = ("dice", *PILES, "pick")
#: the ``state.misc`` key of the scripted queues
SCRIPT_KEY: Final = "chance_script"


class Draw(NamedTuple):
    """One draw seen by ``recording``: ``kind`` is ``"roll"``, ``"shuffle"``, a pile or ``"pick"``;
    ``scripted``: the outcome (or, for a roll, at least one die) came from a script."""

    kind: str
    why: str
    outcome: Any
    scripted: bool


_RECORD: Final[ContextVar[list[Draw] | None]] = ContextVar("fandonia_chance_record", default=None)


@contextmanager
def recording() -> Iterator[list[Draw]]:
    """Collect every draw made inside the block, in order."""
    draws: list[Draw] = []
    token = _RECORD.set(draws)
    try:
        yield draws
    finally:
        _RECORD.reset(token)


def _note(state: GameState, kind: str, why: str, outcome: Any, scripted: bool) -> None:
    rec = _RECORD.get()
    if rec is not None:
        step = chance_step(state)
        if step is not None and step.mark is None:
            step.mark = len(rec)  # where this explicit-mode step's draws start (see _chosen)
        rec.append(Draw(kind, why, outcome, scripted))


def _chosen(state: GameState, kind: str, why: str, outcomes: Iterable[tuple[Any, Fraction]]) -> Any:
    """Explicit chance mode: the outcome chosen at the chance node of this draw; the machine stops
    at one (``ChanceNeeded``) when none is chosen yet, and the step's draws recorded so far are
    dropped (the step runs again when the node is resolved)."""
    req = {"kind": kind, "why": why, "outcomes": [[plain_outcome(x), p.numerator, p.denominator] for x, p in outcomes]}
    try:
        out = chance_outcome(state, req)
    except ChanceNeeded:
        rec, step = _RECORD.get(), chance_step(state)
        if rec is not None and step is not None and step.mark is not None:
            del rec[step.mark:]
        raise
    return tuple(out) if kind == "roll" else out


def node_outcomes(node: dict[str, Any]) -> list[tuple[Any, Fraction]]:
    """The outcomes of a chance node (its frame's args) with their exact probabilities, as the
    draw's ``*_outcomes`` function listed them (a roll's faces as a tuple)."""
    roll_ = node["kind"] == "roll"
    return [(tuple(x) if roll_ else x, Fraction(n, d)) for x, n, d in node["outcomes"]]


def plain_outcome(outcome: Any) -> Any:
    """A chance outcome as the plain data kept in the state (a roll's faces as a list)."""
    return list(outcome) if type(outcome) is tuple else outcome


# ---------------------------------------------------------------------------
# Dice (§2.3)
# ---------------------------------------------------------------------------


def roll(state: GameState, n_dice: int, why: str) -> list[int]:
    """Roll ``n_dice`` six-sided dice; the faces in the order rolled (red die first).
    Outcomes: ``roll_outcomes(n_dice)``."""
    rng = state.rng
    scripted = bool(rng.scripted)
    k = n_dice - len(rng.scripted)  # dice not scripted
    if k > 0 and chance_step(state) is not None:  # explicit chance mode: a chance node
        faces = [rng.d6() for _ in range(n_dice - k)] + list(_chosen(state, "roll", why, roll_outcomes(k)))
        _note(state, "roll", why, tuple(faces), True)
        return faces
    faces = [rng.d6() for _ in range(n_dice)]
    _note(state, "roll", why, tuple(faces), scripted)
    return faces


def roll_outcomes(n_dice: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every sequence of ``n_dice`` faces, each with probability 1/6**n_dice."""
    p = Fraction(1, 6**n_dice)
    return [(faces, p) for faces in itertools.product(FACES, repeat=n_dice)]


def d6(state: GameState, why: str) -> int:
    """One die, 1-6.  Outcomes: ``roll_outcomes(1)``."""
    return roll(state, 1, why)[0]


def dice_sum(state: GameState, why: str) -> int:
    """Two dice added, 2-12 (§2.3).  Outcomes: ``roll_outcomes(2)``, the faces added."""
    a, b = roll(state, 2, why)
    return a + b


def dice_count(state: GameState, why: str) -> int:
    """Red die then white die read as 11-66 (§2.3).  Outcomes: ``roll_outcomes(2)``, read as a count."""
    red, white = roll(state, 2, why)
    return red * 10 + white


# ---------------------------------------------------------------------------
# Shuffles
# ---------------------------------------------------------------------------


def shuffle(state: GameState, items: list[Any], why: str) -> None:
    """Shuffle ``items`` in place (Fisher-Yates).  Outcomes: ``shuffle_outcomes(items)``."""
    state.rng.shuffle(items)
    if _RECORD.get() is not None:
        _note(state, "shuffle", why, tuple(items), False)


def shuffle_outcomes(items: Sequence[T]) -> Iterator[tuple[tuple[T, ...], Fraction]]:
    """Every order of ``items``, one per permutation of the positions (n! of them, lazily; equal
    items give equal orders listed more than once), each with probability 1/n!."""
    p = Fraction(1, factorial(len(items)))
    for perm in itertools.permutations(items):
        yield perm, p


# ---------------------------------------------------------------------------
# Draws from the piles (§11 Loyalty, §12 Opportunity, §14 Event cards)
# ---------------------------------------------------------------------------


def _pile(state: GameState, pile: str) -> list[str]:
    if pile == "loyalty":
        return state.loyalty_pool
    if pile == "opportunity":
        return state.opportunity_pool
    if pile == "event":
        return state.deck
    raise ValueError(f"unknown pile {pile!r}; the piles are {list(PILES)}")


def draw(state: GameState, pile: str, why: str) -> str | None:
    """Draw from a pile: a Loyalty counter or an Opportunity counter at random from its pool, or
    the top card of the Event pile (the discards are first reshuffled into a new pile when it is
    empty, §14.3).  None when there is nothing to draw.  Outcomes: ``draw_outcomes(state, pile)``."""
    items = _pile(state, pile)
    if pile == "event" and not items:
        if not state.discard:
            return None
        state.deck = items = state.discard
        state.discard = []
        shuffle(state, items, "the discards reshuffled into a new Event pile (§14.3)")
        log(state, "The Event pile is empty: the discards are reshuffled into a new Event pile.")
    if not items:
        return None
    want = _take(state, pile)
    if want is None and len(items) > 1 and chance_step(state) is not None:  # explicit chance mode
        want = _chosen(state, pile, why, draw_outcomes(state, pile))
    if want is None:
        got = items.pop() if pile == "event" else items.pop(state.rng.below(len(items)))
    else:
        i = _find(items, want, from_top=pile == "event")
        if i is None:
            raise ChanceError(f"scripted {pile} draw {want!r} ({why}): not in the pile")
        got = items.pop(i)
    _note(state, pile, why, got, want is not None)
    return got


def draw_outcomes(state: GameState, pile: str) -> list[tuple[str | None, Fraction]]:
    """Every item the next draw from ``pile`` may give, each with probability 1/len (for the
    Event pile: of the pile, or of the discards when a reshuffle comes first); ``[(None, 1)]``
    when there is nothing to draw."""
    items = _pile(state, pile)
    if pile == "event" and not items:
        items = state.discard
    if not items:
        return [(None, Fraction(1))]
    p = Fraction(1, len(items))
    return [(x, p) for x in items]


# ---------------------------------------------------------------------------
# Random picks (an Intrigue draw from a hand, §14.2.2; Blackmail, §38)
# ---------------------------------------------------------------------------


def pick(state: GameState, items: Sequence[T], why: str) -> T:
    """One of ``items`` (not empty) at random.  Outcomes: ``pick_outcomes(items)``."""
    if not items:
        raise ValueError(f"pick ({why}) from no items")
    want = _take(state, "pick")
    if want is None and chance_step(state) is not None:  # explicit chance mode
        outs = pick_outcomes(items)
        if len(outs) > 1:
            want = _chosen(state, "pick", why, outs)
    if want is None:
        got = items[state.rng.below(len(items))]
    else:
        i = _find(items, want)
        if i is None:
            raise ChanceError(f"scripted pick {want!r} ({why}): not among {list(items)}")
        got = items[i]
    _note(state, "pick", why, got, want is not None)
    return got


def pick_outcomes(items: Sequence[T]) -> list[tuple[T, Fraction]]:
    """Each distinct item with probability (its count)/len, in the order first seen."""
    counts: dict[T, int] = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    return [(x, Fraction(k, len(items))) for x, k in counts.items()]


# ---------------------------------------------------------------------------
# Scripting
# ---------------------------------------------------------------------------


def _known(kind: str, x: Any) -> bool:
    if kind == "loyalty":
        return x in LOYALTY_IDS
    if kind == "opportunity":
        return x in OPPORTUNITY_TYPE_OF or x in OPPORTUNITY_TYPES
    if kind == "event":
        return x in CARD_TYPE_OF or x in CARD_TYPE_KEYS
    return True  # "pick": any item


def script(state: GameState, kind: str, items: Iterable[Any]) -> None:
    """Queue the outcomes of the next draws of ``kind`` (one of ``KINDS``; see the module doc)."""
    items = list(items)
    if kind == "dice":
        state.rng.script_dice(items)
        return
    if kind not in KINDS:
        raise ValueError(f"unknown chance kind {kind!r}; the kinds are {list(KINDS)}")
    for x in items:
        if type(x) is not str or not _known(kind, x):
            raise ValueError(f"a scripted {kind} outcome must be "
                             + ("a string" if kind == "pick" else f"a known {kind} id or type") + f", got {x!r}")
    if items:
        state.misc.setdefault(SCRIPT_KEY, {}).setdefault(kind, []).extend(items)


def scripted(state: GameState, kind: str) -> list[Any]:
    """The outcomes still queued for ``kind`` (a copy)."""
    if kind == "dice":
        return list(state.rng.scripted)
    return list(state.misc.get(SCRIPT_KEY, {}).get(kind, ()))


def _take(state: GameState, kind: str) -> Any:
    """The next scripted outcome of ``kind`` (removed from its queue), or None."""
    queues = state.misc.get(SCRIPT_KEY)
    if not queues:
        return None
    q = queues.get(kind)
    if not q:
        return None
    want = q.pop(0)
    if not q:
        del queues[kind]
        if not queues:
            del state.misc[SCRIPT_KEY]
    return want


def _find(items: Sequence[Any], want: Any, from_top: bool = False) -> int | None:
    """Index of ``want`` in ``items``, else of the first item whose card or counter type is
    ``want`` (searching from the end, the top of a pile, when ``from_top``)."""
    order = range(len(items) - 1, -1, -1) if from_top else range(len(items))
    for i in order:
        if items[i] == want:
            return i
    for i in order:
        x = items[i]
        if isinstance(x, str) and (CARD_TYPE_OF.get(x) == want or OPPORTUNITY_TYPE_OF.get(x) == want):
            return i
    return None

"""Consequences before the click (issue 43): what each option of a seat's decision does to that seat.

    from fandonia_env.engine.face.preview import preview
    pv = preview(game.state, seat)      # {action id: {...}} for the seat's pending decision ({} otherwise)

One mechanism serves the page, the terminal game and the server: every option is applied to copies of
*worlds consistent with the seat's view* (``hidden.seat_information``: the other seats' hands and drawn
counters, the Event pile's order and the future dice redrawn, from the seat's information only) and the
engine runs on through the choice's own consequences (``play_out``): to the next decision of any seat, or,
once the game has moved on (another Player Turn, phase or turn), to its first chance draw.  The seat's own
facts before and after are compared (``facts``, ``outcome``): activities left, IP, PP, cards in hand, each
of its characters' Status, office, titles, place and situation, the PP its faction must cover, whether its
gains are halved, characters gained or lost, a character it must give up at once (its own
``pp_limit_lose`` decision), the decision it faces next.  An option that draws nothing and does the same in
the first ``FIRST_WORLDS`` worlds is certain; the others are tried in every world (``DEFAULT_WORLDS``).

An option's record (plain JSON):

* ``free``: at the turn's main decision, True for a free action (§13.2) or an activity granted free (none
  of the activities left is spent), False for an activity, None for ending the turn and at other
  decisions;
* ``certain``: the effects found in every outcome (every sampled world, every die face); when the odds
  are sampled, only those among them that happen before the first draw (``_before_draws``) and change no
  count (IP, PP, cards, activities: see ``paid``);
* ``chances``: ``[{"p": probability, "effects": [...]}, ...]``, the outcomes beyond the certain effects,
  most likely first ([] when the option has a single outcome);
* ``odds``: ``"exact"`` when the outcomes depend only on dice (at most two, every sampled world agreeing
  with the faces enumerated one by one), ``"sampled (N worlds)"`` when they depend on hidden cards or more
  dice, None when there is a single outcome;
* ``paid``: with sampled odds, the costs (IP, PP, cards, activities: negative deltas) paid before the
  first draw in every world; a draw may make them up, so they are not in ``certain`` ([] otherwise);
* ``worst``: ``{"loses_character", "loses_royal", "loses_half_points"}``: whether some outcome loses one
  of the seat's characters (dies, leaves, or must be given up), one of its royals, or half its PP (two
  at least: what a PC's death costs);
* ``then``: when the option certainly leads to another decision of the seat's, ``{"kind", "ip", "pp"}``:
  the least and most IP and PP the two choices together change (``[lo, hi]``, in the first world; None
  when a follow-up draws a die, card or counter), else None.

An effect is a list ``[what, ...]``: ``["ip", delta]``, ``["pp", delta]``, ``["cards", delta]``,
``["activities", delta]``, ``["status", cid, old, new]``, ``["office", cid, old, new]``,
``["titles", cid, old, new]``, ``["place", cid, old, new]``, ``["situation", cid, name, bool]`` (name:
hiding, banished, imprisoned, wrongdoer, awaiting_execution), ``["gained", cid]``, ``["lost", cid,
royal]``, ``["died", cid, royal]``, ``["halved", bool]``, ``["pp_required", old, new]``, ``["give_up",
[cid, ...]]``, ``["next", kind]`` (the seat decides again: kind), ``["turn_ends"]``, ``["won"]``,
``["game_over"]``.

The worlds depend only on the seat's information and ``seed``: a preview never tells more than the
seat may know (``tests/test_preview.py`` redeals the hidden cards and compares)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Final

from ..core.actions import NAME
from ..core.chance import Draw, node_outcomes, plain_outcome, recording, roll_outcomes, script
from ..core.machine import EngineError, apply, chance_node, pending, resolve_chance
from ..core.state import GameState
from ..data.components import ROYALS
from ..rules.queries import owned_ids, pp_required, statuses
from ..rules.rule_queries import gains_halved
from ..rules.turn_steps import activities_left
from .hidden import seat_information

__all__ = ["DEFAULT_WORLDS", "facts", "outcome", "play_out", "preview"]

#: worlds sampled per decision (each option is applied once in each)
DEFAULT_WORLDS: Final = 16
#: worlds tried first: when they all give the same effects without a draw, the option is certain
FIRST_WORLDS: Final = 4
#: at most this many dice are enumerated face by face for exact chances (6**2 = 36 outcomes)
EXACT_DICE: Final = 2
#: the counts an effect changes by a delta (``["ip", -2]``)
_COUNTS: Final = ("ip", "pp", "cards", "activities")
_SITUATIONS: Final = ("hiding", "banished", "imprisoned", "wrongdoer", "awaiting_execution")

Effect = tuple[Any, ...]


def facts(state: GameState, seat: int) -> dict[str, Any]:
    """The seat's own facts that a preview compares: plain data, all of it known to the seat."""
    pl = state.players[seat]
    own = list(owned_ids(state, seat))
    st = statuses(state, own)
    chars = {}
    for cid in own:
        c = state.chars[cid]
        chars[cid] = {"status": st[cid], "office": c.office, "titles": c.titles, "place": c.location,
                      "dead": c.dead, **{k: bool(getattr(c, k)) for k in _SITUATIONS}}
    mine = state.active == seat and state.pt.get("player") == seat and state.phase != "setup"
    d = pending(state)
    nxt = d.args if d is not None and d.args["player"] == seat else None
    give_up = None
    if nxt is not None and nxt["kind"] == "pp_limit_lose":
        give_up = sorted(NAME[a][5:] for a in nxt["options"])
    return {"ip": pl.ip, "pp": pl.pp, "cards": len(pl.hand), "chars": chars,
            "activities": activities_left(state) if mine and not state.over else None,
            "pp_required": pp_required(state, seat), "halved": gains_halved(state, seat),
            "next": None if nxt is None else nxt["kind"], "give_up": give_up,
            "over": state.over, "won": state.over and state.winner == seat,
            "dead": frozenset(cid for cid, c in state.chars.items() if c.dead)}


def outcome(before: dict[str, Any], after: dict[str, Any]) -> tuple[Effect, ...]:
    """The effects (sorted tuples) that turn the facts ``before`` into ``after``."""
    out: list[Effect] = []
    for k in ("ip", "pp", "cards"):
        if after[k] != before[k]:
            out.append((k, after[k] - before[k]))
    if before["activities"] is not None:
        if after["activities"] is None:
            out.append(("turn_ends",))
        elif after["activities"] != before["activities"]:
            out.append(("activities", after["activities"] - before["activities"]))
    b, a = before["chars"], after["chars"]
    for cid in sorted(set(b) | set(a)):
        if cid in b and not b[cid]["dead"] and (cid not in a or a[cid]["dead"]):
            out.append(("died" if cid in after["dead"] else "lost", cid, cid in ROYALS))
            continue
        if cid not in b:
            out.append(("gained", cid))
            continue
        if cid not in a or b[cid]["dead"]:
            continue
        for k in ("status", "office", "titles", "place"):
            if a[cid][k] != b[cid][k]:
                out.append((k, cid, b[cid][k], a[cid][k]))
        for k in _SITUATIONS:
            if a[cid][k] != b[cid][k]:
                out.append(("situation", cid, k, a[cid][k]))
    if after["halved"] != before["halved"]:
        out.append(("halved", after["halved"]))
    if after["pp_required"] != before["pp_required"]:
        out.append(("pp_required", before["pp_required"], after["pp_required"]))
    if after["give_up"]:
        out.append(("give_up", tuple(after["give_up"])))
    if after["next"] not in (None, "pp_limit_lose", "turn_main"):
        out.append(("next", after["next"]))
    if after["won"]:
        out.append(("won",))
    elif after["over"]:
        out.append(("game_over",))
    return tuple(sorted(out, key=repr))


def _horizon(state: GameState) -> tuple[Any, ...]:
    return state.turn, state.phase, state.active


def play_out(state: GameState, action: int, rng: random.Random) -> tuple[GameState, list[Draw]]:
    """The game after ``action`` (``state`` is left as it is) and the choice's own consequences, with the
    draws made: run on to the next decision, or, when the game has moved on first (another Player Turn or
    phase, another turn), to the first chance draw after that; the draws before it take outcomes drawn by
    ``rng`` (explicit chance mode) or by the state's own generator (when the game has not moved on: then
    the default mode, quicker, ends at the same place)."""
    s, draws, _ = _play(state, action, rng, True)
    return s, draws


def _play(state: GameState, action: int, rng: random.Random, quick: bool
          ) -> tuple[GameState, list[Draw], bool]:
    """``play_out``, trying the default mode first when ``quick``; and whether the game moved on."""
    start = _horizon(state)
    if quick:
        s = state.clone()
        with recording() as draws:
            apply(s, action)
        if s.over or _horizon(s) == start:
            return s, draws, False
    s = state.clone()
    s.config = {**s.config, "chance": "explicit"}
    with recording() as draws:
        apply(s, action)
        while (node := chance_node(s)) is not None and _horizon(s) == start:
            resolve_chance(s, plain_outcome(_draw(node_outcomes(node.args), rng)))
    return s, draws, _horizon(s) != start


def _draw(outs: list[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """One outcome, with its probability."""
    x = Fraction(rng.random())
    for out, p in outs:
        x -= p
        if x < 0:
            return out
    return outs[-1][0]


def _run(world: GameState, seat: int, action: int, seed: int, hint: list[bool],
         dice: tuple[int, ...] | None = None) -> tuple[tuple[Effect, ...], list[Draw]]:
    """Apply ``action`` to a copy of ``world`` (with ``dice`` scripted first): its effects and draws.
    ``hint[0]``: the option moved the game on in a world before (then the default mode is not tried)."""
    s = world
    if dice is not None:
        s = world.clone()
        script(s, "dice", list(dice))
    before = facts(s, seat)
    after, draws, moved = _play(s, action, random.Random(seed), not hint[0])
    hint[0] = hint[0] or moved
    return outcome(before, facts(after, seat)), draws


def _dice_of(draws: list[Any]) -> tuple[int, ...] | None:
    """The faces rolled, when every draw was a die roll; None when a card, counter or pick was drawn."""
    faces: list[int] = []
    for d in draws:
        if d.kind != "roll":
            return None
        faces.extend(d.outcome)
    return tuple(faces)


def _exact(world: GameState, seat: int, action: int, seed: int, hint: list[bool], n: int,
           seen: list[tuple[tuple[int, ...], tuple[Effect, ...]]]) -> dict[tuple[Effect, ...], Fraction] | None:
    """The outcomes of ``action`` by the faces of its ``n`` dice in ``world``; None unless every sampled
    world (``seen``: its faces and effects) gave what these faces give here."""
    table: dict[tuple[int, ...], tuple[Effect, ...]] = {}
    dist: dict[tuple[Effect, ...], Fraction] = {}
    for faces, p in roll_outcomes(n):
        eff, draws = _run(world, seat, action, seed, hint, faces)
        if _dice_of(draws) != faces:
            return None  # more dice, or a card drawn, after these faces
        table[faces] = eff
        dist[eff] = dist.get(eff, Fraction(0)) + p
    if any(table.get(f) != eff for f, eff in seen):
        return None  # the hidden cards matter too
    return dist


def _option(worlds: list[GameState], seat: int, action: int, main: bool, seed: int) -> dict[str, Any]:
    seen: list[tuple[tuple[int, ...] | None, tuple[Effect, ...]]] = []
    hint = [False]  # has the option moved the game on (another Player Turn, phase or turn) in some world?
    for i, w in enumerate(worlds):
        if i == FIRST_WORLDS and len({eff for _, eff in seen}) == 1 and {f for f, _ in seen} == {()}:
            break  # no draw, the same effects in the first worlds: the hidden cards do not matter here
        eff, draws = _run(w, seat, action, seed + i, hint)
        seen.append((_dice_of(draws), eff))
    effs = {eff for _, eff in seen}
    dist: dict[tuple[Effect, ...], Fraction] | None = None
    odds: str | None = None
    rolled = {f for f, _ in seen}
    if len(effs) == 1 and rolled == {()}:
        dist = {next(iter(effs)): Fraction(1)}  # no draw at all, the same everywhere: certain
    elif None not in rolled and len({len(f) for f in rolled if f is not None}) == 1:
        n = len(next(iter(rolled)))  # type: ignore[arg-type]
        if 0 < n <= EXACT_DICE:
            dist = _exact(worlds[0], seat, action, seed, hint, n, [(f, e) for f, e in seen if f is not None])
            odds = None if dist is None else "exact"
    if dist is None:
        dist = {}
        for _, eff in seen:
            dist[eff] = dist.get(eff, Fraction(0)) + Fraction(1, len(seen))
        odds = f"sampled ({len(seen)} worlds)"
    rec = _record(dist, odds if len(dist) > 1 else None,
                  _before_draws(worlds[0], seat, action) if odds and odds != "exact" else None)
    if main:
        rec["free"] = _free(action, rec)
    if any(e[0] == "next" for e in rec["certain"]):
        rec["then"] = _then(worlds[0], seat, action, seed)
    return rec


def _before_draws(world: GameState, seat: int, action: int) -> set[Effect]:
    """The effects of ``action`` before its first chance draw (in ``world``): what no die or card decides."""
    s = world.clone()
    s.config = {**s.config, "chance": "explicit"}
    before = facts(s, seat)
    apply(s, action)
    return set(outcome(before, facts(s, seat)))


def _record(dist: dict[tuple[Effect, ...], Fraction], odds: str | None,
            sure: set[Effect] | None = None) -> dict[str, Any]:
    """The record of an option with these outcomes; ``sure``: when the odds are sampled, the effects found
    before any draw (only those of them found in every world are certain: a few worlds prove nothing)."""
    outs = list(dist)
    certain = set(outs[0]).intersection(*outs[1:])
    paid: set[Effect] = set()
    if sure is not None:
        certain &= sure
        # a count paid before the draws may be made up by them (a roll's gain): paid, not certain
        paid = {e for e in certain if e[0] in _COUNTS and e[1] < 0}
        certain = {e for e in certain if e[0] not in _COUNTS}
    chances = [{"p": round(float(p), 4), "effects": [list(e) for e in eff if e not in certain]}
               for eff, p in sorted(dist.items(), key=lambda kv: (-kv[1], repr(kv[0])))] if len(outs) > 1 else []
    every = [e for eff in outs for e in eff]
    worst = {
        "loses_character": any(e[0] in ("lost", "died", "give_up") for e in every),
        "loses_royal": any(e[0] in ("lost", "died") and e[2] for e in every)
        or any(e[0] == "give_up" and any(c in ROYALS for c in e[1]) for e in every),
        "loses_half_points": False,
    }
    return {"free": None, "certain": [_plain(e) for e in sorted(certain, key=repr)], "chances": chances,
            "odds": odds, "worst": worst, "then": None, "paid": [_plain(e) for e in sorted(paid, key=repr)]}


def _free(action: int, rec: dict[str, Any]) -> bool | None:
    """At the turn's main decision: a free action (§13.2), or an activity granted free (it spends none of
    the activities left); None for ending the turn."""
    n = NAME[action]
    if n.startswith("free_"):
        return True
    if not n.startswith("act_"):
        return None
    outs = [rec["certain"]] + [rec["certain"] + c["effects"] for c in rec["chances"]]
    return not any(e[0] == "activities" and e[1] < 0 for effs in outs for e in effs)


def _then(world: GameState, seat: int, action: int, seed: int) -> dict[str, Any] | None:
    """When ``action`` leads to another decision of the seat's: its kind and, over its options, the least
    and most IP and PP the two choices together change (in one world, the first); ``ip``/``pp`` None when
    some follow-up draws a die, card or counter (its change is not certain then)."""
    before = facts(world, seat)
    s, _ = play_out(world, action, random.Random(seed))
    d = pending(s)
    if d is None or d.args["player"] != seat or d.args["kind"] in ("turn_main", "pp_limit_lose"):
        return None
    ip: list[int] = []
    pp: list[int] = []
    drawn = False
    for b in d.args["options"]:
        s2, draws = play_out(s, b, random.Random(seed))
        drawn = drawn or bool(draws)
        pl = s2.players[seat]
        ip.append(pl.ip - before["ip"])
        pp.append(pl.pp - before["pp"])
    if drawn:
        return {"kind": d.args["kind"], "ip": None, "pp": None}
    return {"kind": d.args["kind"], "ip": [min(ip), max(ip)], "pp": [min(pp), max(pp)]}


def _plain(e: Effect) -> list[Any]:
    return [list(x) if isinstance(x, tuple) else x for x in e]


def preview(state: GameState, seat: int, worlds: int = DEFAULT_WORLDS, seed: int = 0) -> dict[int, dict[str, Any]]:
    """Every option of ``seat``'s pending decision with what it does to the seat (the module doc); {} when
    the seat has no decision.  ``seed`` (with the seat's view) fixes the worlds sampled."""
    d = pending(state)
    if d is None or d.args["player"] != seat:
        return {}
    rng = random.Random(seed)
    ws = [seat_information(state, seat, random.Random(rng.getrandbits(63))) for _ in range(max(1, worlds))]
    main = d.args["kind"] == "turn_main"
    half = [facts(ws[0], seat)]
    out: dict[int, dict[str, Any]] = {}
    for a in d.args["options"]:
        try:
            rec = _option(ws, seat, a, main, seed * 7919 + a * 101)
        except EngineError:  # a world the engine cannot play on (should not happen): say nothing certain
            rec = {"free": None, "certain": [], "chances": [], "odds": None,
                   "worst": {"loses_character": False, "loses_royal": False, "loses_half_points": False}, "then": None,
                   "paid": []}
        rec["worst"]["loses_half_points"] = _halves(half[0], rec)
        out[a] = rec
    return out


def _halves(before: dict[str, Any], rec: dict[str, Any]) -> bool:
    """Whether some outcome loses half the seat's PP or more (two at least): what a PC's death costs."""
    outs = [rec["certain"]] + [rec["certain"] + c["effects"] for c in rec["chances"]]
    return any(e[0] == "pp" and e[1] <= -2 and -e[1] * 2 >= before["pp"] for effs in outs for e in effs)

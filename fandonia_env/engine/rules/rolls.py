"""Modified rolls: modifier declarations and card-play windows before a roll.

§2.3: whoever may modify a roll states before the dice are rolled whether he
modifies it and with which sign.  §5/§14.1: players play Event cards in player
order, beginning with the first player.  Ruling A11/R8: one pass in player order
before the roll; in his pass each player first declares his modifier signs, then
plays as many cards as the rule allows.  Ruling R10: a player is offered the
window only if he holds a card that can be played in it.

A roll is described by a plain-data *spec* and started with
``seq(state, modified_roll(spec))``.  Spec fields:

``label``   text for the log ("Assassination Table").
``dice``    ``"2d"`` (dice sum), ``"1d"``, ``"count"`` (11-66) or ``"none"``
            (a window with no roll, e.g. cards that negate an escape).
``base``    fixed modifier (int, default 0).
``signs``   list of ``{"player": p, "amount": k, "why": text}``: p declares +k, -k or
            nothing (§7.6, §15.7, §28.3 judge ±5...).
``cards``   list of entries ``{"card": type, "who": "any" | [players], "effect": int |
            "pm" | "negate", "amount": k (for "pm"), "max_total": n|None,
            "max_per_player": n|None}``.  ``"pm"`` lets the player choose +k or -k.
            ``"negate"`` cancels the roll (the result has ``negated=True``).  In the
            1981 edition an Intrigue card may be played as Assassination, Treachery,
            Informer, Escape or Alibi (§14.5.7).
``absent``  ``{"card": type, "amount": k}``: added when no card of that type was
            played (§26.2, §28.4).
``clamp``   ``[lo, hi]`` to clamp the modified total to a table's ends (ruling A6).
``then``, ``then_args``: the operation called with ``roll=<result>``, the result
            being ``{"natural", "total", "mod", "dice", "negated", "played"}``.
"""

from __future__ import annotations

from typing import Any

from ..core import chance
from ..core.actions import PASS, SIGN_MINUS, SIGN_PLUS
from ..core.machine import ask, log, op, seq
from ..core.state import Frame, GameState
from .queries import card_options, play_card, player_order


def modified_roll(spec: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The step that runs a modified roll described by ``spec`` (see module doc)."""
    s = dict(spec)
    s.setdefault("base", 0)
    s.setdefault("signs", [])
    s.setdefault("cards", [])
    s.setdefault("absent", None)
    s.setdefault("clamp", None)
    s.setdefault("then_args", {})
    s["mod"] = s["base"]
    s["played"] = {}
    s["by"] = {}
    s["negated"] = False
    s["i"] = 0
    s["signs_done"] = 0
    return ("roll_step", {"spec": s})


def _entry_for(spec: dict[str, Any], p: int, ctype: str) -> dict[str, Any] | None:
    for e in spec["cards"]:
        if e["card"] == ctype and (e["who"] == "any" or p in e["who"]):
            return e
    return None


def _room(spec: dict[str, Any], e: dict[str, Any], p: int) -> bool:
    ctype = e["card"]
    if e.get("max_total") is not None and spec["played"].get(ctype, 0) >= e["max_total"]:
        return False
    if e.get("max_per_player") is not None:
        if spec["by"].get(f"{p}:{ctype}", 0) >= e["max_per_player"]:
            return False
    return True


def playable(state: GameState, spec: dict[str, Any], p: int) -> list[int]:
    """Card-play action ids player p may take now in this window."""
    if spec["negated"]:
        return []
    out: list[int] = []
    seen: set[str] = set()
    for e in spec["cards"]:
        ctype = e["card"]
        if ctype in seen:
            continue
        e2 = _entry_for(spec, p, ctype)
        if e2 is None or not _room(spec, e2, p):
            continue
        seen.add(ctype)
        out += card_options(state, p, ctype)
    return out


@op("roll_step")
def roll_step(state: GameState, spec: dict[str, Any]) -> None:
    order = player_order(state)
    while spec["i"] < len(order):
        p = order[spec["i"]]
        mine = [sg for sg in spec["signs"] if sg["player"] == p]
        if spec["signs_done"] < len(mine) and not spec["negated"]:
            sg = mine[spec["signs_done"]]
            seq(state, ask(p, "declare_modifier", [SIGN_PLUS, SIGN_MINUS, PASS], "roll_sign",
                           {"roll": spec["label"], "amount": sg["amount"], "why": sg["why"]}, spec=spec))
            return
        opts = playable(state, spec, p)
        if opts:
            seq(state, ask(p, "card_window", opts + [PASS], "roll_card", {"roll": spec["label"]}, spec=spec))
            return
        spec["i"] += 1
        spec["signs_done"] = 0
    _resolve(state, spec)


@op("roll_sign")
def roll_sign(state: GameState, choice: int, spec: dict[str, Any]) -> None:
    order = player_order(state)
    p = order[spec["i"]]
    mine = [sg for sg in spec["signs"] if sg["player"] == p]
    sg = mine[spec["signs_done"]]
    spec["signs_done"] += 1
    if choice == SIGN_PLUS:
        spec["mod"] += sg["amount"]
        log(state, f"player {p} modifies the {spec['label']} roll by +{sg['amount']} ({sg['why']}).")
    elif choice == SIGN_MINUS:
        spec["mod"] -= sg["amount"]
        log(state, f"player {p} modifies the {spec['label']} roll by -{sg['amount']} ({sg['why']}).")
    seq(state, ("roll_step", {"spec": spec}))


@op("roll_card")
def roll_card(state: GameState, choice: int, spec: dict[str, Any]) -> None:
    order = player_order(state)
    p = order[spec["i"]]
    if choice == PASS:
        spec["i"] += 1
        spec["signs_done"] = 0
        seq(state, ("roll_step", {"spec": spec}))
        return
    ctype, shown = play_card(state, p, choice)  # window cards are discarded when played (§14.2.3)
    e = _entry_for(spec, p, ctype)
    assert e is not None
    spec["played"][ctype] = spec["played"].get(ctype, 0) + 1
    key = f"{p}:{ctype}"
    spec["by"][key] = spec["by"].get(key, 0) + 1
    eff = e["effect"]
    if eff == "negate":
        spec["negated"] = True
        log(state, f"player {p} plays {shown}: the {spec['label']} is negated.")
    elif eff == "pm":
        log(state, f"player {p} plays {shown} on the {spec['label']}.")
        seq(state, ask(p, "card_sign", [SIGN_PLUS, SIGN_MINUS], "roll_card_sign",
                       {"roll": spec["label"], "amount": e["amount"], "card": ctype}, spec=spec,
                       amount=e["amount"]))
        return
    else:
        spec["mod"] += int(eff)
        log(state, f"player {p} plays {shown}: {int(eff):+d} to the {spec['label']} roll.")
    seq(state, ("roll_step", {"spec": spec}))


@op("roll_card_sign")
def roll_card_sign(state: GameState, choice: int, spec: dict[str, Any], amount: int) -> None:
    d = amount if choice == SIGN_PLUS else -amount
    spec["mod"] += d
    log(state, f"  ... {d:+d} to the {spec['label']} roll.")
    seq(state, ("roll_step", {"spec": spec}))


def _resolve(state: GameState, spec: dict[str, Any]) -> None:
    dice: list[int] = []
    natural = 0
    if spec["negated"]:
        total = 0
    else:
        kind = spec["dice"]
        if kind == "2d":
            dice = chance.roll(state, 2, spec["label"])
            natural = dice[0] + dice[1]
        elif kind == "1d":
            dice = chance.roll(state, 1, spec["label"])
            natural = dice[0]
        elif kind == "count":
            dice = chance.roll(state, 2, spec["label"])
            natural = dice[0] * 10 + dice[1]
        elif kind == "none":
            natural = 0
        else:
            raise ValueError(f"unknown dice kind {kind!r}")
        mod = spec["mod"]
        ab = spec.get("absent")
        if ab and spec["played"].get(ab["card"], 0) == 0:
            mod += ab["amount"]
        spec["mod"] = mod
        total = natural + mod
        if spec.get("clamp"):
            lo, hi = spec["clamp"]
            total = max(lo, min(hi, total))
        if kind != "none":
            ms = f" {mod:+d}" if mod else ""
            log(state, f"{spec['label']}: rolled {natural} ({'+'.join(map(str, dice))}){ms} = {total}.")
    result = {"natural": natural, "total": total, "mod": spec["mod"], "dice": dice,
              "negated": spec["negated"], "played": dict(spec["played"])}
    seq(state, (spec["then"], {"roll": result, **spec["then_args"]}))


def is_roll_frame(fr: Frame) -> bool:
    return fr.op == "roll_step" or (fr.op == "decide" and fr.args["then"].startswith("roll_"))

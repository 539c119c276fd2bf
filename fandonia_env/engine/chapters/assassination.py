"""§21 Assassination and §22 Scandal: the activities Conduct An Assassination Attempt (§13.4.8,
Event cards §14.5.7-§14.5.12) and Expose A Scandal (§13.4.9).

Cross-chapter operation (docs/engine.md): ``scandal`` {cid, exposer, why}, the Scandal Table for
``cid`` (``exposer``: the player exposing it, None for a scandal from a table or a counsel).  The
table results schedule ``accuse``, ``hearing``, ``to_trial`` (``wrongdoing``, ``trials``),
``kill`` (``death.py``) and ``pp_check_all`` (``usurpation.py``) by name.
"""

from __future__ import annotations

from typing import Any, Final

from ..core import registry
from ..core.actions import ID, NAME, YES, char_action
from ..core.machine import ask, log, op, seq
from ..core.state import Character, GameState
from ..data.components import FANDONIA, ROYALS
from ..data.tables import ASSASSINATION, SCANDAL, lookup
from ..rules.effects import Ctx, apply_row
from ..rules.queries import (
    abroad,
    actor_for,
    card_options,
    count_cards,
    discard,
    henchmen,
    name,
    play_card,
    stuck_at_war,
    take_card,
)
from ..rules.rolls import modified_roll
from ..rules.ruleset import ruleset
from ..rules.situation import CLAMP, card_entry, spared
from ..rules.turn_steps import waived

# ---------------------------------------------------------------------------
# §22 Scandal
# ---------------------------------------------------------------------------


@op("scandal")
def scandal(state: GameState, cid: str, exposer: int | None = None, why: str = "") -> None:
    """§22: the object's player (first player for a NC) rolls on the Scandal Table;
    Informer -1 each by the exposer, +1 each by the owner of a PC/FAC object (A40)."""
    if spared(state, cid, "cannot be the object of a scandal (§22)"):
        return
    c = state.chars[cid]
    owner = c.owner
    cards = []
    if exposer is not None and owner == exposer:
        cards.append(card_entry("informer", [owner], "pm", amount=1))
    else:
        if exposer is not None:
            cards.append(card_entry("informer", [exposer], -1))
        if owner is not None:
            cards.append(card_entry("informer", [owner], 1))
    w = f" ({why})" if why else ""
    log(state, f"{name(cid)} is the object of a scandal{w}; player {actor_for(state, cid)} rolls (§22).")
    spec = {
        "label": f"Scandal Table ({name(cid)})",
        "dice": "2d",
        "cards": cards,
        "clamp": CLAMP,
        "then": "justice_scandal_result",
        "then_args": {"cid": cid, "exposer": exposer},
    }
    seq(state, modified_roll(spec))


#: the order in which a Scandal / Assassination row's effect codes apply (``effects.apply_row``).
SCANDAL_ORDER: Final = ("lose_half_pp", "lose_half_ip", "trial", "hearing", "wrongdoing", "accuser_wrongdoing",
                 "no_effect")
ASSASSINATION_ORDER: Final = ("trial", "hearing", "wrongdoing", "assassinated")


@op("justice_scandal_result")
def justice_scandal_result(state: GameState, roll: dict[str, Any], cid: str, exposer: int | None) -> None:
    row = lookup(SCANDAL, roll["total"])
    log(state, f"Scandal Table {roll['total']}: {row['text']}")
    ctx = Ctx(cid=cid, why="scandal", params={"exposer": exposer})
    seq(state, *apply_row(state, row, SCANDAL_ORDER, ctx))


# ---------------------------------------------------------------------------
# Activity: Conduct An Assassination Attempt (§13.4.8, §14.5.7-§14.5.12, §21)
# ---------------------------------------------------------------------------


def _intrigue_subst(state: GameState) -> bool:
    return ruleset(state).intrigue_substitutes  # §14.5.7 (1981; not in the errata, D45)


def _assassins(state: GameState, p: int) -> list[str]:
    pcid = state.players[p].pc
    out = []
    for cid in [pcid] + henchmen(state, p):
        c = state.chars[cid]
        if not (c.dead or c.imprisoned or stuck_at_war(state, c)) and cid not in out:
            out.append(cid)
    return out


def _targets(state: GameState, p: int, assassin: str) -> list[str]:
    a = state.chars[assassin]
    hench_abroad = assassin != state.players[p].pc and abroad(a)
    out = []
    for cid, c in state.chars.items():
        if cid == assassin or cid == "thomas" or c.dead or c.imprisoned or c.hiding:
            continue
        if c.location != FANDONIA:
            if c.location != a.location or c.location in state.wars:
                continue  # §13.4.8, §20.6.3, §7.10.1
        elif hench_abroad:
            continue  # §17.6
        out.append(cid)
    return out


def _has_target(state: GameState, p: int, assassin: str) -> bool:
    a = state.chars[assassin]
    hench_abroad = assassin != state.players[p].pc and abroad(a)
    for cid, c in state.chars.items():
        if cid == assassin or cid == "thomas" or c.dead or c.imprisoned or c.hiding:
            continue
        if c.location != FANDONIA:
            if c.location == a.location and c.location not in state.wars:
                return True
        elif not hench_abroad:
            return True
    return False


def _assassination_cards_ok(state: GameState, p: int) -> bool:
    if waived(state):
        return True
    na = count_cards(state, p, "assassination")
    ni = count_cards(state, p, "intrigue") if _intrigue_subst(state) else 0
    if state.pt.get("intrigue", 0) > 0:
        return na + ni >= 1
    return ni >= 1 and na + ni >= 2


def _assassinate_legal(state: GameState, p: int) -> bool:
    if not _assassination_cards_ok(state, p):
        return False
    return any(_has_target(state, p, a) for a in _assassins(state, p))


@op("justice_assassinate")
def justice_assassinate(state: GameState, p: int) -> None:
    opts = [char_action(a) for a in _assassins(state, p) if _has_target(state, p, a)]
    seq(state, ask(p, "assassin", opts, "justice_assassin_chosen", {"activity": "assassinate"}, p=p))


@op("justice_assassin_chosen")
def justice_assassin_chosen(state: GameState, choice: int, p: int) -> None:
    assassin = NAME[choice][len("char_"):]
    opts = [char_action(t) for t in _targets(state, p, assassin)]
    seq(state, ask(p, "assassination_target", opts, "justice_assassin_target",
                   {"activity": "assassinate", "assassin": assassin}, p=p, assassin=assassin))


@op("justice_assassin_target")
def justice_assassin_target(state: GameState, choice: int, p: int, assassin: str) -> None:
    target = NAME[choice][len("char_"):]
    log(state, f"Player {p} designates {name(assassin)} to assassinate {name(target)} (§13.4.8).")
    args = {"p": p, "assassin": assassin, "target": target}
    if waived(state):
        seq(state, ("justice_assassination_roll", args))
        return
    na = count_cards(state, p, "assassination")
    ni = count_cards(state, p, "intrigue") if _intrigue_subst(state) else 0
    grant = state.pt.get("intrigue", 0) > 0
    if grant and ni >= 1 and (na >= 1 or ni >= 2):
        seq(state, ask(p, "intrigue_grant", [YES, ID["play_intrigue"]], "justice_assassin_grant",
                       {"activity": "assassinate"}, **args))
        return
    justice_assassin_grant(state, YES if grant else ID["play_intrigue"], **args)


@op("justice_assassin_grant")
def justice_assassin_grant(state: GameState, choice: int, p: int, assassin: str, target: str) -> None:
    if choice == YES:
        state.pt["intrigue"] -= 1
        log(state, f"Player {p} uses his Intrigue grant (§12.3.3).")
    else:
        discard(state, take_card(state, p, "intrigue"))
        log(state, f"Player {p} plays an 'Intrigue' card in place of an Intrigue counter (§14.5.7).")
    args = {"p": p, "assassin": assassin, "target": target}
    seq(state, ask(p, "assassination_card", card_options(state, p, "assassination"), "justice_assassin_card",
                   {"activity": "assassinate"}, **args))


@op("justice_assassin_card")
def justice_assassin_card(state: GameState, choice: int, p: int, assassin: str, target: str) -> None:
    _, shown = play_card(state, p, choice)
    rule = "§14.5.7" if choice == ID["play_intrigue_as_assassination"] else "§14.5.8"
    log(state, f"Player {p} plays {shown} ({rule}).")
    seq(state, ("justice_assassination_roll", {"p": p, "assassin": assassin, "target": target}))


@op("justice_assassination_roll")
def justice_assassination_roll(state: GameState, p: int, assassin: str, target: str) -> None:
    t = state.chars[target]
    cards = [
        card_entry("assassination", [p], 2),
        card_entry("treachery", "any", -2, max_total=1),
        card_entry("informer", "any", "pm", amount=2, max_total=1),
    ]
    if target in ROYALS or t.office is not None:
        cards.append(card_entry("palace_guards", "any", "pm", amount=2))
    else:
        cards.append(card_entry("personal_guards", "any", -2))
    base = -1 if target == state.monarch else 0
    spec = {
        "label": f"Assassination Table ({name(assassin)} against {name(target)})",
        "dice": "2d",
        "base": base,
        "cards": cards,
        "clamp": CLAMP,
        "then": "justice_assassination_result",
        "then_args": {"p": p, "assassin": assassin, "target": target},
    }
    seq(state, modified_roll(spec))


@op("justice_assassination_result")
def justice_assassination_result(state: GameState, roll: dict[str, Any], p: int, assassin: str,
                                 target: str) -> None:
    row = lookup(ASSASSINATION, roll["total"])
    log(state, f"Assassination Table {roll['total']}: {row['text']}")
    ctx = Ctx(cid=assassin, why="caught assassin", params={"target": target})
    seq(state, *apply_row(state, row, ASSASSINATION_ORDER, ctx))


# ---------------------------------------------------------------------------
# Activity: Expose A Scandal (§13.4.9)
# ---------------------------------------------------------------------------


def _scandal_object(cid: str, c: Character) -> bool:
    return cid not in ROYALS and not c.dead


def _expose_legal(state: GameState, p: int) -> bool:
    return waived(state) or state.pt.get("scandal", 0) > 0


@op("justice_expose")
def justice_expose(state: GameState, p: int) -> None:
    opts = [char_action(cid) for cid, c in state.chars.items() if _scandal_object(cid, c)]
    seq(state, ask(p, "scandal_target", opts, "justice_expose_target", {"activity": "expose_scandal"}, p=p))


@op("justice_expose_target")
def justice_expose_target(state: GameState, choice: int, p: int) -> None:
    cid = NAME[choice][len("char_"):]
    if not waived(state):
        state.pt["scandal"] -= 1
    log(state, f"Player {p} exposes a scandal about {name(cid)} (§13.4.9).")
    seq(state, ("scandal", {"cid": cid, "exposer": p, "why": "Expose A Scandal"}))


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

registry.activity("assassinate", _assassinate_legal, "justice_assassinate")
registry.activity("expose_scandal", _expose_legal, "justice_expose")

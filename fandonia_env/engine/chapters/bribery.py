"""ES §13.4.20 Bribery (errata edition only, ruling R1): D42 taking bribes and D43 bribing a
NC Office Holder, with the readings of A27.

Free actions registered here (both not activities, both once per turn):

* ``take_bribe`` (D42): a PC who holds an Office or is a Monarch's Counselor demands a bribe
  of 1-6 IP.  One die: greater than the bribe -> he gains the bribe; otherwise he gets
  nothing and the PC is accused of wrongdoing, the bribe being added to the wrongdoing roll
  and, if he is sent to a hearing, to the hearing roll (the ``bribe`` argument of the
  justice operation ``accuse``).
* ``offer_bribe`` (D43, A27): the player names a NC Office Holder in the same country as his
  PC or one of his henchmen, and an amount of IP.  One die: a natural 6 fails (A27 ii) and
  both the NC and the offering PC/henchman are accused (the amount modifying their
  wrongdoing and hearing rolls, A27 iii); otherwise at most the amount -> accepted, the IP
  goes to the bank (A27 vi); more than the amount -> refused, nothing paid.  A NC who
  accepted modifies one problem-resolution or counseling roll he could modify were he a FAC
  by +1 or -1 as the briber wishes (a sign declared by the briber, §2.3): the next such roll,
  until the end of the next Political Problems Phase (A27 iv).  The hooks that add that sign
  are :func:`bribe_signs`, called by ``problems.roll_spec`` and ``counsel.modifier_signs``.

Bookkeeping: ``state.tstate["bribe_taken"]`` / ``["bribe_offered"]`` (players who used the
action this game turn), ``state.tstate["bribe_accepted"]`` (NCs successfully bribed this
turn), ``state.misc["bribery_bought"]`` {cid: {"p", "turn"}} (the bought modifier) and
``state.misc["bribe_hearing"]`` {cid: amount} (the hearing modifier, set by ``accuse``).

Readings:

* Reading (D42): the demanded IP comes from the bank; the roll is a plain die that nobody
  may modify (the ES text names no modifier); only the PC himself qualifies (A27 viii), and
  demanding needs no IP; 6 may be demanded (and then always fails, 1d > 6 being impossible).
* Reading (D43): "once per turn" is once per game turn for each player (one Player Turn a
  game turn); the offering character is the player's PC or a henchman (the clause on a 6
  names "the PC or henchman who offered"), alive, not imprisoned, in hiding or banished, and
  in the same country as the NC; the NC must be a living Office Holder (Minister or
  Ambassador, A27 v) not already successfully bribed this turn; the amount offered must be
  spendable now (A27 vii: none in a Famine, the crisis cap); the die is plain.
* Reading: an accusation that waits because the character is stuck in a country at war
  (A61) loses the bribe modifier.
"""

from __future__ import annotations

from typing import Final

from ..core import chance, registry
from ..core.actions import ID, NAME, action_char, char_action
from ..core.machine import ask, log, op, seq
from ..core.state import GameState
from ..data.components import OFFICES, ROYALS
from ..rules.queries import can_spend, gain_ip, henchmen, ip_spendable, name, pc, spend_ip
from ..rules.ruleset import ruleset

AMOUNTS: Final = tuple(ID[f"amount_{k}"] for k in range(1, 7))


def amount_of(choice: int) -> int:
    return int(NAME[choice][len("amount_"):])


# ---------------------------------------------------------------------------
# D42 Taking bribes
# ---------------------------------------------------------------------------


def _legal_take(state: GameState, p: int) -> bool:
    """The errata's check (``Ruleset.take_bribe_legal_hook``; 1981: ``not_in_this_game``)."""
    return registry.HOOKS[ruleset(state).take_bribe_legal_hook](state, p)


@registry.hook("take_bribe_legal")
def take_bribe_legal(state: GameState, p: int) -> bool:
    """D42: once a turn, a PC who holds an Office or is a Monarch's Counselor."""
    if p in state.tstate.get("bribe_taken", ()):
        return False
    c = pc(state, p)
    return not c.dead and (c.office is not None or c.counselor_card is not None)


@op("bribe_take")
def bribe_take(state: GameState, p: int) -> None:
    state.tstate.setdefault("bribe_taken", []).append(p)
    seq(state, ask(p, "bribe_demand", list(AMOUNTS), "bribe_take_amount", {"rule": "take_bribe"}, p=p))


@op("bribe_take_amount")
def bribe_take_amount(state: GameState, choice: int, p: int) -> None:
    amount = amount_of(choice)
    cid = pc(state, p).cid
    n = chance.d6(state, "bribe demanded (ES §13.4.20)")
    if n > amount:
        log(state, f"{name(cid)} demands a bribe of {amount} IP: player {p} rolls {n}, greater than "
                   f"{amount}: the bribe is received (ES §13.4.20).")
        gain_ip(state, p, amount, "a bribe")
        return
    log(state, f"{name(cid)} demands a bribe of {amount} IP: player {p} rolls {n}, not greater than "
               f"{amount}: no IP, and {name(cid)} is accused of wrongdoing (ES §13.4.20).")
    seq(state, ("accuse", {"cid": cid, "why": "demanding a bribe", "bribe": amount}))


# ---------------------------------------------------------------------------
# D43 Bribing a NC Office Holder
# ---------------------------------------------------------------------------


def _offerers(state: GameState, p: int) -> list[str]:
    out = []
    for cid in [pc(state, p).cid] + henchmen(state, p):
        c = state.chars[cid]
        if not (c.dead or c.imprisoned or c.hiding or c.banished) and cid not in out:
            out.append(cid)
    return out


def _bribable(state: GameState) -> list[str]:
    """Living NC Office Holders (Ministers, Ambassadors: A27 v) not bribed this turn."""
    done = state.tstate.get("bribe_accepted", ())
    out = []
    for cid, c in state.chars.items():
        if c.office is None or c.office == "monarch" or c.owner is not None or c.is_pc:
            continue
        if c.dead or cid in ROYALS or cid in done:
            continue
        out.append(cid)
    return out


def _pairs(state: GameState, p: int) -> dict[str, list[str]]:
    offs = _offerers(state, p)
    out: dict[str, list[str]] = {}
    for t in _bribable(state):
        loc = state.chars[t].location
        here = [o for o in offs if state.chars[o].location == loc]
        if here:
            out[t] = here
    return out


def _legal_offer(state: GameState, p: int) -> bool:
    """The errata's check (``Ruleset.offer_bribe_legal_hook``; 1981: ``not_in_this_game``)."""
    return registry.HOOKS[ruleset(state).offer_bribe_legal_hook](state, p)


@registry.hook("offer_bribe_legal")
def offer_bribe_legal(state: GameState, p: int) -> bool:
    """D43: once a turn, One IP to spend, a bribable NC Office Holder beside his PC or a henchman."""
    if p in state.tstate.get("bribe_offered", ()) or not can_spend(state, p, 1):
        return False
    return bool(_pairs(state, p))


@op("bribe_offer")
def bribe_offer(state: GameState, p: int) -> None:
    state.tstate.setdefault("bribe_offered", []).append(p)
    opts = [char_action(t) for t in _pairs(state, p)]
    seq(state, ask(p, "bribe_target", opts, "bribe_offer_target", {"rule": "offer_bribe"}, p=p))


@op("bribe_offer_target")
def bribe_offer_target(state: GameState, choice: int, p: int) -> None:
    target = action_char(choice)
    opts = [char_action(o) for o in _pairs(state, p)[target]]
    seq(state, ask(p, "bribe_offerer", opts, "bribe_offer_offerer", {"rule": "offer_bribe", "target": target},
                   p=p, target=target))


@op("bribe_offer_offerer")
def bribe_offer_offerer(state: GameState, choice: int, p: int, target: str) -> None:
    offerer = action_char(choice)
    top = min(6, ip_spendable(state, p))
    seq(state, ask(p, "bribe_amount", list(AMOUNTS[:top]), "bribe_offer_amount",
                   {"rule": "offer_bribe", "target": target}, p=p, target=target, offerer=offerer))


@op("bribe_offer_amount")
def bribe_offer_amount(state: GameState, choice: int, p: int, target: str, offerer: str) -> None:
    amount = amount_of(choice)
    office = OFFICES[state.chars[target].office].name  # type: ignore[index]
    n = chance.d6(state, "bribe offered (ES §13.4.20)")
    head = (f"player {p}'s {name(offerer)} offers {name(target)} ({office}) a bribe of {amount} IP: "
            f"player {p} rolls {n}")
    if n == 6:
        log(state, f"{head}: a 6, the bribe fails; both are accused of wrongdoing (ES §13.4.20, A27 ii).")
        seq(state, ("accuse", {"cid": target, "why": "taking a bribe", "bribe": amount}),
            ("accuse", {"cid": offerer, "why": "offering a bribe", "bribe": amount}))
        return
    if n > amount:
        log(state, f"{head}, more than {amount}: the bribe is refused, nothing is paid (ES §13.4.20).")
        return
    log(state, f"{head}, not more than {amount}: the bribe is accepted (ES §13.4.20).")
    spend_ip(state, p, amount, f"a bribe to {name(target)} (to the bank, A27 vi)")
    state.tstate.setdefault("bribe_accepted", []).append(target)
    state.misc.setdefault("bribery_bought", {})[target] = {"p": p, "turn": state.turn}
    log(state, f"{name(target)} will modify the next problem-resolution or counseling roll he could "
               f"modify were he a FAC by +1 or -1 as player {p} wishes (ES §13.4.20, A27 iv).")


registry.free_action("take_bribe", _legal_take, "bribe_take")
registry.free_action("offer_bribe", _legal_offer, "bribe_offer")

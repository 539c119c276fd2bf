"""§38 optional activities: Gaining Foreign Support, Gaining Fandonian Support, Emissaries,
and Blackmail (with errata D94).  The ``Ruleset`` names the procedures that apply (issue 29):
each activity's legality check (``<activity>_legal_hook``: the rule's own, or
``not_in_this_game`` when its switch is off), the intrigue step (``intrigue_hook``) and the DOWN
WITH THE KING card a blackmailer draws (``blackmail_dwtk_hook``: 1981 or D94).

Activities registered here: ``foreign_support``, ``fandonian_support``, ``emissary``.
Operation: ``blackmail_offer`` {p, victim}, scheduled by the hook ``blackmail_offered`` (the
Blackmail rule's ``intrigue_hook``, run by ``crown.intrigue_draw``) whenever a player is in
the position to intrigue a card from an opponent's hand (Crown Events Intrigue §8.4.3, the
activity §13.4.12, and the Intrigue counsel).

* Foreign Support: a player with a PC/FAC abroad in a country not at war names the country
  and rolls one die on the Foreign Support Table (column: the number of his PC and FACs in
  that country, 4+ the last).  Success: he receives that country's 'Foreign Support' card if
  another player holds it or it lies in the discard pile; otherwise (still in the Event deck,
  or in his own hand) nothing.
* Fandonian Support (items a-g, ``FANDONIAN_SUPPORT_ELIGIBILITY``): a player whose PC or FAC
  is the named character or holds the named office names the Support card and rolls one
  die on the Fandonian Support Table (6: successful).  Success: he receives every card of
  that type held by other players or in the discard pile.
* Emissaries (A52): a player whose PC or a FAC is the Minister Of State or an Ambassador
  names a FAC, EAC or NC in Fandonia and a country not at war, and rolls one die on the
  Emissary Table (3-6: successful): the character is placed in that country (this travel is
  not an activity) and stays there until it travels back (A52: a NC/EAC emissary stays
  abroad until recruited, moved by another rule, or returned by its owner's Travel).
  ``state.misc["emissary"]`` records {cid: country} of each character sent.
* Blackmail: instead of drawing, the player may ask the opponent for One IP.  The opponent
  pays (the player may not draw a card from his hand for the rest of the turn:
  ``state.tstate["blackmail_paid"]`` lists [p, victim]) or refuses; then the player draws a
  card at random and either discards it or keeps it, even an illegal card.

Readings:

* Reading (Foreign Support): the PC and FACs counted are those alive in that country and not
  imprisoned or in hiding (banished ones count); "held by another player" means in his hand
  (Support cards lying in front of a player after a usurpation, §14.5.2, are played cards);
  a country whose card the player holds himself is not offered.  The die is plain (no rule
  modifies it).  Besyzan has no 'Foreign Support' card (§2.1.4), so it is never offered.
* Reading (Fandonian Support): "a player with the Sheriff..." means the character is his PC
  or FAC, alive and not imprisoned, or (for an office) his PC or FAC holds it; a type of
  which he holds every card is not offered; on success every such card held by another
  player or discarded is received (the text's "card/s").
* Reading (Emissaries): PCs are not emissaries (the rule lists "FAC, EAC, or NC"); "not
  allowed to travel" excludes §20.7 characters, Ambassadors and their wives (§20.4), a
  Minister who failed a problem (§20.3) and a character who already travelled this turn
  (§20.1, as for the Travel activity); the King/Queen consort, a NRC (§9.2, §18.10), is
  excluded with the RCs; "only one character may be designated in one turn"
  is one character per activity (an activity is performed at most once per Player Turn,
  §13.1); the emissary counts as having travelled this turn (§20.1).
* Reading (Blackmail): the opponent may pay only if he can spend One IP (§34.6-§34.7); the
  IP goes to the blackmailer; the card drawn on a refusal is seen by the two players only,
  and shown to all if discarded (§14.2.2); nobody is accused for it.  1981 edition: the
  DOWN WITH THE KING card never leaves its owner (§14.2.8; each player holds one), so if it
  is drawn it stays and, as when it is intrigued (§14.5.1), its owner's PC is accused of
  wrongdoing (+2).  Errata (D94): it is returned and another card is drawn.
"""

from __future__ import annotations

from typing import Final

from ..core import chance, registry
from ..core.actions import ID, NO, YES, action_char, char_action, suffix
from ..core.machine import ask, log, op, seq
from ..core.state import GameState
from ..data.components import (
    CARD_TYPE_OF,
    CARD_TYPES,
    COUNTRIES,
    COUNTRY_NAMES,
    FANDONIA,
    NEVER_ABROAD,
    OFFICES,
    ROYALS,
)
from ..data.tables import EMISSARY, FANDONIAN_SUPPORT, FANDONIAN_SUPPORT_ELIGIBILITY, FOREIGN_SUPPORT, lookup
from ..rules.queries import can_spend, discard, gain_ip, name, pc, spend_ip
from ..rules.ruleset import ruleset

AMBASSADOR_OFFICES: Final = tuple(k for k, o in OFFICES.items() if o.country)


def _own(state: GameState, p: int) -> list[str]:
    """p's PC and FACs (not RCs), alive."""
    return [cid for cid, c in state.chars.items() if c.owner == p and cid not in ROYALS and not c.dead]


def _ready(state: GameState, cid: str) -> bool:
    c = state.chars[cid]
    return not (c.dead or c.imprisoned or c.hiding)


def _card_elsewhere(state: GameState, p: int, ctype: str) -> list[tuple[int | None, str]]:
    """Cards of ``ctype`` held by players other than p (hands) or in the discard pile:
    [(holder or None for the discard pile, card id)]."""
    out: list[tuple[int | None, str]] = []
    for pl in state.players:
        if pl.idx != p:
            out += [(pl.idx, c) for c in pl.hand if CARD_TYPE_OF[c] == ctype]
    out += [(None, c) for c in state.discard if CARD_TYPE_OF[c] == ctype]
    return out


def _receive(state: GameState, p: int, ctype: str, table: str) -> None:
    cname = CARD_TYPES[ctype].name
    got = _card_elsewhere(state, p, ctype)
    if not got:
        log(state, f"{table}: no '{cname}' card is held by another player or in the discard pile: "
                   f"player {p} receives nothing (§38).")
        return
    for holder, card in got:
        if holder is None:
            state.discard.remove(card)
            src = "the discard pile"
        else:
            state.players[holder].hand.remove(card)
            src = f"player {holder}'s hand"
        state.players[p].hand.append(card)
        log(state, f"Player {p} receives the '{cname}' card from {src} (§38).")


# ---------------------------------------------------------------------------
# Gaining Foreign Support
# ---------------------------------------------------------------------------


def _fs_count(state: GameState, p: int, country: str) -> int:
    return sum(1 for cid in _own(state, p) if state.chars[cid].location == country and _ready(state, cid))


def _fs_countries(state: GameState, p: int) -> list[str]:
    hand = {CARD_TYPE_OF[c] for c in state.players[p].hand}
    return [k for k in COUNTRIES if k not in state.wars and f"foreign_support_{k}" in CARD_TYPES
            and f"foreign_support_{k}" not in hand and _fs_count(state, p, k) > 0]


def _legal_foreign(state: GameState, p: int) -> bool:
    """``Ruleset.foreign_support_legal_hook``: :func:`foreign_support_legal`, or ``not_in_this_game``."""
    return registry.HOOKS[ruleset(state).foreign_support_legal_hook](state, p)


@registry.hook("foreign_support_legal")
def foreign_support_legal(state: GameState, p: int) -> bool:
    return bool(_fs_countries(state, p))


@op("opt_foreign_support")
def opt_foreign_support(state: GameState, p: int) -> None:
    opts = [ID[f"country_{k}"] for k in _fs_countries(state, p)]
    seq(state, ask(p, "foreign_support_country", opts, "opt_foreign_support_country",
                   {"activity": "foreign_support"}, p=p))


@op("opt_foreign_support_country")
def opt_foreign_support_country(state: GameState, choice: int, p: int) -> None:
    country = suffix(choice, "country_")
    n = _fs_count(state, p, country)
    col = min(n, 4)
    die = chance.d6(state, "Foreign Support Table (§38)")
    ok = FOREIGN_SUPPORT["grid"][die][col - 1]
    label = f"{col}+" if col == 4 else str(col)
    log(state, f"Player {p} seeks the support of {COUNTRY_NAMES[country]}: Foreign Support Table, "
               f"{label} FAC(s) in the country, die {die}: " + ("Successful." if ok else "— (no effect)."))
    if ok:
        _receive(state, p, f"foreign_support_{country}", "Foreign Support")


# ---------------------------------------------------------------------------
# Gaining Fandonian Support (a-g)
# ---------------------------------------------------------------------------


def _fan_types(state: GameState, p: int) -> list[str]:
    mine = _own(state, p)
    offices = {state.chars[cid].office for cid in mine}
    out = []
    for ctype, el in FANDONIAN_SUPPORT_ELIGIBILITY.items():
        ok = any(o in offices for o in el["offices"]) or any(
            str(n) in mine and _ready(state, str(n)) for n in el["characters"])
        if not ok:
            continue
        held = sum(1 for c in state.players[p].hand if CARD_TYPE_OF[c] == ctype)
        if held < CARD_TYPES[ctype].count:
            out.append(ctype)
    return out


def _legal_fandonian(state: GameState, p: int) -> bool:
    """``Ruleset.fandonian_support_legal_hook``: :func:`fandonian_support_legal`, or ``not_in_this_game``."""
    return registry.HOOKS[ruleset(state).fandonian_support_legal_hook](state, p)


@registry.hook("fandonian_support_legal")
def fandonian_support_legal(state: GameState, p: int) -> bool:
    return bool(_fan_types(state, p))


@op("opt_fandonian_support")
def opt_fandonian_support(state: GameState, p: int) -> None:
    opts = [ID[f"fandonian_support_{t}"] for t in _fan_types(state, p)]
    seq(state, ask(p, "fandonian_support_card", opts, "opt_fandonian_support_card",
                   {"activity": "fandonian_support"}, p=p))


@op("opt_fandonian_support_card")
def opt_fandonian_support_card(state: GameState, choice: int, p: int) -> None:
    ctype = suffix(choice, "fandonian_support_")
    die = chance.d6(state, "Fandonian Support Table (§38)")
    row = lookup(FANDONIAN_SUPPORT, die)
    log(state, f"Player {p} seeks the '{CARD_TYPES[ctype].name}' card(s): Fandonian Support Table, die {die}: "
               f"{row['text']}.")
    if row["success"]:
        _receive(state, p, ctype, "Fandonian Support")


# ---------------------------------------------------------------------------
# Emissaries (A52)
# ---------------------------------------------------------------------------


def _has_envoy_office(state: GameState, p: int) -> bool:
    for cid in _own(state, p):
        o = state.chars[cid].office
        if o == "minister_of_state" or o in AMBASSADOR_OFFICES:
            return True
    return False


def _no_travel(state: GameState, cid: str) -> bool:
    """§20.3, §20.4, §20.7: characters not allowed to travel."""
    c = state.chars[cid]
    if cid in NEVER_ABROAD or c.failed_problem or c.office in AMBASSADOR_OFFICES:
        return True
    return c.spouse is not None and state.chars[c.spouse].office in AMBASSADOR_OFFICES


def _emissary_candidates(state: GameState, p: int) -> list[str]:
    out = []
    for cid, c in state.chars.items():
        if cid in ROYALS or c.consort or c.is_pc or c.dead or c.location != FANDONIA:
            continue  # the King/Queen consort is a NRC (§9.2, §18.10): "RCs may not be emissaries"
        if c.banished or c.imprisoned or c.hiding or _no_travel(state, cid):
            continue
        if c.travel_turn == state.turn:
            continue  # §20.1: he travelled (came home) this turn and may not travel again
        out.append(cid)
    return out


def _emissary_countries(state: GameState) -> list[str]:
    return [k for k in COUNTRIES if k not in state.wars]


def _legal_emissary(state: GameState, p: int) -> bool:
    """``Ruleset.emissary_legal_hook``: :func:`emissary_legal`, or ``not_in_this_game``."""
    return registry.HOOKS[ruleset(state).emissary_legal_hook](state, p)


@registry.hook("emissary_legal")
def emissary_legal(state: GameState, p: int) -> bool:
    if not _has_envoy_office(state, p) or not _emissary_countries(state):
        return False
    return bool(_emissary_candidates(state, p))


@op("opt_emissary")
def opt_emissary(state: GameState, p: int) -> None:
    opts = [char_action(c) for c in _emissary_candidates(state, p)]
    seq(state, ask(p, "emissary_character", opts, "opt_emissary_char", {"activity": "emissary"}, p=p))


@op("opt_emissary_char")
def opt_emissary_char(state: GameState, choice: int, p: int) -> None:
    cid = action_char(choice)
    opts = [ID[f"country_{k}"] for k in _emissary_countries(state)]
    seq(state, ask(p, "emissary_country", opts, "opt_emissary_country",
                   {"activity": "emissary", "target": cid}, p=p, cid=cid))


@op("opt_emissary_country")
def opt_emissary_country(state: GameState, choice: int, p: int, cid: str) -> None:
    country = suffix(choice, "country_")
    die = chance.d6(state, "Emissary Table (§38)")
    row = lookup(EMISSARY, die)
    log(state, f"Player {p} asks that {name(cid)} be made an emissary to {COUNTRY_NAMES[country]}: "
               f"Emissary Table, die {die}: {row['text']}.")
    if not row["success"]:
        return
    c = state.wchar(cid)
    c.location = country
    c.travel_turn = state.turn
    state.misc.setdefault("emissary", {})[cid] = country
    log(state, f"{name(cid)} travels to {COUNTRY_NAMES[country]} as an emissary (not an activity; he must "
               "travel to return, §38).")


# ---------------------------------------------------------------------------
# Blackmail (D94)
# ---------------------------------------------------------------------------


@registry.hook("blackmail_offered")
def blackmail_offered(state: GameState, p: int, victim: int) -> None:
    """§38 Blackmail (``Ruleset.intrigue_hook``): p, who may intrigue a card from the victim's
    hand, may blackmail him instead (``crown.intrigue_draw`` has checked the hand)."""
    seq(state, ("blackmail_offer", {"p": p, "victim": victim}))


@op("blackmail_offer")
def blackmail_offer(state: GameState, p: int, victim: int) -> None:
    if [p, victim] in state.tstate.get("blackmail_paid", []):
        log(state, f"Player {victim} paid player {p} blackmail this turn: player {p} may not draw a card "
                   "from his hand for the rest of the turn (§38 Blackmail).")
        return
    seq(state, ask(p, "blackmail_choice", [YES, NO], "blackmail_choice",
                   {"victim_rel": (victim - p) % state.n, "hand_size": len(state.players[victim].hand)},
                   p=p, victim=victim))


@op("blackmail_choice")
def blackmail_choice(state: GameState, choice: int, p: int, victim: int) -> None:
    if choice == NO:
        seq(state, ("intrigue_draw", {"p": p, "victim": victim, "blackmail_asked": True}))
        return
    log(state, f"Player {p} blackmails player {victim}: One IP, or he draws a card from his hand (§38).")
    opts = ([YES] if can_spend(state, victim, 1) else []) + [NO]
    seq(state, ask(victim, "blackmail_pay", opts, "blackmail_pay",
                   {"blackmailer_rel": (p - victim) % state.n}, p=p, victim=victim))


@op("blackmail_pay")
def blackmail_pay(state: GameState, choice: int, p: int, victim: int) -> None:
    if choice == YES:
        spend_ip(state, victim, 1, f"blackmail to player {p}")
        gain_ip(state, p, 1, "blackmail")
        state.tstate.setdefault("blackmail_paid", []).append([p, victim])
        log(state, f"Player {victim} pays the blackmail: player {p} may not draw a card from his hand for "
                   "the rest of the turn (§38).")
        return
    log(state, f"Player {victim} refuses to pay: player {p} draws a card from his hand (§38).")
    hand = state.players[victim].hand
    card = chance.pick(state, hand, f"a card drawn by a blackmailer from player {victim}'s hand (§38)")
    if CARD_TYPE_OF[card] == "dwtk":  # the ruleset's procedure: 1981 (it stays) or D94 (another card)
        drawn: str | None = registry.HOOKS[ruleset(state).blackmail_dwtk_hook](state, p, victim, card)
        if drawn is None:
            return
        card = drawn
    hand.remove(card)
    state.players[p].hand.append(card)
    ctype = CARD_TYPE_OF[card]
    for q in (p, victim):
        log(state, f"Player {p} draws '{CARD_TYPES[ctype].name}' from player {victim}'s hand.", to=q)
    seq(state, ask(p, "blackmail_keep", [YES, NO], "blackmail_keep", {"card": ctype}, p=p, card=card))


@registry.hook("blackmail_dwtk_stays")
def blackmail_dwtk_stays(state: GameState, p: int, victim: int, card: str) -> str | None:
    """1981 (§14.2.8, §14.5.1): the DOWN WITH THE KING card stays with its owner, whose PC is
    accused of wrongdoing (+2); the blackmailer gets no card (None)."""
    log(state, f"Player {p} draws player {victim}'s DOWN WITH THE KING card: it stays with its owner "
               "(§14.2.8), whose PC is accused of wrongdoing (+2, §14.5.1).")
    c = pc(state, victim)
    if not c.dead:
        seq(state, ("accuse", {"cid": c.cid, "dwtk": True,
                               "why": "his DOWN WITH THE KING card drawn by a blackmailer (+2, §14.5.1)"}))
    return None


@registry.hook("blackmail_dwtk_redrawn")
def blackmail_dwtk_redrawn(state: GameState, p: int, victim: int, card: str) -> str | None:
    """D94 (ES §38 Blackmail): the card is returned and the blackmailer draws another (returned)."""
    log(state, f"Player {p} draws the DOWN WITH THE KING card: it is returned and he draws another "
               "(ES §38 Blackmail, D94).")
    others = [c for c in state.players[victim].hand if c != card]
    return chance.pick(state, others, f"another card drawn from player {victim}'s hand (D94)")


@op("blackmail_keep")
def blackmail_keep(state: GameState, choice: int, p: int, card: str) -> None:
    """YES: keep the card (even an illegal one); NO: discard it (shown to all, §14.2.2)."""
    if choice == YES:
        log(state, f"Player {p} keeps the card he drew (§38 Blackmail).")
        return
    state.players[p].hand.remove(card)
    discard(state, card)
    log(state, f"Player {p} discards the card he drew: '{CARD_TYPES[CARD_TYPE_OF[card]].name}' (§14.2.2).")


registry.activity("foreign_support", _legal_foreign, "opt_foreign_support")
registry.activity("fandonian_support", _legal_fandonian, "opt_fandonian_support")
registry.activity("emissary", _legal_emissary, "opt_emissary")

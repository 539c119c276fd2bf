"""Steps of a Player Turn that several chapters take (§10-§14): the activities left, base
activities, draws, discards over the hand limit, an ambassador placed abroad, the Intrigue and
Any Activity counters (§12.3), offices one may hold, joining a faction.  Vocabulary: the
chapters import these, never each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import chance, registry
from ..core.actions import ID
from ..core.machine import log, seq
from ..core.records import mark_restricted
from ..core.state import Character, GameState
from ..data.components import CARD_TYPE_OF, CARD_TYPES, NOBLES, OFFICES, OPPORTUNITY_TYPE_OF, OPPORTUNITY_TYPES, ROYALS
from .queries import (
    discard,
    gain_ip,
    has_card,
    lose_ip,
    name,
    pc,
    pp_required_with,
    pull_loyalty_counter,
    stuck_at_war,
    take_card,
)
from .ruleset import ruleset


def place_ambassador(state: GameState, cid: str) -> None:
    """§20.4: ambassadors (and their wives) are abroad in their country."""
    c = state.chars[cid]
    country = OFFICES[c.office].country if c.office else None
    if country:
        c = state.wchar(cid)
        c.location = country
        sp = state.chars[c.spouse] if c.spouse else None
        # the wife follows unless a PC, a royal (never abroad, §20.7) or not free to travel
        if (sp is not None and not sp.is_pc and sp.cid in NOBLES and not sp.dead
                and not (sp.banished or sp.imprisoned or sp.hiding or sp.location in state.wars)):
            state.wchar(sp.cid).location = country


@registry.hook("not_in_this_game")  # ruleset.NOT_IN_THIS_GAME
def not_in_this_game(state: GameState, p: int) -> bool:
    """The legality check of an optional activity or free action whose rule is off (the
    ``Ruleset`` names it instead of the rule's own check, e.g. ``foreign_support_legal_hook``)."""
    return False


def restricted(state: GameState, p: int) -> bool:
    """§13.1, §24.3, §29.2, §30.2: PC banished, imprisoned or in hiding."""
    c = pc(state, p)
    return c.banished or c.imprisoned or c.hiding


def do_draw(state: GameState, p: int, what: str) -> None:
    """Draw a counter or card (§11, §12, §14) and apply an Opportunity counter's effect."""
    pl = state.players[p]
    if what == "loyalty":
        if not state.loyalty_pool:
            log(state, f"No Loyalty counters are left: player {p} gains One IP instead (§11.4).")
            gain_ip(state, p, 1, "no Loyalty counters left")
            return
        lc = chance.draw(state, "loyalty", f"player {p}'s Loyalty counter draw (§11)")
        pl.loyalty_drawn.append(lc)  # type: ignore[arg-type]
        log(state, f"Player {p} draws a Loyalty counter.")
        log(state, f"You drew the Loyalty counter {lc} ({name(lc)}).", to=p)  # type: ignore[arg-type]
    elif what == "opportunity":
        if not state.opportunity_pool:
            log(state, f"No Opportunity counters are left for player {p}.")
            return
        oc = chance.draw(state, "opportunity", f"player {p}'s Opportunity counter draw (§12)")
        pl.opportunity_drawn.append(oc)  # type: ignore[arg-type]
        kind = OPPORTUNITY_TYPE_OF[oc]  # type: ignore[index]
        log(state, f"Player {p} draws an Opportunity counter.")
        log(state, f"You drew the Opportunity counter '{OPPORTUNITY_TYPES[kind][0]}'.", to=p)
        _opportunity_effect(state, p, kind)
    elif what == "event":
        card = chance.draw(state, "event", f"player {p}'s Event card draw (§14)")
        if card is None:
            log(state, f"No Event cards are left for player {p} to draw.")
            return
        pl.hand.append(card)
        log(state, f"Player {p} draws an Event card.")
        log(state, f"You drew '{CARD_TYPES[CARD_TYPE_OF[card]].name}'.", to=p)
    else:
        raise ValueError(what)


def _opportunity_effect(state: GameState, p: int, kind: str) -> None:
    """§12.3."""
    pt = state.pt
    if kind == "gain_ip":
        log(state, f"Player {p} reveals 'Gain One IP'.")
        gain_ip(state, p, 1, "Opportunity counter")
    elif kind == "favor":
        gain_ip(state, p, 1, "Opportunity counter")
        pt["favor"] = True
    elif kind == "gout":
        log(state, f"Player {p} has the Gout: he loses One IP and may perform no more activities (§12.3.7).")
        lose_ip(state, p, 1, "Gout")
        pt["no_more"] = True
    elif kind == "duel":
        log(state, f"Player {p} must fight a duel and may perform no more activities (§12.3.6).")
        pt["no_more"] = True
        seq(state, ("duel", {"player": p, "cid": None, "source": "counter"}))
    elif kind == "any_activity":
        pt["any_activity"] += 1
    elif kind == "extra_activity":
        pt["extra"] += 1
    elif kind == "intrigue":
        pt["intrigue"] += 1
    elif kind == "scandal":
        pt["scandal"] += 1


def base_activities(state: GameState) -> int:
    """Activities per Player Turn before extras: two (§13.1), three with Shorter Game d (§38)."""
    return ruleset(state).activities_per_turn


def activities_left(state: GameState) -> int:
    pt = state.pt
    if pt["no_more"]:
        return 0
    if not pt["restricted"] and restricted(state, pt["player"]):
        # §13.1: the PC was banished, imprisoned or sent into hiding during this turn
        pt["restricted"] = True
        mark_restricted(state.tstate, pt["player"])
    if pc(state, pt["player"]).imprisoned:
        pt["imprisoned"] = True  # §30.3
    base = base_activities(state)
    if pt["restricted"]:
        return max(0, 1 - len(pt["done"]))  # never more than one, free ones included (§24.3, §29.2)
    total = base + pt["extra"]
    return max(0, total - (len(pt["done"]) - pt.get("free_used", 0)))


def uses_intrigue(state: GameState, p: int) -> bool:
    """The player may perform an Intrigue-counter activity (§12.3.3): he drew the
    counter, or got a free intrigue, or performs it under an Any Activity waiver."""
    pt = state.pt
    return bool(pt.get("waiver")) or pt.get("intrigue", 0) > 0


def waived(state: GameState) -> bool:
    return bool(state.pt.get("waiver"))


def card_or_waiver(state: GameState, p: int, ctype: str) -> bool:
    """p holds the ``ctype`` card an activity needs, or this turn's waiver spares it."""
    return waived(state) or has_card(state, p, ctype)


def spend_card(state: GameState, p: int, ctype: str, title: str) -> None:
    """Unless waived, p's ``ctype`` card is discarded: "Player p plays ``title`` card." is logged."""
    if not waived(state):
        discard(state, take_card(state, p, ctype))
        log(state, f"Player {p} plays {title} card.")


def discard_options(state: GameState, p: int) -> list[int]:
    types = {CARD_TYPE_OF[c] for c in state.players[p].hand}
    types.discard("dwtk")  # §14.2.8 never discarded
    return sorted(ID[f"discard_{t}"] for t in types)


def forced_discards(state: GameState, p: int, n: int) -> list[str] | None:
    """Ruling R14 (R10): the cards p gives up when he must discard ``n`` Event cards and has
    no real choice - he holds no more than ``n`` cards that may be discarded (never DOWN WITH
    THE KING, §14.2.8, A39), or they are all of one type - in the order of his hand; None when
    different discards would leave different hands (then he is asked, card by card)."""
    cards = [c for c in state.players[p].hand if CARD_TYPE_OF[c] != "dwtk"]
    if len(cards) <= n or len({CARD_TYPE_OF[c] for c in cards}) == 1:
        return cards[:n]
    return None


def discard_forced(state: GameState, p: int, cards: list[str], why: str) -> None:
    """Discard ``cards`` from p's hand without a decision (ruling R14), each shown to all (§14.2.2)."""

    hand = state.players[p].hand
    for card in cards:
        hand.remove(card)
        discard(state, card)
        log(state, f"Player {p} discards '{CARD_TYPES[CARD_TYPE_OF[card]].name}' ({why}).")


def blocked(state: GameState, c: Character) -> bool:
    """Imprisoned, in hiding or stuck in a country at war (the exclusions of
    §13.4.13-§13.4.15), or dead."""
    return c.dead or c.imprisoned or c.hiding or stuck_at_war(state, c)


def seducer_out(state: GameState, c: Character) -> bool:
    """May ``c`` not seduce now (§13.4.15, §38 Romantic Intrigue)?  The Ruleset's
    ``seducer_out_hook``: in the 1981 edition only a dead character, in the errata one also one
    imprisoned, in hiding or stuck in a country at war (D35)."""
    out: bool = registry.HOOKS[ruleset(state).seducer_out_hook](state, c)
    return out


@registry.hook("seducer_dead")
def seducer_dead(state: GameState, c: Character) -> bool:
    """§13.4.15 (1981): the English text limits the target's situation, never the seducer's (the
    errata-only note under ruling R19): a female imprisoned, in hiding or stuck abroad may seduce."""
    return c.dead


@registry.hook("seducer_away_d35")
def seducer_away_d35(state: GameState, c: Character) -> bool:
    """D35 (ES §13.4.15): a female imprisoned, in hiding or stuck in a country at war cannot seduce."""
    return blocked(state, c)


def can_hold(state: GameState, p: int, owners: Sequence[str] = (), titles: Sequence[str] = ()) -> bool:
    """§35.4: would p's PP cover his faction if ``owners`` joined it and each of
    ``titles`` gained one title?  (Weighed without writing the state: ``pp_required_with``.)"""
    return state.players[p].pp >= pp_required_with(state, p, owners, titles)


def break_engagement(state: GameState, cid: str) -> None:
    """§18.4.6: an accepted proposal is negated if a character becomes a NC or EAC."""
    c = state.chars[cid]
    other = c.engaged_to
    if other is not None:
        state.wchar(cid).engaged_to = None
        if state.chars[other].engaged_to == cid:
            state.wchar(other).engaged_to = None
        log(state, f"The engagement of {name(cid)} and {name(other)} is broken off (§18.4.6).")


def discard_posts(state: GameState, cid: str) -> None:
    """§14.2.4, §17.4: the Henchman and Monarch's Counselor cards under a character
    who dies or changes side are discarded."""
    c = state.chars[cid]
    if c.henchman_card is not None:
        discard(state, c.henchman_card)
        state.wchar(cid).henchman_card = None
        log(state, f"{name(cid)}'s Henchman card is discarded (§17.4).")
    if c.counselor_card is not None:
        discard(state, c.counselor_card)
        state.wchar(cid).counselor_card = None
        log(state, f"{name(cid)}'s Monarch's Counselor card is discarded (§14.2.4).")


def _take_loyalty_counter(state: GameState, cid: str) -> None:
    """Place a noble's Loyalty counter on its card (§11.2), from wherever it is."""
    c = state.chars[cid]
    if cid in ROYALS or c.loyalty_counter:
        return
    pull_loyalty_counter(state, cid)
    state.wchar(cid).loyalty_counter = True


def join_faction(state: GameState, p: int, cid: str) -> None:
    """A NC/NRC or an EAC/EARC becomes p's FAC/FARC.

    From a NC the Loyalty counter is placed on the card (§11.2); an EAC keeps its
    counter (§11.3), loses its Henchman/Monarch's Counselor card (§14.2.4, §17.4) and
    an EARC keeps its Royal Alignment card (it stays aligned, now with p).  An Office
    Holder keeps his office (§16.6).  An engagement is broken off (§18.4.6).
    """
    c = state.wchar(cid)
    prev = c.owner
    if prev is None:
        _take_loyalty_counter(state, cid)
    else:
        discard_posts(state, cid)
        break_engagement(state, cid)
    c.owner = p


def use_intrigue_grant(state: GameState, p: int) -> None:
    """Consume the Intrigue grant (counter first; else an 'Intrigue' card, §14.5.7)."""
    if waived(state):
        return
    pt = state.pt
    if pt.get("intrigue", 0) > 0:
        pt["intrigue"] -= 1
        return
    card = take_card(state, p, "intrigue")
    discard(state, card)  # §14.2.3
    log(state, f"player {p} plays an 'Intrigue' card as an Intrigue counter (§14.5.7).")

"""Invariants that hold after every step of every game (checked by the soak tests).

``check(state)`` raises ``AssertionError`` naming the first broken invariant:
every one of the 120 Event cards, 36 Loyalty counters and 24 Opportunity
counters is in exactly one place; no character is in two places; IP and PP are
never negative; the Monarch's Support is a multiple of 5 within 0..120; a
pending decision has at least one option.
"""

from __future__ import annotations

from collections import Counter

from .data.components import CARD_IDS, CARD_TYPE_OF, LOYALTY_IDS, opportunity_ids
from .state import GameState


def card_places(state: GameState) -> Counter:
    seen: Counter = Counter()
    for c in state.deck:
        seen[c] += 1
    for c in state.discard:
        seen[c] += 1
    for c in state.removed:
        seen[c] += 1
    for pl in state.players:
        for c in pl.hand:
            seen[c] += 1
        for c in pl.in_front:
            seen[c] += 1
    for ch in state.chars.values():
        for c in (ch.henchman_card, ch.counselor_card, ch.alignment_card):
            if c is not None:
                seen[c] += 1
    return seen


def check(state: GameState, decision: bool = True) -> None:
    seen = card_places(state)
    bad = [c for c in CARD_IDS if seen[c] != 1]
    assert not bad, f"Event cards not in exactly one place: {[(c, seen[c]) for c in bad[:5]]}"
    assert set(seen) == set(CARD_IDS), f"unknown card ids {set(seen) - set(CARD_IDS)}"

    lc: Counter = Counter(state.loyalty_pool)
    for pl in state.players:
        lc.update(pl.loyalty_drawn)
    for cid, ch in state.chars.items():
        if ch.loyalty_counter:
            lc[cid] += 1
    lc.update(state.misc.get("death_removed", ()))  # removed from the game (D77, shorter_b)
    for cid in state.misc.get("death_removed", ()):
        ch = state.chars[cid]
        assert ch.dead and ch.owner is None and ch.office is None and not ch.is_pc, \
            f"permanently removed character {cid} is still in play"
        assert (ch.spouse is None and ch.engaged_to is None and not ch.loyalty_counter
                and ch.henchman_card is None and ch.counselor_card is None), \
            f"permanently removed character {cid} still has a spouse, an engagement, a counter or a card"
    badl = [x for x in LOYALTY_IDS if lc[x] != 1]
    assert not badl, f"Loyalty counters not in exactly one place: {[(x, lc[x]) for x in badl[:5]]}"
    assert sum(lc.values()) == 36, f"{sum(lc.values())} Loyalty counters instead of 36"

    oc: Counter = Counter(state.opportunity_pool)
    for pl in state.players:
        oc.update(pl.opportunity_drawn)
    bado = [x for x in opportunity_ids(state.config) if oc[x] != 1]  # D6: the edition's 24
    assert not bado, f"Opportunity counters not in exactly one place: {bado[:5]}"
    assert sum(oc.values()) == 24

    for pl in state.players:
        assert pl.ip >= 0, f"player {pl.idx} has negative IP {pl.ip}"
        assert pl.pp >= 0, f"player {pl.idx} has negative PP {pl.pp}"
        assert state.chars[pl.pc].is_pc and state.chars[pl.pc].owner == pl.idx, f"player {pl.idx}'s PC lost"
        assert sum(1 for c in pl.hand if CARD_TYPE_OF[c] == "dwtk") == 1, \
            f"player {pl.idx} must hold exactly one DOWN WITH THE KING card"
    assert 0 <= state.support <= 120 and state.support % 5 == 0, f"Monarch's Support {state.support}"

    offices: Counter = Counter(c.office for c in state.chars.values() if c.office)
    dup = [o for o, k in offices.items() if k > 1]
    assert not dup, f"offices held twice: {dup}"
    for cid, ch in state.chars.items():
        if ch.spouse is not None:
            assert state.chars[ch.spouse].spouse == cid, f"{cid} married to {ch.spouse} one-sidedly"
        if ch.office is not None and ch.office != "monarch":
            assert not (ch.hiding or ch.banished or ch.imprisoned), f"{cid} holds office while not free"
    assert state.chars[state.monarch].office == "monarch" or state.over, "the Monarch does not hold the office"
    if decision and not state.over:
        top = state.stack[-1] if state.stack else None
        assert top is not None and top.op == "decide", "no decision pending in a running game"
        assert len(top.args["options"]) >= 2, "a pending decision with fewer than two options"

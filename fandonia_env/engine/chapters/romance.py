"""§18 Romance & Marriage and §19 Dueling.

Registered here:

* free action ``propose`` (§18.4-§18.4.6, ruling A55) and the operation
  ``auto_proposal`` {p} (§18.4.5, a Prestige "Proposal Automatically Accepted");
* activity ``hold_wedding`` (§13.4.16, §18.3, §18.7-§18.10) with its wedding guests;
* operation ``break_engagement`` {cid} (§18.4.6) and an end-of-turn sweep of
  engagements made void by a death or a change of side;
* operation ``duel`` {player, cid, source, attendees=None} (§19.1-§19.10).

Marriage (§18)
--------------
Who may propose to whom (A55): both characters belong to the proposing player and
are alive, unmarried (a widow(er) may remarry, §18.6) and not already engaged; one is
male and one female (§18.2); the Archbishop, Thomas and Jane never marry (§18.1) and
King George never remarries (§18.5).  The proposer is the player's PC or a FAC - RCs
never propose (§18.4.4); the PC is never proposed to and never marries an RC
(§18.4.1, §18.4.4); a FAC proposing to a FARC must have a Status Rating of 4 or more
and the player pays Five IP, lost whatever the result (§18.4.4); both must be in the
same country (§18.4.2); a character may be party to one proposal per game turn, in
one role only (§18.4.3, ``Character.proposal_turn``).  The die is modified by the
player's Romance Prestige modifier (+1 for a FAC proposing to Princess Anne) and
clamped to 1..6 (A5): 3-6 accepted (``engaged_to`` on both), 2 refused, 1 refused and
the proposee becomes a NC/NRC (operation ``release``).

Reading: in the 1981 edition an engaged character may take part in another proposal (the English
text does not forbid it; D56's lock is errata-only, see the note under ruling R19): once accepted,
the new proposal replaces the engagement he had, which is negated (§18.4.6), so that nobody is ever
engaged to two.  In the errata edition the engagement keeps both out of other proposals until it is
negated (D56, ``marriage.proposal_locked``).

Reading: a "Proposal Automatically Accepted" grant (§18.4.5) is stored in
``state.pt["auto_proposal"]`` when it falls in the receiver's own Player Turn; a
wedding guest who gets it outside his Player Turn may use it in his own Player Turn
of the same game turn (``state.tstate["auto_proposal"]``), if that is still to come.
It lets one proposal ignore §18.4.3 and be accepted without a roll; the FARC
conditions (Status 4, Five IP) still apply.  When a pair could be proposed either
way, the player chooses whether to use the grant.

Weddings (§13.4.16): an engaged pair of the player's, both in Fandonia, neither
imprisoned nor in hiding (§18.3); if the marriage raises the PP his faction needs
(a Status Rating rises, §18.9/§18.10, A18) he must have that many PP.  Marrying a
FARC gives the FAC a Status of 8 while the RC is a FARC (``queries.status``, §18.10,
A19); when the RC stops being a FARC, §18.9 applies (the higher of the two).  The PC's spouse
is automatically a henchman (§18.8; ``queries.henchmen``).

Reading (guests, §13.4.16, by analogy with A43): a player may attend if his PC is
alive, free and in Fandonia; each other player is asked in player order, then every
attending player rolls on the Socializing Table (operation ``socializing_roll``
{p, guest: True}, owned by the Prestige chapter; A44 limits its side effects).

Errata edition and optional rules (issue 5)
-------------------------------------------
* ES §18.4 "unlimited proposals per Player Turn" (D54) is what the 1981 rules already say
  (no count per turn, §18.4.3 limits each character); the pending-proposal lock (D56) is the
  Ruleset's ``proposal_lock_hook``; ES §18.4.4 proposing to Anne subtracts one (D55); ES §36.10.5 a
  FARC Monarch neither proposes nor is proposed to (D83).
* ES §13.4.16: the host rolls on the Socializing Table too (D38), first, in his own Player
  Turn (so A44's activity-loss clauses apply to him); if his PC is marrying he rolls twice
  (D39).  A guest who gets "Proposal Automatically Accepted" designates the proposer and
  proposee at once (PASS loses it) or loses it (D40): the ruleset's
  ``guest_auto_proposal_hook`` (``auto_proposal_kept`` or ``auto_proposal_at_once``).
* §38 Romantic Intrigue 3 (eloping): a natural 6 on the proposal die (A5) runs the ruleset's
  ``accepted_proposal_six_ops``: the operation ``ri_elope_offer`` (``romantic_intrigue.py``).
* ES §19.7.1: a roll naming the duellist himself is rerolled (D58) and a female rolled
  as opponent who is a PC, FAC or EAC goes to §19.4, a neutral lady is rerolled (D59):
  both are what the duel code below already does in either edition.

Reading (D38): the host rolls before the guests ("each attending player, the host
included"; the host's roll is part of his own wedding).

Dueling (§19)
-------------
``duel`` {player, cid, source, attendees}: ``player`` - a player must fight and
designates his PC or a henchman (§19.3); ``cid`` - that character must fight
(§19.4, §19.5, §19.6).  ``source`` is "counter", "court_ball", "carousing" or
"prestige"; ``attendees`` lists the characters at a Court Ball (§19.7.3).

Readings:

* A character who is banished, imprisoned or in hiding cannot be reached for a duel,
  exactly as §19.7.2 says for opponents (and §24.3/§29.2 ignore a Prestige duel of a
  hiding or banished PC): he is treated as one who cannot fight (§19.3/§19.4: a
  henchman in Fandonia, or no duel).
* When a player must fight and his PC is (freely) abroad, the duel is fought abroad by
  the PC, no henchman standing in (§20.5, §19.7.4); a female PC abroad: no duel.
* A henchman standing in for another character must be in Fandonia (§17.6) and free;
  at a Court Ball he must be attending (§19.7.3, A43).  The character required to
  fight and the one standing in are both excluded as opponents.
* Ruling R12 (§19.4, §34.4; the same in both editions, ES §19.4 and §34.4 say the same):
  whenever a player's PC would fight a duel, the player may pay Three IP instead, if he
  can spend them, and no duel is fought: no opponent is rolled.  The PC would fight when
  it is named (``cid`` form, and a PC rolled as opponent, §19.7.5) or when a *player*
  must fight (§19.3: Duel counter §12.3.6, Prestige and Court Ball results) and has no
  henchman to designate (his PC is the only possible duellist).  The choice is the PASS
  option of that player's ``duel_fighter`` decision, offered before the opponent roll
  (with ``avoid_cost_ip`` in its context); a player who cannot pay gets no such option
  (and with the PC as his only duellist, no decision: ruling R10).  A FAC never buys
  his way out.  A player who may designate a henchman chooses between his duellists
  and pays nothing.
* Reading (R12): when the PC alone could be the duellist and no opponent can be found
  for him (§19.7.4, A3), no duel would be fought, so no payment is offered.
* Ambassadors are never opponents (§19.7.4), wherever the duel is.
* Treachery (§19.9): one custom card window before both dice (the rolls are
  simultaneous, §19.8, A10 v): in player order from the first player (A11), each
  player holding a Treachery card (or an Intrigue card played as one, §14.5.7) may
  play ONE, choose the duellist and the sign (+1/-1).  One card per player in the
  whole duel; several players may modify the same roll.
* Carousing (§19.9) adds +1 to the roll of the side that was required to fight.
* §19.10 is rolled (1d, not modifiable) after the deaths, only for a killer who is a
  PC or FAC of some player and survived the duel; '1' sends him to ``accuse``.
"""

from __future__ import annotations

from typing import Any, Final

from ..core import chance, registry
from ..core.actions import NO, PASS, SIGN_MINUS, SIGN_PLUS, YES, action_char, char_action
from ..core.machine import ask, log, op, seq
from ..core.records import DecisionContext
from ..core.state import GameState
from ..data.components import DUELISTS, FANDONIA, NOBLE_IDS, NOBLES, OFFICES, ROYALS
from ..rules.marriage import engaged_valid, marry, proposal_locked, wedding_pp_ok
from ..rules.queries import (
    abroad,
    can_spend,
    card_options,
    free,
    henchmen,
    is_female,
    name,
    owned_ids,
    play_card,
    player_order,
    spend_ip,
    status,
)
from ..rules.rolls import modified_roll
from ..rules.ruleset import ruleset

#: §18.1, §18.5: never marry (George may not remarry).
NEVER_MARRY: Final = frozenset({"55", "thomas", "jane", "george"})
FARC_PROPOSAL_IP: Final = 5  # §18.4.4
FARC_PROPOSER_STATUS: Final = 4  # §18.4.4
AVOID_DUEL_IP: Final = 3  # §19.4
#: §19.7.1: counts that are always rolled again.
NO_DUEL_COUNTS: Final = frozenset({"45", "46", "51", "55"})


# ---------------------------------------------------------------------------
# §18 helpers
# ---------------------------------------------------------------------------


def _unmarried(state: GameState, cid: str) -> bool:
    sp = state.chars[cid].spouse
    return sp is None or state.chars[sp].dead  # §18.6 a widow(er) may remarry


def _marriageable(state: GameState, cid: str, p: int) -> bool:
    c = state.chars[cid]
    return (c.owner == p and not c.dead and cid not in NEVER_MARRY and not c.consort
            and _unmarried(state, cid) and not proposal_locked(state, cid))  # D56 (errata only)


def _candidates(state: GameState, p: int) -> list[str]:
    return [cid for cid in owned_ids(state, p) if _marriageable(state, cid, p)]


def pair_ok(state: GameState, p: int, a: str, b: str, auto: bool = False, candidates: bool = False) -> bool:
    """May player p have ``a`` propose to ``b`` now (§18.2, §18.4.1-§18.4.5, A55)?
    ``candidates``: both are known to be marriageable (taken from ``_candidates``)."""
    if a == b:
        return False
    ca, cb = state.chars[a], state.chars[b]
    if a in ROYALS or cb.is_pc:  # RCs never propose; a PC is never proposed to
        return False
    if not candidates and not (_marriageable(state, a, p) and _marriageable(state, b, p)):
        return False
    if is_female(a) == is_female(b):  # §18.2
        return False
    if b in ROYALS:
        if ca.is_pc:  # §18.4.1
            return False
        if status(state, a) < FARC_PROPOSER_STATUS or not can_spend(state, p, FARC_PROPOSAL_IP):
            return False
    if ca.location != cb.location:  # §18.4.2
        return False
    if state.monarch in (a, b) and ruleset(state).farc_monarch_out_of_romance:  # ES §36.10.5 (D83): never a FARC Monarch
        return False
    if not auto and (ca.proposal_turn == state.turn or cb.proposal_turn == state.turn):
        return False  # §18.4.3
    return True


def auto_left(state: GameState, p: int) -> int:
    n = state.pt.get("auto_proposal", 0) if state.pt and state.pt.get("player") == p else 0
    return n + state.tstate.get("auto_proposal", {}).get(str(p), 0)


def _use_auto(state: GameState, p: int) -> None:
    if state.pt and state.pt.get("player") == p and state.pt.get("auto_proposal", 0) > 0:
        state.pt["auto_proposal"] -= 1
        return
    d = state.tstate.get("auto_proposal", {})
    d[str(p)] -= 1


def _pairs(state: GameState, p: int, first: bool = False) -> list[tuple[str, str]]:
    """The (proposer, proposee) pairs p may propose, in order; with ``first``, only the first (a
    legality check stops there)."""
    out: list[tuple[str, str]] = []
    cands = _candidates(state, p)
    if len(cands) < 2:
        return out
    auto = auto_left(state, p) > 0
    female = [is_female(c) for c in cands]
    for a, fa in zip(cands, female):
        if a in ROYALS:
            continue  # pair_ok: RCs never propose
        for b, fb in zip(cands, female):
            if fa != fb and pair_ok(state, p, a, b, auto, candidates=True):  # pair_ok: §18.2
                out.append((a, b))
                if first:
                    return out
    return out


def break_engagement(state: GameState, cid: str) -> None:
    """§18.4.6: the accepted proposal involving ``cid`` is negated."""
    c = state.chars[cid]
    other = c.engaged_to
    if other is None:
        return
    state.wchar(cid).engaged_to = None
    if state.chars[other].engaged_to == cid:
        state.wchar(other).engaged_to = None
    log(state, f"The proposal between {name(cid)} and {name(other)} is negated (§18.4.6).")


@op("break_engagement")
def op_break_engagement(state: GameState, cid: str) -> None:
    break_engagement(state, cid)


@op("romance_sweep")
def romance_sweep(state: GameState) -> None:
    """End of the turn: negate proposals made void by a death or a change of side
    (§18.4.6) that no other procedure negated."""
    for cid, c in state.chars.items():
        if c.engaged_to is not None and not engaged_valid(state, cid):
            break_engagement(state, cid)


# ---------------------------------------------------------------------------
# §18.4 Proposals (free action)
# ---------------------------------------------------------------------------


def _legal_propose(state: GameState, p: int) -> bool:
    if not state.pt or state.pt.get("player") != p:
        return False
    return bool(_pairs(state, p, first=True))  # the first pair will do


@op("propose_start")
def propose_start(state: GameState, p: int) -> None:
    pairs = _pairs(state, p)
    proposers = sorted({a for a, _ in pairs})
    seq(state, ask(p, "propose_proposer", [char_action(a) for a in proposers], "propose_proposer",
                   {"rule": "§18.4"}, p=p))


@op("propose_proposer")
def propose_proposer(state: GameState, choice: int, p: int) -> None:
    _ask_proposee(state, p, action_char(choice), "propose_proposee", "§18.4")


def _ask_proposee(state: GameState, p: int, a: str, then: str, rule: str) -> None:
    """Ask p whom ``a`` proposes to, among the pairs open to him."""
    targets = sorted({b for x, b in _pairs(state, p) if x == a})
    seq(state, ask(p, "propose_proposee", [char_action(b) for b in targets], then,
                   {"rule": rule, "proposer": a}, p=p, a=a))


@op("propose_proposee")
def propose_proposee(state: GameState, choice: int, p: int, a: str) -> None:
    b = action_char(choice)
    normal_ok = pair_ok(state, p, a, b, auto=False)
    auto_ok = auto_left(state, p) > 0 and pair_ok(state, p, a, b, auto=True)
    if normal_ok and auto_ok:
        seq(state, ask(p, "propose_use_auto", [YES, NO], "propose_use_auto",
                       {"rule": "§18.4.5", "proposer": a, "proposee": b}, p=p, a=a, b=b))
        return
    _do_proposal(state, p, a, b, auto=not normal_ok)


@op("propose_use_auto")
def propose_use_auto(state: GameState, choice: int, p: int, a: str, b: str) -> None:
    _do_proposal(state, p, a, b, auto=(choice == YES))


def _do_proposal(state: GameState, p: int, a: str, b: str, auto: bool) -> None:
    state.wchar(a).proposal_turn = state.turn
    state.wchar(b).proposal_turn = state.turn
    state.pt.setdefault("proposals", []).append([a, b])
    log(state, f"Player {p}: {name(a)} proposes marriage to {name(b)} (§18.4).")
    if b in ROYALS:
        spend_ip(state, p, FARC_PROPOSAL_IP, f"{name(a)}'s proposal to a FARC (§18.4.4)")
    if auto:
        _use_auto(state, p)
        log(state, "The proposal is automatically accepted (§18.4.5).")
        _engage(state, a, b)
        return
    mod = state.players[p].prestige_mods.get("romance", 0)
    why = f"Romance modifier {mod:+d}" if mod else ""
    penalty = ruleset(state).anne_proposal_penalty
    if b == "anne" and penalty:  # ES §18.4.4 (D55): "restará uno"
        mod -= penalty
        why = (why + ", " if why else "") + "-1 proposing to Princess Anne (ES §18.4.4)"
    elif b == "anne":  # §18.4.4: a FAC proposing to Princess Anne
        mod += 1
        why = (why + ", " if why else "") + "+1 proposing to Princess Anne"
    if why:
        log(state, f"  The proposal die is modified: {why}.")
    seq(state, modified_roll({"label": "Proposal", "dice": "1d", "base": mod, "clamp": [1, 6],
                              "then": "propose_result", "then_args": {"p": p, "a": a, "b": b}}))


@op("propose_result")
def propose_result(state: GameState, roll: dict[str, Any], p: int, a: str, b: str) -> None:
    t = roll["total"]
    if t >= 3:
        log(state, f"Proposal roll {t} (3-6): {name(b)} accepts {name(a)}'s proposal (§18.4).")
        _engage(state, a, b)
        if roll["natural"] == 6:  # A5; §38 Romantic Intrigue 3: the couple may elope
            seq(state, *[(o, {"p": p, "a": a, "b": b}) for o in ruleset(state).accepted_proposal_six_ops])
    elif t == 2:
        log(state, f"Proposal roll 2: {name(b)} refuses {name(a)}'s proposal (§18.4).")
    else:
        kind = "NRC" if b in ROYALS else "NC"
        log(state, f"Proposal roll 1: {name(b)} refuses {name(a)}'s proposal and becomes a {kind} (§18.4).")
        seq(state, ("release", {"cid": b}))


def _engage(state: GameState, a: str, b: str) -> None:
    """§18.4: ``a`` and ``b`` are engaged; an engagement either had is negated (§18.4.6): void, or,
    in the 1981 edition, replaced by this one (an engaged character may propose again there)."""
    break_engagement(state, a)
    break_engagement(state, b)
    state.wchar(a).engaged_to = b
    state.wchar(b).engaged_to = a
    log(state, f"{name(a)} and {name(b)} are engaged; a wedding may now be held (§18.4.7).")


@op("auto_proposal")
def auto_proposal(state: GameState, p: int) -> None:
    """§18.4.5: one proposal this turn is automatically accepted (must be made this turn)."""
    if state.pt and state.pt.get("player") == p:
        state.pt["auto_proposal"] = state.pt.get("auto_proposal", 0) + 1
        auto_proposal_kept(state, p)
        return
    d = state.tstate.setdefault("auto_proposal", {})
    d[str(p)] = d.get(str(p), 0) + 1
    registry.HOOKS[ruleset(state).guest_auto_proposal_hook](state, p)  # outside his Player Turn: 1981 or D40


@registry.hook("auto_proposal_kept")
def auto_proposal_kept(state: GameState, p: int) -> None:
    """§18.4.5: the grant waits for a proposal this turn (outside his Player Turn, for his own)."""
    log(state, f"Player {p} may make one marriage proposal this turn that is automatically accepted (§18.4.5).")


@registry.hook("auto_proposal_at_once")
def auto_proposal_at_once(state: GameState, p: int) -> None:
    """ES §13.4.16 (D40): a grant won outside his Player Turn (at a wedding) is used at once or lost."""
    log(state, f"Player {p} gets 'Proposal Automatically Accepted' at a wedding: he must designate the "
               "characters at once or lose it (ES §13.4.16, D40).")
    proposers = sorted({a for a, _ in _pairs(state, p)})
    if not proposers:
        _auto_lost(state, p)
        return
    seq(state, ask(p, "propose_proposer", [char_action(a) for a in proposers] + [PASS], "auto_now_proposer",
                   {"rule": "§13.4.16"}, p=p))


def _auto_lost(state: GameState, p: int) -> None:
    state.tstate.get("auto_proposal", {})[str(p)] = 0
    log(state, f"Player {p}'s automatically accepted proposal is lost (ES §13.4.16, D40).")


@op("auto_now_proposer")
def auto_now_proposer(state: GameState, choice: int, p: int) -> None:
    if choice == PASS:
        _auto_lost(state, p)
        return
    _ask_proposee(state, p, action_char(choice), "auto_now_proposee", "§13.4.16")


@op("auto_now_proposee")
def auto_now_proposee(state: GameState, choice: int, p: int, a: str) -> None:
    _do_proposal(state, p, a, action_char(choice), auto=True)
    state.tstate.get("auto_proposal", {})[str(p)] = 0  # used at once (D40)


# ---------------------------------------------------------------------------
# §13.4.16 / §18.3 Hold A Wedding (activity)
# ---------------------------------------------------------------------------


def _royal_partner(a: str, b: str) -> tuple[str | None, str | None]:
    """(the RC, the non-RC partner) of a pair, or (None, None)."""
    if a in ROYALS and b not in ROYALS:
        return a, b
    if b in ROYALS and a not in ROYALS:
        return b, a
    return None, None


def _can_wed_here(c) -> bool:
    return not c.dead and c.location == FANDONIA and not (c.imprisoned or c.hiding or c.banished)


def wedding_pairs(state: GameState, p: int, first: bool = False) -> list[tuple[str, str]]:
    """The engaged pairs p may wed now, in order; with ``first``, only the first (a legality check
    stops there)."""
    out: list[tuple[str, str]] = []
    chars = state.chars
    for cid in owned_ids(state, p):  # p's characters, in ``state.chars`` order
        c = chars[cid]
        if c.engaged_to is None or cid > c.engaged_to:
            continue
        other = c.engaged_to
        if not engaged_valid(state, cid):
            continue
        if not (_can_wed_here(c) and _can_wed_here(state.chars[other])):
            continue
        if not (_unmarried(state, cid) and _unmarried(state, other)):
            continue
        if wedding_pp_ok(state, p, cid, other):
            out.append((cid, other))
            if first:
                return out
    return out


def _legal_wedding(state: GameState, p: int) -> bool:
    return bool(wedding_pairs(state, p, first=True))


@op("wedding_start")
def wedding_start(state: GameState, p: int) -> None:
    pairs = wedding_pairs(state, p)
    seq(state, ask(p, "wedding_pair", [char_action(a) for a, _ in pairs], "wedding_pair",
                   {"rule": "§13.4.16", "pairs": [list(x) for x in pairs]}, p=p))


@op("wedding_pair")
def wedding_pair(state: GameState, choice: int, p: int) -> None:
    a = action_char(choice)
    b = state.chars[a].engaged_to
    assert b is not None
    marry(state, a, b)
    log(state, f"Player {p} holds a wedding: {name(a)} and {name(b)} are married (§13.4.16, §18.3).")
    rc, other = _royal_partner(a, b)
    if other is not None:
        log(state, f"{name(other)} enjoys a Status Rating of 8 while married to a FARC (§18.10).")
    pcid = state.players[p].pc
    if pcid in (a, b):
        sp = b if pcid == a else a
        log(state, f"{name(sp)}, spouse of player {p}'s PC, is automatically a henchman (§18.8).")
    extra = {"pcw": True} if ruleset(state).wedding_host_rolls and pcid in (a, b) else {}  # ES §13.4.16 (D39)
    seq(state, ("wedding_guests", {"host": p, "i": 0, "attending": [], **extra}))


def _may_attend(state: GameState, q: int) -> bool:
    c = state.chars[state.players[q].pc]
    return free(state, c) and not abroad(c)


@op("wedding_guests")
def wedding_guests(state: GameState, host: int, i: int, attending: list[int], pcw: bool = False) -> None:
    order = [q for q in (state.order or range(state.n)) if q != host]
    extra = {"pcw": True} if pcw else {}
    while i < len(order):
        q = order[i]
        if _may_attend(state, q):
            seq(state, ask(q, "wedding_attend", [YES, NO], "wedding_attend",
                           {"rule": "§13.4.16", "host": host}, host=host, i=i, attending=attending, **extra))
            return
        i += 1
    steps: list[Any] = []
    if ruleset(state).wedding_host_rolls:  # ES §13.4.16: the host rolls too (D38), twice if his PC marries (D39)
        steps.append(("wedding_host_roll", {"host": host, "second": False}))
        if pcw:
            steps.append(("wedding_host_roll", {"host": host, "second": True}))
    for q in attending:
        steps.append(("socializing_roll", {"p": q, "guest": True}))
    seq(state, *steps)


@op("wedding_attend")
def wedding_attend(state: GameState, choice: int, host: int, i: int, attending: list[int],
                   pcw: bool = False) -> None:
    order = [q for q in (state.order or range(state.n)) if q != host]
    q = order[i]
    if choice == YES:
        attending = attending + [q]
        log(state, f"Player {q} attends the wedding and consults the Socializing Table (§13.4.16).")
    extra = {"pcw": True} if pcw else {}
    seq(state, ("wedding_guests", {"host": host, "i": i + 1, "attending": attending, **extra}))


@op("wedding_host_roll")
def wedding_host_roll(state: GameState, host: int, second: bool) -> None:
    """ES §13.4.16: the host rolls on the Socializing Table too (D38); if his PC is marrying he
    rolls twice, once for the PC and once for the spouse (D39).  Rolled in his own Player Turn."""
    if second:
        log(state, f"Player {host}'s PC is marrying: he rolls again, for the PC's spouse (ES §13.4.16, D39).")
    else:
        log(state, f"Player {host}, the host, rolls on the Socializing Table too (ES §13.4.16, D38).")
    seq(state, ("socializing_roll", {"p": host, "guest": False}))


# ---------------------------------------------------------------------------
# §19 Dueling
# ---------------------------------------------------------------------------


def can_duel(cid: str) -> bool:
    """§19.2, §19.6: 11-44 and 52-54 only (RCs never)."""
    return cid in DUELISTS


def _reachable(state: GameState, cid: str) -> bool:
    """Reading: not dead, banished, imprisoned or in hiding (as §19.7.2 for opponents)."""
    c = state.chars[cid]
    return not (c.dead or c.banished or c.imprisoned or c.hiding)


def _attending(d: dict[str, Any], cid: str) -> bool:
    return d.get("attendees") is None or cid in d["attendees"]


def _substitute_ok(state: GameState, d: dict[str, Any], cid: str, exclude: set[str]) -> bool:
    """A henchman standing in for another (§17.2.1, §17.6, §19.3, §19.4)."""
    c = state.chars[cid]
    return (cid not in exclude and can_duel(cid) and _reachable(state, cid) and not c.banished
            and not abroad(c) and _attending(d, cid))


def _who_rolls(state: GameState, cid: str) -> str:
    o = state.chars[cid].owner
    return f"player {o}" if o is not None else f"the first player (player {state.first_player})"


def _no_duel(state: GameState, why: str) -> None:
    log(state, f"No duel is fought ({why}); there is no penalty.")


@op("duel")
def duel(state: GameState, player: int | None = None, cid: str | None = None, source: str = "counter",
         attendees: list[str] | None = None) -> None:
    """§19: ``player`` must fight (§19.3) or ``cid`` must fight (§19.4-§19.6)."""
    d: dict[str, Any] = {"source": source, "attendees": list(attendees) if attendees is not None else None,
                         "req": cid, "req_player": player, "fighter": None, "opp": None, "exclude": []}
    if cid is None:
        if player is None:
            return
        p = player
        log(state, f"Player {p} must fight a duel ({source}, §19.1).")
        pcid = state.players[p].pc
        opts = []
        if can_duel(pcid) and _reachable(state, pcid) and _attending(d, pcid):
            opts.append(pcid)
        if not (abroad(state.chars[pcid]) and _reachable(state, pcid)):  # §20.5, §19.7.4
            opts += [h for h in henchmen(state, p) if _substitute_ok(state, d, h, {pcid})]
        if not opts:
            _no_duel(state, f"player {p}'s PC cannot fight and he has no henchman who can, §19.3")
            return
        choices = [char_action(x) for x in opts]
        ctx: DecisionContext = {"rule": "§19.3", "source": source, "role": "fighter"}
        if opts == [pcid] and _buyout_ok(state, d, p, pcid, opts, "fighter"):
            choices.append(PASS)  # ruling R12: no henchman to designate, so his PC would fight
            ctx["required"], ctx["avoid_cost_ip"] = pcid, AVOID_DUEL_IP
            seq(state, ask(p, "duel_fighter", choices, "duel_designated", ctx, d=d, role="fighter", x=pcid))
            return
        seq(state, ask(p, "duel_fighter", choices, "duel_designated", ctx, d=d, role="fighter"))
        return
    d["req_player"] = state.chars[cid].owner
    log(state, f"{name(cid)} must fight a duel ({source}, §19.1).")
    _required(state, d, cid, "fighter")


def _required(state: GameState, d: dict[str, Any], x: str, role: str) -> None:
    """A specific character must fight (§19.4-§19.6, §19.7.5)."""
    c = state.chars[x]
    if x in ROYALS:
        _no_duel(state, f"{name(x)} is an RC and RCs never fight duels, §19.6")
        return
    if c.dead:
        _no_duel(state, f"{name(x)} is dead")
        return
    able = can_duel(x) and _reachable(state, x) and _attending(d, x)
    if c.owner is None:  # §19.5 NCs must always fight
        if not able:
            _no_duel(state, f"{name(x)} cannot fight a duel, §19.2")
            return
        _designated(state, d, x, role)
        return
    q = c.owner
    opts = [x] if able else []
    if not abroad(c):  # §19.7.4: no henchman for a character abroad
        exclude = {x} | set(d["exclude"]) | ({d["fighter"]} if d["fighter"] else set())
        opts += [h for h in henchmen(state, q) if _substitute_ok(state, d, h, exclude)]
    if not opts:
        _no_duel(state, f"{name(x)} cannot fight and player {q} has no henchman who may stand in, §19.4")
        return
    choices = [char_action(y) for y in opts]
    if c.is_pc and _buyout_ok(state, d, q, x, opts, role):
        choices.append(PASS)  # §19.4, ruling R12: a PC (never a FAC) may avoid the duel for Three IP
    seq(state, ask(q, "duel_fighter", choices, "duel_designated",
                   {"rule": "§19.4", "source": d["source"], "role": role, "required": x,
                    "avoid_cost_ip": AVOID_DUEL_IP if PASS in choices else None}, d=d, role=role, x=x))


@op("duel_designated")
def duel_designated(state: GameState, choice: int, d: dict[str, Any], role: str, x: str | None = None) -> None:
    if choice == PASS:
        q = state.chars[x].owner  # type: ignore[index]
        spend_ip(state, q, AVOID_DUEL_IP, f"{name(x)} avoiding a duel (§19.4)")  # type: ignore[arg-type]
        _no_duel(state, f"player {q} paid Three IP, §19.4, ruling R12")
        return
    _designated(state, d, action_char(choice), role)


def _designated(state: GameState, d: dict[str, Any], cid: str, role: str) -> None:
    if role == "fighter":
        d["fighter"] = cid
        if d["req"] and d["req"] != cid:
            log(state, f"{name(cid)} fights the duel in place of {name(d['req'])} (§19.4).")
        elif d["req"] is None:
            log(state, f"Player {d['req_player']} designates {name(cid)} to fight the duel (§19.3).")
        _find_opponent(state, d)
    else:
        d["opp"] = cid
        if d["exclude"] and cid != d["exclude"][-1]:
            log(state, f"{name(cid)} fights the duel in place of {name(d['exclude'][-1])} (§19.7.5, §19.4).")
        _fight(state, d)


def _opp_reject(state: GameState, d: dict[str, Any], cid: str, exclude: set[str],
                fighter: str | None = None) -> str | None:
    """Why a dice count must be rolled again (§19.7.1-§19.7.4, A3), or None.
    ``fighter``: the duellist whose opponent is sought (default: the designated one)."""
    if cid in NO_DUEL_COUNTS:
        return "45-51 and 55 are rolled again (§19.7.1)"
    if cid in exclude:
        return "a character already in this duel: roll again (A3)"
    c = state.chars[cid]
    if c.dead:
        return "dead: roll again (A3)"
    if is_female(cid) and c.owner is None:
        return "a neutral lady: roll again (§19.7.1)"
    if c.banished or c.hiding or c.imprisoned:
        return "banished, in hiding or imprisoned: roll again (§19.7.2)"
    if c.office is not None and OFFICES[c.office].country is not None:
        return "an ambassador cannot be an opponent: roll again (§19.7.4)"
    f = state.chars[fighter or d["fighter"]]
    if abroad(f):
        if c.location != f.location:
            return "not abroad in the duellist's country: roll again (§19.7.4)"
    elif abroad(c):
        return "abroad: roll again (§19.7.2)"
    if not _attending(d, cid):
        return "not attending the Court Ball: roll again (§19.7.3)"
    return None


def _any_opponent(state: GameState, d: dict[str, Any], fighter: str) -> bool:
    """§19.7.4, A3: could an opponent be rolled for ``fighter`` at all?"""
    exclude = {fighter} | ({d["req"]} if d["req"] else set())
    return any(_opp_reject(state, d, cid, exclude, fighter) is None for cid in NOBLE_IDS)


def _buyout_ok(state: GameState, d: dict[str, Any], q: int, pcid: str, opts: list[str], role: str) -> bool:
    """§19.4, ruling R12: may player ``q`` pay Three IP so that his PC ``pcid`` fights no duel?

    Only if he can spend them (§34.6, §34.7) and a duel would be fought: when the PC alone
    could fight as the duellist and no opponent can be found, no duel is fought anyway
    (§19.7.4), so there is nothing to buy (ruling R10: no decision)."""
    if not can_spend(state, q, AVOID_DUEL_IP):
        return False
    return not (role == "fighter" and opts == [pcid] and not _any_opponent(state, d, pcid))


def _find_opponent(state: GameState, d: dict[str, Any]) -> None:
    """§19.7: dice counts until a usable character is named."""
    exclude = {d["fighter"]} | ({d["req"]} if d["req"] else set())
    if not any(_opp_reject(state, d, cid, exclude) is None for cid in NOBLE_IDS):
        _no_duel(state, "no character can be his opponent, §19.7.4, A3")
        return
    while True:
        n = str(chance.dice_count(state, "duel opponent (§19.7)"))
        why = _opp_reject(state, d, n, exclude)
        if why is None:
            break
        log(state, f"Duel opponent dice count {n} ({name(n)}): {why}.")
    log(state, f"Duel opponent dice count {n}: {name(n)} is {name(d['fighter'])}'s opponent (§19.7).")
    d["exclude"] = sorted(exclude) + [n]
    _required(state, d, n, "opponent")


def _fight(state: GameState, d: dict[str, Any]) -> None:
    f, o = d["fighter"], d["opp"]
    d["mod"] = {f: 0, o: 0}
    log(state, f"{name(f)} (Dueling Rating {NOBLES[f].dueling}) fights a duel with {name(o)} "
               f"(Dueling Rating {NOBLES[o].dueling}) (§19.8).")
    seq(state, ("duel_window", {"d": d, "i": 0}))


def _window_options(state: GameState, q: int) -> list[int]:
    return card_options(state, q, "treachery")  # the card, or an Intrigue card as one (§14.5.7)


@op("duel_window")
def duel_window(state: GameState, d: dict[str, Any], i: int) -> None:
    """§19.9: one pass in player order (A11); one Treachery card per player."""
    order = player_order(state)
    while i < len(order):
        q = order[i]
        opts = _window_options(state, q)
        if opts:
            seq(state, ask(q, "card_window", opts + [PASS], "duel_card",
                           {"roll": "Duel", "duellists": [d["fighter"], d["opp"]]}, d=d, i=i))
            return
        i += 1
    _duel_roll(state, d)


@op("duel_card")
def duel_card(state: GameState, choice: int, d: dict[str, Any], i: int) -> None:
    order = player_order(state)
    q = order[i]
    if choice == PASS:
        seq(state, ("duel_window", {"d": d, "i": i + 1}))
        return
    _, shown = play_card(state, q, choice)
    log(state, f"player {q} plays {shown} on the duel (§19.9).")
    f, o = d["fighter"], d["opp"]
    seq(state, ask(q, "duel_card_target", [char_action(f), char_action(o)], "duel_card_target",
                   {"roll": "Duel", "duellists": [f, o]}, d=d, i=i))


@op("duel_card_target")
def duel_card_target(state: GameState, choice: int, d: dict[str, Any], i: int) -> None:
    order = player_order(state)
    target = action_char(choice)
    seq(state, ask(order[i], "card_sign", [SIGN_PLUS, SIGN_MINUS], "duel_card_sign",
                   {"roll": f"Duel ({name(target)}'s die)", "amount": 1, "card": "treachery"},
                   d=d, i=i, target=target))


@op("duel_card_sign")
def duel_card_sign(state: GameState, choice: int, d: dict[str, Any], i: int, target: str) -> None:
    delta = 1 if choice == SIGN_PLUS else -1
    d["mod"][target] += delta
    log(state, f"  ... {delta:+d} to {name(target)}'s dueling die.")
    seq(state, ("duel_window", {"d": d, "i": i + 1}))


def _duel_roll(state: GameState, d: dict[str, Any]) -> None:
    """§19.8: both dice, then both results at once (A10 v)."""
    f, o = d["fighter"], d["opp"]
    kills = []
    for me, other, extra in ((f, o, 1 if d["source"] == "carousing" else 0), (o, f, 0)):
        nat = chance.d6(state, "dueling roll (§19.8)")
        mod = d["mod"][me] + extra
        total = nat + mod
        rating = NOBLES[me].dueling
        parts = f" {mod:+d}" if mod else ""
        if extra:
            parts += " (Carousing +1)"
        hit = total < rating
        log(state, f"Dueling roll for {name(me)} by {_who_rolls(state, me)}: rolled {nat}{parts} = {total} "
                   f"against Dueling Rating {rating}: "
                   + (f"less, {name(other)} is killed." if hit else "not less, no effect."))
        if hit:
            kills.append((me, other))
    if not kills:
        log(state, "Both duellists survive the duel.")
        return
    dead = {v for _, v in kills}
    killers = [k for k, _ in kills if k not in dead and state.chars[k].owner is not None]
    seq(state, *[("kill", {"cid": v, "cause": "duel"}) for _, v in kills],
        ("duel_aftermath", {"killers": killers, "victims": {k: v for k, v in kills}}) if killers else None)


@op("duel_aftermath")
def duel_aftermath(state: GameState, killers: list[str], victims: dict[str, str]) -> None:
    """§19.10: a PC or FAC who killed his opponent rolls one die: '1' accused of wrongdoing."""
    steps = []
    for k in killers:
        c = state.chars[k]
        if c.dead or c.owner is None:
            continue
        r = chance.d6(state, "kill in a duel (§19.10)")
        if r == 1:
            log(state, f"Kill in a duel roll for {name(k)}: 1 - {name(k)} is accused of wrongdoing (§19.10).")
            steps.append(("accuse", {"cid": k, "why": f"killed {name(victims[k])} in a duel (§19.10)"}))
        else:
            log(state, f"Kill in a duel roll for {name(k)}: {r} (2-6) - no effect (§19.10).")
    seq(state, *steps)


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

registry.free_action("propose", _legal_propose, "propose_start")
registry.activity("hold_wedding", _legal_wedding, "wedding_start")
